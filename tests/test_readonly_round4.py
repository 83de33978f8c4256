"""An index whose folder or file is read-only (chmod, as a read-only disk or a copied home leaves it): questions are
answered from it when they can be, else the read-only place is named; never "damaged", never a rebuild."""

from __future__ import annotations

import re
import sqlite3
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.cli import Ran
from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import embed
from vaultrag.core.store.db import connect
from vaultrag.errors import IndexReadOnly, Problem


def _modes_hold() -> bool:
    """Whether this process is held to files' modes (a user, or root without CAP_DAC_OVERRIDE: CI runs these
    tests so through tests/test_as_a_user.py)."""
    import tempfile

    with tempfile.TemporaryDirectory() as d:
        folder = Path(d, "ro")
        folder.mkdir()
        folder.chmod(0o555)
        try:
            (folder / "x").write_text("x")
        except PermissionError:
            return True
        finally:
            folder.chmod(0o755)
    return False


non_root = pytest.mark.skipif(not _modes_hold(), reason="this process writes read-only files and folders regardless")

Cli = Callable[..., Ran]


@pytest.fixture(autouse=True)
def fake_models(monkeypatch: pytest.MonkeyPatch) -> None:
    """The counting fake in place of the configured embedder (only ML models are faked): the index has vectors, so
    a question reads the vec0 tables too."""
    monkeypatch.setattr(embed, "from_settings", lambda settings, one_question=False: CountingEmbedder())
    monkeypatch.setattr(embed, "preload", lambda settings: None)


@pytest.fixture
def indexed(home: Path, vault: Path, cli: Cli) -> Iterator[Path]:
    """A vault indexed with vectors; the index file (made writable again at the end, so the temp dir goes)."""
    for n in range(6):
        write(vault, f"n{n}.md", f"# Orchard {n}\n\nApples and pears number {n} grow in the orchard behind the "
              "old house.\n")
    r = cli(home, "index", vault)
    assert r.returncode == 0, r.stderr
    index_file = next((home / "indexes").glob("*.sqlite"))
    yield index_file
    index_file.parent.chmod(0o755)
    for f in index_file.parent.iterdir():
        f.chmod(0o644)


def files(folder: Path) -> dict[str, int]:
    return {f.name: f.stat().st_mode & 0o777 for f in folder.iterdir()}


def no_rebuild_advice(text: str) -> None:
    assert not re.search(r"(?<!Nothing )is damaged|rebuil", text), text


@non_root
def test_a_read_only_index_folder_answers_and_is_never_called_damaged(home: Path, vault: Path, indexed: Path,
                                                                      cli: Cli):
    """The defect: `ask` and `status` said "damaged … rebuild it" while `status --check` said ok."""
    folder = indexed.parent
    before = files(folder)
    folder.chmod(0o555)
    asked = cli(home, "ask", vault, "apples orchard")
    assert asked.returncode == 0, asked.stderr
    assert "Apples and pears number" in asked.stdout
    no_rebuild_advice(asked.stderr)
    for status in (("status", vault), ("status", vault, "--check")):
        r = cli(home, *status)
        assert r.returncode == 0, r.stderr
        no_rebuild_advice(r.stderr)
    assert "check: ok" in r.stdout
    assert files(folder) == before, "a reader made nothing there"
    # a writer cannot work there: the folder is named as read-only, with what to do
    r = cli(home, "index", vault)
    assert r.returncode == 2
    assert f"The index folder {folder} is read-only" in r.stderr and "make the folder writable" in r.stderr
    assert "--home" in r.stderr
    no_rebuild_advice(r.stderr)
    folder.chmod(0o755)
    assert cli(home, "index", vault).returncode == 0


@non_root
def test_a_read_only_folder_an_index_cannot_be_read_in_says_so(home: Path, vault: Path, indexed: Path, cli: Cli):
    """A -wal a writer left (with transactions not yet in the file) and no -shm: SQLite must make the -shm to read
    it, which the folder refuses; reading the file alone would miss what the -wal holds."""
    folder = indexed.parent
    db = connect(indexed)
    db.execute("pragma wal_autocheckpoint=0")
    db.execute("insert into index_meta(key, value) values ('left in the wal', '1')")
    wal = (folder / (indexed.name + "-wal")).read_bytes()
    db.close()
    assert wal, "the -wal held a transaction"
    (folder / (indexed.name + "-wal")).write_bytes(wal)
    folder.chmod(0o555)
    for command in (("ask", vault, "apples orchard"), ("status", vault)):
        r = cli(home, *command)
        assert r.returncode == 2, r.stdout
        assert f"The index folder {folder} is read-only" in r.stderr, r.stderr
        assert "-shm" in r.stderr and "make the folder writable" in r.stderr
        no_rebuild_advice(r.stderr)
    folder.chmod(0o755)
    r = cli(home, "ask", vault, "apples orchard")
    assert r.returncode == 0 and "Apples and pears number" in r.stdout, r.stderr


@non_root
def test_asking_a_read_only_index_file_leaves_nothing_behind(home: Path, vault: Path, indexed: Path, cli: Cli):
    """The defect: `ask` on a 444 index made 444 -wal/-shm files beside it, and `index` failed once the file was
    writable again."""
    folder = indexed.parent
    before = files(folder)
    indexed.chmod(0o444)
    asked = cli(home, "ask", vault, "apples orchard")
    assert asked.returncode == 0, asked.stderr
    assert "Apples and pears number" in asked.stdout
    assert cli(home, "status", vault).returncode == 0
    assert files(folder) == {**before, indexed.name: 0o444}, "no -wal/-shm made"
    r = cli(home, "index", vault)
    assert r.returncode == 2
    assert f"The index file {indexed} is read-only" in r.stderr and "make the file writable" in r.stderr
    no_rebuild_advice(r.stderr)
    indexed.chmod(0o644)
    write(vault, "new.md", "# Quince\n\nQuince jelly needs a long boil.\n")
    r = cli(home, "index", vault)
    assert r.returncode == 0, r.stderr
    assert "Quince jelly" in cli(home, "ask", vault, "quince jelly").stdout


@non_root
def test_index_recovers_from_side_files_a_reader_left_read_only(home: Path, vault: Path, indexed: Path, cli: Cli):
    """-wal/-shm files SQLite made with a 444 index's mode (an older vaultrag's reader, or another program's) are
    made writable by the next writer, whose run then goes on; what the -wal holds is kept."""
    indexed.chmod(0o444)
    reader = sqlite3.connect(f"{indexed.as_uri()}?mode=ro", uri=True)  # what the old reader did
    assert reader.execute("select count(*) from notes").fetchone()[0] == 6
    reader.close()
    wal, shm = (indexed.with_name(indexed.name + side) for side in ("-wal", "-shm"))
    assert wal.stat().st_mode & 0o777 == 0o444 and shm.stat().st_mode & 0o777 == 0o444
    indexed.chmod(0o644)
    write(vault, "new.md", "# Quince\n\nQuince jelly needs a long boil.\n")
    r = cli(home, "index", vault)
    assert r.returncode == 0, r.stderr
    no_rebuild_advice(r.stdout + r.stderr)
    assert not list(indexed.parent.glob("*.corrupt-*")), "nothing moved aside"
    assert "Quince jelly" in cli(home, "ask", vault, "quince jelly").stdout
    assert cli(home, "status", vault, "--check").returncode == 0


@non_root
def test_a_read_only_home_without_an_index_folder_is_named(home: Path, vault: Path, cli: Cli):
    """The first run in a read-only home: the home is named as read-only, the run does not fail on a traceback."""
    write(vault, "a.md", "# A\n\nApples.\n")
    home.chmod(0o555)
    try:
        r = cli(home, "index", vault)
    finally:
        home.chmod(0o755)
    assert r.returncode == 2
    assert f"The index folder {home} is read-only" in r.stderr, r.stderr
    no_rebuild_advice(r.stderr)


@non_root
def test_the_window_words_a_read_only_index(home: Path, vault: Path, indexed: Path):
    """The error carries its code and details, so a window says it in its own language."""
    from vaultrag.app.words import problem_text
    from vaultrag.core.workspace import Workspace

    indexed.parent.chmod(0o555)
    ws = Workspace.load(vault, home)
    with pytest.raises(IndexReadOnly) as caught:
        ws.open_store()  # a writer's open
    e = caught.value
    assert e.problem == Problem.INDEX_READ_ONLY
    assert e.details["kind"] == "folder" and e.details["path"] == str(indexed.parent)
    assert problem_text(Problem.INDEX_READ_ONLY, e.details).startswith(
        f"The index folder {indexed.parent} is read-only")
    assert not list(indexed.parent.glob("*.corrupt-*")), "nothing moved aside"


def test_a_home_whose_path_has_uri_characters_is_read(tmp_path: Path, vault: Path, cli: Cli):
    """A reader opens the index by URI: a '#' or '%' in the home's path was read as a URI's, and `ask` failed."""
    write(vault, "a.md", "# A\n\nApples and pears grow in the orchard.\n")
    for name in ("home #1", "home %41?"):
        home = tmp_path / name
        assert cli(home, "index", vault).returncode == 0
        r = cli(home, "ask", vault, "apples orchard")
        assert r.returncode == 0 and "Apples and pears" in r.stdout, r.stderr

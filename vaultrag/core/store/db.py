"""connect(): sqlean's SQLite with sqlite-vec loaded on every connection, WAL, and sane pragmas."""

from __future__ import annotations

import contextlib
import os
from pathlib import Path
from typing import Any

import sqlean
import sqlite_vec

from vaultrag.errors import UserFacingError

Error = sqlean.Error  # sqlean's exceptions are not subclasses of the stdlib's sqlite3.Error
Connection = Any  # sqlean.dbapi2.Connection; kept loose because sqlean ships no type stubs
APPLICATION_ID = 0x76726167  # "vrag": tells our index files from other SQLite files


class CorruptIndex(UserFacingError):
    """The index file is damaged or belongs to another program; it can be moved aside and rebuilt."""


def connect(path: str | os.PathLike[str], readonly: bool = False, timeout: float = 10.0,
            still: bool = False) -> Connection:
    """Open `path` with sqlite-vec loaded; autocommit mode (transactions are explicit BEGINs). `still` (a read-only
    check): when no other connection has the file open (no `-wal` beside it), read it as immutable, so not even
    SQLite's `-wal`/`-shm` companions are created."""
    p = Path(path)
    if p.is_dir():
        raise CorruptIndex(f"The index path {p} is a folder, not an index file.")
    if readonly:
        uri = f"file:{p}?mode=ro"
        if still and not p.with_name(p.name + "-wal").exists():
            uri += "&immutable=1"
        db = sqlean.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=timeout)
    else:
        p.parent.mkdir(parents=True, exist_ok=True)
        db = sqlean.connect(str(p), isolation_level=None, check_same_thread=False, timeout=timeout)
    try:
        db.enable_load_extension(True)
        sqlite_vec.load(db)
        db.enable_load_extension(False)
        app_id = db.execute("pragma application_id").fetchone()[0]
        has_tables = db.execute("select count(*) from sqlite_master").fetchone()[0] > 0
    except sqlean.DatabaseError as e:
        db.close()
        raise CorruptIndex(f"The index file {p} is damaged ({e}).", why=e) from e
    if has_tables and app_id != APPLICATION_ID:
        db.close()
        raise CorruptIndex(f"{p} is a SQLite file of another program, not a vaultrag index.")
    if not readonly:
        db.execute("pragma journal_mode=wal")
        if app_id != APPLICATION_ID:
            db.execute(f"pragma application_id={APPLICATION_ID}")
    # deleted rows are overwritten with zeros, not just unlinked: an excluded or deleted note must be gone from
    # the bytes of the file (the WAL is truncated after each run, see IndexStore.purge_wal)
    db.execute("pragma secure_delete=on")
    db.execute("pragma synchronous=normal")
    db.execute("pragma foreign_keys=on")
    db.execute(f"pragma busy_timeout={int(timeout * 1000)}")
    return db


CORRUPTION_CODES = {11, 26}  # SQLITE_CORRUPT, SQLITE_NOTADB (primary codes)


def bump_generation(db: Connection) -> None:
    """Count one more write transaction (a reader's helper connection compares it with the reader's snapshot)."""
    db.execute("insert into index_meta(key, value) values ('generation', 1) "
               "on conflict(key) do update set value = value + 1")


def generation(db: Connection) -> str:
    """How many write transactions the state this connection reads has seen ('0' before the first)."""
    row = db.execute("select value from index_meta where key = 'generation'").fetchone()
    return str(row[0]) if row else "0"


def is_corruption(e: BaseException) -> bool:
    """Whether a database error means the file is damaged (so a rebuild, not a retry, is the fix): SQLite's own
    result code says it (SQLITE_CORRUPT and its extended codes such as SQLITE_CORRUPT_VTAB, SQLITE_NOTADB), never
    the message. An error SQLite did not raise (no code) is not damage."""
    code = getattr(e, "sqlite_errorcode", None)
    return isinstance(code, int) and code & 0xFF in CORRUPTION_CODES


def aside_copies(path: str | os.PathLike[str], tag: str = "corrupt") -> list[Path]:
    """The copies `move_aside` made of the index at `path` (without their -wal/-shm files), oldest first; a folder
    found where the index should be was moved aside too."""
    p = Path(path)
    found = [q for q in p.parent.glob(f"{p.name}.{tag}-*") if q.name.rpartition("-")[2].isdigit()]
    return sorted(found, key=lambda q: int(q.name.rpartition("-")[2]))


def drop_aside_copies(path: str | os.PathLike[str], tag: str = "corrupt") -> list[Path]:
    """Delete the copies of a damaged index once it is rebuilt from the notes: they hold the text of notes that
    may have been excluded since (and nothing the notes cannot give again). A folder stays (vaultrag never wrote
    it), its -wal/-shm files (the index's own) go. Returns what was deleted."""
    gone = []
    for copy in aside_copies(path, tag):
        for side in (copy.with_name(copy.name + "-wal"), copy.with_name(copy.name + "-shm")):
            with contextlib.suppress(FileNotFoundError):
                side.unlink()
        if copy.is_file():
            copy.unlink()
            gone.append(copy)
    return gone


def move_aside(path: str | os.PathLike[str], tag: str) -> Path:
    """Rename a bad index (and its WAL files) to `<name>.<tag>-N` so nothing is lost; returns the new path."""
    p = Path(path)
    n = 1
    while (target := p.with_name(f"{p.name}.{tag}-{n}")).exists():
        n += 1
    os.replace(p, target)
    for suffix in ("-wal", "-shm"):
        side = p.with_name(p.name + suffix)
        if side.exists():
            os.replace(side, target.with_name(target.name + suffix))
    return target

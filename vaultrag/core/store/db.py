"""connect(): sqlean's SQLite with sqlite-vec loaded on every connection, WAL, and sane pragmas."""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path
from typing import Any

import sqlean
import sqlite_vec

from vaultrag.errors import UserFacingError, index_read_only

Error = sqlean.Error  # sqlean's exceptions are not subclasses of the stdlib's sqlite3.Error
Connection = Any  # sqlean.dbapi2.Connection; kept loose because sqlean ships no type stubs
APPLICATION_ID = 0x76726167  # "vrag": tells our index files from other SQLite files


class CorruptIndex(UserFacingError):
    """The index file is damaged or belongs to another program; it can be moved aside and rebuilt."""


def connect(path: str | os.PathLike[str], readonly: bool = False, timeout: float = 10.0,
            still: bool = False) -> Connection:
    """Open `path` with sqlite-vec loaded; autocommit mode (transactions are explicit BEGINs). A reader reads the
    file as immutable (no lock, and not even SQLite's `-wal`/`-shm` companions made) when no connection has it open
    and either `still` (a read-only check) or no writer could open it (the file or its folder is read-only)."""
    p = Path(path)
    if p.is_dir():
        raise CorruptIndex(f"The index path {p} is a folder, not an index file.", why="a folder is in its place")
    if readonly:
        # a URI, so a '#', '?' or '%' in the home's path is part of the path (as_uri escapes them)
        uri = Path(os.path.abspath(p)).as_uri() + "?mode=ro"
        writable = os.access(p.parent, os.W_OK) and os.access(p, os.W_OK)
        if (still or not writable) and not _in_use(p):
            # nothing is writing the file, and where it is read-only nothing can start to: SQLite's -wal/-shm
            # would be made with the file's read-only mode and left behind (a later writer could not open them),
            # or cannot be made at all in a read-only folder, where a reader in WAL mode needs them
            uri += "&immutable=1"
        db = sqlean.connect(uri, uri=True, isolation_level=None, check_same_thread=False, timeout=timeout)
    else:
        _writable_or_raise(p)
        db = sqlean.connect(str(p), isolation_level=None, check_same_thread=False, timeout=timeout)
    try:
        db.enable_load_extension(True)
        sqlite_vec.load(db)
        db.enable_load_extension(False)
        app_id = db.execute("pragma application_id").fetchone()[0]
        has_tables = db.execute("select count(*) from sqlite_master").fetchone()[0] > 0
    except sqlean.DatabaseError as e:
        db.close()
        if getattr(e, "sqlite_errorcode", 0) & 0xFF in READ_ONLY_CODES and (part := read_only_part(p)) is not None:
            wal, shm = side_files(p)
            why = (f"SQLite cannot make {shm.name} there, which reading the index needs while {wal.name} is beside "
                   "it" if part == p.parent and wal.exists() and not shm.exists() else e)
            raise index_read_only(part, why) from e
        raise CorruptIndex(f"The index file {p} is damaged ({e}).", why=e) from e
    if has_tables and app_id != APPLICATION_ID:
        db.close()
        raise CorruptIndex(f"{p} is a SQLite file of another program, not a vaultrag index.",
                           why="a SQLite file of another program is in its place")
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


# SQLITE_PERM, SQLITE_READONLY, SQLITE_IOERR, SQLITE_CANTOPEN (primary codes): what a read-only place gives
READ_ONLY_CODES = {3, 8, 10, 14}


def side_files(path: str | os.PathLike[str]) -> tuple[Path, Path]:
    """The index's `-wal` and `-shm` files (SQLite's, beside it)."""
    p = Path(path)
    return p.with_name(p.name + "-wal"), p.with_name(p.name + "-shm")


def read_only_part(path: str | os.PathLike[str]) -> Path | None:
    """The first of the index's folder (or the folder it would be made in), its file and its -wal/-shm files that
    this process cannot write (None when each can be written or is not there)."""
    p = Path(path)
    folder = next(q for q in p.parents if q.exists())
    for q in (folder, p, *side_files(p)):
        if q.exists() and not os.access(q, os.W_OK):
            return q
    return None


def _in_use(p: Path) -> bool:
    """Whether a connection may have the index open: a -wal beside it (a writer in WAL mode keeps one while
    connected), unless it is empty and its -shm is gone (what a connection that ended leaves, nothing to read)."""
    wal, shm = side_files(p)
    try:
        return wal.exists() and (shm.exists() or wal.stat().st_size > 0)
    except OSError:  # the -wal went away between the two looks: its connection ended
        return False


def _writable_or_raise(p: Path) -> None:
    """Make the index's folder, or IndexReadOnly when it, the file or its -wal/-shm cannot be written; a -wal/-shm
    a reader left read-only is made writable first."""
    try:
        p.parent.mkdir(parents=True, exist_ok=True)
    except OSError as e:
        if e.errno not in (errno.EACCES, errno.EPERM, errno.EROFS) or (part := read_only_part(p)) is None:
            raise
        raise index_read_only(part, f"{p.parent.name} cannot be made there ({e.strerror})") from e
    if os.access(p, os.W_OK):
        # SQLite gives a new -wal/-shm the index's mode: a read-only index read by an older vaultrag (or by
        # another program) left them read-only, and no writer could use them once the index was writable
        # again. They may hold committed transactions (a -wal): made writable like the index, never deleted
        mode = stat.S_IMODE(p.stat().st_mode)
        for side in side_files(p):
            if side.exists() and not os.access(side, os.W_OK):
                with contextlib.suppress(OSError):  # not ours to change: said below
                    os.chmod(side, mode)
    if (part := read_only_part(p)) is not None:
        why = (f"{p.name} and SQLite's files beside it cannot be written there" if part == p.parent else
               "the index cannot be updated" if part == p else f"SQLite's {part.name} beside the index cannot be "
               "written")
        raise index_read_only(part, why)


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

"""One writer per index across processes: an OS file lock beside the index, and a note naming its holder."""

from __future__ import annotations

import contextlib
import errno
import json
import os
import sys
import time
from collections.abc import Callable
from pathlib import Path

from filelock import FileLock, Timeout

from vaultrag.core.store.db import read_only_part
from vaultrag.core.vocab import Problem
from vaultrag.errors import IndexBusy, UserFacingError, index_read_only


def running_command(argv: list[str]) -> str:
    """The command a person typed, for "being written by …": its first two words past the options and their values
    ("vaultrag index VAULT", not "vaultrag --home H")."""
    words, value_next = [], False
    for a in argv:
        if value_next:
            value_next = False
        elif a == "--home":
            value_next = True
        elif not a.startswith("-"):
            words.append(a)
    return " ".join(["vaultrag", *words[:2]])


class WriterLock:
    """The lock `<index>.lock` (held by the OS: it is freed when its process dies, even by kill -9) and
    `<index>.writer`, which says who holds it; a `.writer` left behind means the last writer did not stop cleanly."""

    def __init__(self, index_path: str | os.PathLike[str]) -> None:
        p = Path(index_path)
        self._index = p
        self._lock = FileLock(str(p.with_name(p.name + ".lock")))
        self.owner_file = p.with_name(p.name + ".writer")
        self.unclean = False  # set by acquire: the previous writer died while writing

    def holder(self) -> str:
        """The process holding the lock, in words (best effort: its note may be being written)."""
        try:
            o = json.loads(self.owner_file.read_text(encoding="utf-8"))
            since = time.strftime("%H:%M:%S", time.localtime(o["since"]))
            return f"process {o['pid']} ({o['command']}, since {since})"
        except (OSError, ValueError, KeyError, TypeError):
            return "another process"

    def acquire(self, wait: bool = True, on_wait: Callable[[str], None] | None = None) -> None:
        """Take the lock; when another process has it, wait (telling `on_wait` who, once) or raise IndexBusy."""
        told = False
        while True:
            try:
                self._lock.acquire(timeout=0.5 if wait else 0)
                break
            except Timeout as e:
                if not wait:
                    holder = self.holder()
                    raise IndexBusy(Problem.INDEX_BUSY, holder=holder) from e
                if not told and on_wait is not None:
                    on_wait(self.holder())
                    told = True
            except OSError as e:  # (after Timeout, an OSError too) a folder in the lock's place, a full disk
                raise self._failed(self._lock.lock_file, e) from e
        self.unclean = self.owner_file.exists()
        owner = {"pid": os.getpid(), "command": running_command(sys.argv[1:]), "since": time.time()}
        try:
            self.owner_file.write_text(json.dumps(owner), encoding="utf-8")
        except OSError as e:  # no space left, a read-only folder: nothing is written without it
            self._lock.release()
            raise self._failed(str(self.owner_file), e) from e

    def _failed(self, path: str, e: OSError) -> UserFacingError:
        why = f"{type(e).__name__}: {e.strerror or e}"
        if e.errno in (errno.EACCES, errno.EPERM, errno.EROFS) and (part := read_only_part(path)) is not None:
            # the folder, or the lock file itself: said as read-only, not as a lock that someone else holds
            return index_read_only(part, f"vaultrag cannot write {Path(path).name} there, which a writer of "
                                         f"{self._index.name} needs" if part.is_dir() else why)
        return UserFacingError(Problem.INDEX_LOCK_FAILED, path=path, why=why)

    @property
    def held(self) -> bool:
        return bool(self._lock.is_locked)

    def release(self) -> None:
        if self._lock.is_locked:
            with contextlib.suppress(OSError):  # a note that cannot go only makes the next writer check fully
                self.owner_file.unlink(missing_ok=True)
            self._lock.release()

    def __enter__(self) -> WriterLock:
        self.acquire()
        return self

    def __exit__(self, *exc: object) -> None:
        self.release()

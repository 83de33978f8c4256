"""Parallel KNN for large indexes: one vec0 shard scanned per helper connection, each on its own thread."""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from vaultrag.core.store.db import Connection, connect


class ShardPool:
    """`workers` threads, each with a read-only connection of its own to the index at `path` (opened on first use).

    SQLite lets go of the GIL while a statement steps, so a shard scanned here runs beside the one the caller scans
    on its own connection. Each statement is its own read transaction: a shard may see a write the caller's
    snapshot does not, which the caller's re-score (on its snapshot) then leaves out.
    """

    def __init__(self, path: Path, workers: int) -> None:
        self._path = path
        self._pool = ThreadPoolExecutor(max_workers=workers, thread_name_prefix="vaultrag-knn")
        self._local = threading.local()
        self._lock = threading.Lock()
        self._conns: list[Connection] = []

    def _db(self) -> Connection:
        db: Connection | None = getattr(self._local, "db", None)
        if db is None:
            db = connect(self._path, readonly=True)
            self._local.db = db
            with self._lock:
                self._conns.append(db)
        return db

    def ids(self, sql: str, params: tuple[Any, ...]) -> Future[list[int]]:
        """The first column of `sql`'s rows, computed on a pool thread."""
        return self._pool.submit(lambda: [int(r[0]) for r in self._db().execute(sql, params)])

    def close(self) -> None:
        """Wait for running scans, end the threads and close their connections."""
        self._pool.shutdown(wait=True)
        with self._lock:
            for db in self._conns:
                db.close()
            self._conns.clear()

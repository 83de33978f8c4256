"""Parallel KNN for large indexes: one vec0 shard scanned per helper connection, each on its own thread."""

from __future__ import annotations

import threading
from concurrent.futures import Future, ThreadPoolExecutor
from pathlib import Path
from typing import Any

from vaultrag.core.store.db import Connection, connect, generation


class ShardPool:
    """`workers` threads, each with a read-only connection of its own to the index at `path` (opened on first use).

    SQLite lets go of the GIL while a statement steps, so a shard scanned here runs beside the one the caller scans
    on its own connection. A helper connection cannot share the caller's snapshot: each scan reports the index
    generation it read, and the caller scans again itself when that is not its own.
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

    def ids(self, sql: str, params: tuple[Any, ...]) -> Future[tuple[str, list[int]]]:
        """The first column of `sql`'s rows, computed on a pool thread, with the index generation they were read
        at (one read transaction): the caller compares it with its own snapshot's."""
        return self._pool.submit(self._ids, sql, params)

    def _ids(self, sql: str, params: tuple[Any, ...]) -> tuple[str, list[int]]:
        db = self._db()
        db.execute("begin")
        try:
            return generation(db), [int(r[0]) for r in db.execute(sql, params)]
        finally:
            db.execute("commit")

    def close(self) -> None:
        """Wait for running scans, end the threads and close their connections."""
        self._pool.shutdown(wait=True)
        with self._lock:
            for db in self._conns:
                db.close()
            self._conns.clear()

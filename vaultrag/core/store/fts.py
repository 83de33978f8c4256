"""Bulk loading of the full-text index: new chunks reach FTS5 in one statement per commit, not row by row."""

from __future__ import annotations

from vaultrag.core.store.db import Connection

INSERT_TRIGGER = "chunks_ai"


class DeferredFts:
    """Within one transaction: `start()` lifts the per-row insert trigger, `catch_up()` indexes every chunk
    inserted since and puts the trigger back, so a commit never sees chunks missing from FTS5.

    Row by row, FTS5 flushes its pending terms at every savepoint (one per note), then merges the tiny segments:
    a first run of 104,605 chunks spent 17 s there against 3 s for one statement per second of inserts
    (docs/benchmarks.md). Only for chunks that are all new: a chunk inserted and then deleted or rewritten before
    `catch_up()` would send FTS5 a delete for a row it never had."""

    def __init__(self, db: Connection) -> None:
        self.db = db
        self._trigger_sql = ""
        self._mark = 0

    def start(self) -> None:
        row = self.db.execute("select sql from sqlite_master where type = 'trigger' and name = ?",
                              (INSERT_TRIGGER,)).fetchone()
        self._trigger_sql = row[0] if row else ""
        self._mark = self.db.execute("select coalesce(max(id), 0) from chunks").fetchone()[0]
        if self._trigger_sql:  # DDL is transactional: a rollback or a crash brings the trigger back
            self.db.execute(f"drop trigger {INSERT_TRIGGER}")

    def catch_up(self) -> None:
        if not self._trigger_sql:
            return
        # SQLite rolls a whole transaction back by itself on some errors (a full disk): that brings the trigger
        # back and later notes go through it, so only the rows FTS5 lacks are added, and the trigger only if missing
        self.db.execute("insert into chunks_fts(rowid, prefix, lead, body) select id, prefix, lead, body from chunks "
                        "where id > ? and id not in (select id from chunks_fts_docsize where id > ?) order by id",
                        (self._mark, self._mark))
        if not self.db.execute("select 1 from sqlite_master where type = 'trigger' and name = ?",
                               (INSERT_TRIGGER,)).fetchone():
            self.db.execute(self._trigger_sql)
        self._trigger_sql = ""

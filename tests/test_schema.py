"""The whole schema of a fresh index against a checked-in snapshot: a schema change needs a named migration."""

from __future__ import annotations

import os
from pathlib import Path

from vaultrag.core.store import migrations
from vaultrag.core.store.index_store import IndexStore

SNAPSHOT = Path(__file__).parent / "data" / "schema.sql"
HEADER = "-- migrations: "


def current_schema(tmp_path: Path) -> str:
    store = IndexStore.open(tmp_path / "fresh.sqlite")
    try:
        with store.transaction():
            store.ensure_vec_table("model", 384)  # created at run time for the model's dim
        rows = store.db.execute(
            "select type, name, tbl_name, coalesce(sql, '') from sqlite_master order by type, name").fetchall()
    finally:
        store.close()
    names = ",".join(name for name, _ in migrations.MIGRATIONS)
    return HEADER + names + "\n" + "\n".join(f"-- {t} {n} on {tbl}\n{sql};" for t, n, tbl, sql in rows) + "\n"


def test_the_schema_matches_the_snapshot_of_its_migrations(tmp_path: Path):
    now = current_schema(tmp_path)
    if os.environ.get("VAULTRAG_UPDATE_SCHEMA"):
        SNAPSHOT.write_text(now, encoding="utf-8")
    snap = SNAPSHOT.read_text(encoding="utf-8")
    snap_migrations = snap.splitlines()[0]
    now_migrations = now.splitlines()[0]
    if snap_migrations == now_migrations:
        assert now == snap, ("the schema changed without a new migration: add one to MIGRATIONS "
                             "(core/store/migrations.py), then refresh the snapshot with VAULTRAG_UPDATE_SCHEMA=1")
    else:
        raise AssertionError(f"migrations changed ({snap_migrations} → {now_migrations}): check the new schema and "
                             "refresh tests/data/schema.sql with VAULTRAG_UPDATE_SCHEMA=1")

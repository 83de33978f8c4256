"""The whole schema of a fresh index against a checked-in snapshot: a schema change needs a named migration."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from vaultrag.core.store import migrations
from vaultrag.core.store.index_store import IndexStore

SNAPSHOT = Path(__file__).parent / "data" / "schema.sql"
HEADER = "-- migrations: "
NEEDS_MIGRATION = ("the schema changed without a new migration: add one to MIGRATIONS (core/store/migrations.py), "
                   "then refresh the snapshot with VAULTRAG_UPDATE_SCHEMA=1")


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


def check_snapshot(now: str, snapshot: Path, update: bool) -> None:
    """Fail unless `now` is the snapshot. `update` writes `now` over it, but only when the migrations changed: a
    schema change under the same migrations is refused in update mode too (that is what the snapshot catches)."""
    snap = snapshot.read_text(encoding="utf-8")
    snap_migrations, now_migrations = snap.splitlines()[0], now.splitlines()[0]
    if snap_migrations == now_migrations:
        assert now == snap, NEEDS_MIGRATION
    elif update:
        snapshot.write_text(now, encoding="utf-8")
    else:
        raise AssertionError(f"migrations changed ({snap_migrations} → {now_migrations}): check the new schema and "
                             "refresh tests/data/schema.sql with VAULTRAG_UPDATE_SCHEMA=1")


def test_the_schema_matches_the_snapshot_of_its_migrations(tmp_path: Path):
    check_snapshot(current_schema(tmp_path), SNAPSHOT, update=bool(os.environ.get("VAULTRAG_UPDATE_SCHEMA")))


@pytest.mark.parametrize("update", [False, True])
def test_a_schema_change_without_a_migration_fails_in_both_modes(tmp_path: Path, update: bool):
    now = current_schema(tmp_path)
    snapshot = tmp_path / "schema.sql"
    snapshot.write_text(now + "-- table lost_by_a_migration on lost\nCREATE TABLE lost(x);\n", encoding="utf-8")
    before = snapshot.read_text(encoding="utf-8")
    with pytest.raises(AssertionError, match="without a new migration"):
        check_snapshot(now, snapshot, update)
    assert snapshot.read_text(encoding="utf-8") == before, "the snapshot is never overwritten with a bad schema"


def test_new_migrations_fail_until_the_snapshot_is_refreshed(tmp_path: Path):
    now = current_schema(tmp_path)
    snapshot = tmp_path / "schema.sql"
    old = now.replace(HEADER, HEADER + "0000_an_older_list,", 1)
    snapshot.write_text(old, encoding="utf-8")
    with pytest.raises(AssertionError, match="migrations changed"):
        check_snapshot(now, snapshot, update=False)
    check_snapshot(now, snapshot, update=True)
    assert snapshot.read_text(encoding="utf-8") == now
    check_snapshot(now, snapshot, update=False)

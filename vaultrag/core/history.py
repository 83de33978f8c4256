"""The conversations asked of a vault, kept under the app home (never in the vault): each exchange as it happens.

One SQLite file per vault (`Paths.history_file`): an exchange is committed when its answer is shown, so a killed app
keeps every finished one. It holds the question, what was searched, the answer, its sources and decision, and the
whole trace (as `to_dict` writes it: the trace already carries the prompt's note text, and nothing more is kept).
`secure_delete` overwrites what a deletion frees and the rollback journal is deleted after each write, so deleting a
conversation (or all) leaves none of its text in the file; a note that leaves the index (made private, ignored,
deleted) takes the exchanges that cite it along (`forget_notes`).
"""

from __future__ import annotations

import json
import sqlite3
import time
import uuid
from dataclasses import dataclass
from pathlib import Path

from vaultrag.core.model import QueryTrace, to_dict
from vaultrag.core.revive import revive
from vaultrag.core.vocab import AnswerKind

SCHEMA = """
create table if not exists exchanges(
    id integer primary key,
    conversation text not null,
    at real not null,
    question text not null,
    searched text not null,      -- the question as searched (a follow-up's rewrite)
    kind text not null,          -- the answer's kind: extractive | generated | refusal
    answer text not null,
    answered integer not null,
    sources text not null,       -- JSON: [[n, "note > heading", note path, first line]]
    trace text not null);        -- JSON: the whole QueryTrace
create index if not exists exchanges_conversation on exchanges(conversation, id);
"""


@dataclass(frozen=True)
class Exchange:
    id: int
    conversation: str
    at: float
    question: str
    searched: str
    kind: str
    answer: str
    answered: bool
    sources: list[tuple[int, str, str, int]]  # (n, "note > heading", note, line)


@dataclass(frozen=True)
class Conversation:
    id: str
    started: float
    first_question: str
    exchanges: int


def new_conversation_id() -> str:
    return uuid.uuid4().hex


class History:
    """One vault's conversations (one connection: use it from one thread)."""

    def __init__(self, path: str | Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self.path.parent.chmod(0o700)  # the questions and the notes' text in them are the user's alone
        self.db = sqlite3.connect(self.path, isolation_level=None)
        self.path.chmod(0o600)
        self.db.execute("pragma secure_delete = on")  # a deletion overwrites the freed pages
        self.db.execute("pragma journal_mode = delete")  # no WAL file that would keep deleted text
        self.db.executescript(SCHEMA)

    def close(self) -> None:
        self.db.close()

    # -- writing --------------------------------------------------------------------------------
    def record(self, conversation: str, trace: QueryTrace) -> int:
        """Keep one exchange (committed before returning); its id, to `update` when a model's answer comes."""
        cur = self.db.execute(
            """insert into exchanges(conversation, at, question, searched, kind, answer, answered, sources, trace)
               values (?, ?, ?, ?, ?, ?, ?, ?, ?)""", (conversation, time.time(), *_row(trace)))
        return int(cur.lastrowid or 0)

    def update(self, exchange: int, trace: QueryTrace) -> None:
        """The exchange's answer written by the language model (the same question and sources)."""
        self.db.execute("""update exchanges set question = ?, searched = ?, kind = ?, answer = ?, answered = ?,
                           sources = ?, trace = ? where id = ?""", (*_row(trace), exchange))

    def delete(self, conversation: str) -> int:
        n = self.db.execute("delete from exchanges where conversation = ?", (conversation,)).rowcount
        self._shrink()
        return n

    def delete_all(self) -> int:
        n = self.db.execute("delete from exchanges").rowcount
        self._shrink()
        return n

    def forget_notes(self, notes: set[str]) -> int:
        """Delete the exchanges that cite one of `notes` (notes that left the index: their text must go too)."""
        if not notes:
            return 0
        gone = [i for i, sources in self.db.execute("select id, sources from exchanges")
                if any(s[2] in notes for s in json.loads(sources))]
        for i in gone:
            self.db.execute("delete from exchanges where id = ?", (i,))
        if gone:
            self._shrink()
        return len(gone)

    def _shrink(self) -> None:
        self.db.execute("vacuum")  # the file rewritten without the freed pages

    # -- reading --------------------------------------------------------------------------------
    def conversations(self, search: str = "") -> list[Conversation]:
        """Newest first; `search`: only those with an exchange whose question or answer holds it (any case)."""
        where, args = "", ()  # type: tuple[str, tuple[str, ...]]
        if search.strip():
            where = "where conversation in (select conversation from exchanges where question like ? escape '\\' " \
                    "or answer like ? escape '\\')"
            like = "%" + search.strip().replace("\\", "\\\\").replace("%", "\\%").replace("_", "\\_") + "%"
            args = (like, like)
        rows = self.db.execute(
            f"""select conversation, min(at), count(*),
                       (select question from exchanges f where f.conversation = e.conversation order by id limit 1)
                from exchanges e {where} group by conversation order by max(id) desc""", args).fetchall()
        return [Conversation(r[0], r[1], r[3], r[2]) for r in rows]

    def exchanges(self, conversation: str) -> list[Exchange]:
        rows = self.db.execute("""select id, conversation, at, question, searched, kind, answer, answered, sources
                                  from exchanges where conversation = ? order by id""", (conversation,)).fetchall()
        return [Exchange(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bool(r[7]),
                         [(int(s[0]), str(s[1]), str(s[2]), int(s[3])) for s in json.loads(r[8])]) for r in rows]

    def trace(self, exchange: int) -> QueryTrace:
        row = self.db.execute("select trace from exchanges where id = ?", (exchange,)).fetchone()
        if row is None:
            raise KeyError(exchange)
        return revive(QueryTrace, json.loads(row[0]))

    def export_markdown(self, conversation: str, vault: str | Path) -> str:
        """The conversation as Markdown: each question, its answer, and its sources as links to the notes."""
        items = self.exchanges(conversation)
        if not items:
            raise KeyError(conversation)
        root = Path(vault)
        when = time.strftime("%Y-%m-%d %H:%M", time.localtime(items[0].at))
        out = [f"# {items[0].question}", "", f"vaultrag conversation with {root.name}, {when}", ""]
        for x in items:
            out += [f"## {x.question}", ""]
            if x.searched != x.question:
                out += [f"*Searched as:* {x.searched}", ""]
            label = {AnswerKind.REFUSAL: "Refused", AnswerKind.GENERATED: "Answer (language model)"}.get(
                AnswerKind(x.kind), "Answer (the best passage)")
            out += [f"**{label}:** {x.answer}", ""]
            if x.sources:
                out += ["Sources:", ""]
                for n, where, note, line in x.sources:
                    target = (root / note).as_uri()
                    out.append(f"- [{n}] [{where}]({target}) — `{note}`, line {line}")
                out.append("")
        return "\n".join(out)


def _row(trace: QueryTrace) -> tuple[str, str, str, str, int, str, str]:
    a = trace.answer
    sources = [[d.index, d.source, d.note, d.line_start + 1] for d in trace.context] if a.kind != AnswerKind.REFUSAL \
        else []
    searched = trace.rewrite.question if trace.rewrite is not None else trace.question
    original = trace.rewrite.original if trace.rewrite is not None else trace.question
    # an extractive answer is its marked sentence (the passage is in the trace); a model's answer its whole text
    answer = (a.sentence or a.text) if a.kind == AnswerKind.EXTRACTIVE else a.text
    return (original, searched, str(a.kind), answer, int(trace.decision.answered), json.dumps(sources),
            json.dumps(to_dict(trace), ensure_ascii=False))

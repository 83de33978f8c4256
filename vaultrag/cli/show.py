"""How the CLI shows a question's trace: the answer, the --explain columns, a generated answer's checks."""

from __future__ import annotations

import shutil
import sys
import textwrap
from collections import Counter
from collections.abc import Iterable
from xml.sax.saxutils import escape

from vaultrag.cli.termui import one_line
from vaultrag.core import wording
from vaultrag.core.model import Candidate, QueryTrace, SentenceCheck, Stage
from vaultrag.core.vocab import AnswerKind, RewriteMethod, StageStatus, SupportVerdict

WIDTH = 120  # when the output is no terminal
SEP = " › "
ORDER_ROWS = 3  # --explain says why the final list's first rows are in their order
MARK = {SupportVerdict.UNSUPPORTED: "not backed by its document",
        SupportVerdict.UNCITED: "no citation, and no document backs it",
        SupportVerdict.BAD_CITATION: "cites a document that is not in the prompt"}
ATTACHED = "†"  # after an attached citation, "[2]†": the check put it there, not the model
LEGEND = f"{ATTACHED} attached by vaultrag: the model cited nothing there, and that document backs the sentence"


def line_span(start: int, end: int) -> str:
    """A chunk's lines (0-based start, exclusive end) as a reader counts them: "line 17" or "lines 17–20"."""
    return f"line {end}" if end <= start + 1 else f"lines {start + 1}–{end}"


def flag_lines(trace: QueryTrace) -> list[str]:
    """A warning for each note in the prompt that tries to give the language model orders."""
    notes = dict.fromkeys(d.note for d in trace.context if trace.flagged.get(d.note))
    return [f"warning: {wording.flagged_note(one_line(n), trace.flagged[n])}" for n in notes]


def format_answer(trace: QueryTrace) -> str:
    """The answer (or the refusal) with its sources and the decision's reason."""
    a, d = trace.answer, trace.decision
    reason = wording.decision_reason(d)
    lines = [*(f"warning: {wording.warning(w)}" for w in trace.warnings), *flag_lines(trace)]
    if a.kind == AnswerKind.REFUSAL:
        lines += [a.text, *filter(None, [wording.refusal_plain(d)]), f"({reason})"]
    else:
        # shown as the prompt shows documents: a note's own "</document>" must not pass for structure
        # a note's name and heading on one line each (one_line): a name's newline would print a source line of its own
        lines += [escape(a.sentence or a.text), f"— {one_line(a.source)}, line {a.line}", ""]
        if a.translated:  # the note is in another language: the sentence in the question's, the original cited
            lines[-1:] = [f"(translated: {escape(a.translated)})", ""]
        lines += [f"[{doc.index}] {one_line(doc.source)} ({line_span(doc.line_start, doc.line_end)})"
                  for doc in trace.context]
        lines.append(f"({reason})")
    return "\n".join(lines)


def _cell(text: str, width: int) -> str:
    return text if len(text) <= width else text[: width - 1] + "…"


def elide_middle(text: str, width: int) -> str:
    """`text` in `width` characters, cut in its middle: its start and its end stay readable."""
    if len(text) <= width:
        return text
    head = width // 2
    tail = max(width - 1 - head, 0)
    return text[:head] + "…" + (text[len(text) - tail:] if tail else "")


def elide_label(text: str, width: int) -> str:
    """'note › heading' in `width` characters as the window elides it: each part cut in its middle, a part that
    fits in half the room kept whole and the other given the rest."""
    if len(text) <= width:
        return text
    note, sep, head = text.partition(SEP)
    if not sep:
        return elide_middle(text, width)
    room = width - len(sep)
    if len(head) <= room // 2:
        note_w, head_w = room - len(head), len(head)
    elif len(note) <= room // 2:
        note_w, head_w = len(note), room - len(note)
    else:
        note_w = head_w = room // 2
    return elide_middle(note, note_w) + sep + elide_middle(head, head_w)


def where(c: Candidate) -> str:
    """'note › last heading' (the heading tells apart the chunks of one note)."""
    return SEP.join(map(one_line, [c.note.removesuffix(".md"), *c.heading_path[-1:]]))


def labels(cands: Iterable[Candidate]) -> dict[int, str]:
    """Each chunk's `where`, with its lines added where two chunks would read the same (the paragraphs of one
    section): three identical rows tell the reader nothing."""
    by_id = {c.chunk_id: c for c in cands}
    named = {cid: where(c) for cid, c in by_id.items()}
    seen = Counter(named.values())
    return {cid: f"{name}, {line_span(by_id[cid].line_start, by_id[cid].line_end)}" if seen[name] > 1 else name
            for cid, name in named.items()}


def _rows(trace: QueryTrace, stages: list[Stage], n: int) -> list[int]:
    """The chunks in the first `n` of any list: the final list's in its order, then the others by best rank."""
    ids = {c.chunk_id: c.rank for s in stages for c in s.candidates[:n]}
    # the final list without a gap: down to the lowest of its rows that some list has in its first n
    last = max((c.rank for c in trace.final if c.chunk_id in ids), default=0)
    final = [c.chunk_id for c in trace.final if c.rank <= last]
    best: dict[int, int] = {}
    for s in stages:
        for c in s.candidates[:n]:
            best[c.chunk_id] = min(best.get(c.chunk_id, c.rank), c.rank)
    rest = sorted((i for i in best if i not in set(final)), key=lambda i: best[i])
    return final + rest


def stage_table(trace: QueryTrace, stages: list[Stage], n: int, width: int) -> list[str]:
    """One table as the window has it: a row per chunk, its 'note › heading' in all the width the lists' columns
    leave, then each list's rank and score ("—": not in that list)."""
    names = labels(c for s in stages for c in s.candidates)
    heads = [f"{s.name.upper()} [{s.status}]" for s in stages]
    cols = [max(len(h), 11) for h in heads]  # "rank  score": "12  14.758"
    name_w = max(width - sum(cols) - 3 * len(cols), 20)
    titles = (h.ljust(w) for h, w in zip(heads, cols, strict=True))
    out = [" | ".join(["note › heading".ljust(name_w), *titles]).rstrip(),
           "-+-".join(["-" * name_w, *("-" * w for w in cols)])]
    for cid in _rows(trace, stages, n):
        cells = []
        for s, w in zip(stages, cols, strict=True):
            c = next((x for x in s.candidates if x.chunk_id == cid), None)
            value = wording.shown_score(s, c) if c is not None else None
            score = f"{value:7.3f}" if value is not None else "      —"
            cells.append((f"{c.rank:>3} {score}" if c is not None else "  —").ljust(w))
        out.append(" | ".join([elide_label(names[cid], name_w).ljust(name_w), *cells]).rstrip())
    return out


def order_lines(trace: QueryTrace, n: int = ORDER_ROWS) -> list[str]:
    """Why the final list's first rows are in that order: each against the row above (the first against the
    second), from the parts of their scores, in the words the window uses."""
    final = [c for c in trace.final[: n + 1] if c.contributions]
    if len(final) < 2:
        return []
    lines = ["", f"why this order ({trace.final_stage}):"]
    for i, c in enumerate(final[:n]):
        other = final[i - 1] if i else final[1]
        assert c.contributions is not None and other.contributions is not None
        lines += textwrap.wrap(wording.rank_gap(c.rank, other.rank, c.contributions, other.contributions), WIDTH,
                               initial_indent="  ", subsequent_indent="    ")
    return lines


def terminal_width() -> int:
    """The terminal's columns (COLUMNS when set; 120 when the output is no terminal)."""
    return max(shutil.get_terminal_size((WIDTH, 24)).columns, 60)


def explain(trace: QueryTrace, n: int = 10) -> str:
    """The stages as one table (a row per chunk, its name in the terminal's width), then the decision, what
    became of each chunk, and the prompt."""
    stages = [s for s in trace.stages.values() if s.status != StageStatus.SKIPPED]
    width = terminal_width()
    out = [f"question: {trace.question}  (language: {trace.language})"]
    out += [f"also searched as ({t.target}): {one_line(t.text)}" for t in trace.translations if t.text]
    out += [f"warning: {wording.warning(w)}" for w in trace.warnings]
    out += flag_lines(trace)
    out.append("")
    out += stage_table(trace, stages, n, width)
    for s in trace.stages.values():
        note = "; ".join(filter(None, (wording.stage_reason(trace, s), s.note)))
        if note:
            out.append(_cell(f"{s.name}: {note}", WIDTH))
    out += order_lines(trace)
    d = trace.decision
    out.append("")
    verdict = "ANSWERED" if d.answered else "REFUSED"
    conf = f"confidence {d.confidence:.3f}" if d.confidence is not None else "no confidence"
    if d.by_model and d.confidence is not None:
        conf = f"probability {d.confidence:.3f} ({d.decider})"
    source = wording.threshold_source(d.threshold_source)
    thr = f"threshold {d.threshold:.3f} ({source})" if d.threshold is not None else source
    margin = f"margin {wording.Minus(d.margin):+.3f}" if d.margin is not None else ""
    out.append(f"decision: {verdict} — {conf}, {thr} {margin}".rstrip())
    out += textwrap.wrap(wording.decision_reason(d), WIDTH, initial_indent="  ", subsequent_indent="  ")
    out += textwrap.wrap(wording.judged_not_first(d, trace.final), WIDTH, initial_indent="  ", subsequent_indent="  ")
    if d.by_model and d.contributions:  # each feature's part of the model's logit, biggest first
        # each by its value and its direction, the signed part after it (the parts and the base add up to the logit)
        parts = "; ".join(f"{what} ({wording.Minus(v):+.2f})" for what, v in wording.answerability_parts(d))
        out += textwrap.wrap(f"used: {one_line(d.supported_note)} (chunk {d.supported_by}); {parts}; "
                             f"base {wording.Minus(d.bias):+.2f}", WIDTH, initial_indent="  ", subsequent_indent="  ")
    out.append("")
    names = labels(c for s in trace.stages.values() for c in s.candidates)
    for cid, status in list(trace.context_status.items())[:n]:
        name = names.get(cid, f"chunk {cid}")
        out.append(_cell(f"  {name}: {wording.fate(status)}", width))
    t = trace.prompt_tokens
    out.append(f"\nprompt: {t['total']} tokens (instructions {t['instructions']}, documents {t['documents']} of "
               f"budget {t['budget']}, question {t['question']})")
    out.append("=" * WIDTH)
    out.append(trace.prompt or "(no prompt: the question was refused, nothing goes to a model)")
    out.append("=" * WIDTH)
    out.append("timings (ms): " + ", ".join(f"{k} {v:.1f}" for k, v in trace.timings_ms.items()))
    return "\n".join(out)


def attached_mark(s: SentenceCheck) -> str:
    """An attached sentence's citations as the CLI shows them: "[2]†"."""
    return "".join(f"[{n}]{ATTACHED}" for n in s.citations)


def with_attached(text: str, sentences: list[SentenceCheck]) -> str:
    """The answer's text with each attached citation after its sentence ("… seven days [1]†.")."""
    out, at = [], 0
    for s in sentences:
        found = text.find(s.text, at)
        if found < 0:
            continue
        end = found + len(s.text)
        if s.verdict == SupportVerdict.ATTACHED:
            stop = end - 1 if s.text[-1:] in ".!?" else end  # inside the full stop, where the model's [n] goes
            out.append(text[at:stop] + " " + attached_mark(s))
            at = stop
        else:
            out.append(text[at:end])
            at = end
    return "".join(out) + text[at:]


def format_generated(trace: QueryTrace, streamed: bool) -> str:
    """What follows the streamed answer: the checks that failed, the sources, the model's figures."""
    a, g = trace.answer, trace.generation
    lines = [""] if streamed and g is not None and g.failure is None else []
    if trace.rewrite is not None and trace.rewrite.method == RewriteMethod.ALONE:
        lines.insert(0, f"(asked on its own: with the previous question's words, \"{trace.rewrite.tried}\" found no "
                        "answer)")
    elif trace.rewrite is not None and trace.rewrite.question != trace.rewrite.original:
        lines.insert(0, f"(read as: {trace.rewrite.question})")
    if g is None or g.failure is not None:  # refused before any model, no model, or the model failed
        if g is not None:
            print(f"vaultrag: {g.error}", file=sys.stderr)
            lines.append("extractive answer (the language model failed):")
        return "\n".join([*lines, format_answer(trace)])
    if not streamed:
        lines.append(with_attached(a.text, a.sentences))
    lines += [f"warning: {wording.warning(w)}" for w in trace.warnings]
    lines += flag_lines(trace)
    for s in a.sentences:
        if s.verdict in MARK:
            lines.append(f"check: {MARK[s.verdict]}: {s.text}")
        elif s.verdict == SupportVerdict.ATTACHED and streamed:  # the streamed text could not carry the mark
            lines.append(f"attached {attached_mark(s)}: {s.text}")
    if a.kind == AnswerKind.GENERATED:
        ok = sum(s.verdict == SupportVerdict.SUPPORTED for s in a.sentences)
        attached = sum(s.verdict == SupportVerdict.ATTACHED for s in a.sentences)
        lines.append(f"citations: {ok} of {len(a.sentences)} sentence(s) backed by the document they cite"
                     + (f", {attached} by a document attached by the check ({ATTACHED})" if attached else ""))
        if attached:
            lines.append(LEGEND)
    lines += [f"[{d.index}] {one_line(d.source)} ({line_span(d.line_start, d.line_end)})" for d in trace.context]
    ttft = f"{g.ttft_ms / 1000:.2f} s" if g.ttft_ms is not None else "—"
    rate = f"{g.tokens_per_s:.1f} tokens/s" if g.tokens_per_s is not None else "— tokens/s"
    lines.append(f"({g.model}: first token {ttft}, total {g.total_ms / 1000:.2f} s, {g.completion_tokens} tokens, "
                 f"{rate})")
    return "\n".join(lines)

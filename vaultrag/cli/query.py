"""CLI commands of the query pipeline: `ask` (and its --explain view)."""

from __future__ import annotations

import argparse
import contextlib
import json
import math
import sys
import textwrap
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any, NoReturn

from vaultrag.cli.show import WIDTH, explain, format_answer
from vaultrag.cli.termui import json_text, one_line
from vaultrag.core import wording
from vaultrag.core.model import Progress, to_dict
from vaultrag.core.vocab import Phase
from vaultrag.errors import BadQuestion, UserFacingError
from vaultrag.paths import outside_vault

if TYPE_CHECKING:
    from vaultrag.core.quality.diagnose import Diagnosis
    from vaultrag.core.quality.evaluate import GoldenRun
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.store.index_store import IndexStore


def open_searcher(args: argparse.Namespace, one_question: bool = False) -> Searcher:
    """A Searcher over the vault's index with the configured models (read-only connection); `one_question`
    picks the models that load fastest over those that answer many questions fastest."""
    from vaultrag.core import embed, fast_tier, rerank
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(args.vault, args.home)
    store, _ = ws.open_store(readonly=True)
    # the token counter's encoding loads while the models do (it took 0.4 s of a cold `ask`, in the context stage)
    warm = threading.Thread(target=_load_encoding, name="tiktoken-load", daemon=True)
    warm.start()
    try:
        # the fast tier lists candidates while e5's vectors fill (its model loads only then); the vectors a command
        # embeds at question time are not stored: a command is not the index's writer (the window's questions are)
        return Searcher(store, ws.settings, embed.from_settings(ws.settings, one_question),
                        rerank.from_settings(ws.settings, ws.paths.models_dir),
                        fast=fast_tier.for_settings(ws.settings))
    finally:
        warm.join()


def _load_encoding() -> None:
    """Load o200k once; a failure is left to the first count, which says it to the user (not this thread)."""
    from vaultrag.core import tokens
    from vaultrag.errors import ModelUnavailable

    with contextlib.suppress(ModelUnavailable, OSError):
        tokens.encoding()


def finite_float(value: str) -> float:
    """argparse type for a threshold: a number, not nan or inf (nan refused every question, "below the threshold
    nan")."""
    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    if not math.isfinite(number):
        raise argparse.ArgumentTypeError(f"{value!r} is not a finite number")
    return number


def max_pass_share(value: str) -> float:
    """argparse type for --max-pass: a share calibration can aim at, from 0 to 1 both excluded (7 for 0.07, and 1,
    stored a threshold that let every unanswerable question through): the core's own rule."""
    from vaultrag.core.quality.calibration import check_max_pass

    try:
        number = float(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a number") from None
    try:
        return check_max_pass(number)
    except UserFacingError as e:
        raise argparse.ArgumentTypeError(str(e)) from None


def positive_int(value: str) -> int:
    """argparse type for counts such as -k: a whole number of at least 1."""
    try:
        n = int(value)
    except ValueError:
        raise argparse.ArgumentTypeError(f"{value!r} is not a whole number") from None
    if n < 1:
        raise argparse.ArgumentTypeError(f"must be 1 or more (got {n})")
    return n


def check_question(question: str) -> str:
    """The question, or BadQuestion when it cannot be searched (no text, or bytes that are not UTF-8)."""
    try:
        question.encode("utf-8")
    except UnicodeEncodeError:  # undecodable argv bytes arrive as lone surrogates
        raise BadQuestion("The question contains bytes that are not valid UTF-8 text: check the terminal's "
                          "encoding (or the file the question came from) and ask again.") from None
    if not question.strip():
        raise BadQuestion("The question is empty: type what you want to know.")
    return question


OPTIONS_SEEN: set[str] = set()  # the option strings of every HintingParser made so far (the top one's too)


def _number(word: str) -> bool:
    """A negative number ("-1" as a threshold) is a value, not a word that lost its way."""
    try:
        float(word)
    except ValueError:
        return False
    return True


class HintingParser(argparse.ArgumentParser):
    """A parser whose errors add that a word starting with '-' (a question, say) must follow `--`."""

    def error(self, message: str) -> NoReturn:
        # every option of the command line (`--home` belongs to the top parser, `-k` to the subcommand's): only a
        # word no parser knows can be a question or path that lost its way
        known = set(self._option_string_actions) | OPTIONS_SEEN
        dashed = [a for a in sys.argv[1:] if a.startswith("-") and a != "--" and a.split("=")[0] not in known
                  and not _number(a)]
        hint = ("\na question (or path) that starts with '-' must follow `--`, as in: "
                "vaultrag ask VAULT -- \"-your question\"") if dashed else ""
        super().error(message + hint)

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        action = super().add_argument(*args, **kwargs)
        OPTIONS_SEEN.update(action.option_strings)
        return action


# a vault up to this many notes is embedded for its first question (a minute or so on two cores): without vectors
# the decision has no confidence and answers unchecked; a larger one gets its text and the fast vectors first
FIRST_ASK_EMBED_NOTES = 300


def index_for_first_question(vault: str, home: str | None) -> None:
    """A vault never indexed is indexed for its first question (progress on stderr): a small one whole, a large one
    its text, keyword search and the fast vectors in seconds, as the window starts (`vaultrag index` adds the
    model's vectors)."""
    from vaultrag.cli.termui import progress_printer
    from vaultrag.core import embed, fast_tier
    from vaultrag.core.index import vault as vaultmod
    from vaultrag.core.index.indexer import CancelToken, Indexer, IndexOptions, run_to_end
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(vault, home)
    if ws.index_path.exists():
        return
    small = len(vaultmod.scan(ws.vault, ws.settings.ignore_globs).notes) <= FIRST_ASK_EMBED_NOTES
    print(f"{ws.vault} has no index yet: indexing it for this question" + (
        "" if small else " (its text, keyword search and fast vectors; `vaultrag index` adds the model's vectors)"),
        file=sys.stderr)
    lock = ws.writer_lock()
    lock.acquire(on_wait=lambda who: print(f"waiting: this index is being written by {who}", file=sys.stderr))
    try:
        store, _ = ws.open_store(repair=True)
        try:
            options = IndexOptions.from_settings(ws.settings)
            embedder = embed.from_settings(ws.settings) if small else None
            run_to_end(Indexer(ws.vault, store, options, embedder, fast_tier.for_settings(ws.settings))
                       .run(CancelToken()), progress_printer(sys.stderr))
        finally:
            store.close()
    finally:
        lock.release()


def cmd_ask(args: argparse.Namespace) -> int:
    from vaultrag.core.scope import Scope

    check_question(args.question)
    index_for_first_question(args.vault, args.home)
    searcher = open_searcher(args, one_question=True)
    scope = Scope(args.folder or [], args.tag or [], args.note or [])
    try:
        if args.generate or args.after:  # a language model and/or a conversation: see cli_llm
            from vaultrag.cli import llm as cli_llm

            return cli_llm.ask_generating(args, searcher, scope)
        trace = searcher.ask(args.question, scope, k=args.k, threshold=args.threshold)
    finally:
        searcher.store.close()
    if args.json:
        print(json_text(to_dict(trace), indent=2))
    elif args.explain:
        print(explain(trace))
    else:
        print(format_answer(trace))
    return 0


def register(sub: Any) -> None:
    s = sub.add_parser("ask", help="ask the vault a question (answer, or --explain every stage)")
    s.add_argument("vault")
    s.add_argument("question")
    s.add_argument("--folder", action="append", help="only notes in this folder (and sub-folders); repeatable")
    s.add_argument("--tag", action="append", help="only notes with this tag (and sub-tags); repeatable")
    s.add_argument("--note", action="append", help="only this note (vault-relative path); repeatable")
    s.add_argument("-k", type=positive_int, help="documents in the context (default from settings: 5)")
    s.add_argument("--threshold", type=finite_float, help="refusal threshold for this question")
    s.add_argument("--json", action="store_true", help="print the full QueryTrace as JSON")
    s.add_argument("--explain", action="store_true", help="show every stage side by side")
    s.add_argument("--generate", action="store_true",
                   help="answer with the configured language model (llm_base_url, llm_model), streamed")
    s.add_argument("--after", action="append", metavar="QUESTION",
                   help="an earlier question of the conversation (repeatable, oldest first): the question is then "
                        "read as a follow-up")
    s.set_defaults(func=cmd_ask)
    register_eval(sub)
    register_why(sub)
    register_related(sub)
    register_history(sub)


def _golden_run(args: argparse.Namespace) -> tuple[Searcher, GoldenRun]:
    """Ask the golden file's questions (a seeded, stratified sample of --limit), with a progress bar."""
    import sys

    from vaultrag.cli.termui import progress_printer
    from vaultrag.core.quality import evaluate

    searcher = open_searcher(args)
    show = progress_printer(sys.stderr)
    try:
        run = evaluate.run_golden(searcher, args.golden, args.limit, show)
    finally:
        searcher.store.close()
    show(Progress(Phase.DONE, 1, 1))
    return searcher, run


def cmd_eval(args: argparse.Namespace) -> int:

    from vaultrag.core.quality import evaluate, report

    searcher, run = _golden_run(args)
    if not run.results:  # an empty file, or every line rejected: nothing was measured, and a gate must not pass
        why = "; ".join(run.skipped_lines[:5]) or "the file has no question"
        raise UserFacingError(f"No question of {args.golden} could be evaluated ({why}). Each line is a JSON object "
                              'such as {"question": "…", "note": "folder/note.md"}.')
    settings = searcher.settings.recorded(embedder=searcher.embedder.model_id if searcher.embedder else "",
                                          reranker=searcher.reranker_id)
    ev = evaluate.summarize(run.results, str(args.vault), str(args.golden), settings, run.seconds, run.skipped_lines,
                            run.inputs)
    if args.out:
        out = outside_vault(args.out, args.vault, "The report folder (--out)")
        out.mkdir(parents=True, exist_ok=True)
        (out / "eval.json").write_text(report.to_json(ev), encoding="utf-8")
        (out / "report.md").write_text(report.markdown(ev), encoding="utf-8")
        written = report.plots(ev, out)
        if not written:
            print("note: install matplotlib (pip install 'vaultrag[plots]') for PNG plots")
    print(json_text(json.loads(report.to_json(ev)), indent=2) if args.json else report.markdown(ev))
    return 0


def _take_back(args: argparse.Namespace) -> int:
    """`calibrate --undo` (the threshold the last calibration replaced) or `--shipped` (the shipped one)."""
    from vaultrag.core.quality import calibration
    from vaultrag.core.query import answerability
    from vaultrag.core.query.stages.decide import COSINE

    searcher = open_searcher(args)
    reranker_id = searcher.reranker_id
    searcher.store.close()
    from vaultrag.core.workspace import Workspace

    store, _ = Workspace.load(args.vault, args.home).open_store()
    try:
        model = answerability.shipped()
        for decider in dict.fromkeys([model.model_id if model else COSINE, COSINE]):
            value, undoable = calibration.calibrated(store, reranker_id, decider)
            if args.shipped and value is not None:
                calibration.reset_threshold(store, reranker_id, decider)
                print(f"threshold ({decider}): back to the shipped one (was {value:.4f}; --undo puts it back)")
            elif args.undo and undoable:
                now = calibration.undo_threshold(store, reranker_id, decider)
                print(f"threshold ({decider}): " + (f"{now:.4f} again" if now is not None else "the shipped one again"))
            else:
                continue
            return 0
        print("nothing to undo: no calibration changed the threshold" if args.undo else
              "the threshold is already the shipped one")
        return 1
    finally:
        store.close()


def cmd_calibrate(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from vaultrag.core.quality import calibration, report
    from vaultrag.core.workspace import Workspace

    if args.undo or args.shipped:
        return _take_back(args)
    if not args.golden:
        raise UserFacingError("calibrate needs --golden FILE (or --undo, or --shipped)")
    searcher, run = _golden_run(args)

    def write(fn: Callable[[IndexStore], str]) -> str:  # the CLI's writer: its own connection, as `index` has
        store, _ = Workspace.load(args.vault, args.home).open_store()
        try:
            return fn(store)
        finally:
            store.close()

    cal = calibration.calibrate(run.results, args.max_pass, searcher.reranker_id, write)
    if args.json:
        print(json_text({"calibration": asdict(cal), "skipped_lines": run.skipped_lines}, indent=2))
    else:
        print("\n".join([*left_out_lines(run.skipped_lines, cal.duplicates), *report.calibration_lines(cal)]))
    return 0 if cal.stored else 1


def left_out_lines(skipped: list[str], duplicates: tuple[int, ...]) -> list[str]:
    """The golden lines a calibration did not count, each with why ("line 3: not valid JSON"), and its repeated
    questions: the count it reports is of the rest."""
    out = ["Lines not used:", *(f"- {one_line(s)}" for s in skipped)] if skipped else []
    if duplicates:
        where = ", ".join(map(str, duplicates))
        out.append(f"Duplicate questions dropped: {len(duplicates)} (line(s) {where}), each an earlier line's question "
                   "but for case, accents or spacing.")
    return [*out, ""] if out else out


def register_eval(sub: Any) -> None:
    for name, func, desc in (("eval", cmd_eval, "measure a golden set: hit@k and MRR per stage, refusal"),
                             ("calibrate", cmd_calibrate, "pick and store the refusal threshold from a golden set")):
        s = sub.add_parser(name, help=desc)
        s.add_argument("vault")
        s.add_argument("--golden", required=name == "eval", help="JSONL golden file (see README)")
        s.add_argument("--limit", type=int, help="evaluate a seeded, stratified sample of N questions")
        s.add_argument("--json", action="store_true")
        if name == "eval":
            s.add_argument("--out", help="folder for eval.json, report.md and PNG plots")
        else:
            s.add_argument("--max-pass", type=max_pass_share, default=0.10,
                           help="largest share of unanswerable questions allowed through, above 0 and below 1 "
                                "(default 0.10)")
            what = s.add_mutually_exclusive_group()
            what.add_argument("--undo", action="store_true", help="put back the threshold the last calibration "
                                                                  "replaced")
            what.add_argument("--shipped", action="store_true", help="go back to the shipped threshold")
        s.set_defaults(func=func)


def cmd_why(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from vaultrag.core.quality.diagnose import diagnose
    from vaultrag.core.scope import Scope

    searcher = open_searcher(args, one_question=True)
    try:
        d = diagnose(searcher, args.vault, args.question, args.note, args.heading,
                     Scope(args.folder or [], args.tag or []))
    finally:
        searcher.store.close()
    words = wording.diagnosis(d)
    if args.json:
        print(json_text({**asdict(d), **asdict(words)}, indent=2))
    else:
        print(why_text(d))
    return 0


def why_text(d: Diagnosis) -> str:
    """A diagnosis in words: the verdict, what happened, what to do, and the evidence as labelled lines."""
    words = wording.diagnosis(d)
    where = f", stage {'+'.join(d.stages)}" if d.stages else ""
    # the note asked about, the notes it may have meant ("Did you mean …") and the question's words: one line each
    out = [f"{one_line(d.note)}: {words.title} (layer {d.layer}{where})", textwrap.fill(one_line(words.message), WIDTH),
           textwrap.fill("What to do: " + one_line(words.advice), WIDTH)]
    out += [f"  {label}: {one_line(value)}" for label, value in wording.evidence_lines(d.evidence)]
    return "\n".join(out)


def cmd_related(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from vaultrag.core.related import related
    from vaultrag.core.workspace import Workspace

    store, _ = Workspace.load(args.vault, args.home).open_store(readonly=True)
    try:
        found = related(store, args.note.replace("\\", "/").lstrip("/"), args.n, args.hide_linked)
    finally:
        store.close()
    if args.json:
        print(json_text([asdict(r) for r in found], indent=2))
        return 0
    for r in found:
        why = []
        if r.cosine is not None:
            why.append(f"meaning {r.cosine:.3f}")
        if r.links_to or r.linked_from:
            way = "both ways" if r.links_to and r.linked_from else "links to it" if r.links_to else "links here"
            why.append(way + (f" (as {', '.join(map(one_line, r.aliases))})" if r.aliases else ""))
        if r.tags:
            why.append("tags " + ", ".join("#" + one_line(t) for t in r.tags))
        print(f"{one_line(r.note)} — {'; '.join(why)}")
        if r.passage is not None:
            print(f"    closest passages: {one_line(r.passage.mine)} ~ {one_line(r.passage.theirs)} "
                  f"({r.passage.cosine:.3f})")
    if not found:
        print("no related note (no vectors yet, no links, no shared tags)")
    return 0


def cmd_history(args: argparse.Namespace) -> int:
    from dataclasses import asdict

    from vaultrag.core.history import History
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(args.vault, args.home)
    path = ws.paths.history_file(ws.vault)
    if not path.exists():
        print("no conversation kept for this vault yet (the window keeps each one as it is asked)")
        return 0
    history = History(path)
    try:
        if args.delete_all:
            print(f"deleted {history.delete_all()} exchange(s)")
            return 0
        talks = history.conversations(args.search or "")

        def one(prefix: str) -> str:
            found = [c.id for c in talks if c.id.startswith(prefix)]
            if len(found) != 1:
                raise UserFacingError(f"{prefix!r} names {len(found)} conversations: give more of its id "
                                      "(`vaultrag history VAULT` lists them).")
            return found[0]

        if args.delete:
            print(f"deleted {history.delete(one(args.delete))} exchange(s)")
            return 0
        if args.export:
            text = history.export_markdown(one(args.export), ws.vault)
            if args.out:
                Path(args.out).write_text(text, encoding="utf-8")
                print(f"written {args.out}")
            else:
                print(text)
            return 0
        if args.json:
            print(json_text([{**asdict(c), "exchanges": [asdict(x) for x in history.exchanges(c.id)]}
                             for c in talks], indent=2))
            return 0
        for c in talks:
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(c.started))
            print(f"{c.id[:8]}  {when}  {c.exchanges} exchange(s)  {one_line(c.first_question)}")
        if not talks:
            print("no conversation matches" if args.search else "no conversation kept")
    finally:
        history.close()
    return 0


def register_history(sub: Any) -> None:
    s = sub.add_parser("history", help="the conversations kept for a vault: list, search, export as Markdown, delete")
    s.add_argument("vault")
    s.add_argument("--search", help="only conversations whose questions or answers hold this text")
    s.add_argument("--export", metavar="ID", help="print (or --out) one conversation as Markdown with its sources")
    s.add_argument("--out", metavar="FILE", help="where --export writes")
    s.add_argument("--delete", metavar="ID", help="delete one conversation")
    s.add_argument("--delete-all", action="store_true", help="delete every conversation of this vault")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_history)


def register_related(sub: Any) -> None:
    s = sub.add_parser("related", help="the notes related to a note: close in meaning, linked, sharing tags")
    s.add_argument("vault")
    s.add_argument("note", help="the note (vault-relative path)")
    s.add_argument("-n", type=positive_int, default=10, help="how many found by meaning (default 10)")
    s.add_argument("--hide-linked", action="store_true", help="leave out the notes already linked to or from it")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_related)


def register_why(sub: Any) -> None:
    s = sub.add_parser("why", help='"why not this note?": the first stage that dropped it, and a fix')
    s.add_argument("vault")
    s.add_argument("question")
    s.add_argument("--note", required=True, help="the note you expected (vault-relative path)")
    s.add_argument("--heading", help="a heading of that note, to check one section")
    s.add_argument("--folder", action="append")
    s.add_argument("--tag", action="append")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_why)

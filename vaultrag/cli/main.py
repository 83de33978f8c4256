"""Command-line interface: a thin layer over vaultrag.core (index, status, ask, …)."""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys

from vaultrag import __version__
from vaultrag.cli import llm as cli_llm
from vaultrag.cli import mcp as cli_mcp
from vaultrag.cli import query as cli_query
from vaultrag.cli import watch as cli_watch
from vaultrag.cli.termui import json_text, one_line, progress_printer
from vaultrag.core.model import IndexReport, to_dict
from vaultrag.errors import UserFacingError


def cmd_index(args: argparse.Namespace) -> int:
    from vaultrag.core import embed, fast_tier
    from vaultrag.core.index.indexer import CancelToken, Indexer, IndexOptions, run_to_end
    from vaultrag.core.store.db import Error as DbError
    from vaultrag.core.store.db import is_corruption
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(args.vault, args.home)
    lock = ws.writer_lock()
    lock.acquire(on_wait=lambda who: print(f"waiting: this index is being written by {who}; this run starts "
                                           "when it is done (Ctrl+C to give up)", file=sys.stderr))
    try:
        # a full structure check costs well under a second for a typical index: worth it on every CLI run, so
        # `index` repairs whatever `status --check` would find (the app's lane checks fully after a crash)
        store, note = ws.open_store(repair=True, full_check=True)
        embedder = None if args.no_embed else embed.from_settings(ws.settings)
        fast = fast_tier.for_settings(ws.settings)
        cancel = CancelToken()
        options = IndexOptions.from_settings(ws.settings).allowing_empty(args.allow_empty)
        try:
            try:
                report = run_to_end(Indexer(ws.vault, store, options, embedder, fast).run(cancel),
                                    progress_printer(sys.stderr))
            except DbError as e:
                if not is_corruption(e):
                    raise
                store, note = ws.rebuild(store, e)  # damage found mid-run: start over from the notes
                report = run_to_end(Indexer(ws.vault, store, options, embedder, fast).run(cancel),
                                    progress_printer(sys.stderr))
        except KeyboardInterrupt:
            print("\ninterrupted: what was committed stays; run index again to resume", file=sys.stderr)
            return 130
        finally:
            store.close()
        report.rebuilt_reason = str(note or "")
    finally:
        lock.release()
    if args.json:
        print(json_text(to_dict(report), indent=2))
    else:
        print(_format_report(report, str(ws.index_path)))
    return 0


def _format_report(r: IndexReport, index_file: str) -> str:
    lines = []
    if r.rebuilt_reason:
        lines.append(f"note: {r.rebuilt_reason}")
    lines += [
        f"notes: {r.notes_seen} seen, {r.notes_indexed} (re)indexed, {r.notes_unchanged} unchanged, "
        f"{r.notes_moved} moved, {r.notes_deleted} deleted, {r.notes_excluded} excluded, {r.notes_failed} failed",
        f"chunks: {r.chunks_total} total, {r.chunks_embedded} embedded now, {r.chunks_reused} reused, "
        f"{r.chunks_pending} without vector, {r.chunks_truncated} truncated",
        "time: " + ", ".join(f"{k} {v:.2f}s" for k, v in r.seconds.items()),
        f"index: {index_file}",
    ]
    if r.cancelled:
        lines.append("cancelled: run `vaultrag index` again to finish (nothing done is redone)")
    if r.notes_failed or r.notes_excluded:
        lines.append("see `vaultrag status VAULT --list failed` / `--list excluded` for the reasons")
    return "\n".join(lines)


def cmd_status(args: argparse.Namespace) -> int:
    from vaultrag.core import wording
    from vaultrag.core.health import health
    from vaultrag.core.vocab import Reason
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(args.vault, args.home)
    # a check only reads: damage is reported and `index` mends it; plain `status` upgrades an older index once
    store, _ = ws.open_store(readonly=True, migrate=not args.check)
    try:
        h = health(store, str(ws.vault), ws.settings, check=args.check)
    finally:
        store.close()
    if args.json:
        print(json_text(json.loads(h.to_json()), indent=2))
    else:
        c = h.counts
        print(f"vault: {h.vault}\nindex: {h.index_file}")
        print(f"model: {h.model or '(none yet)'}; schema {h.versions['schema']}, chunker {h.versions['chunker']}, "
              f"vaultrag {h.versions['app']}")
        print(
            f"notes: {c['notes_indexed']} indexed, {c['notes_excluded']} excluded, {c['notes_failed']} failed, "
            f"{c['notes_stale']} stale ({c['notes_on_disk']} on disk)"
        )
        print(
            f"chunks: {c['chunks']} total, {c['chunks_embedded']} with full-quality vectors, "
            f"{c['chunks_truncated']} truncated"
        )
        print(f"vectors: {wording.tier_shares(c['chunks'], c['chunks_fast'], c['chunks_embedded'])}")
        if h.languages:
            print("languages: " + ", ".join(f"{lang or 'unknown'} {n}" for lang, n in h.languages.items()))
        for reason in h.stale_reasons:
            print(f"stale: {reason}")
        for warning in h.warnings:  # an ignore file's line, an aside copy's path
            print(f"warning: {one_line(warning)}")
        for name in args.list or []:
            print(f"\n{name} ({len(h.notes.get(name, []))}):")
            for n in h.notes.get(name, []):
                if n.code in (Reason.UNRESOLVED_LINK, Reason.MISSING_HEADING):
                    n.reason = f"{n.reason} {wording.reason(n.code)}"
                extra = f"  — {one_line(n.reason)}" if n.reason else ""  # a broken link's target, as written
                print(f"  {one_line(n.path)}{extra}")
        if h.problems is not None:
            print("check: ok" if not h.problems else "check FAILED:\n  " + "\n  ".join(map(one_line, h.problems)))
    return 1 if h.problems else 0


def build_parser() -> argparse.ArgumentParser:
    p = cli_query.HintingParser(prog="vaultrag", description="Ask your Markdown vault, offline, and see why.")
    p.add_argument("--version", action="version", version=f"vaultrag {__version__}")
    p.add_argument("--home", help="app home dir (index, settings, caches); default: $VAULTRAG_HOME or the OS data dir")
    p.add_argument("-v", "--verbose", action="store_true", help="log what happens (per-note reasons, timings)")
    sub = p.add_subparsers(dest="command")

    s = sub.add_parser("index", help="index a vault (incremental; resumes where it stopped)")
    s.add_argument("vault")
    s.add_argument("--json", action="store_true", help="print the report as JSON")
    s.add_argument("--no-embed", action="store_true", help="text and BM25 only; embed later")
    s.add_argument("--allow-empty", action="store_true",
                   help="a vault with no note left empties the index (without it such a run deletes nothing: an "
                        "unmounted drive looks the same)")
    s.set_defaults(func=cmd_index)

    s = sub.add_parser("status", help="the index's health: counts and each note's state")
    s.add_argument("vault")
    s.add_argument("--json", action="store_true")
    s.add_argument("--list", action="append", choices=["indexed", "excluded", "failed", "stale", "truncated",
                                                         "flagged", "unresolved"],
                   help="list the notes of a kind (unresolved: the links that name no note or heading)")
    s.add_argument("--check", action="store_true", help="also run the consistency check (exit 1 on a problem)")
    s.set_defaults(func=cmd_status)

    cli_query.register(sub)  # the query commands live there to keep this module small
    cli_watch.register(sub)
    cli_llm.register(sub)
    cli_mcp.register(sub)
    return p


COMMANDS = {"index", "status", "ask", "why", "eval", "calibrate", "watch", "llm", "mcp", "related", "history"}


def _wants_window(argv: list[str]) -> bool:
    """No command (maybe a vault path, --home, --smoke-test) means the desktop app."""
    if any(a in ("-h", "--help", "--version") for a in argv):
        return False
    words = [a for i, a in enumerate(argv) if not a.startswith("-") and (i == 0 or argv[i - 1] != "--home")]
    return not words or words[0] not in COMMANDS


def _db_error() -> type[Exception]:
    from vaultrag.core.store.db import Error

    return Error  # type: ignore[no-any-return]


def db_failure(e: Exception) -> str:
    """An index read or write that failed, in words that point the right way (a full disk is no damage)."""
    text, low = str(e), str(e).lower()
    if "disk is full" in low or "no space" in low:
        return (f"the disk that holds the index is full ({text}): free some space and run the command again; what "
                "was written so far stays consistent.")
    if "readonly" in low or "read-only" in low:
        return (f"the index cannot be written ({text}): its file or folder is read-only (permissions, a read-only "
                "disk, an immutable file); make it writable, or pick another home with --home.")
    return (f"the index could not be read or written ({text}). If another program is using it, try again; if it is "
            "damaged, `vaultrag index VAULT` rebuilds it.")


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if _wants_window(argv):
        from vaultrag.app.main import main as gui_main  # `vaultrag [VAULT]` opens the window

        return gui_main([a for a in argv if a != "gui"])
    from vaultrag.cli.termui import PrintableStream

    streams = sys.stdout, sys.stderr
    sys.stdout, sys.stderr = PrintableStream(sys.stdout), PrintableStream(sys.stderr)  # notes print as text only
    try:
        return _main(argv)
    finally:
        sys.stdout, sys.stderr = streams


def _main(argv: list[str]) -> int:
    from vaultrag.cli.help import localize

    parser = localize(build_parser())  # its help in Portuguese where the environment asks for it
    args = parser.parse_args(argv)
    logging.basicConfig(level=logging.INFO if args.verbose else logging.WARNING, format="%(levelname)s %(message)s")
    if not getattr(args, "func", None):
        parser.print_help()
        return 0
    try:
        return int(args.func(args))
    except UserFacingError as e:
        from vaultrag.cli.help import error_text

        print(f"vaultrag: {error_text(e)}", file=sys.stderr)
        return 2
    except _db_error() as e:  # locked past the timeout, disk full, damage a read found: say so, no traceback
        print(f"vaultrag: {db_failure(e)}", file=sys.stderr)
        return 2
    except BrokenPipeError:
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0
    except KeyboardInterrupt:  # Ctrl+C where a command has no message of its own (a question, a model loading)
        print("\nvaultrag: interrupted", file=sys.stderr)
        return 130

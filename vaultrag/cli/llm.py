"""CLI for the language model: `ask --generate` (streamed, citation-checked), follow-ups, `llm models|detect|test`,
and the built-in model's files: `llm catalog|get`."""

from __future__ import annotations

import argparse
import contextlib
import sys
from typing import TYPE_CHECKING, Any

from vaultrag.cli.show import explain, format_generated
from vaultrag.cli.termui import json_text
from vaultrag.core import wording
from vaultrag.core.llm.generator import LLMError
from vaultrag.core.model import to_dict
from vaultrag.core.vocab import ModelState
from vaultrag.errors import UserFacingError

if TYPE_CHECKING:
    import threading
    from collections.abc import Callable, Sequence
    from pathlib import Path

    from vaultrag.core.llm.generator import ConnectionTest, Generated, Generator, Message
    from vaultrag.core.model import Progress
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.scope import Scope


def ask_generating(args: argparse.Namespace, searcher: Searcher, scope: Scope) -> int:
    """`ask` with a conversation (--after) and/or the language model (--generate); 1 when the model failed."""
    from vaultrag.core.llm import registry
    from vaultrag.core.query.conversation import Conversation
    from vaultrag.core.query.search import conversation_pipeline, start_in_conversation

    generator = registry.from_settings(searcher.settings) if args.generate else None
    if generator is not None and not (args.json or args.explain):
        generator = _Announced(generator)  # "loading the model…" on stderr: the built-in model takes seconds
    if args.generate and generator is None:
        raise UserFacingError("--generate needs a language model: set llm_base_url and llm_model in the settings "
                              "(`vaultrag llm detect` finds a server running on this machine), or llm_backend = "
                              "\"local\" and llm_gguf = a GGUF model file.")
    conversation = Conversation() if args.after else None
    for earlier in args.after or []:  # the earlier questions are searched (not answered) to build the context
        assert conversation is not None
        conversation.add(searcher.ask(earlier, scope, k=args.k, threshold=args.threshold,
                                      pipeline=conversation_pipeline(conversation, None)))
    streaming = not (args.json or args.explain)

    last = [""]  # the streamed text's last character: what follows it starts on a line of its own

    def show(piece: str) -> None:
        sys.stdout.write(piece)
        sys.stdout.flush()
        last[0] = piece[-1:] or last[0]

    trace = start_in_conversation(searcher, args.question, conversation, generator, show if streaming else None,
                                  scope=scope, k=args.k, threshold=args.threshold).finish()
    if last[0] and last[0] != "\n":  # a failure's message (stderr) must not be glued to the streamed line
        print(flush=True)
    if args.json:
        print(json_text(to_dict(trace), indent=2))
    elif args.explain:
        print(explain(trace))
    else:
        print(format_generated(trace, streamed=True))
    failed = trace.generation is not None and trace.generation.failure is not None
    return 1 if failed else 0


class _Announced:
    """A Generator that says on stderr what getting the model ready does (loading, restarting) before it answers,
    only when that happens: a question that is refused starts nothing."""

    def __init__(self, generator: Generator) -> None:
        self._g = generator

    @property
    def model(self) -> str:
        return self._g.model

    @property
    def address(self) -> str:
        return self._g.address

    @property
    def max_tokens(self) -> int:
        return self._g.max_tokens

    def _say(self, state: ModelState) -> None:
        if state != ModelState.READY:
            print(f"({wording.model_state(state, self._g.model)})", file=sys.stderr, flush=True)

    def prepare(self, on_state: Callable[[ModelState], None] | None = None) -> None:
        self._g.prepare(on_state)

    def list_models(self) -> list[str]:
        return self._g.list_models()

    def test_connection(self) -> ConnectionTest:
        return self._g.test_connection()

    def context_window(self) -> int | None:
        window = getattr(self._g, "context_window", None)  # only servers that say it (Ollama, LM Studio)
        return window() if callable(window) else None

    def generate(self, messages: Sequence[Message], on_piece: Callable[[str], None] | None = None,
                 cancel: threading.Event | None = None, temperature: float | None = None,
                 max_tokens: int | None = None) -> Generated:
        with contextlib.suppress(LLMError):  # the answer's own attempt reports it, coded; the extractive one stays
            self._g.prepare(self._say)
        return self._g.generate(messages, on_piece, cancel, temperature, max_tokens)


def cmd_llm(args: argparse.Namespace) -> int:
    from vaultrag import settings as settings_mod
    from vaultrag.core.llm import registry
    from vaultrag.paths import Paths

    paths = Paths(args.home)
    if args.action == "catalog":
        return show_catalog(paths.models_dir, args.json)
    if args.action == "get":
        return get_model(args, paths.models_dir, paths.settings_file)
    s = settings_mod.load(paths.settings_file)
    if args.action == "detect":
        found = registry.detect_local_servers(s)
        if args.json:
            print(json_text([to_dict(f) for f in found], indent=2))
        for f in found if not args.json else []:
            print(f"{f.name}: {f.base_url} — models: {', '.join(f.models) or '(none loaded)'}")
        if not found and not args.json:
            print("no language model server answers on this machine's usual ports "
                  f"({', '.join(str(p) for p in s.llm_detect_ports)})")
        return 0 if found else 1
    if args.base_url:
        s = s.replace(llm_base_url=args.base_url)
    generator = registry.from_settings(s, need_model=args.action == "test")
    if generator is None:
        raise UserFacingError("No language model server set: set llm_base_url in the settings, or pass --base-url "
                              "(`vaultrag llm detect` finds one running here); or llm_backend = \"local\" and "
                              "llm_gguf = a GGUF model file.")
    if args.action == "test":
        result = generator.test_connection()
        print(json_text(to_dict(result)) if args.json else describe_test(result))
        return 0 if result.ok else 1
    details = getattr(generator, "model_details", None)  # servers that describe their models (Ollama, LM Studio)
    if details is None:
        models = generator.list_models()
        print(json_text(models) if args.json else "\n".join(models) or "(the server lists no model)")
        return 0
    described = details()
    if args.json:
        print(json_text([to_dict(m) for m in described], indent=2))
        return 0
    print("\n".join(model_line(m) for m in described) or "(the server lists no model that can answer)")
    return 0


def model_line(m: Any) -> str:
    """A server's model on one line: its name, its context and what the server says of it."""
    if not (m.context or m.details or m.loaded is not None):
        return str(m.name)  # a server that says nothing of its models (llama.cpp's, a hosted API): the name
    context = f"context {m.context:,} tokens" if m.context else "context not said by the server"
    if m.max_context and m.max_context != m.context:
        context += f" (model up to {m.max_context:,})"
    loaded = {True: ", loaded", False: ", not loaded"}.get(m.loaded, "")
    return f"{m.name} — {context}{loaded}" + (f" — {m.details}" if m.details else "")


def show_catalog(models_dir: Path, as_json: bool) -> int:
    """`llm catalog`: the models `llm get` downloads, their size and RAM (approximate), downloaded or not."""
    from vaultrag.core.llm import gguf
    from vaultrag.core.llm.catalog import CATALOG, approx_gb

    rows = [(m, gguf.downloaded(models_dir, m)) for m in CATALOG]
    if as_json:
        print(json_text([{**to_dict(m), "downloaded": str(path) if path else None} for m, path in rows],
                         indent=2))
        return 0
    for m, path in rows:
        print(f"{m.key:13} {m.title:32} {approx_gb(m.size_bytes):>9} file, needs {approx_gb(m.ram_gb * 1e9)} RAM  "
              + (f"downloaded: {path}" if path else "not downloaded"))
        print(f"{'':13} {m.languages}; {m.licence}" + (f". {m.note}" if m.note else ""))
    print("Sizes and RAM are approximate. `vaultrag llm get KEY` downloads one (--use makes it the model that "
          "answers).")
    return 0


def get_model(args: argparse.Namespace, models_dir: Path, settings_file: Path) -> int:
    """`llm get KEY`: download a catalog model (progress on stderr), print its file; --use sets it as the model."""
    from vaultrag import settings as settings_mod
    from vaultrag.core.llm import catalog, gguf

    model = catalog.find(args.key or "")
    if model is None:
        raise UserFacingError(f"{args.key!r} is not a model of the catalog: choose one of "
                              f"{', '.join(m.key for m in catalog.CATALOG)} (`vaultrag llm catalog` lists them).")
    received = [0]

    def progress(p: Progress) -> None:
        received[0] = p.done
        show_bytes(p)

    show_bytes = bytes_printer(sys.stderr)
    try:
        path = gguf.download_gguf(model.repo_id, model.filename, models_dir, progress, endpoint=args.endpoint)
    except KeyboardInterrupt:
        print(f"\ninterrupted: the {received[0] / 1e6:.0f} MB received are kept; run `vaultrag llm get {model.key}` "
              "again to continue", file=sys.stderr)
        return 130
    print(path)
    if args.use:
        gguf.check_gguf(path)  # only a model file is made the one that answers (never a stray under its name)
        s = settings_mod.load(settings_file).replace(llm_backend="local", llm_gguf=str(path))
        settings_mod.save(s, settings_file)
        print(f"answers now come from {model.title} (llm_backend = \"local\" in {settings_file})", file=sys.stderr)
    return 0


def bytes_printer(stream: Any) -> Any:
    """A download's progress in MB on a terminal (one line, redrawn); a line per tenth when piped."""
    from vaultrag.core.vocab import Phase

    tty = stream.isatty()
    shown = [-1]

    def show(p: Progress) -> None:
        if p.phase == Phase.DONE:
            if tty:
                stream.write("\r\033[K")
            stream.flush()
            return
        tenth = int(10 * p.done / p.total) if p.total else 0
        if not tty and tenth == shown[0]:
            return
        shown[0] = tenth
        rate = f" {p.rate / 1e6:5.1f} MB/s" if p.rate else ""
        eta = f" ETA {p.eta_s:4.0f} s" if p.eta_s is not None else ""
        line = f"{p.message}: {p.done / 1e6:7.1f} / {p.total / 1e6:.1f} MB{rate}{eta}"
        stream.write(f"\r\033[K{line}" if tty else line + "\n")
        stream.flush()

    return show


def describe_test(result: ConnectionTest) -> str:
    """A connection test in words: the model answered (how fast, what it said), or why not."""
    if result.latency_ms is None:
        return f"{result.model} at {result.address} failed ({result.failure}): {result.error}"
    said = (f"{result.model} at {result.address}" + (f" ({result.server})" if result.server else "")
            + f" answered in {result.latency_ms / 1000:.2f} s: \u201c{result.sample}\u201d")
    if result.context:
        said += f"; its context: {result.context:,} tokens"
    return said


def register(sub: Any) -> None:
    s = sub.add_parser("llm", help="the language model: list its models, detect a local server, or test it; the "
                       "catalog of models to download, and get one")
    s.add_argument("action", choices=["models", "detect", "test", "catalog", "get"])
    s.add_argument("key", nargs="?", help="get: the catalog's model to download (`vaultrag llm catalog` lists them)")
    s.add_argument("--base-url", help="ask this server instead of the configured one (models, test)")
    s.add_argument("--endpoint", help="get: download from this Hugging Face hub mirror instead of huggingface.co")
    s.add_argument("--use", action="store_true", help="get: make the downloaded model the one that answers")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_llm)

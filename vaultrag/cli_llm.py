"""CLI for the language model: `ask --generate` (streamed, citation-checked), follow-ups, `llm models|detect|test`."""

from __future__ import annotations

import argparse
import json
import sys
from typing import TYPE_CHECKING, Any

from vaultrag.cli_show import explain, format_generated
from vaultrag.core.model import to_dict
from vaultrag.errors import UserFacingError

if TYPE_CHECKING:
    from vaultrag.core.llm.generator import ConnectionTest
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.scope import Scope


def ask_generating(args: argparse.Namespace, searcher: Searcher, scope: Scope) -> int:
    """`ask` with a conversation (--after) and/or the language model (--generate); 1 when the model failed."""
    from vaultrag.core.llm import registry
    from vaultrag.core.query.conversation import Conversation
    from vaultrag.core.query.search import conversation_pipeline

    generator = registry.from_settings(searcher.settings) if args.generate else None
    if args.generate and generator is None:
        raise UserFacingError("--generate needs a language model: set llm_base_url and llm_model in the settings "
                              "(`vaultrag llm detect` finds a server running on this machine).")
    conversation = Conversation() if args.after else None
    for earlier in args.after or []:  # the earlier questions are searched (not answered) to build the context
        assert conversation is not None
        conversation.add(searcher.ask(earlier, scope, k=args.k, threshold=args.threshold,
                                      pipeline=conversation_pipeline(conversation, None)))
    streaming = not (args.json or args.explain)

    def show(piece: str) -> None:
        sys.stdout.write(piece)
        sys.stdout.flush()

    trace = searcher.ask(args.question, scope, k=args.k, threshold=args.threshold,
                         pipeline=conversation_pipeline(conversation, generator, show if streaming else None))
    if args.json:
        print(json.dumps(to_dict(trace), ensure_ascii=False, indent=2))
    elif args.explain:
        print(explain(trace))
    else:
        print(format_generated(trace, streamed=True))
    failed = trace.generation is not None and trace.generation.failure is not None
    return 1 if failed else 0


def cmd_llm(args: argparse.Namespace) -> int:
    from vaultrag import settings as settings_mod
    from vaultrag.core.llm import registry
    from vaultrag.paths import Paths

    s = settings_mod.load(Paths(args.home).settings_file)
    if args.action == "detect":
        found = registry.detect_local_servers(s)
        if args.json:
            print(json.dumps([to_dict(f) for f in found], indent=2))
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
                              "(`vaultrag llm detect` finds one running here).")
    if args.action == "test":
        result = generator.test_connection()
        print(json.dumps(to_dict(result), ensure_ascii=False) if args.json else describe_test(result))
        return 0 if result.ok else 1
    models = generator.list_models()
    print(json.dumps(models) if args.json else "\n".join(models) or "(the server lists no model)")
    return 0


def describe_test(result: ConnectionTest) -> str:
    """A connection test in words: the model answered (how fast, what it said), or why not."""
    if result.latency_ms is None:
        return f"{result.model} at {result.address} failed ({result.failure}): {result.error}"
    return (f"{result.model} at {result.address} answered in {result.latency_ms / 1000:.2f} s: "
            f"\u201c{result.sample}\u201d")


def register(sub: Any) -> None:
    s = sub.add_parser("llm", help="the language model: list its models, detect a local server, or test it")
    s.add_argument("action", choices=["models", "detect", "test"])
    s.add_argument("--base-url", help="ask this server instead of the configured one (models, test)")
    s.add_argument("--json", action="store_true")
    s.set_defaults(func=cmd_llm)

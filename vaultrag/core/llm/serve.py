"""The built-in model's server process: llama-cpp-python's OpenAI-compatible server for one GGUF file, started by
core/llm/local.py (`python -m vaultrag.core.llm.serve …`, or the frozen app's `--llm-server …`), dying with it."""

from __future__ import annotations

import argparse
import importlib
import os
import sys
from collections.abc import Sequence
from typing import Any

from vaultrag.core.lifeline import die_with_parent

# exit codes the starter reads (core/llm/local.py): what went wrong before the server could answer
NO_RUNTIME_EXIT = 3  # llama_cpp or the server's packages do not import
MODEL_FILE_EXIT = 4  # llama.cpp could not load the file


def parse(argv: Sequence[str]) -> argparse.Namespace:
    ap = argparse.ArgumentParser(prog="vaultrag-llm-server", description=__doc__)
    ap.add_argument("--parent", type=int, required=True, help="the pid of the process this server dies with")
    ap.add_argument("--model", required=True, help="the GGUF file")
    ap.add_argument("--port", type=int, required=True)
    ap.add_argument("--ctx", type=int, default=4096)
    ap.add_argument("--threads", type=int, default=1)
    ap.add_argument("--alias", required=True, help="the model's name at /v1/models")
    return ap.parse_args(argv)


def main(argv: Sequence[str] | None = None) -> int:
    args = parse(sys.argv[1:] if argv is None else argv)
    die_with_parent(args.parent)
    os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")  # no spinning threads: the app shares the cores
    try:  # typed loosely: llama_cpp's server functions carry no return types
        uvicorn: Any = importlib.import_module("uvicorn")
        app_mod: Any = importlib.import_module("llama_cpp.server.app")
        settings_mod: Any = importlib.import_module("llama_cpp.server.settings")
    except ImportError as e:
        print(f"vaultrag-llm-server: the llama.cpp runtime does not import: {e}", file=sys.stderr, flush=True)
        return NO_RUNTIME_EXIT
    host = "127.0.0.1"  # this machine only: the app is the one client
    try:
        app = app_mod.create_app(
            server_settings=settings_mod.ServerSettings(host=host, port=args.port),
            model_settings=[settings_mod.ModelSettings(
                model=args.model, model_alias=args.alias, n_ctx=args.ctx, n_threads=args.threads,
                n_threads_batch=args.threads, verbose=False,
                # the server's default keeps every position's logits (n_ctx × vocabulary floats: ~2.5 GB for a
                # Qwen2.5 at 4k); answers need the last one only
                logits_all=False)])
    except (ValueError, OSError, RuntimeError) as e:  # llama.cpp's "Failed to load model from file"
        print(f"vaultrag-llm-server: cannot load {args.model}: {e}", file=sys.stderr, flush=True)
        return MODEL_FILE_EXIT
    uvicorn.run(app, host=host, port=args.port, log_level="warning")
    return 0


if __name__ == "__main__":
    sys.exit(main())

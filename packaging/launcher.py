"""Entry point of the frozen app: the same CLI/GUI as `vaultrag`, with multiprocessing made freeze-safe."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # parsing workers are spawned: the frozen exe must act as a worker too
    if sys.argv[1:2] == ["--llm-server"]:  # the built-in model's server (core/llm/local.py starts it so)
        from vaultrag.core.llm import serve

        sys.exit(serve.main(sys.argv[2:]))
    from vaultrag.cli.main import main

    sys.exit(main())

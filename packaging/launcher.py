"""Entry point of the frozen app: the same CLI/GUI as `vaultrag`, with multiprocessing made freeze-safe."""

import multiprocessing
import sys

if __name__ == "__main__":
    multiprocessing.freeze_support()  # parsing workers are spawned: the frozen exe must act as a worker too
    from vaultrag.cli import main

    sys.exit(main())

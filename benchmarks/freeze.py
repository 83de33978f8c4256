"""The freeze scenario again and again under load: tests/test_freeze.py run N times with both cores kept busy.

Not a timed test: it prints how many runs passed, and the slowest run, so a rare deadlock (issue 36) shows here
before a user meets it. Each run is its own pytest process (a fresh interpreter and Qt), under the suite's own
hard limit, which dumps every thread's stack and ends the run instead of hanging.

    python benchmarks/freeze.py [--runs 50] [--burners 2]
"""

from __future__ import annotations

import argparse
import multiprocessing
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def burn(stop: multiprocessing.synchronize.Event) -> None:  # type: ignore[name-defined]
    """Keep one core busy until told to stop (the 'load' of the issue: CI machines are shared)."""
    x = 0
    while not stop.is_set():
        for _ in range(100_000):
            x = (x * 31 + 7) % 1_000_003


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=50)
    parser.add_argument("--burners", type=int, default=2, help="processes that keep a core busy meanwhile")
    args = parser.parse_args()

    stop = multiprocessing.Event()
    burners = [multiprocessing.Process(target=burn, args=(stop,), daemon=True) for _ in range(args.burners)]
    for p in burners:
        p.start()
    env = dict(os.environ, QT_QPA_PLATFORM="offscreen")
    times: list[float] = []
    failed: list[int] = []
    try:
        for run in range(1, args.runs + 1):
            started = time.monotonic()
            done = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                                   "tests/test_freeze.py"], cwd=ROOT, env=env, capture_output=True, text=True)
            times.append(time.monotonic() - started)
            status = "passed" if done.returncode == 0 else f"FAILED (exit {done.returncode})"
            print(f"run {run:3d}/{args.runs}: {status} in {times[-1]:.1f} s", flush=True)
            if done.returncode != 0:
                failed.append(run)
                print(done.stdout[-4000:], done.stderr[-4000:], sep="\n", flush=True)
    finally:
        stop.set()
        for p in burners:
            p.join()
    print(f"\n{args.runs - len(failed)} of {args.runs} runs passed under {args.burners} busy cores; "
          f"median {statistics.median(times):.1f} s, slowest {max(times):.1f} s"
          + (f"; failed runs: {failed}" if failed else ""))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())

"""Helpers shared by the benchmarks: shared-data paths, running the CLI in a subprocess with its peak RSS."""

from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
EVAL = ROOT.parent / "shared" / "eval" / "data"

_RUNNER = """
import json, resource, sys, time
from vaultrag.cli.main import main
t = time.perf_counter()
code = main(sys.argv[1:])
sys.stderr.write("\\n@@" + json.dumps({"code": code, "wall": time.perf_counter() - t,
    "rss_mb": resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024}) + "\\n")
"""


def cli(home: Path, *args: str, env: dict[str, str] | None = None) -> tuple[dict, dict]:
    """Run `vaultrag --home HOME ARGS --json`; returns (JSON output, {"wall", "rss_mb", "code"})."""
    t = time.perf_counter()
    r = subprocess.run(
        [sys.executable, "-c", _RUNNER, "--home", str(home), *args, "--json"],
        capture_output=True, text=True, env={**os.environ, **(env or {})},
    )
    stats = json.loads(r.stderr.rsplit("@@", 1)[1]) if "@@" in r.stderr else {"code": r.returncode}
    stats["process_wall"] = time.perf_counter() - t
    if stats.get("code") != 0:
        raise SystemExit(f"vaultrag {' '.join(args)} failed:\n{r.stderr[-3000:]}")
    return json.loads(r.stdout), stats


def median(xs: list[float]) -> float:
    return statistics.median(xs) if xs else float("nan")


def pct(xs: list[float], q: float) -> float:
    xs = sorted(xs)
    return xs[min(len(xs) - 1, round(q * (len(xs) - 1)))] if xs else float("nan")


def section_markers(name: str) -> tuple[str, str]:
    return f"<!-- {name}: begin -->", f"<!-- {name}: end -->"


def put_section(doc: Path, name: str, text: str) -> None:
    """Write `text` into `doc` between the section's markers (replacing what was there, else appended): a
    benchmark's tables kept in a document another benchmark writes (docs/quality.md)."""
    begin, end = section_markers(name)
    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    block = f"{begin}\n{text.rstrip()}\n{end}"
    if begin in old and end in old:
        new = old[: old.index(begin)] + block + old[old.index(end) + len(end):]
    else:
        new = old.rstrip() + "\n\n" + block + "\n"
    doc.write_text(new, encoding="utf-8")


def kept_sections(doc: Path) -> str:
    """Every marked section of `doc` (put_section's), to be written again by the benchmark that rewrites it."""
    import re

    old = doc.read_text(encoding="utf-8") if doc.exists() else ""
    return "\n\n".join(m.group(0) for m in re.finditer(r"<!-- ([\w-]+): begin -->.*?<!-- \1: end -->", old, re.S))

"""Terminal output helpers shared by the CLI commands: a one-line progress bar."""

from __future__ import annotations

from typing import Any

from vaultrag.core.model import Progress
from vaultrag.core.vocab import Phase


def progress_printer(stream: Any) -> Any:
    """A callback drawing a one-line progress bar on a terminal (nothing when piped)."""
    tty = stream.isatty()

    def show(p: Progress) -> None:
        if not tty:
            return
        if p.phase == Phase.DONE:
            stream.write("\r\033[K")
            stream.flush()
            return
        width = 30
        frac = p.done / p.total if p.total else 0.0
        bar = "#" * int(frac * width)
        eta = f" ETA {p.eta_s:5.0f}s" if p.eta_s is not None and p.done < p.total else ""
        rate = f" {p.rate:6.1f}/s" if p.rate else ""
        label = {Phase.SCAN: "scanning", Phase.TEXT: "text+BM25", Phase.EMBED: "embedding"}.get(p.phase, p.phase)
        stream.write(f"\r\033[K{label:10} [{bar:<{width}}] {p.done}/{p.total}{rate}{eta}")
        stream.flush()

    return show

"""Terminal output helpers shared by the CLI commands: text and names made safe to print, a one-line progress bar
(a line now and then when piped)."""

from __future__ import annotations

import re
import time
from typing import Any

from vaultrag.core.lines import one_line
from vaultrag.core.model import Progress
from vaultrag.core.vocab import Phase

__all__ = ["PrintableStream", "json_text", "one_line", "printable", "progress_printer"]

# control characters a note's text or file name may carry (ESC starts a terminal's commands: a window title, a
# cleared screen, the clipboard through OSC 52): shown as \xNN instead; line breaks and tabs are text
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
OWN = "\r\033[K"  # the progress bar's own "back to the line's start and clear it"


def printable(text: str) -> str:
    """`text` with its control characters (but line breaks, tabs and the progress bar's own line clear) shown as
    \\xNN, so a note cannot command the terminal it is printed on."""
    if not CONTROL.search(text):
        return text
    parts = text.split(OWN)
    return OWN.join(CONTROL.sub(lambda m: f"\\x{ord(m.group()):02x}", part) for part in parts)


def json_text(data: Any, **kwargs: Any) -> str:
    """`data` as JSON for the CLI's `--json`: like `json.dumps(..., ensure_ascii=False)`, with the control
    characters JSON leaves as they are (DEL, U+0080–U+009F) written as \\uXXXX escapes: the stream's `printable`
    would write them as \\xNN, which is no JSON (a note holding a DEL made `ask --json` unreadable)."""
    import json

    text = json.dumps(data, ensure_ascii=False, **kwargs)
    return CONTROL.sub(lambda m: f"\\u{ord(m.group()):04x}", text)


class PrintableStream:
    """A text stream that writes `printable` text (the CLI's stdout and stderr: note text, names, log lines)."""

    def __init__(self, stream: Any) -> None:
        self.stream = stream

    def write(self, text: str) -> int:
        self.stream.write(printable(text))
        return len(text)

    def __getattr__(self, name: str) -> Any:  # flush, isatty, fileno, encoding…: the stream's own
        return getattr(self.stream, name)


PIPED_EVERY_S = 10.0  # piped (a log, CI): a progress line at least this often while work goes on…
PIPED_STEP = 0.1  # …and at each tenth of a phase, and when a phase starts
LABEL = {Phase.SCAN: "scanning", Phase.TEXT: "text+BM25", Phase.FAST: "fast vectors", Phase.EMBED: "embedding"}


def progress_printer(stream: Any, clock: Any = time.monotonic) -> Any:
    """A callback drawing a one-line progress bar on a terminal; piped, a plain line at each tenth of a phase and
    every PIPED_EVERY_S seconds (minutes of silence read as a hang)."""
    tty = stream.isatty()
    last: dict[str, Any] = {"phase": None, "step": -1, "at": 0.0}

    def piped(p: Progress) -> None:
        if p.phase == Phase.DONE:
            return
        frac = p.done / p.total if p.total else 0.0
        step, now = int(frac / PIPED_STEP), clock()
        if p.phase == last["phase"] and step == last["step"] and now - last["at"] < PIPED_EVERY_S:
            return
        last.update(phase=p.phase, step=step, at=now)
        eta = f", ETA {p.eta_s:.0f}s" if p.eta_s is not None and p.done < p.total else ""
        rate = f", {p.rate:.1f}/s" if p.rate else ""
        stream.write(f"{LABEL.get(p.phase, p.phase)}: {p.done}/{p.total} ({frac:.0%}{rate}{eta})\n")
        stream.flush()

    def show(p: Progress) -> None:
        if not tty:
            piped(p)
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
        label = LABEL.get(p.phase, p.phase)
        stream.write(f"\r\033[K{label:10} [{bar:<{width}}] {p.done}/{p.total}{rate}{eta}")
        stream.flush()

    return show

"""A name (a note's path, a heading, a link's target) made safe for one line: of a terminal, of a prompt."""

from __future__ import annotations

import re

# what a name (a note's path, a heading, a link's target) must not carry onto its line: every control character,
# line breaks and tabs too (a file name may hold a newline and so print a line of its own, "— note › heading, line
# 3"), the line and paragraph separators, and the bidi controls that reorder what follows them on the line (U+202E
# shows "dm.txt" for "txt.md")
UNSAFE_IN_LINE = re.compile("[\x00-\x1f\x7f-\x9f\u061c\u200e\u200f\u2028\u2029\u202a-\u202e\u2066-\u2069]")
ESCAPES = {"\n": "\\n", "\r": "\\r", "\t": "\\t"}


def _escaped(m: re.Match[str]) -> str:
    c = m.group()
    return ESCAPES.get(c) or (f"\\x{ord(c):02x}" if ord(c) < 0x100 else f"\\u{ord(c):04x}")


def one_line(name: str) -> str:
    """`name` safe for one line (a terminal's, a prompt's `<source>`): its control characters, line breaks and
    bidi controls shown escaped (`\\n`, `\\x1b`, `\\u202e`)."""
    return UNSAFE_IN_LINE.sub(_escaped, name) if UNSAFE_IN_LINE.search(name) else name

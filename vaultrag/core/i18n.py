"""Marks English words of the Qt-free core for the window's translation: lupdate collects them, the window translates.

The core stays in English (the CLI prints it as it is); a string the window shows in the user's language is
written once, wrapped in the marker with a translation context:

    REASON_WORDS = {Reason.EMPTY: QT_TRANSLATE_NOOP("Reason", "empty note (no text to index)")}

`python resources/translations/update.py` finds it in the core like any `self.tr("…")` of the window (lupdate
recognises the marker by its name, so it must be called by this name with two string literals), and the window
shows it with `QCoreApplication.translate("Reason", REASON_WORDS[code])`.
"""

from __future__ import annotations


def QT_TRANSLATE_NOOP(context: str, source: str) -> str:
    """`source` unchanged: the mark only tells lupdate that `source` is a window string of `context`."""
    return source

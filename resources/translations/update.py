"""Update the window's translations: the code's strings into vaultrag_pt.ts, then vaultrag_pt.ts compiled to .qm.

    python resources/translations/update.py

1. writes data_words.py: the window's words kept as data rather than tr() calls — the settings dialog's group
   names, field labels, descriptions and choices' names (vaultrag/settings.py) and the rerankers' names in words
   (vaultrag/engines.py) in context "Settings"; the core's wording templates (vaultrag/core/wording.py's
   T("…") → TEMPLATES) in context "Wording"; every Problem's words (vaultrag/errors.py's PROBLEM_WORDS) in
   context "Problem" — as QT_TRANSLATE_NOOP(context, …) lines lupdate can read;
2. runs lupdate over vaultrag/ (the window's `self.tr`/`tr` and the core's QT_TRANSLATE_NOOP marks) and
   data_words.py: new strings come in unfinished, strings the code no longer has go away, translations stay;
3. compiles vaultrag_pt.ts to vaultrag_pt.qm with lrelease, and lists the strings still without Portuguese.

The Portuguese lives only in vaultrag_pt.ts (edit it by hand or in Qt Linguist, then run this again).
tests/test_translations.py fails when the .ts lacks a string of the code, a string has no Portuguese, the .qm
is not the .ts compiled, or data_words.py is behind the data it is written from.
"""

from __future__ import annotations

import shutil
import struct
import subprocess
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parents[1]
TS = HERE / "vaultrag_pt.ts"
QM = HERE / "vaultrag_pt.qm"
DATA_WORDS = HERE / "data_words.py"

# (context, source, disambiguation) — how Qt looks a translation up
Key = tuple[str, str, str]


def qt_tool(name: str) -> str:
    """The path of a Qt tool (lupdate, lrelease) shipped inside PySide6 (PySide6-Essentials has both)."""
    import PySide6

    found = shutil.which(name, path=str(Path(PySide6.__file__).parent))
    if found is None:
        raise SystemExit(f"{name} is not in PySide6's folder: install PySide6-Essentials")
    return found


def data_words() -> dict[str, list[str]]:
    """The window's words kept as data, by translation context (the window translates them in that context)."""
    sys.path.insert(0, str(ROOT))
    from vaultrag.core import wording
    from vaultrag.engines import RERANKERS
    from vaultrag.settings import Group, Settings, rule_of

    settings = [str(g) for g in Group if g != Group.INTERNAL]
    for fields in Settings.groups().values():
        settings += [w for f in fields for w in (f.metadata["label"], f.metadata["desc"]) if w]
        # a choice's name in words (the embedders, the window languages); the reranker editor lists RERANKERS
        settings += [w for f in fields if (c := rule_of(f).choices) for w in (c.options() or {}).values()]
    settings += [e.words for e in RERANKERS if e.words]
    from vaultrag.cli import help as cli_help
    from vaultrag.cli import main as cli

    help_texts = [*cli_help.texts(cli.build_parser()), *cli_help.ARGPARSE_WORDS]  # `vaultrag --help`
    from vaultrag import errors

    return {"Settings": settings, wording.CONTEXT: list(wording.TEMPLATES), cli_help.CONTEXT: help_texts,
            errors.PROBLEM_CONTEXT: errors.problem_templates()}


def data_words_text() -> str:
    """The text of data_words.py for today's data."""
    lines = "".join(f"    QT_TRANSLATE_NOOP({_literal(context)}, {_literal(w)}),\n"
                    for context, words in data_words().items() for w in dict.fromkeys(words))
    return ('"""The window\'s words kept as data (settings, engines, the core\'s wording), for lupdate: written by '
            'update.py, do not edit."""\n\n# ruff: noqa: E501\nfrom vaultrag.core.i18n import QT_TRANSLATE_NOOP\n\n'
            f"WORDS = (\n{lines})\n")


def _literal(text: str) -> str:
    """A double-quoted Python literal of `text` (lupdate reads double-quoted strings with backslash escapes)."""
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") + '"'


def sources() -> list[Path]:
    """Every file lupdate reads: all of vaultrag/ (the window and the core's marks) and data_words.py."""
    return [*sorted((ROOT / "vaultrag").rglob("*.py")), DATA_WORDS]


def extract(ts: Path) -> None:
    """Bring `ts` in line with the code: lupdate adds new strings (unfinished) and drops the ones gone.

    Without source locations and with messages sorted, a moved line never changes the .ts and a merge of two
    branches that both added strings is settled by running this again."""
    files = [str(p) for p in sources()]
    subprocess.run([qt_tool("lupdate"), "-silent", "-no-obsolete", "-locations", "none", "-sort-messages", *files,
                    "-ts", str(ts)], check=True)


def compile_qm(ts: Path, qm: Path) -> None:
    subprocess.run([qt_tool("lrelease"), "-silent", str(ts), "-qm", str(qm)], check=True)


def messages(ts: Path) -> dict[Key, str | None]:
    """Every message of a .ts file → its translation, or None when it has none yet (unfinished or empty)."""
    out: dict[Key, str | None] = {}
    for context in ET.parse(ts).getroot().iter("context"):
        name = context.findtext("name") or ""
        for message in context.iter("message"):
            tr = message.find("translation")
            key = (name, message.findtext("source") or "", message.findtext("comment") or "")
            done = tr is not None and tr.get("type") not in ("unfinished", "obsolete", "vanished") and tr.text
            out[key] = tr.text if done and tr is not None else None
    return out


QM_MAGIC = bytes.fromhex("3CB86418CAEF9C95CD211CBF60A1BDDD")
QM_MESSAGES, END, TRANSLATION, OBSOLETE1, SOURCE, CONTEXT, COMMENT = 0x69, 1, 3, 5, 6, 7, 8


def qm_messages(qm: Path) -> list[tuple[Key, str]]:
    """Every message compiled into a .qm file with its translation (Qt's .qm format: tagged blocks and records).

    lrelease keeps a disambiguation only where Qt needs it to tell messages apart: its comment may be ""."""
    data = qm.read_bytes()
    if data[:16] != QM_MAGIC:
        raise ValueError(f"{qm} is not a .qm file")
    out: list[tuple[Key, str]] = []
    pos = 16
    while pos < len(data):
        tag, length = data[pos], struct.unpack(">I", data[pos + 1:pos + 5])[0]
        block, pos = data[pos + 5:pos + 5 + length], pos + 5 + length
        if tag != QM_MESSAGES:
            continue
        p, fields, translation = 0, {SOURCE: "", CONTEXT: "", COMMENT: ""}, ""
        while p < len(block):
            tag, p = block[p], p + 1
            if tag == END:
                out.append(((fields[CONTEXT], fields[SOURCE], fields[COMMENT]), translation))
                fields, translation = {SOURCE: "", CONTEXT: "", COMMENT: ""}, ""
            elif tag == OBSOLETE1:
                continue
            elif tag in (TRANSLATION, SOURCE, CONTEXT, COMMENT):
                size, p = struct.unpack(">I", block[p:p + 4])[0], p + 4
                if size == 0xFFFFFFFF:  # a null string
                    continue
                raw, p = block[p:p + size], p + size
                if tag == TRANSLATION:
                    translation = raw.decode("utf-16-be")
                else:
                    fields[tag] = raw.decode("utf-8")
            else:
                raise ValueError(f"{qm}: unknown record tag {tag} (a plural form? add it here)")
    return out


def main() -> None:
    text = data_words_text()
    if not DATA_WORDS.exists() or DATA_WORDS.read_text(encoding="utf-8") != text:
        DATA_WORDS.write_text(text, encoding="utf-8")
    extract(TS)
    compile_qm(TS, QM)
    missing = [key for key, tr in messages(TS).items() if tr is None]
    for context, source, comment in missing:
        print(f"no Portuguese yet: [{context or 'words.py'}] {source!r}" + (f" ({comment})" if comment else ""))
    print(f"{TS.name}: {len(messages(TS))} strings, {len(missing)} without Portuguese; {QM.name} compiled")


if __name__ == "__main__":
    main()

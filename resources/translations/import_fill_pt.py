"""Transitional: bring a branch's fill_pt.py Portuguese (the dicts that generated the .ts before update.py) into
vaultrag_pt.ts, for the strings still without it. Delete this file once no open branch has a fill_pt.py.

    git show BRANCH:resources/translations/fill_pt.py > /tmp/fill_pt.py
    python resources/translations/update.py                       # the branch's strings come in unfinished
    python resources/translations/import_fill_pt.py /tmp/fill_pt.py
    python resources/translations/update.py                       # compiles; lists what is still missing
"""

from __future__ import annotations

import runpy
import sys
import xml.etree.ElementTree as ET
from pathlib import Path

TS = Path(__file__).resolve().parent / "vaultrag_pt.ts"


def main(fill_pt: str) -> None:
    old = runpy.run_path(fill_pt, run_name="fill_pt")  # defines the dicts; main() is not run
    words: dict[str, str] = {}
    for name in ("PT", "SETTINGS_PT", "WORDING_PT"):  # every dict of English → Portuguese it had
        words.update(old.get(name, {}))
    by_comment: dict[tuple[str, str | None], str] = old.get("PT_BY_COMMENT", {})
    tree = ET.parse(TS)
    filled = 0
    for message in tree.iter("message"):
        translation = message.find("translation")
        if translation is None or (translation.get("type") != "unfinished" and translation.text):
            continue
        source, comment = message.findtext("source") or "", message.findtext("comment")
        text = by_comment.get((source, comment)) or words.get(source)
        if text:
            translation.text = text
            translation.attrib.pop("type", None)
            filled += 1
    tree.write(TS, encoding="utf-8", xml_declaration=True)  # update.py writes it back in lupdate's layout
    print(f"{filled} strings got their Portuguese from {fill_pt}")


if __name__ == "__main__":
    main(sys.argv[1])

"""The window's translations have one source: every string of the code is in vaultrag_pt.ts with its Portuguese,
and vaultrag_pt.qm is that file compiled (resources/translations/update.py makes both)."""

from __future__ import annotations

import importlib.util
import shutil
import xml.etree.ElementTree as ET
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import QCoreApplication, QTranslator

ROOT = Path(__file__).resolve().parents[1]
RUN = "run `python resources/translations/update.py`"


def _load_update():
    spec = importlib.util.spec_from_file_location("translations_update", ROOT / "resources/translations/update.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


update = _load_update()


def test_the_ts_has_every_string_the_code_uses(tmp_path: Path):
    fresh = tmp_path / "vaultrag_pt.ts"
    shutil.copy(update.TS, fresh)
    update.extract(fresh)  # what lupdate finds in the code today, merged into a copy of the committed file
    committed, found = update.messages(update.TS), update.messages(fresh)
    assert sorted(found.keys() - committed.keys()) == [], f"strings of the code missing from the .ts: {RUN}"
    assert sorted(committed.keys() - found.keys()) == [], f"strings the code no longer has: {RUN}"


def test_every_string_has_its_portuguese():
    missing = [key for key, translation in update.messages(update.TS).items() if translation is None]
    assert missing == [], f"give these their Portuguese in {update.TS.name}, then {RUN}"


def test_the_qm_is_the_ts_compiled(qapp):
    expected = {key: tr for key, tr in update.messages(update.TS).items() if tr}
    # the same messages with the same words (a disambiguation may be left out of the .qm: compared without it)
    compiled = sorted((context, source, tr) for (context, source, _), tr in update.qm_messages(update.QM))
    assert compiled == sorted((context, source, tr) for (context, source, _), tr in expected.items()), \
        f"{update.QM.name} is stale: {RUN}"
    # and Qt finds each one's words, disambiguation included
    translator = QTranslator()
    assert translator.load(str(update.QM))
    wrong = [key for key, tr in expected.items() if translator.translate(key[0], key[1], key[2] or None) != tr]
    assert wrong == [], f"{update.QM.name} is stale: {RUN}"


def test_the_settings_words_reach_the_ts():
    """The settings dialog's words are data in settings.py; data_words.py is how lupdate sees them."""
    assert update.DATA_WORDS.read_text(encoding="utf-8") == update.data_words_text(), RUN
    from vaultrag.settings import Settings

    sources = {source for (context, source, _), _ in update.messages(update.TS).items() if context == "Settings"}
    for fields in Settings.groups().values():
        for f in fields:
            assert {f.metadata["label"], f.metadata["desc"]} <= sources, f.name


def test_a_core_string_marked_for_translation_reaches_the_window(qapp, tmp_path: Path, monkeypatch):
    """The Qt-free core marks a window string with QT_TRANSLATE_NOOP; the one command extracts it, the
    translated .qm gives its Portuguese, and the core (the CLI) still reads its English."""
    module = tmp_path / "core_words.py"
    module.write_text('from vaultrag.core.i18n import QT_TRANSLATE_NOOP\n\n'
                      'WORDS = {"absent": QT_TRANSLATE_NOOP("Reason", "not in the vault")}\n', encoding="utf-8")
    assert all(p in update.sources() for p in (ROOT / "vaultrag" / "core").rglob("*.py"))  # the core is read
    monkeypatch.setattr(update, "sources", lambda: [module])
    ts, qm = tmp_path / "t_pt.ts", tmp_path / "t_pt.qm"
    update.extract(ts)
    assert update.messages(ts) == {("Reason", "not in the vault", ""): None}  # new: waits for its Portuguese
    tree = ET.parse(ts)
    translation = tree.getroot().find("context/message/translation")
    assert translation is not None
    translation.text = "fora do cofre"
    translation.attrib.pop("type")
    tree.write(ts, encoding="utf-8")
    update.compile_qm(ts, qm)
    spec = importlib.util.spec_from_file_location("core_words", module)
    assert spec is not None and spec.loader is not None
    words = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(words)
    assert words.WORDS["absent"] == "not in the vault"
    translator = QTranslator()
    assert translator.load(str(qm))
    QCoreApplication.installTranslator(translator)
    try:
        assert QCoreApplication.translate("Reason", words.WORDS["absent"]) == "fora do cofre"
    finally:
        QCoreApplication.removeTranslator(translator)

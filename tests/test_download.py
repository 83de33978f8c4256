"""Cross-encoders on demand: the real huggingface_hub download path against a local hub serving a tiny model."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.local_hub import LocalHub
from vaultrag.core import download as hub
from vaultrag.core import rerank
from vaultrag.core.model import Progress
from vaultrag.core.rerankers.cross_encoder import CrossEncoderReranker
from vaultrag.core.vocab import StageName, StageStatus
from vaultrag.errors import ModelUnavailable, UserFacingError
from vaultrag.settings import Settings

pytestmark = pytest.mark.st
REPO = "acme/tiny-ce"


@pytest.fixture
def local_hub(tiny_cross_encoder: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalHub]:
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)  # the suite runs offline; this test has a hub
    monkeypatch.setattr(constants, "DOWNLOAD_CHUNK_SIZE", 64 * 1024)  # small reads: a cancel lands mid-file
    server = LocalHub(REPO, {p.name: p for p in tiny_cross_encoder.iterdir() if p.is_file()})
    yield server
    server.close()


def test_download_reports_progress_cancels_and_resumes(local_hub: LocalHub, tmp_path: Path):
    models = tmp_path / "models"
    weights = "model.safetensors"
    reports: list[Progress] = []
    small = sum(p.stat().st_size for n, p in local_hub.files.items() if n != weights)

    def cancel() -> bool:  # stop once the small files are in and a part of the weights arrived
        return bool(reports) and reports[-1].done > small + 100_000

    with pytest.raises(hub.DownloadCancelled, match="what arrived is kept"):
        hub.download(REPO, models, reports.append, cancel, endpoint=local_hub.url)
    assert hub.downloaded(models, REPO) is None and not (hub.model_folder(models, REPO) / weights).exists()
    assert reports and all(r.total == sum(p.stat().st_size for p in local_hub.files.values()) for r in reports)
    folder = hub.download(REPO, models, reports.append, endpoint=local_hub.url)
    # the second attempt fetched only the unfinished file
    assert local_hub.gets == {n: 2 if n == weights else 1 for n in local_hub.files}
    assert hub.downloaded(models, REPO) == folder == hub.model_folder(models, REPO)
    for name, path in local_hub.files.items():
        assert (folder / name).read_bytes() == path.read_bytes()
    assert reports[-1].phase == "done" and reports[-1].done == reports[-1].total
    ce = rerank.from_settings(Settings(reranker=REPO), models)
    assert isinstance(ce, CrossEncoderReranker) and ce.model_id == f"ce/{REPO}"
    assert len(ce.predict("refund deadline", ["The refund takes seven days."])) == 1


def test_offline_download_is_a_clear_message(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    with pytest.raises(ModelUnavailable, match=r"Cannot reach the Hugging Face hub.*Check the connection"):
        hub.download(REPO, tmp_path, endpoint="http://127.0.0.1:9")
    with pytest.raises(UserFacingError, match="not a Hugging Face model id"):
        hub.download("../etc", tmp_path)


def test_the_controller_downloads_with_progress_signals(local_hub: LocalHub, qtbot, tmp_path: Path):
    from vaultrag.app.controller import AppController

    c = AppController(tmp_path / "home")
    progress: list[Progress] = []
    c.model_download_progress.connect(progress.append)
    try:
        with qtbot.waitSignal(c.model_download_finished, timeout=60_000) as done:
            c.download_cross_encoder(REPO, endpoint=local_hub.url)
    finally:
        c.shutdown()
    assert done.args == [str(hub.model_folder(c.paths.models_dir, REPO))]
    assert progress and progress[-1].done == progress[-1].total


def test_download_again_right_after_a_failure_is_not_refused(local_hub: LocalHub, qtbot, tmp_path: Path):
    """The failed download's thread may still be returning when its signal arrives; Download again must start."""
    import threading

    from vaultrag.app.controller import AppController

    c = AppController(tmp_path / "home")
    post = c.bridge.run_on_main
    join = c.downloads.workers.join
    lingered, release = threading.Event(), threading.Event()

    def lingering_post(fn):  # type: ignore[no-untyped-def]
        # nothing listens at the first endpoint, so the download thread's first post is how it failed: after it,
        # the thread stays until Download again is asked for (set before posting: the main thread may act at once)
        lingers = threading.current_thread().name == "vaultrag-model-download" and not lingered.is_set()
        if lingers:
            lingered.set()
        post(fn)
        if lingers:
            assert release.wait(60), "the test never released the failed download's thread"

    alive_when_asked_again: list[bool] = []

    def join_after_release(timeout=30.0, name=None, exclude=""):  # type: ignore[no-untyped-def]
        if name == "vaultrag-model-download" and lingered.is_set() and not release.is_set():
            # Download again has passed its "already running" check: was the first thread still there?
            alive_when_asked_again.append(c.downloads.running())
            release.set()
        return join(timeout, name, exclude)

    c.bridge.run_on_main = lingering_post  # type: ignore[method-assign]
    c.downloads.workers.join = join_after_release  # type: ignore[method-assign]
    try:
        with qtbot.waitSignal(c.model_download_failed, timeout=60_000):
            c.download_cross_encoder(REPO, endpoint="http://127.0.0.1:9")  # nothing listens there
        assert lingered.is_set(), "the failure came from the download's thread, not a refusal to start"
        assert c.downloads.running(), "the first thread is still returning"
        with qtbot.assertNotEmitted(c.model_download_failed), qtbot.waitSignal(c.model_download_finished,
                                                                                timeout=60_000):
            c.download_cross_encoder(REPO, endpoint=local_hub.url)
            # it got past the "already running" check to the join, while the first thread still lingered
            assert alive_when_asked_again == [True], "Download again was refused"
    finally:
        release.set()
        c.shutdown()


def settings_dialog(qtbot, c, value: str = "builtin"):
    from vaultrag.app.widgets.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings(reranker=value), None, c, c.paths.models_dir)
    qtbot.addWidget(dialog)
    return dialog, dialog.reranker


def test_settings_downloads_the_chosen_cross_encoder_with_a_progress_bar(local_hub: LocalHub, qtbot, tmp_path: Path):
    """Settings › Reranker as a user meets it: the multilingual model preselected, another id typed, Download,
    the bar filling, OK refused until it is there, then the setting saved; Cancel keeps what arrived."""
    from vaultrag.app.controller import AppController

    c = AppController(tmp_path / "home")
    try:
        dialog, editor = settings_dialog(qtbot, c)
        dialog.show()
        assert editor.value() == "builtin" and editor.hub_box.isHidden()
        editor.kind.setCurrentIndex(editor.kind.findData("cross-encoder"))
        assert editor.model.text() == hub.DEFAULT_CROSS_ENCODER and editor.download.isVisible()
        editor.model.setText(REPO)
        editor.endpoint = local_hub.url
        dialog._accept()
        assert dialog.result_settings is None and "Download the cross-encoder first" in dialog.problem.text()
        # Cancel mid-way: the bar stops, the message says so, nothing is marked downloaded
        c.model_download_progress.connect(lambda p: p.done > 200_000 and editor.cancel.click())
        with qtbot.waitSignal(c.model_download_failed, timeout=60_000):
            editor.download.click()
            assert editor.cancel.isVisible() and not editor.download.isVisible()
        assert "kept" in editor.state.text() and not editor.downloading and not editor.ready()
        c.model_download_progress.disconnect()
        c.model_download_progress.connect(editor.bar._on_progress)  # the bar follows again
        values: list[int] = []
        c.model_download_progress.connect(lambda p: values.append(editor.bar.value()))
        with qtbot.waitSignal(c.model_download_finished, timeout=60_000):
            editor.download.click()
        assert values and values == sorted(values) and editor.bar.value() == editor.bar.maximum()
        assert editor.ready() and "Downloaded" in editor.state.text() and not editor.download.isVisible()
        dialog._accept()
        assert dialog.result_settings is not None and dialog.result_settings.reranker == REPO
    finally:
        c.shutdown()


def test_settings_says_why_a_download_failed_offline(qtbot, tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from huggingface_hub import constants

    from vaultrag.app.controller import AppController

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    c = AppController(tmp_path / "home")
    try:
        dialog, editor = settings_dialog(qtbot, c, REPO)
        assert editor.kind.currentData() == "cross-encoder" and editor.model.text() == REPO
        editor.endpoint = "http://127.0.0.1:9"
        with qtbot.waitSignal(c.model_download_failed, timeout=60_000):
            editor.download.click()
        assert "Cannot reach the Hugging Face hub" in editor.state.text() and editor.download.isEnabled()
        dialog._accept()
        assert dialog.result_settings is None, "a model that is not there is not saved as the reranker"
    finally:
        c.shutdown()


def test_a_cross_encoder_that_cannot_load_falls_back_to_the_built_in_ranker(qtbot, home: Path, tmp_path: Path):
    """The setting names a hub model that is not downloaded and there is no network: the question is answered
    by the built-in ranker and the user is told why, once."""
    import shutil

    from tests.conftest import DEMO_VAULT
    from vaultrag.app.controller import AppController
    from vaultrag.core.scope import Scope

    (home / "settings.toml").write_text(f'reranker = "{REPO}"\n', encoding="utf-8")
    c = AppController(home)
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    errors: list[str] = []
    c.failed.connect(errors.append)
    try:
        with qtbot.waitSignal(c.index_changed, timeout=120_000, check_params_cb=lambda e: e.kind == "applied"):
            c.open_vault(vault)
        with qtbot.waitSignal(c.search_finished, timeout=60_000) as done:
            c.ask("Qual o prazo do reembolso?", Scope(), None, None)
    finally:
        c.shutdown()
    stage = done.args[0].stages[StageName.RERANKED]
    assert stage.status in (StageStatus.OK, StageStatus.PARTIAL) and stage.candidates
    assert stage.candidates[0].contributions, "scored by the built-in ranker, feature by feature"
    assert [e for e in errors if REPO in e and "built-in ranker is used meanwhile" in e]

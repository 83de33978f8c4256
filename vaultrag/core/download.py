"""Download a cross-encoder from the Hugging Face hub into the app's data folder: progress, cancel, resume.

Resume is per file: huggingface_hub (≥ 1.x) writes each file to a private temporary name and drops it when the
transfer fails (huggingface_hub PR 4228), so a cancelled or broken download keeps every finished file and fetches
only the unfinished ones again. The small files go first, the weights last.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import Path
from typing import Any

from vaultrag.core.model import Progress
from vaultrag.core.vocab import Phase, Problem
from vaultrag.errors import ModelUnavailable, UserFacingError

DEFAULT_CROSS_ENCODER = "cross-encoder/mmarco-mMiniLMv2-L12-H384-v1"  # multilingual (MODELS.md)
# what a sentence-transformers CrossEncoder needs; not the ONNX/OpenVINO/TF copies many repos also hold
WANTED = ["*.json", "*.safetensors", "*.txt", "*.model", "sentencepiece*"]
FALLBACK_WEIGHTS = "pytorch_model.bin"  # older repos have no safetensors
COMPLETE = ".vaultrag-complete"  # written last: a folder without it is a download still to finish
REPO_ID = re.compile(r"^[A-Za-z0-9][\w.-]*/[\w.-]+$")


class DownloadCancelled(UserFacingError):
    """The user stopped the download; what arrived is kept and the next download resumes from it."""


def byte_bar(on_bytes: Callable[[int], None]) -> Any:
    """A tqdm class for huggingface_hub's transfers that draws nothing and hands each chunk's byte count to
    `on_bytes` (which may raise to stop the transfer: a cancel)."""
    from tqdm.auto import tqdm

    class Bar(tqdm):  # type: ignore[misc]
        monitor_interval = 0  # no tqdm monitor thread: a cancelled bar is never closed and would keep it alive

        def __init__(self, *args: Any, **kwargs: Any) -> None:
            kwargs["disable"] = True
            super().__init__(*args, **kwargs)

        def update(self, n: float | None = 1) -> bool | None:
            on_bytes(int(n or 0))
            return None

    return Bar


def model_folder(models_dir: Path, repo_id: str) -> Path:
    """Where `repo_id` is (or will be) stored under the app's models folder."""
    return models_dir / repo_id.replace("/", "--")


def downloaded(models_dir: Path, repo_id: str) -> Path | None:
    """The folder of a completely downloaded `repo_id`, or None."""
    folder = model_folder(models_dir, repo_id)
    return folder if (folder / COMPLETE).is_file() else None


def download(repo_id: str, models_dir: Path, on_progress: Callable[[Progress], None] | None = None,
             cancel: Callable[[], bool] | None = None, endpoint: str | None = None) -> Path:
    """Download the files a CrossEncoder needs from `repo_id` into the models folder (the files a previous attempt
    finished are kept) and return the folder. Raises DownloadCancelled when `cancel()` turns true,
    ModelUnavailable without a network or for an unknown repository."""
    if not REPO_ID.match(repo_id):
        raise UserFacingError(Problem.DOWNLOAD_BAD_ID, repo=repo_id, example=DEFAULT_CROSS_ENCODER)
    # huggingface_hub is a default dependency (it downloads the language models too): only running a cross-encoder
    # needs the sentence-transformers extra, and loading it says so (core/rerankers/cross_encoder.py)
    from huggingface_hub import hf_hub_download, snapshot_download

    folder = model_folder(models_dir, repo_id)
    if downloaded(models_dir, repo_id):
        return folder
    try:
        infos: Any = snapshot_download(repo_id, local_dir=folder, allow_patterns=WANTED, endpoint=endpoint,
                                       dry_run=True)
        if not any(i.filename.endswith(".safetensors") for i in infos):
            infos += snapshot_download(repo_id, local_dir=folder, allow_patterns=[FALLBACK_WEIGHTS],
                                       endpoint=endpoint, dry_run=True)
    except Exception as e:  # no network, a DNS failure, a 404 for a wrong id, a proxy page: all say why
        raise ModelUnavailable(
            Problem.DOWNLOAD_UNREACHABLE, repo=repo_id, why=f"{e.__class__.__name__}: {e}",
        ) from e
    infos = sorted(infos, key=lambda i: i.file_size or 0)
    total = sum(i.file_size or 0 for i in infos)
    done = [sum(i.file_size or 0 for i in infos if not i.will_download)]

    def on_bytes(n: int) -> None:
        if cancel and cancel():
            raise DownloadCancelled(Problem.DOWNLOAD_CANCELLED, repo=repo_id)
        done[0] += n
        if on_progress:
            on_progress(Progress(Phase.DOWNLOAD, done[0], total, message=repo_id))

    Bar = byte_bar(on_bytes)

    try:
        for info in infos:
            if info.will_download:
                hf_hub_download(repo_id, info.filename, revision=info.commit_hash, local_dir=folder,
                                endpoint=endpoint, tqdm_class=Bar)
    except DownloadCancelled:
        raise
    except Exception as e:
        raise ModelUnavailable(Problem.DOWNLOAD_STOPPED, repo=repo_id, why=f"{e.__class__.__name__}: {e}") from e
    (folder / COMPLETE).write_text(infos[0].commit_hash if infos else "", encoding="utf-8")
    if on_progress:
        on_progress(Progress(Phase.DONE, total, total, message=repo_id))
    return folder

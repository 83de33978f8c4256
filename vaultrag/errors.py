"""Errors a person can act on (environment problems), as opposed to bugs; and notices of what was done for them."""

from __future__ import annotations

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path


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


class UserFacingError(Exception):
    """A problem in the user's environment, with a message that says what to do.

    The CLI prints the message without a traceback and exits with status 2; the GUI shows it once, worded in its
    language from `problem` and `details` when the raiser gave them (the message is the English fallback).
    """

    def __init__(self, message: str = "", problem: Problem | None = None, **details: object) -> None:
        super().__init__(message)
        self.problem = problem
        self.details = {k: str(v) for k, v in details.items()}


@dataclass(frozen=True)
class Notice:
    """Something done for the user that they should hear about (a damaged index rebuilt, a repair): the English
    words, and the code with its details for a window that speaks another language."""

    text: str
    problem: Problem
    details: dict[str, str] = field(default_factory=dict)

    def __str__(self) -> str:
        return self.text


def engine_missing(message: str, *, name: str, available: bool, install: str) -> ModelUnavailable:
    """An engine whose package is missing (or that has no build for this platform), coded for a window;
    `message` is its English (`Engine.missing`)."""
    if not available:
        return ModelUnavailable(message, Problem.ENGINE_NOT_ON_PLATFORM, what=name)
    return ModelUnavailable(message, Problem.MODEL_NEEDS_PACKAGE, what=name, install=install)


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
    kind = "folder" if part.is_dir() else "file"
    return IndexReadOnly(f"The index {kind} {part} is read-only ({why}). Nothing is damaged: make the {kind} "
                         "writable, or choose another home with --home or VAULTRAG_HOME.", Problem.INDEX_READ_ONLY,
                         path=part, kind=kind, why=why)


class IndexBusy(UserFacingError):
    """Another process is writing this index (one writer per index)."""


class BadQuestion(UserFacingError):
    """A question (or a query option) that cannot be searched as given."""

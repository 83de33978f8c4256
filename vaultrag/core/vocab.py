"""The closed vocabularies the core speaks (stage names, statuses, reasons): StrEnums, so JSON keeps the words."""

from __future__ import annotations

from enum import StrEnum


class StageName(StrEnum):
    """A ranked list of the query pipeline (the keys of `QueryTrace.stages`)."""

    BM25 = "bm25"
    VECTOR = "vector"
    FUSED = "fused"
    RERANKED = "reranked"


class StageStatus(StrEnum):
    """How a stage went: ok, empty (nothing matched), partial (vectors still filling), unavailable, skipped."""

    OK = "ok"
    EMPTY = "empty"
    PARTIAL = "partial"
    UNAVAILABLE = "unavailable"
    SKIPPED = "skipped"


class AnswerKind(StrEnum):
    EXTRACTIVE = "extractive"
    REFUSAL = "refusal"
    GENERATED = "generated"


class SupportVerdict(StrEnum):
    """How one sentence of a generated answer stands against the documents it cites."""

    SUPPORTED = "supported"
    UNSUPPORTED = "unsupported"  # its cited document does not back it
    UNCITED = "uncited"  # no [n] at all
    BAD_CITATION = "bad-citation"  # cites a document that is not in the prompt
    REFUSAL = "refusal"  # the exact refusal sentence


class LLMFailure(StrEnum):
    """Why a language model did not give (all of) an answer: each has its own advice in `core/llm.py`."""

    NOT_INSTALLED = "not-installed"  # the openai client library is missing
    SERVER_DOWN = "server-down"  # nothing listens at the base URL
    BAD_URL = "bad-url"  # something answers, but not an OpenAI-compatible API
    BAD_MODEL = "bad-model"  # the server does not know the model name
    AUTH = "auth"  # the API key is missing or refused
    TIMEOUT = "timeout"
    STREAM_CUT = "stream-cut"  # the connection broke in the middle of the answer
    SERVER_ERROR = "server-error"


class GenerationStatus(StrEnum):
    """How a generated answer ended."""

    COMPLETE = "complete"
    CAPPED = "capped"  # stopped at the max-tokens cap
    STOPPED = "stopped"  # the user pressed Stop
    FAILED = "failed"


class RewriteMethod(StrEnum):
    """How a follow-up question was made standalone (the `rewrite` stage)."""

    NONE = "none"  # the first question of a conversation, or already standalone
    TERMS = "terms"  # the previous question's key terms and scope carried over
    MODEL = "model"  # rewritten by the language model


class NoteFlag(StrEnum):
    """A note whose text tries to give orders to a language model (flagged at index time)."""

    IGNORE_INSTRUCTIONS = "ignore-instructions"  # "ignore the previous instructions…"
    FAKE_TAG = "fake-tag"  # </document>, <document_content>, <|im_start|>, [INST]…
    ROLE_MARKER = "role-marker"  # a line starting "system:" / "assistant:"


class ThresholdSource(StrEnum):
    """Where the refusal threshold came from (the first that applies, top to bottom)."""

    OVERRIDE = "override"  # this question's own threshold
    SETTINGS = "override (settings)"
    CALIBRATED = "calibrated"  # stored in the index by `vaultrag calibrate`
    SHIPPED = "shipped default"
    UNCALIBRATED = "uncalibrated"
    NONE = "none"  # no candidate, no decision to make


class ContextStatus(StrEnum):
    """What became of a ranked candidate on its way into the prompt."""

    INCLUDED = "included"
    MERGED = "merged"  # overlapped a document already included: merged into it
    DUPLICATE = "duplicate"
    BEYOND_K = "beyond k"
    CUT_BY_BUDGET = "cut by budget"
    REFUSED = "refused"


class Phase(StrEnum):
    """The phase a Progress report belongs to."""

    SCAN = "scan"
    TEXT = "text"
    EMBED = "embed"
    EVAL = "eval"
    DOWNLOAD = "download"  # bytes of a model from the hub
    DONE = "done"


class LaneEventKind(StrEnum):
    PROGRESS = "progress"
    APPLIED = "applied"  # text and BM25 of a batch committed
    EMBEDDED = "embedded"  # every chunk has its vector
    ERROR = "error"
    RECOVERED = "recovered"
    STOPPED = "stopped"


class Problem(StrEnum):
    """What a UserFacingError (or a Notice) is about: the code a window words in its own language, with the
    error's `details`; the exception's message is the English for the CLI and the log."""

    VAULT_MISSING = "vault-missing"  # details: path
    VAULT_NOT_FOLDER = "vault-not-folder"  # path
    VAULT_UNREADABLE = "vault-unreadable"  # path
    NOT_INDEXED = "not-indexed"  # vault
    INDEX_DAMAGED = "index-damaged"  # path, why: a read-only open found damage (a writer rebuilds it)
    INDEX_REBUILT = "index-rebuilt"  # path, why, aside: moved aside, rebuilt from the notes
    INDEX_REPAIRED = "index-repaired"  # what
    INDEX_REPLACED = "index-replaced"  # the file disappeared or was replaced under the running app
    INDEX_RETRYING = "index-retrying"  # why, delay: a write failed (disk full, read-only, a lock)
    INDEX_BUSY = "index-busy"  # holder
    MODEL_NEEDS_PACKAGE = "model-needs-package"  # what (the model), install (the pip command)
    MODEL_CANNOT_LOAD = "model-cannot-load"  # model, why
    DOWNLOAD_BAD_ID = "download-bad-id"  # repo, example
    DOWNLOAD_UNREACHABLE = "download-unreachable"  # repo, why
    DOWNLOAD_STOPPED = "download-stopped"  # repo, why
    DOWNLOAD_CANCELLED = "download-cancelled"  # repo


class NoteStatus(StrEnum):
    INDEXED = "indexed"
    EXCLUDED = "excluded"
    FAILED = "failed"


class Reason(StrEnum):
    """Why a path was skipped, a note failed, an indexed note carries a warning, or (index health) a note or the
    index is out of date: the code the diagnosis turns into advice and a window words in its language. The
    human-readable detail travels beside it (`reason` text)."""

    # skipped by the vault walk or the note's own content (status excluded)
    BUILTIN_FOLDER = "builtin-folder"  # .obsidian, .trash, .git
    HIDDEN_FOLDER = "hidden-folder"
    HIDDEN_FILE = "hidden-file"
    IGNORE_FILE = "ignore-file"  # a .vaultragignore pattern
    IGNORE_SETTING = "ignore-setting"  # the ignore_globs setting
    FRONTMATTER_EXCLUDE = "frontmatter-exclude"  # vaultrag: exclude
    PRIVATE_TAG = "private-tag"
    SYMLINK_LOOP = "symlink-loop"
    UNREADABLE_FOLDER = "unreadable-folder"
    CANNOT_STAT = "cannot-stat"
    NOT_REGULAR = "not-regular-file"
    SYMLINK_OUTSIDE = "symlink-outside"  # a symlink whose target is outside the vault: never followed
    SYMLINK_TO_IGNORED = "symlink-to-ignored"  # a symlink into an ignored folder or onto an ignored note
    BAD_FILENAME = "bad-filename"  # a name that is not valid UTF-8 (cannot be stored or shown)
    # could not be read or indexed (status failed)
    VANISHED = "vanished"
    IS_FOLDER = "is-folder"
    PERMISSION = "permission"
    CANNOT_READ = "cannot-read"
    TOO_LARGE = "too-large"
    BINARY = "binary"
    NOT_UTF8 = "not-utf8"
    INTERNAL = "internal-error"
    # indexed, with a warning
    BAD_FRONTMATTER = "bad-frontmatter"
    EMPTY = "empty"
    TRUNCATED = "truncated"  # chunks over the embedder's input limit (index health)
    FLAGGED = "flagged"  # text that tries to give a language model orders (index health)
    # out of date (index health): the note, or the whole index under today's settings
    NEW_SINCE = "new-since-indexing"
    CHANGED_SINCE = "changed-since-indexing"
    DELETED_SINCE = "deleted-since-indexing"
    MODEL_CHANGED = "model-changed"
    CHUNKING_CHANGED = "chunking-changed"
    NONE = ""

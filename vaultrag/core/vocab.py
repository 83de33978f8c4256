"""The vocabularies the core speaks (stage names, statuses, reasons): closed StrEnums, so JSON keeps the words, and
the open StageName a new stage adds itself to."""

from __future__ import annotations

from enum import StrEnum
from typing import ClassVar

# what a UserFacingError is about lives beside the error, below the core (vaultrag.errors imports no core module)
from vaultrag.errors import Problem as Problem


class StageName(str):
    """A step of the query pipeline: the key of its ranked list in `QueryTrace.stages` (bm25, vector, fused,
    reranked) or the name of a step that writes something else (decide, context, …).

    Open, unlike the enums below: a new ranked retrieval stage declares its own name in its unit's module
    (`TITLE = StageName("title")`) and needs no line here. It is a `str`, so JSON keeps the word, and mypy
    still tells a StageName from a bare string."""

    __slots__ = ()

    BM25: ClassVar[StageName]
    VECTOR: ClassVar[StageName]
    FUSED: ClassVar[StageName]
    RERANKED: ClassVar[StageName]
    DECIDE: ClassVar[StageName]
    CONTEXT: ClassVar[StageName]
    PROMPT: ClassVar[StageName]
    ANSWER: ClassVar[StageName]
    REWRITE: ClassVar[StageName]
    GENERATE: ClassVar[StageName]
    TRANSLATE: ClassVar[StageName]

    def __repr__(self) -> str:
        return f"StageName({str(self)!r})"


StageName.BM25, StageName.VECTOR = StageName("bm25"), StageName("vector")
StageName.FUSED, StageName.RERANKED = StageName("fused"), StageName("reranked")
StageName.DECIDE, StageName.CONTEXT = StageName("decide"), StageName("context")
StageName.PROMPT, StageName.ANSWER = StageName("prompt"), StageName("answer")
StageName.REWRITE, StageName.GENERATE = StageName("rewrite"), StageName("generate")
StageName.TRANSLATE = StageName("translate")


class Timing(StrEnum):
    """A key of `QueryTrace.timings_ms`: the milliseconds a step (or a part of one) took."""

    TRANSLATE = "translate"  # the question's translations (core/query/stages/translate.py)
    BM25 = "bm25"
    EMBED_QUERY = "embed_query"  # the question's embedding (part of the vector stage)
    KNN = "knn"  # the vector search (part of the vector stage)
    EMBED_CANDIDATES = "embed_candidates"  # candidates without a vector yet, embedded at question time
    FUSION = "fusion"
    RERANK = "rerank"
    CONTEXT = "context"
    PROMPT = "prompt"
    ANSWER = "answer"
    GENERATE = "generate"
    TOTAL = "total"


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

    SUPPORTED = "supported"  # the model's own [n], and its document backs it
    ATTACHED = "attached"  # no [n] from the model; the check attached the prompt document that backs it
    UNSUPPORTED = "unsupported"  # its cited document does not back it
    UNCITED = "uncited"  # no [n] from the model, and no prompt document backs it
    BAD_CITATION = "bad-citation"  # cites a document that is not in the prompt
    REFUSAL = "refusal"  # the exact refusal sentence


class LLMFailure(StrEnum):
    """Why a language model did not give (all of) an answer: classified from exception types and HTTP codes, each
    worded once in `core/wording.py` (`LLM_FAILURE`) from the details the failure carries."""

    NOT_INSTALLED = "not-installed"  # the openai client library is missing
    SERVER_DOWN = "server-down"  # nothing listens at the base URL
    BAD_URL = "bad-url"  # something answers, but not an OpenAI-compatible API
    BAD_MODEL = "bad-model"  # the server does not know the model name
    AUTH = "auth"  # the API key is missing or refused
    TIMEOUT = "timeout"
    STREAM_CUT = "stream-cut"  # the connection broke in the middle of the answer
    SERVER_ERROR = "server-error"
    # the built-in model (a GGUF file vaultrag runs with llama.cpp's server: core/llm/local.py)
    NO_RUNTIME = "no-runtime"  # llama-cpp-python (or its server's packages) cannot be imported
    MODEL_FILE = "model-file"  # the GGUF file is missing, unreadable or not a GGUF
    MODEL_START = "model-start"  # the model's server ended or did not answer while starting
    MODEL_CRASHED = "model-crashed"  # the model's server ended in the middle of an answer (restarted next time)


class ModelState(StrEnum):
    """What getting a model ready is doing (`Generator.prepare` tells it; the window shows "loading model…")."""

    LOADING = "loading"  # starting the model (a built-in model loads its file)
    READY = "ready"
    RESTARTING = "restarting"  # the model's server had ended (a crash): starting it again


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
    # with the previous question's terms no note answered it, as asked one did: searched alone ("e para cancelar
    # a academia?" after a refund question carried "prazo reembolso" and found the refund note)
    ALONE = "alone"


class NoteFlag(StrEnum):
    """A note whose text tries to give orders to a language model (flagged at index time)."""

    IGNORE_INSTRUCTIONS = "ignore-instructions"  # "ignore the previous instructions…"
    FAKE_TAG = "fake-tag"  # </document>, <document_content>, <|im_start|>, [INST]…
    ROLE_MARKER = "role-marker"  # a line starting "system:" / "assistant:"


class ThresholdSource(StrEnum):
    """Where the refusal threshold came from (the first that applies, top to bottom)."""

    OVERRIDE = "override"  # this question's own threshold
    SETTINGS = "settings-override"  # the threshold setting
    CALIBRATED = "calibrated"  # stored in the index by `vaultrag calibrate`
    SHIPPED = "shipped-default"
    UNCALIBRATED = "uncalibrated"
    NONE = "none"  # no candidate, no decision to make


class ContextStatus(StrEnum):
    """What became of a ranked candidate on its way into the prompt."""

    INCLUDED = "included"
    MERGED = "merged"  # overlapped a document already included: merged into it
    DUPLICATE = "duplicate"
    BEYOND_K = "beyond-k"
    CUT_BY_BUDGET = "cut-by-budget"
    REFUSED = "refused"


class DecisionReason(StrEnum):
    """Why a question was answered or refused; the numbers behind it (confidence, threshold, margin, top cosine,
    background) are the Decision's own fields. `core/wording.py` words it."""

    NO_CANDIDATE = "no-candidate"  # nothing in scope matched: refused
    NO_CONFIDENCE = "no-confidence"  # no vector for the top chunk yet (BM25 while vectors fill): answered unchecked
    NO_THRESHOLD = "no-threshold"  # no threshold for this (embedder, reranker): answered unchecked
    ABOVE_THRESHOLD = "above-threshold"
    BELOW_THRESHOLD = "below-threshold"  # refused
    STOP_WORDS_ONLY = "stop-words-only"  # no searchable word: refused whatever the confidence


class WarningCode(StrEnum):
    """Something the user should know about one question (a `QueryWarning`'s code; its fields say the numbers)."""

    QUESTION_CUT = "question-cut"  # limit: the characters kept
    EMBED_CUT = "embed-cut"  # limit: the characters the vector search read
    NO_EMBEDDER = "no-embedder"  # no embedding model loaded: keyword search only
    OTHER_MODEL = "other-model"  # index_model, model: the index holds another model's vectors
    NO_VECTORS_YET = "no-vectors-yet"  # the index has no vectors of any model yet (indexed with --no-embed)
    BUDGET_TOO_SMALL = "budget-too-small"  # limit: the context budget no candidate's document fits in
    VECTORS_FILLING = "vectors-filling"  # done, total: chunks embedded so far
    FAST_TIER_FILLING = "fast-tier-filling"  # done, total: as above, the fast tier listing the candidates meanwhile
    STOP_WORDS_ONLY = "stop-words-only"  # nothing to search for
    LLM_FAILED = "llm-failed"  # failure, detail: the language model gave no answer
    LLM_CAPPED = "llm-capped"  # limit: the answer was cut at llm_max_tokens
    LLM_STOPPED = "llm-stopped"  # the user pressed Stop
    LLM_LANGUAGE = "llm-language"  # answer_language, question_language: the model answered in another language
    # limit, total: the model's context (tokens) is smaller than the prompt + the answer's cap: the server cuts
    LLM_CONTEXT = "llm-context"
    REWRITE_FAILED = "rewrite-failed"  # failure, detail: the follow-up's terms were carried instead
    # question_language, target_language, detail: the question was not translated for the notes in target_language
    # (no translator for the pair, its package missing, or it failed): they were searched with it as asked
    NO_TRANSLATION = "no-translation"


class StageReason(StrEnum):
    """Why a stage is not `ok` (a `Stage`'s `reason`): the code a reader words; the stage's `note` keeps details."""

    NO_WORDS = "no-words"  # bm25: the question has no searchable word
    NO_MATCH = "no-match"  # no chunk matched
    NO_EMBEDDER = "no-embedder"  # vector: no embedding model loaded
    OTHER_MODEL = "other-model"  # vector: the index holds another model's vectors
    VECTORS_FILLING = "vectors-filling"  # vector: partial, vectors still filling
    FAST_TIER = "fast-tier"  # vector: partial, listed by the fast tier's vectors while the model's fill
    NO_RERANKER = "no-reranker"  # reranked: skipped, the fused order is final
    NOTHING_TO_RERANK = "nothing-to-rerank"  # reranked: skipped, the fused list is empty


class Verdict(StrEnum):
    """What "why not this note?" found: the first stage that lost the note (`quality/diagnose.py`)."""

    EXCLUDED = "excluded"
    NOT_IN_VAULT = "not-in-vault"
    NOT_INDEXED = "not-indexed"
    FAILED = "failed-to-read"
    STALE = "stale"  # changed, deleted or moved since it was indexed
    NO_CHUNKS = "no-chunks"
    UNRELATED = "unrelated"  # no chunk shares a content word, and its meaning was not close enough to be kept
    NOT_IN_CANDIDATES = "not-in-candidates"
    FUSED_OUT = "fused-out"
    BELOW_THRESHOLD = "below-threshold"
    REACHED_PROMPT = "reached-prompt"
    CUT_BY_BUDGET = "cut-by-budget"
    BELOW_K = "below-k"


class Phase(StrEnum):
    """The phase a Progress report belongs to."""

    SCAN = "scan"
    TEXT = "text"
    FAST = "fast-embed"  # the fast tier's vectors (core/fast_tier.py), before the main model's
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


class LinkKind(StrEnum):
    """How a note links another (core/index/links.py)."""

    WIKILINK = "wikilink"  # [[target#heading|alias]]
    EMBED = "embed"  # ![[target]] or ![alt](target)
    MARKDOWN = "markdown"  # [text](target.md#heading)


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
    UNRESOLVED_LINK = "unresolved-link"  # a link names a note the vault does not have (index health)
    MISSING_HEADING = "missing-heading"  # a link names a heading its note does not have (index health)
    # out of date (index health): the note, or the whole index under today's settings
    NEW_SINCE = "new-since-indexing"
    CHANGED_SINCE = "changed-since-indexing"
    DELETED_SINCE = "deleted-since-indexing"
    MODEL_CHANGED = "model-changed"
    CHUNKING_CHANGED = "chunking-changed"
    NONE = ""

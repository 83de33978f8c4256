"""The core's codes in words, in one place: decision reasons, warnings, stage reasons, threshold sources and
"why not this note?" verdicts, each rendered from its code and its numbers.

English for the CLI; the window passes `translate` (QCoreApplication.translate in the `Wording` context) and gets
the same sentences in its language. Every template is marked with `T(...)`, which lists it in `TEMPLATES`:
`resources/translations/update.py` gives that list to lupdate (the `Wording` context of vaultrag_pt.ts, where each
template's Portuguese is written), and a test checks that each has its Portuguese. Templates are `str.format`
strings; a translation keeps their fields.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from vaultrag.core.vocab import (
    ContextStatus,
    DecisionReason,
    LLMFailure,
    ModelState,
    NoteFlag,
    Reason,
    StageName,
    StageReason,
    ThresholdSource,
    Verdict,
    WarningCode,
)

if TYPE_CHECKING:
    from vaultrag.core.model import (
        Candidate,
        Decision,
        Diagnosis,
        Evidence,
        QueryTrace,
        QueryWarning,
        RankChange,
        Stage,
    )

Translate = Callable[[str], str]
CONTEXT = "Wording"  # the translation context of these templates
TEMPLATES: list[str] = []


def T(text: str) -> str:
    """Mark an English template for translation (listed in TEMPLATES) and return it unchanged."""
    TEMPLATES.append(text)
    return text


class Minus(float):
    """A float that writes a negative sign as a real minus ("−0.38"): a hyphen reads as a dash between words, and
    the parts written by `amount` already have one."""

    def __format__(self, spec: str) -> str:
        return float.__format__(float(self), spec).replace("-", "−")


class Worded(str):
    """A template whose `format` writes its float arguments with a real minus (what `english` gives)."""

    def format(self, *args: object, **kwargs: object) -> str:
        def fix(v: object) -> object:
            return Minus(v) if isinstance(v, float) and not isinstance(v, bool) else v

        return str.format(self, *(fix(a) for a in args), **{k: fix(v) for k, v in kwargs.items()})


def english(text: str) -> str:
    return Worded(text)


# -- the decision ------------------------------------------------------------------------------------------------
HOW = T("confidence {c:.3f} (top chunk cosine {cos:.3f} − {w} × vault background {b:.3f})")
DECISION = {
    DecisionReason.NO_CANDIDATE: T("no candidate: nothing in scope matches the question"),
    DecisionReason.NO_CONFIDENCE: T("no vector for the top chunk yet, so no confidence: answering from keywords, "
                                    "unchecked"),
    DecisionReason.NO_THRESHOLD: T("no threshold for this model yet (run calibration): answered unchecked"),
    DecisionReason.ABOVE_THRESHOLD: T("{how} is {m:.3f} above the threshold {t:.3f}"),
    DecisionReason.BELOW_THRESHOLD: T("{how} is {m:.3f} below the threshold {t:.3f}: no note seems to answer this"),
    DecisionReason.STOP_WORDS_ONLY: T("the question has only stop words or symbols: rephrase it with the words you "
                                      "need"),
}
SOURCE = {ThresholdSource.OVERRIDE: T("this question's override"), ThresholdSource.SETTINGS: T("override in settings"),
          ThresholdSource.CALIBRATED: T("calibrated"), ThresholdSource.SHIPPED: T("shipped default"),
          ThresholdSource.UNCALIBRATED: T("uncalibrated"), ThresholdSource.NONE: T("none")}


# the answerability model's decision (core/query/answerability.py): its probability and what weighed against it
MODEL_ABOVE = T("the notes likely answer this: probability {p:.3f} from {note}, {m:.3f} above the threshold {t:.3f}")
# answered below even odds (the shipped threshold is ~0.33; one set lower answers anything): said as a number, not
# as "likely" (untrue there) nor as a doubt (the model's probabilities are weighted by its training, not calibrated
# to a vault's questions: many a right answer scores 0.35)
MODEL_ABOVE_LOW = T("answered: probability {p:.3f} from {note} that the notes answer this, {m:.3f} above the "
                    "threshold {t:.3f}")
MODEL_TOPIC = T("the notes on this topic do not say: {note} is about it, but the probability that it answers this "
                "is {p:.3f}, below the threshold {t:.3f} ({against})")
MODEL_BELOW = T("no note seems to answer this: probability {p:.3f}, below the threshold {t:.3f} ({against})")
AGAINST = T("against it: {features}")
ANSWERABILITY_WORDS = {
    "ranker_p": T("the ranker's confidence in the passage"),
    "ranker_margin": T("its lead over the next passage"),
    "cosine_rule": T("closeness in meaning, less the question's closeness to every note"),
    "cosine_vs_prompt": T("closeness in meaning beside the other passages"),
    "sentence_cov": T("the question's words in one sentence"),
    "window_rare_cov": T("the question's rare words around that sentence"),
    "chunk_rare_cov": T("the question's rare words in the passage"),
    "rarest_missing": T("the question's rarest word missing there"),
    "negation_missing": T("the question's “not” missing there"),
    "says_nothing": T("a passage of headings only"),
    "words_unknown": T("question words no note uses"),
    "names_unknown": T("names no note mentions"),
    "numbers_missing": T("the question's numbers missing there"),
    "names_missing": T("the question's names missing there"),
    "type_found": T("an answer of the kind asked for (name, date, number, place)"),
    "type_missing": T("no answer of the kind asked for (name, date, number, place)"),
    "hub": T("a list of links"),
    "boilerplate": T("text repeated across notes"),
}
AGAINST_SHOWN = 3  # the features named as the refusal's cause
# each feature by its own value, not by its part of the logit (a part is measured from the training mean: "names
# missing +0.33" is a question with none missing, which read as missing names helping). A share feature has its
# words for none, all and some; the others one template of the value.
SHARE_WORDS = {
    "names_missing": (T("none of the question's names is missing there"),
                      T("all of the question's names are missing there"),
                      T("{v:.0%} of the question's names are missing there")),
    "numbers_missing": (T("none of the question's numbers is missing there"),
                        T("all of the question's numbers are missing there"),
                        T("{v:.0%} of the question's numbers are missing there")),
    "names_unknown": (T("every name of the question is in some note"), T("no note mentions the question's names"),
                      T("{v:.0%} of the question's names are in no note")),
    "words_unknown": (T("every word of the question is in some note"), T("no note uses the question's words"),
                      T("{v:.0%} of the question's words (by rarity) are in no note")),
    "rarest_missing": (T("every word of the question is around that sentence"),
                       T("the question's rarest word is missing around that sentence"),
                       T("a question word missing around that sentence is {v:.0%} as rare as its rarest")),
    "negation_missing": (T("no “not” of the question is missing there"),
                         *[T("the question says “not” and the passage there does not")] * 2),  # it is 0 or 1
    "says_nothing": (T("the passage states something beyond its headings"),
                     *[T("the passage states nothing but its headings")] * 2),
}
VALUE_WORDS = {
    "ranker_p": T("the ranker is {v:.0%} sure of this passage"),
    "ranker_margin": T("its lead over the next passage is {v:+.1f}"),
    "cosine_rule": T("its closeness in meaning, less the question's closeness to every note, is {v:.3f}"),
    "cosine_vs_prompt": T("its closeness in meaning beside the other passages is {v:+.3f}"),
    "sentence_cov": T("one sentence holds {v:.0%} of the question's words"),
    "window_rare_cov": T("that sentence and the ones beside it hold {v:.0%} of the question's rare words"),
    "chunk_rare_cov": T("the passage holds {v:.0%} of the question's rare words"),
    "hub": T("{v:.0%} of the passage's lines are links"),
    "boilerplate": T("{v:.0%} of the passage is repeated across notes"),
}


def answerability_word(feature: str, tr: Translate = english) -> str:
    """An answerability feature in words a person knows (its name when new)."""
    return tr(ANSWERABILITY_WORDS[feature]) if feature in ANSWERABILITY_WORDS else feature.replace("_", " ")


KIND_FOUND = T("an answer of the kind asked for (name, date, number, place) is there")
KIND_MISSING = T("no answer of the kind asked for (name, date, number, place) is there")
KIND_NONE = T("the question asks for no name, date, number or place")
USUALLY = T("{what}, usually {usual}")  # a value beside the training mean its part is measured from
FOR_ANSWERING = T("{what}: for answering")
AGAINST_ANSWERING = T("{what}: against answering")


def answerability_value(feature: str, values: dict[str, float], tr: Translate = english,
                        usual: dict[str, float] | None = None) -> str:
    """A feature of the answerability model by its value ("none of the question's names is missing there"); its
    name in words when the decision has no values (a trace from before they were kept)."""
    if feature not in values:
        return answerability_word(feature, tr)
    v = values[feature]
    if feature in ("type_found", "type_missing"):
        if values.get("type_found", 0.0) > 0.5:
            return tr(KIND_FOUND)
        return tr(KIND_MISSING) if values.get("type_missing", 0.0) > 0.5 else tr(KIND_NONE)
    if feature == "names_unknown" and "names_missing" in values:
        # a name no note mentions is also missing there: names_unknown only corrects names_missing's double count,
        # so the two are one fact, their parts added (said apart, "no note mentions the names: for answering" read
        # as nonsense beside "all of the names are missing there: against")
        feature, v = "names_missing", values["names_missing"]
    if feature in SHARE_WORDS:
        none, every, some = SHARE_WORDS[feature]
        return tr(none) if v <= 0.0 else tr(every) if v >= 1.0 else tr(some).format(v=v)
    if feature in VALUE_WORDS:
        said = tr(VALUE_WORDS[feature]).format(v=v)
        if usual is not None and feature in usual:  # "+1.4: against answering" reads wrong unless the usual is said
            spec = VALUE_WORDS[feature].split("{v", 1)[1].split("}", 1)[0]
            # the usual value formatted as the value is (the window's decimal comma, a real minus)
            as_value = "{u" + spec + "}"  # a variable, not a literal: not a string for translators
            shown = tr(as_value).format(u=float(usual[feature]))
            said = tr(USUALLY).format(what=said, usual=shown)
        return said
    return f"{answerability_word(feature, tr)} {v:.3g}"


def _merged(d: Decision, tr: Translate) -> list[tuple[str, float]]:
    """(a feature by its value, its part) of the decision, the biggest first; features that say the same in words
    are one, their parts added (type_found and type_missing of a question that asks for no kind; names_missing and
    names_unknown of one without a name, or whose names are all there)."""
    merged: dict[str, float] = {}
    for f, part in (d.contributions or {}).items():
        what = answerability_value(f, d.values or {}, tr, d.usual)
        merged[what] = merged.get(what, 0.0) + part
    return sorted(merged.items(), key=lambda wp: -abs(wp[1]))


def answerability_parts(d: Decision, tr: Translate = english, smallest: float = 0.005) -> list[tuple[str, float]]:
    """The decision's features by their values and the way each pushed ("…: against answering"), with their parts,
    the biggest first (parts below `smallest` left out)."""
    return [(tr(FOR_ANSWERING if part >= 0 else AGAINST_ANSWERING).format(what=what), part)
            for what, part in _merged(d, tr) if abs(part) >= smallest]


def against(d: Decision, tr: Translate = english) -> str:
    """The features that counted most against answering, by their values ("" when none did)."""
    parts = sorted((part, what) for what, part in _merged(d, tr) if part < 0)[:AGAINST_SHOWN]
    if not parts:
        return ""
    return tr(AGAINST).format(features=", ".join(what for _, what in parts))


NO_NOTE_USES = T("No note uses the words {words}.")
TOPIC_SILENT = T("{note} is about this, but none of its passages says it.")


def refusal_plain(d: Decision, tr: Translate = english) -> str:
    """A refusal in one plain sentence above its numbers ("" when there is none to say): the question's words no
    note uses, or the note on the topic that does not say it."""
    if d.answered:
        return ""
    if d.unknown_words:
        return tr(NO_NOTE_USES).format(words=", ".join(f"“{w}”" for w in d.unknown_words))
    if d.topic_found and d.supported_note:
        return tr(TOPIC_SILENT).format(note=d.supported_note)
    return ""


NOT_FIRST = T("It judged passage #{r}, not the ranker's #1 ({note}): the answerability model finds #{r} the "
              "likelier to say the answer ({p:.0%} against {p1:.0%} for #1); the answer shown comes from #{r}.")


def judged_not_first(d: Decision, final: Sequence[Candidate], tr: Translate = english) -> str:
    """When the decision judged another passage than the ranker's first, say so and why ("" when it judged #1): the
    window and `--explain` never contradict the ranking silently."""
    if not d.by_model or not final or d.supported_by in (None, final[0].chunk_id) or not d.support:
        return ""
    best = next((c for c in final if c.chunk_id == d.supported_by), None)
    first = d.support.get(final[0].chunk_id)
    if best is None or first is None:
        return ""
    return tr(NOT_FIRST).format(r=best.rank, note=final[0].note, p=d.support.get(best.chunk_id, 0.0), p1=first)


def model_reason(d: Decision, tr: Translate = english) -> str:
    """The answerability model's decision in words: the note it judged, the probability, what weighed against."""
    p, t, m = d.confidence or 0.0, d.threshold or 0.0, abs(d.margin or 0.0)
    if d.answered:
        return tr(MODEL_ABOVE if p >= 0.5 else MODEL_ABOVE_LOW).format(p=p, note=d.supported_note, m=m, t=t)
    template = MODEL_TOPIC if d.topic_found else MODEL_BELOW
    return tr(template).format(p=p, t=t, note=d.supported_note, against=against(d, tr))


def decision_reason(d: Decision, tr: Translate = english) -> str:
    """Why the question was answered or refused, from the decision's code and numbers."""
    if d.by_model and d.reason in (DecisionReason.ABOVE_THRESHOLD, DecisionReason.BELOW_THRESHOLD):
        return model_reason(d, tr)
    template = tr(DECISION[d.reason])
    if d.reason not in (DecisionReason.ABOVE_THRESHOLD, DecisionReason.BELOW_THRESHOLD):
        return template
    how = tr(HOW).format(c=d.confidence or 0.0, cos=d.top_cosine or 0.0, w=d.background_weight,
                         b=d.background or 0.0)
    return template.format(how=how, m=abs(d.margin or 0.0), t=d.threshold or 0.0)


def threshold_source(source: ThresholdSource, tr: Translate = english) -> str:
    return tr(SOURCE[source])


# -- warnings ----------------------------------------------------------------------------------------------------
LANGUAGE = {"en": T("English"), "pt": T("Portuguese"), "es": T("Spanish"), "de": T("German"), "fr": T("French"),
            "it": T("Italian"), "nl": T("Dutch"), "sv": T("Swedish"), "da": T("Danish"), "no": T("Norwegian"),
            "fi": T("Finnish"), "pl": T("Polish"), "ru": T("Russian"), "tr": T("Turkish"), "ca": T("Catalan"),
            "ro": T("Romanian"), "cs": T("Czech"), "hu": T("Hungarian"), "el": T("Greek"), "uk": T("Ukrainian"),
            "ms": T("Malay"), "id": T("Indonesian")}
NO_MODEL = T("no model")
KEYWORDS_ONLY = T("no embedding model loaded: keyword search only")
FILLING = T("when asked, vectors were still filling: {done} of {total} chunks embedded; keyword search covered the "
            "rest")  # "when asked": the window's progress moves on, this stays the count the question saw
FAST_FILLING = T("when asked, full-quality vectors were still filling: {done} of {total} chunks had theirs; the fast "
                 "vectors listed the candidates meanwhile")
WARNING = {
    WarningCode.QUESTION_CUT: T("question cut to its first {limit} characters"),
    WarningCode.EMBED_CUT: T("only the first {limit} characters are used for the vector search"),
    WarningCode.NO_EMBEDDER: KEYWORDS_ONLY,
    WarningCode.OTHER_MODEL: T("the index holds vectors of {index_model}, not {model}: re-index to re-embed"),
    WarningCode.BUDGET_TOO_SMALL: T("no passage fits the context budget of {limit} tokens, so none could be "
                                    "shown: raise it (context_tokens, Settings › Context budget)"),
    WarningCode.NO_VECTORS_YET: T("the index has no vectors yet: keyword search only until `vaultrag index` (or the "
                                  "window) embeds the notes"),
    WarningCode.VECTORS_FILLING: FILLING,
    WarningCode.FAST_TIER_FILLING: FAST_FILLING,
    WarningCode.STOP_WORDS_ONLY: T("the question has only stop words or symbols: nothing to search for"),
    WarningCode.LLM_FAILED: T("language model: {detail}"),
    WarningCode.LLM_CAPPED: T("language model: the answer was cut at {limit} tokens (llm_max_tokens): it may be "
                              "incomplete"),
    WarningCode.LLM_STOPPED: T("language model: stopped by the user; the answer is incomplete"),
    WarningCode.LLM_LANGUAGE: T("language model: the answer is in {answer_language} but the question is in "
                                "{question_language}; a small model may not follow the prompt's language: try a "
                                "larger one"),
    WarningCode.LLM_CONTEXT: T("language model: its context holds {limit} tokens but the prompt and the answer need "
                               "about {total}: the server cuts the prompt's start. Lower the context budget or "
                               "llm_max_tokens, or give the model a larger context in its server"),
    WarningCode.NO_TRANSLATION: T("translation: the question was not translated from {question_language} into "
                                  "{target_language} ({detail}); the notes in {target_language} were searched with "
                                  "the question as asked"),
    WarningCode.REWRITE_FAILED: T("rewrite: the language model could not rewrite the question ({detail}); the "
                                  "previous question's terms were carried instead"),
}


def language_name(code: str, tr: Translate = english) -> str:
    """A language by its name; a language the app has no name for by its ISO code."""
    return tr(LANGUAGE[code]) if code in LANGUAGE else code


def warning(w: QueryWarning, tr: Translate = english) -> str:
    """One of a question's warnings in words."""
    return tr(WARNING[w.code]).format(
        limit=w.limit, done=w.done, total=w.total, model=w.model, index_model=w.index_model or tr(NO_MODEL),
        detail=llm_failure(w.failure, w.details, tr) if w.failure is not None and w.details else w.detail,
        answer_language=language_name(w.answer_language, tr),
        question_language=language_name(w.question_language, tr),
        target_language=language_name(w.target_language, tr))


# -- language model failures -------------------------------------------------------------------------------------
# {where} the server's address, {model}, {timeout} seconds, {status} the HTTP code, {detail} what the transport or
# the server said (shown, never read): the failure's details (`llm_failure_details`)
LLM_FAILURE = {
    LLMFailure.NOT_INSTALLED: T("Answers from a language model need the openai client library, which this "
                                "installation lacks: pip install openai."),
    LLMFailure.SERVER_DOWN: T("Cannot reach a language model server at {where}: is it running? (Ollama: `ollama "
                              "serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: start its server.) Check "
                              "llm_base_url."),
    LLMFailure.BAD_URL: T("{where} answers, but has no OpenAI-compatible API there ({detail}). The address usually "
                          "ends in /v1, e.g. http://localhost:11434/v1."),
    LLMFailure.BAD_MODEL: T("The server at {where} does not know the model {model!r}. `vaultrag llm models` lists the "
                            "ones it has."),
    LLMFailure.AUTH: T("The server at {where} refused the API key (HTTP {status}). Put the key in the environment "
                       "variable named by llm_api_key_env, or in the OS keyring under 'vaultrag'."),
    LLMFailure.TIMEOUT: T("The language model server at {where} sent nothing for {timeout} s. It may still be "
                          "loading the model: try again, or raise llm_timeout."),
    LLMFailure.STREAM_CUT: T("The answer from {where} broke off in the middle ({detail}): it may be incomplete; the "
                             "part received is kept. Try again."),
    LLMFailure.SERVER_ERROR: T("The server at {where} failed (HTTP {status}): {detail}"),
    # the built-in model: {where} is the GGUF file; NO_RUNTIME's {detail} the install command
    LLMFailure.NO_RUNTIME: T("The built-in model needs the llama.cpp runtime (llama-cpp-python and its server), "
                             "which is not installed: {detail} — or choose your own server in Settings."),
    LLMFailure.MODEL_FILE: T("The model file {where} cannot be used ({detail}): choose or download another model "
                             "in Settings."),
    LLMFailure.MODEL_START: T("The model {model} ({where}) did not start: {detail}"),
    LLMFailure.MODEL_CRASHED: T("The model {model} stopped in the middle of the answer ({detail}); the part received "
                                "is kept. It restarts on the next question."),
}
# the details the backend words itself (the rest is the server's or the transport's own text, shown as it is)
LLM_NO_MODEL_LIST = T("its /models reply is not a model list")
LLM_NO_END = T("no end of answer from the server")
LLM_HTTP_MODEL_LIST = T("HTTP {status} for its model list")
LLM_NOT_FOUND = T("no such file")
LLM_NOT_GGUF = T("not a GGUF model file")
LLM_NO_ANSWER = T("its server did not answer within {status} s")
LLM_EXITED = T("its server ended with code {status}")
LLM_DETAILS = (LLM_NO_MODEL_LIST, LLM_NO_END, LLM_HTTP_MODEL_LIST, LLM_NOT_FOUND, LLM_NOT_GGUF, LLM_NO_ANSWER,
               LLM_EXITED)

# what getting a model ready is doing (Generator.prepare's ModelState), {model} its name
MODEL_STATE = {
    ModelState.LOADING: T("loading the model {model}…"),
    ModelState.READY: T("the model {model} is ready"),
    ModelState.RESTARTING: T("the model {model} had stopped: starting it again…"),
}


def model_state(state: ModelState, model: str, tr: Translate = english) -> str:
    """What getting the model ready is doing, in words."""
    return tr(MODEL_STATE[state]).format(model=model)


# said inside Settings › Language model, where the fix is a field of the page the user is on: the field by its
# label, not its settings.toml key (llm_base_url), and never "choose … in Settings" while in Settings
LLM_FAILURE_IN_SETTINGS = {
    LLMFailure.SERVER_DOWN: T("Cannot reach a language model server at {where}: is it running? (Ollama: `ollama "
                              "serve`; llama.cpp: `llama-server -m model.gguf`; LM Studio: start its server.) Check "
                              "the Address above."),
    LLMFailure.NO_RUNTIME: T("The built-in model needs the llama.cpp runtime (llama-cpp-python and its server), "
                             "which is not installed: {detail} — or choose My server above."),
    LLMFailure.MODEL_FILE: T("The model file {where} cannot be used ({detail}): choose or download another model "
                             "in the list above."),
}


def llm_failure(kind: LLMFailure, details: Mapping[str, str], tr: Translate = english,
                in_settings: bool = False) -> str:
    """A language model failure in words, from its code and details (where, model, timeout, status, detail);
    `in_settings`: said on Settings' language model page (its fixes are fields of that page)."""
    d = {k: details.get(k, "") for k in ("where", "model", "timeout", "status", "detail")}
    if d["detail"] in LLM_DETAILS:
        d["detail"] = tr(d["detail"]).format(status=d["status"])
    template = LLM_FAILURE_IN_SETTINGS.get(kind) if in_settings else None
    return tr(template or LLM_FAILURE[kind]).format(**d)


# -- stages ------------------------------------------------------------------------------------------------------
STAGE_REASON = {
    StageReason.NO_WORDS: T("no searchable words in the question"),
    StageReason.NO_MATCH: T("no chunk matched"),
    StageReason.NO_EMBEDDER: KEYWORDS_ONLY,
    StageReason.OTHER_MODEL: T("no vectors for this model yet: keyword search only"),
    StageReason.VECTORS_FILLING: FILLING,
    StageReason.FAST_TIER: T("listed by the fast vectors while full-quality vectors fill ({done} of {total} chunks "
                             "when asked); the top candidates got their full-quality vector at question time"),
    StageReason.NO_RERANKER: T("no reranker configured: the fused order is final"),
    StageReason.NOTHING_TO_RERANK: T("nothing to rerank: the fused list is empty"),
}


def stage_reason(trace: QueryTrace, stage: Stage, tr: Translate = english) -> str:
    """Why a stage is not ok, in words ('' when it is, or has no reason)."""
    if stage.reason is None:
        return ""
    s = trace.index_state
    return tr(STAGE_REASON[stage.reason]).format(done=s.chunks_embedded, total=s.chunks)


# -- the vector tiers (core/fast_tier.py) -------------------------------------------------------------------------
TIERS = T("fast vectors {fast} % · full-quality vectors {full} %")
FULL_ONLY = T("full-quality vectors {full} %")


def tier_shares(chunks: int, fast: int, full: int, tr: Translate = english) -> str:
    """Which quality tier the vault's chunks have, as shares: the fast tier's only while it exists."""
    def share(n: int) -> int:
        # floored: "100 %" only when every chunk has it (99.6 % is not done)
        return 100 * n // chunks if chunks else 0

    if fast:
        return tr(TIERS).format(fast=share(fast), full=share(full))
    return tr(FULL_ONLY).format(full=share(full))


# -- "why not this note?" ----------------------------------------------------------------------------------------
TITLE = {Verdict.EXCLUDED: T("Excluded from the index"), Verdict.NOT_IN_VAULT: T("Not in the vault"),
         Verdict.NOT_INDEXED: T("Not indexed yet"), Verdict.FAILED: T("Could not be read"),
         Verdict.STALE: T("Changed since it was indexed"), Verdict.NO_CHUNKS: T("No text to search"),
         Verdict.UNRELATED: T("Not related to this question"),
         Verdict.NOT_IN_CANDIDATES: T("Not among the candidates"),
         Verdict.FUSED_OUT: T("Dropped when the lists were fused"),
         Verdict.BELOW_THRESHOLD: T("Found, but the question was refused"),
         Verdict.REACHED_PROMPT: T("It reached the prompt"), Verdict.CUT_BY_BUDGET: T("Cut by the token budget"),
         Verdict.BELOW_K: T("Ranked below k")}
# what to do about each exclusion and failure, by its code
EXCLUSION_FIX: dict[Reason, str] = {
    Reason.PRIVATE_TAG: T("Remove the private tag from the note (or change private_tag in settings) to index it."),
    Reason.FRONTMATTER_EXCLUDE: T("Remove `vaultrag: exclude` from the note's frontmatter to index it."),
    Reason.IGNORE_FILE: T("Remove or narrow the matching pattern in .vaultragignore."),
    Reason.IGNORE_SETTING: T("Remove or narrow the matching pattern in the ignore_globs setting."),
    Reason.HIDDEN_FILE: T("Rename the file so it does not start with a dot to index it."),
    Reason.SYMLINK_LOOP: T("The folder is a link back into the vault; it is indexed where it really lives."),
    Reason.UNREADABLE_FOLDER: T("Give your user read permission on the folder."),
    Reason.CANNOT_STAT: T("Check that the file exists and is readable."),
    Reason.NOT_REGULAR: T("Only regular files are indexed (not pipes or devices)."),
    Reason.SYMLINK_OUTSIDE: T("Links to places outside the vault are never followed: move the note into the vault."),
    Reason.SYMLINK_TO_IGNORED: T("The link points at a note a rule leaves out: change that rule to index it."),
    Reason.BAD_FILENAME: T("Rename the file: its name is not valid UTF-8."),
}
DEFAULT_EXCLUSION_FIX = T("Move the note out of that folder to index it.")
FAILURE_FIX: dict[Reason, str] = {
    Reason.NOT_UTF8: T("Save the note as UTF-8 in your editor."),
    Reason.TOO_LARGE: T("Split the note, or raise max_note_bytes in settings."),
    Reason.BINARY: T("This is not a text note; rename it if it should not end in .md."),
    Reason.PERMISSION: T("Give your user read permission on the file."),
}
DEFAULT_FAILURE_FIX = T("Fix the file and save it again; the watcher re-indexes it.")
EXCLUDED = T("The note is excluded by rule: {rule}.")
EXCLUDED_IN_FOLDER = T("The note is excluded by rule: {rule} (folder {folder}).")
NOT_IN_VAULT = T("There is no note {note} in the vault.")
DID_YOU_MEAN = T("Did you mean {names}?")
CHECK_PATH = T("Check the path (it is relative to the vault folder).")
NOT_INDEXED = T("The note is in the vault but not in the index yet.")
INDEX_IT = T("Index the vault (or wait for the watcher to pick the file up).")
FAILED = T("The note could not be indexed: {rule}.")
CHANGED = T("The note changed since it was indexed.")
CHANGED_FIX = T("The index is stale for this note: re-index (the watcher does it on save).")
GONE = T("The note was deleted or moved since it was indexed.")
GONE_FIX = T("Re-index the vault.")
NO_CHUNKS = T("The note produced no chunks.")
NO_CHUNKS_WHY = T("The note produced no chunks: {rule}.")
HEADING_NO_CHUNKS = T("Heading {heading} of the note produced no chunks.")
NO_CHUNKS_FIX = T("The note has no text to index.")
HEADING_FIX = T("Add text under it: headings alone are not indexed.")
NOT_IN_LISTS = T("Not in the BM25 top-{n} nor the vector top-{vn}: {parts}.")
BM25_PART = T("its best chunk is BM25 rank {r} (score {s:.2f})")
NO_WORD_PART = T("no chunk of it contains any query word")
VECTOR_PART = T("vector rank {r} (cosine {c:.3f})")
ADD_WORDS = T("The note never uses the word(s) {words}: add them to the text, or as an alias or a heading, so BM25 "
              "can match the question.")
REPHRASE = T("Rephrase the question with the note's own words, or raise Keyword candidates and Vector candidates "
             "(Settings › Search).")
TABLE_HINT = T("Its best chunk is a table row: make sure the table has a header row that names its columns, so each "
               "row carries its meaning.")
UNRELATED = T("It shares none of the question's content words, and its meaning is far from the question's.")
UNRELATED_FAR = T("It shares none of the question's content words, and its meaning is far from the question's "
                  "(best cosine {c:.3f}, vector rank {r}).")
UNRELATED_FIX = T("Nothing to tune: it does not seem to be about this question. If it should answer it, add the "
                  "question's words to the note (in the text, a heading or an alias).")
FUSED_OUT = T("It was a candidate of a list but fell outside the fused list, which keeps the best of both lists "
              "by their combined (RRF) rank.")
FUSED_OUT_FIX = T("Raise Keyword candidates and Vector candidates (Settings › Search) so the fused list keeps more "
                  "candidates.")
BELOW_THRESHOLD = T("Confidence {c:.3f} is below the threshold {t:.3f}.")
BELOW_THRESHOLD_FIX = T("The threshold would need to be at most {c:.3f}: lower it in Settings, or calibrate with a "
                        "golden set.")
REPHRASE_WITH_NOTE = T("Rephrase the question with the words of the note.")
MODEL_TOPIC_FIX = T("The note is about this topic but none of its passages states the answer: add it to the note, or "
                    "ask about what the note does say. Lowering the threshold would answer from a passage that does "
                    "not hold it.")
MODEL_BELOW_FIX = T("Rephrase the question with the words of the passage that answers it; if no note states the "
                    "answer, the refusal is right.")
REACHED = T("It reached the prompt as document [{doc}] (rank {rank} after {stage}).")
REACHED_FIX = T("Retrieval worked: if the answer is still wrong, the model (or the note's wording) is the suspect.")
# answered without a language model: the answer is the passage of one document, the others are not read
REACHED_NOT_SHOWN = T("Without a language model the answer shows one passage, document [{shown}]'s: this note's "
                      "(document [{doc}]) is in the prompt but not read.")
REACHED_NOT_SHOWN_FIX = T("Open document [{doc}] in the Prompt pane to read it; set a language model (Settings › "
                          "Language model) to have every document read; or ask with this note's own words.")
REACHED_SHOWN_FIX = T("Retrieval worked and the answer shows this note's passage: if it is still wrong, the note's "
                      "wording is the suspect.")
BUDGET = T("Ranked {rank}, but the token budget ({budget}) was full ({used} tokens of documents).")
BUDGET_FIX = T("Raise the token budget (context_tokens) or lower k so fewer, better chunks fit.")
BELOW_K = T("Ranked {rank} after {stage}, below the k = {k} documents given to the answer.")
BELOW_K_FIX = T("Raise k to {rank} to include it.")
# a candidate below k, or in a refused question, that looks unrelated (quality/diagnose.py's `off_topic`): the note's
# words are the fix, not k or the threshold, which would only hand the answer a passage that is not about the question
OFF_TOPIC = T("This note does not seem to be about the question: it never uses the question's words ({words}), and "
              "its closest passage's meaning similarity ({c:.3f}) is below the {need:.3f} a passage needs in this "
              "vault to be on the question's topic (the top passage has {top:.3f}).")
OFF_TOPIC_FIX = T("If this note should answer the question, it needs the words the question uses ({words}: in its "
                  "text, a heading or an alias), or the question needs the note's own words.")
# the same, for a note in the language the question was translated into: the words are the translation's
OFF_TOPIC_TRANSLATED = T("This note does not seem to be about the question: it never uses the words of the question's "
                         "translation ({words}), and its closest passage's meaning similarity ({c:.3f}) is below the "
                         "{need:.3f} a passage needs in this vault to be on the question's topic (the top passage has "
                         "{top:.3f}).")
OFF_TOPIC_FIX_TRANSLATED = T("If this note should answer the question, it needs the words of the question's "
                             "translation into its language ({words}: in its text, a heading or an alias), or the "
                             "question needs the note's own words.")
OFF_TOPIC_RAISE_K = T("Raising k to {rank} would include it, but only as a passage unrelated to the question.")
MOVED = {(True, False): T("The reranker moved it up from fused rank {a} to {b}."),
         (False, False): T("The reranker moved it down from fused rank {a} to {b}."),
         (True, True): T("The reranker moved it up from fused rank {a} to {b} (features that moved it, against the "
                         "candidates' mean: {why})."),
         (False, True): T("The reranker moved it down from fused rank {a} to {b} (features that moved it, against "
                          "the candidates' mean: {why}).")}


@dataclass(frozen=True)
class DiagnosisWords:
    """A diagnosis as a reader sees it: the verdict's title, what happened, what to do."""

    title: str
    message: str
    advice: str


def _moved(change: RankChange | None, tr: Translate) -> str:
    if change is None:
        return ""
    why = ", ".join(part(f, d, tr) for f, d in change.features)
    return " " + tr(MOVED[change.up, bool(why)]).format(a=change.fused_rank, b=change.reranked_rank, why=why)


def diagnosis(d: Diagnosis, tr: Translate = english,
              stage_title: Callable[[StageName], str] = str) -> DiagnosisWords:
    """The verdict, what happened and what to do, from the diagnosis's code and evidence; `stage_title` names a
    ranked list in words (the window's "Reranked"; the CLI keeps its name)."""
    message, advice = _explain(d, d.evidence, tr, stage_title)
    return DiagnosisWords(tr(TITLE[d.verdict]), message, advice)


def _stage(ev: Evidence, stage_title: Callable[[StageName], str]) -> str:
    """The stage's title in running text: "after reranked", not "after Reranked" (an acronym keeps its case)."""
    title = stage_title(ev.final_stage) if ev.final_stage is not None else ""
    return title if title[1:2].isupper() else title[:1].lower() + title[1:]


def _explain(d: Diagnosis, ev: Evidence, tr: Translate,
             stage_title: Callable[[StageName], str]) -> tuple[str, str]:
    v = d.verdict
    if v == Verdict.EXCLUDED:
        # the rule by its code, in words (the walker's own detail, "private tag #private", is English)
        rule = tr(REASON[ev.code]) if ev.code in REASON and tr is not english else ev.rule
        said = (tr(EXCLUDED_IN_FOLDER) if ev.folder else tr(EXCLUDED)).format(rule=rule, folder=ev.folder)
        fix = EXCLUSION_FIX.get(ev.code, DEFAULT_EXCLUSION_FIX) if ev.code else DEFAULT_EXCLUSION_FIX
        return said, tr(fix)
    if v == Verdict.NOT_IN_VAULT:
        said = tr(NOT_IN_VAULT).format(note=repr(d.note))
        if ev.closest:
            said += " " + tr(DID_YOU_MEAN).format(names=", ".join(ev.closest))
        return said, tr(CHECK_PATH)
    if v == Verdict.NOT_INDEXED:
        return tr(NOT_INDEXED), tr(INDEX_IT)
    if v == Verdict.FAILED:
        fix = FAILURE_FIX.get(ev.code, DEFAULT_FAILURE_FIX) if ev.code else DEFAULT_FAILURE_FIX
        return tr(FAILED).format(rule=ev.rule), tr(fix)
    if v == Verdict.STALE:
        return (tr(GONE), tr(GONE_FIX)) if ev.disk_size is None else (tr(CHANGED), tr(CHANGED_FIX))
    if v == Verdict.NO_CHUNKS:
        if ev.heading:
            return tr(HEADING_NO_CHUNKS).format(heading=repr(ev.heading)), tr(HEADING_FIX)
        return (tr(NO_CHUNKS_WHY).format(rule=ev.rule) if ev.rule else tr(NO_CHUNKS)), tr(NO_CHUNKS_FIX)
    if v in (Verdict.UNRELATED, Verdict.NOT_IN_CANDIDATES):
        fix = tr(ADD_WORDS).format(words=", ".join(ev.missing_words)) if ev.missing_words else tr(REPHRASE)
        if v == Verdict.UNRELATED:
            said = tr(UNRELATED_FAR).format(c=ev.vector.score, r=ev.vector.rank) if ev.vector else tr(UNRELATED)
            fix = tr(UNRELATED_FIX)
        else:
            parts = [tr(BM25_PART).format(r=ev.bm25.rank, s=ev.bm25.score) if ev.bm25 else tr(NO_WORD_PART)]
            if ev.vector:
                parts.append(tr(VECTOR_PART).format(r=ev.vector.rank, c=ev.vector.score))
            said = tr(NOT_IN_LISTS).format(n=ev.bm25_n, vn=ev.vector_n, parts="; ".join(parts))
        return said, fix + (" " + tr(TABLE_HINT) if ev.table_row else "")
    if v == Verdict.FUSED_OUT:
        return tr(FUSED_OUT), tr(FUSED_OUT_FIX)
    if v == Verdict.BELOW_THRESHOLD:
        refused = _refused(ev, tr)
        if ev.off_topic:
            return refused[0] + " " + _off_topic(ev, tr), _off_topic_fix(ev, tr)
        return refused
    moved = _moved(ev.rank_change, tr)
    if v == Verdict.REACHED_PROMPT:
        said = tr(REACHED).format(doc=ev.document, rank=ev.rank, stage=_stage(ev, stage_title)) + moved
        if ev.answer_document is None:
            return said, tr(REACHED_FIX)
        if ev.answer_document == ev.document:
            return said, tr(REACHED_SHOWN_FIX)
        return (said + " " + tr(REACHED_NOT_SHOWN).format(shown=ev.answer_document, doc=ev.document),
                tr(REACHED_NOT_SHOWN_FIX).format(doc=ev.document))
    if v == Verdict.CUT_BY_BUDGET:
        return (tr(BUDGET).format(rank=ev.rank, budget=ev.budget, used=ev.documents_tokens) + moved,
                tr(BUDGET_FIX))
    said = tr(BELOW_K).format(rank=ev.rank, stage=_stage(ev, stage_title), k=ev.k) + moved
    if ev.off_topic:
        return (said + " " + _off_topic(ev, tr),
                _off_topic_fix(ev, tr) + " " + tr(OFF_TOPIC_RAISE_K).format(rank=ev.rank))
    return said, tr(BELOW_K_FIX).format(rank=ev.rank)


def _off_topic(ev: Evidence, tr: Translate) -> str:
    """Why the note looks unrelated: the words it never uses, its similarity beside the topic's and the top's."""
    assert ev.vector is not None
    said = OFF_TOPIC_TRANSLATED if ev.translation else OFF_TOPIC
    return tr(said).format(words=", ".join(ev.missing_words), c=ev.vector.score, need=ev.topic_cosine,
                           top=ev.top_cosine)


def _off_topic_fix(ev: Evidence, tr: Translate) -> str:
    """The fix for an unrelated note: the words it needs (the translation's, for a note in its language)."""
    fix = OFF_TOPIC_FIX_TRANSLATED if ev.translation else OFF_TOPIC_FIX
    return tr(fix).format(words=", ".join(ev.missing_words))


def _refused(ev: Evidence, tr: Translate) -> tuple[str, str]:
    """A refused question's reason and what would have let it answer."""
    if ev.model_decision is not None:
        fix = MODEL_TOPIC_FIX if ev.model_decision.topic_found else MODEL_BELOW_FIX
        return model_reason(ev.model_decision, tr), tr(fix)
    if ev.confidence is not None and ev.threshold is not None:
        return (tr(BELOW_THRESHOLD).format(c=ev.confidence, t=ev.threshold),
                tr(BELOW_THRESHOLD_FIX).format(c=ev.confidence))
    return tr(DECISION[ev.decision or DecisionReason.NO_CANDIDATE]), tr(REPHRASE_WITH_NOTE)


BEST_KEYWORD = T("Best keyword match")
KEYWORD_RANK = T("rank {r} (score {s:.2f})")
BEST_MEANING = T("Best meaning match")
MEANING_RANK = T("rank {r} (cosine {c:.3f})")
NEVER_USED = T("Question words the note never uses")
NEVER_USED_TRANSLATED = T("Words of the translation the note never uses")
LIST_RANK = T("rank {r} (score {s})")
SIZE_INDEXED = T("Size when indexed")
SIZE_ON_DISK = T("Size on disk")
BYTES = T("{n} bytes")


def shown_score(stage: Stage, c: Candidate) -> float | None:
    """`c`'s score as its list shows it: a list the fast tier made is scored by the candidates' e5 cosines, which a
    later stage may still embed (so read now, not when the list was made), and one without an e5 vector yet has
    none (None, shown as "—": its 0 read as "unrelated")."""
    return c.cosine if stage.reason == StageReason.FAST_TIER else c.score


def score_text(v: float) -> str:
    """A score with four or five significant digits: enough to tell small ones apart, no more (a ranker's 18.12
    needs no third decimal, and in four lists side by side each digit is a letter of the note's name)."""
    return f"{v:.2f}" if abs(v) >= 10 else f"{v:.3f}" if abs(v) >= 0.1 else f"{v:.4f}"


JUDGED_AS = T("Judged by the translation")
FOUND_VIA = T("Found only through the translation")
ONLY_THROUGH = T("into {language}, by {lists}")


def evidence_lines(ev: Evidence, tr: Translate = english,
                   stage_title: Callable[[StageName], str] = str) -> list[tuple[str, str]]:
    """The evidence as (label, value) lines: no raw records, three decimals."""
    out = []
    if ev.indexed_size is not None:
        out.append((tr(SIZE_INDEXED), tr(BYTES).format(n=ev.indexed_size)))
    if ev.disk_size is not None:
        out.append((tr(SIZE_ON_DISK), tr(BYTES).format(n=ev.disk_size)))
    if ev.bm25 is not None:
        out.append((tr(BEST_KEYWORD), tr(KEYWORD_RANK).format(r=ev.bm25.rank, s=ev.bm25.score)))
    if ev.vector is not None:
        out.append((tr(BEST_MEANING), tr(MEANING_RANK).format(r=ev.vector.rank, c=ev.vector.score)))
    if ev.translation:
        out.append((tr(JUDGED_AS), f"«{ev.translation}»"))
    if ev.via:
        out.append((tr(FOUND_VIA), tr(ONLY_THROUGH).format(language=language_name(ev.via, tr),
                                                            lists=", ".join(stage_title(s) for s in ev.via_lists))))
    if ev.missing_words:
        out.append((tr(NEVER_USED_TRANSLATED if ev.translation else NEVER_USED), ", ".join(ev.missing_words)))
    said = {(StageName.BM25, ev.bm25.rank) if ev.bm25 else None,
            (StageName.VECTOR, ev.vector.rank) if ev.vector else None}
    for hit in ev.in_lists:
        if (hit.stage, hit.rank) in said:  # the best match above already said it
            continue
        out.append((stage_title(hit.stage), tr(LIST_RANK).format(r=hit.rank, s=score_text(hit.score))))
    return out


# -- a note's (or the index's) reason, by its code: the health lists, `status --list` ----------------------------
REASON = {
        Reason.BUILTIN_FOLDER: T("an app's own folder (.obsidian, .trash, .git)"),
        Reason.HIDDEN_FOLDER: T("hidden folder"), Reason.HIDDEN_FILE: T("hidden file"),
        Reason.IGNORE_FILE: T("left out by a .vaultragignore pattern"),
        Reason.IGNORE_SETTING: T("left out by the ignore patterns in Settings"),
        Reason.FRONTMATTER_EXCLUDE: T("its frontmatter says vaultrag: exclude"),
        Reason.PRIVATE_TAG: T("carries the private tag"),
        Reason.SYMLINK_LOOP: T("symbolic link loop (a folder already visited)"),
        Reason.UNREADABLE_FOLDER: T("folder that cannot be read"),
        Reason.CANNOT_STAT: T("cannot be examined (stat failed)"),
        Reason.NOT_REGULAR: T("not a regular file"),
        Reason.SYMLINK_OUTSIDE: T("symbolic link to a place outside the vault (never followed)"),
        Reason.SYMLINK_TO_IGNORED: T("symbolic link to something that is left out"),
        Reason.BAD_FILENAME: T("file name that is not valid UTF-8"),
        Reason.VANISHED: T("disappeared while being read"),
        Reason.IS_FOLDER: T("is a folder now, not a file"),
        Reason.PERMISSION: T("permission denied"), Reason.CANNOT_READ: T("cannot be read"),
        Reason.TOO_LARGE: T("larger than the size cap (Settings › largest note)"),
        Reason.BINARY: T("binary file, not Markdown text"), Reason.NOT_UTF8: T("not valid UTF-8 text"),
        Reason.INTERNAL: T("internal error while indexing it (see the log)"),
        Reason.BAD_FRONTMATTER: T("malformed frontmatter: indexed without it"),
        Reason.EMPTY: T("empty note (no text to index)"),
        Reason.TRUNCATED: T("chunks longer than the model's input limit (cut to fit)"),
        Reason.FLAGGED: T("tries to give the language model orders"),
        Reason.UNRESOLVED_LINK: T("links to a note the vault does not have"),
        Reason.MISSING_HEADING: T("links to a heading its note does not have"),
        Reason.NEW_SINCE: T("new since indexing"), Reason.CHANGED_SINCE: T("changed since indexing"),
        Reason.DELETED_SINCE: T("deleted since indexing"),
        Reason.MODEL_CHANGED: T("embedded with another model than the one in Settings: re-index to re-embed"),
        Reason.CHUNKING_CHANGED: T("chunking settings changed since indexing: re-index to re-chunk"),
}
FLAG = {NoteFlag.IGNORE_INSTRUCTIONS: T("“ignore the previous instructions”"),
        NoteFlag.FAKE_TAG: T("fake document tags"),
        NoteFlag.ROLE_MARKER: T("lines posing as the system or the assistant")}


def reason(code: Reason, tr: Translate = english) -> str:
    """A skip, failure or health reason in words (empty for no reason)."""
    return tr(REASON[code]) if code != Reason.NONE else ""


def flag(code: str, tr: Translate = english) -> str:
    """What a flagged note tries (a NoteFlag code), in words; an unknown code as it is."""
    return tr(FLAG[NoteFlag(code)]) if code in FLAG else code


FLAGGED_NOTE = T("{note} tries to give the language model orders ({what}): its text is escaped in the prompt, but "
                 "read what it says with care.")


def flagged_note(note: str, codes: Sequence[str], tr: Translate = english) -> str:
    """The warning for a note in the prompt that tries to give orders (the CLI's line, the window's tooltip)."""
    return tr(FLAGGED_NOTE).format(note=note, what=", ".join(flag(c, tr) for c in codes))


# -- where an evaluation lost the gold (the evaluation's failures, counted by why-not verdict) ------------------
LOST = T("Where the gold was lost: {counts}")
# no list lost an expected note: a failure in red is then a ranking or a decision ("nowhere" beside red rows
# read as a contradiction)
LOST_NONE = T("Where the gold was lost: no list lost an expected note")


def failures(counts: Mapping[Verdict, int], tr: Translate = english) -> str:
    """An evaluation's failures in words, most frequent first: each verdict's title and its count."""
    if not counts:
        return tr(LOST_NONE)
    parts = [f"{tr(TITLE[Verdict(v)])}: {n}" for v, n in sorted(counts.items(), key=lambda vn: -vn[1])]
    return tr(LOST).format(counts="; ".join(parts))


# -- what became of a candidate on its way into the prompt (`ask --explain`) --------------------------------------
FATE = {ContextStatus.INCLUDED: T("in the prompt"),
        ContextStatus.MERGED: T("merged into a document already in the prompt"),
        ContextStatus.DUPLICATE: T("left out: the same text as a document in the prompt"),
        ContextStatus.BEYOND_K: T("left out: beyond the number of documents the prompt takes"),
        ContextStatus.CUT_BY_BUDGET: T("left out: no room left in the token budget"),
        ContextStatus.REFUSED: T("left out: the question was refused")}


def fate(status: ContextStatus, tr: Translate = english) -> str:
    """What became of a candidate on its way into the prompt, in words."""
    return tr(FATE[status])


# -- the ranker's features in words (the window's bars and "why here", `vaultrag why`, `ask --explain`) -----------
FEATURE = {
    "bm25_norm": T("keyword score"), "bm25_rr": T("keyword rank"), "coverage": T("question words present"),
    "sentence_cov": T("question words in one sentence"), "title_cov": T("question words in the title"),
    "vector_rr": T("meaning rank"), "cosine": T("meaning similarity"),
    # a gap to the best read from the side where its part is positive (the best row's gap is 0: "closest")
    "cosine_gap": T("close to the best similarity"),
    "rrf": T("fused score"), "log_length": T("length"),
    "coverage_x_cosine": T("question words and similarity together"),
    "same_language": T("same language"),
    # the ranker's features of issue 26 (branch rank): Snowball-stem IDF and 4-gram sentence coverage, the note's
    # best cosine
    "sentence_idf": T("rare question words in one sentence"),
    "sentence_grams": T("pieces of question words in one sentence"),
    "note_cos_gap": T("the note close to the best similarity"),
    # the chunk marks (index time): a feature of that name, or the mark itself
    "boilerplate": T("repeated text (template, footer)"), "hub": T("mostly links (a hub note)"),
    # the real-notes features (issue 35): the best sentence sends the reader elsewhere; a candidate links to this note
    "pointer": T("its best sentence points elsewhere (“see …”)"),
    "pointed": T("a candidate above links to this note"),
    "translated": T("judged through the question's translation (another language than the question's)"),
    # the fused list's parts: one per retrieval list
    "bm25": T("keywords"), "vector": T("meaning"),
}
# a feature without words yet (a new one of the ranker): its name's parts in words, "stem_cov" → "stems coverage"
FEATURE_PART = {"bm25": T("keyword"), "rr": T("rank"), "cov": T("coverage"), "norm": T("score"),
                "cos": T("similarity"), "cosine": T("similarity"), "x": "×", "log": "", "len": T("length"),
                "stem": T("stems"), "stems": T("stems"), "sim": T("similarity"), "max": T("best"),
                "gap": T("gap"), "vec": T("meaning"), "vector": T("meaning")}


def feature(name: str, tr: Translate = english) -> str:
    """A ranker feature (or a fused list's part) in words; a new feature's name read part by part, never
    `snake_case` as it is."""
    if name in FEATURE:
        return tr(FEATURE[name])
    parts = [tr(FEATURE_PART[p]) if p in FEATURE_PART else p for p in name.replace("-", "_").split("_") if p]
    return " ".join(p for p in parts if p) or name


# the parts are differences from the other row ("less against it than #2" reads right when both rows' parts are
# negative): what pushed the row down, what offset it, the rest as "other parts": they add up to the gap
ABOVE = T("#{rank} is above #{other} by {gap}. Compared with #{other}, {why}")
BELOW = T("#{rank} is below #{other} by {gap}. Compared with #{other}, {why}")
FOR_IT = T("in its favour: {parts}")  # "for it length +0.19" read as a broken sentence
AGAINST_IT = T("against it: {parts}")
OTHER_PARTS = T("other parts")
NO_PARTS = T("the same parts, to the precision shown")
WHY_FEATURES = 4  # the features named as the difference between two rows (the rest: "other parts")


def amount(v: float, sign: bool = False) -> str:
    """A part or a gap: two decimals, or two significant digits below 0.1 (a fused list's parts are hundredths);
    with its sign, a real minus (a hyphen reads as a dash between words)."""
    text = f"{v:{'+' if sign else ''}.2f}" if abs(v) >= 0.1 or v == 0 else f"{v:{'+' if sign else ''}.2g}"
    return text.replace("-", "−")


def signed(v: float) -> str:
    """+0.30 / −0.30 / +0.0064."""
    return amount(v, sign=True)


PART = T("{what} {sign}{amount}")  # "length +0.30": a feature in words and its part, signed
# a gap's part with both rows' own parts: the bars draw those two, the words their difference (a user saw a bar
# at −1.74 and the words −1.90 for one part and could not tell which was right)
GAP_PART = T("{what} {sign}{amount} ({ms}{mine} here, {ts}{theirs} in #{other})")


def part(name: str, value: float, tr: Translate = english) -> str:
    """A feature in words and its signed part ("question words in the title −1.51"; the number a plain one, so
    the window writes it with its language's decimal separator)."""
    return tr(PART).format(what=feature(name, tr), sign="+" if value >= 0 else "−", amount=amount(abs(value)))


def gap_parts(mine: Mapping[str, float], other: Mapping[str, float]) -> list[tuple[str, float]]:
    """Each feature's part of `mine` minus `other`'s, the biggest differences first (those that decide)."""
    names = list(dict.fromkeys([*mine, *other]))
    diffs = [(n, mine.get(n, 0.0) - other.get(n, 0.0)) for n in names]
    return sorted((d for d in diffs if abs(d[1]) >= 5e-4), key=lambda d: -abs(d[1]))


def rank_gap(rank: int, other: int, mine: Mapping[str, float], theirs: Mapping[str, float],
             tr: Translate = english, n: int = WHY_FEATURES) -> str:
    """Why the candidate ranked `rank` sits where it does against the one ranked `other` (the row above it, or
    for the first row the one below), from the features' parts: the total gap and what made most of it."""
    gaps = gap_parts(mine, theirs)
    total = sum(mine.values()) - sum(theirs.values())
    above = rank < other
    named = gaps[:n]
    # more parts are named while what the others leave of the gap outweighs the smallest named one (up to 2n): the
    # leftover must not be what separates the two rows
    while len(named) < min(len(gaps), 2 * n) and named and \
            abs(total - sum(d for _, d in named)) > max(min(abs(d) for _, d in named), 0.05):
        named = gaps[: len(named) + 1]
    def said(f: str, d: float) -> str:
        # each number plain, its sign apart: the window writes plain numbers with its language's decimal separator
        (ms, m), (ts, t) = own(mine.get(f, 0.0)), own(theirs.get(f, 0.0))
        return tr(GAP_PART).format(what=feature(f, tr), sign="+" if d >= 0 else "−", amount=amount(abs(d)),
                                   ms=ms, mine=m, ts=ts, theirs=t, other=other)

    def own(v: float) -> tuple[str, str]:
        if abs(v) < 5e-4:
            return "", "0"  # a part the row has not
        return "+" if v >= 0 else "−", amount(abs(v))

    pro = ", ".join(said(f, d) for f, d in named if d > 0)
    con = ", ".join(said(f, d) for f, d in named if d < 0)
    sides = [tr(FOR_IT).format(parts=pro) if pro else "", tr(AGAINST_IT).format(parts=con) if con else ""]
    if not above:  # the side that made the gap first
        sides.reverse()
    why = "; ".join(x for x in sides if x)
    rest = total - sum(d for _, d in named)
    if why and abs(rest) >= 5e-3:  # what the named parts leave of the gap: they add up to it
        why += "; " + tr(PART).format(what=tr(OTHER_PARTS), sign="+" if rest >= 0 else "−", amount=amount(abs(rest)))
    return tr(ABOVE if above else BELOW).format(rank=rank, other=other, gap=amount(abs(total)),
                                                why=why or tr(NO_PARTS))

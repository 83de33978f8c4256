"""The core's codes in the window's language: the trace (decision, stages, notes built from the numbers), index
health reasons, errors and notices, and the ranker's features."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from PySide6.QtCore import QCoreApplication, QLocale

from vaultrag.core import wording
from vaultrag.core.llm.generator import LLMError
from vaultrag.core.model import QueryTrace, QueryWarning, Stage, Tiers
from vaultrag.core.vocab import LLMFailure, Problem, Reason, StageName, StageStatus, ThresholdSource
from vaultrag.errors import PROBLEM_CONTEXT, Notice, UserFacingError, problem_words

if TYPE_CHECKING:
    from collections.abc import Mapping

    from vaultrag.core.health import NoteState
    from vaultrag.core.vocab import Verdict


def tr(text: str) -> str:
    return QCoreApplication.translate("", text)  # lupdate files module-level tr() under ""


def stage_words() -> dict[StageName, tuple[str, str]]:
    """Each ranked list's column title and its short name (a fused candidate's parts), in the window's language:
    the one place a new ranked stage adds its words."""
    return {StageName.BM25: (tr("Keywords (BM25)"), tr("keywords")),
            StageName.VECTOR: (tr("Meaning (vectors)"), tr("meaning")),
            StageName.FUSED: (tr("Fused (RRF)"), tr("fused score")),
            StageName.RERANKED: (tr("Reranked"), tr("reranked")),
            StageName.CONTEXT: (tr("Context (prompt)"), tr("context"))}


def stage_title(name: StageName) -> str:
    """A ranked list's title (a stage without words yet goes by its name)."""
    return stage_words().get(name, (str(name), ""))[0]


def status_word(status: StageStatus) -> str:
    return {StageStatus.OK: tr("ok"), StageStatus.EMPTY: tr("nothing matched"),
            StageStatus.PARTIAL: tr("partial"), StageStatus.UNAVAILABLE: tr("unavailable"),
            StageStatus.SKIPPED: tr("skipped")}[status]


def wording_tr(text: str) -> str:
    """A template of the core's wording (`core/wording.py`) in the window's language; its numbers are written as
    the language writes them (0,303 in Portuguese) when the core formats it."""
    return LocalTemplate(QCoreApplication.translate(wording.CONTEXT, text))


def tier_shares(t: Tiers) -> str:
    """Each vector tier's share of the vault's chunks ("fast vectors 100 % · full-quality vectors 37 %")."""
    return wording.tier_shares(t.chunks, t.fast, t.full, wording_tr)


def source_word(source: ThresholdSource) -> str:
    return wording.threshold_source(source, wording_tr)


def stage_note(trace: QueryTrace, stage: Stage) -> str:
    """Why a stage was skipped, partial or unavailable, in words by its reason code; else its details."""
    if stage.status == StageStatus.OK:
        return ""
    return wording.stage_reason(trace, stage, wording_tr) or stage.note


def decision_reason(trace: QueryTrace) -> str:
    """The decision in words, from its code and numbers (so it is translated and never disagrees with them)."""
    return wording.decision_reason(trace.decision, wording_tr)


def refusal_plain(trace: QueryTrace) -> str:
    """A refusal in one plain sentence (the words no note uses, or the silent note on the topic), or ""."""
    return wording.refusal_plain(trace.decision, wording_tr)


def warning_text(warning: QueryWarning) -> str:
    return wording.warning(warning, wording_tr)


# -- issue 13: index health reasons, the core's errors and the ranker's features, worded by code --------------------
def reason_text(code: Reason) -> str:
    """A note's (or the index's) reason in words, by its code (never by the core's English text)."""
    return wording.reason(code, wording_tr)


def flag_word(flag: str) -> str:
    """What a flagged note tries (a NoteFlag code), in words; an unknown code as it is."""
    return wording.flag(flag, wording_tr)


def note_reason(n: NoteState) -> str:
    """A health list's reason for one note: worded by code, with its numbers (the core's text for no code)."""
    if n.code == Reason.TRUNCATED:
        return tr("{n} chunk(s) longer than the model's input limit (cut to fit)").format(n=n.truncated)
    if n.code == Reason.FLAGGED:
        return reason_text(n.code) + ": " + ", ".join(flag_word(f) for f in n.flags)
    if n.code in (Reason.UNRESOLVED_LINK, Reason.MISSING_HEADING):  # the link as written, in any language
        return f"{n.reason} {reason_text(n.code)}"
    return reason_text(n.code) if n.code != Reason.NONE else n.reason


def problem_text(problem: Problem, d: dict[str, str]) -> str:
    """A core error or notice in the window's language: its code's words (vaultrag/errors.py's PROBLEM_WORDS, the
    CLI's too) filled with its details."""
    return problem_words(problem, d, lambda text: QCoreApplication.translate(PROBLEM_CONTEXT, text))


# the generation backends whose missing packages have words of their own (the others: MODEL_NEEDS_PACKAGE)
MISSING_BACKEND = {"openai": LLMFailure.NOT_INSTALLED, "local": LLMFailure.NO_RUNTIME}


def backend_missing(backend: str, in_settings: bool = False) -> str:
    """Why a generation backend cannot run here, in words: a package it imports is not installed ("" when they all
    are). Found before a question is asked, so the answer pane and Settings say it, not only `ask --json`."""
    import importlib.util

    from vaultrag.engines import GENERATORS

    engine = GENERATORS.get(backend)
    if engine is None or all(importlib.util.find_spec(p) is not None for p in engine.packages):
        return ""
    code = MISSING_BACKEND.get(engine.name)
    if code is not None:
        return llm_failure_text(code, {"detail": engine.install}, in_settings)
    missing = [p for p in engine.packages if importlib.util.find_spec(p) is None]
    return problem_text(Problem.MODEL_NEEDS_PACKAGE, {"what": engine.name, "packages": ", ".join(missing),
                                                       "install": engine.install, "fault": "absent"})


def llm_failure_text(kind: LLMFailure, details: dict[str, str], in_settings: bool = False) -> str:
    """A language model failure in the window's language, from its code and details (the core's templates);
    `in_settings`: on Settings' language model page, its fixes named as that page's fields."""
    return wording.llm_failure(kind, details, wording_tr, in_settings)


def user_message(error: UserFacingError | Notice | str, in_settings: bool = False) -> str:
    """What the window says about a core error or notice: worded by its code in the window's language; the
    core's English when it has no code (or is already text). `in_settings`: a language model's failure said on
    Settings' language model page."""
    if isinstance(error, str):
        return error
    if isinstance(error, LLMError):
        return llm_failure_text(error.kind, error.details, in_settings)
    problem = error.problem
    return problem_text(problem, error.details) if problem is not None else str(error)


def feature_name(name: str) -> str:
    """A ranker feature (or a fused list) by its words (core/wording.py's FEATURE, shared with `vaultrag why`); a
    feature without words yet read from its name's parts, never as `snake_case`."""
    stage = stage_words().get(StageName(name))
    return stage[1] if stage else wording.feature(name, wording_tr)


def failures_text(counts: Mapping[Verdict, int]) -> str:
    """An evaluation's failures (where the gold was lost, by why-not verdict) in the window's language."""
    return wording.failures(counts, wording_tr)


def verdict_title(verdict: Verdict) -> str:
    """A why-not verdict's title ("Ranked below k"), as the why-not dialog heads it."""
    return wording_tr(wording.TITLE[verdict])


# -- issue 24: numbers as the window's language writes them ------------------------------------------------------
def locale() -> QLocale:
    """The window's language as a QLocale (numbers: 0,303 in Portuguese). It follows the translation in force: the
    Portuguese .ts translates this locale name, so a window without the translation writes 0.303."""
    return QLocale(QCoreApplication.translate("Locale", "en_US"))


def number(value: float, decimals: int) -> str:
    """`value` with `decimals` decimals, the window's decimal separator, no digit grouping."""
    loc = locale()
    loc.setNumberOptions(QLocale.NumberOption.OmitGroupSeparator)
    return loc.toString(float(value), "f", decimals)


_PLAIN_NUMBER = re.compile(r"-?\d+\.\d+")


class LocalNumber(float):
    """A float that formats itself (`{x:.3f}`, `{x:.0%}`) with the window's decimal separator."""

    def __format__(self, spec: str) -> str:
        text = float.__format__(float(self), spec)
        loc = locale()
        point, group = loc.decimalPoint(), loc.groupSeparator()
        # "{x:,.1f}" groups thousands with "," and "." before the decimals: both as the language writes them; a
        # negative sign as a real minus, as the core's `amount` writes the parts ("−0.38", not a dash)
        text = text.replace("-", "−")
        return text if point == "." else text.translate({ord(","): group, ord("."): point})


class LocalTemplate(str):
    """A translated template whose `format` writes its float arguments (and numbers already made text, like a
    score's) with the window's decimal separator: the core formats, the window's language decides the comma."""

    def format(self, *args: Any, **kwargs: Any) -> str:
        return str.format(self, *(_local(a) for a in args), **{k: _local(v) for k, v in kwargs.items()})


def local(text: str) -> LocalTemplate:
    """A window string (already translated) whose `format` writes its numbers as the window's language does."""
    return LocalTemplate(text)


def _local(value: Any) -> Any:
    if isinstance(value, float) and not isinstance(value, bool):
        return LocalNumber(value)
    if isinstance(value, str) and _PLAIN_NUMBER.fullmatch(value):
        return value.replace(".", locale().decimalPoint())
    return value

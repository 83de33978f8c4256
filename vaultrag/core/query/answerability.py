"""The answerability model: how likely the notes in the prompt answer the question (logistic, from a JSON file)."""

from __future__ import annotations

import functools
import json
import math
import re
from collections.abc import Sequence
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import TYPE_CHECKING, Any

import numpy as np

from vaultrag.core.language import stop_words
from vaultrag.core.marks import HEADING, hub_share
from vaultrag.core.query.features import stem
from vaultrag.core.query.stems import stem_prefix
from vaultrag.core.query.terms import SENTENCE, WORD, fold
from vaultrag.core.vocab import StageName
from vaultrag.engines import EMBEDDERS

if TYPE_CHECKING:
    from vaultrag.core.model import Candidate
    from vaultrag.core.query.state import QueryState

MODEL_FILE = "answerability.json"  # next to this module; written by benchmarks/train_answerability.py
# What the model reads of one candidate among those that reach the prompt, and of the question. The order is the
# data file's; a data file with other names is not used (the cosine rule decides instead).
FEATURES: tuple[str, ...] = (
    "ranker_p",  # the built-in ranker's softmax probability of this candidate over the final list
    "ranker_margin",  # its score minus the best other candidate's (#1: its lead over #2)
    # the cosine rule's confidence: the question's cosine with the chunk − BACKGROUND_WEIGHT × its cosine with the
    # vault's mean chunk (the fixed weight, not a learned one, is what transfers between vaults: docs/answerability.md)
    "cosine_rule",
    "cosine_vs_prompt",  # its cosine minus the mean cosine of the candidates that reach the prompt
    # the best sentence: the one holding most of the question's rare words other than its names and numbers (what
    # it asks about them); its window: it and the sentences beside it, where the answer's name or number may sit
    "sentence_cov",  # share of the question's content words in the best sentence
    "window_rare_cov",  # the question's words in the window, each weighted by its rarity in the vault (IDF)
    "chunk_rare_cov",  # the same anywhere in the chunk or its headings
    "rarest_missing",  # the IDF of the rarest question word absent from the window, over the rarest word's
    # the question says "not" (or "não", "nicht"…) and the window says no such word: the question asks the
    # opposite of what the passage states
    "negation_missing",
    "words_unknown",  # IDF-weighted share of the question's words that no chunk of the vault holds
    "names_unknown",  # share of the question's names that no chunk of the vault holds (an absent topic)
    "numbers_missing",  # share of the question's numbers absent from the window
    "names_missing",  # share of the question's names (capitalised words) absent from the window
    "type_found",  # the question asks for a kind (who → a name, when → a date, how many → a number, where → a
    "type_missing",  # place) and the window holds one / holds none
    "hub",  # the chunk is mostly links (a map-of-content note), when the index marks it
    "boilerplate",  # share of the chunk repeated across many notes (a template), when the index marks it
    "says_nothing",  # 1: no sentence of the chunk but its headings can hold an answer (a stub, a title, links)
)
# Word-matching features say nothing when the note is in another language than the question: a model trained on
# same-language questions refused most cross-language ones of a set it had not seen (docs/answerability.md). A
# candidate in another language than the question is judged by a second logistic model over CROSS_FEATURES, the
# features that mean the same in every language pair (how sure the ranker is, closeness in meaning), trained on
# every training set's candidates; its bias puts it on the first model's scale (its own threshold, set like the
# first one's, falls on the shipped threshold). Names and numbers survive translation too, but weighed in they
# passed more questions about articles left out of the vault (docs/answerability.md). A cross-language candidate's
# lexical features are computed as unknown (NaN).
CROSS_FEATURES: tuple[str, ...] = ("ranker_p", "ranker_margin", "cosine_rule", "cosine_vs_prompt", "says_nothing")
LEXICAL = frozenset({"sentence_cov", "window_rare_cov", "chunk_rare_cov", "rarest_missing", "negation_missing",
                     "words_unknown"})
BACKGROUND_WEIGHT = 0.75  # the cosine rule's (decide.py imports it from here)
MARGIN_CAP = 10.0  # a ranker margin beyond this says nothing more
WINDOW = 1  # sentences on each side of the best one where an answer's name, number or date may sit

NUMBER = re.compile(r"\d+(?:[.,]\d+)*")
YEAR = re.compile(r"\b(?:1[0-9]{3}|20[0-9]{2})\b")
CAPITALISED = re.compile(r"\b[A-ZÀ-ÖØ-Þ][\w'-]*")


def _folded(words: str) -> frozenset[str]:
    return frozenset(fold(w) for w in words.split())


NUMBER_WORDS = _folded(
    "one two three four five six seven eight nine ten eleven twelve twenty thirty forty fifty hundred thousand "
    "million billion dozen um uma dois duas três quatro cinco seis sete oito nove dez onze doze vinte trinta cem "
    "cento mil milhão milhões bilhão dúzia")
# the words that turn a statement into its opposite, per language (Portuguese "no" is "in the"); a language not
# listed gets English's and Portuguese's
NEGATIONS = {
    "en": _folded("not no never nor none neither without cannot didn doesn isn wasn aren weren don won wouldn "
                  "couldn shouldn hasn haven hadn"),
    "pt": _folded("não nunca nem nenhum nenhuma sem jamais"),
    "es": _folded("no nunca ni ninguno ninguna sin jamás tampoco"),
    "de": _folded("nicht kein keine keinen keiner keinem keines nie niemals ohne weder"),
}
# phrases whose negation word negates nothing ("apaguei sem querer": deleted by accident); a question holding one is
# not a negated question (the help vault's "Como recuperar uma nota que apaguei sem querer?" was refused at 0.044)
NOT_NEGATING = {"pt": ("sem querer", "sem querer querendo", "sem nenhum problema"),
                "es": ("sin querer", "sin ningún problema"), "en": ("without meaning to", "no matter"),
                "de": ("ohne absicht",)}


@functools.lru_cache(maxsize=1024)
def negation_words(question: str, language: str) -> frozenset[str]:
    """The question's words that negate it (folded), its idioms ("sem querer") left out."""
    text = fold(question.lower())
    for phrase in NOT_NEGATING.get(language, ()) if language else [p for ps in NOT_NEGATING.values() for p in ps]:
        text = text.replace(fold(phrase), " ")
    negations = NEGATIONS.get(language) or NEGATIONS["en"] | NEGATIONS["pt"]
    return frozenset(w for w in WORD.findall(text) if w in negations)


MONTHS = _folded(
    "january february march april may june july august september october november december janeiro fevereiro "
    "março abril maio junho julho agosto setembro outubro novembro dezembro century centuries século séculos")


class Kind:
    """What a question's cue word asks for."""

    NAME = "name"
    DATE = "date"
    NUMBER = "number"
    PLACE = "place"


# cue phrases per language (folded, lower case), longest first where one holds another
CUES: tuple[tuple[str, str], ...] = (
    ("how many", Kind.NUMBER), ("how much", Kind.NUMBER), ("what year", Kind.DATE), ("which year", Kind.DATE),
    ("what century", Kind.DATE), ("who", Kind.NAME), ("whom", Kind.NAME), ("whose", Kind.NAME),
    ("when", Kind.DATE), ("where", Kind.PLACE),
    ("quantos", Kind.NUMBER), ("quantas", Kind.NUMBER), ("quanto", Kind.NUMBER), ("quanta", Kind.NUMBER),
    ("que ano", Kind.DATE), ("qual ano", Kind.DATE), ("quem", Kind.NAME), ("quando", Kind.DATE),
    ("onde", Kind.PLACE),
    ("cuantos", Kind.NUMBER), ("cuantas", Kind.NUMBER), ("cuanto", Kind.NUMBER), ("cuanta", Kind.NUMBER),
    ("que ano", Kind.DATE), ("quien", Kind.NAME), ("quienes", Kind.NAME), ("cuando", Kind.DATE),
    ("donde", Kind.PLACE),
    ("wie viele", Kind.NUMBER), ("wie viel", Kind.NUMBER), ("wieviel", Kind.NUMBER), ("welchem jahr", Kind.DATE),
    ("welches jahr", Kind.DATE), ("wer", Kind.NAME), ("wem", Kind.NAME), ("wen", Kind.NAME), ("wessen", Kind.NAME),
    ("wann", Kind.DATE), ("wo", Kind.PLACE), ("wohin", Kind.PLACE), ("woher", Kind.PLACE),
)


def question_kind(question: str) -> str | None:
    """The kind of answer the question's cue word asks for (None: no cue, a "what"/"how" question)."""
    words = " ".join(WORD.findall(fold(question.lower())))
    padded = f" {words} "
    found = [(padded.find(f" {cue} "), kind) for cue, kind in CUES if f" {cue} " in padded]
    return min(found)[1] if found else None


@dataclass(frozen=True)
class Question:
    """What the model reads of the question once: its content stems with their IDF, numbers, names, cue."""

    idf: dict[str, float]  # content stem → its weight (the rarest of the words that share it)
    topic: frozenset[str]  # the content stems that are not names or numbers (what the question asks about them)
    numbers: frozenset[str]
    names: frozenset[str]  # folded, lower case
    known_names: frozenset[str]  # the names some chunk of the vault holds (checked across languages)
    words_unknown: float  # IDF-weighted share of the content words no chunk holds
    kind: str | None
    words: frozenset[str]  # every word of the question, folded, lower case


def numbers_of(text: str) -> set[str]:
    return {re.sub(r"[.,]", "", n) for n in NUMBER.findall(text)}


def read_question(q: QueryState) -> Question:
    """The question's words weighted by their rarity in the index (one FTS5 vocabulary read)."""
    stops = stop_words(q.language)
    words = [w for w in dict.fromkeys(w.lower() for w in WORD.findall(q.question)) if w not in stops]
    n = max(q.store.chunk_total(), 1)
    folded = [fold(w) for w in words]
    df = dict(zip(folded, q.store.doc_freqs(folded), strict=True)) if folded else {}
    idf: dict[str, float] = {}
    for w, f in zip(words, folded, strict=True):
        weight = math.log((n + 1) / (df[f] + 1)) + 1.0
        s = stem(w)
        idf[s] = max(idf.get(s, 0.0), weight)
    tokens = WORD.findall(q.question.lstrip("¿¡\"'“ "))
    first = tokens[0] if tokens else ""
    names = {fold(m.lower()) for m in CAPITALISED.findall(q.question) if m != first and m.lower() not in stops}
    numbers = frozenset(numbers_of(q.question))
    named = {stem(x) for x in names} | {stem(x) for x in numbers}
    topic = frozenset(idf) - named
    # a word the vault holds in another form ("apagar" for "apaguei") is not unknown (stems.stem_prefix)
    unknown = sum(idf[stem(w)] for w, f in zip(words, folded, strict=True)
                  if df[f] == 0 and not q.store.holds_prefix(stem_prefix(w, q.language)))
    return Question(idf, topic, numbers, frozenset(names), frozenset(x for x in names if df.get(x, 0) > 0),
                    unknown / (sum(idf.values()) or 1.0), question_kind(q.question),
                    frozenset(fold(w.lower()) for w in WORD.findall(q.question)))


def unknown_words(q: QueryState) -> list[str]:
    """The question's content words that no chunk of the vault holds in any form ("apaguei" is known where a note
    says "apagar": stems.stem_prefix), as asked and in its order ([] for a question in none of the vault's
    languages: there every word would be one)."""
    languages = q.store.vault_languages()
    if languages and q.language not in languages:
        return []
    stops = stop_words(q.language)
    idioms = {fold(w) for p in NOT_NEGATING.get(q.language, ()) if fold(p) in fold(q.question.lower())
              for w in WORD.findall(p)}  # "sem querer" says how, not what: its "querer" is no word to look for
    words = [w for w in dict.fromkeys(WORD.findall(q.question)) if w.lower() not in stops and not w.isdigit()
             and fold(w.lower()) not in idioms]
    freqs = q.store.doc_freqs([fold(w.lower()) for w in words]) if words else []
    return [w for w, f in zip(words, freqs, strict=True)
            if f == 0 and not q.store.holds_prefix(stem_prefix(w, q.language))]


QUESTION_END = re.compile(r"\?[\s\"'”»)*_]*$")  # a sentence that asks, even in quotes or bold


ANSWER_WORDS = 3  # a question followed by a statement of this many words or more is asked and answered (a FAQ)


def _asks(sentence: str) -> bool:
    return bool(QUESTION_END.search(sentence))


def _states(sentence: str) -> bool:
    return not _asks(sentence) and hub_share(sentence) < 1.0


def answers(sentence: str, following: str = "") -> bool:
    """Whether a sentence can hold an answer: it says something and is not mostly links (a map of content names
    every topic); a question only with its answer after it (`following`, a FAQ's "How do I…? Run…"), not in a list
    of questions (a note's example questions match every question they list)."""
    if _asks(sentence):
        return _states(following) and len(WORD.findall(following)) >= ANSWER_WORDS
    return hub_share(sentence) < 1.0


@functools.lru_cache(maxsize=4096)
def sentences_of(text: str) -> tuple[tuple[str, frozenset[str], frozenset[str]], ...]:
    """Each sentence of `text` that can hold an answer (see `answers`): itself, its stems and its folded
    lower-case words (cached: chunks come back)."""
    out = []
    split = [s for s in SENTENCE.split(text) if s.strip()]
    for i, s in enumerate(split):
        if answers(s, split[i + 1] if i + 1 < len(split) else ""):
            words = frozenset(fold(w.lower()) for w in WORD.findall(s))
            out.append((s, frozenset(stem(w) for w in words), words))
    return tuple(out)


def _has_kind(kind: str, sentences: Sequence[str], question_words: frozenset[str]) -> bool:
    text = " ".join(sentences)
    if kind == Kind.NUMBER:
        return bool(NUMBER.search(text)) or any(fold(w.lower()) in NUMBER_WORDS for w in WORD.findall(text))
    if kind == Kind.DATE:
        return bool(YEAR.search(text)) or any(fold(w.lower()) in MONTHS for w in WORD.findall(text))
    # a name or a place: a capitalised word the question does not already say, not at a sentence's start
    for s in sentences:
        tokens = CAPITALISED.findall(s)
        first = WORD.findall(s)[:1]
        if any(t not in first and fold(t.lower()) not in question_words for t in tokens):
            return True
    return False


def candidate_row(qi: Question, q: QueryState, c: Candidate, probs: dict[int, float],
                  margins: dict[int, float], background: float, languages: dict[str, str]) -> list[float]:
    """The FEATURES of one candidate."""
    chunk = q.chunks[c.chunk_id]
    sents = sentences_of(chunk.lead + chunk.body)
    total = sum(qi.idf.values()) or 1.0
    wanted = set(qi.idf)
    aim = qi.topic or frozenset(qi.idf)  # the best sentence is found by the question's topic words

    def rare(stems: frozenset[str], among: frozenset[str] | set[str] = wanted) -> float:
        return sum(w for s, w in qi.idf.items() if s in stems and s in among)

    best = max(range(len(sents)), key=lambda i: rare(sents[i][1], aim), default=0)
    window = sents[max(0, best - WINDOW): best + WINDOW + 1]
    near = frozenset().union(*(st for _, st, _ in window)) if window else frozenset()
    near_words = frozenset().union(*(w for _, _, w in window)) if window else frozenset()
    near_numbers = set().union(*(numbers_of(x) for x, _, _ in window)) if window else set()
    heading = frozenset(stem(fold(w.lower())) for w in WORD.findall(chunk.prefix))
    every = heading.union(*(st for _, st, _ in sents)) if sents else heading
    note_language = languages.get(chunk.note, "")
    says_nothing = not any(not HEADING.match(x) for x, _, _ in sents)
    # a chunk that states nothing has no language to judge by (its note's language, detected on a title alone,
    # is a guess: an emptied English note came out Danish), so the same-language model, which reads its words
    same = not q.language or not note_language or note_language == q.language or says_nothing
    names = qi.names if same else qi.known_names  # across languages only the names the vault holds are names
    if same:
        best_stems = sents[best][1] if sents else frozenset()
        sentence_cov = len(wanted & best_stems) / len(wanted) if wanted else 0.0
        missing = [w for s, w in qi.idf.items() if s not in near]
        negations = NEGATIONS.get(q.language) or NEGATIONS["en"] | NEGATIONS["pt"]
        negation = float(bool(negation_words(q.question, q.language)) and not near_words & negations)
        lexical = [sentence_cov, rare(near) / total, rare(every) / total,
                   max(missing, default=0.0) / (max(qi.idf.values(), default=0.0) or 1.0), negation,
                   qi.words_unknown]
    else:
        lexical = [math.nan] * len(LEXICAL)
    numbers_missing = (len(qi.numbers - near_numbers) / len(qi.numbers)) if qi.numbers else 0.0
    names_missing = (len(names - near_words) / len(names)) if names else 0.0
    found = missing_kind = 0.0
    if qi.kind is not None:
        has = _has_kind(qi.kind, [x for x, _, _ in window], qi.words)
        found, missing_kind = (1.0, 0.0) if has else (0.0, 1.0)
    names_unknown = len(qi.names - qi.known_names) / len(qi.names) if qi.names else 0.0
    # no vector yet (a backlog): its closeness in meaning is unknown (read as the usual value), not a cosine of 0
    rule = c.cosine - BACKGROUND_WEIGHT * background if c.cosine is not None else math.nan
    return [probs.get(c.chunk_id, 0.0), margins.get(c.chunk_id, 0.0), rule, 0.0, *lexical,
            names_unknown, numbers_missing, names_missing, found, missing_kind,
            float(getattr(chunk, "hub", 0.0) or 0.0), float(getattr(chunk, "boilerplate", 0.0) or 0.0),
            float(says_nothing), float(same)]


def ranker_odds(final: Sequence[Candidate]) -> tuple[dict[int, float], dict[int, float]]:
    """Each candidate's softmax probability over the final list's scores and its margin over the best other."""
    if not final:
        return {}, {}
    scores = np.array([c.score for c in final], dtype=np.float64)
    p = np.exp(scores - scores.max())
    p /= p.sum()
    top = np.sort(scores)[::-1]
    margins = {}
    for c in final:
        other = top[1] if c.score >= top[0] and len(top) > 1 else top[0]
        margins[c.chunk_id] = float(np.clip(c.score - other, -MARGIN_CAP, MARGIN_CAP)) if len(top) > 1 else \
            MARGIN_CAP
    return {c.chunk_id: float(v) for c, v in zip(final, p, strict=True)}, margins


def feature_rows(q: QueryState, candidates: Sequence[Candidate], background: float) -> tuple[np.ndarray, np.ndarray]:
    """The FEATURES of `candidates` (those that reach the prompt), rows in their order, and whether each one's note
    is in the question's language."""
    qi = read_question(q)
    probs, margins = ranker_odds(q.final)
    languages = q.note_languages([q.chunks[c.chunk_id].note for c in candidates])
    rows = np.array([candidate_row(qi, q, c, probs, margins, background, languages)
                     for c in candidates],
                    dtype=np.float64).reshape(len(candidates), len(FEATURES) + 1)
    # beside the prompt's known cosines (a candidate without a vector yet, in a backlog, is unknown: its 0 dragged
    # the mean down and made every other candidate look far closer than usual)
    cosines = np.array([c.cosine if c.cosine is not None else math.nan for c in candidates], dtype=np.float64)
    known = cosines[~np.isnan(cosines)]
    rows[:, FEATURES.index("cosine_vs_prompt")] = cosines - known.mean() if len(known) else math.nan
    return rows[:, :-1], rows[:, -1] > 0.5


@dataclass(frozen=True)
class Support:
    """The model's verdict on the best-supported candidate: its probability, each feature's value and its part of
    the logit."""

    chunk_id: int
    probability: float
    logit: float
    contributions: dict[str, float]
    values: dict[str, float]  # each feature's value (those the model read: a cross-language one's CROSS_FEATURES)
    usual: dict[str, float]  # each of those features' mean in the judging model's training data (its part's zero)
    bias: float  # the logit without the contributions (the bias of the model that judged it)
    same_language: bool  # False: its note is in another language than the question, the cross-language model judged
    probabilities: dict[int, float]  # every candidate that reaches the prompt


@dataclass(frozen=True)
class Logistic:
    """One logistic model over FEATURES: mean, scale and weight per feature (weight 0 for those it does not read)."""

    mean: np.ndarray
    scale: np.ndarray
    weights: np.ndarray
    bias: float

    @classmethod
    def read(cls, data: dict[str, Any], features: Sequence[str]) -> Logistic:
        """The model of a data file's block over `features`, spread over FEATURES."""
        if list(data.get("features", [])) != list(features):
            raise ValueError("the answerability data file does not match this version's features")
        mean, scale, weights = np.zeros(len(FEATURES)), np.ones(len(FEATURES)), np.zeros(len(FEATURES))
        at = [FEATURES.index(f) for f in features]
        mean[at] = np.asarray(data["mean"], dtype=np.float64)
        scale[at] = np.asarray(data["scale"], dtype=np.float64)
        weights[at] = np.asarray(data["weights"], dtype=np.float64)
        return cls(mean, scale, weights, float(data["bias"]))

    def parts(self, x: np.ndarray) -> np.ndarray:
        """Each feature's part of the logit of rows `x` (an unknown one, NaN, counts as its mean: a part of 0)."""
        parts: np.ndarray = (np.where(np.isnan(x), self.mean, x) - self.mean) / self.scale * self.weights
        return parts


class Answerability:
    """p = sigmoid(bias + Σ weight_f × (x_f − mean_f) / scale_f); each term is that feature's contribution. Two such
    models: one for a candidate in the question's language, one over CROSS_FEATURES for a candidate in another."""

    def __init__(self, data: dict[str, Any]) -> None:
        self.same = Logistic.read(data, FEATURES)
        self.cross = Logistic.read(data["cross_language"], CROSS_FEATURES)
        self.model_id = str(data["id"])
        self.ranker = str(data["ranker"])  # the reranker whose scores it was trained on
        # the model ids of the embedder whose cosines it was trained on: its registry entry's, or the file's own
        # prefix (a model trained on another embedder)
        engine = EMBEDDERS.get(str(data.get("embedder", "")))
        self.embedder_prefix = str(data.get("embedder_prefix") or (engine.model_prefix if engine else ""))
        if not self.embedder_prefix:
            raise ValueError("the answerability data file names no embedder it was trained on")
        self.threshold = float(data["threshold"])  # the shipped threshold on the probability

    @classmethod
    def load(cls, path: str | Path | None = None) -> Answerability | None:
        """The model in `path`, or the one shipped inside the package; None when it cannot be read (the cosine
        rule decides then)."""
        try:
            if path is None:
                text = resources.files("vaultrag.core.query").joinpath(MODEL_FILE).read_text(encoding="utf-8")
            else:
                text = Path(path).read_text(encoding="utf-8")
            return cls(json.loads(text))
        except (OSError, ValueError, KeyError, TypeError, IndexError):
            return None

    def explain(self, x: np.ndarray, same: np.ndarray | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
        """(logits, per-feature contributions, biases) for the feature rows `x` (an unknown feature, NaN, counts as
        its training mean: a contribution of 0). A row whose note is in another language than the question (`same`
        False) is judged by the cross-language model."""
        parts = self.same.parts(x)
        biases = np.full(len(x), self.same.bias)
        if same is not None and not same.all():
            cross = ~same
            parts[cross] = self.cross.parts(x[cross])
            biases[cross] = self.cross.bias
        return parts.sum(axis=1) + biases, parts, biases

    def runs_on(self, q: QueryState) -> bool:
        """Whether the model can judge this question: the final list is the ranker it was trained on, over the
        cosines of the embedder it was trained on (another model's cosines live on another scale)."""
        return (q.final_stage == StageName.RERANKED and q.reranker_id == self.ranker
                and q.index_state.model.startswith(self.embedder_prefix))

    def support(self, q: QueryState, candidates: Sequence[Candidate], background: float) -> Support:
        """The best-supported of `candidates` (those that reach the prompt, at least one)."""
        rows, same = feature_rows(q, candidates, background)
        logits, parts, biases = self.explain(rows, same)
        # a candidate without a vector yet (a backlog) is judged without its meaning: it is the evidence only when no
        # candidate has a vector
        judged = np.array([c.cosine is not None for c in candidates])
        if not judged.any():
            judged[:] = True
        best = int(np.argmax(np.where(judged, logits, -np.inf)))
        probs = 1.0 / (1.0 + np.exp(-logits))
        read = FEATURES if same[best] else CROSS_FEATURES
        values = {f: float(v) for f, v in zip(FEATURES, rows[best], strict=True) if f in read and not math.isnan(v)}
        judge = self.same if same[best] else self.cross
        usual = {f: float(m) for f, m in zip(FEATURES, judge.mean, strict=True) if f in values}
        return Support(candidates[best].chunk_id, float(probs[best]), float(logits[best]),
                       {f: float(v) for f, v in zip(FEATURES, parts[best], strict=True) if f in read}, values, usual,
                       float(biases[best]), bool(same[best]),
                       {c.chunk_id: float(p) for c, p in zip(candidates, probs, strict=True)})


@functools.lru_cache(maxsize=1)
def shipped() -> Answerability | None:
    """The model shipped inside the package (read once)."""
    return Answerability.load()

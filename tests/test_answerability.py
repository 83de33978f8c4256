"""The answerability model: its data file, its features on a real index, its decision and its fallback."""

from __future__ import annotations

import hashlib
import json
from pathlib import Path

import numpy as np
import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import wording
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.query import answerability
from vaultrag.core.query.answerability import FEATURES, Answerability, question_kind
from vaultrag.core.query.search import PIPELINE, Searcher
from vaultrag.core.query.stages.decide import DecideStage, threshold_key
from vaultrag.core.rerankers.builtin import LearnedRanker
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import DecisionReason
from vaultrag.settings import Settings


def model_data(**changes: object) -> dict:
    """A model over FEATURES that likes the sentence coverage and dislikes missing names."""
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("window_rare_cov")] = 2.0
    weights[FEATURES.index("names_missing")] = -1.5
    data = {"id": "answer-test", "ranker": "builtin-lr1", "embedder_prefix": "fake/",  # the counting fake's cosines
            "threshold": 0.5, "features": list(FEATURES),
            "mean": [0.1] * len(FEATURES), "scale": [0.5] * len(FEATURES), "weights": weights, "bias": -0.25,
            "cross_language": {"rule_threshold": 0.26, "slope": 30.0}}
    return {**data, **changes}


def test_the_shipped_model_loads_and_matches_the_features():
    m = answerability.shipped()
    assert m is not None, "vaultrag/core/query/answerability.json must ship with the package"
    assert m.model_id and 0.0 < m.threshold < 1.0 and len(m.weights) == len(FEATURES)


def test_a_missing_or_mismatched_file_gives_no_model(tmp_path: Path):
    assert Answerability.load(tmp_path / "nowhere.json") is None
    bad = tmp_path / "bad.json"
    bad.write_text(json.dumps(model_data(features=["cosine"])), encoding="utf-8")
    assert Answerability.load(bad) is None
    bad.write_text("{not json", encoding="utf-8")
    assert Answerability.load(bad) is None
    good = tmp_path / "good.json"
    good.write_text(json.dumps(model_data()), encoding="utf-8")
    m = Answerability.load(good)
    assert m is not None and m.model_id == "answer-test"


def test_contributions_sum_to_the_logit():
    m = Answerability(model_data())
    rng = np.random.default_rng(3)
    x = rng.random((4, len(FEATURES)))
    logits, parts, biases = m.explain(x)
    assert np.allclose(parts.sum(axis=1) + m.bias, logits) and np.allclose(biases, m.bias)
    i, j = FEATURES.index("window_rare_cov"), FEATURES.index("names_missing")
    assert np.allclose(parts[:, i], (x[:, i] - 0.1) / 0.5 * 2.0) and np.allclose(parts[:, j], (x[:, j] - 0.1) / 0.5
                                                                                   * -1.5)
    assert np.count_nonzero(parts[0]) == 2  # a feature weighted 0 contributes nothing


def test_a_cross_language_candidate_is_judged_by_the_cosine_rule_on_the_models_scale():
    """A note in another language than the question: the word features say nothing there, so the cosine rule
    decides it, passing at the model's threshold exactly when the rule passes at its own."""
    rule = FEATURES.index("cosine_rule")
    x = np.full((4, len(FEATURES)), 0.9)  # word features that would make the model sure
    x[:, rule] = [0.30, 0.25, 0.30, 0.25]
    same = np.array([True, True, False, False])
    for t in (0.4, 0.7):
        m = Answerability(model_data(threshold=t))
        logits, parts, biases = m.explain(x, same)
        p = 1 / (1 + np.exp(-logits))
        assert np.allclose(parts.sum(axis=1) + biases, logits)
        assert p[2] >= t > p[3], "the rule's threshold is 0.26: 0.30 passes, 0.25 does not"
        assert np.count_nonzero(parts[2]) == 1 and parts[2, rule] > 0 > parts[3, rule]
        assert p[0] == pytest.approx(p[1]), "same-language rows: the model (the rule's weight there is 0)"


def test_the_shipped_model_names_the_shipped_ranker():
    """A model trained on another ranker's scores falls back to the cosine rule at every question (runs_on): the
    shipped pair must match, else re-run benchmarks/train_answerability.py --write."""
    ranker_file = (Path(answerability.__file__).parents[1] / "rerankers" / "ranker.json").read_bytes()
    m = answerability.shipped()
    assert m is not None and m.ranker == json.loads(ranker_file)["id"] == LearnedRanker.load().model_id, \
        "the model was trained on another ranker's scores: re-run benchmarks/train_answerability.py --write"
    # a ranker retrained under the same id is another ranker too: the data file keeps the digest of the one it read
    shipped = json.loads((Path(answerability.__file__).parent / answerability.MODEL_FILE).read_text(encoding="utf-8"))
    assert shipped["ranker_sha256"] == hashlib.sha256(ranker_file).hexdigest()[:16], \
        "ranker.json changed since the answerability model was trained: re-run train_answerability.py --write"


@pytest.mark.parametrize(("question", "kind"), [
    ("Who wrote the report?", "name"), ("Quem aprovou a criação do curso?", "name"), ("When did it open?", "date"),
    ("Em que ano foi criado?", "date"), ("¿Cuántos estudiantes hay?", "number"), ("Wie viele Punkte gab es?", "number"),
    ("Onde fica a UFMS?", "place"), ("What is a callout?", None), ("How do I roll back a deploy?", None)])
def test_question_kind_by_cue_words(question: str, kind: str | None):
    assert question_kind(question) == kind


@pytest.fixture
def store(vault: Path, tmp_path: Path):
    write(vault, "Deploy.md", "# Deploy\n\nTo roll back a deploy, run kubectl rollout undo on the service.\n\n"
          "The nightly backup keeps 14 days of snapshots.\n")
    write(vault, "Home.md", "# Home\n\nAsk: how do I roll back a deploy? See [[Deploy]], [[Gym]], [[Trip]].\n")
    write(vault, "Trip.md", "# Trip\n\nThe flight to Lisbon leaves at 07:40 from gate 12, booked by Maria.\n")
    s = IndexStore.open(tmp_path / "idx.sqlite")
    run_to_end(Indexer(vault, s, IndexOptions(chunk_tokens=60), CountingEmbedder()).run())
    yield s
    s.close()


def searcher_with(store: IndexStore, model: Answerability | None) -> Searcher:
    units = [DecideStage(model) if u.name == "decide" else u for u in PIPELINE]
    return Searcher(store, Settings(), CountingEmbedder(), LearnedRanker.load(), units)


def test_the_model_decides_on_the_best_supported_candidate(store: IndexStore):
    m = Answerability(model_data())
    trace = searcher_with(store, m).ask("How do I roll back a deploy with kubectl?")
    d = trace.decision
    assert d.by_model and d.decider == "answer-test" and d.threshold == 0.5
    assert d.support is not None and set(d.support) <= {c.chunk_id for c in trace.final[:trace.settings["k"]]}
    assert d.confidence == max(d.support.values()) == d.support[d.supported_by]
    assert d.supported_note == "Deploy.md" and trace.answer.note == "Deploy.md"
    logit = sum(d.contributions.values()) + d.bias
    assert d.confidence == pytest.approx(1 / (1 + np.exp(-logit)))
    assert d.answered == (d.confidence >= 0.5) and d.margin == pytest.approx(d.confidence - 0.5)
    assert "Deploy.md" in wording.decision_reason(d)


def test_a_question_whose_name_is_nowhere_is_refused_with_the_feature_named(store: IndexStore):
    trace = searcher_with(store, Answerability(model_data(threshold=0.6))).ask("When does the flight to Porto "
                                                                              "booked by Pedro leave?")
    d = trace.decision
    assert d.by_model and not d.answered and d.reason == DecisionReason.BELOW_THRESHOLD
    assert d.contributions["names_missing"] < 0
    assert wording.answerability_word("names_missing") in wording.decision_reason(d)
    assert "lower" not in wording.decision_reason(d)


def test_without_the_model_or_with_another_ranker_the_cosine_rule_decides(store: IndexStore):
    for s in (searcher_with(store, None),
              Searcher(store, Settings(reranker="none"), CountingEmbedder(), None,
                       [DecideStage(Answerability(model_data())) if u.name == "decide" else u for u in PIPELINE]),
              searcher_with(store, Answerability(model_data(ranker="another-ranker")))):
        d = s.ask("roll back a deploy").decision
        assert not d.by_model and d.decider == "cosine" and d.support is None and d.contributions is None
        assert d.confidence == pytest.approx(d.top_cosine - d.background_weight * d.background)


def test_a_calibrated_threshold_is_kept_per_decider(store: IndexStore):
    m = Answerability(model_data())
    with store.transaction():
        store.set_meta(threshold_key(store.meta("embed_model") or "", "builtin-lr1", "answer-test"), "0.999")
    d = searcher_with(store, m).ask("How do I roll back a deploy with kubectl?").decision
    assert d.threshold == 0.999 and d.threshold_source == "calibrated" and not d.answered
    assert threshold_key("m", "r") == "threshold:m|r", "the cosine rule's calibrated thresholds keep their key"


def test_why_not_words_a_model_refusal_on_a_found_topic_without_lowering_the_threshold(store: IndexStore,
                                                                                       vault: Path):
    """The note on the topic is found and ranked, but the model refuses: "the notes on this topic do not say", and
    no advice to lower the threshold (the cosine rule's refusal still gets that advice)."""
    from vaultrag.core.quality.diagnose import diagnose
    from vaultrag.core.vocab import Verdict

    model_id = store.meta("embed_model") or ""
    with store.transaction():  # the cosine rule would pass it: the topic is in the notes
        store.set_meta(threshold_key(model_id, "builtin-lr1"), "-1.0")
    s = searcher_with(store, Answerability(model_data(threshold=0.9)))
    question = "When does the flight to Lisbon booked by Pedro leave?"
    d = diagnose(s, vault, question, "Trip.md")
    assert d.verdict == Verdict.BELOW_THRESHOLD and d.evidence.model_decision is not None
    assert d.evidence.model_decision.topic_found
    words = wording.diagnosis(d)
    assert "the notes on this topic do not say" in words.message and "Trip.md" in words.message
    assert "lower" not in words.advice.split("Lowering")[0] and "add it to the note" in words.advice
    rule = diagnose(searcher_with(store, None), vault, question, "Trip.md", threshold=2.0)
    assert rule.verdict == Verdict.BELOW_THRESHOLD and rule.evidence.model_decision is None
    assert "lower it in Settings" in wording.diagnosis(rule).advice


def test_a_cross_language_probability_does_not_depend_on_the_threshold_in_force(vault: Path, tmp_path: Path):
    """An English question on Portuguese notes: the cosine rule judges the candidates, on the model's own scale, so
    eval and calibration (which ask with the threshold off) read the probability the decision meets."""
    write(vault, "Implantação.md", "# Implantação\n\nPara desfazer uma implantação, execute kubectl rollout undo no "
          "serviço e confira os registros do cluster antes de avisar a equipe responsável pelo sistema.\n")
    write(vault, "Viagem.md", "# Viagem\n\nO voo para Lisboa sai às sete e quarenta do portão doze, reservado pela "
          "Maria com a agência de viagens da empresa no mês passado.\n")
    s = IndexStore.open(tmp_path / "pt.sqlite")
    try:
        run_to_end(Indexer(vault, s, IndexOptions(chunk_tokens=60), CountingEmbedder()).run())
        searcher = searcher_with(s, Answerability(model_data(threshold=0.4)))
        question = "How do I roll back a deployment of the service with kubectl?"
        trace = searcher.ask(question)
        default = trace.decision
        off = searcher.ask(question, threshold=float("-inf")).decision
        assert default.by_model and {k for k, v in default.contributions.items() if v} == {"cosine_rule"}
        assert off.confidence == pytest.approx(default.confidence) and off.threshold != default.threshold
        best = max(c.cosine for c in trace.final[: trace.settings["k"]])
        assert default.answered == (best - default.background_weight * default.background >= 0.26)
    finally:
        s.close()

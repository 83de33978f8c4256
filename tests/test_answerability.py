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
from vaultrag.core.query.answerability import CROSS_FEATURES, FEATURES, Answerability, question_kind
from vaultrag.core.query.search import PIPELINE, Searcher
from vaultrag.core.query.stages.decide import DecideStage, threshold_key
from vaultrag.core.rerankers.builtin import LearnedRanker
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import DecisionReason
from vaultrag.settings import Settings


def cross_data(**changes: object) -> dict:
    """A cross-language model that reads the cosine rule alone (0.26 at its threshold, 0.5 here)."""
    weights = [0.0] * len(CROSS_FEATURES)
    weights[CROSS_FEATURES.index("cosine_rule")] = 3.0
    data = {"features": list(CROSS_FEATURES), "mean": [0.26] * len(CROSS_FEATURES),
            "scale": [0.1] * len(CROSS_FEATURES), "weights": weights, "bias": 0.0}
    return {**data, **changes}


def model_data(**changes: object) -> dict:
    """A model over FEATURES that likes the sentence coverage and dislikes missing names."""
    weights = [0.0] * len(FEATURES)
    weights[FEATURES.index("window_rare_cov")] = 2.0
    weights[FEATURES.index("names_missing")] = -1.5
    data = {"id": "answer-test", "ranker": "builtin-lr1", "embedder_prefix": "fake/",  # the counting fake's cosines
            "threshold": 0.5, "features": list(FEATURES),
            "mean": [0.1] * len(FEATURES), "scale": [0.5] * len(FEATURES), "weights": weights, "bias": -0.25,
            "cross_language": cross_data()}
    return {**data, **changes}


def test_the_shipped_model_loads_and_matches_the_features():
    m = answerability.shipped()
    assert m is not None, "vaultrag/core/query/answerability.json must ship with the package"
    assert m.model_id and 0.0 < m.threshold < 1.0 and len(m.same.weights) == len(m.cross.weights) == len(FEATURES)
    # the cross-language model reads only the features that mean the same across languages
    assert {f for f, w in zip(FEATURES, m.cross.weights, strict=True) if w} <= set(CROSS_FEATURES)


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
    assert np.allclose(parts.sum(axis=1) + m.same.bias, logits) and np.allclose(biases, m.same.bias)
    i, j = FEATURES.index("window_rare_cov"), FEATURES.index("names_missing")
    assert np.allclose(parts[:, i], (x[:, i] - 0.1) / 0.5 * 2.0) and np.allclose(parts[:, j], (x[:, j] - 0.1) / 0.5
                                                                                   * -1.5)
    assert np.count_nonzero(parts[0]) == 2  # a feature weighted 0 contributes nothing


def test_a_cross_language_candidate_is_judged_by_the_cross_language_model():
    """A note in another language than the question: the word features say nothing there, so the second model,
    over the features that mean the same in every language, judges it; its parts are its own."""
    rule = FEATURES.index("cosine_rule")
    x = np.full((4, len(FEATURES)), 0.9)  # word features that would make the first model sure
    x[:, rule] = [0.30, 0.25, 0.30, 0.25]
    same = np.array([True, True, False, False])
    m = Answerability(model_data(threshold=0.5))
    logits, parts, biases = m.explain(x, same)
    p = 1 / (1 + np.exp(-logits))
    assert np.allclose(parts.sum(axis=1) + biases, logits) and biases[2] == 0.0 and biases[0] == -0.25
    assert p[2] >= 0.5 > p[3], "the cross model's 0.5 falls at a cosine rule of 0.26: 0.30 passes, 0.25 does not"
    assert np.count_nonzero(parts[2]) == 1 and parts[2, rule] > 0 > parts[3, rule]
    assert p[0] == pytest.approx(p[1]), "same-language rows: the first model (the rule's weight there is 0)"
    assert parts[2, rule] == pytest.approx((0.30 - 0.26) / 0.1 * 3.0)


def test_a_cross_language_model_over_a_word_feature_is_not_read():
    """The cross-language block lists its features; one over other features (a word feature, meaningless across
    languages) is another version's file: no model, the cosine rule decides."""
    with pytest.raises(ValueError, match="features"):
        Answerability(model_data(cross_language=cross_data(features=["sentence_cov", *CROSS_FEATURES[1:]])))
    assert Answerability(model_data()).cross.weights[FEATURES.index("cosine_rule")] == 3.0


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
    """The question searched as asked (translator "none"): these tests judge candidates in another language than
    the question, which a translation would turn into same-language ones (tests/test_translate.py has those)."""
    units = [DecideStage(model) if u.name == "decide" else u for u in PIPELINE]
    return Searcher(store, Settings(translator="none"), CountingEmbedder(), LearnedRanker.load(), units)


@pytest.mark.parametrize(("sentence", "can"), [
    ("To roll back a deploy, run kubectl rollout undo.", True), ("How do I roll back a deploy?", False),
    ('- "Qual o prazo do reembolso?"', False), ("**Where is it?**", False),
    ("[[Reembolso e cancelamentos]], [[Academia]], [[Deploy]].", False), ("See [[Deploy]] for the steps to roll "
                                                                           "back a release safely.", True)])
def test_a_sentence_that_asks_or_links_holds_no_answer(sentence: str, can: bool):
    assert answerability.answers(sentence) is can


def test_a_question_with_its_answer_after_it_counts_a_list_of_questions_does_not():
    """A FAQ's question and its answer are one statement; a note's example questions, one after another, are not."""
    assert answerability.answers("## How do I roll back a deploy?", "Run kubectl rollout undo on the service.")
    assert answerability.answers("**Where is the log?**", "In /var/log/app, rotated daily.")
    assert not answerability.answers('- "Qual o prazo do reembolso?"', '- "When does the flight to Lisbon leave?"')
    assert not answerability.answers('- "How do I roll back a deploy?"', "Notas:"), "a label is no answer"
    assert not answerability.answers("How do I roll back?", "See [[Deploy]], [[Rollback]] and [[Release notes]].")


def test_a_faq_notes_question_is_read_with_its_answer(vault: Path, tmp_path: Path):
    write(vault, "FAQ.md", "# FAQ\n\n## How do I roll back a deploy?\n\nRun kubectl rollout undo on the service.\n")
    s = IndexStore.open(tmp_path / "faq.sqlite")
    try:
        run_to_end(Indexer(vault, s, IndexOptions(chunk_tokens=60), CountingEmbedder()).run())
        d = searcher_with(s, Answerability(model_data())).ask("How do I roll back a deploy?").decision
        assert d.supported_note == "FAQ.md" and d.values is not None
        assert d.values["sentence_cov"] == 1.0, "the question line, with its answer after it, says every word"
    finally:
        s.close()


def test_a_hub_notes_questions_and_links_give_it_no_word_evidence(store: IndexStore):
    """Home.md lists the question and links to the note that answers it: none of its words count as the answer's
    (the ranker may still rank it high; the decision then rests on the note that says it)."""
    trace = searcher_with(store, Answerability(model_data())).ask("How do I roll back a deploy?")
    d = trace.decision
    assert d.supported_note == "Deploy.md"
    ids = {c.note: c.chunk_id for c in trace.final}
    assert "Home.md" in ids, "the hub note is a candidate"
    assert d.support is not None and d.support[ids["Home.md"]] < d.support[ids["Deploy.md"]]


def test_a_negated_question_the_passage_does_not_negate_is_marked(store: IndexStore):
    m = Answerability(model_data(weights=[-2.0 if f == "negation_missing" else 0.0 for f in FEATURES]))
    asked = searcher_with(store, m).ask("Which backup does not keep 14 days of snapshots?").decision
    plain = searcher_with(store, m).ask("Which backup keeps 14 days of snapshots?").decision
    assert asked.values is not None and asked.values["negation_missing"] == 1.0
    assert plain.values is not None and plain.values["negation_missing"] == 0.0
    assert asked.confidence is not None and plain.confidence is not None and asked.confidence < plain.confidence


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
    assert d.contributions["names_missing"] < 0 and d.values is not None and d.values["names_missing"] == 1.0
    # worded by its value (both names are missing), not by its part of the logit
    assert "all of the question's names are missing there" in wording.decision_reason(d)
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
    """An English question on Portuguese notes: the cross-language model judges the candidates, so eval and
    calibration (which ask with the threshold off) read the probability the decision meets."""
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
        assert set(default.values or {}) == set(CROSS_FEATURES), "the cross-language model reads no word feature"
        assert off.confidence == pytest.approx(default.confidence) and off.threshold != default.threshold
        best = max(c.cosine for c in trace.final[: trace.settings["k"]])
        assert default.confidence == pytest.approx(1 / (1 + np.exp(-3.0 * (best - default.background_weight
                                                                           * default.background - 0.26) / 0.1)))
    finally:
        s.close()


def test_the_decisions_words_give_each_value_and_say_one_fact_once():
    """The parts are worded by the features' values and the way they pushed; two features that say the same fact
    (no name missing and none unknown; a question that asks for no kind) are one line, their parts added."""
    from vaultrag.core.model import Decision
    from vaultrag.core.vocab import ThresholdSource

    d = Decision(False, 0.2, 0.3, -0.1, ThresholdSource.SHIPPED, DecisionReason.BELOW_THRESHOLD,
                 contributions={"names_missing": 0.35, "names_unknown": -0.2, "type_found": -0.03,
                                "type_missing": -0.01, "ranker_p": -0.8, "hub": 0.0},
                 values={"names_missing": 0.0, "names_unknown": 0.0, "type_found": 0.0, "type_missing": 0.0,
                         "ranker_p": 0.03, "hub": 0.0})
    assert wording.answerability_parts(d) == [
        ("the ranker is 3% sure of this passage: against answering", -0.8),
        ("none of the question's names is missing there: for answering", pytest.approx(0.15)),
        ("the question asks for no name, date, number or place: against answering", pytest.approx(-0.04))]
    assert wording.against(d) == ("against it: the ranker is 3% sure of this passage, the question asks for no "
                                  "name, date, number or place")
    d.values = None  # a trace from before the values were kept: the features' names in words
    assert wording.against(d).startswith("against it: the ranker's confidence in the passage")


def test_a_value_is_said_beside_its_usual_value_and_the_names_are_one_fact():
    """A part is measured from the training mean: "its lead is +1.4: against answering" reads wrong unless the usual
    lead is said beside it; names_unknown only corrects names_missing, so the two are one line, their parts added
    (apart, "no note mentions the question's names: for answering" stood beside "all of them are missing there")."""
    from vaultrag.core.model import Decision
    from vaultrag.core.vocab import ThresholdSource

    d = Decision(False, 0.2, 0.3, -0.1, ThresholdSource.SHIPPED, DecisionReason.BELOW_THRESHOLD,
                 contributions={"ranker_margin": -0.2, "names_missing": -1.05, "names_unknown": 0.61},
                 values={"ranker_margin": 1.4, "names_missing": 1.0, "names_unknown": 1.0},
                 usual={"ranker_margin": 2.31, "names_missing": 0.1, "names_unknown": 0.05})
    assert wording.answerability_parts(d) == [
        ("all of the question's names are missing there: against answering", pytest.approx(-0.44)),
        ("its lead over the next passage is +1.4, usually +2.3: against answering", -0.2)]
    d.usual = None  # a trace from before the usual values were kept: the value alone
    assert wording.answerability_parts(d)[1][0] == "its lead over the next passage is +1.4: against answering"


def test_a_chunk_that_states_nothing_is_marked_in_every_language(vault: Path, tmp_path: Path):
    """A stub note (a title and links) matches its topic's questions and answers none: `says_nothing` is 1 for it,
    for the model of either language (a title alone tells nothing of its language either)."""
    write(vault, "Deploy.md", "# Deploy\n\nTo roll back a deploy, run kubectl rollout undo on the service.\n")
    write(vault, "Roll back.md", "# Roll back a deploy\n\n- [[Deploy]]\n- [[Rollout]]\n")
    s = IndexStore.open(tmp_path / "stub.sqlite")
    try:
        run_to_end(Indexer(vault, s, IndexOptions(chunk_tokens=60), CountingEmbedder()).run())
        weights = [-3.0 if f == "says_nothing" else 0.0 for f in FEATURES]
        m = Answerability(model_data(weights=weights, cross_language=cross_data(
            weights=[-3.0 if f == "says_nothing" else 0.0 for f in CROSS_FEATURES])))
        trace = searcher_with(s, m).ask("How do I roll back a deploy?")
        d = trace.decision
        ids = {c.note: c.chunk_id for c in trace.final}
        assert {"Deploy.md", "Roll back.md"} <= set(ids) and d.support is not None
        assert d.supported_note == "Deploy.md" and d.values is not None and d.values["says_nothing"] == 0.0
        assert d.support[ids["Roll back.md"]] < 0.01 < d.support[ids["Deploy.md"]]
    finally:
        s.close()


def test_every_feature_has_words_for_its_value():
    """A new feature is worded by its value like the others (the window, `why` and `ask --explain` show it)."""
    for f in FEATURES:
        for v in (0.0, 0.5, 1.0):
            said = wording.answerability_value(f, {f: v})
            assert "_" not in said and said != wording.answerability_word(f), (f, v, said)

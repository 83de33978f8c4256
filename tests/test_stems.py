"""A question's inflection the notes do not use, found through its stem's prefix in a real index (FTS5's unicode61
tokenizer, the fake embedder): a preterite whose spelling rule leaves too short a stem ("fiquei"), and a German
"ß" Snowball writes as "ss" ("Straßen")."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.query.stems import inflected_match, stem_prefix, stem_prefixes


@pytest.fixture
def indexed(tmp_path: Path, vault: Path):  # type: ignore[no-untyped-def]
    """A searcher over a real index of `vault` (write its notes first), closed after the test."""
    from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.store.index_store import IndexStore
    from vaultrag.settings import Settings

    opened: list[IndexStore] = []

    def searcher() -> Searcher:
        store = IndexStore.open(tmp_path / "i.sqlite")
        opened.append(store)
        embedder = CountingEmbedder()
        run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
        return Searcher(store, Settings(), embedder, None)

    yield searcher
    for store in opened:
        store.close()


def bm25_notes(searcher, question: str, language: str) -> list[str]:  # type: ignore[no-untyped-def]
    trace = searcher.ask(question)
    assert trace.language == language, trace.language
    return [c.note for c in trace.stages["bm25"].candidates]


def test_a_preterite_whose_undone_spelling_is_short_finds_the_verbs_other_forms(vault: Path, indexed):
    """'fiquei' stems to 'fiqu' (Snowball keeps the 'u' of '-quei'); undone, 'fic' is shorter than a prefix may be
    ('ficha', 'ficção' would match): searched as the forms 'fica'*, 'fico'* and 'fiqu'* it was "fiqu"* alone, which
    found no note saying 'fico' or 'ficou'."""
    write(vault, "Viagem.md", "# Viagem\n\nNo verão eu fico em Lisboa; no ano passado ele ficou no Porto.\n")
    write(vault, "Ficha.md", "# Ficha\n\nA ficha técnica do projeto e a ficção científica.\n")
    write(vault, "Lixeira.md", "# Lixeira\n\nUma nota apagada vai para a lixeira do sistema.\n")
    searcher = indexed()
    assert bm25_notes(searcher, "Onde fiquei?", "pt") == ["Viagem.md"]
    assert '"fica"* OR "fico"* OR "fiqu"*' in searcher.ask("Onde fiquei?").stages["bm25"].note
    # the forms that keep the 'qu' are found too, and the word itself as written
    write(vault, "Conselho.md", "# Conselho\n\nFique atento aos horários do comboio.\n")
    assert set(bm25_notes(indexed(), "Onde fiquei?", "pt")) == {"Viagem.md", "Conselho.md"}


def test_a_german_sharp_s_is_searched_as_the_index_stores_it(vault: Path, indexed):
    """Snowball writes 'ß' as 'ss' ('Straßen' → 'strass'); unicode61 keeps 'ß' ('Straße' is the term 'straße'), so
    "strass"* found no note. The prefix is now in the index's letters ('straß')."""
    write(vault, "Wohnen.md", "# Wohnen\n\nDie Straße vor dem Haus ist ruhig und breit.\n")
    write(vault, "Garten.md", "# Garten\n\nIm Garten wachsen Tomaten und Bohnen.\n")
    searcher = indexed()
    assert bm25_notes(searcher, "Wo sind die Straßen?", "de") == ["Wohnen.md"]
    # the answerability model's "does the vault hold this word in another form?" reads the same prefix
    assert searcher.store.holds_prefix(stem_prefix("Straßen", "de"))
    assert searcher.store.holds_prefix(stem_prefix("Größen", "de")) is False  # no note says 'Größe'
    write(vault, "Maße.md", "# Maße\n\nDie Größe des Gartens ist zwanzig Quadratmeter.\n")
    assert indexed().store.holds_prefix(stem_prefix("Größen", "de"))


def test_stem_prefixes_are_in_the_letters_the_index_stores():
    assert stem_prefixes("fiquei", "pt") == ("fica", "fico", "fiqu") and stem_prefix("fiquei", "pt") == "fiqu"
    assert stem_prefixes("apaguei", "pt") == ("apag",), "a stem long enough once undone stays one prefix"
    assert stem_prefix("straßen", "de") == "straß" and stem_prefix("grüßen", "de") == "gruß"  # folded, as stored
    assert stem_prefix("strassen", "de") == "strass"
    assert stem_prefixes("fußball", "de") == (), "its stem is the word itself as the index stores it"
    assert inflected_match(["fiquei"], "pt", {"fiquei"}) == '"fiquei" OR "fica"* OR "fico"* OR "fiqu"*'

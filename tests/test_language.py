"""Languages: notes' and questions' detected languages, stop words per language, fusion across languages."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.language import SAMPLE_CHARS, detect_language, sample_of, stop_words
from vaultrag.core.query.search import Searcher
from vaultrag.core.query.stages.prompt import INSTRUCTIONS, REFUSAL
from vaultrag.core.store import migrations
from vaultrag.core.store.db import connect
from vaultrag.core.store.index_store import IndexStore
from vaultrag.settings import Settings

EN = "The refund deadline for flights is seven days after the cancellation request is received by the airline."
PT = "O prazo do reembolso das passagens é de sete dias depois que a companhia recebe o pedido de cancelamento."


def test_questions_in_four_languages_and_the_vaults_languages_settle_short_ones():
    assert detect_language("¿Cuántos puntos dejaron escapar en defensa los Panthers?") == "es"
    assert detect_language("Wie viele Punkte hat die Verteidigung der Panthers zugelassen?") == "de"
    assert detect_language("Onde é sediada a universidade?") == "pt"
    assert detect_language("How many points did the Panthers defense surrender?") == "en"
    assert detect_language("refund deadline", ["en"]) == "en"  # alone it reads as German by a hair
    assert detect_language("42 — ?!") == ""


def test_a_long_note_is_judged_on_pieces_spread_over_it():
    code = "```python\n" + "\n".join(f"def handler_{i}(request): return request.json()" for i in range(60)) + "\n```\n"
    note = code + "\n\n".join([PT] * 30)
    assert len(code) > SAMPLE_CHARS and len(sample_of(note)) <= SAMPLE_CHARS + 3
    assert detect_language(note) == "pt", "the code at the top does not decide a Portuguese note's language"
    assert sample_of(PT) == PT and detect_language(EN * 40) == "en"


def test_stop_words_follow_the_language():
    assert {"wie", "der", "die"} <= stop_words("de") and {"los", "en", "qué"} <= stop_words("es")
    assert "die" not in stop_words("en") and "the" in stop_words("en")
    assert {"the", "que"} <= stop_words("")  # unknown: pt and en together, as before


def test_prompt_and_refusal_in_the_questions_language():
    assert REFUSAL["es"] != REFUSAL["en"] and "Regeln" in INSTRUCTIONS["de"]
    assert REFUSAL["fi"] == REFUSAL["en"]  # no translation yet: English


@pytest.fixture
def two_language_index(vault: Path, tmp_path: Path):
    write(vault, "en/flights.md", f"# Flights\n\n{EN}\n")
    write(vault, "en/hotels.md", "# Hotels\n\nHotel rooms can be cancelled for free until noon of the day before.\n")
    write(vault, "pt/voos.md", f"# Voos\n\n{PT}\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, store, IndexOptions(), embedder).run())
    yield store, embedder
    store.close()


def test_each_note_gets_its_language_at_index_time(two_language_index):
    store, _ = two_language_index
    assert store.note_languages(["en/flights.md", "pt/voos.md", "nowhere.md"]) == {"en/flights.md": "en",
                                                                                   "pt/voos.md": "pt"}
    assert store.language_counts() == {"en": 2, "pt": 1}
    assert store.vault_languages() == ["en", "pt"]


def test_fusion_weighs_bm25_hits_in_other_language_notes_down(two_language_index):
    store, embedder = two_language_index
    trace = Searcher(store, Settings(), embedder).ask("Qual é o prazo do reembolso das passagens?", threshold=-1)
    assert trace.language == "pt" and "reembolso" in trace.stages["bm25"].note
    fused = trace.stages["fused"]
    assert "not in the question's language (pt)" not in fused.note  # BM25 only matched the Portuguese note
    # the same words in a Spanish question: BM25 matches the Portuguese note, which is in another language
    es = Searcher(store, Settings(), embedder).ask("¿Cuál es el plazo del reembolso de los pasajes?", threshold=-1)
    assert es.language == "es"
    voos = next(c for c in es.stages["fused"].candidates if c.note == "pt/voos.md")
    assert voos.contributions is not None and voos.contributions.get("bm25") == 0.0
    assert "weighted 0" in es.stages["fused"].note


def test_the_language_migration_marks_indexed_notes_for_a_new_read(tmp_path: Path):
    db = connect(tmp_path / "i.sqlite")
    migrations.apply(db, migrations.MIGRATIONS[:3])
    db.execute("insert into notes(path, folder, content_hash, status) values ('a.md', '', 'abc', 'indexed')")
    db.commit()
    db.close()
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        assert store.note_languages(["a.md"]) == {"a.md": ""}
        assert store.db.execute("select content_hash from notes").fetchone()[0] == ""
    finally:
        store.close()


def test_status_shows_the_languages(vault: Path, home: Path, cli):
    write(vault, "a.md", f"# A\n\n{EN}\n")
    write(vault, "b.md", f"# B\n\n{PT}\n")
    assert cli(home, "index", "--no-embed", str(vault)).returncode == 0
    r = cli(home, "status", str(vault))
    assert r.returncode == 0 and "languages: " in r.stdout and "en 1" in r.stdout and "pt 1" in r.stdout
    data = json.loads(cli(home, "status", "--json", str(vault)).stdout)
    assert data["languages"] == {"en": 1, "pt": 1}

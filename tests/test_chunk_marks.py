"""Boilerplate and hub marks: made at index time over the whole vault, kept in step with edits, filled by 0011."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core import marks
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import StoredChunk
from vaultrag.core.store import migrations
from vaultrag.core.store.db import generation
from vaultrag.core.store.index_store import IndexStore

TEMPLATE = """
## Review

Status:: to review at the end of the month
Reviewed by:: the weekly planning meeting

```dataview
LIST FROM [[]] AND -"Templates" SORT file.mtime DESC
```
"""
TOPICS = {
    "Apples": "Apples grow on trees in orchards and ripen in the autumn.",
    "Rivers": "Rivers carry water from the mountains down to the sea.",
    "Violins": "A violin has four strings tuned in perfect fifths.",
    "Volcanoes": "Volcanoes erupt when magma rises through the crust.",
    "Tides": "Tides follow the pull of the moon on the oceans.",
    "Bread": "Bread rises because yeast turns sugar into gas.",
}
MOC = "# Map of content\n\n" + "\n".join(f"- [[{t}]]" for t in TOPICS) + "\n"


def note(topic: str, template: bool) -> str:
    return f"# {topic}\n\n{TOPICS[topic]}\n" + (TEMPLATE if template else "")


def index(vault: Path, db: Path, embedder: CountingEmbedder | None = None) -> None:
    store = IndexStore.open(db)
    try:
        run_to_end(Indexer(vault, store, IndexOptions(workers=1), embedder).run())
    finally:
        store.close()


def chunks(db: Path) -> dict[tuple[str, str], StoredChunk]:
    """(note, first line of the text that is no title) → the chunk as the query flow reads it back."""
    store = IndexStore.open(db, readonly=True)
    try:
        ids = [int(r[0]) for r in store.db.execute("select id from chunks")]
        return {(c.note, next(line for line in c.body.splitlines() if line.strip() and not line.startswith("# "))): c
                for c in store.stored_chunks(ids).values()}
    finally:
        store.close()


@pytest.fixture
def templated(vault: Path) -> Path:
    for topic in TOPICS:
        write(vault, f"{topic}.md", note(topic, template=True))
    write(vault, "Map of content.md", MOC)
    return vault


def test_a_template_in_many_notes_and_a_map_of_content_are_marked_and_prose_is_not(templated: Path, tmp_path: Path):
    db = tmp_path / "index.sqlite"
    index(templated, db)
    got = chunks(db)
    for topic, text in TOPICS.items():
        prose, review = got[(f"{topic}.md", text)], got[(f"{topic}.md", "## Review")]
        assert (prose.boilerplate, prose.hub) == (0.0, 0.0)
        assert review.boilerplate == 1.0, "the same template block in six notes"
        assert review.hub == 0.0
    moc = got[("Map of content.md", "- [[Apples]]")]
    assert moc.hub == 1.0 and moc.boilerplate == 0.0


def test_removing_the_template_from_most_notes_unmarks_it_in_the_notes_left_untouched(
        templated: Path, tmp_path: Path):
    db = tmp_path / "index.sqlite"
    embedder = CountingEmbedder()
    index(templated, db, embedder)
    kept = ["Apples", "Rivers"]
    for topic in TOPICS:
        if topic not in kept:
            write(templated, f"{topic}.md", note(topic, template=False))
    embedded = len(embedder.passages)
    index(templated, db, embedder)
    got = chunks(db)
    for topic in kept:  # their files did not change: only the other notes' edit changed their mark
        assert got[(f"{topic}.md", "## Review")].boilerplate == 0.0, "a block two notes share is no template"
    assert len(embedder.passages) == embedded, "marks change without re-embedding anything"
    # and the same vault indexed from scratch gives the same marks: the updates are incremental, not approximate
    fresh = tmp_path / "fresh.sqlite"
    index(templated, fresh)
    assert {k: (c.boilerplate, c.hub) for k, c in got.items()} == {
        k: (c.boilerplate, c.hub) for k, c in chunks(fresh).items()}
    for topic in TOPICS:  # and back: the template in all six notes again
        write(templated, f"{topic}.md", note(topic, template=True))
    index(templated, db, embedder)
    assert chunks(db)[("Rivers.md", "## Review")].boilerplate == 1.0


def test_a_template_in_three_or_four_notes_is_partly_boilerplate(vault: Path, tmp_path: Path):
    for k, topic in enumerate(TOPICS):
        write(vault, f"{topic}.md", note(topic, template=k < 4))
    db = tmp_path / "index.sqlite"
    index(vault, db)
    assert chunks(db)[("Apples.md", "## Review")].boilerplate == pytest.approx(2 / 3, abs=1e-3)
    write(vault, "Tides.md", note("Tides", template=False))
    write(vault, "Volcanoes.md", note("Volcanoes", template=False))
    write(vault, "Bread.md", note("Bread", template=False))
    (vault / "Violins.md").unlink()  # a deleted note takes its lines with it too
    index(vault, db)
    assert chunks(db)[("Apples.md", "## Review")].boilerplate == 0.0


def test_an_unchanged_vault_writes_nothing(templated: Path, tmp_path: Path):
    db = tmp_path / "index.sqlite"
    index(templated, db)
    store = IndexStore.open(db)
    try:
        before = generation(store.db)
    finally:
        store.close()
    index(templated, db)
    store = IndexStore.open(db)
    try:
        assert generation(store.db) == before
        assert store.db.execute("select count(*) from dirty_lines").fetchone()[0] == 0
    finally:
        store.close()


def test_migration_0011_fills_the_marks_of_an_index_written_before_it(templated: Path, tmp_path: Path):
    db = tmp_path / "index.sqlite"
    embedder = CountingEmbedder()
    index(templated, db, embedder)
    want = {k: (c.boilerplate, c.hub) for k, c in chunks(db).items()}
    assert any(b for b, _ in want.values()) and any(h for _, h in want.values())
    store = IndexStore.open(db)  # undo 0011: the index as the previous version left it
    with store.transaction():
        store.db.execute("drop trigger chunks_lines_ad")
        store.db.execute("drop table chunk_lines")
        store.db.execute("drop table dirty_lines")
        store.db.execute("alter table chunks drop column boilerplate")
        store.db.execute("alter table chunks drop column hub")
        store.db.execute("delete from _migrations where name = '0011_chunk_marks'")
    store.close()
    store = IndexStore.open(db)
    try:
        assert migrations.applied(store.db)[-1] == "0011_chunk_marks"
        assert store.check() == []
    finally:
        store.close()
    assert {k: (c.boilerplate, c.hub) for k, c in chunks(db).items()} == want
    embedded = len(embedder.passages)
    index(templated, db, embedder)
    assert len(embedder.passages) == embedded


@pytest.mark.parametrize(("text", "share"), [
    ("- [[Apples]]\n- [[Rivers|the rivers note]]\n- [Bread](Bread.md)", 1.0),
    ("Apples grow on trees; see [[Apples]] for the rest of what we know about orchards.", 0.0),
    ("## Links\n- [[Apples]]\nA line of plain words about nothing else", 0.5),
    ("In the sidebar, select **[[Settings]]** ![[lucide-cog.svg#icon]].", 0.0),  # an icon shows no words
])
def test_hub_share_counts_lines_that_are_mostly_links(text: str, share: float):
    assert marks.hub_share(text) == share


def test_line_keys_ignore_case_spacing_and_lines_without_words():
    assert marks.line_keys("Status::  To Review\n```\n---\n") == marks.line_keys("status:: to review")
    assert len(marks.line_keys("Status:: to review\n```\n---\n")) == 1
    assert [marks.line_weight(n) for n in (1, 2, 3, 4, 5, 50)] == [0.0, 0.0, 1 / 3, 2 / 3, 1.0, 1.0]


def test_the_ranker_reads_the_marks_of_the_candidates(templated: Path, tmp_path: Path):
    from vaultrag.core.query import features
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.rerankers.builtin import LearnedRanker
    from vaultrag.settings import Settings

    n = len(features.FEATURES)
    weights = {"boilerplate": 1.0, "hub": 10.0}
    model = {"id": "marks-lr", "features": list(features.FEATURES), "mean": [0.0] * n, "scale": [1.0] * n,
             "weights": [weights.get(f, 0.0) for f in features.FEATURES], "bias": 0.0}
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "index.sqlite")
    try:
        run_to_end(Indexer(templated, store, IndexOptions(workers=1), embedder).run())
        trace = Searcher(store, Settings(), embedder, LearnedRanker(model)).ask(
            "apples rivers review status planning", threshold=-1)
    finally:
        store.close()
    ranked = trace.stages["reranked"].candidates
    assert ranked[0].note == "Map of content.md" and ranked[0].contributions == {
        **dict.fromkeys(features.FEATURES, 0.0), "hub": 10.0}
    reviews = [c for c in ranked if c.contributions and c.contributions["boilerplate"] == 1.0]
    assert reviews and all(c.contributions and c.contributions["hub"] == 0.0 for c in reviews)

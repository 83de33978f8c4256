"""Exact o200k counts carried across joins (core/tokens.py), and the context stage's documents counted from the
index's chunk counts: every figure equals a full count of the text, on made-up traps and on a real vault."""

from __future__ import annotations

import random
from pathlib import Path

from tests.conftest import needs_eval
from tests.fakes import CountingEmbedder
from vaultrag.core import tokens
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.model import Candidate
from vaultrag.core.query.stages.context import _Doc, select
from vaultrag.core.query.stages.prompt import DOC_JOIN, DOCS_CLOSE, DOCS_OPEN, render_document
from vaultrag.core.store.index_store import IndexStore

# joins where the pieces o200k cuts run across the seam: a plain sum of the parts' counts is wrong for most
TRAPS = ["ab", "a/b", " /x", "\n\n/", "x.\n/", "  \n", "\t", "日本語 テキスト", "e\u0301 ", "123", "456 ", "'s",
         "'re x", "\u00a0x", "\u2028", "\x1c ", "🙂 x", "\r\n", "- [ ] x", "**b** ", "```\ncode\n```", "x\n\n", ".",
         "!!", "\n", " ", "ção", "São Paulo", "12345", "->", "</", "&amp;"]


def _pieces(text: str) -> set[int]:
    """Where tiktoken's own pre-tokenizer pattern cuts `text` (the reference for `cut_between`)."""
    import regex

    cuts = {0}
    for m in regex.finditer(tokens.encoding()._pat_str, text):
        cuts.update((m.start(), m.end()))
    return cuts


def test_cut_between_claims_only_cuts_the_pre_tokenizer_makes():
    text = "".join(TRAPS) + " ".join(TRAPS) + "\n".join(TRAPS)
    cuts = _pieces(text)
    claimed = [i for i in range(1, len(text)) if tokens.cut_between(text[i - 1], text[i])]
    assert claimed, "the rules found no cut at all"
    assert [i for i in claimed if i not in cuts] == []


def test_joins_of_traps_are_counted_exactly_where_a_plain_sum_is_not():
    rng = random.Random(7)
    wrong_sums = 0
    for _ in range(3000):
        a = "".join(rng.choice(TRAPS) for _ in range(rng.randrange(1, 5)))
        b = "".join(rng.choice(TRAPS) for _ in range(rng.randrange(1, 5)))
        na, nb, nab = tokens.count(a), tokens.count(b), tokens.count(a + b)
        wrong_sums += na + nb != nab
        assert tokens.count_joined(a, na, b, nb) == nab, (a, b)
        assert tokens.count_after(a, b, nab) == nb, (a, b)
    assert wrong_sums > 300, "the traps should defeat a plain sum often"


def test_joins_and_splits_of_real_notes_are_exact():
    texts = [p.read_text("utf-8") for p in sorted(needs_eval("obsidian-help").rglob("*.md"))[:200]]
    texts += [p.read_text("utf-8") for p in sorted(needs_eval("faquad-pt", "vault").rglob("*.md"))[:20]]
    rng = random.Random(3)
    for _ in range(3000):
        t = rng.choice(texts)
        i = rng.randrange(len(t))
        j = rng.randrange(i, min(len(t), i + 2500) + 1)
        k = rng.randrange(j, min(len(t), j + 2500) + 1)
        a, b = t[i:j], t[j:k]
        assert tokens.count_joined(a, tokens.count(a), b, tokens.count(b)) == tokens.count(a + b)
        assert tokens.count_after(a, b, tokens.count(a + b)) == tokens.count(b)


def test_context_documents_counted_from_the_index_equal_their_rendered_count(tmp_path: Path):
    """Every note of the Obsidian help vault (tables with a lead, code, "&" and "<", paragraphs cut in pieces)
    delivered whole — each chunk merged with its neighbours — and chunk by chunk: each document's count is the
    full count of the document the prompt renders."""
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        run_to_end(Indexer(needs_eval("obsidian-help"), store, IndexOptions(), CountingEmbedder()).run())
        notes = [r[0] for r in store.db.execute("select note_id from chunks group by note_id having count(*) > 1")]
        assert len(notes) > 20
        checked = merged = 0
        for note_id in notes:
            ids = [r[0] for r in store.db.execute("select id from chunks where note_id = ? order by ordinal",
                                                  (note_id,))]
            info = store.stored_chunks(ids)
            assert all(c.search_tokens == tokens.count(c.search_text) for c in info.values())
            for a in info.values():  # the cheap test the stage looks for a document with says what merging does
                doc = _Doc.of(a)
                assert [doc.touches(b) for b in info.values()] == [doc.merged(b) is not None for b in info.values()]
            ranked = [Candidate(note=info[i].note, heading_path=info[i].heading_path, char_start=0, char_end=0,
                                line_start=0, line_end=0, chunk_id=i, rank=r + 1, score=0.0)
                      for r, i in enumerate(ids)]
            for order in (ranked, list(reversed(ranked))):  # neighbours joined after and before
                docs, status = select(order, info, k=len(ids), budget=10**6)
                merged += sum(s.value == "merged" for s in status.values())
                for d in docs:
                    assert d.tokens == tokens.count(render_document(d)), d.source
                    checked += 1
                # the stage's sum (documents, frame, breaks) is the block's own count: a budget of exactly that
                # delivers the same documents
                block = tokens.count(DOCS_OPEN + DOC_JOIN.join(render_document(d) for d in docs) + DOCS_CLOSE)
                again, _ = select(order, info, k=len(ids), budget=block)
                assert [d.text for d in again] == [d.text for d in docs]
        assert checked > 40 and merged > 20
    finally:
        store.close()


def test_documents_numbered_from_1000_on_are_counted_with_their_longer_number():
    """A document's count is made once, numbered 0; o200k cuts "1000" in two pieces ("100", "0"), so from the
    1000th document on the number costs one more token: the budget and the prompt's totals count it (found by a
    hostile tester; `k` and the budget have no upper limit)."""
    from vaultrag.core.model import StoredChunk
    from vaultrag.core.query.stages.prompt import assemble

    info = {}
    for i in range(1, 1003):
        c = StoredChunk(note=f"n{i}.md", heading_path=[], char_start=0, char_end=5, line_start=0, line_end=1, id=i,
                        prefix=f"n{i}", lead="", body="hello")
        c.search_tokens = tokens.count(c.search_text)
        info[i] = c
    ranked = [Candidate(note=c.note, heading_path=[], char_start=0, char_end=0, line_start=0, line_end=0,
                        chunk_id=i, rank=i, score=0.0) for i, c in info.items()]
    docs, _ = select(ranked, info, k=2000, budget=10**7)
    assert [d.tokens for d in docs[997:]] == [tokens.count(render_document(d)) for d in docs[997:]]
    assert docs[999].index == 1000
    prompt, counts = assemble("q?", docs, "en")
    assert counts["total"] == tokens.count(prompt)
    # the budget holds the first 1000 documents' block exactly, or one token less: then the 1000th does not fit
    # (counted with a one-token number, it would)
    block = tokens.count(DOCS_OPEN + DOC_JOIN.join(render_document(d) for d in docs[:1000]) + DOCS_CLOSE)
    _, status = select(ranked, info, k=2000, budget=block - 1)
    assert sum(s.value == "included" for s in status.values()) == 999
    _, status = select(ranked, info, k=2000, budget=block)
    assert sum(s.value == "included" for s in status.values()) == 1000

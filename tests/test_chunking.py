"""Chunking invariants: exact offsets, whole sentences, repeated table headers, intact fences, prefixes."""

from __future__ import annotations

import itertools
import re
from pathlib import Path

import pytest

from tests.conftest import needs_eval
from vaultrag.core import tokens
from vaultrag.core.index.chunking import Chunker, make_prefix
from vaultrag.core.index.markdown import parse
from vaultrag.core.model import Chunk


def chunk(text: str, budget: int = 200, stem: str = "note") -> list[Chunk]:
    return Chunker(budget).chunk(text, parse(text, stem))


def assert_invariants(text: str, chunks: list[Chunk]) -> None:
    lines = text.split("\n")
    for i, c in enumerate(chunks):
        assert c.ordinal == i
        assert text[c.char_start : c.char_end] == c.body, "offsets must map back to the exact source text"
        assert c.body and not c.body[-1].isspace()
        assert not c.body.startswith(("\n", "\r")), "chunks start on a line with text"
        assert c.line_start == text.count("\n", 0, c.char_start)
        assert "\n".join(lines[c.line_start : c.line_end]).find(c.body.split("\n")[0]) >= 0
        assert c.search_text.startswith(c.prefix + "\n")
        assert c.token_count == tokens.count(c.search_text)
    for a, b in itertools.pairwise(chunks):
        assert a.char_start <= b.char_start, "chunks come in source order"


FENCE = re.compile(r"(?m)^ {0,3}(?:```|~~~)")
LONG_PARA = " ".join(
    f"Sentence number {i} talks about the topic of item {i} in some detail, with enough words." for i in range(40)
)


def test_small_note_is_one_chunk_with_title_prefix():
    text = "---\ntitle: Groceries\n---\n\n# Shopping\n\nBuy milk. Buy eggs.\n"
    chunks = chunk(text)
    assert len(chunks) == 1
    assert chunks[0].prefix == "Groceries > Shopping"
    assert chunks[0].body == "# Shopping\n\nBuy milk. Buy eggs."
    assert_invariants(text, chunks)


def test_title_falls_back_to_h1_then_file_name():
    assert chunk("# Real title\n\nText.")[0].prefix == "Real title"
    assert chunk("Just text.", stem="my file")[0].prefix == "my file"
    assert make_prefix("T", ("T", "A", "B")) == "T > A > B"


def test_sections_split_by_heading_with_full_path():
    text = "# Doc\n\nIntro.\n\n## Part A\n\nText A.\n\n### Detail\n\nText detail.\n\n## Part B\n\nText B.\n"
    chunks = chunk(text)
    assert [c.prefix for c in chunks] == ["Doc", "Doc > Part A", "Doc > Part A > Detail", "Doc > Part B"]
    assert [c.heading_path for c in chunks][2] == ("Doc", "Part A", "Detail")
    assert_invariants(text, chunks)


def test_long_paragraph_split_on_sentences_without_repeating_text():
    text = f"# Long\n\n{LONG_PARA}\n"
    chunks = chunk(text, budget=80)
    assert len(chunks) > 3
    assert_invariants(text, chunks)
    sentence = re.compile(r"^(# Long\n\n)?Sentence number \d+ .*with enough words\.$", re.S)
    for c in chunks:
        assert sentence.match(c.body), f"chunk cut inside a sentence: {c.body[:40]!r}…{c.body[-40:]!r}"
    for a, b in itertools.pairwise(chunks):
        assert b.char_start >= a.char_end, "no text is embedded twice"
        last = int(re.findall(r"Sentence number (\d+) ", a.body)[-1])
        assert b.body.startswith(f"Sentence number {last + 1} "), "the next chunk starts at the next sentence"
    covered = "".join(text[c.char_start : c.char_end] for c in chunks)
    for i in range(40):
        assert f"Sentence number {i} " in covered


def test_table_split_by_rows_repeats_header_in_every_chunk():
    rows = "\n".join(f"| item {i} | value {i * 7} | some longer description of row {i} |" for i in range(60))
    text = f"# Inventory\n\n| Item | Value | Description |\n|---|---|---|\n{rows}\n"
    chunks = chunk(text, budget=120)
    assert len(chunks) > 3
    assert_invariants(text, chunks)
    header = "| Item | Value | Description |\n|---|---|---|\n"
    for c in chunks:
        assert header in c.text, "every table chunk carries the header row"
        assert c.lead == "" if c.ordinal == 0 else c.lead == header
    seen = [int(m) for c in chunks for m in re.findall(r"\| item (\d+) \|", c.body)]
    assert seen == list(range(60)), "rows are neither lost nor duplicated"


def test_code_fence_kept_whole_when_it_fits_and_split_with_fence_info_otherwise():
    code = "```python\n" + "\n".join(f"x{i} = {i}  # comment {i}" for i in range(8)) + "\n```"
    text = f"# Code\n\nBefore.\n\n{code}\n\nAfter.\n"
    chunks = chunk(text, budget=200)
    assert any(code in c.body for c in chunks), "a fence that fits stays whole"
    assert_invariants(text, chunks)

    big = "```python\n" + "\n".join(f"value_{i} = compute({i}, factor={i * 3})" for i in range(200)) + "\n```"
    text = f"# Big\n\n{big}\n"
    chunks = chunk(text, budget=100)
    assert len(chunks) > 3
    assert_invariants(text, chunks)
    for c in chunks:
        assert c.text.startswith("```python\n") or c.text.startswith("# Big\n\n```python\n")
    lines = [m for c in chunks for m in re.findall(r"value_(\d+) =", c.body)]
    assert [int(x) for x in lines] == list(range(200))


def test_long_list_split_between_items():
    items = "\n".join(f"- item {i}: remember to check the thing number {i} before leaving." for i in range(50))
    text = f"# Checklist\n\n{items}\n"
    chunks = chunk(text, budget=100)
    assert len(chunks) > 2
    assert_invariants(text, chunks)
    for c in chunks:
        body = c.body.removeprefix("# Checklist\n\n")
        assert body.startswith("- item") and body.endswith("leaving.")


def test_heading_only_sections_produce_no_chunk_but_name_their_children():
    text = "# Top\n\n## Empty\n\n### Child\n\nContent here.\n"
    chunks = chunk(text)
    assert [c.prefix for c in chunks] == ["Top > Empty > Child"]


def test_crlf_and_bom_offsets_still_round_trip():
    text = "\ufeff# Título\r\n\r\nPrimeira frase. Segunda frase.\r\n\r\n## Seção\r\n\r\nMais texto aqui.\r\n"
    chunks = chunk(text)
    assert chunks
    for c in chunks:
        assert text[c.char_start : c.char_end] == c.body


def test_stable_hashes_for_unchanged_text():
    a = chunk("# T\n\nOne.\n\n## S\n\nTwo.\n")
    b = chunk("# T\n\nOne.\n\n## S\n\nTwo.\n\n## New\n\nThree.\n")
    assert [c.content_hash for c in a] == [c.content_hash for c in b[:2]]


@pytest.mark.parametrize("lang", ["pt-br", "en"])
def test_invariants_hold_on_the_real_obsidian_help_vault(lang: str):
    root = needs_eval("obsidian-help", lang)
    notes = sorted(root.rglob("*.md"))
    assert len(notes) > 100
    total = 0
    for path in notes:
        text = path.read_text(encoding="utf-8")
        chunks = chunk(text, stem=Path(path).stem)
        assert_invariants(text, chunks)
        for c, nxt in zip(chunks, [*chunks[1:], None], strict=True):
            if len(FENCE.findall(c.text)) % 2:  # an open fence is only allowed as part of a split code block
                continued = nxt is not None and nxt.lead.startswith("```")
                assert c.lead.startswith("```") or continued, f"fence cut in {path.name}"
        total += len(chunks)
    assert total > 1000


def test_a_pasted_base64_image_is_in_no_chunk_and_the_text_around_it_is():
    """A 400 kB `data:` image made thousands of chunks of noise (a hostile tester: 9,598 for one note)."""
    import base64

    blob = base64.b64encode(bytes(range(256)) * 1200).decode()
    text = (f"# Photo\n\nHere is my cat, a fine animal that sleeps all day.\n\n![cat](data:image/png;base64,{blob})\n\n"
            f"After the picture, the cat woke up and asked for food.\n\n## Second\n\n"
            f"![x](data:image/png;base64,{blob[:9000]}) then words after it.\n\n"
            f"- item one\n- item two with ![x](data:image/png;base64,{blob[:5000]}) inline\n- item three\n")
    chunks = chunk(text)
    assert_invariants(text, chunks)
    assert len(chunks) <= 8 and all(c.content_hash for c in chunks)
    bodies = [c.body for c in chunks]
    assert not any("base64," in b or blob[:300] in b for b in bodies), "no chunk holds the run"
    joined = " ".join(bodies)
    for words in ("sleeps all day", "After the picture, the cat woke up", "then words after it", "item three"):
        assert words in joined, words
    assert [c.heading_path for c in chunks if "words after" in c.body] == [("Photo", "Second")]
    # a code block keeps its text whole (a key in a fence is what the note says)
    fenced = chunk(f"# Key\n\n```\n{blob[:3000]}\n```\n")
    assert blob[:3000] in "".join(c.body for c in fenced)

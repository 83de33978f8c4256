"""The ranker's features in words wherever a person reads them: `ask --explain`'s order, `vaultrag why`, the window
(tests/test_candidate_table.py); a feature without words yet is read from its name's parts."""

from __future__ import annotations

import re
from pathlib import Path

from vaultrag.core import wording
from vaultrag.core.query.features import FEATURES

CODE_NAMES = [f for f in FEATURES if "_" in f]  # bm25_norm, sentence_cov, cosine_gap…


def test_every_feature_has_words_and_a_new_one_reads_as_words():
    assert all(f in wording.FEATURE for f in FEATURES)
    assert wording.feature("sentence_cov") == "question words in one sentence"
    # a feature the ranker gains before it gets words: its name's parts, no underscore left
    assert wording.feature("stem_cov") == "stems coverage"
    assert wording.feature("boilerplate") == "repeated text (template, footer)"
    assert "_" not in wording.feature("hub_x_cosine_rr")


def test_rank_gap_names_what_made_the_gap():
    above = {"cosine": 4.5, "title_cov": 1.2, "bm25_rr": 0.1}
    below = {"cosine": 4.5, "title_cov": 0.0, "bm25_rr": 0.3}
    assert wording.rank_gap(2, 1, below, above) == (
        "#2 is below #1 by 1.00. Compared with #1, against it: question words in the title −1.20 (0 here, +1.20 in "
        "#1); in its favour: keyword rank +0.20 (+0.30 here, +0.10 in #1)")
    assert wording.rank_gap(1, 2, above, below) == (
        "#1 is above #2 by 1.00. Compared with #2, in its favour: question words in the title +1.20 (+1.20 here, 0 in "
        "#2); against it: keyword rank −0.20 (+0.10 here, +0.30 in #2)")
    assert wording.rank_gap(1, 2, above, above) == "#1 is above #2 by 0.00. Compared with #2, the same parts, to " \
                                                   "the precision shown"


def test_rank_gap_says_both_sides_and_its_parts_add_up_to_the_gap():
    """A gap of 0.17 made of −1.51, −1.30 and +2.60: naming only the first two (−2.81) does not add up."""
    mine = {"title_cov": -1.51, "bm25_norm": -1.30, "cosine": 2.60, "log_length": 0.02, "bm25_rr": 0.01,
            "vector_rr": 0.01}
    text = wording.rank_gap(10, 9, mine, {})
    assert text.startswith("#10 is below #9 by 0.17. Compared with #9, against it: question words in the title "
                           "−1.51 (−1.51 here, 0 in #9), keyword score −1.30 (−1.30 here, 0 in #9); in its favour: "
                           "meaning similarity +2.60"), text
    # the gap's parts (the rows' own parts in brackets aside) add up to the gap
    named = [float(x.replace("−", "-")) for x in re.findall(r"[+−]\d+\.\d+", re.sub(r"\([^)]*\)", "", text))]
    assert abs(sum(named) - (-0.17)) < 0.006, text
    assert "other parts" in text


def test_ask_explain_says_why_the_first_rows_are_in_their_order_in_words(tmp_path: Path, cli):
    vault, home = tmp_path / "vault", tmp_path / "home"
    vault.mkdir()
    for i, (title, text) in enumerate([("Refunds", "The refund deadline is seven days after the purchase."),
                                       ("Refund policy", "A refund needs the receipt and the card."),
                                       ("Shipping", "Shipping takes a week; a refund of shipping is rare."),
                                       ("Gym", "The gym opens at six on weekdays.")]):
        (vault / f"n{i}.md").write_text(f"# {title}\n\n{text}\n", encoding="utf-8")
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    r = cli(home, "ask", str(vault), "refund deadline", "--threshold", "-1", "--explain")
    assert r.returncode == 0, r.stderr
    order = r.stdout.partition("why this order (reranked):")[2]
    assert re.search(r"#1 is above #2 by [0-9.]+\. Compared with #[12], ", order), r.stdout
    assert re.search(r"#2 is below #1 by [0-9.]+\. Compared with #[12], ", order), r.stdout
    assert [f for f in CODE_NAMES if f in r.stdout] == []


def test_ask_explain_gives_the_names_the_terminals_width_and_says_each_fate_in_words(tmp_path: Path, cli,
                                                                                     monkeypatch):
    """Long names of one note (as the Obsidian help vault has): cut to 16 characters, the rows could not be told
    apart; the fate list said "chunk 1204: included"."""
    vault, home = tmp_path / "vault", tmp_path / "home"
    (vault / "Obsidian Sync").mkdir(parents=True)
    heads = ["Connect to a remote vault from a second computer", "Sync a remote vault on another device",
             "Troubleshooting a vault that does not sync"]
    body = "".join(f"## {h}\n\nHow to sync a vault to another device: {h.lower()}.\n\n" for h in heads)
    (vault / "Obsidian Sync" / "Set up Obsidian Sync.md").write_text(f"# Set up Obsidian Sync\n\n{body}",
                                                                     encoding="utf-8")
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    monkeypatch.setenv("COLUMNS", "200")
    r = cli(home, "ask", str(vault), "sync vault device", "--threshold", "-1", "--explain")
    assert r.returncode == 0, r.stderr
    table = [line for line in r.stdout.split("\n\n")[1].splitlines() if " | " in line]
    assert table[0].startswith("note › heading") and max(len(line) for line in table) <= 200
    for h in heads:  # each row whole in 200 columns: its heading tells it apart
        assert any(f"Obsidian Sync/Set up Obsidian Sync › {h}" in line for line in table), table
    monkeypatch.setenv("COLUMNS", "110")  # narrower: cut in the middle, the heading's end still there
    r = cli(home, "ask", str(vault), "sync vault device", "--threshold", "-1", "--explain")
    table = [line for line in r.stdout.split("\n\n")[1].splitlines() if " | " in line]
    assert max(len(line) for line in table) <= 110 and any("…" in line for line in table), table
    assert any(line.split(" | ")[0].rstrip().endswith("computer") for line in table), table
    fates = [line for line in r.stdout.splitlines() if line.startswith("  Obsidian Sync/")]
    assert fates and all(": in the prompt" in x or ": left out: " in x for x in fates), r.stdout
    assert not re.search(r"chunk \d+:", r.stdout)


def test_ask_explain_shows_the_final_list_without_a_gap():
    """A final row that no list has in its first n still shows when a lower final row is shown (fresh eyes: ranks
    1–18 then 20, the 19th left out)."""
    import dataclasses

    from tests.test_app_widgets import cand, trace
    from vaultrag.cli.show import _rows
    from vaultrag.core.model import Answer, Stage
    from vaultrag.core.vocab import AnswerKind, StageName, StageStatus

    final = [cand(i, i) for i in range(1, 6)]
    t = trace(Answer(AnswerKind.EXTRACTIVE, "x"), final)
    # BM25 has chunk 5 first; no list has chunk 4 in its first 3
    bm25 = Stage(StageName.BM25, StageStatus.OK, [dataclasses.replace(final[4], rank=1)])
    stages = [bm25, Stage(StageName.RERANKED, StageStatus.OK, final)]
    assert _rows(t, stages, 3) == [1, 2, 3, 4, 5]


def test_the_leftover_of_a_gap_is_never_bigger_than_a_named_part():
    """Many mid-sized parts: 'other parts' must not be what separates the rows (fresh eyes: other parts −1.92
    beside named parts of 1.02–1.67)."""
    mine = {"title_cov": -1.67, "bm25_norm": 1.27, "cosine": 1.13, "coverage": 1.02, "bm25_rr": -0.9,
            "vector_rr": -0.8, "sentence_cov": -0.7, "rrf": 0.05}
    text = wording.rank_gap(4, 3, mine, {})
    leftover = re.search(r"other parts ([+−])(\d+\.\d+)", text)
    gap_parts = re.sub(r"\([^)]*\)", "", text.split("other parts")[0].split("Compared with")[1])  # rows' own aside
    named = [float(x) for x in re.findall(r"[+−](\d+\.\d+)", gap_parts)]
    assert named and (leftover is None or float(leftover.group(2)) <= min(named)), text


def test_ask_explain_tells_apart_the_paragraphs_of_one_section_by_their_lines(tmp_path: Path, cli, monkeypatch):
    """Three paragraphs under one heading were three identical rows 'Notes › Refunds' (fresh eyes); each row and
    each fate now names its lines where the name alone would repeat."""
    vault, home = tmp_path / "vault", tmp_path / "home"
    vault.mkdir()
    paragraphs = [f"Refund rule {w}: the refund deadline is {n} days for {w} purchases. " * 12
                  for w, n in (("online", 7), ("store", 14), ("gift", 30))]
    (vault / "Notes.md").write_text("# Notes\n\n## Refunds\n\n" + "\n\n".join(paragraphs) + "\n", encoding="utf-8")
    assert cli(home, "index", str(vault), "--no-embed").returncode == 0
    monkeypatch.setenv("COLUMNS", "160")
    r = cli(home, "ask", str(vault), "refund deadline days", "--threshold", "-1", "--explain")
    assert r.returncode == 0, r.stderr
    table = [line.split(" | ")[0].rstrip() for line in r.stdout.split("\n\n")[1].splitlines() if " | " in line][1:]
    rows = [x for x in table if x.startswith("Notes › Refunds")]
    assert len(rows) >= 2, r.stdout
    assert len(set(rows)) == len(rows) and all(re.search(r", lines? \d+", x) for x in rows), rows
    fates = [line.strip() for line in r.stdout.splitlines() if line.startswith("  Notes › Refunds")]
    assert len(fates) >= 2 and len({f.split(":")[0] for f in fates}) == len(fates), r.stdout

"""Hostile vault, generated at test time: privacy traps and inputs that used to stop indexing (issue 14)."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import write
from tests.fakes import CountingEmbedder
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.index.indexer import Indexer, IndexOptions, fit_to_model, run_to_end
from vaultrag.core.index.markdown import parse
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import Problem, Reason

GOOD = "# Good note {n}\n\nThe harbour opens at dawn for boat number {n}. Fishermen sell sardines on the quay.\n"


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=300)


def canary(name: str) -> str:
    return f"zqx{name.replace('-', '')}canary"


def alias_bomb(levels: int = 9) -> str:
    lines = ['a0: &a0 ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    for i in range(1, levels):
        lines.append(f"a{i}: &a{i} [" + ",".join([f"*a{i - 1}"] * 9) + "]")
    return "\n".join(lines)


def build_private(vault: Path, outside: Path) -> dict[str, str]:
    """Notes that must never be indexed, each with its own canary word; returns {case: canary}."""
    cases: dict[str, str] = {}

    def note(case: str, rel: str, text: str) -> None:
        cases[case] = canary(case)
        write(vault, rel, text.replace("CANARY", cases[case]))

    (vault / "bom.md").write_bytes(b"\xef\xbb\xbf---\ntags: [private]\n---\n# Bom\n\nCANARY\n".replace(
        b"CANARY", canary("bom").encode()))
    cases["bom"] = canary("bom")
    note("tag-with-yaml-error", "yamlerr.md", "---\ntags: [private]\ntitle: [unclosed\n---\n# T\n\nCANARY\n")
    note("list-exclude", "listex.md", "---\nvaultrag: [exclude]\n---\n# L\n\nCANARY here\n")
    # a frontmatter too large to parse (73 kB of other keys) must not hide the exclusion before or after them
    padding = "".join(f"key{n}: {'x' * 60}\n" for n in range(1200))
    note("tag-before-huge-frontmatter", "hugetag.md", f"---\ntags: [private]\n{padding}---\n# H\n\nCANARY\n")
    note("exclude-after-huge-frontmatter", "hugeex.md", f"---\n{padding}vaultrag: exclude\n---\n# H\n\nCANARY\n")
    # a tag list that does not parse even alone still names the private tag
    note("broken-tag-list", "brokentags.md", "---\ntags: [private, {oops\ntitle: T\n---\n# B\n\nCANARY\n")
    # keys are read whatever their case, as Obsidian reads them
    note("capitalised-tags", "captags.md", "---\nTags: [private]\n---\n# C\n\nCANARY\n")
    note("capitalised-exclude", "capex.md", "---\nVaultrag: exclude\n---\n# C\n\nCANARY\n")
    # two tag keys, or one key twice (YAML keeps one value): any of them makes the note private
    note("tag-beside-tags", "twokeys.md", "---\ntag: private\ntags: [work]\n---\n# T\n\nCANARY\n")
    note("duplicate-tags", "dupkeys.md", "---\ntags: [private]\ntags: [public]\n---\n# D\n\nCANARY\n")
    note("exclude-among-two", "twoflags.md", "---\nvaultrag: keep\nVaultrag: exclude\n---\n# F\n\nCANARY\n")
    # UTF-32 (its BOM starts like UTF-16's): read as UTF-32, so its private tag is seen
    cases["utf-32-private"] = canary("utf-32-private")
    (vault / "u32.md").write_bytes(f"---\ntags: [private]\n---\n# U\n\n{cases['utf-32-private']}\n"
                                   .encode("utf-32"))
    note("ignored-folder", "secret/s.md", "# S\n\nCANARY in an ignored folder\n")
    note("outside-file", "../outside/passwd.md", "# P\n\nCANARY outside the vault\n")
    note("outside-folder", "../outside/dir/o.md", "# O\n\nCANARY in an outside folder\n")
    (vault / ".vaultragignore").write_text("secret/\n!\n\\\n[z-a]\n", encoding="utf-8")
    (vault / "link-to-secret.md").symlink_to(vault / "secret" / "s.md")
    (vault / "linkdir").symlink_to(vault / "secret", target_is_directory=True)
    (vault / "passwd.md").symlink_to(outside / "passwd.md")
    (vault / "outdir").symlink_to(outside / "dir", target_is_directory=True)
    return cases


def build_stoppers(vault: Path) -> dict[str, str]:
    """Notes that used to stop or stall a run; returns {case: relative path}."""
    cases: dict[str, str] = {}
    for n, value in enumerate(["2024-13-45", "2024-02-30", "25:00:00", "!!int abc", "!!float abc", "!!timestamp foo"]):
        cases[f"yaml-value-{n}"] = f"yaml{n}.md"
        write(vault, f"yaml{n}.md", f"---\ncreated: {value}\n---\n# Y{n}\n\nThe yaml note {n} is here.\n")
    cases["alias-bomb"] = "bomb.md"
    write(vault, "bomb.md", f"---\n{alias_bomb()}\n---\n# Bomb\n\nText after a bomb.\n")
    cases["cr-only"] = "cr.md"
    (vault / "cr.md").write_bytes(b"# Old Mac\r\rLighthouse keeper logbook.\rSecond line.\r")
    cases["heading-only"] = "headings.md"
    write(vault, "headings.md", "# Quarterly planning\n\n## Budget review\n")
    cases["long-line"] = "long.md"
    write(vault, "long.md", " ".join(f"word{i % 5000}" for i in range(330_000)))  # ~2 MB, no break at all
    cases["utf-16"] = "utf16.md"  # what Windows editors call "Unicode": text, read as such
    (vault / "utf16.md").write_bytes("# Sextante\n\nO sextante mede a altura do sol.\n".encode("utf-16"))
    cases["bad-name"] = "bad\\xff.md"
    with open(os.path.join(os.fsencode(vault), b"bad\xff.md"), "wb") as f:
        f.write(b"# Bad name\n\nThis note has an undecodable name.\n")
    return cases


@pytest.fixture
def hostile(tmp_path: Path) -> tuple[Path, Path, dict[str, str], dict[str, str]]:
    vault, outside = tmp_path / "vault", tmp_path / "outside"
    vault.mkdir()
    for n in range(3):
        write(vault, f"good/g{n}.md", GOOD.format(n=n))
    return vault, outside, build_private(vault, outside), build_stoppers(vault)


def test_hostile_vault_through_the_cli(home: Path, hostile: tuple[Path, Path, dict[str, str], dict[str, str]], cli):
    vault, _, private, stoppers = hostile
    # a process of its own: `-v` sends the warnings to stderr through the process's logging set-up
    r = run(home, "-v", "index", str(vault), "--no-embed", "--json")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stderr
    assert "line 2: '!' is not a valid pattern" in r.stderr and "line 4: '[z-a]'" in r.stderr
    r = cli(home, "status", str(vault), "--json", "--check")
    assert r.returncode == 0 and "Traceback" not in r.stderr, r.stdout + r.stderr
    h = json.loads(r.stdout)
    assert h["problems"] == [] and not h["notes"]["stale"] and len(h["warnings"]) == 3
    indexed = {n["path"] for n in h["notes"]["indexed"]}
    excluded = {n["path"]: n["reason"] for n in h["notes"]["excluded"]}
    assert {f"good/g{n}.md" for n in range(3)} <= indexed
    # every stopper ends indexed (the other notes too), or excluded with a recorded reason
    assert {p for c, p in stoppers.items() if c != "bad-name"} <= indexed
    assert "bad\\xff.md" in excluded and "UTF-8" in excluded["bad\\xff.md"]
    for path in ("passwd.md", "outdir/"):
        assert "outside the vault" in excluded[path]
    for path in ("link-to-secret.md", "linkdir/"):
        assert "symlink to secret" in excluded[path]
    for path in ("bom.md", "yamlerr.md", "hugetag.md", "brokentags.md", "captags.md", "twokeys.md", "dupkeys.md",
                 "u32.md"):
        assert "private tag" in excluded[path], path
    for path in ("listex.md", "hugeex.md", "capex.md", "twoflags.md"):
        assert "vaultrag: exclude" in excluded[path], path

    index_files = list((home / "indexes").iterdir())
    raw = b"".join(p.read_bytes() for p in index_files if p.is_file())
    for case, word in private.items():
        assert word.encode() not in raw, f"{case}: its text reached the index"
        r = cli(home, "ask", str(vault), word, "--json")
        assert r.returncode == 0, r.stderr
        assert word not in json.dumps(json.loads(r.stdout)["context"]), case
    r = cli(home, "ask", str(vault), "quarterly planning budget", "--json")
    assert json.loads(r.stdout)["context"][0]["note"] == "headings.md"
    r = cli(home, "ask", str(vault), "lighthouse keeper logbook", "--json")
    assert json.loads(r.stdout)["context"][0]["note"] == "cr.md"
    r = cli(home, "ask", str(vault), "sextante altura do sol", "--json")
    assert json.loads(r.stdout)["context"][0]["note"] == "utf16.md"


def test_excluded_notes_keep_nothing_but_their_path_and_rule(vault: Path, tmp_path: Path):
    write(vault, "p.md", "---\ntitle: Secret title\naliases: [hidden]\ntags: [private]\n---\n# X\n\n[[Other]]\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, store, IndexOptions(), None).run())
    row = store.db.execute("select title, aliases, tags, links, frontmatter, content_hash, reason_code from notes"
                           ).fetchone()
    store.close()
    assert row == ("", "[]", "[]", "[]", "{}", "", Reason.PRIVATE_TAG)


def test_no_chunk_exceeds_the_budget_and_no_embedder_input_its_limit(vault: Path, tmp_path: Path):
    write(vault, "long.md", "x" * 50 + " ".join(f"w{i}" for i in range(60_000)))
    write(vault, "blob.md", "".join(chr(0x4E00 + i % 2000) for i in range(40_000)))  # CJK: no spaces at all
    embedder = CountingEmbedder()
    embedder.max_tokens = 300  # words; the fake counts whitespace-separated words
    store = IndexStore.open(tmp_path / "i.sqlite")
    run_to_end(Indexer(vault, store, IndexOptions(chunk_tokens=200), embedder).run())
    biggest = store.db.execute("select max(token_count), count(*) from chunks").fetchone()
    store.close()
    assert biggest[1] > 100 and biggest[0] <= 200 + 20  # the budget, plus the title prefix
    assert max(embedder.count_tokens(t) for t in embedder.passages) <= 300
    assert 250 <= fit_to_model(embedder, "a " * 1000).count("a") <= 300


def test_yaml_cannot_hide_an_exclusion_or_exhaust_memory():
    p = parse(f"---\n{alias_bomb()}\ntags: [private]\n---\nbody\n", "n")
    assert "private" in p.tags and p.frontmatter_error
    p = parse("---\ncreated: 2024-13-45\nvaultrag: exclude\n---\nbody\n", "n")
    assert p.frontmatter["vaultrag"] == "exclude" and p.frontmatter_error
    assert vaultmod.exclusion_rule(p, "private") is not None
    p = parse("---\ntitle: " + "x" * 70_000 + "\n---\nbody\n", "n")
    assert p.frontmatter == {} and "larger than" in p.frontmatter_error


def test_index_lane_survives_an_unexpected_error_and_says_so(vault: Path, home: Path):
    """A bug-class error (not a database or disk error) used to end the lane's thread silently."""
    from vaultrag.core.index.lane import IndexLane, LaneEvent
    from vaultrag.core.workspace import Workspace

    write(vault, "a.md", "# A\n\nApples.\n")
    with open(os.path.join(os.fsencode(vault), b"bad\xff.md"), "wb") as f:
        f.write(b"# Bad\n\nBad name.\n")
    embedder = CountingEmbedder()
    embedder.fail_after = 0  # the first embedding batch raises RuntimeError
    events: list[LaneEvent] = []
    lane = IndexLane(Workspace.load(vault, home), embedder, events.append)
    lane.start()
    try:
        lane.reconcile()
        deadline = time.monotonic() + 20
        while not any(e.kind == "error" for e in events) and time.monotonic() < deadline:
            time.sleep(0.05)
        # said as the retry notice's code, carrying the fake's own exception (not the lane's English sentence)
        assert any(e.kind == "error" and e.notice is not None and e.notice.problem == Problem.INDEX_RETRYING
                   and "fake embedder failure" in e.notice.details["why"] for e in events)
        embedder.fail_after = None
        while not any(e.kind == "embedded" for e in events) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert any(e.kind == "recovered" for e in events) and any(e.kind == "embedded" for e in events)
    finally:
        lane.stop()

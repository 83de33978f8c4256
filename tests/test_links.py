"""Links in the index: found in a note (wikilinks, embeds, Markdown links), resolved by Obsidian's rules, kept
current by the watcher, listed in Index health when they name nothing."""

from __future__ import annotations

import time
from pathlib import Path

from tests.conftest import write
from tests.fakes import CountingEmbedder
from tests.test_watch import Live
from vaultrag.core.health import health
from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
from vaultrag.core.links import Link, Resolver, extract
from vaultrag.core.store import migrations
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.links import of_notes, unresolved
from vaultrag.core.vocab import LinkKind, Reason
from vaultrag.settings import Settings


def test_every_kind_of_link_is_found_with_its_place_and_code_is_not_a_link():
    text = ("---\nrelated: \"[[Alpha]]\"\n---\n# T\n"
            "See [[Beta#Intro|the intro]], ![[img.png]], ![[Gamma#Part]] and [md](../Sub%20Note.md#Sec).\n"
            "A [site](https://example.org) and [mail](mailto:a@b.c) are no notes. `[[in code]]`\n"
            "```\n[[fenced]]\n```\n%% [[commented]] %%\n| a | [[Delta\\|d]] |\n[[#Local heading]]\n")
    found = extract(text)
    assert [(k.kind, k.target, k.heading, k.alias) for k in found] == [
        (LinkKind.WIKILINK, "Alpha", "", ""),
        (LinkKind.WIKILINK, "Beta", "Intro", "the intro"),
        (LinkKind.EMBED, "img.png", "", ""),
        (LinkKind.EMBED, "Gamma", "Part", ""),
        (LinkKind.MARKDOWN, "../Sub Note.md", "Sec", "md"),
        (LinkKind.WIKILINK, "Delta", "", "d"),  # a table's escaped pipe
        (LinkKind.WIKILINK, "", "Local heading", ""),
    ]
    assert all(text[k.start:k.end].lstrip("!").startswith("[") for k in found)
    assert not found[2].is_note and found[3].is_note  # an image is an attachment, a note's section is a note


def test_a_note_of_unclosed_brackets_is_read_in_one_pass():
    for text in ("[[" * 100_000, "[" * 100_000 + "](" * 10_000, "`" * 50_000 + "[[a]]"):
        t = time.perf_counter()
        extract(text)
        assert time.perf_counter() - t < 2.0


def test_links_resolve_as_obsidian_resolves_them():
    r = Resolver(["Alpha.md", "work/Beta.md", "x/Delta.md", "y/Delta.md", "Sub Note.md", "v1.2 notes.md"],
                 {"x/Delta.md": ["Dee"], "Alpha.md": ["Beta"]})

    def to(target: str, source: str = "work/Here.md", kind: LinkKind = LinkKind.WIKILINK) -> str | None:
        return r.resolve(Link(kind, target, "", "", 0, 0), source)

    assert to("alpha") == "Alpha.md"  # case does not matter
    assert to("Beta") == "work/Beta.md"  # a file name wins over an alias
    assert to("Delta", "y/n.md") == "y/Delta.md" and to("Delta", "z/n.md") == "x/Delta.md"  # own folder, then first
    assert to("y/Delta") == "y/Delta.md"  # a path's tail
    assert to("Dee") == "x/Delta.md"  # no file has the name: the note whose frontmatter gives that alias
    assert to("../Sub Note.md", kind=LinkKind.MARKDOWN) == "Sub Note.md"  # relative to the linking note
    assert to("v1.2 notes") == "v1.2 notes.md"
    assert to("") == "work/Here.md"  # [[#heading]]: the note itself
    assert to("Nowhere") is None


def _index(vault: Path, store: IndexStore, embedder: CountingEmbedder | None = None) -> None:
    run_to_end(Indexer(vault, store, IndexOptions(), embedder or CountingEmbedder()).run())


def test_the_index_resolves_links_and_health_lists_the_broken_ones(vault: Path, tmp_path: Path, home: Path):
    write(vault, "Sync.md", "# Sync\n\n## Set up\n\nOpen Settings and sign in.\n")
    write(vault, "ios/Mobile.md", "# Mobile\n\nFor syncing, please see [[Sync#Set up|syncing]].\n\n"
                                  "Also [[Sync#Pricing]], [[Ghost]] and ![[shot.png]].\n")
    write(vault, "Private.md", "---\ntags: [private]\n---\n# Secret\n\nSee [[Sync]].\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        _index(vault, store)
        outgoing = {(k.target, k.heading): (k.target_note, k.heading_found)
                    for k in of_notes(store.db, ["ios/Mobile.md"])}
        assert outgoing == {("Sync", "Set up"): ("Sync.md", True), ("Sync", "Pricing"): ("Sync.md", False),
                            ("Ghost", ""): (None, None), ("shot.png", ""): (None, None)}
        assert of_notes(store.db, ["Private.md"]) == []  # an excluded note keeps no links
        broken = [(k.source, k.target, k.heading) for k in unresolved(store.db)]
        assert broken == [("ios/Mobile.md", "Sync", "Pricing"), ("ios/Mobile.md", "Ghost", "")]  # no attachment
        h = health(store, str(vault), Settings())
        assert [(n.path, n.reason, n.code) for n in h.notes["unresolved"]] == [
            ("ios/Mobile.md", "[[Sync#Pricing]]", Reason.MISSING_HEADING),
            ("ios/Mobile.md", "[[Ghost]]", Reason.UNRESOLVED_LINK)]
        # the note a link named comes: resolved at the next run; a rename keeps the renamed note's own links
        write(vault, "Ghost.md", "# Ghost\n\nBoo.\n")
        (vault / "ios" / "Mobile.md").rename(vault / "Phone.md")
        _index(vault, store)
        moved = {k.target: k.target_note for k in of_notes(store.db, ["Phone.md"])}
        assert moved["Ghost"] == "Ghost.md" and moved["Sync"] == "Sync.md"
        assert [(k.source, k.heading) for k in unresolved(store.db)] == [("Phone.md", "Pricing")]
    finally:
        store.close()


def test_an_index_from_before_links_gets_them_without_re_embedding(vault: Path, tmp_path: Path):
    write(vault, "a.md", "# A\n\nRead [[b]] first.\n")
    write(vault, "b.md", "# B\n\nThe answer is here.\n")
    path = tmp_path / "old.sqlite"
    old = IndexStore.open(path)
    old.close()
    # an index made by the previous version: every migration but the links'
    from vaultrag.core.store.db import connect

    db = connect(path)
    db.execute("drop table links")
    db.execute("delete from _migrations where name = '0014_links'")
    db.close()
    store = IndexStore.open(path)
    try:
        assert "0014_links" in migrations.applied(store.db)
        embedder = CountingEmbedder()
        _index(vault, store, embedder)
        before = len(embedder.passages)
        store.db.execute("update notes set mtime_ns = 0, content_hash = ''")  # what the migration does
        _index(vault, store, embedder)
        assert len(embedder.passages) == before  # read again, nothing embedded again
        assert [k.target_note for k in of_notes(store.db, ["a.md"])] == ["b.md"]
    finally:
        store.close()


def test_the_watcher_keeps_links_current(vault: Path, home: Path):
    write(vault, "a.md", "# A\n\nSee [[Later note]].\n")
    live = Live(vault, home)
    live.start()
    try:
        def target() -> str | None:
            store = IndexStore.open(live.ws.index_path, readonly=True)
            try:
                found = of_notes(store.db, ["a.md"])
                return found[0].target_note if found else None
            finally:
                store.close()

        assert target() is None
        write(vault, "Later note.md", "# Later note\n\nIt came.\n")  # a real watchdog event
        assert live.until(lambda: target() == "Later note.md", 20.0)
        (vault / "Later note.md").unlink()
        assert live.until(lambda: target() is None, 20.0)
    finally:
        live.stop()


def test_a_note_of_unclosed_brackets_or_separators_is_indexed_in_seconds(tmp_path: Path):
    """Hostile round 4: 200 kB of "[[" (and 64 kB of \\x1c–\\x1f) took minutes in the note parser's own link pattern."""
    from vaultrag.core.index.prepare import PrepareOptions, prepare
    from vaultrag.core.model import NoteFile

    for name, body in (("brackets.md", "[[" * 100_000), ("separators.md", "\x1c\x1d\x1e\x1f" * 16_000),
                       ("half.md", "[[a|" * 40_000)):
        p = write(tmp_path, name, "# T\n\n" + body)
        t = time.perf_counter()
        done = prepare(NoteFile(name, str(p), p.stat().st_size, p.stat().st_mtime_ns), PrepareOptions(200, 5_000_000,
                                                                                                       "private"))
        assert done.chunks and time.perf_counter() - t < 10.0, name

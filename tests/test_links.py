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
    # an index made by the previous version: every migration but the links' and the headings'
    from vaultrag.core.store.db import connect

    db = connect(path)
    db.execute("drop table links")
    db.execute("drop table headings")
    db.execute("delete from _migrations where name in ('0014_links', '0015_headings')")
    db.close()
    store = IndexStore.open(path)
    try:
        assert {"0014_links", "0015_headings"} <= set(migrations.applied(store.db))
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


def test_excluded_failed_and_ignored_notes_are_no_link_targets(vault: Path, tmp_path: Path, home: Path):
    """Hostile round: the resolver knew every note row, so a link to a private note counted as resolved and its
    missing heading told that the note exists."""
    write(vault, "Secret.md", "---\ntags: [private]\naliases: [Hidden]\n---\n# Secret\n\n## Plans\n\nTop secret.\n")
    write(vault, "Ignored.md", "# Ignored\n\n## Part\n\nText.\n")
    write(vault, ".vaultragignore", "Ignored.md\n")
    (vault / "Broken.md").write_bytes(b"# Broken\n\n\x80\x81 not UTF-8\n")
    write(vault, "Later.md", "# Later\n\n## Soon\n\nPublic for now.\n")
    write(vault, "Open.md", "# Open\n\nSee [[Secret]], [[Secret#Plans]], [[Hidden]], [[Ignored#Part]], [[Broken]] "
                            "and [[Later#Soon]].\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        _index(vault, store)
        assert [(k.target, k.target_note, k.heading_found) for k in unresolved(store.db)] == [
            ("Secret", None, None), ("Secret", None, None), ("Hidden", None, None), ("Ignored", None, None),
            ("Broken", None, None)]
        codes = {n.code for n in health(store, str(vault), Settings()).notes["unresolved"]}
        assert codes == {Reason.UNRESOLVED_LINK}  # never "missing heading": that would tell the note exists
        # a note that turns private stops being a target at the next run
        write(vault, "Later.md", "---\ntags: [private]\n---\n# Later\n\n## Soon\n\nPrivate now.\n")
        _index(vault, store)
        assert [(k.target, k.target_note, k.heading_found) for k in unresolved(store.db)][-1] == ("Later", None, None)
    finally:
        store.close()


def test_a_heading_check_follows_the_target_notes_new_headings(vault: Path, tmp_path: Path):
    """Hostile round: only paths and aliases decided a full re-resolve, so a heading added to or removed from the
    target note left its links' heading checks as they were."""
    write(vault, "Sync.md", "# Sync\n\n## Old\n\nText.\n")
    write(vault, "a.md", "# A\n\nSee [[Sync#New]] and [[Sync#Old]].\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        _index(vault, store)
        assert [k.heading for k in unresolved(store.db)] == ["New"]
        write(vault, "Sync.md", "# Sync\n\n## New\n\nThe text, rewritten.\n")
        _index(vault, store)
        assert [k.heading for k in unresolved(store.db)] == ["Old"]
    finally:
        store.close()


def test_a_heading_without_text_under_it_is_a_heading(vault: Path, tmp_path: Path):
    """Hostile round: headings were read from the chunks' heading paths, which hold no heading without text."""
    write(vault, "N.md", "# N\n\n## Empty\n## Full\n\nText.\n\n## Last\n")
    write(vault, "a.md", "# A\n\nSee [[N#Empty]], [[N#Full]], [[N#Last]] and [[N#Absent]].\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        _index(vault, store)
        assert [(k.heading, k.heading_found) for k in of_notes(store.db, ["a.md"])] == [
            ("Empty", True), ("Full", True), ("Last", True), ("Absent", False)]
    finally:
        store.close()


CODE_NOTE = ("# T\n\nA ``a ` [[in double span]]`` and ``[[double]]`` here, ` `` [[single]] `` ` too.\n\n"
             "> ```\n> [[quoted fence]]\n> ```\n\n"
             "    [[indented code]]\n\n"
             "- item\n\n      [[code in a list]]\n\n"
             "- item\n\n  [[paragraph in a list]]\n\n"
             "A paragraph\n    [[its continuation]] and an unclosed `` [[after a lone run]].\n")


def test_links_in_any_kind_of_code_are_no_links(vault: Path, tmp_path: Path):
    """Hostile round: a double-backtick span holding a backtick, a fence in a blockquote and an indented code block
    hid their links from nothing."""
    assert [k.target for k in extract(CODE_NOTE)] == ["paragraph in a list", "its continuation", "after a lone run"]
    assert [k.target for k in extract(CODE_NOTE.replace("\n", "\r\n"))] == [
        "paragraph in a list", "its continuation", "after a lone run"]
    write(vault, "code.md", CODE_NOTE)
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        _index(vault, store)
        found = of_notes(store.db, ["code.md"])
        assert [(k.target, CODE_NOTE[k.char_start:k.char_end]) for k in found] == [
            ("paragraph in a list", "[[paragraph in a list]]"), ("its continuation", "[[its continuation]]"),
            ("after a lone run", "[[after a lone run]]")]
    finally:
        store.close()


def test_frontmatter_aliases_are_names_as_written(vault: Path, tmp_path: Path):
    """Hostile round: `alias: My Name` became the aliases "My" and "Name"; numbers, mappings and nested lists were
    kept as Python reprs."""
    write(vault, "Person.md", "---\nalias: My Name\n---\n# Person\n\nText.\n")
    write(vault, "Book.md", "---\naliases: [1984, {a: b}, [x, y], null, true, ' Big Brother ']\n---\n# Book\n\nText.\n")
    write(vault, "a.md", "# A\n\n[[My Name]], [[My]], [[Name]], [[1984]], [[Big Brother]], [[{'a': 'b'}]], "
                         "[[True]].\n")
    store = IndexStore.open(tmp_path / "i.sqlite")
    try:
        _index(vault, store)
        assert {k.target: k.target_note for k in of_notes(store.db, ["a.md"])} == {
            "My Name": "Person.md", "My": None, "Name": None, "1984": "Book.md", "Big Brother": "Book.md",
            "{'a': 'b'}": None, "True": None}
        stored = dict(store.db.execute("select path, aliases from notes where path in ('Person.md', 'Book.md')"))
        assert stored == {"Person.md": '["My Name"]', "Book.md": '["1984", "Big Brother"]'}
    finally:
        store.close()

"""Related notes (core/related.py, `vaultrag related`, the MCP tool): a note linking by alias, a note close in meaning,
shared tags, "hide linked", and a private note that never appears. A real index (e5, sqlite-vec) of a vault written
for it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import write
from tests.test_app import demo as demo  # the fixture: a copy of the demo vault
from vaultrag.core.related import NoteVectors, related
from vaultrag.core.workspace import Workspace
from vaultrag.errors import UserFacingError

SOURDOUGH = ("---\naliases: [Levain bread]\ntags: [baking]\n---\n# Sourdough\n\n## Starter\nFeed the sourdough starter "
             "with flour and water every day; it is ready when it doubles in four hours.\n\n## Baking\nBake the loaf "
             "at 250 degrees with steam for twenty minutes, then lower the oven to 220.\n")


def vaultrag(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args], capture_output=True,
                          text=True, timeout=300)


@pytest.fixture
def web(vault: Path, home: Path) -> Path:
    write(vault, "Sourdough.md", SOURDOUGH)
    write(vault, "Weekend.md", "# Weekend\n\nSaturday: market, then bake [[Levain bread|the bread]] for Sunday "
                               "lunch with the neighbours. Sunday: a walk by the river.\n")
    write(vault, "Baguette.md", "---\ntags: [baking]\n---\n# Baguette\n\nA baguette dough rests overnight in the "
                                "fridge; bake it in a hot oven with steam until the crust is dark and crisp. Flour, "
                                "water, salt and a little yeast.\n")
    write(vault, "Taxes.md", "# Taxes\n\nThe income tax return is due in April; keep the receipts of the "
                             "deductible expenses in the blue folder.\n")
    write(vault, "Secret recipe.md", "#private\n# Grandma's bread\n\nThe sourdough starter is fed with rye flour "
                                     "and honey, baked at 250 degrees with steam: see [[Sourdough]]. PRIVATE-CANARY\n")
    r = vaultrag(home, "index", str(vault))
    assert r.returncode == 0, r.stderr
    return vault


def test_related_lists_a_note_linking_by_alias_and_one_close_in_meaning_never_a_private_one(web: Path, home: Path):
    store, _ = Workspace.load(web, home).open_store(readonly=True)
    try:
        found = {r.note: r for r in related(store, "Sourdough.md")}
        assert "Secret recipe.md" not in found, "a private note is never related (nor its link to this one)"
        weekend = found["Weekend.md"]
        assert weekend.linked_from and not weekend.links_to and weekend.aliases == ("Levain bread",)
        baguette = found["Baguette.md"]
        assert not baguette.linked and baguette.tags == ("baking",)
        assert baguette.passage is not None and baguette.passage.mine.startswith("Sourdough")
        close = [r.note for r in related(store, "Sourdough.md", n=1, hide_linked=True)]
        assert close == ["Baguette.md"], "closest in meaning, not linked: the other bread, not the taxes"
        assert found["Baguette.md"].cosine > found["Taxes.md"].cosine
        hidden = {r.note for r in related(store, "Sourdough.md", hide_linked=True)}
        assert "Weekend.md" not in hidden and "Baguette.md" in hidden
        back = {r.note: r for r in related(store, "Weekend.md")}
        assert back["Sourdough.md"].links_to and back["Sourdough.md"].aliases == ("Levain bread",)
        kept = NoteVectors()
        assert related(store, "Sourdough.md", vectors=kept) == related(store, "Sourdough.md", vectors=kept)
        with pytest.raises(UserFacingError, match="is not in the index"):
            related(store, "Secret recipe.md")
    finally:
        store.close()


def test_the_related_command_prints_why_and_json(web: Path, home: Path):
    r = vaultrag(home, "related", str(web), "Sourdough.md")
    assert r.returncode == 0, r.stderr
    assert "Weekend.md — meaning" in r.stdout and "links here (as Levain bread)" in r.stdout
    assert "tags #baking" in r.stdout and "Secret" not in r.stdout and "PRIVATE-CANARY" not in r.stdout
    data = json.loads(vaultrag(home, "related", str(web), "Sourdough.md", "--hide-linked", "--json").stdout)
    assert "Weekend.md" not in {d["note"] for d in data} and data[0]["note"] == "Baguette.md"
    missing = vaultrag(home, "related", str(web), "Secret recipe.md")
    assert missing.returncode == 2 and "is not in the index" in missing.stderr


def test_the_preview_shows_links_backlinks_and_related_notes_and_opens_one(qtbot, home: Path, demo: Path):
    pytest.importorskip("pytestqt")
    from tests.test_app import ask, fake_controller, open_and_wait
    from vaultrag.app.widgets.main_window import MainWindow

    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, demo)
    preview = w.inspector.panes["preview"]
    with qtbot.waitSignal(w.c.web_read, timeout=30_000, check_params_cb=lambda web: web.note.startswith("Casa/")):
        ask(qtbot, w, "Qual o prazo do reembolso?")
    qtbot.waitUntil(lambda: "Academia" in preview.web.toPlainText(), timeout=30_000)
    said = preview.web.toPlainText()
    assert said.startswith("Related: ") and "Backlinks ← " in said and "Links → " in said
    assert "Academia" in said.split("Links → ")[1], "Reembolso links to [[Academia]]"
    hidden_before = said
    with qtbot.waitSignal(w.c.web_read, timeout=30_000):
        preview.hide_linked.setChecked(True)
    qtbot.waitUntil(lambda: preview.web.toPlainText() != hidden_before, timeout=30_000)
    related_part = preview.web.toPlainText().split("Related: ", 1)[1].split("Backlinks")[0]
    assert "Academia" not in related_part, "hidden: it is linked"
    import re
    from urllib.parse import unquote

    from PySide6.QtCore import QUrl

    href = next(h for h in re.findall(r'href="(note:[^"]+)"', preview.web.toHtml()) if "Academia" in h)
    with qtbot.waitSignal(w.c.note_read, timeout=30_000):
        preview.web.anchorClicked.emit(QUrl(href))  # what a click on the link sends
    target = unquote(href.removeprefix("note:"))
    assert (demo / target).is_file()
    qtbot.waitUntil(lambda: preview.note == target, timeout=30_000)
    assert preview.title.text() == target and "# Academia" in preview.text.toPlainText()
    w.close()

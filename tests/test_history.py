"""Conversations kept (core/history.py, app/keeper.py, the History tab, `vaultrag history`): every exchange kept as it
happens, even through a kill -9; search; reopened with its trace; exported with every source; deleted without a
trace of its text under the app home. Real index files, real traces (the fake embedder), a real window."""

from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
from pathlib import Path

import pytest

from tests.test_app import demo as demo  # the fixture: a copy of the demo vault
from vaultrag.core.history import History
from vaultrag.core.model import QueryTrace, to_dict
from vaultrag.core.revive import revive

QUESTION = "Qual o prazo do reembolso?"
FOLLOW_UP = "e para cancelar, qwzx?"  # "qwzx": in no note, so a file holding it holds the question


def files_holding(root: Path, text: str) -> list[Path]:
    """Every file under `root` whose bytes hold `text` (UTF-8)."""
    needle = text.encode("utf-8")
    return [p for p in root.rglob("*") if p.is_file() and needle in p.read_bytes()]


def traces(home: Path, demo: Path) -> list[QueryTrace]:
    from tests.fakes import CountingEmbedder
    from vaultrag.core.index.indexer import CancelToken, Indexer, IndexOptions, run_to_end
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.workspace import Workspace

    ws = Workspace.load(demo, home)
    store, _ = ws.open_store()
    embedder = CountingEmbedder(floor=0.8)
    run_to_end(Indexer(ws.vault, store, IndexOptions.from_settings(ws.settings), embedder).run(CancelToken()))
    s = Searcher(store, ws.settings, embedder)
    out = [s.ask(q) for q in (QUESTION, "Quanto custa a academia por ano?", "qual a capital da Mongólia?")]
    store.close()
    return out


def test_an_exchange_round_trips_and_the_export_names_every_source(tmp_path: Path, home: Path, demo: Path):
    kept = traces(home, demo)
    assert all(revive(QueryTrace, json.loads(json.dumps(to_dict(t)))) == t for t in kept)
    h = History(tmp_path / "h.sqlite")
    first = h.record("talk-1", kept[0])
    h.record("talk-1", kept[1])
    h.record("talk-2", kept[2])
    assert [c.exchanges for c in h.conversations()] == [1, 2]
    assert [c.id for c in h.conversations("ACADEMIA POR ANO")] == ["talk-1"], "search: any case"
    assert h.conversations("100%_x") == [], "% and _ are letters in a search"
    assert h.trace(first) == kept[0]
    md = h.export_markdown("talk-1", demo)
    assert md.startswith(f"# {QUESTION}") and "## Quanto custa a academia por ano?" in md
    for t in kept[:2]:
        for d in t.context:
            assert f"[{d.index}] [{d.source}](" in md and f"`{d.note}`, line {d.line_start + 1}" in md
            assert (demo / d.note).as_uri() in md
    assert h.forget_notes({kept[0].context[0].note}) >= 1
    assert all(x.id != first for x in h.exchanges("talk-1"))
    h.close()


def test_deleting_leaves_no_question_text_in_the_file(tmp_path: Path, home: Path, demo: Path):
    kept = traces(home, demo)
    path = tmp_path / "history" / "h.sqlite"
    h = History(path)
    for t in kept:
        h.record("talk", t)
    h.close()
    assert files_holding(path.parent, QUESTION) == [path]
    h = History(path)
    assert h.delete_all() == 3
    h.close()
    assert files_holding(path.parent, QUESTION) == [], "secure_delete + vacuum: the freed pages hold nothing"
    assert oct(path.stat().st_mode & 0o777) == "0o600" and oct(path.parent.stat().st_mode & 0o777) == "0o700"


KILLER = """
import json, os, signal, sys
from vaultrag.core.history import History
from vaultrag.core.model import QueryTrace
from vaultrag.core.revive import revive
path, traces = sys.argv[1], json.load(open(sys.argv[2]))
h = History(path)
for t in traces:
    h.record("talk", revive(QueryTrace, t))
h.db.execute("begin")  # an answer being written: a write in progress when the process dies
h.db.execute("update exchanges set answer = 'half an answer'")
print("written", flush=True)
os.kill(os.getpid(), signal.SIGKILL)
"""


@pytest.mark.skipif(not hasattr(signal, "SIGKILL"), reason="no kill -9 here")
def test_a_killed_process_keeps_every_finished_exchange(tmp_path: Path, home: Path, demo: Path):
    kept = traces(home, demo)
    dumped = tmp_path / "traces.json"
    dumped.write_text(json.dumps([to_dict(t) for t in kept]), encoding="utf-8")
    path = tmp_path / "history.sqlite"
    r = subprocess.run([sys.executable, "-c", KILLER, str(path), str(dumped)], capture_output=True, text=True,
                       timeout=120, env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert r.returncode == -signal.SIGKILL and "written" in r.stdout, r.stderr
    h = History(path)
    items = h.exchanges("talk")
    assert [x.question for x in items] == [t.question for t in kept]
    assert all(x.answer != "half an answer" for x in items) and h.trace(items[0].id) == kept[0]
    assert h.db.execute("pragma integrity_check").fetchone()[0] == "ok"
    h.close()


def test_the_history_command_lists_exports_and_deletes(tmp_path: Path, home: Path, demo: Path):
    from vaultrag.paths import Paths

    kept = traces(home, demo)
    h = History(Paths(home).history_file(demo))
    for t in kept[:2]:
        h.record("a1b2c3d4e5", t)
    h.close()

    def run(*args: str) -> subprocess.CompletedProcess[str]:
        return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "history", str(demo), *args],
                              capture_output=True, text=True, timeout=120)

    listed = run()
    assert listed.returncode == 0 and listed.stdout.startswith("a1b2c3d4") and "2 exchange(s)" in listed.stdout
    assert QUESTION in listed.stdout
    out = tmp_path / "talk.md"
    assert run("--export", "a1b2", "--out", str(out)).returncode == 0
    assert kept[0].context[0].source in out.read_text(encoding="utf-8")
    assert "no conversation matches" in run("--search", "zebra").stdout
    wrong = run("--export", "zz")
    assert wrong.returncode == 2 and "names 0 conversations" in wrong.stderr
    assert "deleted 2 exchange(s)" in run("--delete", "a1b2").stdout
    assert "no conversation kept" in run().stdout


def test_the_window_keeps_each_exchange_reopens_exports_and_deletes_it(qtbot, home: Path, demo: Path, tmp_path: Path,
                                                                        monkeypatch):
    pytest.importorskip("pytestqt")
    from PySide6.QtWidgets import QFileDialog, QMessageBox

    from tests.test_app import ask, fake_controller, open_and_wait
    from vaultrag.app.widgets.main_window import MainWindow

    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, demo)
    view = w.history_view
    with qtbot.waitSignal(w.c.history.changed, timeout=30_000):
        ask(qtbot, w, QUESTION)
    with qtbot.waitSignal(w.c.history.changed, timeout=30_000):
        second = ask(qtbot, w, FOLLOW_UP)
    w.answer_view.new_conversation_requested.emit()
    with qtbot.waitSignal(w.c.history.changed, timeout=30_000):
        ask(qtbot, w, "Quanto custa a academia por ano?")
    w._tab(3)
    qtbot.waitUntil(lambda: view.talks.count() == 2, timeout=30_000)
    assert "1 question(s)" in view.talks.item(0).text() and "2 question(s)" in view.talks.item(1).text()
    view.talks.setCurrentRow(1)
    qtbot.waitUntil(lambda: view.items.count() == 2, timeout=30_000)
    assert view.items.item(1).text().startswith(FOLLOW_UP)
    view.items.setCurrentRow(1)
    w.trace = None
    with qtbot.waitSignal(view.reopen_requested, timeout=30_000) as got:
        view.reopen.click()
    assert got.args[0] == second and w.trace == second and w.tabs.currentIndex() == 0
    w._tab(3)
    out = tmp_path / "exported.md"
    monkeypatch.setattr(QFileDialog, "getSaveFileName", lambda *a, **k: (str(out), "Markdown (*.md)"))
    view.talks.setCurrentRow(1)
    with qtbot.waitSignal(w.c.history.exported, timeout=30_000):
        view.export.click()
    text = out.read_text(encoding="utf-8")
    assert all(d.source in text for d in second.context) and f"## {FOLLOW_UP}" in text
    view.search.setText("academia")
    qtbot.waitUntil(lambda: view.talks.count() == 1, timeout=30_000)
    view.search.setText("")
    qtbot.waitUntil(lambda: view.talks.count() == 2, timeout=30_000)
    monkeypatch.setattr(QMessageBox, "question", lambda *a, **k: QMessageBox.StandardButton.Yes)
    with qtbot.waitSignal(w.c.history.changed, timeout=30_000):
        view.delete_all.click()
    qtbot.waitUntil(lambda: view.talks.count() == 0, timeout=30_000)
    assert w.history == [], "the question box forgets them too"
    w.close()
    assert files_holding(home, "qwzx") == [], [str(p) for p in files_holding(home, "qwzx")]


def test_an_exchange_citing_a_note_made_private_is_forgotten_with_it(qtbot, home: Path, demo: Path):
    pytest.importorskip("pytestqt")
    from tests.test_app import ask, fake_controller, open_and_wait
    from vaultrag.app.widgets.main_window import MainWindow

    w = MainWindow(fake_controller(home))
    qtbot.addWidget(w)
    w.show()
    open_and_wait(qtbot, w, demo)
    with qtbot.waitSignal(w.c.history.changed, timeout=30_000):
        trace = ask(qtbot, w, QUESTION)
    cited = demo / trace.context[0].note
    history = w.c.paths.history_file(demo)
    passage = "aparecer na fatura é de até 7 dias úteis"  # words of the cited passage, kept in the trace
    assert passage in trace.context[0].text and files_holding(history.parent, passage)
    with qtbot.waitSignal(w.c.history.changed, timeout=60_000):  # the watcher re-indexes it; its exchange goes
        cited.write_text("#private\n" + cited.read_text(encoding="utf-8"), encoding="utf-8")
    assert files_holding(history.parent, passage) == []
    assert not (w.c.paths.home / "history" / f"{history.stem}.sqlite-journal").exists()
    w.close()

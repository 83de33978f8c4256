"""Start the real app on the demo vault and save the main states as 1280×800 PNGs under docs/screenshots/; then
the same window on real vaults with long names (the Obsidian help vault, faquad-pt) under benchmarks/out/.

Run: python benchmarks/screenshot.py [out_dir] [--only=demo|real] [--lang=en,pt] [--size=1024x700,1920x1080]
     [--look=high-contrast,large-font]   (the demo's states in a high-contrast palette or a 1.5× font)
(default docs/screenshots, all, 1280×800; another size's real-vault shots go to a folder named by it)
Under Xvfb (`apt-get install xvfb xauth`) the whole 1280×800 screen is grabbed, dialogs included; without it the
window renders offscreen (dialogs are then saved on their own).
States: answer, refusal, cross-stage selection, a follow-up with its rewrite, a note flagged as hostile, the
offer of a local language model server, why-not (irrelevant note, excluded note), health, evaluation, settings
(with the reranker's download, and Settings › Language model's built-in model), indexing in progress, and the
answer, the follow-up, the offer, index health and Settings › Language model in Portuguese.
Real vaults (../shared/eval: Obsidian help in the window's language, faquad-pt; never committed: the help vault has
no licence to publish), in both languages: the answer with the candidate table, a lower row selected (its parts as
bars and why it is below the row above), the lists side by side, and the table without the keyword and vector
columns. For each it prints how many characters of "note › heading" the visible rows show, in each view.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's vaultrag, not an installed one
EVAL = ROOT.parent / "shared" / "eval" / "data"
REAL_OUT = ROOT / "benchmarks" / "out" / "screenshots-real"
# each real vault's copy and home kept between runs (its index is reused: only the first run embeds it)
REAL_WORK = ROOT / "benchmarks" / "out" / "real-vaults"
# (name, vault folder, question) per window language: real names, long and many
REAL = {"en": [("obsidian-help", EVAL / "obsidian-help" / "en", "How do I sync my vault to another device?"),
               ("faquad-pt", EVAL / "faquad-pt" / "vault", "Quais são as atividades complementares do curso?"),
               # a question in the other language than the notes: the translate stage above the lists
               ("obsidian-help-asked-in-pt", EVAL / "obsidian-help" / "en",
                "Como recuperar uma nota que apaguei sem querer?")],
        "pt": [("obsidian-help", EVAL / "obsidian-help" / "pt-br",
                "Como sincronizar meu cofre com outro dispositivo?"),
               ("faquad-pt", EVAL / "faquad-pt" / "vault", "Quais são as atividades complementares do curso?"),
               ("obsidian-help-asked-in-en", EVAL / "obsidian-help" / "pt-br", "How do I embed an image in a note?")]}
# the seeds' injection case: a note that tries to give the language model orders (flagged at index time)
HOSTILE = (ROOT / "tests" / "data" / "hostile-note.md").read_text(encoding="utf-8")
# the screen's size: 1280×800 unless a run asks for others (--size; a child reads its own from the environment)
W, H = (int(x) for x in os.environ.get("_VAULTRAG_SIZE", "1280x800").split("x"))
GOLDEN = [  # a tiny golden set for the demo vault (the evaluation view warns that it is too small to calibrate)
    {"question": "Qual o prazo do reembolso?", "gold_note": "Casa/Reembolso e cancelamentos.md"},
    {"question": "Como criar um ambiente virtual Python?", "gold_note": "Trabalho/Python venv.md"},
    {"question": "Como faço o deploy?", "gold_note": "Trabalho/Deploy.md"},
    {"question": "What did we eat in Lisbon?", "gold_note": "Travel/Lisbon trip.md"},
    {"question": "Qual o horário da academia?", "gold_note": "Casa/Academia.md"},
    {"question": "Qual a capital da Mongólia?", "answerable": False},
    {"question": "Quem ganhou a copa de 1970?", "answerable": False},
]


def wait(app: Any, cond: Any, timeout: float = 120.0) -> None:
    t0 = time.monotonic()
    while not cond() and time.monotonic() - t0 < timeout:
        app.processEvents()
        time.sleep(0.01)
    settle(app)


def settle(app: Any, n: int = 30) -> None:
    for _ in range(n):
        app.processEvents()
        time.sleep(0.01)


def save(app: Any, window: Any, out: Path, name: str, dialog: Any = None) -> None:
    settle(app)
    if os.environ.get("QT_QPA_PLATFORM") == "offscreen":
        pix = (dialog or window).grab()
    else:
        pix = app.primaryScreen().grabWindow(0).copy(0, 0, W, H)
    path = out / f"{name}.png"
    pix.save(str(path))
    print(f"saved {path} ({pix.width()}×{pix.height()})")


def show_llm_settings(app: Any, w: Any, out: Path, name: str) -> None:
    """Settings › Language model as a new user finds it: the built-in model chosen, the catalog's first model
    picked (its size, RAM and languages), Download and "Use a GGUF file I already have…"."""
    from PySide6.QtCore import QPoint
    from PySide6.QtWidgets import QScrollArea

    from vaultrag.app.widgets.llm_editor import Mode

    w.show_settings()
    dialog = w.settings_dialog
    dialog.move(W // 2 - dialog.width() // 2, 40)
    editor = dialog.llm
    editor.mode.setCurrentIndex(max(0, editor.mode.findData(Mode.LOCAL)))
    editor.catalog.setCurrentItem(editor.catalog.topLevelItem(0))
    scroll = dialog.findChild(QScrollArea)
    settle(app)
    scroll.verticalScrollBar().setValue(editor.mapTo(scroll.widget(), QPoint(0, 0)).y() - 30)
    save(app, w, out, name, dialog)
    dialog.reject()


LOOKS = ("high-contrast", "large-font")  # --look: how a user with low vision sets the desktop up


def apply_look(app: Any, look: str) -> None:
    """A desktop's high-contrast theme (white on black, yellow selection) or a font 1.5 times the default, as the
    platform would hand them to the app (a palette, an application font)."""
    from PySide6.QtGui import QColor, QPalette

    if look == "high-contrast":
        p = QPalette()
        role = QPalette.ColorRole
        for r, c in ((role.Window, "#000000"), (role.WindowText, "#ffffff"), (role.Base, "#000000"),
                     (role.AlternateBase, "#1a1a1a"), (role.Text, "#ffffff"), (role.Button, "#000000"),
                     (role.ButtonText, "#ffffff"), (role.Highlight, "#ffff00"), (role.HighlightedText, "#000000"),
                     (role.ToolTipBase, "#000000"), (role.ToolTipText, "#ffffff"), (role.Link, "#00ffff"),
                     (role.PlaceholderText, "#c0c0c0"), (role.BrightText, "#ffffff")):
            p.setColor(r, QColor(c))
        app.setPalette(p)
    elif look == "large-font":
        font = app.font()
        font.setPointSizeF(font.pointSizeF() * 1.5)
        app.setFont(font)


def shoot(out: Path, language: str) -> None:
    from PySide6.QtWidgets import QApplication, QScrollArea

    from vaultrag.app.controller import AppController
    from vaultrag.app.main import _install_translator
    from vaultrag.app.widgets.main_window import DEMO_VAULT, MainWindow
    from vaultrag.core.llm.generator import FoundServer

    app = QApplication.instance() or QApplication(sys.argv[:1])
    translator = _install_translator(app, language)  # noqa: F841  (kept alive for the window's lifetime)
    apply_look(app, os.environ.get("_VAULTRAG_LOOK", ""))
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as tmp:
        vault = Path(tmp) / "demo"
        shutil.copytree(DEMO_VAULT, vault)
        c = AppController(Path(tmp) / "home")
        w = MainWindow(c)
        w.setGeometry(0, 0, W, H)
        w.show()
        done: dict[str, Any] = {}
        c.index_changed.connect(lambda e: done.setdefault("ready", 1) if e.kind == "embedded" else None)
        c.search_finished.connect(lambda t: done.__setitem__("trace", t))

        def ask(question: str) -> Any:
            done.pop("trace", None)
            w.question.setText(question)
            w.ask()
            wait(app, lambda: "trace" in done)
            return done["trace"]

        w.open_vault(vault)
        wait(app, lambda: "ready" in done)
        # what the first-run detection shows when a server answers (a real one is found by
        # `w.offer_local_llm()`; here the bar is fed what Ollama with two models would list)
        offer = [FoundServer("Ollama", "http://127.0.0.1:11434/v1", ["llama3.2:3b", "qwen2.5:7b"])]
        if language == "pt":
            ask("Qual o prazo do reembolso?")
            save(app, w, out, "pt-answer")
            ask("e para cancelar?")
            w.llm_offer.show_found(offer)
            save(app, w, out, "pt-follow-up")
            w.llm_offer.hide()
            w._tab(1, refresh=True)  # index health: the notes left out, each with its reason in Portuguese
            w.health.tabs.setCurrentIndex(1)
            wait(app, lambda: w.health.lists["excluded"].count() > 0, 30)
            save(app, w, out, "pt-health")
            show_llm_settings(app, w, out, "pt-settings-llm")
            w.close()
            return
        trace = ask("Qual o prazo do reembolso?")
        save(app, w, out, "answer")
        stages = w.inspector.panes["candidates"]
        # a lower row, picked in the table: its parts as bars beside the row above's, why it is not one higher
        stages.table.selectRow(min(2, stages.table.rowCount() - 1))
        save(app, w, out, "selection")
        ask("Qual a capital da Mongólia?")
        save(app, w, out, "refusal")
        w.answer_view.new_conversation_requested.emit()
        ask("Qual o prazo do reembolso?")
        ask("e para cancelar?")  # no language model here: the previous question's terms are carried
        save(app, w, out, "follow-up")
        # a hostile note arrives in the vault (the watcher indexes it), then a question that finds it
        done.pop("ready", None)
        (vault / "shopping.md").write_text(HOSTILE, encoding="utf-8")
        wait(app, lambda: "ready" in done)
        w.answer_view.new_conversation_requested.emit()
        trace = ask("When do I buy milk and bread?")
        hostile = next((d for d in trace.context if d.note == "shopping.md"), None)
        if hostile is not None:
            w.inspector.panes["prompt"].tree.topLevelItem(hostile.index - 1).setExpanded(True)
        save(app, w, out, "hostile-note")
        w.llm_offer.show_found(offer)
        save(app, w, out, "llm-offer")
        w.llm_offer.hide()
        (vault / "shopping.md").unlink()  # the later states show the demo vault as it ships
        done.pop("ready", None)
        wait(app, lambda: "ready" in done, 30)
        w.answer_view.new_conversation_requested.emit()
        # why not: an irrelevant note, then an excluded one
        ask("Qual o prazo do reembolso?")
        w.show_why()
        w.why_dialog.move(W - w.why_dialog.width() - 20, 120)
        c.diagnosis_finished.connect(lambda d: done.__setitem__("diag", d))
        for note, name in (("Travel/Lisbon trip.md", "why-not-irrelevant"),
                           ("Trabalho/Rascunho.md", "why-not-excluded")):
            done.pop("diag", None)
            w.why_dialog.picker.setEditText(note)
            w.why_dialog.run.click()
            wait(app, lambda: "diag" in done, 60)
            save(app, w, out, name, w.why_dialog)
        w.why_dialog.hide()
        w._tab(1, refresh=True)
        w.health.tabs.setCurrentIndex(1)  # the notes left out, each with its reason
        wait(app, lambda: w.health.lists["excluded"].count() > 0, 30)
        save(app, w, out, "health")
        golden = Path(tmp) / "golden.jsonl"
        golden.write_text("\n".join(json.dumps(g, ensure_ascii=False) for g in GOLDEN) + "\n", encoding="utf-8")
        w._tab(2)
        w.evaluation.path.setText(str(golden))
        c.eval_finished.connect(lambda r: done.__setitem__("eval", r))
        w.evaluation.calibrate.click()
        wait(app, lambda: "eval" in done, 120)
        save(app, w, out, "evaluation")
        w._tab(0)
        w.show_settings()
        w.settings_dialog.move(W // 2 - w.settings_dialog.width() // 2, 60)
        save(app, w, out, "settings", w.settings_dialog)
        editor = w.settings_dialog.reranker  # the reranker's hub choice, as a user about to download it sees it
        editor.kind.setCurrentIndex(editor.kind.findData("cross-encoder"))
        w.settings_dialog.findChild(QScrollArea).ensureWidgetVisible(editor, 0, 200)
        save(app, w, out, "settings-reranker", w.settings_dialog)
        w.settings_dialog.reject()
        show_llm_settings(app, w, out, "settings-llm")
        # indexing in progress: a bigger vault, caught while its vectors fill
        big = Path(tmp) / "bigger"
        text = (DEMO_VAULT / "Casa" / "Reembolso e cancelamentos.md").read_text(encoding="utf-8")
        for i in range(400):
            p = big / f"n{i // 20}" / f"nota {i}.md"
            p.parent.mkdir(parents=True, exist_ok=True)
            p.write_text(f"# Nota {i}\n\n{text}\n\nParágrafo {i} sobre o tema {i}.\n", encoding="utf-8")
        progress: dict[str, int] = {}
        c.index_progress.connect(lambda p: progress.__setitem__("embed", p.done) if p.phase == "embed" else None)
        w.open_vault(big)
        wait(app, lambda: progress.get("embed", 0) >= 32, 120)
        ask("prazo do reembolso")
        save(app, w, out, "indexing")
        w.close()


def name_chars(w: Any) -> dict[str, list[tuple[int, int]]]:
    """Per view of the candidates: (characters of "note › heading" drawn, of the whole) for each visible row."""
    from vaultrag.app.widgets.candidate_table import drawn_text, shown_chars

    stages = w.inspector.panes["candidates"]
    tables = [stages.table] if not stages.lists_shown() else [
        t for t in stages.tables.values() if t.isVisibleTo(w)]
    out: dict[str, list[tuple[int, int]]] = {}
    for table in tables:
        col = next(c for c in range(table.columnCount())
                   if table.horizontalHeaderItem(c) and "›" in table.horizontalHeaderItem(c).text())
        rows = []
        top = table.rowAt(0)
        for r in range(max(top, 0), table.rowCount() if top >= 0 else 0):
            if table.visualRect(table.model().index(r, col)).top() >= table.viewport().height():
                break
            full, drawn = drawn_text(table, r, col)
            rows.append((shown_chars(drawn), len(full)))
        out[table.objectName()] = rows
    return out


def report_chars(label: str, chars: dict[str, list[tuple[int, int]]]) -> None:
    """One line per table: the fewest, median and most characters shown, of how many; rows under 24."""
    for table, rows in chars.items():
        if not rows:
            continue
        shown = sorted(s for s, _ in rows)
        whole = sum(1 for s, n in rows if s >= n)
        short = sum(1 for s, n in rows if s < min(24, n))
        print(f"  {label:28} {table:18} rows {len(rows):2}  chars shown min {shown[0]:3} median "
              f"{shown[len(shown) // 2]:3} max {shown[-1]:3} (whole names {max(n for _, n in rows):3} max)  "
              f"whole in {whole}/{len(rows)}  under 24: {short}")


FOLLOW_UPS = {"en": "and on my phone?", "pt": "e no celular?"}


def shoot_real(out: Path, language: str) -> None:
    """The main states on real vaults with long names, and how much of each name the views show."""
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.controller import AppController
    from vaultrag.app.main import _install_translator
    from vaultrag.app.widgets.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    translator = _install_translator(app, language)  # noqa: F841
    out.mkdir(parents=True, exist_ok=True)
    for name, source, question in REAL[language]:
        if not source.is_dir():
            print(f"skipped {name}: {source} is missing (../shared/eval)")
            continue
        work = REAL_WORK / source.relative_to(EVAL).as_posix().replace("/", "-")
        vault = work / "vault"
        if not vault.is_dir():
            shutil.copytree(source, vault)
        c = AppController(work / "home")
        w = MainWindow(c)
        w.setGeometry(0, 0, W, H)
        w.show()
        done: dict[str, Any] = {}
        c.index_changed.connect(lambda e, d=done: d.setdefault("ready", 1) if e.kind == "embedded" else None)
        c.search_finished.connect(lambda t, d=done: d.__setitem__("trace", t))
        t0 = time.monotonic()
        w.open_vault(vault)
        wait(app, lambda d=done: "ready" in d, 900)
        print(f"{language} {name}: indexed in {time.monotonic() - t0:.0f} s")
        stem = f"{language}-{name}"
        save(app, w, out, f"{stem}-before")  # before the first question: what the empty panes say
        w.question.setText(question)
        w.ask()
        wait(app, lambda d=done: "trace" in d)
        trace = done["trace"]
        stages = w.inspector.panes["candidates"]
        save(app, w, out, f"{stem}-answer")
        report_chars(f"{stem} table", name_chars(w))
        lower = trace.final[min(3, len(trace.final) - 1)]  # a row below others: why not one higher
        w.inspector.select(lower)
        save(app, w, out, f"{stem}-selection")
        side = next(a for a in w.menu_actions if a.objectName() == "view-side-by-side")
        side.trigger()
        settle(app)
        save(app, w, out, f"{stem}-lists")
        report_chars(f"{stem} lists", name_chars(w))
        first = next(a for a in w.menu_actions if a.objectName() == "view-retrieval-lists")
        first.trigger()
        settle(app)
        save(app, w, out, f"{stem}-lists-no-retrieval")
        report_chars(f"{stem} lists, no kw/vec", name_chars(w))
        side.trigger()
        settle(app)
        save(app, w, out, f"{stem}-table-no-retrieval")
        report_chars(f"{stem} table, no kw/vec", name_chars(w))
        first.trigger()
        assert not stages.lists_shown()
        if name == "obsidian-help":  # a second question, then the History tab with both, and the links line
            w.question.setText(FOLLOW_UPS[language])
            done.pop("trace", None)
            w.ask()
            wait(app, lambda d=done: "trace" in d)
            w._tab(3)
            wait(app, lambda v=w.history_view: v.items.count() > 0, 30)
            save(app, w, out, f"{stem}-history")
            w._tab(0)
        w.close()


def out_dirs(args: list[str]) -> dict[str, Path]:
    """Each kind's folder: the one given, whichever kind is shot (--only=real used to write to REAL_OUT
    regardless), else its default."""
    given = Path(args[0]) if args else None
    return {"demo": given or ROOT / "docs" / "screenshots", "real": given or REAL_OUT}


def main() -> None:
    if {"-h", "--help"} & set(sys.argv[1:]):  # not a run into docs/screenshots (fresh eyes: it started one)
        print(__doc__)
        return
    args = [a for a in sys.argv[1:] if not a.startswith("--")]
    only = next((a.partition("=")[2] for a in sys.argv[1:] if a.startswith("--only=")), "")
    languages = next((a.partition("=")[2].split(",") for a in sys.argv[1:] if a.startswith("--lang=")), ["en", "pt"])
    sizes = next((a.partition("=")[2].split(",") for a in sys.argv[1:] if a.startswith("--size=")), [f"{W}x{H}"])
    looks = next((a.partition("=")[2].split(",") for a in sys.argv[1:] if a.startswith("--look=")), [""])
    if looks != [""]:  # the demo's states in each look, 1280×800, into benchmarks/out/screenshots-access/<look>
        for look in looks:
            for language in languages:
                env = {**os.environ, "_VAULTRAG_SHOT": f"demo:{language}", "_VAULTRAG_SIZE": f"{W}x{H}",
                       "_VAULTRAG_LOOK": look}
                out = Path(args[0]) if args else ROOT / "benchmarks" / "out" / "screenshots-access" / look
                cmd = [sys.executable, __file__, str(out)]
                if shutil.which("xvfb-run"):
                    env.pop("QT_QPA_PLATFORM", None)
                    cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {W}x{H}x24", *cmd]
                else:
                    env["QT_QPA_PLATFORM"] = "offscreen"
                subprocess.run(cmd, env=env, check=True)
        return
    if os.environ.get("_VAULTRAG_SHOT"):  # a child: its kind's folder is its argument
        kind, _, language = os.environ["_VAULTRAG_SHOT"].partition(":")
        (shoot_real if kind == "real" else shoot)(Path(args[0]), language)
        return
    outs = out_dirs(args)
    for size in sizes:
        for kind in ("demo", "real"):
            if only and only != kind:
                continue
            out = outs[kind] if size == "1280x800" or args else outs[kind] / size
            for language in languages:
                env = {**os.environ, "_VAULTRAG_SHOT": f"{kind}:{language}", "_VAULTRAG_SIZE": size}
                if shutil.which("xvfb-run"):
                    env.pop("QT_QPA_PLATFORM", None)
                    cmd = ["xvfb-run", "-a", "-s", f"-screen 0 {size}x24", sys.executable, __file__, str(out)]
                else:
                    env["QT_QPA_PLATFORM"] = "offscreen"
                    cmd = [sys.executable, __file__, str(out)]
                subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    main()

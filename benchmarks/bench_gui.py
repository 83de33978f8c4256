"""The window's event loop while a vault is opened, indexed (real default model) and asked: its longest stall.

Run: QT_QPA_PLATFORM=offscreen python benchmarks/bench_gui.py [--notes 60] [--runs 3]
Prints the median and worst of each run's longest gap between 10 ms timer ticks; not a test (a machine shared
with other work stalls any process: tests/test_app.py checks instead that the GUI thread runs no core work).
"""

from __future__ import annotations

import argparse
import os
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
from benchmarks._common import ROOT, median

DEMO_NOTE = ROOT / "resources" / "demo-vault" / "Casa" / "Reembolso e cancelamentos.md"


def one_run(notes: int) -> tuple[float, int]:
    """(longest gap in ms, ticks) over opening, indexing and asking a fresh vault of `notes` notes."""
    from PySide6.QtCore import QEventLoop, QTimer
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import MainWindow

    app = QApplication.instance() or QApplication([])
    tmp = Path(tempfile.mkdtemp(prefix="bench-gui-"))
    vault, home = tmp / "vault", tmp / "home"
    home.mkdir()
    text = DEMO_NOTE.read_text(encoding="utf-8")
    for i in range(notes):
        p = vault / f"n{i // 10}" / f"note{i}.md"
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(f"# Nota {i}\n\n{text}\n\nParágrafo único {i} sobre o tema {i}.\n", encoding="utf-8")
    w = MainWindow(AppController(home))
    w.show()
    gaps: list[float] = []
    last = [time.perf_counter()]

    def tick() -> None:
        now = time.perf_counter()
        gaps.append(now - last[0])
        last[0] = now

    timer = QTimer()
    timer.timeout.connect(tick)
    timer.start(10)
    loop = QEventLoop()
    w.c.index_changed.connect(lambda e: loop.quit() if e.kind == "embedded" else None)
    w.open_vault(vault)
    loop.exec()
    w.c.search_finished.connect(lambda _: loop.quit())
    w.question.setText("prazo do reembolso")
    w.question.returnPressed.emit()
    loop.exec()
    timer.stop()
    w.close()
    app.processEvents()
    return max(gaps) * 1000, len(gaps)


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--notes", type=int, default=60)
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    worst = [one_run(args.notes) for _ in range(args.runs)]
    stalls = [ms for ms, _ in worst]
    print(f"event-loop longest stall over open+index+ask of {args.notes} notes, {args.runs} runs: "
          f"median {median(stalls):.0f} ms, worst {max(stalls):.0f} ms ({median([t for _, t in worst]):.0f} ticks)")


if __name__ == "__main__":
    main()

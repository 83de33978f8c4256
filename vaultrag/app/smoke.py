"""`vaultrag --smoke-test`: the real window, offscreen, on the demo vault in a temp home; exit 0 when it works."""

from __future__ import annotations

import os
import sys
import tempfile
import time
from pathlib import Path

from vaultrag.app.widgets.main_window import DEMO_VAULT
from vaultrag.core.vocab import LaneEventKind

QUESTION = "Qual o prazo do reembolso?"
EXPECTED_NOTE = "Casa/Reembolso e cancelamentos.md"


def smoke_test(timeout_s: float = 120.0) -> int:
    """Index the demo vault, ask a question, check the answer cites the expected note (no network)."""
    os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
    os.environ["HF_HUB_OFFLINE"] = os.environ["TRANSFORMERS_OFFLINE"] = "1"
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory(prefix="vaultrag-smoke-") as home:
        controller = AppController(home)
        window = MainWindow(controller)
        window.show()
        t0 = time.monotonic()
        window.open_vault(DEMO_VAULT)
        done: dict[str, object] = {}
        controller.index_changed.connect(
            lambda e: done.setdefault("embedded", e) if e.kind == LaneEventKind.EMBEDDED else None)
        controller.search_finished.connect(lambda tr: done.setdefault("trace", tr))
        controller.failed.connect(lambda m: done.setdefault("error", m))
        asked = False
        while time.monotonic() - t0 < timeout_s and "trace" not in done and "error" not in done:
            app.processEvents()
            if "embedded" in done and not asked:
                window.question.setText(QUESTION)
                window.ask()
                asked = True
            time.sleep(0.01)
        trace = done.get("trace")
        ok = trace is not None and trace.answer.note == EXPECTED_NOTE  # type: ignore[attr-defined]
        import sqlite_vec

        print(f"smoke test: sqlite-vec {sqlite_vec.__version__} from {Path(sqlite_vec.__file__).parent}; "
              f"{_graph_check()}; "
              f"model {controller.embedder.model_id if controller.embedder else None} "
              f"on {getattr(controller.embedder, 'engine', '-')}; "
              f"answer cites {trace.answer.note if trace else None!r} "  # type: ignore[attr-defined]
              f"({'ok' if ok else 'FAILED: ' + str(done.get('error', 'timeout'))}) in {time.monotonic() - t0:.1f}s")
        window.close()
        return 0 if ok else 1


def _graph_check() -> str:
    """usearch (the HNSW graph of large vaults, core/store/ann.py) loads in this build and finds a vector."""
    import numpy as np
    import usearch
    from usearch.index import Index

    points = np.eye(3, 8, dtype=np.int8) * 100
    graph = Index(ndim=8, metric="cos", dtype="i8")
    graph.add(np.arange(1, 4, dtype=np.uint64), points)
    found = int(graph.search(points[1], 1).keys[0])
    return f"usearch {usearch.__version__} {'ok' if found == 2 else 'FAILED'}"


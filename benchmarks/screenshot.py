"""Start the real app on the demo vault, ask a question, save a screenshot PNG (Xvfb when available).

Run: python benchmarks/screenshot.py [out.png]     (default docs/screenshot.png)
Under Xvfb (`apt-get install xvfb`) the window is shown by a real X server; otherwise it renders offscreen.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def shoot(out: Path) -> None:
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import DEMO_VAULT, MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    with tempfile.TemporaryDirectory() as home:
        c = AppController(home)
        w = MainWindow(c)
        w.resize(1400, 860)
        w.show()
        w.open_vault(DEMO_VAULT)
        done: dict[str, object] = {}
        c.index_changed.connect(lambda e: done.setdefault("ready", 1) if e.kind == "embedded" else None)
        c.search_finished.connect(lambda t: done.setdefault("trace", t))
        t0 = time.monotonic()
        while "trace" not in done and time.monotonic() - t0 < 120:
            app.processEvents()
            if "ready" in done and "asked" not in done:
                w.question.setText("Qual o prazo do reembolso?")
                w.ask()
                done["asked"] = 1
            time.sleep(0.01)
        for _ in range(50):
            app.processEvents()
            time.sleep(0.01)
        out.parent.mkdir(parents=True, exist_ok=True)
        w.grab().save(str(out))
        w.close()
    print(f"saved {out} ({os.environ.get('QT_QPA_PLATFORM') or 'xcb'})")


def main() -> None:
    out = Path(sys.argv[1]) if len(sys.argv) > 1 else ROOT / "docs" / "screenshot.png"
    if os.environ.get("_VAULTRAG_SHOT"):
        shoot(out)
        return
    env = {**os.environ, "_VAULTRAG_SHOT": "1"}
    if shutil.which("xvfb-run"):
        env.pop("QT_QPA_PLATFORM", None)
        cmd = ["xvfb-run", "-a", "-s", "-screen 0 1440x900x24", sys.executable, __file__, str(out)]
    else:
        env["QT_QPA_PLATFORM"] = "offscreen"
        cmd = [sys.executable, __file__, str(out)]
    subprocess.run(cmd, env=env, check=True)


if __name__ == "__main__":
    main()

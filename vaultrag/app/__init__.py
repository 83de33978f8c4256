"""The desktop app (PySide6): a thin view over vaultrag.core; the only package that imports Qt."""

from vaultrag.app.pyside_fixes import keep_bools_alive

keep_bools_alive()  # before any signal is emitted

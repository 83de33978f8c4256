"""The desktop app (PySide6): a thin view over vaultrag.core; the only package that imports Qt."""

from vaultrag.app.qt_refcount import keep_singletons_alive

keep_singletons_alive()  # before any Qt call: PySide6 6.12.0 on Python 3.11 drops None's references

"""The desktop app (PySide6): a thin view over vaultrag.core; the only package that imports Qt."""

"""Start the desktop app: QApplication, translations, the main window; `--smoke-test` for packaged builds."""

from __future__ import annotations

import argparse
import locale
import os
import sys
from pathlib import Path

from vaultrag.core.i18n import QT_TRANSLATE_NOOP

# Qt's own words its Brazilian translation lacks (the folder picker's, where the platform has none of its own):
# vaultrag's translation, looked up first, words them (lupdate finds them by this marker)
QT_GAPS = (QT_TRANSLATE_NOOP("QFileDialog", "Files of &type:"),)


def _install_translator(app: object, language: str) -> object | None:
    """The window's Portuguese (resources/translations) and, behind it, Qt's own for its standard words (the
    dialogs' Cancel and Close, the file dialog): one translator, so a test removes both at once."""
    from PySide6.QtCore import QLibraryInfo, QLocale, QTranslator

    lang = language or QLocale.system().name().split("_")[0] or (locale.getlocale()[0] or "en")[:2]
    if not lang.startswith("pt"):
        return None

    class Translations(QTranslator):
        """vaultrag's words first, then Qt's (qtbase_pt_BR ships with PySide6)."""

        def __init__(self, parent: object) -> None:
            super().__init__(parent)  # type: ignore[arg-type]
            self.qt = QTranslator(self)
            self.qt.load("qtbase_pt_BR", QLibraryInfo.path(QLibraryInfo.LibraryPath.TranslationsPath))

        def translate(self, context: str, source: str, disambiguation: str | None = None,
                      n: int = -1) -> str | None:
            own = super().translate(context, source, disambiguation, n)
            # None, not "": Qt takes an empty string for the translation itself, and a label would go blank; None
            # is Qt's "not translated here", so the source text shows (lrelease drops translations equal to it)
            qt = self.qt.translate(context, source, disambiguation, n)
            if not qt and "&" in source:
                # Qt 6 gave some labels a shortcut ("&Look in:") that its Portuguese still has without one
                qt = self.qt.translate(context, source.replace("&", ""), disambiguation, n)
            return own or qt or None

    translator = Translations(app)
    folder = Path(__file__).resolve().parents[2] / "resources" / "translations"
    if translator.load(str(folder / "vaultrag_pt.qm")):
        app.installTranslator(translator)  # type: ignore[attr-defined]
        return translator
    return None


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(prog="vaultrag", description="vaultrag desktop app")
    ap.add_argument("vault", nargs="?", help="open this vault at start")
    ap.add_argument("--home", help="app home dir (default: $VAULTRAG_HOME or the OS data dir)")
    ap.add_argument("--smoke-test", action="store_true",
                    help="index the demo vault in a temp home, ask a question, check the cited note, exit 0/1")
    args = ap.parse_args(argv)
    if args.smoke_test:
        from vaultrag.app.smoke import smoke_test

        return smoke_test()
    if (sys.platform.startswith("linux") and not os.environ.get("QT_QPA_PLATFORM")
            and not os.environ.get("DISPLAY") and not os.environ.get("WAYLAND_DISPLAY")):
        # without this, Qt aborts with a plugin error that does not say what is missing
        print("vaultrag: no display found, so the window cannot open. Use the command line instead "
              "(vaultrag index VAULT; vaultrag ask VAULT \"question\" --explain), or run it under xvfb-run.",
              file=sys.stderr)
        return 2
    from PySide6.QtWidgets import QApplication

    from vaultrag.app.controller import AppController
    from vaultrag.app.widgets.main_window import MainWindow

    app = QApplication.instance() or QApplication(sys.argv[:1])
    controller = AppController(args.home)
    _install_translator(app, controller.settings.ui_language)
    from PySide6.QtCore import QLocale

    from vaultrag.app.words import locale

    QLocale.setDefault(locale())  # every number field writes numbers as the window's language does (0,20)
    window = MainWindow(controller)
    window.show()
    window.offer_local_llm()  # no language model set yet: a local server, if one runs, is offered in a bar
    vault = args.vault or os.environ.get("VAULTRAG_OPEN")
    if vault:
        window.open_vault(vault)
    if os.environ.get("VAULTRAG_STARTUP_PROBE"):  # packaging/build.py times start-up to a shown window
        from PySide6.QtCore import QTimer

        QTimer.singleShot(0, window.close)
    return int(app.exec())


if __name__ == "__main__":
    raise SystemExit(main())

"""`vaultrag --help` in the environment's language: Portuguese where LANG asks for it, English elsewhere; every
help text of every command has its Portuguese (update.py gives them to the translators)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from vaultrag.cli import help as cli_help
from vaultrag.cli import main as cli


def run(lang: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {k: v for k, v in os.environ.items() if k not in ("LANGUAGE", "LC_ALL", "LC_MESSAGES")}
    return subprocess.run([sys.executable, "-m", "vaultrag", *args], capture_output=True, text=True, timeout=120,
                          env={**env, "LANG": lang})


def test_help_speaks_portuguese_where_the_environment_asks_for_it():
    r = run("pt_BR.UTF-8", "ask", "--help")
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("uso: vaultrag ask")
    assert "argumentos posicionais:" in r.stdout and "opções:" in r.stdout
    assert "mostrar esta ajuda e sair" in r.stdout and "só notas desta pasta" in r.stdout
    wrong = run("pt_BR.UTF-8", "ask")
    assert wrong.returncode == 2 and "erro: os seguintes argumentos são obrigatórios" in wrong.stderr
    english = run("C.UTF-8", "ask", "--help")
    assert english.stdout.startswith("usage: vaultrag ask") and "only notes in this folder" in english.stdout


def test_every_help_text_has_its_portuguese_and_english_stays_english_in_the_same_process(
        monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]):
    words = cli_help.portuguese()
    missing = [t for t in [*cli_help.texts(cli.build_parser()), *cli_help.ARGPARSE_WORDS] if t not in words]
    assert missing == [], "run resources/translations/update.py and translate these"
    monkeypatch.setenv("LANGUAGE", "pt_BR")
    with pytest.raises(SystemExit):
        cli_help.localize(cli.build_parser()).parse_args(["index", "--help"])
    assert "uso: vaultrag index" in capsys.readouterr().out
    monkeypatch.setenv("LANGUAGE", "en")
    with pytest.raises(SystemExit):
        cli_help.localize(cli.build_parser()).parse_args(["index", "--help"])
    assert capsys.readouterr().out.startswith("usage: vaultrag index"), "argparse's words were put back"

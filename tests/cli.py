"""The CLI run inside the test process: its exit code and output, without paying a Python start and a model load
per command."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

import pytest

from vaultrag.cli.main import main


@dataclass(frozen=True)
class Ran:
    """What a command did, in the shape of `subprocess.CompletedProcess` (the tests read the same fields)."""

    returncode: int
    stdout: str
    stderr: str


def run_cli(capsys: pytest.CaptureFixture[str], home: Path | str, *args: str | Path) -> Ran:
    """`vaultrag --home HOME ARGS…` through `vaultrag.cli.main`, with what it printed (argparse's exits included)."""
    capsys.readouterr()  # what the test printed before is not the command's
    try:
        code = main(["--home", str(home), *map(str, args)])
    except SystemExit as e:  # argparse: --help, a bad option
        code = e.code if isinstance(e.code, int) else (0 if e.code is None else 1)
    out, err = capsys.readouterr()
    return Ran(code, out, err)

"""The tests of read-only and unreadable files run where the suite runs as root (CI): root reads and writes a file
whatever its mode, so those tests skip in the suite itself; here they run again in a process that keeps root's
uid but not its power over files' modes (capsh drops CAP_DAC_OVERRIDE and CAP_DAC_READ_SEARCH)."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
MODE_TESTS = ["tests/test_data_loss_round4.py", "tests/test_readonly_round4.py"]


@pytest.mark.skipif(os.geteuid() != 0, reason="a user runs those tests in the suite itself")
@pytest.mark.skipif(shutil.which("capsh") is None, reason="capsh (libcap2-bin) is not installed")
def test_the_file_mode_tests_pass_without_roots_power_over_modes(tmp_path: Path):
    command = " ".join([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-rs",
                        f"--basetemp={tmp_path / 'bt'}", *MODE_TESTS])
    r = subprocess.run(["capsh", "--drop=cap_dac_override,cap_dac_read_search", "--", "-c", command],
                       cwd=ROOT, capture_output=True, text=True, timeout=900,
                       env={**os.environ, "QT_QPA_PLATFORM": "offscreen"})
    assert r.returncode == 0, r.stdout[-4000:] + r.stderr[-2000:]
    assert " passed" in r.stdout and "skipped" not in r.stdout, r.stdout[-4000:]

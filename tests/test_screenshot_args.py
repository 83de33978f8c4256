"""benchmarks/screenshot.py writes where it is told, for the real vaults too."""

from __future__ import annotations

import importlib.util
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def test_the_output_folder_given_holds_the_real_vaults_shots_too(tmp_path: Path):
    spec = importlib.util.spec_from_file_location("screenshot", ROOT / "benchmarks" / "screenshot.py")
    assert spec is not None and spec.loader is not None
    shots = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(shots)
    assert shots.out_dirs([str(tmp_path)]) == {"demo": tmp_path, "real": tmp_path}
    assert shots.out_dirs([]) == {"demo": ROOT / "docs" / "screenshots", "real": shots.REAL_OUT}

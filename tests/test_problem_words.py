"""Every Problem is worded once (vaultrag/errors.py's PROBLEM_WORDS): the raise sites give codes and details, the
CLI and the window say the same sentence, in English and in Portuguese."""

from __future__ import annotations

import ast
import os
import string
import subprocess
import sys
from pathlib import Path

import pytest

from vaultrag.errors import PROBLEM_WORDS, Problem, UserFacingError, problem_templates, problem_words
from vaultrag.paths import check_vault

ROOT = Path(__file__).resolve().parents[1]


def fields(template: str) -> set[str]:
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


def variants(problem: Problem) -> dict[str, str]:
    words = PROBLEM_WORDS[problem]
    return {"": words} if isinstance(words, str) else words[1]


def test_every_problem_has_words_and_every_variant_a_default():
    assert set(PROBLEM_WORDS) == set(Problem)
    for problem in Problem:
        assert "" in variants(problem), problem
    assert len(problem_templates()) == sum(len(variants(p)) for p in Problem)


def raise_sites() -> list[tuple[str, int, Problem, dict[str, str | None]]]:
    """Each call of the package given a Problem as its first argument: (file, line, problem, keyword → its
    constant value, None when it is computed)."""
    out = []
    for path in sorted((ROOT / "vaultrag").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if not isinstance(node, ast.Call) or not node.args:
                continue
            first = node.args[0]
            if (isinstance(first, ast.Attribute) and isinstance(first.value, ast.Name) and first.value.id == "Problem"
                    and first.attr in Problem.__members__):
                pairs = [(k.arg, k.value) for k in node.keywords if k.arg]
                if len(node.args) > 1 and isinstance(node.args[1], ast.Dict):  # problem_text(Problem.X, {...})
                    pairs += [(k.value, v) for k, v in zip(node.args[1].keys, node.args[1].values, strict=True)
                              if isinstance(k, ast.Constant)]
                kw = {k: (v.value if isinstance(v, ast.Constant) else None) for k, v in pairs}
                out.append((str(path.relative_to(ROOT)), node.lineno, Problem[first.attr], kw))
    return out


def test_every_raise_site_gives_the_details_its_words_read():
    """A template field the raiser does not give would read "?": each site's keywords cover its variant's fields
    (a download's `download` is made from `repo` and `file`)."""
    sites = raise_sites()
    assert len(sites) >= 40, "the raise sites give codes, not sentences"
    for where, line, problem, kw in sites:
        words = PROBLEM_WORDS[problem]
        chosen = variants(problem)
        if not isinstance(words, str):
            by = words[0]  # not given: the default; a constant: that variant; computed: any of them
            if by not in kw or kw[by] is not None:
                chosen = {"": chosen.get(kw.get(by) or "", chosen[""])}
        given = set(kw) | ({"download"} if "repo" in kw else set())
        for template in chosen.values():
            assert fields(template) <= given, f"{where}:{line} {problem} lacks {fields(template) - given}"


def test_no_raise_site_words_a_coded_problem_itself():
    """A code with an English sentence beside it is worded twice (the two drifted apart before): none is left."""
    for path in sorted((ROOT / "vaultrag").rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if isinstance(node, ast.Call) and len(node.args) >= 2:  # UserFacingError("words", Problem.X)
                second = node.args[1]
                if isinstance(second, ast.Attribute) and getattr(second.value, "id", "") == "Problem":
                    pytest.fail(f"{path.relative_to(ROOT)}:{node.lineno} gives a message and {second.attr}")


def test_a_raised_problem_reads_its_words_filled(tmp_path: Path):
    with pytest.raises(UserFacingError) as e:
        check_vault(tmp_path / "gone")
    assert e.value.problem == Problem.VAULT_MISSING
    assert str(e.value) == problem_words(Problem.VAULT_MISSING, {"path": str(tmp_path / "gone")})
    assert str(tmp_path / "gone") in str(e.value) and "?" not in str(e.value)
    variant = problem_words(Problem.GGUF_INVALID, {"path": "m.gguf", "fault": "small", "size": "12"})
    assert "only 12 bytes" in variant
    assert problem_words(Problem.GGUF_INVALID, {"path": "m.gguf", "fault": "no such variant"}) == problem_words(
        Problem.GGUF_INVALID, {"path": "m.gguf"})


def cli(args: list[str], language: str) -> str:
    env = {**os.environ, "LANGUAGE": "", "LC_ALL": "", "LC_MESSAGES": "", "LANG": language}
    r = subprocess.run([sys.executable, "-m", "vaultrag", *args], capture_output=True, text=True, env=env,
                       timeout=120)
    assert r.returncode == 2, r.stderr
    return r.stderr.strip()


@pytest.mark.parametrize("language", ["en", "pt"])
def test_the_cli_and_the_window_say_a_problem_in_the_same_words(qapp, tmp_path: Path, language: str):
    from vaultrag.app.main import _install_translator
    from vaultrag.app.words import user_message

    missing = tmp_path / "sumiu"
    said = cli(["--home", str(tmp_path / "home"), "status", str(missing)], "pt_BR.UTF-8" if language == "pt"
               else "C.UTF-8")
    with pytest.raises(UserFacingError) as e:
        check_vault(missing)
    translator = _install_translator(qapp, language) if language == "pt" else None
    try:
        shown = user_message(e.value)
    finally:
        if translator is not None:
            qapp.removeTranslator(translator)
    assert said == f"vaultrag: {shown}"
    assert ("não existe" in shown) == (language == "pt") and str(missing) in shown

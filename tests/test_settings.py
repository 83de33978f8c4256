"""Settings describe and check themselves: one field carries its type, rule, section, name in words and description;
the check, the dialog, the re-open rule and the recorded settings are derived from it."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from pathlib import Path

import pytest
from PySide6.QtWidgets import QLabel, QSpinBox

from vaultrag import settings as settings_mod
from vaultrag.errors import UserFacingError
from vaultrag.settings import Choices, Editor, Group, Rule, Settings, _f, checked, editor_of, rule_of, type_of


def test_every_shown_field_has_a_label_a_description_and_one_section():
    groups = Settings.groups()
    shown = [f for fields in groups.values() for f in fields]
    assert Group.INTERNAL not in groups and len(shown) == len({f.name for f in shown})
    for f in shown:
        assert f.metadata["label"] and f.metadata["desc"].endswith("."), f.name
    hidden = {f.name for f in dataclasses.fields(Settings)} - {f.name for f in shown}
    assert hidden == {"schema_version"}  # llm_backend: shown as Settings › Language model, with its companions


def test_language_model_settings_are_checked():
    s = Settings().replace(llm_temperature="0.7", llm_timeout=30)  # a text box gives text, TOML an int
    assert s.llm_temperature == 0.7 and s.llm_timeout == 30.0 and isinstance(s.llm_timeout, float)
    for bad in ({"llm_temperature": "warm"}, {"llm_temperature": 3}, {"llm_timeout": 0}, {"llm_max_tokens": 0}):
        with pytest.raises(UserFacingError):
            Settings().replace(**bad)


def test_local_server_ports_are_numbers():
    assert Settings().replace(llm_detect_ports=["11434", " 8080"]).llm_detect_ports == [11434, 8080]  # the dialog
    assert Settings().replace(llm_detect_ports=[]).llm_detect_ports == [], "no port: nothing is looked for"
    for bad in (["ollama"], [0], [70000]):
        with pytest.raises(UserFacingError, match="llm_detect_ports"):
            Settings().replace(llm_detect_ports=bad)


# -- a mistyped settings file: the key and what it must be, never a traceback ------------------------------------

@pytest.mark.parametrize(("line", "key", "must_be"), [
    ("chunk_tokens = 1.5", "chunk_tokens", "a whole number"),
    ('threshold = "high"', "threshold", "a number or empty"),
    ('private_tag = ["a"]', "private_tag", "text"),
    ("threshold = nan", "threshold", "a number or empty"),
    ('ignore_globs = "Private/"', "ignore_globs", "a list"),
    ("chunk_tokens = true", "chunk_tokens", "a whole number"),  # TOML's true is no number
    ("parent_section = 1", "parent_section", "true or false"),
    ("embed_threads = -1", "embed_threads", "a whole number from 0 to 64"),
    ("llm_detect_ports = [8080, 70000]", "llm_detect_ports", "a list in square brackets of whole numbers from 1 to"),
    ('llm_timeout = "soon"', "llm_timeout", "a number above 0"),
])
def test_a_mistyped_setting_names_the_key_and_its_type(tmp_path: Path, line: str, key: str, must_be: str):
    path = tmp_path / "settings.toml"
    path.write_text(f"k = 3\n{line}\n", encoding="utf-8")
    with pytest.raises(UserFacingError) as e:  # not TypeError, ValueError or AttributeError
        settings_mod.load(path)
    assert f"Setting {key} must be {must_be}" in str(e.value) and str(path) in str(e.value)


def test_the_cli_says_which_setting_is_mistyped_without_a_traceback(tmp_path: Path, capsys: pytest.CaptureFixture[str]):
    from vaultrag.cli import main as cli

    (tmp_path / "vault").mkdir()
    (tmp_path / "home").mkdir()
    (tmp_path / "home" / "settings.toml").write_text('ignore_globs = "Private/"\n', encoding="utf-8")
    assert cli.main(["--home", str(tmp_path / "home"), "status", str(tmp_path / "vault")]) == 2
    err = capsys.readouterr().err
    assert "Setting ignore_globs must be a list" in err and "Traceback" not in err


def test_a_well_typed_file_is_read_as_the_fields_types(tmp_path: Path):
    path = tmp_path / "settings.toml"
    path.write_text('threshold = ""\nllm_timeout = 5\nllm_detect_ports = ["8080"]\nignore_globs = ["Private/"]\n',
                    encoding="utf-8")
    s = settings_mod.load(path)
    assert s.threshold is None, "empty is no threshold (calibrated or shipped)"
    assert s.llm_timeout == 5.0 and isinstance(s.llm_timeout, float)
    assert s.llm_detect_ports == [8080] and s.ignore_globs == ["Private/"]
    settings_mod.save(s.replace(threshold=0.3), path)
    assert settings_mod.load(path) == s.replace(threshold=0.3), "what is saved reads back the same"


def test_choices_are_read_from_their_source_at_each_check():
    assert Choices().options() is None, "no source: any text passes"
    found = {"a": "Alpha"}
    rule = Rule(choices=Choices(lambda: found))
    assert checked("engine", str, rule, "a") == "a"
    found["b"] = "Beta"  # a registry that grows is read at each check
    assert checked("engine", str, rule, "b") == "b"
    with pytest.raises(UserFacingError, match="Unknown engine 'c'"):
        checked("engine", str, rule, "c")


# -- one field, everything else derived from it ---------------------------------------------------------------

def test_every_field_has_a_type_the_check_knows_an_editor_and_words():
    for f in dataclasses.fields(Settings):
        base, _, _ = type_of(f)  # raises TypeError for a type the check does not know
        assert base in (bool, int, float, str), f.name
        assert isinstance(editor_of(f), Editor), f.name
        assert f.metadata["desc"] and isinstance(f.metadata["group"], Group), f.name
        assert f.metadata["group"] == Group.INTERNAL or f.metadata["label"], f.name
        rule = rule_of(f)
        assert not (rule.positive and rule.minimum is not None), f"{f.name}: positive or a minimum, not both"


def test_which_changes_reopen_the_vault_come_from_the_fields():
    reopening = {f.name for f in dataclasses.fields(Settings) if rule_of(f).reopen}
    # what the index or the embedder is built from (the window re-opens the vault when one changes)
    assert reopening == {"ignore_globs", "private_tag", "max_note_bytes", "chunk_tokens", "embedder", "st_model",
                         "query_prefix", "passage_prefix"}
    s = Settings()
    assert s.reopens(s.replace(chunk_tokens=100)) and s.reopens(s.replace(ignore_globs=["x/"]))
    assert not s.reopens(s.replace(k=3)) and not s.reopens(s.replace(llm_model="m"))


@dataclass(frozen=True)
class WithANewSetting(Settings):
    """A setting added the way CONTRIBUTING.md says: one field (the code that reads it is the second file)."""

    answer_notes: int = _f(3, "Notes an answer may cite at most.", Group.SEARCH, "Notes per answer", positive=True,
                           recorded=True)


def test_a_new_setting_is_one_field_checked_shown_and_recorded(qtbot, tmp_path: Path):
    from vaultrag.app.widgets.settings_dialog import SettingsDialog

    s = WithANewSetting()
    with pytest.raises(UserFacingError, match="Setting answer_notes must be a whole number of at least 1"):
        s.replace(answer_notes=2.5)
    assert s.recorded(k=9)["answer_notes"] == 3, "traces and evaluation reports record it"
    dialog = SettingsDialog(s)  # its row: the section, the name in words, the help, a whole-number editor
    qtbot.addWidget(dialog)
    editor = dialog.fields["answer_notes"]
    assert isinstance(editor, QSpinBox) and editor.value() == 3 and editor.minimum() == 1
    help_label = dialog.findChild(QLabel, "setting-help-answer_notes")
    assert help_label is not None and help_label.text() == "Notes an answer may cite at most."
    editor.setValue(4)
    dialog._accept()
    assert isinstance(dialog.result_settings, WithANewSetting) and dialog.result_settings.answer_notes == 4


def test_a_trace_records_the_settings_that_shape_it(tmp_path: Path):
    from tests.conftest import write
    from tests.fakes import CountingEmbedder
    from vaultrag.core.index.indexer import Indexer, IndexOptions, run_to_end
    from vaultrag.core.query.search import Searcher
    from vaultrag.core.store.index_store import IndexStore

    write(tmp_path / "v", "refund.md", "# Refund\n\nThe refund deadline is seven business days.\n")
    embedder = CountingEmbedder()
    store = IndexStore.open(tmp_path / "idx.sqlite")
    try:
        run_to_end(Indexer(tmp_path / "v", store, IndexOptions(), embedder).run())
        s = WithANewSetting(bm25_n=7, parent_section=True)
        trace = Searcher(store, s, embedder).ask("refund deadline", k=2)
    finally:
        store.close()
    # every field declared `recorded` (read from the fields' own metadata, not a list kept here), with what really
    # ran in place of what is configured: the model id, the question's own k, no reranker (none loaded)
    declared = {f.name: getattr(s, f.name) for f in dataclasses.fields(s) if rule_of(f).recorded}
    assert {"bm25_n", "parent_section", "answer_notes"} <= set(declared)
    assert trace.settings == declared | {"embedder": embedder.model_id, "k": 2, "reranker": "none"}
    assert trace.settings["bm25_n"] == 7 and trace.settings["parent_section"] is True

"""Settings describe themselves: every field the dialog shows has a section, a name in words and a description."""

from __future__ import annotations

import dataclasses

import pytest

from vaultrag.errors import UserFacingError
from vaultrag.settings import Group, Settings


def test_every_shown_field_has_a_label_a_description_and_one_section():
    groups = Settings.groups()
    shown = [f for fields in groups.values() for f in fields]
    assert Group.INTERNAL not in groups and len(shown) == len({f.name for f in shown})
    for f in shown:
        assert f.metadata["label"] and f.metadata["desc"].endswith("."), f.name
    hidden = {f.name for f in dataclasses.fields(Settings)} - {f.name for f in shown}
    assert hidden == {"schema_version", "llm_backend"}  # llm_backend: one backend today, nothing to pick


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

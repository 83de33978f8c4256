"""Settings describe themselves: every field the dialog shows has a section, a name in words and a description."""

from __future__ import annotations

import dataclasses

from vaultrag.settings import Group, Settings


def test_every_shown_field_has_a_label_a_description_and_one_section():
    groups = Settings.groups()
    shown = [f for fields in groups.values() for f in fields]
    assert Group.INTERNAL not in groups and len(shown) == len({f.name for f in shown})
    for f in shown:
        assert f.metadata["label"] and f.metadata["desc"].endswith("."), f.name
    hidden = {f.name for f in dataclasses.fields(Settings)} - {f.name for f in shown}
    assert hidden == {"schema_version"}

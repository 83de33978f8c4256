"""Which notes a question may see: folders (with sub-folders), tags (with sub-tags), note paths."""

from __future__ import annotations

from dataclasses import dataclass, field


@dataclass
class Scope:
    """A question's scope; empty means the whole vault. The store turns it into SQL inside both searches."""

    folders: list[str] = field(default_factory=list)
    tags: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)

    def is_empty(self) -> bool:
        return not (self.folders or self.tags or self.notes)

    def as_dict(self) -> dict[str, list[str]]:
        return {"folders": self.folders, "tags": self.tags, "notes": self.notes}

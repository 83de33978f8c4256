"""The inspector pane protocol: every pane is a view of one QueryTrace and can be cleared."""

from __future__ import annotations

from typing import Protocol

from vaultrag.core.model import Candidate, QueryTrace


class InspectorPane(Protocol):
    """What the inspector asks of a pane. A pane that lets the user pick a chunk also has a
    `chunk_selected(Candidate)` signal; the inspector then tells every pane with `select_chunk`."""

    def set_trace(self, trace: QueryTrace) -> None:
        """Show this question's trace."""

    def clear(self) -> None:
        """Show nothing (no question yet, another vault)."""

    def select_chunk(self, cand: Candidate) -> None:
        """The user picked this chunk in some pane: show it here too (or ignore it)."""

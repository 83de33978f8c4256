"""The inspector pane protocol: every pane is a view of one QueryTrace and can be cleared."""

from __future__ import annotations

from typing import Protocol

from vaultrag.core.model import Candidate, QueryTrace


class InspectorPane(Protocol):
    """What the inspector asks of a pane. Optional, found by name:

    - `chunk_selected(Candidate)`, a signal: the user picked a chunk here; the inspector tells every pane with
      `select_chunk`;
    - `note_requested(Candidate)`, a signal, and `show_note(NoteText)`: the pane shows a note's text, which the
      controller reads on the query lane (the inspector passes the request and the answer);
    - `view_actions() -> list[QAction]`: the pane's own items of the View menu (with their shortcuts);
    - `set_answer(QueryTrace)`: the same question's trace once the language model has answered (its answer, its
      warnings: the answer's language, a cut or stopped answer); a pane without it keeps the trace it was set."""

    def set_trace(self, trace: QueryTrace) -> None:
        """Show this question's trace."""

    def clear(self) -> None:
        """Show nothing (no question yet, another vault)."""

    def select_chunk(self, cand: Candidate) -> None:
        """The user picked this chunk in some pane: show it here too (or ignore it)."""

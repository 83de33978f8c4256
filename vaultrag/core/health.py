"""Index health: counts, and each note's state (indexed, excluded, failed, stale, truncated) with its reason."""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, field
from pathlib import Path

from vaultrag import __version__
from vaultrag.core import embed
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.index.chunking import CHUNKER_VERSION
from vaultrag.core.index.indexer import holds_back, mass_deletion
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.vocab import LinkKind, NoteStatus, Reason
from vaultrag.settings import Settings

LISTS = ("indexed", "excluded", "failed", "stale", "truncated", "flagged", "unresolved")


@dataclass
class NoteState:
    """One line of `status --list`."""

    path: str
    state: str
    reason: str = ""  # (unresolved) the link as written
    chunks: int = 0
    code: Reason = Reason.NONE  # the reason's code: a window words it in its own language from this
    truncated: int = 0  # (truncated) its chunks over the model's input limit
    flags: list[str] = field(default_factory=list)  # (flagged) the NoteFlag codes of what it tries


@dataclass
class Health:
    """What `vaultrag status` reports."""

    vault: str
    index_file: str
    counts: dict[str, int]
    model: str
    model_wanted: str
    stale_reasons: list[str]
    stale_codes: list[Reason] = field(default_factory=list)  # stale_reasons' codes (model, wanted are their details)
    versions: dict[str, str] = field(default_factory=dict)  # schema migration, chunker, app
    notes: dict[str, list[NoteState]] = field(default_factory=dict)
    problems: list[str] | None = None  # from --check
    warnings: list[str] = field(default_factory=list)  # ignore-pattern lines that were skipped
    languages: dict[str, int] = field(default_factory=dict)  # indexed notes per detected language ('' unknown)

    def to_json(self) -> str:
        from dataclasses import asdict

        return json.dumps(asdict(self), ensure_ascii=False, indent=2)


def health(store: IndexStore, vault: str, settings: Settings, check: bool = False) -> Health:
    """The index's health for `vault` under `settings` (scans the vault's file stats, reads no notes)."""
    counts = store.counts()
    model = store.meta("embed_model") or ""
    wanted = embed.describe(settings)
    stale_reasons, stale_codes = [], []
    if model and model != wanted:
        stale_reasons.append(f"embedded with {model}, settings ask for {wanted}: re-index to re-embed")
        stale_codes.append(Reason.MODEL_CHANGED)
    if store.meta("chunker_version") not in (None, CHUNKER_VERSION) or store.meta("chunk_tokens") not in (
        None,
        str(settings.chunk_tokens),
    ):
        stale_reasons.append("chunking settings changed since indexing: re-index to re-chunk")
        stale_codes.append(Reason.CHUNKING_CHANGED)
    notes: dict[str, list[NoteState]] = {name: [] for name in LISTS}
    rows = store.note_summaries()
    for r in rows:
        notes.setdefault(r.status, []).append(NoteState(r.path, r.status, r.reason, r.chunks, r.reason_code))
        if r.truncated:
            notes["truncated"].append(NoteState(r.path, "truncated", f"{r.truncated} chunk(s) over the model limit",
                                                r.chunks, Reason.TRUNCATED, truncated=r.truncated))
    for path, codes in store.note_flags().items():
        notes["flagged"].append(NoteState(path, "flagged", "tries to give the language model orders: "
                                          + ", ".join(codes), code=Reason.FLAGGED, flags=list(codes)))
    for link in store.unresolved_links():
        place = f"{link.target}{'#' + link.heading if link.heading else ''}"
        written = f"[{link.alias}]({place})" if link.kind == LinkKind.MARKDOWN else f"[[{place}]]"
        code = Reason.UNRESOLVED_LINK if link.target_note is None else Reason.MISSING_HEADING
        notes["unresolved"].append(NoteState(link.source, "unresolved", written, code=code))
    # (mtime, size) of every note row that stands for a file (a skipped folder's row has no mtime)
    known = {r.path: (r.mtime_ns, r.size) for r in rows if r.status != NoteStatus.EXCLUDED or r.mtime_ns}
    scanned = vaultmod.scan(vault, settings.ignore_globs)
    for f in scanned.notes:
        if f.path not in known:
            notes["stale"].append(NoteState(f.path, "stale", "new since indexing", code=Reason.NEW_SINCE))
        elif known[f.path] != (f.mtime_ns, f.size):
            if not os.access(f.abspath, os.R_OK):  # the indexer keeps what it had and reads it again next run
                notes["stale"].append(NoteState(f.path, "stale", "cannot be read now (permission denied): read "
                                                "again on the next run", code=Reason.PERMISSION))
            else:
                notes["stale"].append(NoteState(f.path, "stale", "changed since indexing",
                                                code=Reason.CHANGED_SINCE))
    indexed = {r.path for r in rows if r.status == NoteStatus.INDEXED}
    for s in scanned.skipped:
        if s.code == Reason.CANNOT_STAT and s.path in indexed:
            notes["stale"].append(NoteState(s.path, "stale", f"{s.detail}: the indexed version is kept",
                                            code=Reason.CANNOT_STAT))
    on_disk = {f.path for f in scanned.notes} | {s.path for s in scanned.skipped}
    gone = []
    for r in rows:
        if r.path in on_disk:
            continue
        if scanned.unseen(r.path):  # the indexer keeps them: whether they are still there is unknown
            notes["stale"].append(NoteState(r.path, "stale", "under a folder that cannot be read: the indexed "
                                            "version is kept", code=Reason.UNREADABLE_FOLDER))
            continue
        notes["stale"].append(NoteState(r.path, "stale", "deleted since indexing", code=Reason.DELETED_SINCE))
        if r.status == NoteStatus.INDEXED:
            gone.append(r.path)
    warnings = list(scanned.problems)
    if holds_back(len(gone), len(indexed)):  # what the next run would keep, unless told otherwise
        warnings.append(mass_deletion(Path(vault), len(gone), len(indexed), gone[0]))
    counts = {**counts, "notes_stale": len(notes["stale"]), "notes_on_disk": len(scanned.notes)}
    return Health(
        languages=store.language_counts(),
        vault=str(vault),
        index_file=str(store.path),
        counts=counts,
        model=model,
        model_wanted=wanted,
        stale_reasons=stale_reasons,
        stale_codes=stale_codes,
        versions={"schema": store.schema_version(), "chunker": store.meta("chunker_version") or "",
                  "app": __version__},
        notes=notes,
        problems=[*store.check()] if check else None,
        warnings=[*warnings, *_aside_copies(store.path), *_plugin_problems()],
    )


def _aside_copies(index: Path | None) -> list[str]:
    """A damaged index moved aside still holds note text: say where, and when it goes."""
    from vaultrag.core.store.db import aside_copies

    return [f"a damaged copy of the index is kept until the rebuild completes: {c.name} "
            f"({c.stat().st_size / 1e6:.1f} MB)" for c in (aside_copies(index) if index is not None else [])
            if c.is_file()]


def _plugin_problems() -> list[str]:
    """The outside plugins that could not be added (vaultrag/engines.py), as warnings of the vault's health."""
    from vaultrag import engines

    engines.discover()
    return [f"engine plugin: {p}" for p in engines.PLUGIN_PROBLEMS]

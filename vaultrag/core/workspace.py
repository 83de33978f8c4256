"""Open a vault's index from the app home: settings, paths, and recovery from a corrupt or foreign file."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from vaultrag import settings as settings_mod
from vaultrag.core import tokens
from vaultrag.core.store.db import CorruptIndex, is_corruption, move_aside
from vaultrag.core.store.db import Error as DbError
from vaultrag.core.store.index_store import IndexStore
from vaultrag.core.store.lock import WriterLock
from vaultrag.core.vocab import Problem
from vaultrag.errors import IndexOutdated, Notice, UserFacingError
from vaultrag.paths import Paths, check_vault, outside_vault
from vaultrag.settings import Settings

log = logging.getLogger(__name__)


@dataclass
class Workspace:
    """One vault as the app sees it: its folder, the home paths, the settings and the index file."""

    vault: Path
    paths: Paths
    settings: Settings

    @classmethod
    def load(cls, vault: str | Path, home: str | Path | None = None, settings: Settings | None = None) -> Workspace:
        """Check the vault, read settings from the home dir, and point tiktoken's cache there."""
        paths = Paths(home)
        folder = check_vault(vault)
        outside_vault(paths.home, folder, "The app home (--home, VAULTRAG_HOME)")
        if paths.home.exists() and not paths.home.is_dir():
            raise UserFacingError(Problem.HOME_NOT_FOLDER, path=paths.home)
        s = settings or settings_mod.load(paths.settings_file)
        tokens.configure(paths.tiktoken_cache)
        return cls(folder, paths, s)

    @property
    def index_path(self) -> Path:
        return self.paths.index_file(self.vault)

    def writer_lock(self) -> WriterLock:
        """The lock every writer of this index holds (the CLI's `index`, the app's index lane)."""
        return WriterLock(self.index_path)

    def open_store(self, readonly: bool = False, repair: bool = False, full_check: bool = False,
                   migrate: bool = True) -> tuple[IndexStore, Notice | None]:
        """The vault's index and, when something was repaired or a damaged file was moved aside, a notice.

        `repair` (writers, under the writer lock) fixes what `status --check` would report; `full_check` also
        checks the file's structure, for when the last writer did not stop cleanly. A reader migrates an index
        from an older version once, unless `migrate` is False (a check only reads: an empty or outdated file is
        reported, not upgraded).
        """
        path = self.index_path
        if readonly and not path.exists():
            raise UserFacingError(Problem.NOT_INDEXED, vault=self.vault)
        try:
            if readonly:
                try:
                    # a check (no migration) leaves no trace at all, not even SQLite's -wal/-shm files
                    return IndexStore.open(path, readonly=True, still=not migrate), None
                except IndexOutdated as e:
                    if path.stat().st_size == 0:
                        # an empty file (a crash at creation, a full disk) is no index to upgrade: a reader never
                        # writes one (it made an empty index there, and every question "found nothing")
                        raise UserFacingError(Problem.INDEX_DAMAGED, path=path, vault=self.vault,
                                              fault="empty") from e
                    if not migrate:
                        raise UserFacingError(Problem.INDEX_DAMAGED, path=path, vault=self.vault,
                                              fault="outdated") from e
                    IndexStore.open(path).close()  # an index from an older version: migrate it once
                    return IndexStore.open(path, readonly=True), None
            store = IndexStore.open(path)
        except CorruptIndex as e:
            if readonly:
                raise UserFacingError(Problem.INDEX_DAMAGED, path=path, vault=self.vault,
                                      why=e.details.get("why", e)) from e
            return self._rebuilt(e.details.get("why", e))
        except DbError as e:
            if not is_corruption(e):
                raise
            if readonly:
                raise UserFacingError(Problem.INDEX_DAMAGED, path=path, vault=self.vault, why=e) from e
            return self._rebuilt(e)
        if not repair:
            return store, None
        try:
            if full_check and (result := store.quick_check()) != "ok":
                raise CorruptIndex(f"The index file {path} is damaged ({result}).", why=result)
            with store.transaction():
                done = store.repair(full=full_check)
        except (CorruptIndex, DbError) as e:
            if isinstance(e, DbError) and not is_corruption(e):
                store.close()
                raise
            store.close()
            return self._rebuilt(e.details.get("why", e) if isinstance(e, CorruptIndex) else e)
        if not done:
            return store, None
        notice = Notice.of(Problem.INDEX_REPAIRED, what="; ".join(done))
        log.warning(notice.text)
        return store, notice

    def rebuild(self, store: IndexStore, error: BaseException) -> tuple[IndexStore, Notice]:
        """Close `store` (found damaged while in use), move its file aside and start a fresh one."""
        store.close()
        return self._rebuilt(error)

    def _rebuilt(self, why: object) -> tuple[IndexStore, Notice]:
        aside = move_aside(self.index_path, "corrupt")
        # a folder where the index belongs was not vaultrag's to delete: it is kept (`drop_aside_copies`)
        notice = Notice.of(Problem.INDEX_REBUILT, path=self.index_path, why=why, aside=aside.name,
                           kept="folder" if aside.is_dir() else "")
        log.warning(notice.text)
        store = IndexStore.open(self.index_path)
        with store.transaction():
            store.set_meta("vault", str(self.vault))
        return store, notice

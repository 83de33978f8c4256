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
            raise UserFacingError(f"The app home {paths.home} (--home, VAULTRAG_HOME) is a file: it must be a folder "
                                  "(vaultrag keeps its indexes, settings and caches there).", Problem.HOME_NOT_FOLDER,
                                  path=paths.home)
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
            raise UserFacingError(f"{self.vault} has not been indexed yet: run `vaultrag index {self.vault}`.",
                                  Problem.NOT_INDEXED, vault=self.vault)
        try:
            if readonly:
                try:
                    # a check (no migration) leaves no trace at all, not even SQLite's -wal/-shm files
                    return IndexStore.open(path, readonly=True, still=not migrate), None
                except IndexOutdated as e:
                    if path.stat().st_size == 0:
                        # an empty file (a crash at creation, a full disk) is no index to upgrade: a reader never
                        # writes one (it made an empty index there, and every question "found nothing")
                        raise UserFacingError(f"The index file {path} is empty (0 bytes): run `vaultrag index "
                                              f"{self.vault}` to rebuild it.", Problem.INDEX_DAMAGED, path=path,
                                              why="empty file") from e
                    if not migrate:
                        raise UserFacingError(f"The index file {path} is empty or from an older version; a check "
                                              f"does not change it: run `vaultrag index {self.vault}`.",
                                              Problem.INDEX_DAMAGED, path=path, why="empty or outdated") from e
                    IndexStore.open(path).close()  # an index from an older version: migrate it once
                    return IndexStore.open(path, readonly=True), None
            store = IndexStore.open(path)
        except CorruptIndex as e:
            if readonly:
                raise UserFacingError(f"{e} Run `vaultrag index {self.vault}` to rebuild it.", Problem.INDEX_DAMAGED,
                                      path=path, why=e.details.get("why", e)) from e
            return self._rebuilt(str(e), e.details.get("why", e))
        except DbError as e:
            if not is_corruption(e):
                raise
            if readonly:
                raise UserFacingError(f"The index file {path} is damaged ({e}). "
                                      f"Run `vaultrag index {self.vault}` to rebuild it.", Problem.INDEX_DAMAGED,
                                      path=path, why=e) from e
            return self._rebuilt(f"The index file {path} is damaged ({e}).", e)
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
            return self._rebuilt(str(e) if isinstance(e, CorruptIndex) else f"The index file {path} is damaged ({e}).",
                                 e.details.get("why", e) if isinstance(e, CorruptIndex) else e)
        if not done:
            return store, None
        message = "The index was repaired: " + "; ".join(done) + "."
        log.warning(message)
        return store, Notice(message, Problem.INDEX_REPAIRED, {"what": "; ".join(done)})

    def rebuild(self, store: IndexStore, error: BaseException) -> tuple[IndexStore, Notice]:
        """Close `store` (found damaged while in use), move its file aside and start a fresh one."""
        store.close()
        return self._rebuilt(f"The index file {self.index_path} is damaged ({error}).", error)

    def _rebuilt(self, message: str, why: object) -> tuple[IndexStore, Notice]:
        aside = move_aside(self.index_path, "corrupt")
        # a folder where the index belongs was not vaultrag's to delete: it is kept (`drop_aside_copies`)
        kept = ("the folder is kept as it was" if aside.is_dir() else
                "the copy is deleted once the rebuild is complete")
        message = f"{message} It was moved to {aside.name} and the index is rebuilt from the notes ({kept})."
        log.warning(message)
        store = IndexStore.open(self.index_path)
        with store.transaction():
            store.set_meta("vault", str(self.vault))
        return store, Notice(message, Problem.INDEX_REBUILT, {"path": str(self.index_path), "why": str(why),
                                                               "aside": aside.name})

"""Open a vault's index from the app home: settings, paths, and recovery from a corrupt or foreign file."""

from __future__ import annotations

import logging
from dataclasses import dataclass
from pathlib import Path

from vaultrag import settings as settings_mod
from vaultrag.core import tokens
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.store.db import CorruptIndex, move_aside
from vaultrag.core.store.index_store import IndexStore
from vaultrag.errors import IndexOutdated, UserFacingError
from vaultrag.paths import Paths
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
        folder = vaultmod.check_vault(vault)
        s = settings or settings_mod.load(paths.settings_file)
        tokens.configure(paths.tiktoken_cache)
        return cls(folder, paths, s)

    @property
    def index_path(self) -> Path:
        return self.paths.index_file(self.vault)

    def open_store(self, readonly: bool = False) -> tuple[IndexStore, str]:
        """The vault's index and, when a damaged or foreign file was moved aside, a message saying so."""
        path = self.index_path
        if readonly and not path.exists():
            raise UserFacingError(f"{self.vault} has not been indexed yet: run `vaultrag index {self.vault}`.")
        try:
            if readonly:
                try:
                    return IndexStore.open(path, readonly=True), ""
                except IndexOutdated:
                    IndexStore.open(path).close()  # an index from an older version: migrate it once
                    return IndexStore.open(path, readonly=True), ""
            return IndexStore.open(path), ""
        except CorruptIndex as e:
            if readonly:
                raise UserFacingError(f"{e} Run `vaultrag index {self.vault}` to rebuild it.") from e
            aside = move_aside(path, "corrupt")
            message = f"{e} It was moved to {aside.name} and the index is rebuilt from the notes."
            log.warning(message)
            store = IndexStore.open(path)
            with store.transaction():
                store.set_meta("vault", str(self.vault))
            return store, message

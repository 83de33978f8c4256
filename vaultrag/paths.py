"""Every on-disk location, from one home dir (platformdirs, VAULTRAG_HOME or --home); the vault folder's check."""

from __future__ import annotations

import hashlib
import os
import re
from pathlib import Path

from vaultrag.errors import Problem, UserFacingError, VaultNotFound

ENV_HOME = "VAULTRAG_HOME"
_IN_USE: list[Path] = []  # the home of the latest Paths made: this process's (see `log_dir`)


def home_dir(override: str | os.PathLike[str] | None = None) -> Path:
    """The app's home: `override` (the --home flag), else $VAULTRAG_HOME, else the platform data dir."""
    if override:
        return Path(override).expanduser().resolve()
    env = os.environ.get(ENV_HOME)
    if env:
        return Path(env).expanduser().resolve()
    import platformdirs

    return Path(platformdirs.user_data_dir("vaultrag", appauthor=False))


def check_vault(vault: str | os.PathLike[str]) -> Path:
    """`vault` as an absolute path, or VaultNotFound with a message a person can act on."""
    p = Path(vault).expanduser()
    if not p.exists():
        raise VaultNotFound(Problem.VAULT_MISSING, path=p)
    if not p.is_dir():
        raise VaultNotFound(Problem.VAULT_NOT_FOLDER, path=p)
    if not os.access(p, os.R_OK | os.X_OK):
        raise VaultNotFound(Problem.VAULT_UNREADABLE, path=p)
    return p.resolve()


def outside_vault(path: str | os.PathLike[str], vault: str | os.PathLike[str], what: str) -> Path:
    """`path` (resolved), or UserFacingError when it lies in `vault`: vaultrag never writes into a vault (an app
    home or a report there was indexed as notes at the next run)."""
    p, v = Path(path).expanduser().resolve(), Path(vault).expanduser().resolve()
    if p == v or p.is_relative_to(v):
        raise UserFacingError(Problem.PATH_IN_VAULT, path=p, vault=v, what=what)
    return p


class Paths:
    """The locations under one home dir; nothing here ever points inside a vault. A process works in one home
    (the app's, a command's): the latest one made is it, for what belongs to no vault (`log_dir`)."""

    def __init__(self, home: str | os.PathLike[str] | None = None) -> None:
        self.home = home_dir(home)
        _IN_USE[:] = [self.home]

    @property
    def settings_file(self) -> Path:
        return self.home / "settings.toml"

    @property
    def index_dir(self) -> Path:
        return self.home / "indexes"

    @property
    def models_dir(self) -> Path:
        """Models downloaded on demand (cross-encoders from the hub), one folder each."""
        return self.home / "models"

    @property
    def tiktoken_cache(self) -> Path:
        return self.home / "cache" / "tiktoken"

    @property
    def log_dir(self) -> Path:
        """Logs of the processes vaultrag runs (the built-in model's server)."""
        return self.home / "log"

    def history_file(self, vault: str | os.PathLike[str]) -> Path:
        """The conversations asked of `vault` (core/history.py), keyed as its index is."""
        return self.home / "history" / f"{_vault_key(vault)}.sqlite"

    def index_file(self, vault: str | os.PathLike[str]) -> Path:
        """The SQLite index of `vault`, keyed by the vault's absolute path (name kept for humans)."""
        return self.index_dir / f"{_vault_key(vault)}.sqlite"

    def vault_dir(self, vault: str | os.PathLike[str]) -> Path:
        """The window's own state for one vault (its question history), in a folder only this user can read: what
        is asked of one vault is never shown in another, nor kept in the shared ui.ini."""
        return self.home / "vaults" / _vault_key(vault)


def log_dir() -> Path:
    """This process's log folder: the home in use's, else the default home's. Never the system's temp folder,
    which every user can list and where a log outlives a killed app (the model server's may quote the notes)."""
    return Paths(_IN_USE[0] if _IN_USE else None).log_dir


def _vault_key(vault: str | os.PathLike[str]) -> str:
    """`vault`'s name for files under the home: its folder name for humans, a digest of its absolute path."""
    absolute = str(Path(vault).expanduser().resolve())
    # the path's own bytes: a folder name that is not valid UTF-8 still has one (and the same digest as before
    # for every name that is)
    digest = hashlib.sha1(os.fsencode(absolute)).hexdigest()[:12]
    slug = re.sub(r"[^A-Za-z0-9_-]+", "-", Path(absolute).name).strip("-")[:40] or "vault"
    return f"{slug}-{digest}"

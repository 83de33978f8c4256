"""Walk a vault read-only: find notes, apply ignore rules, read text with a reason for every failure."""

from __future__ import annotations

import contextlib
import os
import stat
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

import pathspec

from vaultrag.core.model import NoteFile, ParsedNote, Skip
from vaultrag.core.vocab import Reason
from vaultrag.errors import VaultNotFound

IGNORE_FILE = ".vaultragignore"
BUILTIN_DIRS = {".obsidian": "obsidian config folder", ".trash": "obsidian trash", ".git": "git folder"}
Rule = tuple[Reason, str]  # a rule's code and its words
BINARY_SNIFF = 8192


@dataclass
class ScanResult:
    """The notes of a vault and everything that was skipped on the way."""

    notes: list[NoteFile]
    skipped: list[Skip]


class IgnoreRules:
    """Which vault-relative paths are left out, and by which rule (settings globs, .vaultragignore)."""

    def __init__(self, vault: Path, globs: Iterable[str] = ()) -> None:
        self.globs = list(globs)
        self._settings = pathspec.GitIgnoreSpec.from_lines(self.globs)
        self.file_lines: list[str] = []
        with contextlib.suppress(OSError):  # no ignore file is the common case
            self.file_lines = (vault / IGNORE_FILE).read_text(encoding="utf-8", errors="replace").splitlines()
        self._file = pathspec.GitIgnoreSpec.from_lines(self.file_lines)

    def dir_rule(self, rel: str, name: str) -> Rule | None:
        """The rule that skips folder `rel` (vault-relative), or None."""
        if name in BUILTIN_DIRS:
            return Reason.BUILTIN_FOLDER, BUILTIN_DIRS[name]
        if name.startswith("."):
            return Reason.HIDDEN_FOLDER, "hidden folder"
        return self.file_rule(rel + "/")

    def file_rule(self, rel: str) -> Rule | None:
        """The rule that skips path `rel`, or None."""
        if self._file.match_file(rel):
            return Reason.IGNORE_FILE, f"{IGNORE_FILE} pattern"
        if self._settings.match_file(rel):
            return Reason.IGNORE_SETTING, "ignore_globs setting"
        return None


def check_vault(vault: str | os.PathLike[str]) -> Path:
    """`vault` as an absolute path, or VaultNotFound with a message a person can act on."""
    p = Path(vault).expanduser()
    if not p.exists():
        raise VaultNotFound(f"Vault folder {p} does not exist. Check the path or pick another folder.")
    if not p.is_dir():
        raise VaultNotFound(f"{p} is a file, not a folder. A vault is the folder that holds your notes.")
    if not os.access(p, os.R_OK | os.X_OK):
        raise VaultNotFound(f"Vault folder {p} cannot be read (permission denied).")
    return p.resolve()


def scan(vault: str | os.PathLike[str], globs: Iterable[str] = ()) -> ScanResult:
    """Every `*.md` note of `vault` with its size and mtime; follows symlinks once (loops are skipped)."""
    root = check_vault(vault)
    rules = IgnoreRules(root, globs)
    notes: list[NoteFile] = []
    skipped: list[Skip] = []
    seen_dirs: set[tuple[int, int]] = set()

    def walk(folder: Path, rel: str) -> None:
        try:
            st = folder.stat()
        except OSError as e:
            skipped.append(Skip(rel + "/", Reason.UNREADABLE_FOLDER, f"unreadable folder: {e.strerror}"))
            return
        key = (st.st_dev, st.st_ino)
        if key in seen_dirs:
            skipped.append(Skip(rel + "/", Reason.SYMLINK_LOOP, "symlink loop (folder already visited)"))
            return
        seen_dirs.add(key)
        try:
            entries = sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as e:
            skipped.append(Skip((rel or ".") + "/", Reason.UNREADABLE_FOLDER, f"unreadable folder: {e.strerror}"))
            return
        for entry in entries:
            child = f"{rel}/{entry.name}" if rel else entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
            except OSError:
                is_dir = False
            if is_dir:
                rule = rules.dir_rule(child, entry.name)
                if rule:
                    skipped.append(Skip(child + "/", *rule))
                else:
                    walk(Path(entry.path), child)
                continue
            if not entry.name.lower().endswith(".md"):
                continue
            rule = (Reason.HIDDEN_FILE, "hidden file") if entry.name.startswith(".") else rules.file_rule(child)
            if rule:
                skipped.append(Skip(child, *rule))
                continue
            try:
                st = entry.stat(follow_symlinks=True)
            except OSError as e:
                skipped.append(Skip(child, Reason.CANNOT_STAT, f"cannot stat: {e.strerror or e}"))
                continue
            if not stat.S_ISREG(st.st_mode):
                skipped.append(Skip(child, Reason.NOT_REGULAR, "not a regular file"))
                continue
            notes.append(NoteFile(child, entry.path, st.st_size, st.st_mtime_ns))

    walk(root, "")
    return ScanResult(notes, skipped)


class ReadError(Exception):
    """A note could not be read as text: `code` for the diagnosis, the message for people (`status`)."""

    def __init__(self, code: Reason, message: str) -> None:
        super().__init__(message)
        self.code = code


def read_note(path: str | os.PathLike[str], max_bytes: int) -> tuple[bytes, str]:
    """The raw bytes and decoded text of a note, or ReadError with the reason."""
    try:
        with open(path, "rb") as f:
            data = f.read(max_bytes + 1)
    except FileNotFoundError as e:
        raise ReadError(Reason.VANISHED, "vanished while being read") from e
    except IsADirectoryError as e:
        raise ReadError(Reason.IS_FOLDER, "is a folder now, not a file") from e
    except PermissionError as e:
        raise ReadError(Reason.PERMISSION, "permission denied") from e
    except OSError as e:
        raise ReadError(Reason.CANNOT_READ, f"cannot read: {e.strerror or e}") from e
    if len(data) > max_bytes:
        raise ReadError(Reason.TOO_LARGE, f"larger than the size cap ({max_bytes:,} bytes; setting max_note_bytes)")
    if b"\x00" in data[:BINARY_SNIFF]:
        raise ReadError(Reason.BINARY, "binary file (contains NUL bytes), not Markdown text")
    try:
        text = data.decode("utf-8")
    except UnicodeDecodeError as e:
        raise ReadError(Reason.NOT_UTF8, f"invalid UTF-8 at byte {e.start}") from e
    return data, text


def exclusion_rule(parsed: ParsedNote, private_tag: str) -> Rule | None:
    """The rule by which a parsed note's own content excludes it, or None."""
    flag = parsed.frontmatter.get("vaultrag")
    if isinstance(flag, str) and flag.strip().lower() == "exclude":
        return Reason.FRONTMATTER_EXCLUDE, "frontmatter vaultrag: exclude"
    if private_tag:
        wanted = private_tag.lstrip("#").lower()
        for tag in parsed.tags:
            if tag.lower() == wanted or tag.lower().startswith(wanted + "/"):
                return Reason.PRIVATE_TAG, f"private tag #{wanted}"
    return None


@dataclass(frozen=True)
class NoteText:
    """A note's text for display (the preview), or why it could not be read."""

    vault: str
    note: str
    path: str
    text: str
    error: str
    in_obsidian_vault: bool
    char_start: int = 0  # the chunk the text was asked for (lets a view drop answers to older requests)


def note_text(vault: str | os.PathLike[str], note: str, max_bytes: int, char_start: int = 0) -> NoteText:
    """The text of `note` (vault-relative) for display; never raises for a bad file."""
    root = Path(vault)
    path = root / note
    try:
        _, text = read_note(path, max_bytes)
        error = ""
    except ReadError as e:
        text, error = "", str(e)
    return NoteText(str(root), note, str(path), text, error, (root / ".obsidian").is_dir(), char_start)

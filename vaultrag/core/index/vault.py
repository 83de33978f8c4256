"""Walk a vault read-only: find notes, apply ignore rules, read text with a reason for every failure."""

from __future__ import annotations

import codecs
import contextlib
import os
import re
import stat
import unicodedata
from collections.abc import Iterable
from dataclasses import dataclass, field
from functools import cached_property
from pathlib import Path

import pathspec

from vaultrag.core.model import NoteFile, ParsedNote, Skip
from vaultrag.core.vocab import Reason
from vaultrag.paths import check_vault

IGNORE_FILE = ".vaultragignore"
BUILTIN_DIRS = {".obsidian": "obsidian config folder", ".trash": "obsidian trash", ".git": "git folder"}
Rule = tuple[Reason, str]  # a rule's code and its words
BINARY_SNIFF = 8192
LONE_CR = re.compile(r"\r(?!\n)")


@dataclass
class ScanResult:
    """The notes of a vault and everything that was skipped on the way."""

    notes: list[NoteFile]
    skipped: list[Skip]
    problems: list[str] = field(default_factory=list)  # ignore-pattern lines that were skipped

    @cached_property
    def unlisted(self) -> tuple[str, ...]:
        """The folders the walk could not list, vault-relative with their '/' ('' for the vault itself)."""
        return tuple("" if s.path in ("/", "./") else s.path for s in self.skipped
                     if s.code == Reason.UNREADABLE_FOLDER)

    def unseen(self, path: str) -> bool:
        """Whether `path` lies under a folder the walk could not list: what it holds is unknown, not gone."""
        return any(path.startswith(folder) for folder in self.unlisted)


def _fold(text: str) -> str:
    """A rule or a path as ignore rules compare them: one Unicode form (NFC) and lower case."""
    return unicodedata.normalize("NFC", text.lower())


class IgnoreRules:
    """Which vault-relative paths are left out, and by which rule (settings globs, .vaultragignore).

    Rules and paths are compared in one Unicode form and without regard to case: macOS writes names decomposed
    (NFD) where an editor types them composed (NFC), and Obsidian vaults live on disks where `Diary/` and `diary/`
    are one folder, so a rule in another form or case is meant for it. Leaving out too much is the safe side of
    a privacy rule (git does the same with core.ignorecase, the default on those disks).
    """

    def __init__(self, vault: Path, globs: Iterable[str] = ()) -> None:
        self.globs = list(globs)
        self.problems: list[str] = []  # pattern lines that were skipped, in words (index and status show them)
        self._settings = self._spec(self.globs, "ignore_globs setting, entry")
        self.file_lines: list[str] = []
        with contextlib.suppress(OSError):  # no ignore file is the common case
            # utf-8-sig: a BOM (Windows editors write one) made the first rule "\ufeffsecret/", which matched nothing
            self.file_lines = (vault / IGNORE_FILE).read_text(encoding="utf-8-sig", errors="replace").splitlines()
        self._file = self._spec(self.file_lines, f"{IGNORE_FILE}, line")

    def _spec(self, lines: list[str], where: str) -> pathspec.GitIgnoreSpec:
        """The lines as one spec; a line pathspec rejects is reported and skipped (the others still apply)."""
        good = []
        for n, line in enumerate(lines, 1):
            try:
                pathspec.GitIgnoreSpec.from_lines([_fold(line)])  # folded as it is used ("[Z-a]" is "[z-a]")
            except Exception as e:  # pathspec raises several types for a bad pattern
                self.problems.append(f"{where} {n}: {line!r} is not a valid pattern ({e}); skipped")
                continue
            good.append(_fold(line))
        return pathspec.GitIgnoreSpec.from_lines(good)

    def real_rule(self, rel: str, is_dir: bool) -> Rule | None:
        """The rule that leaves out the vault-relative path `rel` or any folder above it (a symlink's target)."""
        parts = rel.split("/")
        for i in range(len(parts) - (0 if is_dir else 1)):
            rule = self.dir_rule("/".join(parts[: i + 1]), parts[i])
            if rule:
                return rule
        if is_dir:
            return None
        return (Reason.HIDDEN_FILE, "hidden file") if parts[-1].startswith(".") else self.file_rule(rel)

    def dir_rule(self, rel: str, name: str) -> Rule | None:
        """The rule that skips folder `rel` (vault-relative), or None."""
        if name in BUILTIN_DIRS:
            return Reason.BUILTIN_FOLDER, BUILTIN_DIRS[name]
        if name.startswith("."):
            return Reason.HIDDEN_FOLDER, "hidden folder"
        return self.file_rule(rel + "/")

    def file_rule(self, rel: str) -> Rule | None:
        """The rule that skips path `rel`, or None."""
        rel = _fold(rel)
        if self._file.match_file(rel):
            return Reason.IGNORE_FILE, f"{IGNORE_FILE} pattern"
        if self._settings.match_file(rel):
            return Reason.IGNORE_SETTING, "ignore_globs setting"
        return None


def _printable(rel: str) -> str:
    """A path with undecodable bytes shown as escapes (storable, and a person can find the file)."""
    return os.fsencode(rel).decode("utf-8", "backslashreplace")


def _valid_name(name: str) -> bool:
    try:
        name.encode("utf-8")
    except UnicodeEncodeError:  # os.scandir keeps undecodable bytes as lone surrogates
        return False
    return True


def scan(vault: str | os.PathLike[str], globs: Iterable[str] = ()) -> ScanResult:
    """Every `*.md` note of `vault` with its size and mtime.

    Symlinks are followed only inside the vault, and only when their target is not left out by a rule itself
    (a link must not smuggle an ignored or outside file in); loops are skipped.
    """
    root = check_vault(vault)
    rules = IgnoreRules(root, globs)
    walk = _Walk(root, rules)
    walk.folder(root, "", False)
    # folders reached through a link are walked after every real one, so a note is indexed where it really lives
    # and the link is the one said to lead back into the vault (a link sorted before its target took the notes'
    # paths, and the real folder was called the loop)
    while walk.linked_dirs:
        walk.folder(*walk.linked_dirs.pop(0), True)
    ignored = [s for s in walk.skipped if s.code in (Reason.IGNORE_SETTING, Reason.IGNORE_FILE)]
    if not walk.notes and ignored:  # "*.md" as a rule: nothing is searchable, and nothing else would say why
        rules.problems.append(f"the ignore rules leave out every note ({len(ignored)} path(s), e.g. "
                              f"{ignored[0].path}: {ignored[0].detail}); check ignore_globs and .vaultragignore")
    return ScanResult(walk.notes, walk.skipped, rules.problems)


class _Walk:
    """One scan's walk through the vault's folders: the notes found, the paths skipped with their reasons."""

    def __init__(self, root: Path, rules: IgnoreRules) -> None:
        self.root, self.rules = root, rules
        self.notes: list[NoteFile] = []
        self.skipped: list[Skip] = []
        self.seen_dirs: set[tuple[int, int]] = set()
        self.linked_dirs: list[tuple[Path, str]] = []  # folders reached through a link: walked last

    def link_rule(self, entry: os.DirEntry[str], is_dir: bool) -> Rule | None:
        """For a path reached through a symlink: the rule its real place falls under, or None."""
        real = Path(os.path.realpath(entry.path))
        if real == self.root:
            return None
        if not real.is_relative_to(self.root):
            return Reason.SYMLINK_OUTSIDE, "symlink to a place outside the vault (not followed)"
        real_rel = real.relative_to(self.root).as_posix()
        rule = self.rules.real_rule(real_rel, is_dir)
        if rule:
            return Reason.SYMLINK_TO_IGNORED, f"symlink to {real_rel}, which is left out ({rule[1]})"
        return None

    def entries(self, folder: Path, rel: str) -> list[os.DirEntry[str]] | None:
        """The folder's entries by name; None (skipped with its reason) when it cannot be read or was seen."""
        try:
            st = folder.stat()
        except OSError as e:
            self.skipped.append(Skip(rel + "/", Reason.UNREADABLE_FOLDER, f"unreadable folder: {e.strerror}"))
            return None
        key = (st.st_dev, st.st_ino)
        if key in self.seen_dirs:
            self.skipped.append(Skip(rel + "/", Reason.SYMLINK_LOOP, "symlink loop (folder already visited)"))
            return None
        self.seen_dirs.add(key)
        try:
            return sorted(os.scandir(folder), key=lambda e: e.name)
        except OSError as e:
            self.skipped.append(Skip((rel or ".") + "/", Reason.UNREADABLE_FOLDER,
                                     f"unreadable folder: {e.strerror}"))
            return None

    def folder(self, folder: Path, rel: str, linked: bool) -> None:
        """Walk `folder` (`rel` in the vault; `linked`: reached through a symlink)."""
        for entry in self.entries(folder, rel) or ():
            child = f"{rel}/{entry.name}" if rel else entry.name
            try:
                is_dir = entry.is_dir(follow_symlinks=True)
                via_link = linked or entry.is_symlink()
            except OSError:
                is_dir, via_link = False, True
            if not is_dir and not entry.name.lower().endswith(".md"):
                continue
            shown = child + ("/" if is_dir else "")
            if not _valid_name(child):
                self.skipped.append(Skip(_printable(shown), Reason.BAD_FILENAME,
                                         "name is not valid UTF-8: rename it to index it"))
            elif is_dir:
                self.subfolder(entry, child, via_link)
            else:
                self.note(entry, child, via_link)

    def subfolder(self, entry: os.DirEntry[str], child: str, via_link: bool) -> None:
        rule = self.rules.dir_rule(child, entry.name) or (self.link_rule(entry, True) if via_link else None)
        if rule:
            self.skipped.append(Skip(child + "/", *rule))
        elif entry.is_symlink():
            self.linked_dirs.append((Path(entry.path), child))  # after every real folder (see scan)
        else:
            self.folder(Path(entry.path), child, via_link)

    def note(self, entry: os.DirEntry[str], child: str, via_link: bool) -> None:
        rule = (Reason.HIDDEN_FILE, "hidden file") if entry.name.startswith(".") else self.rules.file_rule(child)
        rule = rule or (self.link_rule(entry, False) if via_link else None)
        if rule:
            self.skipped.append(Skip(child, *rule))
            return
        try:
            st = entry.stat(follow_symlinks=True)
        except OSError as e:
            self.skipped.append(Skip(child, Reason.CANNOT_STAT, f"cannot stat: {e.strerror or e}"))
            return
        if not stat.S_ISREG(st.st_mode):
            self.skipped.append(Skip(child, Reason.NOT_REGULAR, "not a regular file"))
            return
        self.notes.append(NoteFile(child, entry.path, st.st_size, st.st_mtime_ns))


class ReadError(Exception):
    """A note could not be read as text: `code` for the diagnosis, the message for people (`status`)."""

    def __init__(self, code: Reason, message: str) -> None:
        super().__init__(message)
        self.code = code


WIDE_BOMS = ((codecs.BOM_UTF32_LE, "utf-32"), (codecs.BOM_UTF32_BE, "utf-32"), (codecs.BOM_UTF16_LE, "utf-16"),
             (codecs.BOM_UTF16_BE, "utf-16"))


def read_note(path: str | os.PathLike[str], max_bytes: int) -> tuple[bytes, str]:
    """The raw bytes and decoded text of a note, or ReadError with the reason."""
    try:
        # O_NONBLOCK: a named pipe put where a note was must not block the reader for good (a blocking open waits
        # for a writer); a regular file reads as ever
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NONBLOCK", 0))
        with os.fdopen(fd, "rb") as f:
            mode = os.fstat(f.fileno()).st_mode
            if stat.S_ISDIR(mode):
                raise ReadError(Reason.IS_FOLDER, "is a folder now, not a file")
            if not stat.S_ISREG(mode):
                raise ReadError(Reason.CANNOT_READ, "not a regular file (a pipe, a socket or a device)")
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
    # Windows editors' "Unicode" (UTF-16) and UTF-32, told by their BOM (UTF-32's starts like UTF-16's: tested first)
    wide = next((name for bom, name in WIDE_BOMS if data.startswith(bom)), None)
    if wide is not None:
        try:
            text = data.decode(wide)
        except UnicodeDecodeError as e:
            raise ReadError(Reason.NOT_UTF8, f"invalid {wide.upper()} at byte {e.start}") from e
        if "\x00" in text[:BINARY_SNIFF]:  # as for UTF-8: a NUL character is not Markdown
            raise ReadError(Reason.BINARY, "binary file (contains NUL characters), not Markdown text")
        return data, LONE_CR.sub("\n", text) if "\r" in text else text
    if b"\x00" in data[:BINARY_SNIFF]:
        raise ReadError(Reason.BINARY, "binary file (contains NUL bytes), not Markdown text")
    try:
        # utf-8-sig: a BOM must not hide the frontmatter behind it (its exclusion rules would be missed)
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise ReadError(Reason.NOT_UTF8, f"invalid UTF-8 at byte {e.start}") from e
    # old-Mac CR-only line ends: markdown-it sees lines where the chunker would see one; \r → \n keeps offsets
    return data, LONE_CR.sub("\n", text) if "\r" in text else text


def exclusion_rule(parsed: ParsedNote, private_tag: str) -> Rule | None:
    """The rule by which a parsed note's own content excludes it, or None."""
    # every `vaultrag` key in any case, each value (markdown.py reads them block by block: duplicates too)
    if any(f.strip().lower() == "exclude" for f in parsed.flags):
        return Reason.FRONTMATTER_EXCLUDE, "frontmatter vaultrag: exclude"
    if private_tag:
        wanted = _fold(private_tag.strip().lstrip("#"))  # settings.py normalizes it; a caller may not have
        # the text's tags too: the parser's (frontmatter, paragraphs) miss one where the chunks still hold it
        for tag in map(_fold, (*parsed.tags, *parsed.text_tags)):  # "diário" typed NFC, pasted NFD
            if tag == wanted or tag.startswith(wanted + "/"):
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

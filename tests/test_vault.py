"""Reading notes: every way a file can fail to be a readable note gets a reason, and the vault path is checked."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import write
from vaultrag.core.index import vault as vaultmod
from vaultrag.core.index.vault import ReadError, read_note
from vaultrag.errors import VaultNotFound
from vaultrag.paths import check_vault


def test_read_note_reasons(tmp_path: Path):
    with pytest.raises(ReadError, match="vanished while being read"):
        read_note(tmp_path / "gone.md", 1000)
    (tmp_path / "dir.md").mkdir()
    with pytest.raises(ReadError, match="is a folder now"):
        read_note(tmp_path / "dir.md", 1000)
    (tmp_path / "big.md").write_bytes(b"x" * 1001)
    with pytest.raises(ReadError, match="size cap"):
        read_note(tmp_path / "big.md", 1000)
    (tmp_path / "ok.md").write_text("olá", encoding="utf-8")
    assert read_note(tmp_path / "ok.md", 1000) == ("olá".encode(), "olá")


def test_check_vault_messages(tmp_path: Path):
    with pytest.raises(VaultNotFound, match="does not exist"):
        check_vault(tmp_path / "nope")
    (tmp_path / "file.md").write_text("x", encoding="utf-8")
    with pytest.raises(VaultNotFound, match="is a file, not a folder"):
        check_vault(tmp_path / "file.md")
    assert check_vault(tmp_path) == tmp_path.resolve()


def test_ignore_rules_that_leave_out_every_note_are_said(vault: Path):
    write(vault, "a.md", "# A\n\nText.\n")
    write(vault, "sub/b.md", "# B\n\nText.\n")
    scanned = vaultmod.scan(vault, ["*.md"])
    assert scanned.notes == [] and any("leave out every note" in p for p in scanned.problems), scanned.problems
    assert not any("every note" in p for p in vaultmod.scan(vault, ["sub/"]).problems), "one note is left"


def test_a_link_to_a_folder_of_the_vault_never_takes_its_notes_paths(tmp_path: Path):
    """A link that sorts before its target ("a_alias" → "sub") took the notes' paths, and the real folder was
    reported as the loop (a hostile tester)."""
    from vaultrag.core.vocab import Reason

    vault = tmp_path / "v"
    write(vault, "sub/deep/real.md", "# Real\n\nText.\n")
    write(vault, "top.md", "# Top\n\nText.\n")
    (vault / "a_alias").symlink_to(vault / "sub", target_is_directory=True)
    (vault / "sub" / "0link").symlink_to(vault / "sub" / "deep", target_is_directory=True)
    scanned = vaultmod.scan(vault)
    assert sorted(n.path for n in scanned.notes) == ["sub/deep/real.md", "top.md"]
    loops = {s.path for s in scanned.skipped if s.code == Reason.SYMLINK_LOOP}
    assert loops == {"a_alias/", "sub/0link/"}, "the links are the loops, never the real folders"

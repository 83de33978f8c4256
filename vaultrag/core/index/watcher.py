"""Watch a vault with watchdog: filter events, coalesce them after a quiet period, flag overflows and sleeps."""

from __future__ import annotations

import contextlib
import logging
import os
import stat
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from watchdog.events import FileSystemEvent, FileSystemEventHandler
from watchdog.observers import Observer
from watchdog.observers.api import BaseObserver, ObservedWatch

from vaultrag.core.index.vault import IGNORE_FILE

log = logging.getLogger(__name__)
SLEEP_JUMP_S = 30.0  # wall clock moved this much more than the monotonic clock: the machine slept
# a batch waits for a quiet moment, but never longer than this: a note an app rewrites many times a second (a
# plugin, a sync client) would otherwise hold back every other edit for as long as it keeps writing
MAX_WAIT_S = 2.0
# how often the vault folder itself is checked: inotify watches die with the folder they were put on, so a vault
# deleted and made again (or moved aside and replaced) is watched again only when this notices it
ROOT_CHECK_S = 0.5


@dataclass
class ChangeBatch:
    """Vault-relative paths that changed (as events reported them) and whether a full reconcile is due."""

    paths: set[str] = field(default_factory=set)
    full: bool = False
    reason: str = ""
    first_event: float = 0.0  # time.monotonic() of the batch's first event, for save→searchable latency


class _OverflowLog(logging.Handler):
    """watchdog only logs an inotify queue overflow; this turns the log line into a full-reconcile request."""

    def __init__(self, on_overflow: Callable[[], None]) -> None:
        super().__init__(logging.WARNING)
        self.on_overflow = on_overflow

    def emit(self, record: logging.LogRecord) -> None:
        if "overflow" in record.getMessage().lower():
            self.on_overflow()


class VaultWatcher:
    """Calls `on_batch(ChangeBatch)` (on its own thread) after `quiet_ms` without relevant events."""

    def __init__(self, vault: str | os.PathLike[str], on_batch: Callable[[ChangeBatch], None],
                 quiet_ms: int = 300, max_wait_s: float = MAX_WAIT_S) -> None:
        self.vault = Path(vault).resolve()
        self.on_batch = on_batch
        self.quiet = quiet_ms / 1000
        self.max_wait = max_wait_s
        self._lock = threading.Condition()
        self._pending = ChangeBatch()
        self._last_event = 0.0
        self._stop = False
        self._observer: BaseObserver | None = None  # made in start(): watchdog's inotify observer starts a thread
        self._watch: ObservedWatch | None = None
        self._armed: tuple[int, int] | None = None  # (st_dev, st_ino) of the folder the watch is on
        self._arm_lock = threading.Lock()  # a re-arm never races stop(): no emitter is started after it
        self._root_checked = 0.0
        self._thread = threading.Thread(target=self._loop, name="vaultrag-debounce", daemon=True)
        self._overflow = _OverflowLog(lambda: self.request_full("event queue overflow"))

    def start(self) -> None:
        for name in ("watchdog.observers.inotify_c", "watchdog.observers.inotify"):
            logging.getLogger(name).addHandler(self._overflow)
        self._observer = Observer()
        self._armed = _identity(self.vault)
        self._watch = self._observer.schedule(_Handler(self), str(self.vault), recursive=True)
        self._observer.start()
        self._root_checked = time.monotonic()
        self._thread.start()

    def stop(self, timeout: float = 5.0) -> None:
        """Stop the observer and the debounce thread; pending changes are flushed first."""
        with self._lock:
            self._stop = True
            self._lock.notify_all()
        if self._observer is not None:
            with self._arm_lock:
                self._observer.stop()
            self._observer.join(timeout)
        if self._thread.ident is not None:
            self._thread.join(timeout)
        for name in ("watchdog.observers.inotify_c", "watchdog.observers.inotify"):
            logging.getLogger(name).removeHandler(self._overflow)

    def request_full(self, reason: str) -> None:
        """Ask for a full reconcile (overflow, resume from sleep, ignore rules changed)."""
        with self._lock:
            self._pending.full = True
            self._pending.reason = self._pending.reason or reason
            self._touch()

    def add(self, abspath: str) -> None:
        """Record one relevant path from an event (called on watchdog's thread)."""
        try:
            rel = Path(abspath).resolve().relative_to(self.vault).as_posix()
        except ValueError:
            return
        if hidden(rel):  # .obsidian/, .trash/, .git/: never indexed, so their events must not delay the notes'
            return
        with self._lock:
            self._pending.paths.add(rel)
            if rel == IGNORE_FILE:
                self._pending.full = True
                self._pending.reason = "ignore rules changed"
            self._touch()

    def _touch(self) -> None:
        now = time.monotonic()
        if not self._pending.first_event:
            self._pending.first_event = now
        self._last_event = now
        self._lock.notify_all()

    def _follow_root(self) -> None:
        """Watch the vault folder again when it was deleted and made again, or replaced (its watch died with it),
        then ask for a full reconcile: what was written before the new watch took is found by the scan."""
        now = time.monotonic()
        if self._observer is None or now - self._root_checked < ROOT_CHECK_S:
            return
        self._root_checked = now
        current = _identity(self.vault)
        alive = any(e.watch == self._watch and e.is_alive() for e in list(self._observer.emitters))
        if current is not None and current == self._armed and alive:
            return
        if current is None:  # gone (an unmounted drive, `rm -rf`): the lane's run says so; watched when back
            self._armed = None
            return
        with self._arm_lock:
            if self._stop:
                return
            if self._watch is not None:
                with contextlib.suppress(KeyError):  # already gone from the observer
                    self._observer.unschedule(self._watch)
                self._watch = None
            try:
                self._watch = self._observer.schedule(_Handler(self), str(self.vault), recursive=True)
            except OSError as e:  # gone again, or not a folder now: tried again at the next check
                log.warning("cannot watch %s again: %s", self.vault, e)
                return
        log.info("the vault folder %s was made again: watching it again", self.vault)
        self._armed = current
        self.request_full("vault folder made again")

    def _loop(self) -> None:
        wall, mono = time.time(), time.monotonic()
        while True:
            with self._lock:
                while not self._stop:
                    has_work = bool(self._pending.paths or self._pending.full)
                    now = time.monotonic()
                    left = (min(self.quiet - (now - self._last_event),
                                self.max_wait - (now - self._pending.first_event)) if has_work else 1.0)
                    if has_work and left <= 0:
                        break
                    self._lock.wait(timeout=min(max(left, 0.01), ROOT_CHECK_S))
                    # a wall-clock jump the monotonic clock didn't see is a suspend/resume: events may be lost
                    now_wall, now_mono = time.time(), time.monotonic()
                    if (now_wall - wall) - (now_mono - mono) > SLEEP_JUMP_S:
                        self._pending.full, self._pending.reason = True, "resumed from sleep"
                        self._touch()
                    wall, mono = now_wall, now_mono
                    # outside the lock: re-arming takes the observer's lock, which its thread holds while it
                    # hands an event to add(), which takes this one (the loop then looks at the batch again)
                    self._lock.release()
                    try:
                        self._follow_root()
                    finally:
                        self._lock.acquire()
                batch, self._pending = self._pending, ChangeBatch()
                stopping = self._stop
            if batch.paths or batch.full:
                try:
                    self.on_batch(batch)
                except Exception:  # the consumer's bug must not kill the watcher
                    log.exception("change batch handler failed")
            if stopping:
                return


def _identity(folder: Path) -> tuple[int, int] | None:
    """The folder's (device, inode), or None when it is not there (or not a folder)."""
    try:
        st = os.stat(folder)
    except OSError:
        return None
    return (st.st_dev, st.st_ino) if stat.S_ISDIR(st.st_mode) else None


def hidden(rel: str) -> bool:
    """Whether a vault-relative path is in (or is) a hidden folder, as the vault walk skips them."""
    parts = rel.split("/")
    return any(p.startswith(".") for p in parts[:-1]) or (parts[-1].startswith(".") and parts[-1] != IGNORE_FILE)


def relevant(path: str) -> bool:
    """Notes, folders and the ignore file matter; editors' temp and swap files don't."""
    name = os.path.basename(path)
    if name == IGNORE_FILE:
        return True
    if name.startswith(".") or name.endswith(("~", ".swp", ".swx", ".tmp")):
        return False
    return name.lower().endswith(".md") or "." not in name  # folders rarely have dots


class _Handler(FileSystemEventHandler):
    """Runs on watchdog's thread: filter and enqueue only; the disk is checked later by the reconcile."""

    def __init__(self, watcher: VaultWatcher) -> None:
        self.watcher = watcher

    def on_any_event(self, event: FileSystemEvent) -> None:
        if event.event_type in ("opened", "closed_no_write"):
            return
        if event.is_directory and event.event_type == "modified":
            return  # a folder's listing changed: the files' own events say which
        for p in (event.src_path, getattr(event, "dest_path", "")):
            path = os.fsdecode(p) if p else ""
            # a folder event (create, delete, rename) may stand for many notes: always relevant
            if path and (event.is_directory or relevant(path)) and path != str(self.watcher.vault):
                self.watcher.add(path)

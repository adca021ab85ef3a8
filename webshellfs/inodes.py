"""Inode numbers for the mount: a two-way map between engine paths and FUSE inodes.

The engine names everything by path ("" is the root, "N0001/_map.md" a page file); the kernel
names everything by inode number. Numbers are handed out in order of first sight and never
reused while the daemon runs, so a path keeps its number for the mount's whole life (tools
such as `du`, `tar` and `find -inum` compare numbers across calls). Nothing in the mount is ever
deleted, so the map only grows, by one short string per path the kernel has seen.

`.ctl` is the exception: each session sees its own `.ctl` inode (see `ctl_inode`), because the
kernel serialises writes and truncating opens on one inode, and one session's long command must
not hold up another's. `.progress` (what the session's running command has reported so far) is
per session the same way.

The kernel's lookup counts (raised by lookup and readdirplus, lowered by forget) are tracked as
pyfuse3 asks; `held()` reports how many inodes the kernel still references, which the mount
logs at unmount to show the bookkeeping balanced.
"""

from __future__ import annotations

from collections.abc import Iterable

import pyfuse3

ROOT_PATH = ""
CTL_PATH = ".ctl"
PROGRESS_PATH = ".progress"
ROOT_INODE = pyfuse3.ROOT_INODE

__all__ = [
    "CTL_PATH",
    "PROGRESS_PATH",
    "ROOT_INODE",
    "ROOT_PATH",
    "InodeTable",
    "child_path",
    "parent_path",
]


def child_path(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


def parent_path(path: str) -> str:
    return path.rpartition("/")[0]


class InodeTable:
    """Attributes:
        _inode_of: path → inode.
        _path_of: inode → path (the inverse; both always hold the same pairs).
        _ctl_of: (path, session) → that session's `.ctl` or `.progress` inode;
        _session_of: inode → its session.
        _lookups: inode → how many references the kernel holds; absent means zero.
    Invariant: ROOT_INODE ↔ "" from the start; every per-session inode maps back to its path.
    """

    def __init__(self) -> None:
        self._inode_of: dict[str, int] = {ROOT_PATH: ROOT_INODE}
        self._path_of: dict[int, str] = {ROOT_INODE: ROOT_PATH}
        self._ctl_of: dict[tuple[str, str], int] = {}
        self._session_of: dict[int, str] = {}
        self._next = ROOT_INODE + 1
        self._lookups: dict[int, int] = {}

    def _allocate(self) -> int:
        number = self._next
        self._next += 1
        return number

    def inode(self, path: str) -> int:
        """The number for path, assigning the next free one the first time it is seen."""
        number = self._inode_of.get(path)
        if number is None:
            number = self._inode_of[path] = self._allocate()
            self._path_of[number] = path
        return number

    def session_inode(self, path: str, session: str) -> int:
        """The number of a per-session file (`.ctl`, `.progress`) as seen from session,
        assigned the first time it asks."""
        number = self._ctl_of.get((path, session))
        if number is None:
            number = self._ctl_of[(path, session)] = self._allocate()
            self._path_of[number] = path
            self._session_of[number] = session
        return number

    def ctl_inode(self, session: str) -> int:
        """The number of `.ctl` as seen from session, assigned the first time it asks."""
        return self.session_inode(CTL_PATH, session)

    def session(self, inode: int) -> str | None:
        """The session whose `.ctl` or `.progress` this inode is (None for any other inode)."""
        return self._session_of.get(inode)

    def ctl_session(self, inode: int) -> str | None:
        """The session whose `.ctl` this inode is (None for any other inode)."""
        return self._session_of.get(inode) if self._path_of.get(inode) == CTL_PATH else None

    def path(self, inode: int) -> str | None:
        return self._path_of.get(inode)

    def remember(self, inode: int) -> None:
        """The kernel took one more reference (a successful lookup or readdirplus entry)."""
        self._lookups[inode] = self._lookups.get(inode, 0) + 1

    def forget(self, pairs: Iterable[tuple[int, int]]) -> None:
        """The kernel dropped `count` references to each inode."""
        for inode, count in pairs:
            left = self._lookups.get(inode, 0) - count
            if left > 0:
                self._lookups[inode] = left
            else:
                self._lookups.pop(inode, None)

    def held(self) -> int:
        """How many inodes the kernel still references."""
        return len(self._lookups)

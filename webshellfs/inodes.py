"""Inode numbers for the mount: engine paths ↔ FUSE inodes, with nothing kept per path.

The engine names everything by path ("" is the root, "N0001/_map.md" a page file); the kernel
names everything by inode number. A path's inode is its number in the engine's tree view
(engine/tree.py `number`), which follows from what is stored: a page's number and the entry's
place in the page, a log record's number. So numbers are never reused, a path keeps its number
for as long as the cache lives (tools such as `du`, `tar` and `find -inum` compare numbers across
calls), and this table holds nothing for the paths the kernel has seen: however many files are
read, the daemon's memory does not grow with them.

`.ctl` is the exception: each session sees its own `.ctl` inode (see `ctl_inode`), because the
kernel serialises writes and truncating opens on one inode, and one session's long command must
not hold up another's. `.progress` (what the session's running command has reported so far) is
per session the same way. These are numbered from the tree's UNUSED_NUMBERS up and kept here.

The kernel's lookups (raised by lookup and readdirplus, lowered by forget) are counted as one
total, not per inode: `references()` is what the kernel still holds, which the mount logs at
unmount to show the bookkeeping balanced.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Protocol

import pyfuse3

from webshellfs.engine.tree import ROOT_NUMBER, UNUSED_NUMBERS

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
    "Numbering",
    "child_path",
    "parent_path",
]


def child_path(parent: str, name: str) -> str:
    return f"{parent}/{name}" if parent else name


def parent_path(path: str) -> str:
    return path.rpartition("/")[0]


class Numbering(Protocol):
    """Where numbers come from: the engine's tree view."""

    def number(self, path: str) -> int | None: ...

    def path_of(self, number: int) -> str | None: ...


class InodeTable:
    """Attributes:
        numbering: path ↔ number for everything but the per-session files.
        _ctl_of: (path, session) → that session's `.ctl` or `.progress` inode;
        _session_of: inode → its session; _session_path: inode → `.ctl` or `.progress`.
        _references: lookups the kernel holds in all (raised by remember, lowered by forget).
    """

    def __init__(self, numbering: Numbering) -> None:
        assert ROOT_NUMBER == ROOT_INODE, "the tree's root is the kernel's root inode"
        self.numbering = numbering
        self._ctl_of: dict[tuple[str, str], int] = {}
        self._session_of: dict[int, str] = {}
        self._session_path: dict[int, str] = {}
        self._next = UNUSED_NUMBERS
        self._references = 0

    def inode(self, path: str) -> int:
        """The number of an existing path (not `.ctl` or `.progress`: see session_inode)."""
        number = self.numbering.number(path)
        if number is None:
            raise KeyError(f"no number for {path!r}")
        return number

    def session_inode(self, path: str, session: str) -> int:
        """The number of a per-session file (`.ctl`, `.progress`) as seen from session,
        assigned the first time it asks."""
        number = self._ctl_of.get((path, session))
        if number is None:
            number = self._ctl_of[(path, session)] = self._next
            self._next += 1
            self._session_path[number] = path
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
        return self._session_of.get(inode) if self._session_path.get(inode) == CTL_PATH else None

    def path(self, inode: int) -> str | None:
        if inode >= UNUSED_NUMBERS:
            return self._session_path.get(inode)
        return self.numbering.path_of(inode)

    def remember(self) -> None:
        """The kernel took one more reference (a successful lookup or readdirplus entry)."""
        self._references += 1

    def forget(self, pairs: Iterable[tuple[int, int]]) -> None:
        """The kernel dropped `count` references to each inode."""
        self._references -= sum(count for _, count in pairs)

    def references(self) -> int:
        """How many references the kernel still holds, all inodes together."""
        return self._references

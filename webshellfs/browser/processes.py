"""Finding and killing the Chromium processes this mount started.

A local browser is launched with an environment marker unique to the launch. Chromium strips
its environment for the zygote and renderers, so the marker finds the browser process (and its
crash handler); the browser leads a process group of its own, which holds the rest. The groups
seen are remembered, so members left behind by a dead browser are still found and killed.
Another mount's or another user's Chromium is never touched.
"""

from __future__ import annotations

import os
import signal
import uuid
from dataclasses import dataclass
from pathlib import Path

MARKER_VARIABLE = "WEBSHELLFS_BROWSER"


def new_marker() -> str:
    return uuid.uuid4().hex


def marker_environment(marker: str) -> dict[str, str]:
    return {**os.environ, MARKER_VARIABLE: marker}


@dataclass(frozen=True)
class _Process:
    pid: int
    ppid: int
    pgid: int
    marked: bool


def _processes(marker: str) -> list[_Process]:
    needle = f"{MARKER_VARIABLE}={marker}".encode()
    found: list[_Process] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            if fields[0] == "Z":
                continue
            try:
                marked = needle in (entry / "environ").read_bytes().split(b"\0")
            except OSError:
                marked = False
        except (OSError, IndexError):
            continue
        found.append(_Process(int(entry.name), int(fields[1]), int(fields[2]), marked))
    return found


def driver_children() -> set[int]:
    """Our own child processes that are Playwright drivers (node … run-driver)."""
    me = str(os.getpid())
    found: set[int] = set()
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            parent = (entry / "stat").read_text().rsplit(")", 1)[1].split()[1]
            if parent == me and b"run-driver" in (entry / "cmdline").read_bytes():
                found.add(int(entry.name))
        except (OSError, IndexError):
            continue
    return found


class ChromiumProcesses:
    """The processes of one local browser launch: marked ones, their groups, descendants;
    and the Playwright driver that talks to them, once `driver` is set."""

    def __init__(self, marker: str) -> None:
        self.marker = marker
        self.driver: int | None = None
        self._groups: set[int] = set()

    def pids(self) -> list[int]:
        """Live (non-zombie) processes that belong to our browser."""
        table = _processes(self.marker)
        self._groups.update(p.pgid for p in table if p.marked and p.pgid == p.pid)
        owned = {p.pid for p in table if p.marked or p.pgid in self._groups}
        children: dict[int, list[int]] = {}
        for p in table:
            children.setdefault(p.ppid, []).append(p.pid)
        pending = list(owned)
        while pending:
            for child in children.get(pending.pop(), ()):
                if child not in owned:
                    owned.add(child)
                    pending.append(child)
        return sorted(owned)

    def kill(self) -> int:
        """SIGKILL our process groups, then any straggler; returns how many were found."""
        pids = self.pids()
        for group in self._groups:
            try:
                os.killpg(group, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                continue
        for pid in pids:
            try:
                os.kill(pid, signal.SIGKILL)
            except (ProcessLookupError, PermissionError):
                continue
        return len(pids)

    def kill_driver(self) -> None:
        """SIGKILL the Playwright driver: only for a browser thread that stopped answering,
        which can no longer stop its driver itself."""
        if self.driver is None or self.driver not in driver_children():
            return
        try:
            os.kill(self.driver, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            pass

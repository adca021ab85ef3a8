"""Finding and killing the Chromium processes this mount started.

Every process of a local browser inherits an environment marker unique to the launch, so we
find exactly ours in /proc (renderers, zygotes and crash handlers included, even ones that left
the process group) without touching another mount's or another user's Chromium.
"""

from __future__ import annotations

import os
import signal
import uuid
from pathlib import Path

MARKER_VARIABLE = "WEBSHELLFS_BROWSER"


def new_marker() -> str:
    return uuid.uuid4().hex


def marker_environment(marker: str) -> dict[str, str]:
    return {**os.environ, MARKER_VARIABLE: marker}


def owned_pids(marker: str) -> list[int]:
    """Live processes whose environment carries the marker."""
    needle = f"{MARKER_VARIABLE}={marker}".encode()
    found: list[int] = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            environment = (entry / "environ").read_bytes()
        except OSError:
            continue
        if needle in environment.split(b"\0") and not _is_zombie(entry):
            found.append(int(entry.name))
    return found


def _is_zombie(entry: Path) -> bool:
    try:
        stat = (entry / "stat").read_text()
    except OSError:
        return True
    return stat.rsplit(")", 1)[1].split()[0] == "Z"


def kill_owned(marker: str) -> int:
    """SIGKILL every process group led by one of ours, then any stragglers; returns the count."""
    pids = owned_pids(marker)
    for pid in pids:
        try:
            if os.getpgid(pid) == pid:
                os.killpg(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except (ProcessLookupError, PermissionError):
            continue
    return len(pids)

"""A tiny tmpfs for tests of a full disk: mounted on a temp dir (we are root in CI), resized to
free space, always unmounted at the end."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from tests.conftest import require


def tmpfs_available() -> bool:
    return os.geteuid() == 0


@contextmanager
def tiny_tmpfs(path: Path, size: str) -> Iterator[Path]:
    """A tmpfs of `size` ("2m") on path (made if missing); unmounted (lazily if busy) after."""
    require(tmpfs_available(), "root (to mount a tmpfs)")
    path.mkdir(exist_ok=True)
    subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0755", "tmpfs", str(path)],
                   check=True, timeout=30)
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False, timeout=30)


def resize(path: Path, size: str) -> None:
    """Give a mounted tmpfs a new size: room freed without touching its files."""
    subprocess.run(["mount", "-o", f"remount,size={size}", str(path)], check=True, timeout=30)

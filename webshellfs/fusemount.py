"""The FUSE face's own wiring: make the mountpoint usable, mount, serve until unmounted.

The only module of the wiring that imports pyfuse3: mount.py imports it only when it mounts, so
directory mode (--no-fuse) and `webshellfs mcp` run where pyfuse3 is not installed.
"""

from __future__ import annotations

import errno
import logging
import os
import signal
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path

import pyfuse3
import trio

from webshellfs.engine import Engine
from webshellfs.errors import UsageError
from webshellfs.fs import Operations, require_patched_pyfuse3
from webshellfs.workers import warm_up

__all__ = ["prepare_mountpoint", "require_patched_pyfuse3", "serve"]

log = logging.getLogger(__name__)

MOUNT_OPTIONS = frozenset(pyfuse3.default_options | {"fsname=webshellfs", "subtype=webshellfs"})
# pyfuse3 ends a worker task whenever more than min_tasks are idle and starts one when none is:
# with the default of 1, a run of sequential requests (`grep -r`) starts and ends a task per
# request. Keeping a few idle costs nothing and cut the daemon's CPU per warm grep by a quarter.
IDLE_WORKER_TASKS = 8


def prepare_mountpoint(mountpoint: Path) -> None:
    """Refuse a mountpoint that cannot work or is not empty, and clear a stale mount left by a
    killed daemon."""
    try:
        os.stat(mountpoint)
    except OSError as exc:
        if exc.errno != errno.ENOTCONN:
            raise UsageError(f"cannot mount on {mountpoint}: {exc.strerror}") from None
        _clear_stale_mount(mountpoint)
    if os.path.ismount(mountpoint):
        raise UsageError(
            f"{mountpoint} is already mounted; unmount it first: fusermount3 -u {mountpoint}"
        )
    if not mountpoint.is_dir():
        raise UsageError(f"cannot mount on {mountpoint}: not a directory")
    held = sorted(os.listdir(mountpoint))
    if held:
        more = f" and {len(held) - 1} more" if len(held) > 1 else ""
        raise UsageError(
            f"{mountpoint} is not empty (it holds {held[0]!r}{more}) and the mount would hide "
            "them: mount on an empty directory"
        )


def _clear_stale_mount(mountpoint: Path) -> None:
    # ENOTCONN means the daemon behind this mount is gone; only a lazy unmount clears it.
    print(f"webshellfs: clearing a stale mount at {mountpoint} (its daemon died)", file=sys.stderr)
    result = subprocess.run(
        ["fusermount3", "-u", "-z", str(mountpoint)], capture_output=True, text=True, check=False
    )
    if result.returncode != 0:
        raise UsageError(
            f"{mountpoint} is a stale mount (Transport endpoint is not connected) and clearing it "
            f"failed: {result.stderr.strip()}; run: fusermount3 -u -z {mountpoint} "
            f"(or as root: umount -l {mountpoint})"
        )


def serve(
    engine: Engine,
    mountpoint: Path,
    on_ready: Callable[[], None],
    stop_signals: tuple[signal.Signals, ...],
) -> None:
    """Mount the engine's tree on mountpoint and serve it until unmounted or stopped by one of
    stop_signals; the engine is closed either way."""
    operations = Operations(engine)
    try:
        pyfuse3.init(operations, str(mountpoint), set(MOUNT_OPTIONS))
    except RuntimeError:
        trio.run(engine.aclose)
        raise UsageError(f"cannot mount on {mountpoint} (the reason is in the log)") from None
    log.info("mounted %s (cache %s, pid %d)", mountpoint, engine.store.path, os.getpid())
    unmounted = False
    try:
        unmounted = trio.run(_main, engine, on_ready, stop_signals)
    finally:
        pyfuse3.close(unmount=not unmounted)
        log.info("unmounted %s; the kernel still held %d references", mountpoint,
                 operations.inodes.references())


async def _main(
    engine: Engine, on_ready: Callable[[], None], stop_signals: tuple[signal.Signals, ...]
) -> bool:
    """Serve until unmounted (returns True) or stopped by a signal (returns False)."""
    stopped_by_signal = False
    try:
        async with trio.open_nursery() as nursery:

            async def stop_on_signal() -> None:
                nonlocal stopped_by_signal
                with trio.open_signal_receiver(*stop_signals) as signals:
                    async for signum in signals:
                        log.info("%s received: unmounting", signal.Signals(signum).name)
                        stopped_by_signal = True
                        # Cancelling drops commands still running; their writers see the mount go.
                        nursery.cancel_scope.cancel()
                        return

            async def serve_requests() -> None:
                await pyfuse3.main(min_tasks=IDLE_WORKER_TASKS)
                nursery.cancel_scope.cancel()  # unmounted from outside: stop listening for signals

            nursery.start_soon(stop_on_signal)
            nursery.start_soon(serve_requests)
            nursery.start_soon(warm_up)
            on_ready()
    finally:
        with trio.CancelScope(shield=True):
            await engine.aclose()
    return not stopped_by_signal

"""Real mounts for the FUSE tests: `webshellfs MOUNT --foreground` as a subprocess on a temp dir.

A test gets a `Mount`, drives it with real shell commands, and at teardown the mount is taken
down with `fusermount3 -u` (falling back to a lazy unmount and kill). Any ERROR line or traceback
the daemon wrote to its log or stderr fails the test, so a bug can never hide behind an EIO.
"""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import fuse_available, require

MOUNT_WAIT = 30.0
EXIT_WAIT = 10.0
BAD_LOG_LINE = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback|Fatal Python error")


def sh(script: str, *, timeout: float = 60, session: bool = False) -> subprocess.CompletedProcess[str]:
    """Run script in bash (in a new Unix session with session=True), capturing text output."""
    command = ["setsid", "--wait", "bash", "-c", script] if session else ["bash", "-c", script]
    return subprocess.run(command, capture_output=True, text=True, timeout=timeout, check=False,
                          env={**os.environ, "LC_ALL": "C"})


class Mount:
    """One webshellfs daemon on one mountpoint. Attributes: path, cache, log, process."""

    def __init__(self, path: Path, cache: Path) -> None:
        self.path = path
        self.cache = cache
        self.log = cache.with_suffix(".log")
        self.stderr = cache.with_suffix(".stderr")
        self.process: subprocess.Popen[bytes] | None = None
        try:
            path.mkdir()
        except FileExistsError:
            pass  # a remount, maybe over a stale mount: stat would fail, mkdir says it is there

    def start(self, *extra: str) -> Mount:
        """Mount with extra command-line options. Without a --browser among them the mount runs
        HTTP only (`--browser http`): these tests are about the filesystem, and a Chromium per
        test would only make them slow; tests/fs/test_live*.py pass `--browser local`."""
        browser = [] if "--browser" in extra else ["--browser", "http"]
        command = [sys.executable, "-m", "webshellfs", str(self.path), "--foreground",
                   "--cache", str(self.cache), "--allow-private", *browser, *extra]
        with open(self.stderr, "ab") as stderr:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + MOUNT_WAIT
        while not os.path.ismount(self.path):
            if self.process.poll() is not None:
                pytest.fail(f"the daemon exited with {self.process.returncode} before mounting:\n"
                            + self.stderr.read_text(errors="replace"))
            if time.monotonic() > deadline:
                pytest.fail(f"{self.path} not mounted after {MOUNT_WAIT} s")
            time.sleep(0.02)
        return self

    def ctl(self, command: str, *, session: bool = False, timeout: float = 60
            ) -> subprocess.CompletedProcess[str]:
        """`echo COMMAND > .ctl; cat .ctl` in one shell: the way an agent runs a command."""
        quoted = command.replace("'", "'\\''")
        return sh(f"echo '{quoted}' > {self.path}/.ctl; status=$?; cat {self.path}/.ctl; "
                  "exit $status", session=session, timeout=timeout)

    def unmount(self) -> None:
        """Unmount with fusermount3 -u and check the daemon exits cleanly."""
        assert self.process is not None
        subprocess.run(["fusermount3", "-u", str(self.path)], check=True, timeout=EXIT_WAIT)
        assert self.process.wait(timeout=EXIT_WAIT) == 0
        assert not os.path.ismount(self.path)

    def kill(self) -> None:
        """SIGKILL the daemon, leaving its mount stale."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=EXIT_WAIT)

    def cleanup(self) -> None:
        """Whatever state the test left: no mount, no daemon."""
        if self.process is not None and self.process.poll() is None:
            subprocess.run(["fusermount3", "-u", str(self.path)], capture_output=True, check=False)
            try:
                self.process.wait(timeout=EXIT_WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        if _still_listed(self.path):
            subprocess.run(["fusermount3", "-u", "-z", str(self.path)], capture_output=True,
                           check=False)

    def bad_log_lines(self) -> list[str]:
        lines: list[str] = []
        for source in (self.log, self.stderr):
            if source.exists():
                lines += [f"{source.name}: {line}" for line in
                          source.read_text(errors="replace").splitlines()
                          if BAD_LOG_LINE.search(line)]
        return lines


def _still_listed(path: Path) -> bool:
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        return any(line.split()[1] == str(path) for line in mounts)


@pytest.fixture
def new_mount(tmp_path: Path) -> Iterator[Callable[[], Mount]]:
    """Make Mounts on tmp_path/mnt sharing one cache (for remounts); at the end every daemon is
    stopped, and the test fails if any of them logged an error."""
    require(fuse_available(), "FUSE")
    made: list[Mount] = []

    def make() -> Mount:
        mount = Mount(tmp_path / "mnt", tmp_path / "cache.sqlite")
        made.append(mount)
        return mount

    yield make
    for mount in made:
        mount.cleanup()
    bad = made[-1].bad_log_lines() if made else []  # one cache, so one log and stderr for all
    if bad:
        pytest.fail("the daemon logged errors:\n" + "\n".join(bad))


@pytest.fixture
def mounted(new_mount: Callable[[], Mount]) -> Mount:
    """A fresh mount with an empty cache, allowed to fetch the fixture site on 127.0.0.1."""
    return new_mount().start()

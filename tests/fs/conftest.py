"""Real mounts for the FUSE tests: `webshellfs MOUNT --foreground` as a subprocess on a temp dir.

A test gets a `Mount`, drives it with real shell commands, and at teardown the mount is taken
down with `fusermount3 -u` (falling back to a lazy unmount and kill). Any ERROR line or traceback
the daemon wrote to its log or stderr fails the test, so a bug can never hide behind an EIO.

`ServedDirectory` is the same interface for directory mode (`webshellfs DIR --no-fuse`: plain
files, commands through `webshell` over the socket DIR/.ctl). Tests of the contract take the
`place` / `new_place` fixtures, which run them once on a mount and once on a served directory.
"""

from __future__ import annotations

import errno
import os
import re
import shlex
import signal
import socket
import stat
import subprocess
import sys
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import chromium_path, fuse_available, require
from webshellfs.sockets import socket_address

MOUNT_WAIT = 30.0
EXIT_WAIT = 10.0
BAD_LOG_LINE = re.compile(r"\b(ERROR|CRITICAL)\b|Traceback|Fatal Python error")
# The console script installed beside the interpreter running the tests (the venv's bin/).
WEBSHELL = str(Path(sys.executable).parent / "webshell")
MODES = ("fuse", "directory")


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
        while not _serving(self.path):
            if self.process.poll() is not None:
                pytest.fail(f"the daemon exited with {self.process.returncode} before mounting:\n"
                            + self.stderr.read_text(errors="replace"))
            if time.monotonic() > deadline:
                pytest.fail(f"{self.path} not mounted after {MOUNT_WAIT} s")
            time.sleep(0.02)
        return self

    mode = "fuse"

    def command_script(self, command: str) -> str:
        """`echo COMMAND > .ctl; cat .ctl` in one shell: the way an agent runs a command."""
        quoted = command.replace("'", "'\\''")
        return (f"echo '{quoted}' > {self.path}/.ctl; status=$?; cat {self.path}/.ctl; "
                "exit $status")

    def ctl(self, command: str, *, session: bool = False, timeout: float = 60
            ) -> subprocess.CompletedProcess[str]:
        """Run command_script in bash: the response on stdout, the write's failure on stderr."""
        return sh(self.command_script(command), session=session, timeout=timeout)

    @staticmethod
    def assert_failed(result: subprocess.CompletedProcess[str], code: int) -> None:
        """The command failed with errno code, as the shell shows a failed write to .ctl."""
        assert result.returncode == 1, result
        assert f"write error: {os.strerror(code)}" in result.stderr, result.stderr

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


class ServedDirectory:
    """One `webshellfs DIR --no-fuse --foreground` daemon, driven like a Mount (same methods),
    with commands through `webshell --at DIR` instead of `.ctl`."""

    mode = "directory"

    def __init__(self, path: Path, cache: Path) -> None:
        self.path = path
        self.cache = cache
        self.log = cache.with_suffix(".log")
        self.stderr = cache.with_suffix(".stderr")
        self.process: subprocess.Popen[bytes] | None = None
        path.mkdir(exist_ok=True)

    def start(self, *extra: str) -> ServedDirectory:
        """Serve with extra options; HTTP only unless a --browser is among them (as Mount)."""
        browser = [] if "--browser" in extra else ["--browser", "http"]
        command = [sys.executable, "-m", "webshellfs", str(self.path), "--no-fuse",
                   "--foreground", "--cache", str(self.cache), "--allow-private", *browser,
                   *extra]
        with open(self.stderr, "ab") as stderr:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=stderr)
        deadline = time.monotonic() + MOUNT_WAIT
        while not self.answers():
            if self.process.poll() is not None:
                pytest.fail(f"the daemon exited with {self.process.returncode} before serving:\n"
                            + self.stderr.read_text(errors="replace"))
            if time.monotonic() > deadline:
                pytest.fail(f"{self.path} not served after {MOUNT_WAIT} s")
            time.sleep(0.02)
        return self

    def answers(self) -> bool:
        """The socket is there and a daemon listens on it (a killed one's refuses)."""
        ctl = self.path / ".ctl"
        if not (os.path.lexists(ctl) and stat.S_ISSOCK(os.lstat(ctl).st_mode)):
            return False
        with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as probe:
            try:
                with socket_address(ctl) as address:
                    probe.connect(address)
            except ConnectionRefusedError:
                return False
        return True

    def command_script(self, command: str) -> str:
        """`webshell --at DIR COMMAND`: the words as the shell would split the line."""
        return shlex.join([WEBSHELL, "--at", str(self.path), *shlex.split(command)])

    def ctl(self, command: str, *, session: bool = False, timeout: float = 60
            ) -> subprocess.CompletedProcess[str]:
        return sh(self.command_script(command), session=session, timeout=timeout)

    @staticmethod
    def assert_failed(result: subprocess.CompletedProcess[str], code: int) -> None:
        """The command failed with errno code, as webshell reports it."""
        assert result.returncode == code, result
        name = errno.errorcode[code]
        assert f"failed: {name} ({os.strerror(code)})" in result.stderr, result.stderr

    def unmount(self) -> None:
        """Stop the daemon (SIGTERM, as `kill` would) and check it exits cleanly, socket gone."""
        assert self.process is not None
        self.process.send_signal(signal.SIGTERM)
        assert self.process.wait(timeout=EXIT_WAIT) == 0
        assert not os.path.lexists(self.path / ".ctl")

    def kill(self) -> None:
        """SIGKILL the daemon, leaving its socket behind."""
        assert self.process is not None
        self.process.send_signal(signal.SIGKILL)
        self.process.wait(timeout=EXIT_WAIT)

    def cleanup(self) -> None:
        if self.process is not None and self.process.poll() is None:
            self.process.send_signal(signal.SIGTERM)
            try:
                self.process.wait(timeout=EXIT_WAIT)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()

    bad_log_lines = Mount.bad_log_lines


Place = Mount | ServedDirectory


def _serving(path: Path) -> bool:
    """A live mount is on path. A killed daemon's stale mount (which the new daemon clears
    first) may still answer stat from cached attributes, so ismount alone would say yes."""
    try:
        os.listdir(path)
    except OSError:
        return False
    return os.path.ismount(path)


def _still_listed(path: Path) -> bool:
    with open("/proc/self/mounts", encoding="utf-8") as mounts:
        return any(line.split()[1] == str(path) for line in mounts)


def _makers(tmp_path: Path, kind: type[Mount] | type[ServedDirectory]
            ) -> Iterator[Callable[[], Any]]:
    """Make places of one kind on tmp_path/mnt sharing one cache (for remounts); at the end
    every daemon is stopped, and the test fails if any of them logged an error."""
    made: list[Mount | ServedDirectory] = []

    def make() -> Mount | ServedDirectory:
        place = kind(tmp_path / "mnt", tmp_path / "cache.sqlite")
        made.append(place)
        return place

    yield make
    for place in made:
        place.cleanup()
    bad = made[-1].bad_log_lines() if made else []  # one cache, so one log and stderr for all
    if bad:
        pytest.fail("the daemon logged errors:\n" + "\n".join(bad))


@pytest.fixture
def new_mount(tmp_path: Path) -> Iterator[Callable[[], Mount]]:
    """Make FUSE Mounts (see _makers)."""
    require(fuse_available(), "FUSE")
    yield from _makers(tmp_path, Mount)


@pytest.fixture
def new_served(tmp_path: Path) -> Iterator[Callable[[], ServedDirectory]]:
    """Make directories served with --no-fuse (see _makers)."""
    yield from _makers(tmp_path, ServedDirectory)


@pytest.fixture(params=MODES)
def new_place(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Callable[[], Place]]:
    """The contract's tests run twice: on a FUSE mount, and on a directory served --no-fuse."""
    if request.param == "fuse":
        require(fuse_available(), "FUSE")
    yield from _makers(tmp_path, Mount if request.param == "fuse" else ServedDirectory)


@pytest.fixture
def place(new_place: Callable[[], Place]) -> Place:
    """A fresh mount or served directory with an empty cache (see `mounted`)."""
    return new_place().start()


@pytest.fixture
def mounted(new_mount: Callable[[], Mount]) -> Mount:
    """A fresh mount with an empty cache, allowed to fetch the fixture site on 127.0.0.1."""
    return new_mount().start()


@contextmanager
def browser_mount(base: Path, *extra: str) -> Iterator[Mount]:
    """A mount in base with the local Chromium, for a module's live tests (one browser for
    them all): taken down at the end, and failing the module if the daemon logged errors."""
    require(fuse_available(), "FUSE")
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    mounted = Mount(base / "mnt", base / "cache.sqlite")
    try:
        yield mounted.start("--browser", "local", "--chromium", chromium, *extra)
    finally:
        mounted.cleanup()
    bad = mounted.bad_log_lines()
    if bad:
        pytest.fail("the daemon logged errors:\n" + "\n".join(bad))

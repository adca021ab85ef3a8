"""Mounting and unmounting: persistence, signals, a killed daemon, detaching, refusals."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.conftest import chromium_path, fuse_available, require
from tests.fs.conftest import EXIT_WAIT, Mount, sh
from tests.site import FixtureSite


def _wait_until(condition: Callable[[], bool], timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, "timed out waiting"
        time.sleep(0.02)


def test_pages_persist_across_remount_and_numbering_continues(
    new_mount: Callable[[], Mount], site: FixtureSite
) -> None:
    first = new_mount().start()
    for path in ("/article.html", "/shop.html"):
        assert first.ctl(f"open {site.url(path)}").returncode == 0
    pages_before = (first.path / "_pages.tsv").read_text()
    map_before = (first.path / "N0002" / "_map.md").read_bytes()
    first.unmount()

    second = new_mount().start()
    assert (second.path / "_pages.tsv").read_text() == pages_before
    assert (second.path / "N0002" / "_map.md").read_bytes() == map_before
    result = second.ctl(f"open {site.url('/index.html')}")
    assert result.stdout.splitlines()[:2] == [f"R0003 ok: open {site.url('/index.html')}",
                                              "N0003  Fixture Site Home"]
    assert sorted(os.listdir(second.path / "_log")) == ["R0001.md", "R0002.md", "R0003.md"]


def test_kill_during_open_leaves_no_half_page_and_remount_clears_the_stale_mount(
    new_mount: Callable[[], Mount], site: FixtureSite
) -> None:
    first = new_mount().start()
    assert first.ctl(f"open {site.url('/article.html')}").returncode == 0
    writer = subprocess.Popen(
        ["bash", "-c", f"echo 'open {site.url('/slow?delay=5')}' > {first.path}/.ctl"],
        stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # the command is waiting for the slow page now
    first.kill()
    assert writer.wait(timeout=EXIT_WAIT) != 0
    assert "Transport endpoint is not connected" in sh(f"ls {first.path}").stderr
    helper = subprocess.run([str(Path(sys.executable).parent / "webshell"), "--mount",
                             str(first.path), "help"], capture_output=True, text=True, timeout=30, check=False)
    assert helper.returncode == 2
    assert helper.stderr.splitlines()[1] == (
        f"webshell: the daemon behind {first.path} died; remount with ./mount.sh {first.path} "
        "(it clears the stale mount)")

    second = new_mount().start()
    assert "clearing a stale mount" in second.stderr.read_text()
    assert sh(f"ls {second.path}").stdout.split() == ["N0001", "README.md", "_log",
                                                      "_pages.tsv", "_search", "_sites"]
    assert len((second.path / "_pages.tsv").read_text().splitlines()) == 2
    result = second.ctl(f"open {site.url('/shop.html')}")
    assert result.stdout.splitlines()[1] == "N0002  Souvenir Shop"


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT, signal.SIGHUP])
def test_a_stop_signal_unmounts_cleanly(mounted: Mount, signum: int) -> None:
    assert mounted.process is not None
    mounted.process.send_signal(signum)
    assert mounted.process.wait(timeout=EXIT_WAIT) == 0
    assert not os.path.ismount(mounted.path)
    assert f"{signal.Signals(signum).name} received: unmounting" in mounted.log.read_text()


def test_unmounting_during_a_command_is_busy_and_a_lazy_unmount_lets_it_finish(
    mounted: Mount, site: FixtureSite
) -> None:
    url = site.url("/slow?delay=3")
    writer = subprocess.Popen(["bash", "-c", f"echo 'open {url}' > {mounted.path}/.ctl"],
                              stderr=subprocess.PIPE, text=True)
    time.sleep(1.0)  # the writer holds .ctl open while its command runs
    busy = subprocess.run(["fusermount3", "-u", str(mounted.path)], capture_output=True,
                          text=True, timeout=EXIT_WAIT, check=False)
    assert busy.returncode != 0
    assert "Device or resource busy" in busy.stderr
    assert os.path.ismount(mounted.path)
    lazy = subprocess.run(["fusermount3", "-u", "-z", str(mounted.path)], capture_output=True,
                          text=True, timeout=EXIT_WAIT, check=False)
    assert lazy.returncode == 0, lazy.stderr
    assert not os.path.ismount(mounted.path)  # gone from the tree at once
    assert writer.wait(timeout=EXIT_WAIT) == 0, writer.stderr  # the command still finished
    assert mounted.process is not None
    assert mounted.process.wait(timeout=EXIT_WAIT) == 0  # then the daemon ended by itself


def test_a_stop_signal_during_a_browser_command_abandons_it_cleanly(
    new_mount: Callable[[], Mount], site: FixtureSite
) -> None:
    require(chromium_path() is not None, "Chromium")
    mount = new_mount().start("--browser", "local")
    assert mount.ctl(f"open {site.url('/article.html')}").returncode == 0  # the browser is up
    writer = subprocess.Popen(
        ["bash", "-c", f"echo 'open {site.url('/slow?delay=5')}' > {mount.path}/.ctl"],
        stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # the tab is loading the slow page through the gate
    assert mount.process is not None
    mount.process.send_signal(signal.SIGTERM)
    assert mount.process.wait(timeout=EXIT_WAIT) == 0
    assert writer.wait(timeout=EXIT_WAIT) != 0
    assert "Software caused connection abort" in writer.stderr.read()
    assert not os.path.ismount(mount.path)
    # new_mount fails the test on any ERROR line or traceback in the daemon's log.


def test_a_second_daemon_on_the_same_cache_is_refused(mounted: Mount, tmp_path: Path) -> None:
    other = tmp_path / "other"
    other.mkdir()
    result = subprocess.run(
        [sys.executable, "-m", "webshellfs", str(other), "--cache", str(mounted.cache)],
        capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 1
    assert mounted.process is not None
    assert result.stderr.startswith(f"webshellfs: the cache {mounted.cache} is in use by another "
                                    f"webshellfs (pid {mounted.process.pid})")
    assert not os.path.ismount(other)


def test_mounting_over_a_live_mount_is_refused(mounted: Mount, tmp_path: Path) -> None:
    result = subprocess.run(
        [sys.executable, "-m", "webshellfs", str(mounted.path), "--cache",
         str(tmp_path / "second.sqlite")], capture_output=True, text=True, timeout=30, check=False)
    assert result.returncode == 1
    assert result.stderr == (f"webshellfs: {mounted.path} is already mounted; unmount it first: "
                             f"fusermount3 -u {mounted.path}\n")


def test_detached_daemon_mounts_before_the_command_returns(tmp_path: Path, site: FixtureSite
                                                           ) -> None:
    require(fuse_available(), "FUSE")
    mountpoint, cache = tmp_path / "mnt", tmp_path / "cache.sqlite"
    mountpoint.mkdir()
    try:
        result = subprocess.run(
            [sys.executable, "-m", "webshellfs", str(mountpoint), "--cache", str(cache),
             "--allow-private"], capture_output=True, text=True, timeout=30, check=False)
        assert result.returncode == 0, result.stderr
        assert os.path.ismount(mountpoint)
        assert Mount(mountpoint, cache).ctl(f"open {site.url('/index.html')}").returncode == 0
    finally:
        subprocess.run(["fusermount3", "-u", str(mountpoint)], check=False)
    log = cache.with_suffix(".log")
    _wait_until(lambda: "unmounted" in log.read_text())
    assert not [line for line in log.read_text().splitlines() if " ERROR " in line]

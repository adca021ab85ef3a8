"""`explore` through real mounts, with shell commands only: the shop walked with Chromium and
its map read with ls, cat and grep; an exploration killed with kill -9 and resumed by the next
daemon on the same cache; the map in a directory served --no-fuse."""

from __future__ import annotations

import re
import sqlite3
import subprocess
import time
from collections.abc import Callable, Iterator
from contextlib import closing
from pathlib import Path

import pytest

from tests.explore.shop_site import ShopSite
from tests.fs.conftest import EXIT_WAIT, Mount, ServedDirectory, browser_mount, sh

CTL_TIMEOUT = 180  # a shared, slow machine: an exploration may wait on Chromium for a while
INTERRUPTED = "the daemon stopped before this command finished (it was killed or crashed)"


def site_of(shop: ShopSite) -> str:
    return "127.0.0.1-" + shop.base.rpartition(":")[2]


@pytest.fixture
def live_mount(tmp_path: Path) -> Iterator[Mount]:
    with browser_mount(tmp_path) as mounted:
        yield mounted


def test_the_map_is_read_with_ls_cat_and_grep(live_mount: Mount, shop: ShopSite) -> None:
    result = live_mount.ctl(f"explore {shop.url('/index.html')} --depth 2", timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    site = site_of(shop)
    assert f"next: cat _sites/{site}/map.md" in result.stdout
    root = live_mount.path
    assert sh(f"ls {root}/_sites").stdout == f"{site}\n"
    assert sh(f"ls {root}/_sites/{site}").stdout.split() == [
        "behaviors.tsv", "map.md", "menus.tsv", "pages.tsv", "paths.tsv", "templates.tsv"]
    site_map = sh(f"cat {root}/_sites/{site}/map.md").stdout
    assert site_map.startswith(f"# Site map: 127.0.0.1:{shop.base.rpartition(':')[2]}\n")
    assert "- N0001 A0001 button \"More\" [nav]: opens menu: Careers, Press" in site_map
    found = sh(f"grep -h 'opens dialog' {root}/_sites/{site}/behaviors.tsv").stdout
    assert found.split("\t")[1:] == ["T04", 'A0004 button "Size guide"',
                                     'opens dialog "Size guide"\n']
    # The pages it stored are pages like any: greppable at once.
    grips = sh(f"grep -rl 'The Trail shoe is light' {root}/N*/content/").stdout.split()
    assert grips and all(path.endswith("/content/01-trail-shoe.md") for path in grips)
    assert shop.trapped() == []


def test_kill_9_mid_exploration_then_resume(new_mount: Callable[[], Mount]) -> None:
    slow = ShopSite(delay=0.4)
    try:
        first = new_mount().start()
        walk = sh_background(first, f"explore {slow.url('/index.html')}")
        pages = first.path / "_pages.tsv"
        wait_for(lambda: len(pages.read_text().splitlines()) > 4, "three pages stored")
        first.kill()
        assert walk.wait(timeout=EXIT_WAIT) != 0
        assert "Transport endpoint is not connected" in sh(f"ls {first.path}").stderr
        # What it knew is its first snapshot and the steps after it, each written whole.
        with closing(sqlite3.connect(first.cache)) as db:
            steps = db.execute("SELECT count(*) FROM site_steps").fetchone()[0]
        assert steps >= 3

        second = new_mount().start()
        # The stale mount may still answer for the mountpoint until the new daemon's is on it.
        wait_for(lambda: sh(f"ls {second.path}/_sites").returncode == 0, "the new mount")
        site = site_of(slow)
        map_before = (second.path / "_sites" / site / "map.md").read_text()
        assert "not finished (`explore --resume` continues)" in map_before
        result = second.ctl("explore --resume", timeout=CTL_TIMEOUT)
        assert result.returncode == 0, result.stdout + result.stderr
        assert re.match(rf"R0002 ok: explore --resume\nresumed 127\.0\.0\.1:\d+ from ",
                        result.stdout)
        assert "finished: every address within the bounds was visited" in result.stdout
        # The same file read again on the same mount: the kernel holds no stale copy of it.
        map_after = sh(f"cat {second.path}/_sites/{site}/map.md").stdout
        assert map_after != map_before and "; finished\n" in map_after
        rows = [line.split("\t") for line in
                (second.path / "_sites" / site / "pages.tsv").read_text().splitlines()[1:]]
        stored = [row[0] for row in rows if row[5] == "stored"]
        assert len(stored) == 19 and len(set(stored)) == 19
        assert INTERRUPTED in (second.path / "_log" / "R0001.md").read_text()
        # At most the page being loaded at the kill was fetched twice.
        fetched = [path for method, path in slow.requests if path.endswith(".html")]
        assert len(fetched) - len(set(fetched)) <= 1
        assert slow.trapped() == []
    finally:
        slow.close()


def test_a_served_directory_holds_the_map_as_files(
    new_served: Callable[[], ServedDirectory], shop: ShopSite
) -> None:
    served = new_served().start()
    result = served.ctl(f"explore {shop.url('/index.html')} --pages 4", timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    site_map = served.path / "_sites" / site_of(shop) / "map.md"
    assert "bounds: pages: 4 stored (--pages 4)" in site_map.read_text()
    assert sorted(p.name for p in served.path.iterdir() if p.name.startswith("_")) == [
        "_log", "_pages.tsv", "_search", "_sites"]


def sh_background(mount: Mount, command: str) -> subprocess.Popen[str]:
    """The command run on the mount in the background, as a shell would."""
    return subprocess.Popen(["bash", "-c", mount.command_script(command)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)

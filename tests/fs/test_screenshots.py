"""screenshot.png: each capture of a live tab keeps the viewport in its page directory, through a
real mount and a directory served --no-fuse with the real Chromium; `--no-screenshots` keeps
none. The picture is no part of a state's identity: a capture that shows the same content is
the same state whatever its pixels."""

from __future__ import annotations

import os
import re
import stat
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.browser.live_site import LiveSite
from tests.conftest import chromium_path, require
from tests.fs.conftest import Mount, ServedDirectory, browser_mount, sh
from webshellfs.browser.screenshots import MAX_SCREENSHOT_BYTES

CTL_TIMEOUT = 180
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
VIEWPORT = (1280, 720)  # Playwright's default page size


@pytest.fixture(scope="module")
def mount(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mount]:
    with browser_mount(tmp_path_factory.mktemp("screenshots")) as mounted:
        yield mounted


def ctl(place: Mount | ServedDirectory, command: str) -> list[str]:
    result = place.ctl(command, timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()[1:]


def opened(place: Mount | ServedDirectory, url: str) -> str:
    return ctl(place, f"open {url}")[0].split()[0]


def png_size(data: bytes) -> tuple[int, int]:
    assert data.startswith(PNG_SIGNATURE), data[:16]
    return int.from_bytes(data[16:20], "big"), int.from_bytes(data[20:24], "big")


def map_line(page_dir: Path) -> str:
    lines = [line for line in (page_dir / "_map.md").read_text().splitlines()
             if line.startswith("screenshot.png")]
    assert len(lines) == 1, lines
    return lines[0]


def test_open_and_execute_each_keep_the_viewport(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live.url("/product.html"))
    shot = (mount.path / page / "screenshot.png").read_bytes()
    assert png_size(shot) == VIEWPORT
    assert len(shot) <= MAX_SCREENSHOT_BYTES
    kb = max(1, round(len(shot) / 1024))
    assert map_line(mount.path / page) == (
        f"screenshot.png 1280×720 PNG, {kb} KB: the viewport when captured")
    refused = sh(f"echo x > {mount.path}/{page}/screenshot.png")
    assert refused.returncode != 0

    lines = ctl(mount, f"execute {page} A0001 size=m")
    state = re.match(r"→ (N\d{4}) new state", lines[1])
    assert state, lines
    after = (mount.path / state.group(1) / "screenshot.png").read_bytes()
    assert png_size(after) == VIEWPORT and after != shot  # the price on it changed
    # A screenshot is not content: the diff of the state never names it.
    assert "screenshot.png" not in (mount.path / state.group(1) / "_state.md").read_text()


def test_a_new_picture_of_the_same_content_is_the_same_state(mount: Mount, live: LiveSite) -> None:
    """focus captures again (a new screenshot): the state is unchanged all the same, and an
    action that makes an earlier state again reaches that state's address."""
    page = opened(mount, live.url("/product.html"))
    assert ctl(mount, f"focus {page}")[1] == (
        f"→ {page} is the current state (unchanged since it was captured)")
    medium = re.match(r"→ (N\d{4})", ctl(mount, f"execute {page} A0001 size=m")[1])
    assert medium, "no state for size=m"
    back = ctl(mount, f"execute {medium.group(1)} A0001 size=s")
    assert back[1] == f"→ {page}: the same as an earlier state, reused (nothing new stored)"


def test_a_viewport_that_compresses_badly_is_scaled_under_the_bound(
    mount: Mount, live: LiveSite
) -> None:
    page = opened(mount, live.url("/noise.html"))
    shot = (mount.path / page / "screenshot.png").read_bytes()
    width, height = png_size(shot)
    assert len(shot) <= MAX_SCREENSHOT_BYTES
    assert width < VIEWPORT[0] and abs(width / height - VIEWPORT[0] / VIEWPORT[1]) < 0.02
    assert map_line(mount.path / page).startswith(f"screenshot.png {width}×{height} PNG")


def test_pages_fetched_without_a_live_tab_have_none(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live.url("/data.json"))  # JSON: no tab stays open
    assert not (mount.path / page / "screenshot.png").exists()
    assert "screenshot.png" not in (mount.path / page / "_map.md").read_text()


@pytest.fixture
def served_with_browser(new_served: Callable[[], ServedDirectory]
                        ) -> Callable[..., ServedDirectory]:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None

    def start(*extra: str) -> ServedDirectory:
        return new_served().start("--browser", "local", "--chromium", chromium, *extra)

    return start


def test_a_served_directory_keeps_it_read_only_and_no_screenshots_keeps_none(
    served_with_browser: Callable[..., ServedDirectory], live: LiveSite
) -> None:
    served = served_with_browser()
    page = opened(served, live.url("/product.html"))
    shot = served.path / page / "screenshot.png"
    assert stat.S_IMODE(os.stat(shot).st_mode) == 0o444
    assert png_size(shot.read_bytes()) == VIEWPORT
    assert map_line(served.path / page).startswith("screenshot.png 1280×720 PNG")
    served.unmount()

    without = served_with_browser("--no-screenshots")
    page = opened(without, live.url("/product.html"))
    assert not (without.path / page / "screenshot.png").exists()
    assert "screenshot.png" not in (without.path / page / "_map.md").read_text()
    without.unmount()

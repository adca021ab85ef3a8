"""A drawn page through a real mount with the real Chromium: an agent with only grep and
`.ctl` finds "the red circle" among other shapes in content/ and clicks it."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.browser.live_site import LiveSite
from tests.fs.conftest import Mount, browser_mount, sh

# The machine is shared and slow: a command may wait on Chromium for a while.
CTL_TIMEOUT = 180


@pytest.fixture(scope="module")
def mount(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mount]:
    with browser_mount(tmp_path_factory.mktemp("drawn")) as mounted:
        yield mounted


def ctl(mount: Mount, command: str) -> list[str]:
    result = mount.ctl(command, timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def test_grep_the_red_circle_and_click_it(mount: Mount, live: LiveSite) -> None:
    page = ctl(mount, f"open {live.url('/shapes.html')}")[1].split()[0]
    found = sh(f"grep -rh 'circle red' {mount.path}/{page}/content/")
    assert found.stdout == "[A0002 circle red r=12 at 100,80]\n"
    assert sh(f"grep -c 'canvas 200×100' {mount.path}/{page}/content/*.md").stdout == "1\n"
    assert (mount.path / page / "screenshot.png").is_file()
    lines = ctl(mount, f"execute {page} A0002")
    state = next(line.split()[1] for line in lines if line.startswith("→ "))
    assert sh(f"grep -rh '^Picked' {mount.path}/{state}/content/").stdout == "Picked: red.\n"

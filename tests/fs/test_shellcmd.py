"""The `webshell` helper, on a mount (it writes .ctl) and on a served directory (it talks to the
socket): prints the response, exits with the errno, and finds the place by itself."""

from __future__ import annotations

import errno
import os
import pty
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.fs.conftest import WEBSHELL, Place
from tests.search.site import SearchSite, start_site
from tests.site import FixtureSite


def webshell(*args: str, env: dict[str, str] | None = None, cwd: Path | None = None
             ) -> subprocess.CompletedProcess[str]:
    environment = {k: v for k, v in os.environ.items() if not k.startswith("WEBSHELL_")}
    return subprocess.run([WEBSHELL, *args], capture_output=True, text=True, timeout=60,
                          env={**environment, **(env or {})}, cwd=cwd, check=False)


def test_open_prints_the_response_and_succeeds(place: Place, site: FixtureSite) -> None:
    url = site.url("/article.html")
    result = webshell("--at", str(place.path), "open", url)
    assert result.returncode == 0, result.stderr
    assert result.stdout.splitlines()[:2] == [f"R0001 ok: open {url}",
                                              "N0001  The Lighthouse Keepers"]
    assert result.stderr == ""


def test_a_bad_command_exits_with_einval(place: Place) -> None:
    result = webshell("--at", str(place.path), "frobnicate", "x")
    assert result.returncode == errno.EINVAL
    assert result.stdout.splitlines()[0] == "R0001 invalid: frobnicate x"
    assert result.stderr == "webshell: frobnicate failed: EINVAL (Invalid argument)\n"


def test_a_failed_command_exits_with_eio(place: Place, site: FixtureSite) -> None:
    result = webshell("--at", str(place.path), "open", site.url("/missing"))
    assert result.returncode == errno.EIO
    assert result.stdout.splitlines()[1] == f"HTTP 404 Not Found for {site.url('/missing')}"


def test_words_with_spaces_stay_one_word(place: Place) -> None:
    result = webshell("--at", str(place.path), "lookup", "N0001", "T01", "row=big red")
    assert result.stdout.splitlines()[0] == "R0001 invalid: lookup N0001 T01 'row=big red'"


def test_the_place_comes_from_the_environment(place: Place) -> None:
    for number, variable in enumerate(("WEBSHELL_DIR", "WEBSHELL_MOUNT"), 1):
        result = webshell("help", env={variable: str(place.path)})
        assert result.returncode == 0
        assert result.stdout.splitlines()[0] == f"R000{number} ok: help"


def test_the_place_is_found_from_the_current_directory(place: Place, site: FixtureSite) -> None:
    assert webshell("--at", str(place.path), "open", site.url("/article.html")).returncode == 0
    for here in (place.path, place.path / "N0001" / "content"):
        result = webshell("help", cwd=here)
        assert result.returncode == 0, result.stderr
        assert result.stdout.splitlines()[1] == "commands (write one line to .ctl, then cat .ctl):"


def test_mount_is_another_name_for_at(place: Place) -> None:
    assert webshell("--mount", str(place.path), "help").returncode == 0


def test_no_place_says_how_to_start_one(tmp_path: Path) -> None:
    result = webshell("--at", str(tmp_path), "help")
    assert result.returncode == 2
    assert result.stderr.splitlines() == [
        f"webshell: cannot use {tmp_path}/.ctl: No such file or directory",
        (f"webshell: is webshellfs serving {tmp_path}? Start it with ./mount.sh {tmp_path}, "
         "or point --at / WEBSHELL_DIR at it"),
    ]


@pytest.fixture(scope="module")
def search_site() -> Iterator[SearchSite]:
    running = start_site()
    yield running
    running.stop()


def on_a_terminal(*args: str) -> tuple[int, str, list[tuple[float, str]], float]:
    """Run webshell with stderr on a terminal (a pty), stdout on a pipe. Returns its status,
    stdout, each stderr line with the second it came, and the second it exited."""
    leader, follower = pty.openpty()
    started = time.monotonic()
    process = subprocess.Popen([WEBSHELL, *args], stdout=subprocess.PIPE, stderr=follower,
                               stdin=subprocess.DEVNULL, text=True)
    os.close(follower)
    lines: list[tuple[float, str]] = []
    pending = b""
    while True:
        try:
            chunk = os.read(leader, 4096)
        except OSError:  # EIO: the terminal's other end closed (webshell exited)
            break
        if not chunk:
            break
        pending += chunk
        *whole, pending = pending.split(b"\n")
        lines += [(time.monotonic() - started, line.decode().rstrip("\r")) for line in whole]
    os.close(leader)
    stdout = process.stdout.read() if process.stdout else ""
    status = process.wait(timeout=60)
    return status, stdout, lines, time.monotonic() - started


def test_a_terminal_sees_progress_while_results_arrive(
    new_place: Callable[[], Place], search_site: SearchSite
) -> None:
    place = new_place().start("--search", f"searxng={search_site.url}", "--fetch-timeout", "2")
    pages = search_site.url + "pages/"
    assert webshell("--at", str(place.path), "open", f"{pages}normal.html").returncode == 0

    status, stdout, progress, ended = on_a_terminal("--at", str(place.path), "retrieve", "-k",
                                                    "5", "gardens")

    assert status == 0
    shown = [line for _, line in progress]
    assert shown[:2] == ["webshell: … searching searxng for 'gardens'",
                         "webshell: … 5 results: 1 stored already, fetching 4"]
    # Then one line per result as it is stored or fails, counted in the order they came.
    steps = sorted(shown[2:], key=lambda line: line.split()[2])
    assert [line.split()[2] for line in steps] == ["1/4", "2/4", "3/4", "4/4"]
    assert {line.split(maxsplit=3)[3] for line in steps} == {
        f"failed {pages}missing.html: HTTP 404",
        f"failed {pages}slow.html: timeout: no answer within 2 s",
        f"N0002 {pages}paper.pdf",
        f"failed {pages}wall.html: CAPTCHA/bot wall (HTTP 403, cf-challenge)",
    }
    # The 404 was shown while the slow page was still being waited for (2 s).
    first_failure = next(at for at, line in progress if "missing.html" in line)
    assert ended - first_failure > 1.0
    # The response and the status are what a pipe gets, and a pipe gets no progress.
    assert stdout.splitlines()[:2] == [
        "R0002 ok: retrieve -k 5 gardens",
        'retrieve "gardens": 5 results, 2 pages, 3 failed (searxng) → _search/Q0001.md',
    ]
    again = webshell("--at", str(place.path), "retrieve", "-k", "5", "gardens")
    assert again.returncode == 0 and again.stderr == ""
    if place.mode == "fuse":
        # On a mount the lines are the session's `.progress`, answered though not listed.
        kept = (place.path / ".progress").read_text().splitlines()
        assert kept[:3] == ["R0003 progress: retrieve -k 5 gardens",
                            "searching searxng for 'gardens'",
                            "5 results: 2 stored already, fetching 3"]
        assert ".progress" not in os.listdir(place.path)

"""Directory mode (`webshellfs DIR --no-fuse`) where it differs from a mount: the files are real
files, written whole; a start rebuilds DIR from the store; the socket, its owner and its end.
What it shares with a mount is tested in both modes by test_tree, test_ctl, test_retrieve and
test_shellcmd (the `place` fixture)."""

from __future__ import annotations

import errno
import os
import stat
import subprocess
import sys
import time
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.live_site import LiveSite
from tests.conftest import chromium_path, require
from tests.fs.conftest import EXIT_WAIT, WEBSHELL, ServedDirectory, sh
from tests.search.site import SLOW_SECONDS, start_site
from tests.site import FixtureSite
from webshellfs.sockets import request_over

Serve = Callable[[], ServedDirectory]
WEBSHELLFS = str(Path(sys.executable).parent / "webshellfs")


def webshell(place: Path, *words: str, env: dict[str, str] | None = None
             ) -> subprocess.CompletedProcess[str]:
    return subprocess.run([WEBSHELL, "--at", str(place), *words], capture_output=True,
                          text=True, timeout=180, env={**os.environ, **(env or {})}, check=False)


def modes_under(top: Path) -> set[tuple[bool, int]]:
    """(is a directory, mode) of every entry under top, top included."""
    found = {(True, stat.S_IMODE(os.stat(top).st_mode))}
    for parent, dirs, files in os.walk(top):
        found |= {(True, stat.S_IMODE(os.stat(os.path.join(parent, d)).st_mode)) for d in dirs}
        found |= {(False, stat.S_IMODE(os.stat(os.path.join(parent, f)).st_mode)) for f in files}
    return found


@pytest.fixture
def served(new_served: Serve, site: FixtureSite) -> ServedDirectory:
    """A served directory holding two pages."""
    place = new_served().start()
    for path in ("/article.html", "/shop.html"):
        assert place.ctl(f"open {site.url(path)}").returncode == 0
    return place


def test_pages_and_records_are_read_only_files_and_the_socket_is_private(
    served: ServedDirectory,
) -> None:
    root = served.path
    for page in ("N0001", "N0002"):
        assert modes_under(root / page) == {(True, 0o555), (False, 0o444)}
    for records in ("_log", "_search"):
        assert stat.S_IMODE(os.stat(root / records).st_mode) == 0o555
    assert {stat.S_IMODE(os.stat(p).st_mode) for p in (root / "_log").iterdir()} == {0o444}
    for name in ("_pages.tsv", "README.md"):
        assert stat.S_IMODE(os.stat(root / name).st_mode) == 0o444
    ctl = os.lstat(root / ".ctl")
    assert stat.S_ISSOCK(ctl.st_mode) and stat.S_IMODE(ctl.st_mode) == 0o600
    # Nothing half-written is left in sight: no staging names.
    assert sorted(p.name for p in root.iterdir()) == [
        ".ctl", "@", "N0001", "N0002", "README.md", "_log", "_pages.tsv", "_search", "_sites"]
    assert os.readlink(root / "@") == "N0002"  # the last command's page


def test_files_carry_the_time_of_their_page(served: ServedDirectory) -> None:
    stamps = {os.stat(served.path / "N0001" / name).st_mtime_ns
              for name in ("_map.md", "links.tsv", "content")}
    assert len(stamps) == 1


def test_the_readme_says_to_use_webshell(served: ServedDirectory) -> None:
    readme = (served.path / "README.md").read_text()
    assert "act with `webshell COMMAND`" in readme
    assert "    webshell open https://example.org/shop" in readme
    assert "echo 'open" not in readme


def test_a_restart_rebuilds_the_directory_from_the_store(
    new_served: Serve, served: ServedDirectory, site: FixtureSite
) -> None:
    root = served.path
    expected_map = (root / "N0002" / "_map.md").read_bytes()
    expected_pages = (root / "_pages.tsv").read_bytes()
    served.unmount()
    # Damage of every kind (possible for root, or for the owner after a chmod).
    for directory in (root / "N0002", root / "_log"):
        os.chmod(directory, 0o755)
    os.chmod(root / "N0002" / "_map.md", 0o644)
    (root / "N0002" / "_map.md").write_text("changed\n")
    (root / "N0002" / "extra.md").write_text("not from the store\n")
    (root / "_log" / "R0001.md").unlink()
    os.chmod(root / "_log" / "R0002.md", 0o644)
    os.chmod(root / "_pages.tsv", 0o644)
    os.rename(root / "N0001", root / "N0009")  # a page the store does not have…
    (root / ".webshellfs-N0003").mkdir()  # …and what a killed daemon's write leaves
    (root / "notes.txt").write_text("mine\n")

    again = new_served().start()
    assert (root / "N0002" / "_map.md").read_bytes() == expected_map
    assert not (root / "N0002" / "extra.md").exists()
    assert modes_under(root / "N0002") == {(True, 0o555), (False, 0o444)}
    assert (root / "N0001" / "_map.md").read_text().startswith("# The Lighthouse Keepers\n")
    assert not (root / "N0009").exists() and not (root / ".webshellfs-N0003").exists()
    assert sorted(os.listdir(root / "_log")) == ["R0001.md", "R0002.md"]
    assert (root / "_pages.tsv").read_bytes() == expected_pages
    for path in (root / "_log" / "R0001.md", root / "_log" / "R0002.md", root / "_pages.tsv"):
        assert stat.S_IMODE(os.stat(path).st_mode) == 0o444
    assert (root / "notes.txt").read_text() == "mine\n"  # not ours: left alone
    assert again.ctl(f"open {site.url('/index.html')}").stdout.splitlines()[1] == (
        "N0003  Fixture Site Home")


def test_a_killed_daemon_leaves_no_half_page_and_the_next_one_takes_over(
    new_served: Serve, site: FixtureSite
) -> None:
    first = new_served().start()
    root = first.path
    assert first.ctl(f"open {site.url('/article.html')}").returncode == 0
    caller = subprocess.Popen([WEBSHELL, "--at", str(root), "open", site.url("/slow?delay=5")],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    time.sleep(1.5)  # the command is waiting for the slow page now
    first.kill()
    _out, err = caller.communicate(timeout=EXIT_WAIT)
    assert caller.returncode == 2
    assert "stopped before it answered" in err
    assert sorted(os.listdir(root)) == [".ctl", "@", "N0001", "README.md", "_log",
                                        "_pages.tsv", "_search", "_sites"]
    gone = webshell(root, "help")
    assert gone.returncode == 2
    assert gone.stderr.splitlines()[-1].startswith(f"webshell: no daemon serves {root} now")

    second = new_served().start()
    log = sorted(os.listdir(root / "_log"))
    assert log == ["R0001.md", "R0002.md"]
    assert "the daemon stopped before this command finished" in (root / "_log" / "R0002.md"
                                                                  ).read_text()
    assert second.ctl("help").stdout.startswith("R0003 ok: help")


def test_a_directory_that_is_not_ours_is_refused(new_served: Serve, tmp_path: Path) -> None:
    place = new_served()
    (place.path / "thesis.tex").write_text("mine\n")
    result = subprocess.run(
        [WEBSHELLFS, str(place.path), "--no-fuse",
         "--cache", str(tmp_path / "other.sqlite"), "--browser", "http"],
        capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 1
    assert result.stderr == (f"webshellfs: {place.path} is not empty (it holds 'thesis.tex') "
                             "and holds no earlier webshellfs tree: serve an empty directory\n")


def test_one_daemon_per_directory(served: ServedDirectory, tmp_path: Path) -> None:
    result = subprocess.run(
        [WEBSHELLFS, str(served.path), "--no-fuse",
         "--cache", str(tmp_path / "other.sqlite"), "--browser", "http"],
        capture_output=True, text=True, timeout=60, check=False)
    assert result.returncode == 1
    assert result.stderr == (f"webshellfs: another webshellfs serves {served.path} already; "
                             f"stop it first: webshell --at {served.path} --stop\n")


def test_stop_returns_once_the_daemon_is_gone(served: ServedDirectory) -> None:
    result = webshell(served.path, "--stop")
    assert (result.returncode, result.stdout) == (0, "stopped\n")
    assert served.process is not None and served.process.poll() == 0
    assert not os.path.lexists(served.path / ".ctl")
    assert (served.path / "N0001" / "_map.md").exists()  # the files stay


def test_the_session_is_found_as_on_a_mount(served: ServedDirectory) -> None:
    assert webshell(served.path, "help", env={"WEBSHELL_SESSION": "agent-7"}).returncode == 0
    shell = sh(f"{WEBSHELL} --at {served.path} help >/dev/null; ps -o sid= -p $$", session=True)
    log = sorted((served.path / "_log").iterdir())
    assert "session: env:agent-7" in log[-2].read_text().splitlines()
    assert f"session: {shell.stdout.strip()}" in log[-1].read_text().splitlines()


def test_the_pages_of_a_running_retrieve_appear_as_they_are_stored(new_served: Serve) -> None:
    # One result waits for its fetch timeout; the others are stored, and shown, before that.
    fetch_timeout = SLOW_SECONDS - 1
    search = start_site()
    try:
        place = new_served().start("--search", f"searxng={search.url}",
                                   "--fetch-timeout", str(fetch_timeout))
        started = time.monotonic()
        caller = subprocess.Popen([WEBSHELL, "--at", str(place.path), "retrieve", "gardens"],
                                  stdout=subprocess.PIPE, text=True)
        while not (place.path / "N0002" / "_map.md").exists():
            assert caller.poll() is None, "the retrieve ended before its pages showed"
            time.sleep(0.05)
        shown_after = time.monotonic() - started
        assert caller.poll() is None and shown_after < fetch_timeout
        assert caller.communicate(timeout=60)[0].splitlines()[1].startswith(
            'retrieve "gardens": 5 results, 2 pages, 3 failed')
    finally:
        search.stop()


def test_a_long_path_still_takes_commands(new_served: Serve, tmp_path: Path) -> None:
    # A Unix socket address holds about 107 bytes; DIR/.ctl may be longer than that.
    deep = tmp_path / ("d" * 60) / ("e" * 60)
    deep.mkdir(parents=True)
    place = ServedDirectory(deep, tmp_path / "cache.sqlite")
    try:
        place.start()
        assert place.ctl("help").returncode == 0
    finally:
        place.cleanup()


def test_a_wrong_request_is_refused(served: ServedDirectory) -> None:
    assert request_over(served.path / ".ctl", b"hello")[0] == errno.EINVAL


def test_a_live_page_is_acted_on_through_webshell(new_served: Serve, live: LiveSite) -> None:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    place = new_served().start("--browser", "local", "--chromium", str(chromium))
    opened = webshell(place.path, "open", live.url("/product.html"))
    assert opened.returncode == 0, opened.stdout + opened.stderr
    acted = webshell(place.path, "execute", "N0001", "A0001", "size=m")
    assert acted.returncode == 0, acted.stdout + acted.stderr
    assert acted.stdout.splitlines()[2] == (
        "→ N0002 new state of N0001: 2 changed, 0 added, 0 removed (see N0002/_state.md)")
    assert sh(f"grep -h '^Price' {place.path}/N0002/content/*.md").stdout == "Price: 45 EUR\n"
    state = (place.path / "_pages.tsv").read_text().splitlines()[2].split("\t")
    assert (state[0], state[3]) == ("N0002", "active")

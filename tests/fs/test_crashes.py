"""Crashes through a real mount: the daemon killed (SIGKILL) during a retrieve and during an
execute, the browser killed mid-command, the cache's disk full. After each, every page stored
before is intact and readable, `_pages.tsv` and the tree agree, numbering continues, and the
response or `_log/` says what happened to the command that was cut short."""

from __future__ import annotations

import os
import signal
import subprocess
import time
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest

from tests.conftest import chromium_path, require
from tests.fs.conftest import EXIT_WAIT, Mount, sh
from tests.search.site import SearchSite, start_site
from tests.security.generated_site import GeneratedSite
from tests.tmpfs import resize, tiny_tmpfs

CTL_TIMEOUT = 180  # a shared, slow machine: a command may wait on Chromium for a while
INTERRUPTED = (
    "the daemon stopped before this command finished (it was killed or crashed), so it was "
    "never answered; pages it stored before that are listed in _pages.tsv, whole. Run it again "
    "if it is still needed."
)


@pytest.fixture(scope="module")
def search_site() -> Iterator[SearchSite]:
    running = start_site()
    yield running
    running.stop()


@pytest.fixture
def generated() -> Iterator[GeneratedSite]:
    site = GeneratedSite()
    yield site
    site.close()


@pytest.fixture
def chromium() -> str:
    found = chromium_path()
    require(found is not None, "Chromium")
    assert found is not None
    return found


def page_tree(mount: Mount) -> dict[str, bytes]:
    """Every file of every stored page, by path, read through the mount; and `_pages.tsv`
    without its status column (which a new daemon resets: it has no tabs)."""
    files: dict[str, bytes] = {}
    for page in sorted(p for p in os.listdir(mount.path) if p.startswith("N")):
        for directory, _, names in os.walk(mount.path / page):
            for name in names:
                path = Path(directory) / name
                files[str(path.relative_to(mount.path))] = path.read_bytes()
    rows = [line.split("\t") for line in (mount.path / "_pages.tsv").read_text().splitlines()]
    files["_pages.tsv"] = "\n".join("\t".join(row[:3] + row[4:]) for row in rows).encode()
    return files


def assert_consistent(mount: Mount) -> list[str]:
    """`_pages.tsv` and the page directories agree, and every file of every page reads whole
    (`find … -exec cat`, the way a shell would). Returns the page addresses."""
    listed = [line.split("\t")[0] for line in
              (mount.path / "_pages.tsv").read_text().splitlines()[1:]]
    directories = sorted(name for name in os.listdir(mount.path) if name.startswith("N"))
    assert directories == listed
    read_all = sh(f"cd {mount.path} && find N* -type f -exec cat {{}} + | wc -c")
    assert read_all.returncode == 0, read_all.stderr
    assert not read_all.stderr
    return listed


def statuses(mount: Mount) -> list[str]:
    return sh(f"cut -f4 {mount.path}/_pages.tsv").stdout.split()[1:]


def wait_for(condition: Callable[[], bool], what: str, timeout: float = 60.0) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline, f"timed out waiting for {what}"
        time.sleep(0.05)


def start_command(mount: Mount, command: str) -> subprocess.Popen[str]:
    """A shell running one command on the mount in the background: write, then read .ctl."""
    return subprocess.Popen(
        ["bash", "-c", (f"echo '{command}' > {mount.path}/.ctl; status=$?; "
                       f"cat {mount.path}/.ctl; exit $status")],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def descendants(pid: int) -> list[int]:
    """The processes below pid (Playwright's driver, Chromium and its helpers)."""
    children: dict[int, list[int]] = {}
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                parent = int((entry / "stat").read_text().rsplit(")", 1)[1].split()[1])
            except (OSError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry.name))
    found: list[int] = []
    pending = [pid]
    while pending:
        for child in children.get(pending.pop(), ()):
            found.append(child)
            pending.append(child)
    return found


def chromium_processes(mount: Mount) -> list[int]:
    """The mount's Chromium processes (not the Playwright driver that talks to them)."""
    assert mount.process is not None
    found = []
    for pid in descendants(mount.process.pid):
        try:
            if "chrom" in Path(f"/proc/{pid}/comm").read_text():
                found.append(pid)
        except OSError:
            continue
    return found


def alive(pids: list[int]) -> list[int]:
    left = []
    for pid in pids:
        try:
            if Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z":
                left.append(pid)
        except OSError:
            continue
    return left


def kill_all(pids: list[int]) -> None:
    for pid in pids:
        try:
            os.kill(pid, signal.SIGKILL)
        except ProcessLookupError:
            continue


def test_kill_during_retrieve_keeps_the_pages_it_stored_and_logs_it_as_interrupted(
    new_mount: Callable[[], Mount], search_site: SearchSite
) -> None:
    pages = search_site.url + "pages/"
    first = new_mount().start("--search", f"searxng={search_site.url}")
    assert first.ctl(f"open {pages}normal.html").returncode == 0
    retrieve = start_command(first, "retrieve -k 5 gardens")
    # The PDF result is stored within a second; the slow result keeps the retrieve going 6 s.
    wait_for(lambda: "\tGarden paper\t" in (first.path / "_pages.tsv").read_text(), "N0002")
    before = page_tree(first)
    readers = [subprocess.Popen(  # shells reading the whole time, until the mount goes
        ["bash", "-c", (f"while cat {first.path}/N0001/_map.md {first.path}/_pages.tsv && "
                        f"grep -rq gardens {first.path}/N0001/content/; do :; done; exit 3")],
        stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True) for _ in range(3)]
    time.sleep(0.3)
    first.kill()
    assert retrieve.wait(timeout=EXIT_WAIT) != 0
    for reader in readers:  # each ends at once with the dead mount's error; none hangs
        _, stderr = reader.communicate(timeout=EXIT_WAIT)
        assert reader.returncode == 3  # the loop ended because a read failed
        # ECONNABORTED for a read in flight at the kill, ENOTCONN for any after it.
        assert stderr.splitlines()
        assert all(line.endswith(("Software caused connection abort",
                                  "Transport endpoint is not connected"))
                   for line in stderr.splitlines()), stderr

    second = new_mount().start("--search", f"searxng={search_site.url}")
    assert "clearing a stale mount" in second.stderr.read_text()
    assert assert_consistent(second) == ["N0001", "N0002"]
    assert page_tree(second) == before
    assert sh(f"grep -c 'Roots need air' {second.path}/N0002/content/00-intro.md").stdout == "1\n"
    assert sorted(os.listdir(second.path / "_log")) == ["R0001.md", "R0002.md"]
    assert (second.path / "_log" / "R0002.md").read_text().splitlines()[-2:] == [
        "R0002 failed: retrieve -k 5 gardens", INTERRUPTED]
    assert os.listdir(second.path / "_search") == []  # no report claims results it never had
    result = second.ctl(f"open {search_site.url}pages/captcha-article.html")
    assert result.stdout.splitlines()[:2] == [
        f"R0003 ok: open {search_site.url}pages/captcha-article.html", "N0003  CAPTCHA"]


def test_kill_during_execute_keeps_every_page_and_logs_it_as_interrupted(
    new_mount: Callable[[], Mount], generated: GeneratedSite, chromium: str
) -> None:
    first = new_mount().start("--browser", "local", "--chromium", chromium)
    opened = first.ctl(f"open {generated.url('/form')}", timeout=CTL_TIMEOUT)
    assert opened.stdout.splitlines()[1] == "N0001  Slow form", opened.stdout
    assert statuses(first) == ["active"]
    browser = chromium_processes(first)
    assert browser
    execute = start_command(first, "execute N0001 A0001 q=hello")
    assert generated.arrived("/answer")  # the browser submitted the form and waits for its answer
    before = page_tree(first)
    first.kill()
    assert execute.wait(timeout=EXIT_WAIT) != 0
    # Playwright's driver and Chromium see their pipe close and go with the daemon.
    try:
        wait_for(lambda: not alive(browser), "the dead daemon's Chromium to exit", EXIT_WAIT)
    finally:
        kill_all(alive(browser))

    second = new_mount().start()  # plain HTTP now: the pages are what is checked
    assert assert_consistent(second) == ["N0001"]
    assert page_tree(second) == before
    assert statuses(second) == ["stored"]  # its tab died with the daemon
    assert sorted(os.listdir(second.path / "_log")) == ["R0001.md", "R0002.md"]
    assert (second.path / "_log" / "R0002.md").read_text().splitlines()[-2:] == [
        "R0002 failed: execute N0001 A0001 q=hello", INTERRUPTED]
    result = second.ctl(f"open {generated.url('/slow?delay=0')}")
    assert result.stdout.splitlines()[:2] == [
        f"R0003 ok: open {generated.url('/slow?delay=0')}", "N0002  Slow page"]


def test_a_browser_killed_mid_execute_fails_that_command_and_the_next_open_works(
    new_mount: Callable[[], Mount], generated: GeneratedSite, chromium: str
) -> None:
    mount = new_mount().start("--browser", "local", "--chromium", chromium)
    assert mount.ctl(f"open {generated.url('/form')}", timeout=CTL_TIMEOUT).returncode == 0
    execute = start_command(mount, "execute N0001 A0001 q=again")
    assert generated.arrived("/answer")
    browser = chromium_processes(mount)
    assert browser
    kill_all(browser)
    stdout, stderr = execute.communicate(timeout=CTL_TIMEOUT)

    assert execute.returncode != 0
    assert "Input/output error" in stderr
    lines = stdout.splitlines()
    assert lines[0] == "R0002 failed: execute N0001 A0001 q=again"
    assert lines[1:] == [("the browser crashed while submit on w1; it is started again on the "
                         "next command; lost tabs: t1 (their pages stay stored)")]
    assert mount.process is not None and mount.process.poll() is None

    result = mount.ctl(f"open {generated.url('/slow?delay=0')}", timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout
    lines = result.stdout.splitlines()
    assert lines[1:3] == ["N0002  Slow page", f"url: {generated.url('/slow?delay=0')}"]
    assert lines[-3:] == [
        "all of N0002/content/ is above",
        "live in tab t2 (status active)",
        "note: the browser had stopped and was started again",
    ]
    assert chromium_processes(mount)  # a new browser
    assert_consistent(mount)
    assert mount.bad_log_lines() == []  # here, not only at teardown: the crash is the test


def test_a_browser_killed_mid_open_falls_back_to_plain_http_and_says_why(
    new_mount: Callable[[], Mount], generated: GeneratedSite, chromium: str
) -> None:
    mount = new_mount().start("--browser", "local", "--chromium", chromium)
    url = generated.url("/slow?delay=3")
    command = start_command(mount, f"open {url}")
    assert generated.arrived("/slow")
    kill_all(chromium_processes(mount))
    stdout, _ = command.communicate(timeout=CTL_TIMEOUT)

    assert command.returncode == 0, stdout
    lines = stdout.splitlines()
    assert lines[:3] == [f"R0001 ok: open {url}", "N0001  Slow page", f"url: {url}"]
    assert lines[-1].startswith("note: the browser could not load it (the browser crashed while ")
    assert lines[-1].endswith("); fetched over plain HTTP, no live tab")
    assert statuses(mount) == ["stored"]
    again = mount.ctl(f"open {generated.url('/form')}", timeout=CTL_TIMEOUT)
    assert again.stdout.splitlines()[1:2] == ["N0002  Slow form"]
    assert "live in tab" in again.stdout
    assert_consistent(mount)


def test_after_a_browser_crash_the_pages_of_lost_tabs_are_stored(
    new_mount: Callable[[], Mount], generated: GeneratedSite, chromium: str
) -> None:
    mount = new_mount().start("--browser", "local", "--chromium", chromium)
    assert mount.ctl(f"open {generated.url('/form')}", timeout=CTL_TIMEOUT).returncode == 0
    execute = start_command(mount, "execute N0001 A0001 q=again")
    assert generated.arrived("/answer")
    kill_all(chromium_processes(mount))
    execute.communicate(timeout=CTL_TIMEOUT)
    after_crash = statuses(mount)
    assert mount.ctl(f"open {generated.url('/slow?delay=0')}", timeout=CTL_TIMEOUT).returncode == 0
    assert (after_crash, statuses(mount)) == (["stored"], ["stored", "active"])


def test_a_full_disk_fails_the_open_with_eio_and_the_reason_and_loses_nothing(
    new_mount: Callable[[], Mount], generated: GeneratedSite, tmp_path: Path
) -> None:
    with tiny_tmpfs(tmp_path / "tiny", "2m") as tiny:
        # The cache lives on the tiny disk; its daemon log stays beside the link, on a roomy one.
        (tmp_path / "cache.sqlite").symlink_to(tiny / "cache.sqlite")
        mount = new_mount().start()
        opened: list[str] = []
        for number in range(100):
            url = generated.url(f"/filler?n={number}&kb=48")
            result = mount.ctl(f"open {url}")
            if result.returncode != 0:
                break
            opened.append(result.stdout.splitlines()[1].split()[0])
        else:
            pytest.fail("the disk never filled")
        assert len(opened) >= 3
        assert "Input/output error" in result.stderr
        assert result.stdout.splitlines() == [
            f"R{number + 1:04d} failed: open {url}",
            (f"the disk holding the cache {tmp_path / 'cache.sqlite'} is full, so the page of "
            f"{url} was not stored; the pages stored before stay readable. Free some space there "
            "(or mount again with --cache on a larger disk) and run the command again"),
        ]
        assert assert_consistent(mount) == opened
        assert mount.process is not None and mount.process.poll() is None
        # The page's rolled-back write leaves room in the WAL for the small log record.
        failed_log = (mount.path / "_log" / f"R{number + 1:04d}.md").read_text().splitlines()
        assert failed_log[:2] == [f"# R{number + 1:04d} failed", f"request: open {url}"]

        resize(tiny, "8m")  # space freed: the same daemon stores again, numbering continues
        again = mount.ctl(f"open {url}")
        assert again.stdout.splitlines()[1] == f"N{len(opened) + 1:04d}  Filler page {number}"
        before = page_tree(mount)
        mount.unmount()

        second = new_mount().start()
        assert assert_consistent(second) == [*opened, f"N{len(opened) + 1:04d}"]
        assert page_tree(second) == before
        second.unmount()

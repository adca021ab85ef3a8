"""--profile NAME through real mounts with the real Chromium: a login made on one mount is still
there after a remount with the same profile, and not without it; the profile is private to its
user and taken by one mount at a time; a bad name is refused before mounting."""

from __future__ import annotations

import os
import stat
import sys
from collections.abc import Callable
from pathlib import Path

import pytest

from tests.browser.live_site import LiveSite
from tests.conftest import chromium_path, fuse_available, require
from tests.fs.conftest import Mount, sh
from tests.fs.test_live import ctl, opened, result_page


@pytest.fixture
def data_home(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """The user data dir the daemons see (they inherit this environment)."""
    home = tmp_path / "data"
    monkeypatch.setenv("XDG_DATA_HOME", str(home))
    return home


def browser_options() -> tuple[str, ...]:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    return ("--browser", "local", "--chromium", chromium)


def account_line(mount: Mount, live: LiveSite) -> str:
    page = opened(mount, live.url("/account"))
    return sh(f"grep -rhi 'signed in' {mount.path}/{page}/content/").stdout


def test_a_login_survives_a_remount_with_the_same_profile(
    new_mount: Callable[[], Mount], live: LiveSite, data_home: Path
) -> None:
    options = browser_options()
    first = new_mount().start(*options, "--profile", "alice")
    login = opened(first, live.url("/login.html"))
    account = result_page(ctl(first, f"execute {login} A0001 user=alice password=secret"))
    assert sh(f"grep -rh 'Signed in' {first.path}/{account}/content/").stdout == (
        "Signed in as alice.\n")
    first.unmount()

    profile = data_home / "webshellfs" / "profiles" / "alice"
    assert stat.S_IMODE(profile.stat().st_mode) == 0o700
    assert stat.S_IMODE(profile.parent.stat().st_mode) == 0o700
    assert sorted(p.name for p in profile.iterdir()) == ["lock", "state.json"]
    for file in profile.iterdir():
        assert stat.S_IMODE(file.stat().st_mode) == 0o600, file

    again = new_mount().start(*options, "--profile", "alice")
    assert account_line(again, live) == "Signed in as alice.\n"
    again.unmount()

    without = new_mount().start(*options)
    assert account_line(without, live) == "Not signed in.\n"
    without.unmount()

    other = new_mount().start(*options, "--profile", "bob")
    assert account_line(other, live) == "Not signed in.\n"


def test_a_profile_in_use_by_a_mount_is_refused_to_another(
    new_mount: Callable[[], Mount], tmp_path: Path, data_home: Path
) -> None:
    options = browser_options()
    new_mount().start(*options, "--profile", "alice")
    second = tmp_path / "second"
    second.mkdir()
    result = sh(f"{sys.executable} -m webshellfs {second} --cache {tmp_path / 'other.sqlite'} "
                f"--allow-private {' '.join(options)} --profile alice")
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1].startswith(
        "webshellfs: the browser profile 'alice' is in use by another mount (pid ")
    assert not os.path.ismount(second)


@pytest.mark.parametrize(("extra", "message"), [
    (("--profile", "../x"), ("webshellfs: --profile '../x' cannot name a profile: it starts "
                             "with a dot (use letters, digits, '-', '_' or '.')")),
    (("--profile", "a/b"), ("webshellfs: --profile 'a/b' cannot name a profile: it contains "
                            "a slash (use letters, digits, '-', '_' or '.')")),
])
def test_a_bad_profile_name_is_refused_before_mounting(
    tmp_path: Path, data_home: Path, extra: tuple[str, ...], message: str
) -> None:
    require(fuse_available(), "FUSE")
    mountpoint = tmp_path / "mnt"
    mountpoint.mkdir()
    result = sh(f"{sys.executable} -m webshellfs {mountpoint} --cache {tmp_path / 'c.sqlite'} "
                f"{' '.join(browser_options())} {' '.join(extra)}")
    assert result.returncode == 1
    assert result.stderr.splitlines()[-1] == message
    assert not os.path.ismount(mountpoint)
    assert not (data_home / "webshellfs").exists()


def test_a_profile_needs_a_browser(tmp_path: Path) -> None:
    result = sh(f"{sys.executable} -m webshellfs {tmp_path} --browser http --profile alice")
    assert result.returncode == 2
    assert result.stderr.splitlines()[-1] == (
        "webshellfs: error: --profile keeps a browser's cookies: it needs a browser, "
        "not --browser http")

"""Browser profiles (--profile NAME): names, permissions, one mount at a time, and a login that
survives the browser — saved after the command that made it, before any orderly close."""

from __future__ import annotations

import json
import stat
from pathlib import Path

import pytest

from tests.browser.conftest import live_options, locator_of, page_text, run
from tests.browser.live_site import SESSION_TOKEN, LiveSite
from webshellfs.browser import Browser
from webshellfs.browser.profile import Profile, check_name, profile_dir
from webshellfs.errors import UsageError


@pytest.mark.parametrize(("name", "why"), [
    ("", "it is empty"),
    ("..", "it starts with a dot"),
    (".hidden", "it starts with a dot"),
    ("a/b", "it contains a slash"),
    ("a\\b", "it contains a slash"),
    ("bad\nname", "it contains control characters"),
    ("x" * 65, "it is longer than 64 characters"),
])
def test_names_that_cannot_be_a_directory_are_refused(name: str, why: str) -> None:
    with pytest.raises(UsageError) as refused:
        check_name(name)
    assert str(refused.value) == (f"--profile {name!r} cannot name a profile: {why} "
                                  "(use letters, digits, '-', '_' or '.')")


def test_a_profile_lives_in_the_user_data_dir(monkeypatch: pytest.MonkeyPatch,
                                              tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    assert profile_dir("work-1") == tmp_path / "data" / "webshellfs" / "profiles" / "work-1"


def test_a_profile_is_private_and_taken_by_one_mount_at_a_time(tmp_path: Path) -> None:
    path = tmp_path / "profiles" / "work"
    (tmp_path / "profiles").mkdir(mode=0o755)
    first = Profile(path)
    first.lock()
    assert stat.S_IMODE(path.stat().st_mode) == 0o700
    assert stat.S_IMODE(path.parent.stat().st_mode) == 0o700
    with pytest.raises(UsageError, match=r"the browser profile 'work' is in use by another "
                                         r"mount \(pid \d+\)"):
        Profile(path).lock()
    first.save({"cookies": [], "origins": []})
    assert stat.S_IMODE((path / "state.json").stat().st_mode) == 0o600
    assert stat.S_IMODE((path / "lock").stat().st_mode) == 0o600
    assert sorted(p.name for p in path.iterdir()) == ["lock", "state.json"]
    first.unlock()
    second = Profile(path)
    second.lock()
    assert second.load() == {"cookies": [], "origins": []}
    second.unlock()


def test_a_damaged_state_file_is_reported_not_overwritten(tmp_path: Path) -> None:
    profile = Profile(tmp_path / "work")
    profile.lock()
    (tmp_path / "work" / "state.json").write_text("{cut short")
    with pytest.raises(UsageError, match="state.json is not valid JSON .*; remove it to start "
                                         "the profile afresh"):
        profile.load()
    profile.unlock()


def _logged_in(browser: Browser, site: LiveSite) -> str:
    account = run(lambda: browser.open(site.url("/account")))
    return next(line for line in page_text(account).splitlines() if "signed in" in line.lower())


def test_a_login_survives_the_browser_with_its_profile(site: LiveSite, tmp_path: Path) -> None:
    path = tmp_path / "profiles" / "alice"
    first = Browser(live_options(profile_dir=path))
    try:
        page = run(lambda: first.open(site.url("/login.html")))
        run(lambda: first.execute(page.tab_id, locator_of(page, "//form"), "submit",
                                  {"user": "alice", "password": "secret"}))
        # Saved by the command itself: a daemon killed now would keep the login.
        saved = json.loads((path / "state.json").read_text())
        assert [(c["name"], c["value"], c["httpOnly"]) for c in saved["cookies"]] == [
            ("session", f"{SESSION_TOKEN}-alice", True)]
        assert stat.S_IMODE((path / "state.json").stat().st_mode) == 0o600
    finally:
        first.close_blocking()
    again = Browser(live_options(profile_dir=path))
    try:
        assert _logged_in(again, site) == "Signed in as alice."
    finally:
        again.close_blocking()
    without = Browser(live_options())
    try:
        assert _logged_in(without, site) == "Not signed in."
    finally:
        without.close_blocking()

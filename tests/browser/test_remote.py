"""--browser cdp=URL and ws=URL: drive a Chromium someone else started, over the DevTools
protocol or through a Playwright server."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.conftest import live_options, locator_of, page_text, run
from tests.browser.live_site import LiveSite
from tests.browser.test_policy import HINT, fake_dns, to_fixture_site
from tests.conftest import chromium_path
from tests.security.test_browser_policy import Server, assert_second_hop_refused
from webshellfs.browser import Browser
from webshellfs.browser.options import CHROMIUM_ARGS, BrowserOptions
from webshellfs.browser.policy import NetworkPolicy
from webshellfs.browser.processes import ChromiumProcesses, marker_environment, new_marker
from webshellfs.errors import AccessDenied
from webshellfs.fetch.policy import AddressRules

pytestmark = pytest.mark.browser

DEVTOOLS_LINE = re.compile(r"DevTools listening on (ws://127\.0\.0\.1:(\d+)/\S+)")
PLAYWRIGHT_LINE = re.compile(r"(ws://127\.0\.0\.1:\d+/\S+)")


@pytest.fixture
def remote_chromium(tmp_path: Path) -> Iterator[tuple[str, str]]:
    """A separate headless Chromium with a remote-debugging port on 127.0.0.1:
    yields (http endpoint, its process marker)."""
    live_options()  # fails in CI / skips elsewhere without Chromium
    marker = new_marker()
    process = subprocess.Popen(
        [str(chromium_path()), "--headless", "--no-sandbox", *CHROMIUM_ARGS,
         "--remote-debugging-address=127.0.0.1", "--remote-debugging-port=0",
         f"--user-data-dir={tmp_path / 'profile'}", "about:blank"],
        stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
        env=marker_environment(marker), start_new_session=True,
    )
    try:
        assert process.stderr is not None
        port = ""
        for raw in process.stderr:
            found = DEVTOOLS_LINE.search(raw.decode("utf-8", "replace"))
            if found:
                port = found.group(2)
                break
        assert port, "Chromium never printed its DevTools endpoint"
        yield f"http://127.0.0.1:{port}", marker
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_open_and_execute_through_a_cdp_endpoint(
    remote_chromium: tuple[str, str], site: LiveSite
) -> None:
    endpoint, marker = remote_chromium
    browser = Browser(live_options(mode="cdp", endpoint=endpoint))
    try:
        page = run(lambda: browser.open(site.url("/product.html")))
        assert "Price: 40 EUR" in page_text(page)
        size = locator_of(page, "//select")
        changed = run(lambda: browser.execute(page.tab_id, size, "select", {"size": "Medium"}))
        assert not changed.navigated
        assert "Price: 45 EUR" in page_text(changed)
        login = run(lambda: browser.open(site.url("/login.html")))
        account = run(lambda: browser.execute(login.tab_id, locator_of(login, "//form"),
                                              "submit", {"user": "bob", "password": "secret"}))
        assert account.capture.url == site.url("/account")
        assert "Signed in as bob." in page_text(account)
    finally:
        browser.close_blocking()
    # Closing disconnects; a browser we did not start is not ours to kill.
    assert ChromiumProcesses(marker).pids() != []


@pytest.fixture
def playwright_server(tmp_path: Path) -> Iterator[str]:
    """`playwright launch-server` with Debian's Chromium on 127.0.0.1: yields its ws endpoint."""
    live_options()
    config = tmp_path / "server.json"
    config.write_text(json.dumps({
        "executablePath": chromium_path(), "headless": True, "host": "127.0.0.1", "port": 0,
        "args": ["--no-sandbox", *CHROMIUM_ARGS]}))
    process = subprocess.Popen(
        [sys.executable, "-m", "playwright", "launch-server", "--browser", "chromium",
         "--config", str(config)],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
        start_new_session=True,
    )
    try:
        assert process.stdout is not None
        line = process.stdout.readline().decode("utf-8", "replace")
        found = PLAYWRIGHT_LINE.search(line)
        assert found, f"the Playwright server printed {line!r}"
        yield found.group(1)
    finally:
        os.killpg(process.pid, signal.SIGKILL)
        process.wait(10)


def test_open_and_execute_through_a_playwright_server(
    playwright_server: str, site: LiveSite
) -> None:
    browser = Browser(live_options(mode="ws", endpoint=playwright_server))
    try:
        page = run(lambda: browser.open(site.url("/search.html")))
        result = run(lambda: browser.execute(page.tab_id, locator_of(page, "//form"), "submit",
                                             {"q": "tides"}))
        assert result.navigated
        assert result.capture.url == site.url("/search?q=tides&year=")
        assert "Results for tides" in page_text(result)
    finally:
        browser.close_blocking()


def test_a_profile_works_with_a_remote_browser(
    remote_chromium: tuple[str, str], site: LiveSite, tmp_path: Path
) -> None:
    """The storage state is loaded into and saved from our own context in the remote browser;
    the file stays on this machine, so a login made remotely is there for a local browser."""
    endpoint, _ = remote_chromium
    profile = tmp_path / "profiles" / "remote"
    remote = Browser(live_options(mode="cdp", endpoint=endpoint, profile_dir=profile))
    try:
        login = run(lambda: remote.open(site.url("/login.html")))
        run(lambda: remote.execute(login.tab_id, locator_of(login, "//form"), "submit",
                                   {"user": "carol", "password": "secret"}))
    finally:
        remote.close_blocking()
    local = Browser(live_options(profile_dir=profile))
    try:
        account = run(lambda: local.open(site.url("/account")))
        assert "Signed in as carol." in page_text(account)
    finally:
        local.close_blocking()
    remote_again = Browser(live_options(mode="cdp", endpoint=endpoint, profile_dir=profile))
    try:
        account = run(lambda: remote_again.open(site.url("/account")))
        assert "Signed in as carol." in page_text(account)
    finally:
        remote_again.close_blocking()


def test_a_remote_browser_on_this_machine_goes_through_the_gate(
    remote_chromium: tuple[str, str]
) -> None:
    """Its context uses the gate as its proxy, so a page's second redirect hop (which the route
    handler never sees) is judged too: refused at the loopback address, never requested."""
    endpoint, _ = remote_chromium
    server = Server()
    policy = NetworkPolicy(AddressRules(), resolver=fake_dns, connector=to_fixture_site)
    browser = Browser(live_options(mode="cdp", endpoint=endpoint, allow_private=False),
                      policy=policy)
    try:
        assert_second_hop_refused(browser, server)
    finally:
        browser.close_blocking()
        server.close()


def test_a_remote_browser_elsewhere_is_judged_by_the_route_handler(
    remote_chromium: tuple[str, str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A browser on another host cannot reach the gate: its context has no proxy, and the
    route handler judges each request, and a page's first redirect hop by fetching it itself.
    (The browser here runs on this machine, taken for one elsewhere.)"""
    monkeypatch.setattr(BrowserOptions, "remote_on_this_machine", property(lambda _: False))
    endpoint, _ = remote_chromium
    server = Server()
    policy = NetworkPolicy(AddressRules(), resolver=fake_dns, connector=to_fixture_site)
    browser = Browser(live_options(mode="cdp", endpoint=endpoint, allow_private=False),
                      policy=policy)
    try:
        secret = server.url("/secret")
        with pytest.raises(AccessDenied) as refused:
            run(lambda: browser.open(server.url(f"/hop?to={secret}", host="localhost")))
        assert str(refused.value) == f"{secret} resolves to 127.0.0.1, a loopback address; {HINT}"
        assert "/secret" not in server.requests
        account = run(lambda: browser.open(server.url("/cookie-page", host="localhost")))
        assert "Cookie: session=s3cr3t" in page_text(account)
    finally:
        browser.close_blocking()
        server.close()


def test_only_a_remote_endpoint_on_loopback_counts_as_this_machine() -> None:
    endpoints = [("cdp", "http://127.0.0.1:9222"), ("ws", "ws://localhost:3000/x"),
                 ("cdp", "http://[::1]:9222"), ("cdp", "http://10.0.0.5:9222"),
                 ("ws", "ws://grid.example:4444/"), ("local", "")]
    here = [live_options(mode=mode, endpoint=url).remote_on_this_machine for mode, url in endpoints]
    assert here == [True, True, True, False, False, False]

"""The network policy: refusals decided from resolved addresses, and enforced on every request
a page makes (subresources and fetch()), not only on the URL the user opened."""

from __future__ import annotations

import asyncio
import time

import pytest

from tests.browser.conftest import live_options, locator_of, page_text, run
from tests.browser.live_site import LiveSite
from webshellfs.browser import Browser
from webshellfs.browser.policy import NetworkPolicy, Streams, open_tcp
from webshellfs.errors import AccessDenied
from webshellfs.fetch.policy import AddressRules

# How many times the allowed socket's page is looked at again before its close must be there.
SOCKET_LOOKS = 10

PUBLIC_ADDRESS = "93.184.216.34"
HINT = "loopback and private addresses are refused unless the mount runs with --allow-private"
LINK_LOCAL_HINT = ("link-local and cloud-metadata addresses are refused unless the mount runs "
                   "with --allow-link-local")
METADATA = "http://169.254.169.254/latest/meta-data/"


async def fake_dns(host: str, port: int) -> list[str]:
    """The policy's view of names in these tests. `localhost` is made to look public: the
    browser still reaches the fixture site through it, so a page can be "public" offline."""
    table = {"public.test": [PUBLIC_ADDRESS], "localhost": [PUBLIC_ADDRESS],
             "metadata.test": ["169.254.169.254"],
             "intranet.test": ["10.1.2.3"], "127.0.0.1": ["127.0.0.1"], "::1": ["::1"]}
    if host not in table:
        raise OSError("Name or service not known")
    return table[host]


async def to_fixture_site(address: str, port: int) -> Streams:
    """Where the gate's connections go in these tests: the "public" address is the fixture
    site on the loopback interface."""
    return await open_tcp("127.0.0.1" if address == PUBLIC_ADDRESS else address, port)


def refusal(url: str, *, allow_private: bool = False, top_level: bool = True) -> str:
    policy = NetworkPolicy(AddressRules(allow_private), resolver=fake_dns)
    return asyncio.run(policy.refusal(url, top_level=top_level))


@pytest.mark.parametrize(("url", "reason"), [
    ("http://public.test/a", ""),
    ("http://127.0.0.1:8000/", (f"http://127.0.0.1:8000/ resolves to 127.0.0.1, a loopback "
                               f"address; {HINT}")),
    ("http://[::1]/", f"http://[::1]/ resolves to ::1, a loopback address; {HINT}"),
    ("http://metadata.test/latest", (f"http://metadata.test/latest resolves to 169.254.169.254, "
                                    f"a cloud-metadata address; {LINK_LOCAL_HINT}")),
    ("https://intranet.test/", (f"https://intranet.test/ resolves to 10.1.2.3, a private "
                               f"address; {HINT}")),
    ("http://nowhere.test/", "cannot resolve the host nowhere.test: Name or service not known"),
    ("file:///etc/passwd", ("only http and https URLs can be opened; file: is refused: "
                           "file:///etc/passwd")),
    ("javascript:alert(1)", ("only http and https URLs can be opened; javascript: is refused: "
                            "javascript:alert(1)")),
    ("data:text/html,hi", ("only http and https URLs can be opened; data: is refused: "
                          "data:text/html,hi")),
])
def test_refusals_name_the_reason(url: str, reason: str) -> None:
    assert refusal(url) == reason


def test_subresource_data_urls_pass_and_private_hosts_pass_when_allowed() -> None:
    assert refusal("data:image/png;base64,AAAA", top_level=False) == ""
    assert refusal("http://127.0.0.1:8000/", allow_private=True) == ""
    assert refusal("file:///etc/passwd", allow_private=True) != ""
    assert refusal("http://metadata.test/latest", allow_private=True) == (
        f"http://metadata.test/latest resolves to 169.254.169.254, a cloud-metadata address; "
        f"{LINK_LOCAL_HINT}")


@pytest.mark.browser
def test_a_public_page_cannot_reach_private_addresses(site: LiveSite) -> None:
    """The page at localhost (public to this policy) loads; what it asks of 127.0.0.1 is
    refused, whether by fetch() or by a redirect of the document."""
    port = site.base.rsplit(":", 1)[1]
    browser = Browser(live_options(allow_private=False),
                      policy=NetworkPolicy(AddressRules(), resolver=fake_dns,
                                          connector=to_fixture_site))
    try:
        with pytest.raises(AccessDenied, match="resolves to 127.0.0.1, a loopback address"):
            run(lambda: browser.open(site.url("/index.html")))
        before = len(site.requests)
        result = run(lambda: browser.open(f"http://localhost:{port}/ssrf"))
        assert "Private data: blocked" in page_text(result)
        assert result.notes == (
            (f"http://127.0.0.1:{port}/api/items?offset=0&limit=1 resolves to 127.0.0.1, a "
            f"loopback address; {HINT}"),
        )
        assert [path for path in site.requests[before:] if path.startswith("/api/")] == []
        private = site.url("/account")
        with pytest.raises(AccessDenied, match=f"{private} resolves to 127.0.0.1, a loopback"):
            run(lambda: browser.open(f"http://localhost:{port}/redirect?to={private}"))
        assert "/account" not in site.requests[before:]
        allowed = run(lambda: browser.open(f"http://localhost:{port}/redirect?to=/jslist.html"))
        assert allowed.capture.url == f"http://localhost:{port}/jslist.html"
        assert "Mercury (built by script)" in page_text(allowed)
        login = run(lambda: browser.open(f"http://localhost:{port}/login.html"))
        account = run(lambda: browser.execute(login.tab_id, locator_of(login, "//form"),
                                              "submit", {"user": "carol", "password": "secret"}))
        assert account.capture.url == f"http://localhost:{port}/account"
        assert "Signed in as carol." in page_text(account)
        again = run(lambda: browser.open(f"http://localhost:{port}/account"))
        assert "Signed in as carol." in page_text(again)
    finally:
        browser.close_blocking()


@pytest.mark.browser
def test_with_allow_private_pages_still_cannot_reach_the_metadata_service(
        site: LiveSite, browser: Browser) -> None:
    """The module's browser runs with allow_private (it reaches the fixture site on 127.0.0.1),
    and its route handler still refuses what a page asks of 169.254.169.254, by fetch() or by
    redirecting the document; the refusal is the policy's, not a failed connection."""
    probe = run(lambda: browser.open(site.url(f"/ssrf?target={METADATA}")))
    assert "Private data: blocked" in page_text(probe)
    assert probe.notes == (
        f"{METADATA} resolves to 169.254.169.254, a cloud-metadata address; {LINK_LOCAL_HINT}",)
    with pytest.raises(AccessDenied) as refused:
        run(lambda: browser.open(site.url(f"/redirect?to={METADATA}")))
    assert str(refused.value) == (
        f"{METADATA} resolves to 169.254.169.254, a cloud-metadata address; {LINK_LOCAL_HINT}")
    with pytest.raises(AccessDenied, match="^only http and https URLs can be opened; file: is"):
        run(lambda: browser.open("file:///etc/passwd"))
    after = run(lambda: browser.open(site.url("/index.html")))
    assert after.notes == ()


@pytest.mark.browser
def test_web_sockets_pass_the_same_policy(site: LiveSite, browser: Browser) -> None:
    """Route handlers never see WebSockets; the context's WebSocket route refuses one to the
    metadata service, and lets one the policy allows try to connect."""
    metadata_socket = "ws://169.254.169.254/socket"
    refused = run(lambda: browser.open(site.url(f"/hostile/socket?to={metadata_socket}")))
    assert "Socket: closed 1008" in page_text(refused)
    reason = (f"{metadata_socket} resolves to 169.254.169.254, a cloud-metadata address; "
              f"{LINK_LOCAL_HINT}")
    assert refused.notes == (reason,)
    local_socket = site.url("/no-socket-here").replace("http:", "ws:")
    allowed = run(lambda: browser.open(site.url(f"/hostile/socket?to={local_socket}")))
    assert allowed.notes == ()
    # The failed handshake's close arrives when the server answers, which a loaded machine
    # may delay past the capture: look again for a while, as an agent's `focus` would.
    for _ in range(SOCKET_LOOKS):
        if "Socket: closed 1006" in page_text(allowed):
            break
        time.sleep(0.5)
        allowed = run(lambda: browser.focus(allowed.tab_id))
    assert "Socket: closed 1006" in page_text(allowed)


@pytest.mark.browser
def test_a_page_reaches_no_file_of_this_machine(site: LiveSite, browser: Browser) -> None:
    """file: and chrome: in a frame, an image, a fetch() and a followed link: Chromium loads
    none of them from a web page (they never reach the gate), and nothing of them is captured."""
    page = run(lambda: browser.open(site.url("/local-files.html")))
    assert "Fetched: blocked" in page_text(page)
    assert b"root:" not in page.capture.body
    link = locator_of(page, "//a[@id='go']")
    after = run(lambda: browser.execute(page.tab_id, link, "click", {}))
    assert after.capture.url == site.url("/local-files.html")
    assert b"root:" not in after.capture.body

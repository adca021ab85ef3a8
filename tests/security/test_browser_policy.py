"""The browser's network policy past the first URL: every redirect hop of a page or of anything
it loads is judged (the gate, browser/gate.py), and a decompression bomb served to the browser
over plain HTTP is cut at the body limit by its inflated size, with the daemon's and the
browser's memory measured. A fixture server of its own on 127.0.0.1; the real Chromium."""

from __future__ import annotations

import asyncio
import gzip
import os
import threading
import zlib
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

import pytest

from tests.browser.conftest import live_options, page_text, run
from tests.browser.test_policy import HINT, LINK_LOCAL_HINT, METADATA, fake_dns, to_fixture_site
from webshellfs.browser import Browser
from webshellfs.browser.gate import Gate
from webshellfs.browser.policy import NetworkPolicy
from webshellfs.errors import AccessDenied
from webshellfs.fetch.policy import AddressRules

pytestmark = pytest.mark.browser

MIB = 1024 * 1024
BOMB_INFLATED = 512 * MIB
BODY_LIMIT = 2 * MIB
RAW_DEFLATE_TEXT = b"raw deflate, as some servers send it\n" * 100
METADATA_REFUSAL = (f"{METADATA} resolves to 169.254.169.254, a cloud-metadata address; "
                    f"{LINK_LOCAL_HINT}")


def gzip_bomb(size: int) -> bytes:
    """size bytes of zeros, gzipped (512 MiB → about 500 KiB)."""
    packer = zlib.compressobj(9, zlib.DEFLATED, zlib.MAX_WBITS | 16)
    block = bytes(MIB)
    return b"".join([*(packer.compress(block) for _ in range(size // MIB)), packer.flush()])


def subresources_page(target: str) -> bytes:
    """An image and a fetch() that both go through /hop to target."""
    script = ("fetch('/hop?to=' + encodeURIComponent(TARGET)).then((r) => 'status ' + r.status,"
              " () => 'blocked').then((word) => {"
              " document.getElementById('out').textContent = 'Fetched: ' + word; });"
              ).replace("TARGET", repr(target))
    return (f'<!DOCTYPE html><html><head><title>Shop</title></head><body><main><h1>Shop</h1>'
            f'<p>Boots for every trail.</p><img alt="" src="/hop?to={target}">'
            f'<p id="out">Fetched: pending</p><script>{script}</script></main></body></html>'
            ).encode()


def bomb_page() -> bytes:
    script = ("fetch('/bomb.json').then((r) => r.text()).then((t) => 'read ' + t.length,"
              " () => 'failed').then((word) => {"
              " document.getElementById('out').textContent = 'Bomb: ' + word; });")
    return (f'<!DOCTYPE html><html><head><title>Data</title></head><body><main><h1>Data</h1>'
            f'<p id="out">Bomb: pending</p><script>{script}</script></main></body></html>'
            ).encode()


class _Handler(BaseHTTPRequestHandler):
    requests: list[str]
    bomb: bytes

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        self.requests.append(self.path)
        parts = urlsplit(self.path)
        query = parse_qs(parts.query)
        if parts.path == "/hop":
            self.send_response(302)
            self.send_header("Location", query["to"][0])
            self.send_header("Content-Length", "0")
            self.end_headers()
        elif parts.path == "/subresources":
            self._send(subresources_page(query["to"][0]), "text/html")
        elif parts.path == "/bomb-page":
            self._send(bomb_page(), "text/html")
        elif parts.path == "/bomb.json":
            # No Content-Length: the size is known only by reading (and inflating) it.
            self.send_response(200)
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.send_header("Connection", "close")
            self.end_headers()
            self.wfile.write(self.bomb)
        elif parts.path == "/cookie-page":
            script = ("fetch('/hop?to=/echo-cookie').then((r) => r.text()).then((t) => {"
                      " document.getElementById('out').textContent = 'Cookie: ' + t; });")
            body = (f'<!DOCTYPE html><html><head><title>Account</title></head><body><main>'
                    f'<h1>Account</h1><p id="out">Cookie: pending</p><script>{script}</script>'
                    f"</main></body></html>").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.send_header("Set-Cookie", "session=s3cr3t; Path=/")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif parts.path == "/echo-cookie":
            self._send((self.headers.get("Cookie") or "none").encode(), "text/plain")
        elif parts.path == "/raw-deflate.txt":
            packer = zlib.compressobj(9, zlib.DEFLATED, -zlib.MAX_WBITS)
            body = packer.compress(RAW_DEFLATE_TEXT) + packer.flush()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Encoding", "deflate")
            self.end_headers()
            self.wfile.write(body)
        elif parts.path == "/small.json":
            self.send_response(200)
            body = gzip.compress(b'{"items": [1, 2, 3]}')
            self.send_header("Content-Type", "application/json")
            self.send_header("Content-Encoding", "gzip")
            self.end_headers()
            self.wfile.write(body)
        else:
            self._send(b"<!DOCTYPE html><title>Secret</title><p>Private data</p>", "text/html")

    def _send(self, body: bytes, content_type: str) -> None:
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)


class Server:
    def __init__(self) -> None:
        self.requests: list[str] = []
        handler = type("Handler", (_Handler,), {"requests": self.requests,
                                                "bomb": gzip_bomb(BOMB_INFLATED)})
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        self._server.daemon_threads = True
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.port = self._server.server_address[1]

    def url(self, path: str, host: str = "127.0.0.1") -> str:
        return f"http://{host}:{self.port}{path}"

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


@pytest.fixture(scope="module")
def server() -> Iterator[Server]:
    running = Server()
    yield running
    running.close()


@pytest.fixture(scope="module")
def public_browser() -> Iterator[Browser]:
    """A browser for which `localhost` is a public host and 127.0.0.1 is refused."""
    policy = NetworkPolicy(AddressRules(), resolver=fake_dns, connector=to_fixture_site)
    live = Browser(live_options(allow_private=False, max_body_bytes=BODY_LIMIT), policy=policy)
    yield live
    live.close_blocking()


def test_subresource_redirects_are_judged_at_every_hop(
        server: Server, public_browser: Browser) -> None:
    """The image and the fetch() start on the public host and are redirected to the loopback
    address: refused at that hop, never requested, the page still captured, the refusal in
    its notes."""
    secret = server.url("/secret")
    before = len(server.requests)
    result = run(lambda: public_browser.open(
        server.url(f"/subresources?to={secret}", host="localhost")))
    assert "Boots for every trail." in page_text(result)
    assert "Fetched: blocked" in page_text(result)
    assert result.notes == (f"{secret} resolves to 127.0.0.1, a loopback address; {HINT}",)
    assert sorted(path.split("?")[0] for path in server.requests[before:]
                  if path != "/favicon.ico") == ["/hop", "/hop", "/subresources"]


def assert_second_hop_refused(browser: Browser, server: Server) -> None:
    """A page whose first Location is public and whose second points at the loopback address:
    the gate refuses that hop, the open fails with the policy's reason, /secret is never asked."""
    secret = server.url("/secret")
    second = server.url(f"/hop?to={secret}", host="localhost")
    before = len(server.requests)
    with pytest.raises(AccessDenied) as refused:
        run(lambda: browser.open(server.url(f"/hop?to={second}", host="localhost")))
    assert str(refused.value) == f"{secret} resolves to 127.0.0.1, a loopback address; {HINT}"
    assert "/secret" not in server.requests[before:]


def test_a_page_redirected_twice_is_judged_at_the_second_hop(
        server: Server, public_browser: Browser) -> None:
    assert_second_hop_refused(public_browser, server)
    after = run(lambda: public_browser.open(server.url("/hop?to=/small.json", host="localhost")))
    assert after.capture.body == b'{"items": [1, 2, 3]}'
    assert after.notes == ()


def test_the_gate_sees_loopback_whatever_the_environment(
        server: Server, monkeypatch: pytest.MonkeyPatch) -> None:
    """Playwright stops sending loopback traffic through the proxy when the environment asks it
    to; the gate's own bypass list keeps it there, so the second hop to the loopback address is
    still refused and never requested."""
    monkeypatch.setenv("PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK", "1")
    policy = NetworkPolicy(AddressRules(), resolver=fake_dns, connector=to_fixture_site)
    live = Browser(live_options(allow_private=False, max_body_bytes=BODY_LIMIT), policy=policy)
    try:
        assert_second_hop_refused(live, server)
    finally:
        live.close_blocking()


def test_through_the_gate_each_request_is_made_once_and_cookies_still_work(
        server: Server, public_browser: Browser) -> None:
    """The gate forwards, it does not fetch again: the page, the redirect and its target are
    each asked for once, and the cookie the page set comes back on the redirected fetch()."""
    before = len(server.requests)
    result = run(lambda: public_browser.open(server.url("/cookie-page", host="localhost")))
    assert "Cookie: session=s3cr3t" in page_text(result)
    assert [path for path in server.requests[before:] if path != "/favicon.ico"] == [
        "/cookie-page", "/hop?to=/echo-cookie", "/echo-cookie"]


def test_with_allow_private_redirect_hops_still_cannot_reach_the_metadata_service(
        server: Server, browser: Browser) -> None:
    result = run(lambda: browser.open(server.url(f"/subresources?to={METADATA}")))
    assert "Fetched: blocked" in page_text(result)
    assert result.notes == (METADATA_REFUSAL,)


def resident_peak_kib(pid: int | str = "self") -> int:
    """The process's peak resident set (VmHWM) in KiB."""
    status = Path(f"/proc/{pid}/status").read_text()
    return int(next(line.split()[1] for line in status.splitlines()
                    if line.startswith("VmHWM:")))


def browser_processes_peak_kib() -> dict[int, int]:
    """Peak RSS of every process below this one (the Playwright driver, Chromium's)."""
    peaks: dict[int, int] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            if _descends_from_us(int(entry.name)):
                peaks[int(entry.name)] = resident_peak_kib(entry.name)
        except (OSError, StopIteration, ValueError):
            continue
    return peaks


def _descends_from_us(pid: int) -> bool:
    """Whether pid is a child, grandchild… of this process."""
    while pid > 1:
        pid = int(Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[1])
        if pid == os.getpid():
            return True
    return False


def test_a_gzip_bomb_is_cut_at_the_body_limit_with_memory_bounded(
        server: Server, public_browser: Browser) -> None:
    """512 MiB of zeros in 0.5 MiB of gzip, without Content-Length: as a top-level JSON the
    open is refused with the reason; a page's fetch() reads nothing of it, and the page is still
    captured. Neither this process nor any browser process grows by anywhere near the bomb."""
    url = server.url("/bomb.json", host="localhost")
    reason = f"{url} inflates past the limit of {BODY_LIMIT} bytes; the response was cut off"
    daemon_before = resident_peak_kib()
    with pytest.raises(AccessDenied) as refused:
        run(lambda: public_browser.open(url))
    assert str(refused.value) == reason
    page = run(lambda: public_browser.open(server.url("/bomb-page", host="localhost")))
    assert "Bomb: read 0" in page_text(page)
    assert page.notes == (reason,)
    growth_mib = (resident_peak_kib() - daemon_before) / 1024
    assert growth_mib < 64, f"the daemon's peak RSS grew by {growth_mib:.0f} MiB"
    browser_peaks = browser_processes_peak_kib()
    assert browser_peaks, "no browser process found below the test process"
    assert max(browser_peaks.values()) / 1024 < 400, browser_peaks


async def through_gate(gate: Gate, url: str) -> bytes:
    """What a browser gets for a plain-HTTP GET of url through the gate, head and body."""
    proxy = urlsplit(await gate.start())
    reader, writer = await asyncio.open_connection(proxy.hostname, proxy.port)
    writer.write(f"GET {url} HTTP/1.1\r\nHost: {urlsplit(url).netloc}\r\n"
                 "Accept-Encoding: gzip, deflate, br\r\n\r\n".encode())
    try:
        return await reader.read()
    finally:
        writer.close()
        await gate.close()


def test_the_gate_passes_bodies_within_the_limit_and_cuts_a_bomb(server: Server) -> None:
    """Without a browser: a raw-deflate body passes whole (as Chromium accepts it); of the
    bomb only the head is sent, and the policy notes why."""
    policy = NetworkPolicy(AddressRules(allow_private=True))
    passed = asyncio.run(through_gate(Gate(policy, BODY_LIMIT), server.url("/raw-deflate.txt")))
    head, _, body = passed.partition(b"\r\n\r\n")
    assert head.splitlines()[0] == b"HTTP/1.0 200 OK"
    assert zlib.decompress(body, -zlib.MAX_WBITS) == RAW_DEFLATE_TEXT
    assert policy.refused == []
    bomb = server.url("/bomb.json")
    cut = asyncio.run(through_gate(Gate(policy, BODY_LIMIT), bomb))
    head, _, body = cut.partition(b"\r\n\r\n")
    assert head.splitlines()[0] == b"HTTP/1.0 200 OK"
    assert body == b""
    assert policy.refused == [
        f"{bomb} inflates past the limit of {BODY_LIMIT} bytes; the response was cut off"]

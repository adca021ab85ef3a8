"""The plain-HTTP fetcher against the fixture site on 127.0.0.1 (and a fake transport only for the
one path that needs a public first hop)."""

from __future__ import annotations

import socket
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import httpx
import pytest
import trio

from tests.site import SITE_ROOT, FixtureSite
from webshellfs.config import Settings
from webshellfs.errors import AccessDenied, FetchError, FetchTimeout
from webshellfs.fetch import ERROR_BODY_BYTES, Capture, HttpStatusError
from webshellfs.fetch.http import MAX_REDIRECTS, USER_AGENT, HttpFetcher, VettedBackend
from webshellfs.fetch.policy import AddressRules


def settings(**overrides: object) -> Settings:
    base: dict[str, object] = {"mountpoint": Path("/mnt"), "cache": Path("/tmp/unused.sqlite"),
                               "allow_private": True, "fetch_timeout": 5.0}
    return Settings(**{**base, **overrides})  # type: ignore[arg-type]


def fetch(url: str, **overrides: object) -> Capture:
    async def run() -> Capture:
        fetcher = HttpFetcher(settings(**overrides))
        try:
            return await fetcher.fetch(url)
        finally:
            await fetcher.aclose()

    return trio.run(run)


class _Echo(BaseHTTPRequestHandler):
    """/ua echoes the User-Agent; /stream sends 64 KiB chunks with no Content-Length; /refuse
    answers 503 with a 1 MiB body; /loop redirects to itself."""

    def do_GET(self) -> None:
        if self.path == "/refuse":
            self.send_response(503)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(16):
                self.wfile.write(b"y" * 65536)
        elif self.path == "/ua":
            body = self.headers.get("User-Agent", "").encode()
            self.send_response(200)
            self.send_header("Content-Type", "text/plain")
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)
        elif self.path == "/stream":
            self.send_response(200)
            self.send_header("Content-Type", "text/html")
            self.end_headers()
            for _ in range(16):
                self.wfile.write(b"x" * 65536)
        else:
            self.send_response(302)
            self.send_header("Location", "/loop")
            self.send_header("Content-Length", "0")
            self.end_headers()

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def echo() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Echo)
    server.daemon_threads = True
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()


def test_fetches_a_page(site: FixtureSite) -> None:
    capture = fetch(site.url("/shop.html"))
    assert capture.requested_url == capture.url == site.url("/shop.html")
    assert capture.status == 200
    assert capture.content_type == "text/html"
    assert capture.body == (SITE_ROOT / "shop.html").read_bytes()
    assert ("content-length", str(len(capture.body))) in capture.headers


def test_follows_redirects_to_the_final_url(site: FixtureSite) -> None:
    capture = fetch(site.url("/redirect?to=/article.html"))
    assert capture.requested_url == site.url("/redirect?to=/article.html")
    assert capture.url == site.url("/article.html")
    assert capture.body == (SITE_ROOT / "article.html").read_bytes()


def test_an_error_status_is_a_failure_naming_it_that_keeps_the_response(site: FixtureSite) -> None:
    with pytest.raises(HttpStatusError) as failed:
        fetch(site.url("/missing"))
    assert str(failed.value) == f"HTTP 404 Not Found for {site.url('/missing')}"
    assert failed.value.status == 404
    capture = failed.value.capture
    assert (capture.url, capture.status, capture.content_type) == (
        site.url("/missing"), 404, "text/html; charset=utf-8"
    )
    assert b"<title>" in capture.body


def test_an_error_response_keeps_only_the_start_of_its_body(echo: str) -> None:
    with pytest.raises(HttpStatusError) as failed:
        fetch(echo + "/refuse")
    assert str(failed.value) == f"HTTP 503 Service Unavailable for {echo}/refuse"
    assert failed.value.capture.body == b"y" * ERROR_BODY_BYTES


def test_names_itself(echo: str) -> None:
    assert fetch(echo + "/ua").body == USER_AGENT.encode()
    assert USER_AGENT.startswith("webshellfs/")


def test_caps_the_body_while_streaming(echo: str, site: FixtureSite) -> None:
    with pytest.raises(FetchError) as failed:
        fetch(echo + "/stream", max_page_bytes=100_000)
    assert str(failed.value) == f"{echo}/stream is over the limit of 100000 bytes"
    size = (SITE_ROOT / "shop.html").stat().st_size
    with pytest.raises(FetchError) as declared:
        fetch(site.url("/shop.html"), max_page_bytes=100)
    assert str(declared.value) == f"{site.url('/shop.html')} is {size} bytes, over the limit of 100"


def test_caps_redirects(echo: str) -> None:
    with pytest.raises(FetchError) as failed:
        fetch(echo + "/loop")
    assert str(failed.value) == f"more than {MAX_REDIRECTS} redirects from {echo}/loop"


def test_a_slow_page_times_out(site: FixtureSite) -> None:
    with pytest.raises(FetchTimeout) as failed:
        fetch(site.url("/slow?delay=3"), fetch_timeout=0.3)
    assert str(failed.value) == f"no complete answer from {site.url('/slow?delay=3')} within 0.3 s"


def test_private_addresses_are_refused_unless_allowed(site: FixtureSite) -> None:
    with pytest.raises(AccessDenied, match="a loopback address; .* unless the mount runs with --allow-private"):
        fetch(site.url("/index.html"), allow_private=False)


def test_a_closed_port_is_a_failure() -> None:
    with pytest.raises(FetchError, match=r"^cannot fetch http://127\.0\.0\.1:9/: "):
        fetch("http://127.0.0.1:9/")


def test_every_redirect_hop_is_checked() -> None:
    # A public address that redirects to a loopback one (a fake transport: no network here).
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "http://127.0.0.1:8000/admin"})

    async def run() -> None:
        fetcher = HttpFetcher(settings(allow_private=False), transport=httpx.MockTransport(answer))
        try:
            await fetcher.fetch("http://93.184.216.34/")
        finally:
            await fetcher.aclose()

    with pytest.raises(AccessDenied, match=r"^http://127\.0\.0\.1:8000/admin resolves to 127\.0\.0\.1, a loopback"):
        trio.run(run)


class Rebinding:
    """A DNS answer that changes between two lookups: first public, then loopback (the
    DNS-rebinding trick), for rebind.test only."""

    def __init__(self) -> None:
        self.answers = ["93.184.216.34", "127.0.0.1"]

    async def getaddrinfo(self, host: bytes | str, port: object, family: int = 0, type: int = 0,
                          proto: int = 0, flags: int = 0) -> list[tuple[object, ...]]:
        assert host in ("rebind.test", b"rebind.test")
        address = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (address, int(str(port))))]

    async def getnameinfo(self, sockaddr: object, flags: int) -> tuple[str, str]:
        raise NotImplementedError


def test_the_connection_goes_only_to_the_address_that_was_checked(echo: str) -> None:
    port = echo.rsplit(":", 1)[1]

    async def run() -> None:
        trio.socket.set_custom_hostname_resolver(Rebinding())
        fetcher = HttpFetcher(settings(allow_private=False))
        try:
            await fetcher.fetch(f"http://rebind.test:{port}/ua")
        finally:
            await fetcher.aclose()

    with pytest.raises(AccessDenied, match=rf"^rebind\.test:{port} resolves to 127\.0\.0\.1, a loopback address"):
        trio.run(run)


def test_the_vetted_backend_refuses_loopback_and_connects_when_allowed(echo: str) -> None:
    port = int(echo.rsplit(":", 1)[1])

    async def run() -> None:
        with pytest.raises(AccessDenied, match=rf"^localhost:{port} resolves to "):
            await VettedBackend(AddressRules()).connect_tcp("localhost", port)
        stream = await VettedBackend(AddressRules(allow_private=True)).connect_tcp("127.0.0.1", port)
        await stream.aclose()

    trio.run(run)


LINK_LOCAL_HINT = ("link-local and cloud-metadata addresses are refused unless the mount runs "
                   "with --allow-link-local")


def test_allow_private_still_refuses_a_redirect_to_the_metadata_service(site: FixtureSite) -> None:
    metadata = "http://169.254.169.254/latest/meta-data/"
    with pytest.raises(AccessDenied) as refused:
        fetch(site.url(f"/redirect?to={metadata}"), allow_private=True)
    assert str(refused.value) == (
        f"{metadata} resolves to 169.254.169.254, a cloud-metadata address; {LINK_LOCAL_HINT}")


class Answers:
    """A resolver that gives each listed name one fixed address (no DNS here)."""

    def __init__(self, table: dict[str, str]) -> None:
        self.table = table

    async def getaddrinfo(self, host: bytes | str, port: object, family: int = 0, type: int = 0,
                          proto: int = 0, flags: int = 0) -> list[tuple[object, ...]]:
        name = host.decode() if isinstance(host, bytes) else host
        return [(socket.AF_INET, socket.SOCK_STREAM, 6, "", (self.table[name], int(str(port))))]

    async def getnameinfo(self, sockaddr: object, flags: int) -> tuple[str, str]:
        raise NotImplementedError


def test_a_name_that_resolves_to_link_local_is_refused_even_with_allow_private(echo: str) -> None:
    """The connect-time check (the one DNS rebinding cannot dodge) applies the link-local rule
    too; the separate permission lets it through."""
    port = int(echo.rsplit(":", 1)[1])

    async def run() -> None:
        trio.socket.set_custom_hostname_resolver(
            Answers({"imds.test": "169.254.169.254", "alibaba.test": "100.100.100.200",
                     "near.test": "169.254.10.1", "loop.test": "127.0.0.1"}))
        backend = VettedBackend(AddressRules(allow_private=True))
        for host, address, kind in [("imds.test", "169.254.169.254", "cloud-metadata"),
                                    ("alibaba.test", "100.100.100.200", "cloud-metadata"),
                                    ("near.test", "169.254.10.1", "link-local")]:
            with pytest.raises(AccessDenied) as refused:
                await backend.connect_tcp(host, 80)
            assert str(refused.value) == (
                f"{host}:80 resolves to {address}, a {kind} address; {LINK_LOCAL_HINT}")
        stream = await backend.connect_tcp("loop.test", port)
        await stream.aclose()
        only_link_local = VettedBackend(AddressRules(allow_link_local=True))
        with pytest.raises(AccessDenied, match=r"^loop\.test:\d+ resolves to 127\.0\.0\.1, a loopback"):
            await only_link_local.connect_tcp("loop.test", port)

    trio.run(run)


def test_a_redirect_to_another_scheme_is_refused() -> None:
    def answer(request: httpx.Request) -> httpx.Response:
        return httpx.Response(302, headers={"Location": "file:///etc/passwd"})

    async def run() -> None:
        fetcher = HttpFetcher(settings(), transport=httpx.MockTransport(answer))
        try:
            await fetcher.fetch("http://93.184.216.34/")
        finally:
            await fetcher.aclose()

    with pytest.raises(AccessDenied, match="^only http and https URLs can be opened; file: is refused"):
        trio.run(run)

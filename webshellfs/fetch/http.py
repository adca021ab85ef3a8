"""The plain-HTTP fetcher (httpx on trio): what `open` uses when there is no browser, and the
path for non-HTML documents.

Redirects are followed here, one hop at a time, so the address policy is checked on every hop.
The connection itself is opened by `VettedBackend`, which resolves the host once, refuses
the addresses the mount's rules refuse (always link-local and cloud metadata unless allowed
separately) and connects to the address it checked, so DNS cannot answer differently
between the check and the connect (DNS rebinding). The body is streamed and cut off at
settings.max_page_bytes, counted after decompression by our own bounded decoder
(decoding.py), so a decompression bomb is refused without being inflated; an HTTP error status is a failure that names the status, never a page
(HttpStatusError, which keeps the start of the body so a bot wall can be recognised).
"""

from __future__ import annotations

import urllib.request
from collections.abc import Iterable

import httpcore
import httpx
import trio

from webshellfs import __version__
from webshellfs.config import Settings
from webshellfs.errors import AccessDenied, FetchError, FetchTimeout
from webshellfs.fetch import ERROR_BODY_BYTES, Capture, HttpStatusError, TooLargeError
from webshellfs.fetch.decoding import ACCEPT_ENCODING, BoundedDecoder, OverLimit
from webshellfs.fetch.policy import AddressRules, check_url, permitted_addresses

__all__ = ["MAX_REDIRECTS", "USER_AGENT", "HttpFetcher", "VettedBackend"]

MAX_REDIRECTS = 10
USER_AGENT = f"webshellfs/{__version__}"
_HEADERS = {
    "User-Agent": USER_AGENT,
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
    "Accept-Encoding": ACCEPT_ENCODING,
}


class VettedBackend(httpcore.AsyncNetworkBackend):
    """httpcore's network backend, but every TCP connection goes to an address that was checked
    against the address rules in the same step. TLS still verifies the host name: httpcore
    passes it as the server name whatever address the socket reached."""

    def __init__(self, rules: AddressRules) -> None:
        self.rules = rules
        self._inner = httpcore.AnyIOBackend()

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        addresses = await permitted_addresses(host, port, f"{host}:{port}", self.rules)
        failure: httpcore.ConnectError | None = None
        for address in addresses:
            try:
                return await self._inner.connect_tcp(
                    address, port, timeout, local_address, socket_options
                )
            except httpcore.ConnectError as error:
                failure = error
        raise failure or httpcore.ConnectError(f"no address for {host}")

    async def connect_unix_socket(
        self,
        path: str,
        timeout: float | None = None,
        socket_options: Iterable[httpcore.SOCKET_OPTION] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        raise AccessDenied("fetching over a Unix socket is refused")

    async def sleep(self, seconds: float) -> None:
        await self._inner.sleep(seconds)


class _VettedTransport(httpx.AsyncHTTPTransport):
    """httpx's own transport (request mapping, exception mapping) over a VettedBackend pool.
    httpx has no public way to pass a network backend, so the pool is swapped in here."""

    def __init__(self, rules: AddressRules) -> None:
        super().__init__()
        self._pool = httpcore.AsyncConnectionPool(
            ssl_context=httpx.create_ssl_context(),
            network_backend=VettedBackend(rules),
        )


def _default_transport(rules: AddressRules) -> httpx.AsyncBaseTransport | None:
    """The vetted transport; or None (httpx's own, which honours HTTP(S)_PROXY) when a proxy is
    configured, because then the proxy resolves names and only the URL check can apply."""
    proxies = urllib.request.getproxies()
    if any(scheme in proxies for scheme in ("http", "https", "all")):
        return None
    return _VettedTransport(rules)


class HttpFetcher:
    """Fetcher over httpx.AsyncClient. `transport` is for tests of error paths only."""

    def __init__(self, settings: Settings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        self.rules = AddressRules.from_settings(settings)
        self._client = httpx.AsyncClient(
            headers=_HEADERS,
            timeout=httpx.Timeout(settings.fetch_timeout),
            follow_redirects=False,
            transport=transport or _default_transport(self.rules),
        )

    async def fetch(self, url: str) -> Capture:
        try:
            with trio.fail_after(self.settings.fetch_timeout):
                return await self._follow(url)
        except (trio.TooSlowError, httpx.TimeoutException):
            raise FetchTimeout(
                f"no complete answer from {url} within {self.settings.fetch_timeout:g} s"
            ) from None
        except httpx.InvalidURL as error:
            raise FetchError(f"not a usable URL: {url} ({error})") from None
        except httpx.HTTPError as error:
            raise FetchError(f"cannot fetch {url}: {error or type(error).__name__}") from None

    async def _follow(self, requested: str) -> Capture:
        url = requested
        for _ in range(MAX_REDIRECTS + 1):
            await check_url(url, self.rules)
            request = self._client.build_request("GET", url)
            response = await self._client.send(request, stream=True)
            try:
                location = response.headers.get("location")
                if response.is_redirect and location:
                    url = str(response.url.join(location))
                    continue
                if response.status_code >= 400:
                    status = " ".join(filter(None, (str(response.status_code), response.reason_phrase)))
                    capture = _capture(requested, response, await _read_start(response))
                    raise HttpStatusError(f"HTTP {status} for {response.url}", capture)
                return _capture(requested, response, await self._read_capped(response))
            finally:
                with trio.CancelScope(shield=True):  # a cancelled fetch still returns its connection
                    await response.aclose()
        raise FetchError(f"more than {MAX_REDIRECTS} redirects from {requested}")

    async def _read_capped(self, response: httpx.Response) -> bytes:
        cap = self.settings.max_page_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            size = int(declared)
            raise TooLargeError(f"{response.url} is {size} bytes, over the limit of {cap}", cap, size)
        decoder = BoundedDecoder(response.headers.get("content-encoding", ""), cap)
        chunks: list[bytes] = []
        try:
            async for chunk in response.aiter_raw():
                chunks.append(decoder.feed(chunk))
            chunks.append(decoder.flush())
        except OverLimit:
            once = " once decompressed" if decoder.decompressing else ""
            raise TooLargeError(f"{response.url} is over the limit of {cap} bytes{once}",
                                cap) from None
        return b"".join(chunks)

    async def aclose(self) -> None:
        await self._client.aclose()


def _capture(requested: str, response: httpx.Response, body: bytes) -> Capture:
    return Capture(
        requested_url=requested,
        url=str(response.url),
        status=response.status_code,
        content_type=response.headers.get("content-type", ""),
        body=body,
        headers=tuple(response.headers.items()),
    )


async def _read_start(response: httpx.Response) -> bytes:
    """The first ERROR_BODY_BYTES of an error response (decoded); the rest is not read."""
    decoder = BoundedDecoder(response.headers.get("content-encoding", ""), ERROR_BODY_BYTES,
                             truncate=True)
    chunks: list[bytes] = []
    async for chunk in response.aiter_raw():
        chunks.append(decoder.feed(chunk))
        if decoder.full:
            return b"".join(chunks)
    chunks.append(decoder.flush())
    return b"".join(chunks)

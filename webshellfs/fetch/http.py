"""The plain-HTTP fetcher (httpx on trio): what `open` uses when there is no browser, and the
path for non-HTML documents.

Redirects are followed here, one hop at a time, so the address policy is checked on every hop.
The body is streamed and cut off at settings.max_page_bytes; an HTTP error status is a failure
that names the status, never a page.
"""

from __future__ import annotations

import httpx
import trio

from webshellfs import __version__
from webshellfs.config import Settings
from webshellfs.errors import FetchError, FetchTimeout
from webshellfs.fetch import Capture
from webshellfs.fetch.policy import check_url

__all__ = ["MAX_REDIRECTS", "USER_AGENT", "HttpFetcher"]

MAX_REDIRECTS = 10
USER_AGENT = f"webshellfs/{__version__}"
_HEADERS = {
    "User-Agent": USER_AGENT,
    "Accept": "text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8",
}


class HttpFetcher:
    """Fetcher over httpx.AsyncClient. `transport` is for tests of error paths only."""

    def __init__(self, settings: Settings, transport: httpx.AsyncBaseTransport | None = None) -> None:
        self.settings = settings
        self._client = httpx.AsyncClient(
            headers=_HEADERS,
            timeout=httpx.Timeout(settings.fetch_timeout),
            follow_redirects=False,
            transport=transport,
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
            await check_url(url, self.settings.allow_private)
            request = self._client.build_request("GET", url)
            response = await self._client.send(request, stream=True)
            try:
                location = response.headers.get("location")
                if response.is_redirect and location:
                    url = str(response.url.join(location))
                    continue
                if response.status_code >= 400:
                    status = " ".join(filter(None, (str(response.status_code), response.reason_phrase)))
                    raise FetchError(f"HTTP {status} for {response.url}")
                body = await self._read_capped(response)
                return Capture(
                    requested_url=requested,
                    url=str(response.url),
                    status=response.status_code,
                    content_type=response.headers.get("content-type", ""),
                    body=body,
                    headers=tuple(response.headers.items()),
                )
            finally:
                with trio.CancelScope(shield=True):  # a cancelled fetch still returns its connection
                    await response.aclose()
        raise FetchError(f"more than {MAX_REDIRECTS} redirects from {requested}")

    async def _read_capped(self, response: httpx.Response) -> bytes:
        cap = self.settings.max_page_bytes
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > cap:
            raise FetchError(f"{response.url} is {int(declared)} bytes, over the limit of {cap}")
        chunks: list[bytes] = []
        total = 0
        async for chunk in response.aiter_bytes():
            total += len(chunk)
            if total > cap:
                raise FetchError(f"{response.url} is over the limit of {cap} bytes")
            chunks.append(chunk)
        return b"".join(chunks)

    async def aclose(self) -> None:
        await self._client.aclose()

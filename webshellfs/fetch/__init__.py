"""Fetching a page: the Capture record and the Fetcher protocol every fetcher implements.

`open` asks a Fetcher for a URL and gets back a Capture (the final URL, status, content type and
the document bytes). The plain-HTTP fetcher lives in `http.py`; the browser room provides another
behind the same protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

__all__ = ["Capture", "Fetcher"]


@dataclass(frozen=True)
class Capture:
    """One fetched document.

    Attributes:
        requested_url: the URL asked for.
        url: the final URL after redirects.
        status: the HTTP status of the final response.
        content_type: e.g. "text/html; charset=utf-8" ("" if the server said nothing).
        body: the document; for a browser, the serialized rendered DOM.
        headers: the final response's headers, in order.
    """

    requested_url: str
    url: str
    status: int
    content_type: str
    body: bytes
    headers: tuple[tuple[str, str], ...] = ()


class Fetcher(Protocol):
    async def fetch(self, url: str) -> Capture:
        """The document at url. Raises FetchError, FetchTimeout or AccessDenied."""
        ...

    async def aclose(self) -> None: ...

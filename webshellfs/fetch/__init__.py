"""Fetching a page: the Capture record and the Fetcher protocol every fetcher implements.

`open` asks a Fetcher for a URL and gets back a Capture (the final URL, status, content type and
the document bytes). The plain-HTTP fetcher lives in `http.py`; the browser room provides another
behind the same protocol.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Protocol

from webshellfs.errors import FetchError

__all__ = ["ERROR_BODY_BYTES", "Capture", "Fetcher", "HttpStatusError", "TooLargeError"]

# How much of an error response's body a HttpStatusError keeps: enough to recognise a bot wall.
ERROR_BODY_BYTES = 64 * 1024


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


class HttpStatusError(FetchError):
    """The server answered with an error status (4xx/5xx). The response is kept, its body cut
    to ERROR_BODY_BYTES, so a caller can tell a CAPTCHA/bot wall from a plain refusal."""

    def __init__(self, message: str, capture: Capture) -> None:
        super().__init__(message)
        self.capture = capture

    @property
    def status(self) -> int:
        return self.capture.status


class TooLargeError(FetchError):
    """The response is larger than the mount's limit. `size` is None when the server did not
    declare it (the body was cut off while streaming)."""

    def __init__(self, message: str, limit: int, size: int | None = None) -> None:
        super().__init__(message)
        self.limit = limit
        self.size = size


class Fetcher(Protocol):
    async def fetch(self, url: str) -> Capture:
        """The document at url. Raises FetchError (HttpStatusError for an error status),
        FetchTimeout or AccessDenied."""
        ...

    async def aclose(self) -> None: ...

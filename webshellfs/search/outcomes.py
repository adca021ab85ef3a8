"""What became of one result's fetch: exactly one OutcomeKind, with a short reason that names
the cause (the status, the host that did not resolve, the limit that was passed).

Fetchers report failures as FetchError and friends. The status and size a failure is about are
read from the exception's `status`/`capture` attributes when it has them, else from its message,
by the patterns below, so any fetcher that names its failures plainly is classified right.
"""

from __future__ import annotations

import enum
import re
import socket
from collections.abc import Callable
from dataclasses import dataclass

from webshellfs.errors import AccessDenied, FetchError, FetchTimeout
from webshellfs.fetch import Capture, TooLargeError
from webshellfs.search.walls import wall_marker


class OutcomeKind(enum.Enum):
    FETCHED = "fetched"
    HTTP_STATUS = "http status"
    DNS_FAILURE = "dns failure"
    TIMEOUT = "timeout"
    BOT_WALL = "captcha/bot wall"
    ROBOTS = "robots disallow"
    TOO_LARGE = "too large"
    UNSUPPORTED = "unsupported type"
    DENIED = "denied by policy"
    FAILED = "fetch failed"


@dataclass(frozen=True)
class FetchOutcome:
    """`capture` is set only for FETCHED; `reason` is what a response line shows for a failure."""

    url: str
    kind: OutcomeKind
    reason: str
    capture: Capture | None = None

    @property
    def ok(self) -> bool:
        return self.kind is OutcomeKind.FETCHED


_STATUS_IN_MESSAGE = re.compile(r"\bHTTP (\d{3})\b")
# Message wording → (kind, label), for failures that carry no attributes; first match wins.
MESSAGE_KINDS: tuple[tuple[re.Pattern[str], OutcomeKind, str], ...] = (
    (
        re.compile(
            r"cannot resolve|name or service not known|nodename nor servname|"
            r"name resolution|no address associated|getaddrinfo|ERR_NAME_NOT_RESOLVED",
            re.IGNORECASE,
        ),
        OutcomeKind.DNS_FAILURE,
        "DNS failure",
    ),
    (
        re.compile(r"over the limit of \d+|larger than \d+ bytes|too large", re.IGNORECASE),
        OutcomeKind.TOO_LARGE,
        "too large",
    ),
)


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def classify_capture(
    url: str, capture: Capture, accepts: Callable[[str], bool], max_bytes: int
) -> FetchOutcome:
    """A response the fetcher returned (or attached to its error) → its one outcome."""
    marker = wall_marker(capture.status, capture.body)
    if marker is not None:
        return FetchOutcome(
            url, OutcomeKind.BOT_WALL, f"CAPTCHA/bot wall (HTTP {capture.status}, {marker})"
        )
    if not 200 <= capture.status < 300:
        return FetchOutcome(url, OutcomeKind.HTTP_STATUS, f"HTTP {capture.status}")
    if len(capture.body) > max_bytes:
        return FetchOutcome(
            url, OutcomeKind.TOO_LARGE, f"too large: {len(capture.body)} bytes, limit {max_bytes}"
        )
    kind = media_type(capture.content_type) or "no content type"
    if not accepts(capture.content_type):
        return FetchOutcome(url, OutcomeKind.UNSUPPORTED, f"unsupported type: {kind}")
    return FetchOutcome(url, OutcomeKind.FETCHED, f"fetched ({kind})", capture)


def status_of(error: BaseException) -> int | None:
    """The HTTP status a fetch failure is about, if it is about one."""
    status = getattr(error, "status", None)
    if isinstance(status, int):
        return status
    capture = getattr(error, "capture", None)
    if capture is not None and isinstance(getattr(capture, "status", None), int):
        return int(capture.status)
    found = _STATUS_IN_MESSAGE.search(str(error))
    return int(found.group(1)) if found else None


def _resolver_failed(error: BaseException) -> bool:
    seen: BaseException | None = error
    while seen is not None:
        if isinstance(seen, socket.gaierror):
            return True
        seen = seen.__cause__ or seen.__context__
    return False


def classify_error(
    url: str, error: FetchError, accepts: Callable[[str], bool], max_bytes: int
) -> FetchOutcome:
    """A fetcher's failure → its one outcome."""
    if isinstance(error, FetchTimeout):
        return FetchOutcome(url, OutcomeKind.TIMEOUT, f"timeout: {error}")
    if isinstance(error, AccessDenied):
        return FetchOutcome(url, OutcomeKind.DENIED, f"denied by policy: {error}")
    if isinstance(error, TooLargeError):
        if error.size is None:
            reason = f"too large: over the limit of {error.limit} bytes"
        else:
            reason = f"too large: {error.size} bytes, limit {error.limit}"
        return FetchOutcome(url, OutcomeKind.TOO_LARGE, reason)
    capture = getattr(error, "capture", None)
    if capture is not None:
        return classify_capture(url, capture, accepts, max_bytes)
    status = status_of(error)
    if status is not None:
        return FetchOutcome(url, OutcomeKind.HTTP_STATUS, f"HTTP {status}")
    if _resolver_failed(error):
        return FetchOutcome(url, OutcomeKind.DNS_FAILURE, f"DNS failure: {error}")
    for pattern, kind, label in MESSAGE_KINDS:
        if pattern.search(str(error)):
            return FetchOutcome(url, kind, f"{label}: {error}")
    return FetchOutcome(url, OutcomeKind.FAILED, f"fetch failed: {error}")

"""Fetch failures → outcome kinds, for the wording of each fetcher (plain HTTP, browser) and
for failures that carry their status or response as attributes."""

from __future__ import annotations

import socket

import pytest

from webshellfs.compiler.nonhtml import supported_type
from webshellfs.errors import AccessDenied, FetchError, FetchTimeout
from webshellfs.fetch import Capture, TooLargeError
from webshellfs.search.outcomes import OutcomeKind, classify_error

URL = "https://a.test/page"


def kind_and_reason(error: FetchError) -> tuple[str, str]:
    outcome = classify_error(URL, error, supported_type, 1000)
    assert outcome.capture is None
    return outcome.kind.value, outcome.reason


@pytest.mark.parametrize(
    ("error", "kind", "reason"),
    [
        (FetchError(f"HTTP 404 Not Found for {URL}"), "http status", "HTTP 404"),
        (
            FetchError(f"cannot fetch {URL}: [Errno -2] Name or service not known"),
            "dns failure",
            f"DNS failure: cannot fetch {URL}: [Errno -2] Name or service not known",
        ),
        (
            FetchError(
                "cannot resolve the host a.test: [Errno -3] Temporary failure in name resolution"
            ),
            "dns failure",
            "DNS failure: cannot resolve the host a.test: [Errno -3] Temporary failure in name resolution",
        ),
        (
            FetchError(f"page.goto: net::ERR_NAME_NOT_RESOLVED at {URL}"),
            "dns failure",
            f"DNS failure: page.goto: net::ERR_NAME_NOT_RESOLVED at {URL}",
        ),
        (
            FetchError(f"{URL} is 5000 bytes, over the limit of 1000"),
            "too large",
            f"too large: {URL} is 5000 bytes, over the limit of 1000",
        ),
        (
            TooLargeError(f"{URL} is 5000 bytes, over the limit of 1000", 1000, 5000),
            "too large",
            "too large: 5000 bytes, limit 1000",
        ),
        (
            TooLargeError(f"{URL} is over the limit of 1000 bytes", 1000),
            "too large",
            "too large: over the limit of 1000 bytes",
        ),
        (
            FetchError(f"{URL} is larger than 1000 bytes"),
            "too large",
            f"too large: {URL} is larger than 1000 bytes",
        ),
        (
            FetchTimeout(f"{URL} did not finish loading within 30 s"),
            "timeout",
            f"timeout: {URL} did not finish loading within 30 s",
        ),
        (
            AccessDenied(f"{URL} resolves to 10.0.0.1, a private address"),
            "denied by policy",
            f"denied by policy: {URL} resolves to 10.0.0.1, a private address",
        ),
        (
            FetchError(f"cannot fetch {URL}: [Errno 111] Connection refused"),
            "fetch failed",
            f"fetch failed: cannot fetch {URL}: [Errno 111] Connection refused",
        ),
    ],
)
def test_failure_wording(error: FetchError, kind: str, reason: str) -> None:
    assert kind_and_reason(error) == (kind, reason)


def test_resolver_error_in_the_cause_chain_is_a_dns_failure() -> None:
    try:
        try:
            raise socket.gaierror(-2, "Name or service not known")
        except OSError as cause:
            raise FetchError("connection failed") from cause
    except FetchError as error:
        assert kind_and_reason(error) == ("dns failure", "DNS failure: connection failed")


def test_a_status_attribute_wins() -> None:
    error = FetchError("refused")
    error.status = 410  # type: ignore[attr-defined]
    assert kind_and_reason(error) == ("http status", "HTTP 410")


def test_an_attached_response_is_checked_for_a_wall() -> None:
    error = FetchError("HTTP 403 Forbidden")
    error.capture = Capture(URL, URL, 403, "text/html", b"<title>Just a moment...</title>")  # type: ignore[attr-defined]
    outcome = classify_error(URL, error, supported_type, 1000)
    assert (outcome.kind, outcome.reason) == (
        OutcomeKind.BOT_WALL,
        "CAPTCHA/bot wall (HTTP 403, title: just a moment)",
    )

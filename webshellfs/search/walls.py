"""Telling a CAPTCHA or bot wall from a page, by fixed markers (no guessing, no scoring).

A wall is either a known challenge interstitial (its markers identify it at any status), or a
refusal status (403, 429, 503) whose body talks about robots or CAPTCHAs. A normal page that
merely mentions CAPTCHAs, or embeds a CAPTCHA widget in a form, is not a wall.
"""

from __future__ import annotations

import re

BLOCKING_STATUSES = frozenset({403, 429, 503})
SCANNED_BYTES = 64 * 1024

# Found only on challenge interstitials, whatever the status says.
INTERSTITIAL_MARKERS = (
    "cf-challenge",
    "cf_chl_",
    "cf-browser-verification",
    "_incapsula_resource",
    "px-captcha",
    "captcha-delivery.com",
)

# Page titles of challenge interstitials.
TITLE_MARKERS = (
    "just a moment",
    "attention required",
    "are you a robot",
    "verify you are human",
    "human verification",
    "security check",
    "ddos-guard",
)

# Counted only when the status already refuses.
REFUSAL_MARKERS = (
    "captcha",
    "are you a robot",
    "not a robot",
    "verify you are human",
    "unusual traffic",
    "automated queries",
    "bot detection",
    "enable javascript and cookies",
    "access denied",
    "request blocked",
)

# Bounded, so a page full of unclosed <title> tags cannot make the search quadratic.
_TITLE = re.compile(r"<title[^>]{0,200}>(.{0,300}?)</title", re.IGNORECASE | re.DOTALL)


def wall_marker(status: int, body: bytes) -> str | None:
    """The marker that shows this response is a CAPTCHA/bot wall, or None if it is not one."""
    text = body[:SCANNED_BYTES].decode("utf-8", "replace").lower()
    for marker in INTERSTITIAL_MARKERS:
        if marker in text:
            return marker
    title = _TITLE.search(text)
    if title:
        for marker in TITLE_MARKERS:
            if marker in title.group(1):
                return f"title: {marker}"
    if status in BLOCKING_STATUSES:
        for marker in REFUSAL_MARKERS:
            if marker in text:
                return marker
    return None

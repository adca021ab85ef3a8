"""Which responses are CAPTCHA/bot walls."""

from __future__ import annotations

import pytest

from webshellfs.search.walls import wall_marker


@pytest.mark.parametrize(
    ("status", "body", "marker"),
    [
        (403, b'<div class="cf-browser-verification">', "cf-browser-verification"),
        (200, b"<script>window._cf_chl_opt={};</script>", "cf_chl_"),
        (200, b"<title>Just a moment...</title>", "title: just a moment"),
        (200, b"<TITLE>Attention Required! | Cloudflare</TITLE>", "title: attention required"),
        (
            429,
            b"<p>Our systems have detected unusual traffic from your network.</p>",
            "unusual traffic",
        ),
        (503, b"<p>Please solve this CAPTCHA to continue</p>", "captcha"),
        (403, b"<h1>Access Denied</h1>", "access denied"),
    ],
)
def test_walls(status: int, body: bytes, marker: str) -> None:
    assert wall_marker(status, body) == marker


@pytest.mark.parametrize(
    ("status", "body"),
    [
        (200, b"<title>CAPTCHA - an article</title><p>Are you a robot? A CAPTCHA asks.</p>"),
        (200, b'<form><div class="g-recaptcha"></div><button>Sign in</button></form>'),
        (200, b'<script src="/cdn-cgi/challenge-platform/scripts/jsd/main.js"></script>'),
        (403, b"<h1>Forbidden</h1>"),
        (404, b"<p>Not found. Are you a robot? No matter.</p>"),
    ],
)
def test_not_walls(status: int, body: bytes) -> None:
    assert wall_marker(status, body) is None

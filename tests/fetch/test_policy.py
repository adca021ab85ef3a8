"""Which addresses a fetch may reach, and which URLs are refused before any connection."""

from __future__ import annotations

import pytest
import trio

from webshellfs.errors import AccessDenied
from webshellfs.fetch.policy import check_url, forbidden_kind


@pytest.mark.parametrize(
    ("address", "kind"),
    [
        ("127.0.0.1", "loopback"),
        ("::1", "loopback"),
        ("::ffff:127.0.0.1", "loopback"),
        ("169.254.169.254", "link-local"),
        ("fe80::1%eth0", "link-local"),
        ("10.1.2.3", "private"),
        ("192.168.0.10", "private"),
        ("172.16.5.4", "private"),
        ("fd00::1", "private"),
        ("224.0.0.1", "multicast"),
        ("0.0.0.0", "private"),
        ("93.184.216.34", None),
        ("2606:4700::1111", None),
    ],
)
def test_forbidden_kinds(address: str, kind: str | None) -> None:
    assert forbidden_kind(address) == kind


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("file:///etc/passwd", "only http and https URLs can be opened; file: is refused: file:///etc/passwd"),
        ("javascript:alert(1)", "only http and https URLs can be opened; javascript: is refused"),
        ("data:text/html,<p>x", "only http and https URLs can be opened; data: is refused"),
        ("ftp://x.org/f", "only http and https URLs can be opened; ftp: is refused"),
        ("http:///path", "the URL has no host: http:///path"),
        ("http://127.0.0.1:8000/x", (
            "http://127.0.0.1:8000/x resolves to 127.0.0.1, a loopback address; loopback and "
            "private addresses are refused unless the mount runs with --allow-private"
        )),
        ("https://[::1]/", "https://[::1]/ resolves to ::1, a loopback address;"),
        ("http://localhost/", "http://localhost/ resolves to"),
    ],
)
def test_refused_urls(url: str, message: str) -> None:
    with pytest.raises(AccessDenied) as refused:
        trio.run(check_url, url, False)
    assert str(refused.value).startswith(message)


def test_allow_private_lets_loopback_through_but_not_other_schemes() -> None:
    trio.run(check_url, "http://127.0.0.1:8000/x", True)
    with pytest.raises(AccessDenied):
        trio.run(check_url, "file:///etc/passwd", True)

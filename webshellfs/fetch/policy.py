"""Which URLs a fetch may touch: http/https only, and no loopback/private/link-local address
unless the mount allows it. Checked after DNS resolution and again on every redirect hop, by
any fetcher (the browser room reuses `check_url`)."""

from __future__ import annotations

import ipaddress
import socket
from urllib.parse import urlsplit

import trio

from webshellfs.errors import AccessDenied, FetchError

__all__ = ["ALLOWED_SCHEMES", "check_url", "forbidden_kind", "public_addresses"]

ALLOWED_SCHEMES = ("http", "https")

# Checked in order; the first that matches names the address in the refusal.
_FORBIDDEN = (
    ("loopback", lambda a: a.is_loopback),
    ("link-local", lambda a: a.is_link_local),
    ("private", lambda a: a.is_private),
    ("multicast", lambda a: a.is_multicast),
    ("reserved", lambda a: a.is_reserved or a.is_unspecified),
)

ALLOW_HINT = "loopback and private addresses are refused unless the mount runs with --allow-private"


def forbidden_kind(address: str) -> str | None:
    """"loopback", "private" … for an address a public fetch must not reach; None if fine."""
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        ip = ip.ipv4_mapped
    for kind, matches in _FORBIDDEN:
        if matches(ip):
            return kind
    return None


async def public_addresses(host: str, port: int, shown: str) -> list[str]:
    """Every address host resolves to, refusing them all (AccessDenied naming `shown`) if any
    is loopback, private, link-local…; FetchError if the host does not resolve."""
    try:
        infos = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise FetchError(f"cannot resolve the host {host}: {error}") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    for address in addresses:
        kind = forbidden_kind(address)
        if kind is not None:
            raise AccessDenied(f"{shown} resolves to {address}, a {kind} address; {ALLOW_HINT}")
    return addresses


async def check_url(url: str, allow_private: bool) -> None:
    """Raise AccessDenied unless url may be fetched; FetchError if its host does not resolve."""
    parts = urlsplit(url)
    scheme = parts.scheme.lower()
    if scheme not in ALLOWED_SCHEMES:
        shown = f"{scheme}:" if scheme else "a URL without a scheme"
        raise AccessDenied(f"only http and https URLs can be opened; {shown} is refused: {url}")
    try:
        host, port = parts.hostname, parts.port
    except ValueError as error:
        raise FetchError(f"not a usable URL: {url} ({error})") from None
    if not host:
        raise AccessDenied(f"the URL has no host: {url}")
    if not allow_private:
        await public_addresses(host, port or (443 if scheme == "https" else 80), url)

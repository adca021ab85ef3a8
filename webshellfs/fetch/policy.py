"""Which URLs a fetch may touch: http/https only; no loopback/private address unless the mount
allows private addresses; no link-local or cloud-metadata address unless the mount allows those,
separately (`--allow-private` alone never opens the metadata service). Checked after DNS
resolution and again on every redirect hop, by any fetcher (the browser room reuses
`AddressRules` and `refusal_kind`)."""

from __future__ import annotations

import ipaddress
import socket
from dataclasses import dataclass
from urllib.parse import urlsplit

import trio

from webshellfs.config import Settings
from webshellfs.errors import AccessDenied, FetchError

__all__ = [
    "ALLOWED_SCHEMES",
    "AddressRules",
    "address_kind",
    "check_url",
    "permitted_addresses",
]

ALLOWED_SCHEMES = ("http", "https")

IPAddress = ipaddress.IPv4Address | ipaddress.IPv6Address

# Instance-metadata and host-agent endpoints of the big clouds. Most are link-local anyway; the
# ones that are not (Alibaba's in the shared 100.64/10 range, AWS's IPv6 ULA, Azure's public
# wireserver address) would otherwise pass as private or even public.
CLOUD_METADATA = frozenset(ipaddress.ip_address(a) for a in (
    "169.254.169.254",   # AWS, GCP, Azure, OpenStack, DigitalOcean, Oracle
    "169.254.170.2",     # AWS ECS task metadata
    "100.100.100.200",   # Alibaba Cloud
    "168.63.129.16",     # Azure wireserver
    "fd00:ec2::254",     # AWS IPv6 metadata
))

# Checked in order; the first that matches names the address in the refusal. The last catches
# what is not globally routable but has no narrower name (shared 100.64/10, benchmarking…).
_KINDS: tuple[tuple[str, object], ...] = (
    ("cloud-metadata", lambda a: a in CLOUD_METADATA),
    ("link-local", lambda a: a.is_link_local),
    ("loopback", lambda a: a.is_loopback),
    ("private", lambda a: a.is_private),
    ("multicast", lambda a: a.is_multicast),
    ("reserved", lambda a: a.is_reserved or a.is_unspecified),
    ("non-public", lambda a: not a.is_global),
)
LINK_LOCAL_KINDS = ("cloud-metadata", "link-local")

ALLOW_HINT = "loopback and private addresses are refused unless the mount runs with --allow-private"
LINK_LOCAL_HINT = ("link-local and cloud-metadata addresses are refused unless the mount runs "
                   "with --allow-link-local")


def _parse(address: str) -> IPAddress:
    ip = ipaddress.ip_address(address.split("%", 1)[0])
    if isinstance(ip, ipaddress.IPv6Address) and ip.ipv4_mapped is not None:
        return ip.ipv4_mapped
    return ip


def address_kind(address: str) -> str | None:
    """"cloud-metadata", "link-local", "loopback", "private" … for an address that is not a
    public one; None for a public address."""
    ip = _parse(address)
    for kind, matches in _KINDS:
        if matches(ip):  # type: ignore[operator]
            return kind
    return None


@dataclass(frozen=True)
class AddressRules:
    """Which non-public addresses a mount may reach. The two permissions are independent."""

    allow_private: bool = False
    allow_link_local: bool = False

    @classmethod
    def from_settings(cls, settings: Settings) -> AddressRules:
        return cls(settings.allow_private, settings.allow_link_local)

    def refusal_kind(self, address: str) -> str | None:
        """The kind of address (as address_kind) if these rules refuse it, else None."""
        kind = address_kind(address)
        if kind is None:
            return None
        allowed = self.allow_link_local if kind in LINK_LOCAL_KINDS else self.allow_private
        return None if allowed else kind

    @staticmethod
    def hint(kind: str) -> str:
        return LINK_LOCAL_HINT if kind in LINK_LOCAL_KINDS else ALLOW_HINT

    def refusal(self, addresses: list[str]) -> str:
        """Why a host with these addresses is refused ("resolves to A, a KIND address; HINT"),
        or "" if every address may be reached. One bad address refuses the host: the
        connection could go to any of them."""
        for address in addresses:
            kind = self.refusal_kind(address)
            if kind is not None:
                return f"resolves to {address}, a {kind} address; {self.hint(kind)}"
        return ""


async def permitted_addresses(host: str, port: int, shown: str, rules: AddressRules) -> list[str]:
    """Every address host resolves to, refusing them all (AccessDenied naming `shown`) if the
    rules refuse any of them; FetchError if the host does not resolve."""
    try:
        infos = await trio.socket.getaddrinfo(host, port, type=socket.SOCK_STREAM)
    except OSError as error:
        raise FetchError(f"cannot resolve the host {host}: {error}") from None
    addresses = list(dict.fromkeys(str(info[4][0]) for info in infos))
    reason = rules.refusal(addresses)
    if reason:
        raise AccessDenied(f"{shown} {reason}")
    return addresses


async def check_url(url: str, rules: AddressRules) -> None:
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
    await permitted_addresses(host, port or (443 if scheme == "https" else 80), url, rules)

"""The network policy for everything a page requests: the verdicts the gate (gate.py) applies
to every connection a browser that can reach it opens, and a Playwright route handler for a
remote browser on another host, which cannot.

The address rules are the fetch room's (`webshellfs.fetch.policy`): http/https only, no
loopback/private destination unless the mount allows private addresses, and no link-local or
cloud-metadata destination unless it allows those separately. Here they are applied to every
request the page makes (subresources, fetch(), redirects of the document), not just the URL the
user opened, resolving names on the browser's asyncio loop, whatever the permissions: even a
mount that may reach private addresses must not reach the metadata service, and a page must not
reach file: or chrome: URLs.
"""

from __future__ import annotations

import asyncio
import socket
from collections.abc import Awaitable, Callable
from urllib.parse import urljoin, urlsplit, urlunsplit

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Route, WebSocketRoute

from webshellfs.errors import AccessDenied
from webshellfs.fetch.policy import ALLOWED_SCHEMES, AddressRules

# WebSocket URLs are judged as the HTTP URL their handshake goes to.
_WEB_SOCKET_SCHEMES = {"ws": "http", "wss": "https"}
# Schemes that never leave the browser; a page may use them for its own subresources.
_LOCAL_SCHEMES = ("data", "blob", "about")

# Node's socket errors (what route.fetch reports, and what the gate answers with when it
# cannot reach a destination) → Chromium's abort codes, and the network errors they are.
_SOCKET_ERRORS = (
    ("ECONNREFUSED", "connectionrefused", "ERR_CONNECTION_REFUSED"),
    ("ECONNRESET", "connectionreset", "ERR_CONNECTION_RESET"),
    ("ENOTFOUND", "namenotresolved", "ERR_NAME_NOT_RESOLVED"),
    ("EAI_AGAIN", "namenotresolved", "ERR_NAME_NOT_RESOLVED"),
    ("ETIMEDOUT", "timedout", "ERR_TIMED_OUT"),
    ("EHOSTUNREACH", "addressunreachable", "ERR_ADDRESS_UNREACHABLE"),
    ("ENETUNREACH", "internetdisconnected", "ERR_INTERNET_DISCONNECTED"),
)


def abort_code(message: str) -> str:
    return next((code for marker, code, _ in _SOCKET_ERRORS if marker in message), "failed")


def net_error(message: str) -> str:
    """Chromium's name for the network error a socket error is (net::ERR_CONNECTION_REFUSED)."""
    return "net::" + next((error for marker, _, error in _SOCKET_ERRORS if marker in message),
                          "ERR_FAILED")


# Chromium's error for an HTTPS connection the gate did not open (refused or unreachable).
TUNNEL_FAILURE = "ERR_TUNNEL_CONNECTION_FAILED"
# Chromium's errors for a request refused by the route handler or by the gate.
_REFUSAL_ERRORS = ("ERR_BLOCKED_BY_CLIENT", "ERR_HTTP_RESPONSE_CODE_FAILURE", TUNNEL_FAILURE)

Resolver = Callable[[str, int], Awaitable[list[str]]]
Streams = tuple[asyncio.StreamReader, asyncio.StreamWriter]
Connector = Callable[[str, int], Awaitable[Streams]]
# Chromium's own limit on a response head; the gate reads heads with it.
HEAD_LIMIT = 256 * 1024
# The header of the gate's own answers (refused, or the destination unreachable).
GATE_HEADER = "X-Webshellfs-Gate"


RESOLVE_TIMEOUT = 10.0
# How a refusal for a name that does not resolve begins.
UNRESOLVED = "cannot resolve the host"
# Servers the gate remembers not reaching (policy.unreachable), for the error of a load.
MAX_UNREACHABLE = 256


def server_of(url: str) -> tuple[str, int] | None:
    """The host and port a connection for url goes to; None when it names no host or a bad
    port."""
    parts = urlsplit(url)
    try:
        port = parts.port or (443 if parts.scheme.lower() == "https" else 80)
    except ValueError:
        return None
    return (parts.hostname, port) if parts.hostname else None


async def system_resolver(host: str, port: int) -> list[str]:
    """The system's addresses for host; a resolver that hangs counts as a failure (OSError)."""
    lookup = asyncio.get_running_loop().getaddrinfo(host, port, type=socket.SOCK_STREAM)
    infos = await asyncio.wait_for(lookup, RESOLVE_TIMEOUT)
    return [str(info[4][0]) for info in infos]


async def open_tcp(address: str, port: int) -> Streams:
    """A TCP connection to an address the policy judged."""
    return await asyncio.open_connection(address, port, limit=HEAD_LIMIT)


class NetworkPolicy:
    """Decides, per URL, whether the page may reach it; remembers what it refused."""

    def __init__(self, rules: AddressRules, resolver: Resolver = system_resolver,
                 connector: Connector = open_tcp) -> None:
        """resolver and connector: how names are resolved and judged addresses reached (the
        gate connects only through `connect`); tests may make a name look public."""
        self.rules = rules
        self._resolve = resolver
        self.connect = connector
        self._verdicts: dict[tuple[str, int], tuple[str, list[str]]] = {}
        self.refused: list[str] = []
        # (host, port) → why the gate last failed to connect there (ECONNREFUSED…): Chromium
        # reports a tunnel it could not open as ERR_TUNNEL_CONNECTION_FAILED, whatever the cause.
        self.unreachable: dict[tuple[str, int], str] = {}

    async def refusal(self, url: str, *, top_level: bool) -> str:
        """Why url must not be fetched, or "" if it may."""
        parts = urlsplit(url)
        if parts.scheme.lower() in _LOCAL_SCHEMES and not top_level:
            return ""
        reason, _ = await self.destination(url)
        return reason

    async def destination(self, url: str) -> tuple[str, list[str]]:
        """(why url must not be fetched, ""), or ("", the addresses judged for its host): a
        connection for url goes to one of those and nowhere else (gate.py). A host is judged
        once per session, so a name cannot resolve to something else later."""
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        if scheme not in ALLOWED_SCHEMES:
            shown = f"{scheme}:" if scheme else "a URL without a scheme"
            return f"only http and https URLs can be opened; {shown} is refused: {url}", []
        server = server_of(url)
        if server is None:
            problem = "has a bad port" if parts.hostname else "has no host"
            return f"the URL {problem}: {url}", []
        if server not in self._verdicts:
            self._verdicts[server] = await self._judge(*server)
        verdict, addresses = self._verdicts[server]
        if verdict.startswith("resolves"):
            return f"{url} {verdict}", []
        return verdict, addresses

    async def _judge(self, host: str, port: int) -> tuple[str, list[str]]:
        """What is wrong with a host, independent of the URL ("" if nothing), and its
        addresses."""
        try:
            addresses = list(dict.fromkeys(await self._resolve(host, port)))
        except OSError as error:
            return f"{UNRESOLVED} {host}: {error}", []
        return self.rules.refusal(addresses), addresses

    async def check(self, url: str) -> None:
        """For a URL the user asked for: raise AccessDenied if refused."""
        reason = await self.refusal(url, top_level=True)
        if reason:
            raise AccessDenied(reason)

    async def route(self, route: Route) -> None:
        """Route handler for the whole context: abort what the policy refuses.

        Chromium follows redirects without asking route handlers again: a document's first
        Location is checked here (so the refusal is this load's error), and every hop of
        every request is judged again by the gate (gate.py) as its connection is opened."""
        request = route.request
        reason = await self.refusal(request.url, top_level=False)
        if reason:
            await self._refuse(route, reason)
            return
        if request.resource_type != "document":
            await route.fallback()
            return
        try:
            response = await route.fetch(max_redirects=0)
        except PlaywrightError as error:
            # Unanswered, the route would hang the load until its timeout; aborted with the
            # matching network error, the page fails the way it would have without us.
            await route.abort("blockedbyclient" if self.cut(request.url)
                              else abort_code(str(error)))
            return
        gate = response.headers.get(GATE_HEADER.lower())
        if gate is not None or self.cut(request.url):
            # The gate answered instead of the server: refused (the reason is noted), or
            # unreachable, which Chromium would have reported as that network error; or it
            # cut the body off (over the size limit, noted), which is a refusal too.
            await route.abort(abort_code(gate) if gate not in (None, "refused")
                              else "blockedbyclient")
            return
        location = response.headers.get("location")
        if 300 <= response.status < 400 and location:
            reason = await self.refusal(urljoin(request.url, location), top_level=True)
            if reason:
                await self._refuse(route, reason)
                return
        await route.fulfill(response=response)

    async def route_web_socket(self, socket: WebSocketRoute) -> None:
        """WebSocket handler for the whole context (route handlers never see WebSockets):
        connect only where the page could fetch, else close with a policy-violation code."""
        parts = urlsplit(socket.url)
        handshake = urlunsplit(parts._replace(
            scheme=_WEB_SOCKET_SCHEMES.get(parts.scheme.lower(), parts.scheme)))
        reason = await self.refusal(handshake, top_level=True)
        if reason:
            self.refused.append(reason.replace(handshake, socket.url, 1))
            await socket.close(code=1008, reason="refused by the network policy")
            return
        socket.connect_to_server()

    def note_unreachable(self, server: tuple[str, int], why: str) -> None:
        if len(self.unreachable) >= MAX_UNREACHABLE:
            self.unreachable.clear()
        self.unreachable[server] = why

    def note_reached(self, server: tuple[str, int]) -> None:
        self.unreachable.pop(server, None)

    def unreachable_error(self, url: str) -> str:
        """Chromium's name for why the gate could not reach url's server, or ""."""
        why = self.unreachable.get(server_of(url) or ("", 0))
        return net_error(why) if why else ""

    def caused(self, error: str) -> bool:
        """Whether a browser error is the policy's doing: a request aborted by the route
        handler, or a hop the gate refused (Chromium reports a proxy's refusal of a page as
        a failed response code, or of a tunnel as a failed tunnel), with its reason pending
        in `refused`."""
        return bool(self.refused) and any(code in error for code in _REFUSAL_ERRORS)

    def cut(self, url: str) -> bool:
        """Whether the gate has just cut url's response off (its note is pending)."""
        return any(note.startswith(f"{url} ") for note in self.refused)

    async def _refuse(self, route: Route, reason: str) -> None:
        self.refused.append(reason)
        await route.abort("blockedbyclient")

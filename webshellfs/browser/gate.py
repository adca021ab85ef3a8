"""The gate: an HTTP proxy on 127.0.0.1 that a local Chromium sends all its traffic through, so
the network policy sees every connection the browser opens.

Playwright's route handlers (policy.py) are never shown the hops of a redirect, neither for a
subresource nor for a page: Chromium's network stack follows them on its own. Here each
connection is judged as it is opened — every hop of every redirect, WebSocket handshakes,
whatever the page asks for — after resolving its host, and made only to the address that was
judged, so DNS rebinding between the check and the connection cannot slip through either.

HTTPS (and anything tunnelled with CONNECT) is passed through as opaque bytes once its
destination is allowed. Plain HTTP is forwarded one request per connection; its response's
Content-Encoding is inflated here only to be counted, never kept, and the response is cut
when its decoded size passes the body limit: a decompression bomb reaches Chromium no further
than the limit. Inside TLS that count is impossible; see docs/security.md.
"""

from __future__ import annotations

import asyncio
import contextlib
import errno
import zlib
from urllib.parse import urlsplit

from webshellfs.browser.policy import (
    GATE_HEADER,
    HEAD_LIMIT,
    UNRESOLVED,
    NetworkPolicy,
    Streams,
    server_of,
)

CHUNK = 64 * 1024
# A client that opens a connection and says nothing is dropped after this long.
HEAD_TIMEOUT = 30.0
CONNECT_TIMEOUT = 15.0
# Hop-by-hop headers of the client's request that are not forwarded (RFC 9110 §7.6.1), plus
# the proxy's own; the gate sets Connection itself.
_HOP_BY_HOP = frozenset({b"connection", b"proxy-connection", b"keep-alive", b"te", b"trailer",
                         b"upgrade", b"proxy-authorization", b"expect"})
# What plain-HTTP requests may ask for: the encodings the gate can count while inflating.
ACCEPT_ENCODING = b"gzip, deflate"
_WBITS = {b"gzip": zlib.MAX_WBITS | 16, b"x-gzip": zlib.MAX_WBITS | 16, b"deflate": zlib.MAX_WBITS}
# The first byte of a TLS record carrying a handshake: what a CONNECT tunnel for HTTPS starts with.
_TLS_HANDSHAKE = b"\x16"
# Chromium sends requests for loopback addresses past any proxy unless its bypass list says
# `<-loopback>`. Playwright adds that itself, but not when the environment holds
# PLAYWRIGHT_DISABLE_FORCED_CHROMIUM_PROXIED_LOOPBACK: said here, the gate sees loopback
# traffic whatever the environment the daemon was started from.
PROXY_BYPASS = "<-loopback>"
# The gate's own answers say so in GATE_HEADER (policy.py and session.py read it): "refused",
# or why the destination could not be reached (ECONNREFUSED…). A refusal is empty, and
# Chromium fails a page answered so (ERR_HTTP_RESPONSE_CODE_FAILURE) instead of showing it:
# nothing is loaded from a refused address, not even its favicon. An unreachable server's answer
# carries a line saying so, for the page the load then is (a person's browser says as much).
_ANSWER_HEAD = ("HTTP/1.1 {status}\r\n" + GATE_HEADER + ": {why}\r\n"
                "Content-Type: text/plain; charset=utf-8\r\nContent-Length: {length}\r\n"
                "Connection: close\r\n\r\n")


def _answer(status: str, why: str, text: str = "") -> bytes:
    body = f"webshellfs: {text}\n".encode() if text else b""
    return _ANSWER_HEAD.format(status=status, why=why, length=len(body)).encode() + body


_REFUSED = _answer("403 Forbidden", "refused")


def _unreachable(why: str) -> bytes:
    return _answer("502 Bad Gateway", why, f"the server could not be reached ({why})")


class Gate:
    """The proxy for one browser session; `start` once on the browser's loop."""

    def __init__(self, policy: NetworkPolicy, max_body_bytes: int) -> None:
        self.policy = policy
        self.max_body_bytes = max_body_bytes
        self._server: asyncio.Server | None = None
        # The connections being served. asyncio's stream server forgets a connection's task
        # when the browser's end goes away; held here, it is never collected while pending.
        self._serving: set[asyncio.Task[None]] = set()

    async def proxy(self) -> dict[str, str]:
        """Playwright's proxy settings that send all of a browser's traffic through the gate."""
        return {"server": await self.start(), "bypass": PROXY_BYPASS}

    async def start(self) -> str:
        """The proxy's URL, for Chromium's `--proxy-server`."""
        if self._server is None:
            self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0,
                                                      limit=HEAD_LIMIT)
        port = self._server.sockets[0].getsockname()[1]
        return f"http://127.0.0.1:{port}"

    async def close(self) -> None:
        if self._server is not None:
            self._server.close()
            self._server = None
        for task in list(self._serving):
            task.cancel()

    async def _serve(self, client: asyncio.StreamReader, out: asyncio.StreamWriter) -> None:
        task = asyncio.current_task()
        assert task is not None  # a stream server's callback always runs in a task
        self._serving.add(task)
        try:
            head = await asyncio.wait_for(client.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
            request_line, _, header_block = head.partition(b"\r\n")
            method, target, _version = request_line.split(b" ", 2)
            if method == b"CONNECT":
                await self._tunnel(target.decode("latin-1"), client, out)
            else:
                await self._forward(method, target.decode("latin-1"), header_block, client, out)
        except (OSError, ValueError, asyncio.IncompleteReadError, asyncio.LimitOverrunError,
                TimeoutError):
            pass  # the browser sees a closed connection, which is what happened
        except asyncio.CancelledError:
            # close() at unmount: end quietly. Python 3.11's stream server asks a cancelled
            # callback task for its exception, which logs the cancellation as an ERROR.
            pass
        finally:
            out.close()
            self._serving.discard(task)

    async def _open(self, url: str, out: asyncio.StreamWriter, shown: str) -> Streams | None:
        """A connection to url's host at the address the policy judged, or None (answered).
        A refusal by the address rules is noted, naming `shown`; a name that does not resolve
        is answered as unreachable, not noted (its load fails saying so, and the browser's own
        background requests would fill the notes offline)."""
        reason, addresses = await self.policy.destination(url)
        server = server_of(url)
        if server is None or reason and not reason.startswith(UNRESOLVED):
            if " resolves to " in reason:
                self.policy.refused.append(reason.replace(url, shown, 1))
            out.write(_REFUSED)
            return None
        failure = "ENOTFOUND" if reason else "ECONNREFUSED"
        for address in addresses:
            try:
                opened = await asyncio.wait_for(self.policy.connect(address, server[1]),
                                                CONNECT_TIMEOUT)
            except TimeoutError:
                failure = "ETIMEDOUT"
            except OSError as error:
                failure = errno.errorcode.get(error.errno or 0, failure)
            else:
                self.policy.note_reached(server)
                return opened
        self.policy.note_unreachable(server, failure)
        out.write(_unreachable(failure))
        return None

    async def _tunnel(self, authority: str, client: asyncio.StreamReader,
                      out: asyncio.StreamWriter) -> None:
        """CONNECT: TLS passes through as is; plain HTTP sent through a tunnel (Playwright's
        own requests do that) is relayed like any plain-HTTP request, its body counted."""
        opened = await self._open(f"https://{authority}/", out, authority)
        if opened is None:
            return
        server, upstream = opened
        out.write(b"HTTP/1.1 200 Connection established\r\n\r\n")
        try:
            first = await client.readexactly(1)
            if first == _TLS_HANDSHAKE:
                upstream.write(first)
                await _relay_both(client, upstream, server, out)
                return
            head = first + await asyncio.wait_for(client.readuntil(b"\r\n\r\n"), HEAD_TIMEOUT)
            request_line, _, header_block = head.partition(b"\r\n")
            method, path, _version = request_line.split(b" ", 2)
            headers = dict(_header_lines(header_block))
            if b"upgrade" in headers:
                # A WebSocket handshake (Chromium tunnels ws: too): its destination is judged;
                # what follows is frames, not a body to count.
                upstream.write(head)
                await _relay_both(client, upstream, server, out)
                return
            host = headers.get(b"host", authority.encode("latin-1"))
            url = f"http://{host.decode('latin-1')}{path.decode('latin-1')}"
            await self._exchange(method, url, header_block, (server, upstream), client, out)
        finally:
            upstream.close()

    async def _forward(self, method: bytes, url: str, header_block: bytes,
                       client: asyncio.StreamReader, out: asyncio.StreamWriter) -> None:
        parts = urlsplit(url)
        if parts.scheme != "http":
            out.write(_answer("400 Bad Request", "not http"))
            return
        opened = await self._open(url, out, url)
        if opened is None:
            return
        try:
            await self._exchange(method, url, header_block, opened, client, out)
        finally:
            opened[1].close()

    async def _exchange(self, method: bytes, url: str, header_block: bytes, opened: Streams,
                        client: asyncio.StreamReader, out: asyncio.StreamWriter) -> None:
        """One plain-HTTP request to the opened connection and its response back."""
        server, upstream = opened
        parts = urlsplit(url)
        path = parts.path or "/"
        if parts.query:
            path += "?" + parts.query
        upstream.write(_request_head(method, path, header_block))
        sending = asyncio.ensure_future(_pump(client, upstream))
        try:
            await self._relay_response(url, server, out)
        finally:
            sending.cancel()

    async def _relay_response(self, url: str, server: asyncio.StreamReader,
                              out: asyncio.StreamWriter) -> None:
        """The response, head as is but for Connection, body counted while it streams."""
        head = await server.readuntil(b"\r\n\r\n")
        status_line, _, header_block = head.partition(b"\r\n")
        headers = _header_lines(header_block)
        encoding = b",".join(value for name, value in headers
                             if name == b"content-encoding").strip().lower()
        kept = [line for line in header_block.split(b"\r\n")
                if line and line.split(b":", 1)[0].strip().lower() not in _HOP_BY_HOP]
        declared = dict(headers).get(b"content-length", b"")
        if not encoding and declared.isdigit() and int(declared) > self.max_body_bytes:
            # The fetch room's words for the same refusal (fetch_raw's, before the gate).
            self.policy.refused.append(f"{url} is {int(declared)} bytes, over the limit of "
                                       f"{self.max_body_bytes}")
            out.write(_REFUSED)
            return
        out.write(b"\r\n".join([status_line, *kept, b"Connection: close", b"", b""]))
        counter = _InflatedSize(encoding, self.max_body_bytes)
        while chunk := await server.read(CHUNK):
            problem = counter.add(chunk)
            if problem:
                self.policy.refused.append(f"{url} {problem}")
                out.transport.abort()
                return
            out.write(chunk)
            await out.drain()


def _header_lines(block: bytes) -> list[tuple[bytes, bytes]]:
    pairs = []
    for line in block.split(b"\r\n"):
        name, sep, value = line.partition(b":")
        if sep:
            pairs.append((name.strip().lower(), value.strip()))
    return pairs


def _request_head(method: bytes, path: str, header_block: bytes) -> bytes:
    """The client's request for the origin server: origin-form target, HTTP/1.0 so that the
    answer is never chunked (the gate counts the body as it comes), one request per
    connection, and only encodings the gate can count."""
    lines = [method + b" " + path.encode("latin-1") + b" HTTP/1.0"]
    for line in header_block.split(b"\r\n"):
        name = line.split(b":", 1)[0].strip().lower()
        if not line or name in _HOP_BY_HOP:
            continue
        lines.append(b"Accept-Encoding: " + ACCEPT_ENCODING if name == b"accept-encoding" else line)
    lines += [b"Connection: close", b"", b""]
    return b"\r\n".join(lines)


class _InflatedSize:
    """Counts a response body's size after its Content-Encoding is undone, holding at most
    CHUNK decoded bytes at a time."""

    def __init__(self, encoding: bytes, limit: int) -> None:
        self.limit = limit
        self.total = 0
        self.problem = ""
        codings = [c.strip() for c in encoding.split(b",") if c.strip() not in (b"", b"identity")]
        self._inflater = None
        self._wbits = 0
        if len(codings) > 1 or (codings and codings[0] not in _WBITS):
            self.problem = (f"has a content encoding the browser's gate cannot check "
                            f"({encoding.decode('latin-1')}); the response was cut off")
        elif codings:
            self._wbits = _WBITS[codings[0]]
            self._inflater = zlib.decompressobj(self._wbits)

    def add(self, data: bytes) -> str:
        """"" while the body is within the limit, else what is wrong with it."""
        if self.problem:
            return self.problem
        if self._inflater is None:
            self.total += len(data)
            return self._over()
        try:
            while data and not self._inflater.eof:
                self.total += len(self._inflater.decompress(data, CHUNK))
                data = self._inflater.unconsumed_tail
                if self._over():
                    return self._over()
        except zlib.error as error:
            if self._wbits == zlib.MAX_WBITS and self.total == 0:
                # "deflate" is sent both zlib-wrapped (as specified) and raw, as browsers accept.
                self._wbits = -zlib.MAX_WBITS
                self._inflater = zlib.decompressobj(self._wbits)
                return self.add(data)
            return f"has a body that is not valid as its content encoding says ({error})"
        return ""

    def _over(self) -> str:
        if self.total <= self.limit:
            return ""
        if self._inflater is None:
            return f"is larger than {self.limit} bytes; the response was cut off"
        return f"inflates past the limit of {self.limit} bytes; the response was cut off"


async def _relay_both(client: asyncio.StreamReader, upstream: asyncio.StreamWriter,
                      server: asyncio.StreamReader, out: asyncio.StreamWriter) -> None:
    """Copy both ways until either side is done (then the other is closed by the caller)."""
    pumps = {asyncio.ensure_future(_pump(client, upstream)),
             asyncio.ensure_future(_pump(server, out))}
    try:
        await asyncio.wait(pumps, return_when=asyncio.FIRST_COMPLETED)
    finally:
        for pump in pumps:
            pump.cancel()


async def _pump(source: asyncio.StreamReader, sink: asyncio.StreamWriter) -> None:
    """Copy until end of stream, with back-pressure (never more than a chunk held)."""
    with contextlib.suppress(OSError):
        while data := await source.read(CHUNK):
            sink.write(data)
            await sink.drain()
        if sink.can_write_eof():
            sink.write_eof()

"""A fixture site on 127.0.0.1 whose pages are generated as they are sent, never read from
files: pages too big to keep in the repository, and pages that make a command wait.

    /huge?mb=N                 N MiB of HTML paragraphs, streamed without a Content-Length
    /cells?n=N&cols=C          one table of N cells, C to a row (1000 by default), streamed
    /filler?n=N&kb=K           a page of K KiB of text that differs on every request (fills a disk)
    /form?delay=S              a form whose submit asks /answer?delay=S (30 by default)
    /answer?delay=S&q=WORD     waits S seconds, then answers a page that names WORD
    /slow?delay=S              waits S seconds, then answers a small page

`arrived(path)` waits until a request for that path has come in (the moment a test kills
something mid-command).
"""

from __future__ import annotations

import html
import os
import threading
import time
from collections.abc import Callable, Iterator
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from urllib.parse import parse_qs, urlsplit

from tests.site import page_html

CHUNK = 64 * 1024
FORM = (
    '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>Slow form</title></head>'
    '<body><main><h1>Slow form</h1><form action="/answer" method="get">'
    '<label for="q">Word</label><input id="q" name="q" type="text">'
    '<input type="hidden" name="delay" value="{delay}">'
    '<button type="submit">Send</button></form></main></body></html>'
)

Query = dict[str, list[str]]


def _huge(mib: int) -> Iterator[bytes]:
    yield b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>Huge page</title></head><body>'
    paragraph = b"<p>" + b"All work and no play makes a very long page. " * 20 + b"</p>\n"
    total = mib * 1024 * 1024
    sent = 0
    while sent < total:
        block = paragraph * (CHUNK // len(paragraph) + 1)
        yield block
        sent += len(block)
    yield b"</body></html>"


def _cells(count: int, columns: int) -> Iterator[bytes]:
    yield (b'<!DOCTYPE html><html><head><meta charset="utf-8"><title>A million cells</title>'
           b"</head><body><main><h1>A million cells</h1><table><caption>Cells</caption>")
    rows: list[bytes] = []
    for row in range(count // columns):
        cells = "".join(f"<td>{row}.{column}</td>" for column in range(columns))
        rows.append(f"<tr>{cells}</tr>\n".encode())
        if len(rows) == 50:
            yield b"".join(rows)
            rows.clear()
    yield b"".join(rows) + b"</table></main></body></html>"


class GeneratedSite:
    """The running site. `url(path)` gives an absolute URL on it."""

    def __init__(self) -> None:
        self._seen: set[str] = set()
        self._arrival = threading.Condition()
        self._stop = threading.Event()
        site = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: object) -> None:
                return

            def do_GET(self) -> None:
                parts = urlsplit(self.path)
                with site._arrival:
                    site._seen.add(parts.path)
                    site._arrival.notify_all()
                route = site._routes().get(parts.path)
                if route is None:
                    self._send(HTTPStatus.NOT_FOUND, [page_html("Not found", "")])
                    return
                self._send(HTTPStatus.OK, route(parse_qs(parts.query)))

            def _send(self, status: HTTPStatus, body: Iterator[bytes] | list[bytes]) -> None:
                self.send_response(status)
                self.send_header("Content-Type", "text/html; charset=utf-8")
                self.end_headers()  # no Content-Length: the body ends when the connection does
                try:
                    for chunk in body:
                        self.wfile.write(chunk)
                except (BrokenPipeError, ConnectionResetError):
                    pass  # the client gave up (a size cap, a killed daemon or browser)

        self._server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self._server.daemon_threads = True
        self._server.block_on_close = False
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="generated-site")
        self._thread.start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"

    def _routes(self) -> dict[str, Callable[[Query], Iterator[bytes] | list[bytes]]]:
        def number(query: Query, name: str, default: int) -> int:
            return int(query.get(name, [str(default)])[0])

        return {
            "/huge": lambda q: _huge(number(q, "mb", 1)),
            "/cells": lambda q: _cells(number(q, "n", 1000), number(q, "cols", 1000)),
            "/filler": self._filler,
            "/form": lambda q: [FORM.replace("{delay}", str(number(q, "delay", 30))).encode()],
            "/answer": self._answer,
            "/slow": self._slow,
        }

    def _filler(self, query: Query) -> list[bytes]:
        n = query.get("n", ["0"])[0]
        kib = int(query.get("kb", ["64"])[0])
        # Hex of random bytes: text no two pages share, so the store keeps every byte of it.
        words = os.urandom(kib * 512).hex()
        lines = "".join(f"<p>{words[i:i + 1000]}</p>" for i in range(0, len(words), 1000))
        return [page_html(f"Filler page {n}", lines)]

    def _wait(self, query: Query) -> None:
        self._stop.wait(float(query.get("delay", ["1"])[0]))

    def _answer(self, query: Query) -> list[bytes]:
        self._wait(query)
        word = query.get("q", [""])[0]
        return [page_html("Answer", f"<p>You sent {html.escape(word)}.</p>")]

    def _slow(self, query: Query) -> list[bytes]:
        self._wait(query)
        return [page_html("Slow page", "<p>This page took its time.</p>")]

    def url(self, path: str) -> str:
        return self.base + path

    def arrived(self, path: str, timeout: float = 60.0) -> bool:
        """Wait until a request for path has come in; False if none within timeout."""
        deadline = time.monotonic() + timeout
        with self._arrival:
            while path not in self._seen:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                self._arrival.wait(left)
        return True

    def forget(self, path: str) -> None:
        with self._arrival:
            self._seen.discard(path)

    def close(self) -> None:
        self._stop.set()  # slow answers return at once
        self._server.shutdown()
        self._server.server_close()

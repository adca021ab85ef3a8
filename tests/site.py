"""The fixture web site the tests fetch from: a threaded HTTP server on 127.0.0.1.

It serves the files under fixtures/site/ and a few routes made up on the fly:

    /slow?delay=SECONDS[&tag=WORD]   waits, then answers a small page (a command that takes long)
    /missing                         404
    /redirect?to=PATH                302 to PATH on this site
    /generated?n=N                   a page whose title and text carry N (many distinct pages)

Run it alone with `python -m tests.site [PORT]` to look at the pages.
"""

from __future__ import annotations

import html
import sys
import threading
import time
from collections.abc import Callable
from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

SITE_ROOT = Path(__file__).resolve().parent.parent / "fixtures" / "site"

Query = dict[str, list[str]]


def page_html(title: str, body: str) -> bytes:
    """A small whole page (the fixture servers' own pages): the title as <title> and <h1>,
    then body, in <main>."""
    return (
        "<!DOCTYPE html><html lang=\"en\"><head><meta charset=\"utf-8\">"
        f"<title>{html.escape(title)}</title></head><body><main><h1>{html.escape(title)}</h1>"
        f"{body}</main></body></html>"
    ).encode()


class RecordingHandler(BaseHTTPRequestHandler):
    """A fixture site's handler: each request is logged in `requests` as (method, path), a
    page is sent whole or as a 404, and any POST gets a small page (the sites' traps)."""

    requests: list[tuple[str, str]]

    def log_message(self, format: str, *args: object) -> None:
        return

    def send_html(self, body: bytes | None) -> None:
        if body is None:
            send_body(self, HTTPStatus.NOT_FOUND, "text/html; charset=utf-8",
                      b"<!DOCTYPE html><title>Not found</title><p>No such page.</p>")
        else:
            send_body(self, HTTPStatus.OK, "text/html; charset=utf-8", body)

    def do_POST(self) -> None:
        self.requests.append(("POST", self.path))
        self.send_html(b"<!DOCTYPE html><p>Done.</p>")


class LoopbackServer:
    """An HTTP server on 127.0.0.1 (port 0: any free one) answering in a thread of its own,
    for the fixture sites: `base`, `url(path)`, `close()`."""

    def __init__(self, handler: Callable[..., BaseHTTPRequestHandler], port: int = 0,
                 name: str = "site") -> None:
        self._server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._server.daemon_threads = True
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name=name)
        self._thread.start()

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


def send_body(
    handler: BaseHTTPRequestHandler, status: HTTPStatus, content_type: str, body: bytes,
    headers: tuple[tuple[str, str], ...] = (),
) -> None:
    """A whole response from a test server, with any other headers; a client that gave up
    first (a test of deadlines, a killed daemon) is no error of the server's."""
    handler.send_response(status)
    handler.send_header("Content-Type", content_type)
    for name, value in headers:
        handler.send_header(name, value)
    handler.send_header("Content-Length", str(len(body)))
    handler.end_headers()
    try:
        handler.wfile.write(body)
    except (BrokenPipeError, ConnectionResetError):
        pass


class _Handler(SimpleHTTPRequestHandler):
    def _routes(self) -> dict[str, Callable[[Query], None]]:
        return {
            "/slow": self._slow,
            "/missing": self._missing,
            "/redirect": self._redirect,
            "/generated": self._generated,
        }

    def do_GET(self) -> None:
        parts = urlsplit(self.path)
        route = self._routes().get(parts.path)
        if route is None:
            super().do_GET()
        else:
            route(parse_qs(parts.query))

    def _send_html(self, status: HTTPStatus, body: bytes) -> None:
        send_body(self, status, "text/html; charset=utf-8", body)

    def _slow(self, query: Query) -> None:
        delay = float(query.get("delay", ["1"])[0])
        tag = query.get("tag", ["slow"])[0]
        time.sleep(delay)
        self._send_html(HTTPStatus.OK, page_html(f"Slow page {tag}",
                                             f"<p>This page took {delay} seconds ({tag}).</p>"))

    def _missing(self, query: Query) -> None:
        self._send_html(HTTPStatus.NOT_FOUND, page_html("Not found", "<p>No such page.</p>"))

    def _redirect(self, query: Query) -> None:
        self.send_response(HTTPStatus.FOUND)
        self.send_header("Location", query.get("to", ["/index.html"])[0])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _generated(self, query: Query) -> None:
        n = query.get("n", ["0"])[0]
        self._send_html(HTTPStatus.OK, page_html(f"Generated page {n}",
                                             f"<p>Generated text number {n}.</p>"))

    def log_message(self, format: str, *args: object) -> None:
        pass  # the tests' output stays readable; failures show in assertions


class FixtureSite:
    """A running fixture server. Attributes: base (e.g. "http://127.0.0.1:41234")."""

    def __init__(self, port: int = 0) -> None:
        handler = partial(_Handler, directory=str(SITE_ROOT))
        self._server = ThreadingHTTPServer(("127.0.0.1", port), handler)
        self._server.daemon_threads = True
        host, bound_port = self._server.server_address[:2]
        self.base = f"http://{host}:{bound_port}"
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True,
                                        name="fixture-site")

    def url(self, path: str) -> str:
        return self.base + (path if path.startswith("/") else "/" + path)

    def start(self) -> FixtureSite:
        self._thread.start()
        return self

    def stop(self) -> None:
        self._server.shutdown()
        self._server.server_close()
        self._thread.join()


if __name__ == "__main__":
    site = FixtureSite(int(sys.argv[1]) if len(sys.argv) > 1 else 8000).start()
    print(f"serving {SITE_ROOT} at {site.base}; Ctrl-C stops")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        site.stop()

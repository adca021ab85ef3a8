"""A fixture web site for the search tests, on 127.0.0.1: the pages listed in
fixtures/search/index.tsv (each failing in its own way), a SearXNG-format search endpoint over
them, and stand-ins for the Serper and Brave APIs that check the request and answer in each
service's documented format. Every request is recorded for the tests to inspect.

    /probe/…?delay=SECONDS           a page answered after that many seconds; the site counts
                                     how many probes it answers at once (`peak_in_flight`)
    /search?q=…&format=json          SearXNG JSON over the index (answers 403 without format=json)
    /serper/search                   POST, X-API-KEY: test-key → {"organic": [...]}
    /brave/res/v1/web/search         GET, X-Subscription-Token: test-key → {"web": {"results": [...]}}
    /refuse/search                   429 (a rate-limited service)
    /blockpage/search                200 with an HTML block page instead of JSON
"""

from __future__ import annotations

import json
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.search.pdfs import make_pdf
from webshellfs.search.local import LocalIndex, searxng_payload

INDEX = Path(__file__).resolve().parents[2] / "fixtures" / "search" / "index.tsv"
API_KEY = "test-key"
SLOW_SECONDS = 6.0  # at least 3 times the longest timeout a test gives a fetch
BIG_BYTES = 200_000


def _html(title: str, body: str) -> bytes:
    return (
        f"<!DOCTYPE html><html><head><title>{title}</title></head>"
        f"<body><h1>{title}</h1>{body}</body></html>"
    ).encode()


WALL = (
    b"<!DOCTYPE html><html><head><title>Just a moment...</title></head><body>"
    b'<div id="cf-challenge-running">Checking your browser before accessing.</div></body></html>'
)

# path → (status, content type, body, seconds to wait first)
PAGES: dict[str, tuple[int, str, bytes, float]] = {
    "/pages/normal.html": (
        200,
        "text/html; charset=utf-8",
        _html("Rain gardens", "<p>A rain garden soaks up storm water.</p>"),
        0,
    ),
    "/pages/missing.html": (404, "text/html", _html("Not found", "<p>Gone.</p>"), 0),
    "/pages/slow.html": (200, "text/html", _html("Slow gardens", "<p>Late.</p>"), SLOW_SECONDS),
    "/pages/paper.pdf": (
        200,
        "application/pdf",
        make_pdf(["Soil holds water.", "Roots need air."], {"/Title": "Garden paper"}),
        0,
    ),
    "/pages/wall.html": (403, "text/html", WALL, 0),
    "/pages/open-wall.html": (200, "text/html", WALL, 0),
    "/pages/rate-limited.html": (
        429,
        "text/html",
        _html("Sorry", "<p>Our systems have detected unusual traffic.</p>"),
        0,
    ),
    "/pages/captcha-article.html": (
        200,
        "text/html",
        _html("CAPTCHA", "<p>A CAPTCHA asks: are you a robot?</p>"),
        0,
    ),
    "/private/secret.html": (200, "text/html", _html("Secret gardens", "<p>Hidden.</p>"), 0),
    "/pages/archive.zip": (200, "application/zip", b"PK\x03\x04" + b"\x00" * 26, 0),
    "/pages/big.html": (
        200,
        "text/html",
        _html("Big gardens", "<p>" + "x" * BIG_BYTES + "</p>"),
        0,
    ),
    "/robots.txt": (200, "text/plain", b"User-agent: *\nDisallow: /private/\n", 0),
}


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    block_on_close = False  # a slow page must not hold up the end of the tests
    # The default listen backlog (5) drops simultaneous connections, which then wait a second
    # for the SYN to be retried: the concurrency tests open ten at once.
    request_queue_size = 64


@dataclass(frozen=True)
class Seen:
    method: str
    path: str
    query: dict[str, list[str]]
    headers: dict[str, str]
    body: bytes


@dataclass
class SearchSite:
    """The running site; `url` ends with "/". `peak_in_flight` is the most /probe/ requests
    it was answering at one moment (for the concurrency limits); `reset_peak` starts a new count."""

    server: ThreadingHTTPServer
    url: str
    requests: list[Seen] = field(default_factory=list)
    in_flight: int = 0
    peak_in_flight: int = 0
    lock: threading.Lock = field(default_factory=threading.Lock)

    def reset_peak(self) -> None:
        with self.lock:
            self.peak_in_flight = 0

    def enter(self) -> None:
        with self.lock:
            self.in_flight += 1
            self.peak_in_flight = max(self.peak_in_flight, self.in_flight)

    def leave(self) -> None:
        with self.lock:
            self.in_flight -= 1

    def seen(self, path: str) -> list[Seen]:
        return [r for r in self.requests if r.path == path]

    def stop(self) -> None:
        self.server.shutdown()
        self.server.server_close()


def start_site() -> SearchSite:
    site: SearchSite

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, format: str, *args: object) -> None:
            pass

        def do_GET(self) -> None:
            self._handle()

        def do_POST(self) -> None:
            self._handle()

        def _handle(self) -> None:
            parts = urlsplit(self.path)
            length = int(self.headers.get("Content-Length") or 0)
            seen = Seen(
                self.command,
                parts.path,
                parse_qs(parts.query),
                {k.lower(): v for k, v in self.headers.items()},
                self.rfile.read(length),
            )
            site.requests.append(seen)
            route = ROUTES.get(parts.path)
            if route is not None:
                status, content_type, body = route(seen)
                self._send(status, content_type, body)
            elif parts.path.startswith("/probe/"):
                site.enter()
                time.sleep(float(seen.query.get("delay", ["0"])[0]))
                site.leave()
                self._send(200, "text/html", _html("Probe", f"<p>{parts.path}</p>"))
            elif parts.path in PAGES:
                status, content_type, body, delay = PAGES[parts.path]
                time.sleep(delay)
                self._send(status, content_type, body)
            else:
                self._send(404, "text/html", _html("Not found", ""))

        def _send(self, status: int, content_type: str, body: bytes) -> None:
            try:
                self.send_response(status)
                self.send_header("Content-Type", content_type)
                self.send_header("Content-Length", str(len(body)))
                self.end_headers()
                self.wfile.write(body)
            except (BrokenPipeError, ConnectionResetError):
                pass  # the client gave up (a timeout test)

    server = _Server(("127.0.0.1", 0), Handler)
    site = SearchSite(server, f"http://127.0.0.1:{server.server_address[1]}/")
    index = LocalIndex.load(INDEX, site.url)

    def searxng(seen: Seen) -> tuple[int, str, bytes]:
        if seen.query.get("format") != ["json"]:
            return 403, "text/html", _html("Forbidden", "")
        payload = searxng_payload(index, seen.query.get("q", [""])[0])
        return 200, "application/json", json.dumps(payload).encode()

    def serper(seen: Seen) -> tuple[int, str, bytes]:
        if seen.method != "POST" or seen.headers.get("x-api-key") != API_KEY:
            return 403, "application/json", b'{"message": "Unauthorized."}'
        request = json.loads(seen.body)
        hits = index.matches(request["q"], int(request.get("num", 10)))
        organic = [
            {"title": e.title, "link": e.url, "snippet": e.snippet, "position": n}
            for n, e in enumerate(hits, start=1)
        ]
        return (
            200,
            "application/json",
            json.dumps({"searchParameters": request, "organic": organic}).encode(),
        )

    def brave(seen: Seen) -> tuple[int, str, bytes]:
        if seen.headers.get("x-subscription-token") != API_KEY:
            return 401, "application/json", b'{"type": "ErrorResponse"}'
        query = seen.query.get("q", [""])[0]
        hits = index.matches(query, int(seen.query.get("count", ["20"])[0]))
        if not hits:
            return (
                200,
                "application/json",
                json.dumps({"type": "search", "query": {"original": query}}).encode(),
            )
        results = [{"title": e.title, "url": e.url, "description": e.snippet} for e in hits]
        return (
            200,
            "application/json",
            json.dumps({"type": "search", "web": {"type": "search", "results": results}}).encode(),
        )

    ROUTES: dict[str, Callable[[Seen], tuple[int, str, bytes]]] = {
        "/search": searxng,
        "/serper/search": serper,
        "/brave/res/v1/web/search": brave,
        "/refuse/search": lambda seen: (429, "application/json", b'{"error": "too many requests"}'),
        "/blockpage/search": lambda seen: (200, "text/html", WALL),
    }
    threading.Thread(target=server.serve_forever, daemon=True).start()
    return site

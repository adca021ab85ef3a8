"""The live fixture site for browser tests and the browser benchmark: the pages under
fixtures/site/live/ plus the routes that need a server (a GET search, a POST login with a session
cookie, a JSON API for "load more", a page that never finishes loading), on 127.0.0.1."""

from __future__ import annotations

import html
import json
import threading
import time
from collections.abc import Callable
from functools import partial
from http import HTTPStatus
from http.cookies import SimpleCookie
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.browser.hostile_pages import HOSTILE_PAGES
from tests.site import page_html, send_body

LIVE_ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "site" / "live"
TOTAL_ITEMS = 40
SESSION_TOKEN = "s3ss10n-alice"
PASSWORD = "secret"
# What /export sends as an attachment (a download, not a page).
EXPORT_CSV = b"order,item,total\n1001,Trail shoe,45 EUR\n1002,Rain jacket,80 EUR\n"
# What /slow-image sends: a 14-pixel icon, like the one a hover swaps in.
SLOW_ICON = (b'<svg xmlns="http://www.w3.org/2000/svg" width="14" height="14">'
             b'<rect width="14" height="14" fill="#36c"/></svg>')


class _Handler(SimpleHTTPRequestHandler):
    stop: threading.Event
    requests: list[str]

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        self.requests.append(self.path)
        parts = urlsplit(self.path)
        routes: dict[str, Callable[[dict[str, list[str]]], None]] = {
            "/search": self._search,
            "/account": self._account,
            "/api/items": self._items,
            "/never": self._never,
            "/ssrf": self._ssrf,
            "/redirect": self._redirect,
            "/export": self._export,
            "/slow": self._slow,
            "/slow-image": self._slow_image,
            "/css-menu-elsewhere": self._css_menu_elsewhere,
        }
        route = routes.get(parts.path)
        if parts.path.startswith("/hostile/"):
            self._hostile(parts.path.removeprefix("/hostile/"), parse_qs(parts.query))
        elif route is None:
            super().do_GET()
        else:
            route(parse_qs(parts.query))

    def do_POST(self) -> None:
        self.requests.append(self.path)
        if urlsplit(self.path).path != "/login":
            self._send(HTTPStatus.NOT_FOUND, "text/html; charset=utf-8", page_html("Not found", ""))
            return
        length = int(self.headers.get("Content-Length", "0"))
        form = parse_qs(self.rfile.read(length).decode("utf-8"))
        user = form.get("user", [""])[0]
        if form.get("password", [""])[0] != PASSWORD:
            body = page_html("Sign in failed", "<p>Wrong user or password.</p>")
            self._send(HTTPStatus.OK, "text/html; charset=utf-8", body)
            return
        self.send_response(HTTPStatus.SEE_OTHER)
        self.send_header("Set-Cookie", f"session={SESSION_TOKEN}-{user}; Path=/; HttpOnly")
        self.send_header("Location", "/account")
        self.send_header("Content-Length", "0")
        self.end_headers()

    _send = send_body

    def _search(self, query: dict[str, list[str]]) -> None:
        words = query.get("q", [""])[0].strip()
        year = query.get("year", [""])[0] or "any year"
        if not words:
            body = page_html("Search", "<p>Enter a search term.</p>")
        else:
            items = "".join(
                f'<li><a href="/article/{n}">{html.escape(words.title())}, part {n}</a></li>'
                for n in (1, 2, 3)
            )
            body = page_html(f"Results for {words}",
                        f"<p>3 articles from {html.escape(year)}.</p><ol>{items}</ol>")
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", body)

    def _account(self, query: dict[str, list[str]]) -> None:
        cookie = SimpleCookie(self.headers.get("Cookie", ""))
        session = cookie["session"].value if "session" in cookie else ""
        if session.startswith(SESSION_TOKEN + "-"):
            user = session[len(SESSION_TOKEN) + 1:]
            body = page_html("Your account", f"<p>Signed in as {html.escape(user)}.</p>")
        else:
            body = page_html("Your account", "<p>Not signed in.</p>")
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", body)

    def _items(self, query: dict[str, list[str]]) -> None:
        offset = int(query.get("offset", ["0"])[0])
        limit = int(query.get("limit", ["10"])[0])
        names = [{"name": f"Item {n}"} for n in range(offset + 1, min(offset + limit, TOTAL_ITEMS) + 1)]
        data = {"items": names, "more": offset + limit < TOTAL_ITEMS}
        self._send(HTTPStatus.OK, "application/json", json.dumps(data).encode("utf-8"))

    def _slow(self, query: dict[str, list[str]]) -> None:
        time.sleep(0.5)
        self._send(HTTPStatus.OK, "text/html; charset=utf-8",
                   page_html("Slow answer", "<p>Worth the wait.</p>"))

    def _slow_image(self, query: dict[str, list[str]]) -> None:
        """An icon that takes `delay` seconds to arrive (a hover image still loading)."""
        time.sleep(float(query.get("delay", ["0.3"])[0]))
        self._send(HTTPStatus.OK, "image/svg+xml", SLOW_ICON)

    def _css_menu_elsewhere(self, query: dict[str, list[str]]) -> None:
        """Two CSS hover menus: one by the page's own rule, one by a stylesheet of another
        origin (the same server as `localhost`), which the page's scripts may not read."""
        elsewhere = f"http://localhost:{self.server.server_address[1]}/scripted/css-menu.css"
        body = page_html("Two menus", f"""<link rel="stylesheet" href="{elsewhere}">
<style>.bar ul {{ display: none; }} .here:hover > ul {{ display: block; }}</style>
<ul class="bar">
  <li class="here">Here<ul><li><a href="/here.html">Near</a></li></ul></li>
  <li class="hover">Elsewhere<ul><li><a href="/far.html">Far</a></li></ul></li>
</ul>""")
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", body)

    def _export(self, query: dict[str, list[str]]) -> None:
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/csv")
        self.send_header("Content-Disposition", 'attachment; filename="orders.csv"')
        self.send_header("Content-Length", str(len(EXPORT_CSV)))
        self.end_headers()
        self.wfile.write(EXPORT_CSV)

    def _hostile(self, name: str, query: dict[str, list[str]]) -> None:
        """A page of hostile_pages; /hostile/loop redirects to itself with a higher count."""
        if name == "loop":
            hop = int(query.get("hop", ["0"])[0]) + 1
            self.send_response(HTTPStatus.FOUND)
            self.send_header("Location", f"/hostile/loop?hop={hop}")
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        if name not in HOSTILE_PAGES:
            self._send(HTTPStatus.NOT_FOUND, "text/html; charset=utf-8", page_html("Not found", ""))
            return
        body = HOSTILE_PAGES[name].replace("{n}", query.get("n", ["1"])[0])
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", body.encode("utf-8"))

    def _redirect(self, query: dict[str, list[str]]) -> None:
        self.send_response(HTTPStatus.FOUND)
        self.send_header("Location", query.get("to", ["/index.html"])[0])
        self.send_header("Content-Length", "0")
        self.end_headers()

    def _ssrf(self, query: dict[str, list[str]]) -> None:
        """A page that tries to read this server through its loopback address (or `target`)."""
        loopback = f"http://127.0.0.1:{self.server.server_address[1]}/api/items?offset=0&limit=1"
        target = query.get("target", [loopback])[0]
        script = (f"fetch({json.dumps(target)}).then(() => 'leaked', () => 'blocked')"
                  ".then((word) => { document.getElementById('out').textContent ="
                  " 'Private data: ' + word; });")
        body = page_html("Innocent page", f'<p id="out">Private data: pending</p><script>{script}'
                                     "</script>")
        self._send(HTTPStatus.OK, "text/html; charset=utf-8", body)

    def _never(self, query: dict[str, list[str]]) -> None:
        """Headers and the start of a page, then nothing until the server stops."""
        self.send_response(HTTPStatus.OK)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.end_headers()
        try:
            self.wfile.write(b"<!DOCTYPE html><html><head><title>Never</title></head><body><p>Loading")
            self.wfile.flush()
            while not self.stop.wait(0.2):
                pass
        except (BrokenPipeError, ConnectionResetError):
            pass


class LiveSite:
    """A running live fixture site; `url(path)` gives an absolute URL on it."""

    def __init__(self) -> None:
        stop = threading.Event()
        self.requests: list[str] = []
        handler = type("Handler", (_Handler,), {"stop": stop, "requests": self.requests})
        self._stop = stop
        self._server = ThreadingHTTPServer(("127.0.0.1", 0),
                                           partial(handler, directory=str(LIVE_ROOT)))
        self._server.daemon_threads = True
        self._thread = threading.Thread(target=self._server.serve_forever, daemon=True)
        self._thread.start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self._stop.set()
        self._server.shutdown()
        self._server.server_close()


if __name__ == "__main__":
    site = LiveSite()
    print(site.base, flush=True)
    try:
        while True:
            time.sleep(3600)
    except KeyboardInterrupt:
        site.close()

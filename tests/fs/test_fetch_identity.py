"""What a site and the daemon's log see of each page fetched: the User-Agent docs/security.md
names (webshellfs's own over plain HTTP, Chromium's own in the browser), and one log line per
page stored, on browser mounts as on plain-HTTP ones."""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest

from tests.conftest import chromium_path, require
from tests.fs.conftest import Mount
from tests.site import page_html
from webshellfs import __version__


class _Recorder(BaseHTTPRequestHandler):
    seen: list[tuple[str, str]]  # (path, User-Agent) of every request, set per server

    def do_GET(self) -> None:
        self.seen.append((self.path, self.headers.get("User-Agent", "")))
        body = page_html("Who asks", "<p>Every request is noted.</p>")
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture
def recorder() -> Iterator[tuple[str, list[tuple[str, str]]]]:
    """A site on 127.0.0.1 that answers every path with a page: its base URL and the requests."""
    seen: list[tuple[str, str]] = []
    handler = type("Recorder", (_Recorder,), {"seen": seen})
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}", seen
    server.shutdown()
    server.server_close()


# The User-Agent a site sees from each kind of mount, as docs/security.md says.
USER_AGENT_FOR = {
    "http": re.compile(rf"webshellfs/{re.escape(__version__)}"),
    "local": re.compile(r"^Mozilla/5\.0 .* (Headless)?Chrome/\d+[.\d]* Safari/537\.36$"),
}


@pytest.mark.parametrize("browser", sorted(USER_AGENT_FOR))
def test_a_page_fetched_names_its_fetcher_and_is_logged(
    new_mount: Callable[[], Mount], recorder: tuple[str, list[tuple[str, str]]], browser: str
) -> None:
    if browser == "local":
        require(chromium_path() is not None, "Chromium")
    base, seen = recorder
    mount = new_mount().start("--browser", browser)
    result = mount.ctl(f"open {base}/who.html")
    assert result.returncode == 0, result.stdout
    pages = [agent for path, agent in seen if path == "/who.html"]
    assert pages and all(USER_AGENT_FOR[browser].search(agent) for agent in pages), pages
    assert f"INFO webshellfs.engine: stored N0001 (open): {base}/who.html, HTTP 200, " \
           "text/html, " in mount.log.read_text()

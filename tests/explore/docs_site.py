"""A small manual for the exploration tests, made in code and served on 127.0.0.1 with a log of
every request: a contents page; guide pages of one structure whose addresses differ by a slug
(/guide/<slug>.html); two old addresses that redirect to a guide page linked from nowhere else
(/guide/history.html); a chapter three links
deep (/chapter.html → /chapter/section.html → /chapter/section/note.html); a list of six
examples (/example/<n>.html) whose further items an exploration puts off.
"""

from __future__ import annotations

from functools import partial
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler

from tests.site import LoopbackServer, send_body

GUIDES = {"intro": "Introduction", "install": "Installing", "usage": "Everyday usage",
          "history": "History"}
CONTENTS = ("intro", "install", "usage")
EXAMPLES = 6
REDIRECTS = {"/old-intro.html": "/guide/history.html", "/moved/intro": "/guide/history.html"}
DEEP = ("/chapter.html", "/chapter/section.html", "/chapter/section/note.html")


def _page(title: str, body: str) -> bytes:
    return (f"<!DOCTYPE html><html><head><title>{title}</title></head><body>"
            f'<nav><a href="/index.html">Contents</a></nav>'
            f"<main><h1>{title}</h1>{body}</main></body></html>").encode("utf-8")


def _links(pairs: list[tuple[str, str]]) -> str:
    items = "".join(f'<li><a href="{href}">{text}</a></li>' for href, text in pairs)
    return f"<ul>{items}</ul>"


def page_for(path: str) -> bytes | None:
    """The manual's page at path, or None (404)."""
    if path in ("/", "/index.html"):
        contents = [(f"/guide/{slug}.html", GUIDES[slug]) for slug in CONTENTS]
        contents += [("/old-intro.html", "Introduction (old address)"),
                     ("/moved/intro", "Introduction (moved)"), ("/chapter.html", "Chapter"),
                     ("/examples.html", "Examples")]
        return _page("Manual", "<p>The contents of the manual.</p>" + _links(contents))
    slug = path.removeprefix("/guide/").removesuffix(".html")
    if path.startswith("/guide/") and slug in GUIDES:
        return _page(GUIDES[slug], f"<p>All about {GUIDES[slug].lower()}.</p><h2>See also</h2>"
                     + _links([("/index.html", "Contents")]))
    if path in DEEP:
        depth = DEEP.index(path)
        below = _links([(DEEP[depth + 1], f"Level {depth + 2}")]) if depth + 1 < len(DEEP) else ""
        return _page(f"Level {depth + 1}", f"<p>Text {depth + 1} levels down.</p>{below}")
    if path == "/examples.html":
        return _page("Examples", _links([(f"/example/{n}.html", f"Example {n}")
                                         for n in range(1, EXAMPLES + 1)]))
    number = path.removeprefix("/example/").removesuffix(".html")
    if path.startswith("/example/") and number.isdigit() and 1 <= int(number) <= EXAMPLES:
        return _page(f"Example {number}", f"<p>The code of example {number}.</p><table>"
                     f"<tr><th>line</th><th>code</th></tr><tr><td>1</td><td>x = {number}</td>"
                     "</tr></table>")
    return None


class _Handler(BaseHTTPRequestHandler):
    requests: list[str]

    def log_message(self, format: str, *args: object) -> None:
        return

    def do_GET(self) -> None:
        self.requests.append(self.path)
        if self.path in REDIRECTS:
            self.send_response(HTTPStatus.MOVED_PERMANENTLY)
            self.send_header("Location", REDIRECTS[self.path])
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        body = page_for(self.path)
        if body is None:
            send_body(self, HTTPStatus.NOT_FOUND, "text/html", b"<title>Not found</title>")
        else:
            send_body(self, HTTPStatus.OK, "text/html; charset=utf-8", body)


class DocsSite(LoopbackServer):
    """The manual on 127.0.0.1. Attributes: base, requests (paths in arrival order)."""

    def __init__(self) -> None:
        self.requests: list[str] = []
        handler = type("Handler", (_Handler,), {"requests": self.requests})
        super().__init__(partial(handler), 0, "docs-site")

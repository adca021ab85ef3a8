"""The fixture shop for exploration tests: pages made from the templates under
fixtures/explore/shop/ (a home page, two list templates' pages, product and article detail
pages, an about page with a form; a product finder whose search box suggests products and a
menu with a submenu, both linked from nowhere), on 127.0.0.1, with a log of every request it was sent.

The traps an exploration must never spring are real routes that the log would show: a "Log out"
link (/logout), a "Delete account", "Buy now" and "Unsubscribe" button (each a POST), forms
(POST /contact, POST /question), a page robots.txt disallows (/private/), a download
(/files/catalogue.zip). Run it alone with `python -m tests.explore.shop_site [PORT]`.
"""

from __future__ import annotations

import re
import sys
import threading
import time
from functools import partial
from http import HTTPStatus
from pathlib import Path
from urllib.parse import parse_qs, urlsplit

from tests.site import LoopbackServer, RecordingHandler, send_body

SHOP_ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "explore" / "shop"
PRODUCTS = {n: (name, 40 + 5 * n) for n, name in enumerate(
    ["Trail shoe", "Rain jacket", "Wool socks", "Hiking pole", "Day pack", "Sun hat",
     "Gaiters", "Head torch", "Water bottle"], start=1)}
ARTICLES = {1: "Choosing a trail shoe", 2: "Walking in the rain", 3: "Packing for a day out"}
PER_LIST_PAGE = 6
SIMPLE_PAGES = {"/careers.html": ("Careers", "We are hiring walkers."),
                "/press.html": ("Press", "Photos and facts for the press.")}
# Requests that a safe exploration never sends (by path prefix): method and path are logged.
TRAPS = ("/logout", "/private/", "/files/", "/delete-account", "/buy/", "/unsubscribe",
         "/contact", "/question")


def _part(name: str) -> str:
    return (SHOP_ROOT / name).read_text(encoding="utf-8")


def render(template: str, **values: str) -> bytes:
    """A page of the shop: the template with its chrome, footer and script put in."""
    text = _part(template)
    values = {"chrome": _part("_chrome.html"), "footer": _part("_footer.html"),
              "script": _part("_script.html"), **values}
    for key, value in values.items():
        text = text.replace("{" + key + "}", value)
    return text.encode("utf-8")


def _list_page(title: str, links: list[tuple[str, str]], pager: str) -> bytes:
    items = "\n".join(f'<li><a href="{href}">{text}</a></li>' for href, text in links)
    return render("list.html", title=title, items=items, pager=pager)


def page_for(path: str, query: dict[str, list[str]]) -> bytes | None:
    """The shop's page at path, or None (404)."""
    if path in ("/", "/index.html"):
        return render("index.html")
    if path == "/about.html":
        return render("about.html")
    if path == "/menus.html":  # linked from nowhere: a menu with a submenu
        return render("menus.html")
    if path == "/finder.html":  # linked from nowhere: a search box with suggestions
        names = "[" + ", ".join(f'"{name}"' for name, _ in PRODUCTS.values()) + "]"
        return render("finder.html", names=names)
    if path in SIMPLE_PAGES:
        title, text = SIMPLE_PAGES[path]
        return _list_page(title, [], text)
    lists = {"/products.html": (1, '<a href="/products-2.html">Next page</a>'),
             "/products-2.html": (2, '<a href="/products.html">Previous page</a>')}
    if path in lists:
        number, pager = lists[path]
        shown = list(PRODUCTS.items())[(number - 1) * PER_LIST_PAGE:number * PER_LIST_PAGE]
        return _list_page(f"Products, page {number}",
                          [(f"/product/{n}.html", name) for n, (name, _) in shown], pager)
    if path == "/articles.html":
        return _list_page("Articles", [(f"/article/{n}.html", t) for n, t in ARTICLES.items()],
                          "Three articles.")
    if path == "/search":
        words = query.get("q", [""])[0].lower()
        found = [(f"/product/{n}.html", name) for n, (name, _) in PRODUCTS.items()
                 if words and words in name.lower()]
        return _list_page("Search results", found, f"{len(found)} found.")
    product = re.fullmatch(r"/product/(\d+)\.html", path)
    if product and int(product.group(1)) in PRODUCTS:
        name, price = PRODUCTS[int(product.group(1))]
        return render("product.html", name=name, price=str(price), n=product.group(1))
    article = re.fullmatch(r"/article/(\d+)\.html", path)
    if article and int(article.group(1)) in ARTICLES:
        number = int(article.group(1))
        return render("article.html", name=ARTICLES[number], year=str(2020 + number),
                      body=f"{ARTICLES[number]}: what our walkers learned.")
    return None


class _Handler(RecordingHandler):
    delay: float

    def do_GET(self) -> None:
        self.requests.append(("GET", self.path))
        parts = urlsplit(self.path)
        if parts.path == "/robots.txt":
            send_body(self, HTTPStatus.OK, "text/plain", _part("robots.txt").encode())
            return
        if parts.path.startswith(TRAPS):
            self.send_html(b"<!DOCTYPE html><title>Done</title><p>Done.</p>")
            return
        body = page_for(parts.path, parse_qs(parts.query))
        if self.delay and body is not None:
            time.sleep(self.delay)
        self.send_html(body)


class ShopSite(LoopbackServer):
    """The shop on 127.0.0.1. Attributes: base, requests (method, path) in arrival order.
    delay: seconds every page waits before it is sent (to catch an exploration mid-way)."""

    def __init__(self, delay: float = 0.0, port: int = 0) -> None:
        self.requests: list[tuple[str, str]] = []
        handler = type("Handler", (_Handler,), {"requests": self.requests, "delay": delay})
        super().__init__(partial(handler), port, "shop-site")

    def trapped(self) -> list[tuple[str, str]]:
        """The requests no safe exploration sends: any POST, and any GET of a trap."""
        return [(method, path) for method, path in self.requests
                if method != "GET" or urlsplit(path).path.startswith(TRAPS)]


if __name__ == "__main__":
    shop = ShopSite(port=int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
    print(f"serving the shop at {shop.base}; Ctrl-C stops")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        shop.close()

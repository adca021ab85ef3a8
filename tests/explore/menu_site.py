"""The fixture menu site for exploration tests: pages made from fixtures/explore/menus/ whose
top navigation holds every kind of menu a person meets, on 127.0.0.1, with a log of every
request it was sent:

    Guides     a dropdown shown by CSS `:hover` alone (no script: only the stylesheet says it
               opens, which the live capture reads)
    Products   a mega menu: three columns (Footwear, Clothing, Gear), each a heading and links,
               shown while the pointer is over it (mouseenter/mouseleave, no click handler)
    Company    a nested CSS `:hover` menu: About us, Jobs, a "Log out" button; hovering About
               us shows Our team and History
    Brands     a mega menu that opens on a click (aria-expanded, aria-controls), two columns
    Account    an ordinary click dropdown (aria-haspopup, aria-expanded): Profile, Settings,
               a "Log out" link

The home page's text has one more: "Opening hours", words a script shows a list of links
beside while the pointer is on them (the compiler makes them a `hover target`). The click
menus close on Escape, as most do. Most pages are linked only from inside a menu,
so an exploration that never opens them never finds them. The traps are real routes the log
would show: the "Log out" button POSTs to /logout, the link GETs it. Run it alone with
`python -m tests.explore.menu_site [PORT]`.
"""

from __future__ import annotations

import sys
import threading
from functools import partial
from pathlib import Path
from urllib.parse import urlsplit

from tests.site import LoopbackServer, RecordingHandler

MENUS_ROOT = Path(__file__).resolve().parents[2] / "fixtures" / "explore" / "menus"
# Pages linked from the menus, by path: their titles.
MENU_PAGES = {
    "/guides.html": "Guides", "/guides/maps.html": "Reading maps", "/guides/knots.html": "Knots",
    "/guides/weather.html": "Weather", "/products.html": "Products",
    "/p/trail-shoes.html": "Trail shoes", "/p/boots.html": "Boots",
    "/p/sandals.html": "Sandals", "/p/rain-jacket.html": "Rain jacket",
    "/p/fleece.html": "Fleece", "/p/tent.html": "Tent", "/p/stove.html": "Stove",
    "/p/head-torch.html": "Head torch", "/about.html": "About us", "/team.html": "Our team",
    "/history.html": "History", "/jobs.html": "Jobs", "/brands/ridge.html": "Ridge",
    "/brands/tarn.html": "Tarn", "/brands/fellwear.html": "Fellwear",
    "/brands/cairn.html": "Cairn", "/profile.html": "Profile", "/settings.html": "Settings",
    "/hours/summer.html": "Summer hours", "/hours/winter.html": "Winter hours",
}
# The home page's own text: words that show a list of links while the pointer is on them.
HOME = """<p>Outfitters for the hills since 1982.</p>
<p><span class="tip" data-shows="hours">Opening hours</span></p>
<ul id="hours" hidden>
  <li><a href="/hours/summer.html">Summer</a></li>
  <li><a href="/hours/winter.html">Winter</a></li>
</ul>"""
# Paths found only by opening a menu (the rest are also linked from the top bar).
ONLY_IN_MENUS = frozenset(MENU_PAGES) - {"/guides.html", "/products.html"}
TRAPS = ("/logout",)


def _part(name: str) -> str:
    return (MENUS_ROOT / name).read_text(encoding="utf-8")


def page_for(path: str) -> bytes | None:
    """The site's page at path, or None (404)."""
    if path in ("/", "/index.html"):
        title, body = "Fell & Tarn", HOME
    elif path in MENU_PAGES:
        title = MENU_PAGES[path]
        body = f"<p>{title}: a page of the Fell &amp; Tarn site.</p>"
    else:
        return None
    text = _part("page.html")
    for key, value in {"chrome": _part("_chrome.html"), "script": _part("_script.html"),
                       "title": title.replace("&", "&amp;"), "body": body}.items():
        text = text.replace("{" + key + "}", value)
    return text.encode("utf-8")


class _Handler(RecordingHandler):
    def do_GET(self) -> None:
        self.requests.append(("GET", self.path))
        path = urlsplit(self.path).path
        if path.startswith(TRAPS):
            self.send_html(b"<!DOCTYPE html><title>Signed out</title><p>Signed out.</p>")
        else:
            self.send_html(page_for(path))


class MenuSite(LoopbackServer):
    """The menu site on 127.0.0.1. Attributes: base, requests (method, path) in arrival order."""

    def __init__(self, port: int = 0) -> None:
        self.requests: list[tuple[str, str]] = []
        handler = type("Handler", (_Handler,), {"requests": self.requests})
        super().__init__(partial(handler), port, "menu-site")

    def trapped(self) -> list[tuple[str, str]]:
        """The requests no safe exploration sends: any POST, and any GET of a trap."""
        return [(method, path) for method, path in self.requests
                if method != "GET" or urlsplit(path).path.startswith(TRAPS)]

    def page_loads(self) -> int:
        """GET requests for pages (robots.txt and 404s left out)."""
        return sum(1 for method, path in self.requests
                   if method == "GET" and page_for(urlsplit(path).path) is not None)


if __name__ == "__main__":
    site = MenuSite(port=int(sys.argv[1]) if len(sys.argv) > 1 else 8000)
    print(f"serving the menu site at {site.base}; Ctrl-C stops")
    try:
        threading.Event().wait()
    except KeyboardInterrupt:
        site.close()

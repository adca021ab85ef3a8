"""The exploration room: `explore <url>` walks a site once, deterministically and safely, and
keeps what it learned as the site's map under `_sites/<site>/`, for every later agent and mount
on the same cache.

It drives the browser and the store only through the engine (a `Driver`: load a page as `open`
stores it, try a control as `execute` does), so the mount's network policy, robots.txt and
the store's whole-page writes hold for it as for any command; the compiler knows nothing of it.

    explore/
      safety.py     what is never pressed, followed or sent (tables of words and rules)
      templates.py  a compiled page's structure: pages that share it are one template
      behaviors.py  what a control did, in one phrase
      menus.py      what is pointed at (a menu bar's items), and a menu read from what appeared
      state.py      what an exploration knows, as JSON: a snapshot and a journal of steps
                    (one after every page and control: --resume)
      sitemap.py    the state as map.md and four TSV files
      crawl.py      the breadth-first walk, its bounds and rate limit
"""

from __future__ import annotations

from webshellfs.explore.behaviors import Tried
from webshellfs.explore.crawl import (
    DEFAULT_BOUNDS,
    STOP_MARGIN,
    Driver,
    Explorer,
    Landed,
    Loaded,
    answer,
    nothing_stored,
)
from webshellfs.explore.notes import Explored, explored
from webshellfs.explore.safety import site_of
from webshellfs.explore.sitemap import SITES_TOP, map_address, site_directory
from webshellfs.explore.state import Behavior, Bounds, SiteState

__all__ = [
    "DEFAULT_BOUNDS",
    "SITES_TOP",
    "STOP_MARGIN",
    "Behavior",
    "Bounds",
    "Driver",
    "Explored",
    "Explorer",
    "Landed",
    "Loaded",
    "SiteState",
    "Tried",
    "answer",
    "explored",
    "map_address",
    "nothing_stored",
    "site_directory",
    "site_of",
]

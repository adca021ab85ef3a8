"""robots.txt, honoured by prefetch: fetched once per origin through the same fetcher, parsed
with Protego, and kept for the life of the mount.

What an origin's answer means follows RFC 9309: a 4xx (no robots.txt) allows everything, a 5xx
disallows everything. When robots.txt cannot be fetched at all (DNS, timeout, refused), the page
fetch that follows will fail for the same reason and report it precisely, so nothing is blocked
here.
"""

from __future__ import annotations

from urllib.parse import urlsplit

import trio
from protego import Protego

from webshellfs.errors import FetchError
from webshellfs.fetch import Fetcher
from webshellfs.search.outcomes import status_of
from webshellfs.search.walls import wall_marker

ROBOTS_AGENT = "webshellfs"
MAX_ROBOTS_BYTES = 500 * 1024  # RFC 9309: parse at least 500 KiB, ignore the rest

_DISALLOW_ALL = "User-agent: *\nDisallow: /\n"


def origin_of(url: str) -> str:
    parts = urlsplit(url)
    return f"{parts.scheme.lower()}://{parts.netloc.lower()}"


class RobotsRules:
    """Per-origin robots.txt cache. `None` rules mean "everything allowed"."""

    def __init__(self, fetcher: Fetcher, agent: str = ROBOTS_AGENT) -> None:
        self.fetcher = fetcher
        self.agent = agent
        self._rules: dict[str, Protego | None] = {}
        self._locks: dict[str, trio.Lock] = {}

    async def allows(self, url: str) -> bool:
        origin = origin_of(url)
        # One fetch per origin even when several results from it start at once.
        async with self._locks.setdefault(origin, trio.Lock()):
            if origin not in self._rules:
                self._rules[origin] = await self._load(origin)
        rules = self._rules[origin]
        return rules is None or rules.can_fetch(url, self.agent)

    async def _load(self, origin: str) -> Protego | None:
        try:
            capture = await self.fetcher.fetch(origin + "/robots.txt")
        except FetchError as error:
            status = status_of(error)
            return Protego.parse(_DISALLOW_ALL) if status is not None and status >= 500 else None
        if wall_marker(capture.status, capture.body) is not None or 400 <= capture.status < 500:
            return None
        if capture.status >= 500:
            return Protego.parse(_DISALLOW_ALL)
        text = capture.body[:MAX_ROBOTS_BYTES].decode("utf-8", "replace")
        return Protego.parse(text)

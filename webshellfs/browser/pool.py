"""The live tabs of one browser session: a capped pool, least recently used out first, that
remembers why a tab went (closed, capped, crashed…) so an error can say so."""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Iterator
from contextlib import suppress

from playwright.async_api import Page

from webshellfs.browser.tab import Tab, in_background
from webshellfs.errors import NotFoundError

CLOSE_TIMEOUT = 5.0
# Popups kept as tabs per opener between two captures; more are closed as soon as they open,
# so a page that opens hundreds of windows neither evicts every other tab nor its own.
MAX_POPUPS = 4



class TabGone(NotFoundError):
    """The tab asked for is closed (the cap, a crash, the page itself): its page is stored."""

class TabPool:
    """Tabs by id. `adopt` makes a tab of a page (popups it opens are adopted too)."""

    def __init__(
        self,
        cap: int,
        numbers: Iterator[int],
        make_tab: Callable[[str, Page], Tab],
        on_popup: Callable[[], None],
    ) -> None:
        """numbers: where tab ids come from; make_tab: a Tab for an id and a page;
        on_popup: called when a page opens another (it takes the front)."""
        self.cap = cap
        self._numbers = numbers
        self._make_tab = make_tab
        self._on_popup = on_popup
        self._tabs: dict[str, Tab] = {}
        self._gone: dict[str, str] = {}
        self._capped: list[str] = []
        self._popups: dict[str, list[str]] = {}
        self._popups_closed: dict[str, int] = {}

    def adopt(self, page: Page) -> Tab:
        tab = self._make_tab(f"t{next(self._numbers)}", page)
        self._tabs[tab.id] = tab
        page.on("popup", lambda popup: self._adopt_popup(tab, popup))
        self._enforce_cap(tab)
        return tab

    def _adopt_popup(self, opener: Tab, page: Page) -> None:
        kept = self._popups.setdefault(opener.id, [])
        if len(kept) >= min(MAX_POPUPS, self.cap - 1):
            self._popups_closed[opener.id] = self._popups_closed.get(opener.id, 0) + 1
            in_background(_close_quietly(page))
            return
        self._on_popup()
        opener.touch()  # the opener is in use: the cap must not close it for its own popup
        kept.append(self.adopt(page).id)

    def get(self, tab_id: str) -> Tab:
        """The live tab, or TabGone saying why it is gone."""
        self._drop_self_closed()
        tab = self._tabs.get(tab_id)
        if tab is None:
            why = self._gone.get(tab_id)
            raise TabGone(f"tab {tab_id} is gone: {why}" if why else f"there is no live tab {tab_id}")
        return tab

    def find(self, tab_id: str) -> Tab | None:
        return self._tabs.get(tab_id)

    def remove(self, tab: Tab, why: str = "") -> None:
        """Take a tab out of the pool (its page is the caller's to close)."""
        if self._tabs.get(tab.id) is tab:
            del self._tabs[tab.id]
        tab.discard()
        if why:
            self._gone[tab.id] = why

    def forget_all(self, why: str) -> str:
        """Drop every tab (their pages stay stored); the text names them for an error."""
        lost = sorted(self._tabs, key=lambda t: int(t[1:]))
        for tab in self._tabs.values():
            tab.discard()
            self._gone[tab.id] = why
        self._tabs.clear()
        return f"; lost tabs: {', '.join(lost)} (their pages stay stored)" if lost else ""

    def listing(self) -> tuple[tuple[str, str], ...]:
        """(tab id, current URL) of every live tab, least recently used first."""
        self._drop_self_closed()
        ordered = sorted(self._tabs.values(), key=lambda t: t.last_used)
        return tuple((t.id, t.page.url) for t in ordered)

    def take_capped(self) -> tuple[str, ...]:
        """Tabs the cap closed since the last call."""
        capped, self._capped = tuple(self._capped), []
        return capped

    async def wait_for_popups(self, opener: Tab, expected: int, timeout: float) -> None:
        """Wait (at most timeout) until opener's popups so far number `expected`: the page
        knows at once that window.open worked, the popup event comes a moment later."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while (len(self._popups.get(opener.id, ())) + self._popups_closed.get(opener.id, 0)
               < expected and loop.time() < deadline):
            await asyncio.sleep(0.02)

    def take_popups(self, opener: Tab) -> tuple[tuple[str, ...], int]:
        """Tabs that opener opened since the last call, and how many more it opened that
        were closed at once."""
        return (tuple(self._popups.pop(opener.id, ())),
                self._popups_closed.pop(opener.id, 0))

    def _drop_self_closed(self) -> None:
        """Forget tabs whose page closed itself (window.close()). Decided lazily, because
        when the browser dies its pages close too, and that is reported as a crash instead."""
        for tab in [t for t in self._tabs.values() if t.page.is_closed()]:
            self.remove(tab, "the page closed itself")

    def _enforce_cap(self, keep: Tab) -> None:
        """Close the least recently used tabs past the cap, never `keep` nor a tab a call is
        acting on; if only those are left, the pool stays over the cap until the next tab."""
        self._drop_self_closed()
        while len(self._tabs) > self.cap:
            idle = [t for t in self._tabs.values() if t is not keep and not t.busy]
            if not idle:
                return
            oldest = min(idle, key=lambda t: t.last_used)
            self.remove(oldest, f"it was closed to keep at most {self.cap} tabs")
            self._capped.append(oldest.id)
            in_background(_close_quietly(oldest.page))


async def _close_quietly(page: Page) -> None:
    with suppress(Exception):
        await asyncio.wait_for(page.close(), CLOSE_TIMEOUT)

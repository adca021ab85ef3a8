"""`explore`: the engine's side of the exploration room (webshellfs/explore). It gives the room
a `Driver` made of the engine's own paths — pages fetched and stored as `retrieve` stores them
(in a browser tab closed at once, else over plain HTTP), controls tried through the live execute
path (`LiveTabs.outcome_of`, which reopens a page that has no tab and compares the states), the
page restored in its tab after a try as a person restores it (the pointer leaves the page,
Escape) and reloaded only when that did not bring it back — and turns the command's options
into a run.
"""

from __future__ import annotations

import contextlib
import re
from collections import Counter
from collections.abc import Awaitable, Callable
from typing import Any

import trio

from webshellfs import ctl
from webshellfs.compiler.nonhtml import media_type, supported_type
from webshellfs.contract.addresses import PageId
from webshellfs.engine.live import LiveTabs
from webshellfs.engine.records import Answer
from webshellfs.errors import FetchError, NotFoundError, UsageError, WebshellError
from webshellfs.explore import (
    DEFAULT_BOUNDS,
    Bounds,
    Explorer,
    Landed,
    Loaded,
    SiteState,
    Tried,
    answer,
    map_address,
    nothing_stored,
    site_of,
)
from webshellfs.fetch import Capture, Fetcher
from webshellfs.search import RobotsRules
from webshellfs.store import PageRecord, Store

__all__ = ["EngineDriver", "run_explore"]

Keep = Callable[..., Awaitable[tuple[PageRecord, Any]]]
MAP_FILE = "_map.md"
# Statuses of a page some tab shows now (engine/live.py).
SHOWN_STATUSES = frozenset({"active", "live"})
# How a try is undone in the tab, in order, by how it was made; the page is reloaded for the
# next try only when none of them brings it back. A gesture on no element: for hover, the
# pointer leaves the page.
RESTORE_STEPS: dict[bool, tuple[tuple[str, tuple[str, ...]], ...]] = {
    True: (("hover", ()), ("press", ("Escape",))),  # after pointing at something
    False: (("press", ("Escape",)),),  # after a click
}
# How many lines that appeared a try reports (a page that redraws itself whole has thousands).
APPEARED_LINES = 300
# Object ids in a page's lines: two states of a page number their links and actions apart.
_IDS = re.compile(r"\b([LAIT])\d{4}\b")
_LINK_REF = re.compile(r"\[(L\d{4})\]")


class EngineDriver:
    """The exploration room's Driver over the engine's fetcher, store and live tabs."""

    def __init__(self, store: Store, fetcher: Fetcher, keep: Keep, live: LiveTabs | None,
                 robots: RobotsRules | None, refuse_wall: Callable[[Capture], None]) -> None:
        self.store = store
        self.fetcher = fetcher
        self.keep = keep
        self.tabs = live
        self.live = live is not None
        self.robots = robots
        self.refuse_wall = refuse_wall
        self._showing = ""  # the page the tab of the tries shows now ("" when it is closed)

    async def allowed(self, url: str) -> bool:
        return self.robots is None or await self.robots.allows(url)

    async def load(self, url: str, stored: Callable[[str], bool] = nothing_stored) -> Loaded:
        capture = await self.fetcher.fetch(url)
        landed = capture.url.partition("#")[0]
        if landed != url and stored(landed):
            raise Landed(landed)
        self.refuse_wall(capture)
        if not supported_type(capture.content_type):
            raise FetchError(f"{media_type(capture.content_type)}, not a document")
        record, page = await self.keep(capture, via="explore")
        return Loaded(record.page_id, capture.url, page)

    async def try_control(self, page: str, control: str, *, gesture: str = "", words: str = "",
                          compare_with: str = "") -> Tried:
        """Act on the control (an action or link id, "" with words) of the page, in its tab,
        or in the tab that moved on from it, or on the page loaded afresh; gesture "" is the
        control's own action (a click). Any dialog it raises is dismissed, a tab it opens is
        closed; the tab is left showing the result (`restore` brings the page back).
        compare_with: the page whose files the result's new lines are told against (default
        page: a submenu is told against the menu it opened from)."""
        assert self.tabs is not None
        record = self.store.page(PageId(page))
        if record is None:
            return Tried("failed", note=f"no page {page}")
        reloaded = record.status not in SHOWN_STATUSES and not self.tabs.moved_on_from(page)
        command = ctl.Execute(PageId(page), control, gesture=gesture, text=words,
                              dialog="dismiss")
        try:
            outcome = await self.tabs.outcome_of(command, record)
        except Answer as refused:
            return Tried("failed", note=refused.text.splitlines()[0][:200], reloaded=reloaded)
        except WebshellError as error:
            return Tried("failed", note=str(error).splitlines()[0][:200], reloaded=reloaded)
        result = outcome.result
        for tab in result.new_tabs:
            with contextlib.suppress(FetchError, NotFoundError):
                await self.tabs.browser.close_tab(tab)
        diff = outcome.diff
        shown = self._showing = outcome.record.page_id
        map_text = await trio.to_thread.run_sync(self.store.read_file, shown, MAP_FILE)
        appeared = () if outcome.how in ("page", "unchanged") else await trio.to_thread.run_sync(
            self._appeared, compare_with or page, shown)
        return Tried(
            outcome.how, shown, outcome.record.url, (*diff.changed, *diff.added, *diff.removed),
            tuple(d.message for d in result.dialogs), len(result.new_tabs),
            (map_text or b"").decode("utf-8", "replace"), appeared=appeared, reloaded=reloaded,
        )

    async def restore(self, page: str, shown: str, hovered: bool) -> bool:
        """Bring page back in the tab that shows `shown` after a try: the pointer leaves the
        page (after a hover), Escape; back when the tab's files equal page's again. If not,
        the tab is closed (the next try reloads the page) and False is answered."""
        assert self.tabs is not None
        wanted = self._digest(page)
        if shown == page or (wanted and self._digest(shown) == wanted):
            return True
        for gesture, keys in RESTORE_STEPS[hovered]:
            record = self.store.page(PageId(shown))
            if record is None or record.status not in SHOWN_STATUSES:
                break  # its tab is gone (the pool's cap): nothing to undo in it
            command = ctl.Execute(PageId(shown), "", gesture=gesture, keys=keys, dialog="dismiss")
            try:
                outcome = await self.tabs.outcome_of(command, record)
            except (Answer, WebshellError):
                break
            shown = self._showing = outcome.record.page_id
            if outcome.how == "page":
                break
            if wanted and self._digest(shown) == wanted:
                return True
        await self.done()
        return False

    async def done(self) -> None:
        """The tries on a page are over (or it could not be restored): their tab is closed."""
        assert self.tabs is not None
        record = self.store.page(PageId(self._showing)) if self._showing else None
        self._showing = ""
        if record is not None:
            with contextlib.suppress(FetchError):
                await self.tabs.close(record)

    def _digest(self, page: str) -> str:
        return str(self.store.page_meta(page).get("digest") or "")

    def _appeared(self, before: str, after: str) -> tuple[tuple[str, str, str], ...]:
        """The lines of after's files that before's lack (ids aside), in order, each with its
        file and the URL of its first link (in a thread: it reads the store)."""
        old_meta, new_meta = self.store.page_meta(before), self.store.page_meta(after)
        old_files = old_meta.get("files") or {}
        links = new_meta.get("links") or {}
        found: list[tuple[str, str, str]] = []
        for path, digest in (new_meta.get("files") or {}).items():
            if old_files.get(path) == digest or not path.endswith(".md") or path.startswith("_"):
                continue
            old = Counter(_IDS.sub(r"\1", line) for line in _lines(self.store, before, path))
            for line in _lines(self.store, after, path):
                key = _IDS.sub(r"\1", line)
                if old[key] > 0:
                    old[key] -= 1
                    continue
                ref = _LINK_REF.search(line)
                found.append((path, line, str(links.get(ref.group(1), "")) if ref else ""))
                if len(found) >= APPEARED_LINES:
                    return tuple(found)
        return tuple(found)


def _lines(store: Store, page: str, path: str) -> list[str]:
    data = store.read_file(page, path)
    return (data or b"").decode("utf-8", "replace").splitlines()


def _bounds(command: ctl.Explore, saved: SiteState | None) -> Bounds:
    base = saved.bounds if saved is not None else DEFAULT_BOUNDS
    return Bounds(command.pages or base.pages, command.depth if command.depth is not None
                  else base.depth, command.seconds or DEFAULT_BOUNDS.seconds)


async def run_explore(command: ctl.Explore, explorer: Explorer) -> str:
    """One `explore` command: a new exploration, a resumed one, or one done again."""
    saved: SiteState | None
    if command.url is None:
        saved = await trio.to_thread.run_sync(explorer.latest_to_resume, command.depth)
        if saved is None:
            raise UsageError("explore --resume: no unfinished exploration to resume (nor one "
                             "with links past its --depth, when a deeper one is given); "
                             "give a URL to explore")
    else:
        saved = await trio.to_thread.run_sync(explorer.saved, site_of(command.url))
    resumed = saved is not None and not command.refresh
    if saved is not None and not command.refresh and saved.finished and not command.resume:
        raise UsageError(
            f"{saved.site} was explored already: {map_address(saved.site)}/map.md says when; "
            "`explore --refresh URL` explores it again"
        )
    bounds = _bounds(command, saved if resumed else None)
    if resumed:
        assert saved is not None
        state = saved
        state.bounds = bounds
        if state.finished:  # --resume on a finished one: go on past its bounds, if widened
            state.finished = False
    else:
        assert command.url is not None
        state = Explorer.new_state(command.url, bounds)
    stored, tried, spent = await explorer.run(state, bounds.seconds)
    note = "" if explorer.driver.live else (
        "note: this mount has no browser: the pages were walked over plain HTTP and no "
        "control was tried\n")
    return answer(state, stored, tried, spent, resumed) + note


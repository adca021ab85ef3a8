"""`explore`: the engine's side of the exploration room (webshellfs/explore). It gives the room
a `Driver` made of the engine's own paths — pages fetched and stored as `retrieve` stores them
(in a browser tab closed at once, else over plain HTTP), controls tried through the live execute
path (`LiveTabs.outcome_of`, which reopens the page first and compares the states) — and turns
the command's options into a run.
"""

from __future__ import annotations

import contextlib
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
    Loaded,
    SiteState,
    Tried,
    answer,
    map_address,
    site_of,
)
from webshellfs.fetch import Capture, Fetcher
from webshellfs.search import RobotsRules
from webshellfs.store import PageRecord, Store

__all__ = ["EngineDriver", "run_explore"]

Keep = Callable[..., Awaitable[tuple[PageRecord, Any]]]
MAP_FILE = "_map.md"


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

    async def allowed(self, url: str) -> bool:
        return self.robots is None or await self.robots.allows(url)

    async def load(self, url: str) -> Loaded:
        capture = await self.fetcher.fetch(url)
        self.refuse_wall(capture)
        if not supported_type(capture.content_type):
            raise FetchError(f"{media_type(capture.content_type)}, not a document")
        record, page = await self.keep(capture, via="explore")
        return Loaded(record.page_id, capture.url, page)

    async def try_control(self, page: str, action_id: str) -> Tried:
        """Click the control on the page loaded afresh; any dialog it raises is dismissed, a
        tab it opens is closed, and the tab is closed after (the next try reloads)."""
        assert self.tabs is not None
        record = self.store.page(PageId(page))
        if record is None:
            return Tried("failed", note=f"no page {page}")
        command = ctl.Execute(PageId(page), action_id, dialog="dismiss")
        try:
            outcome = await self.tabs.outcome_of(command, record)
        except Answer as refused:
            return Tried("failed", note=refused.text.splitlines()[0][:200])
        except WebshellError as error:
            return Tried("failed", note=str(error).splitlines()[0][:200])
        result = outcome.result
        for tab in result.new_tabs:
            with contextlib.suppress(FetchError, NotFoundError):
                await self.tabs.browser.close_tab(tab)
        with contextlib.suppress(FetchError):
            await self.tabs.close(outcome.record)
        diff = outcome.diff
        shown = outcome.record.page_id
        map_text = await trio.to_thread.run_sync(self.store.read_file, shown, MAP_FILE)
        return Tried(
            outcome.how, shown, outcome.record.url, (*diff.changed, *diff.added, *diff.removed),
            tuple(d.message for d in result.dialogs), len(result.new_tabs),
            (map_text or b"").decode("utf-8", "replace"),
        )


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


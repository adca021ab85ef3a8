"""The walk itself over a driver that needs no browser (the shop's pages compiled as they are
served): a walk cut short amid a page's controls — as a killed daemon cuts it — goes on with the
controls not tried yet, and none is tried twice."""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from urllib.parse import urlsplit

import pytest
import trio

from tests.explore.shop_site import page_for
from webshellfs.compiler import compile_page
from webshellfs.errors import FetchError
from webshellfs.explore import Bounds, Explorer, Loaded, Tried, nothing_stored
from webshellfs.store import Store

START = "http://shop.example/index.html"
BOUNDS = Bounds(pages=50, depth=4, seconds=60.0)


class Killed(Exception):
    """Stands for the daemon killed while a control was being tried."""


class ShopDriver:
    """Loads the shop's pages as compiled; every control does nothing; the try numbered
    `kill_at` is cut short."""

    live = True

    def __init__(self, kill_at: int = 0) -> None:
        self.kill_at = kill_at
        self.loaded = 0
        self.tries: list[tuple[str, str]] = []

    async def allowed(self, url: str) -> bool:
        return True

    async def load(self, url: str, stored: Callable[[str], bool] = nothing_stored) -> Loaded:
        body = page_for(urlsplit(url).path, {})
        if body is None:
            raise FetchError(f"HTTP 404 for {url}")
        self.loaded += 1
        return Loaded(f"N{self.loaded:04d}", url, compile_page(body, url, content_type="text/html"))

    async def try_control(self, page: str, control: str, *, gesture: str = "", words: str = "",
                          compare_with: str = "") -> Tried:
        self.tries.append((page, control or words))
        if len(self.tries) == self.kill_at:
            raise Killed
        return Tried("unchanged", page)

    async def restore(self, page: str, shown: str, hovered: bool) -> bool:
        return True

    async def done(self) -> None:
        return None


def walk(store: Store, driver: ShopDriver, resume: bool = False) -> Explorer:
    explorer = Explorer(store, driver, lambda line: None, requests_per_second=1000)
    saved = explorer.saved("shop.example")
    state = saved if resume and saved is not None else Explorer.new_state(START, BOUNDS)
    trio.run(explorer.run, state, BOUNDS.seconds)
    return explorer


def controls(explorer: Explorer) -> list[str]:
    state = explorer.saved("shop.example")
    assert state is not None
    return sorted(b.control.partition(" ")[2] for b in state.behaviors)


def test_a_walk_cut_amid_a_pages_controls_tries_the_rest_on_resume(tmp_path: Path) -> None:
    with Store(tmp_path / "whole.sqlite") as store:
        whole = controls(walk(store, ShopDriver()))
    assert whole == ['button "Description"', 'button "More"', 'button "Reviews"',
                     'button "Size guide"', 'details "Footnotes"']
    with Store(tmp_path / "cut.sqlite") as store:
        with pytest.raises(Killed):
            walk(store, ShopDriver(kill_at=3))  # More, Size guide, then cut at Description
        cut = Explorer(store, ShopDriver(), lambda line: None).saved("shop.example")
        assert cut is not None and cut.trying and not cut.finished
        again = ShopDriver()
        resumed = walk(store, again, resume=True)
        assert controls(resumed) == whole
        state = resumed.saved("shop.example")
        assert state is not None and state.finished and not state.trying
        # Only what was not tried before the cut was tried after it.
        assert len(again.tries) == 3

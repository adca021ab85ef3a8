"""Running commands through an engine for the exploration tests: one Chromium per module (the
`browser` fixture in conftest.py), a store per test."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from pathlib import Path

import trio

from tests.explore.shop_site import ShopSite
from webshellfs.browser import Browser, BrowserFetcher
from webshellfs.config import Settings
from webshellfs.engine import Engine, Outcome
from webshellfs.fetch.http import HttpFetcher
from webshellfs.store import Store

Body = Callable[[Engine], Awaitable[None]]


def run(tmp_path: Path, body: Body, browser: Browser | None = None,
        deadline: float = 150.0) -> None:
    """body on an engine with its own store: with the browser given, else over plain HTTP;
    deadline: the engine's command deadline (the mount's --deadline)."""

    async def main() -> None:
        config = Settings(mountpoint=tmp_path / "mnt", cache=tmp_path / "cache.sqlite",
                          allow_private=True, fetch_timeout=20.0, command_deadline=deadline)
        plain = HttpFetcher(config)
        if browser is None:
            engine = Engine(Store(config.cache), plain, config)
        else:
            engine = Engine(Store(config.cache), BrowserFetcher(browser), config,
                            plain_fetcher=plain)
        try:
            await body(engine)
        finally:
            if browser is not None:
                for tab, _ in await browser.tabs():
                    await browser.close_tab(tab)
                await plain.aclose()
                engine.store.close()
            else:
                await engine.aclose()

    trio.run(main)


async def ask(engine: Engine, line: str, outcome: Outcome = Outcome.OK) -> list[str]:
    response = await engine.command(line, "s1")
    assert response.outcome is outcome, response.text
    return response.text.splitlines()[1:]


def read(engine: Engine, path: str) -> str:
    entry = engine.entry(path)
    assert entry is not None, path
    return engine.read(path, 0, entry.size).decode()


def rows(engine: Engine, path: str) -> list[list[str]]:
    return [line.split("\t") for line in read(engine, path).splitlines()[1:]]


def site_dir(shop: ShopSite) -> str:
    return "_sites/127.0.0.1-" + shop.base.rpartition(":")[2]

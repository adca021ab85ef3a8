"""The browser behind the engine's Fetcher protocol, so `open` can load pages in Chromium."""

from __future__ import annotations

from webshellfs.browser.records import TabCapture
from webshellfs.browser.service import Browser
from webshellfs.fetch import Capture


class BrowserFetcher:
    """Fetcher whose captures are rendered DOMs (text/html; charset=utf-8); non-HTML responses
    (PDF, JSON, images) come back as their raw bytes with their own content type.

    `fetch` leaves the page open as a live tab (the pool's cap closes old ones); `fetch_live`
    says which tab, for the engine to execute on later."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser

    async def fetch_live(self, url: str) -> TabCapture:
        return await self.browser.open(url)

    async def fetch(self, url: str) -> Capture:
        return (await self.browser.open(url)).capture

    async def aclose(self) -> None:
        await self.browser.aclose()

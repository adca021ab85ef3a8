"""The browser behind the engine's Fetcher protocol, so `open` can load pages in Chromium."""

from __future__ import annotations

from dataclasses import replace

from webshellfs.browser.records import TabCapture
from webshellfs.browser.service import Browser
from webshellfs.fetch import ERROR_BODY_BYTES, Capture, HttpStatusError


class BrowserFetcher:
    """Fetcher whose captures are rendered DOMs (text/html; charset=utf-8); non-HTML responses
    (PDF, JSON, images) come back as their raw bytes with their own content type.

    `fetch` leaves the page open as a live tab (the pool's cap closes old ones); `fetch_live`
    says which tab, for the engine to execute on later. An error status (4xx/5xx) raises
    HttpStatusError with the start of the rendered page, and closes its tab."""

    def __init__(self, browser: Browser) -> None:
        self.browser = browser

    async def fetch_live(self, url: str, screenshot: bool = True) -> TabCapture:
        result = await self.browser.open(url, screenshot)
        capture = result.capture
        if capture.status >= 400:
            if result.tab_id:
                await self.browser.close_tab(result.tab_id)
            kept = replace(capture, body=capture.body[:ERROR_BODY_BYTES])
            raise HttpStatusError(f"HTTP {capture.status} for {capture.url}", kept)
        return result

    async def fetch(self, url: str) -> Capture:
        return (await self.fetch_live(url, screenshot=False)).capture

    async def aclose(self) -> None:
        await self.browser.aclose()

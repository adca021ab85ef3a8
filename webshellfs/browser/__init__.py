"""The browser room: pages loaded and driven in a real Chromium through Playwright.

Playwright is asyncio and the filesystem is trio, so the browser lives on its own thread with
its own asyncio loop (bridge.py). `Browser` (service.py) is the trio-facing API:

    browser = Browser(BrowserOptions.from_settings(settings))
    opened = await browser.open(url)                      # TabCapture: tab_id, capture, …
    after = await browser.execute(opened.tab_id, action.locator, action.kind, {"q": "shoes"})
    after.navigated                                       # URL changed: a new page, else a state
    await browser.execute(tab_id, "", "", gesture=Gesture("press", keys=("Escape",)))
    await browser.navigate(tab_id, link_url)              # load a URL in the same tab
    await browser.focus(tab_id)                           # capture the tab's current state
    await browser.close_tab(tab_id); await browser.aclose()

`BrowserFetcher` puts it behind the engine's Fetcher protocol. A capture is the rendered DOM
serialized as HTML (scripts.py) for the same compiler as static pages, with every actionable
element marked `data-wsfs-id` (the compiled action's locator) so `execute` finds exactly that
element again. Errors are the domain ones: FetchTimeout, FetchError, AccessDenied,
NotFoundError (a tab or element that is gone, with the reason), UsageError (bad inputs).
"""

from webshellfs.browser.fetcher import BrowserFetcher
from webshellfs.browser.options import BrowserOptions, parse_browser_spec
from webshellfs.browser.pool import TabGone
from webshellfs.browser.records import (
    CapturedResponse,
    DialogRecord,
    DownloadRecord,
    Gesture,
    TabCapture,
)
from webshellfs.browser.service import Browser

__all__ = [
    "Browser",
    "BrowserFetcher",
    "BrowserOptions",
    "CapturedResponse",
    "DialogRecord",
    "DownloadRecord",
    "Gesture",
    "TabCapture",
    "TabGone",
    "parse_browser_spec",
]

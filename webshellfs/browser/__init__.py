"""The browser room: pages loaded and driven in a real Chromium through Playwright.

Playwright is asyncio and the filesystem is trio, so the browser lives on its own thread with
its own asyncio loop (bridge.py); `Browser` (service.py) is the trio-facing API and
`BrowserFetcher` puts it behind the engine's Fetcher protocol. A capture is the rendered DOM
serialized as HTML (scripts.py) for the same compiler as static pages, with every actionable
element marked `data-wsfs-id` so `execute` finds exactly that element again.
"""

from webshellfs.browser.fetcher import BrowserFetcher
from webshellfs.browser.options import BrowserOptions, parse_browser_spec
from webshellfs.browser.records import CapturedResponse, DialogRecord, DownloadRecord, TabCapture
from webshellfs.browser.service import Browser

__all__ = [
    "Browser",
    "BrowserFetcher",
    "BrowserOptions",
    "CapturedResponse",
    "DialogRecord",
    "DownloadRecord",
    "TabCapture",
    "parse_browser_spec",
]

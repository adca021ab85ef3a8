"""A capture's picture: the tab's viewport as a PNG, bounded in size.

Taken through the DevTools protocol (one round trip; Playwright's own screenshot waits for fonts
and hides the caret first, which costs more than the picture) right after the DOM snapshot, so
it shows the state the page directory holds. A viewport of text is some tens of KB; one full of
photographs can pass a megabyte, and is then taken again scaled down until it fits. A
screenshot that fails is left out, with the reason: it never fails the capture.
"""

from __future__ import annotations

import asyncio
import base64
import math
from typing import Any

from playwright.async_api import CDPSession
from playwright.async_api import Error as PlaywrightError

MAX_SCREENSHOT_BYTES = 384 * 1024
# Chromium's faster PNG encoder: about half the time of its default on a 1280×720 viewport,
# for files about a quarter larger (the picture is taken while the capture compiles, on the
# same cores).
FAST_PNG = {"optimizeForSpeed": True}
SCREENSHOT_TIMEOUT = 5.0  # seconds, per attempt
# Each retake aims this far under the bound: PNG size is not quite proportional to the area.
SCALE_MARGIN = 0.85
SCALED_ATTEMPTS = 3
MIN_SCALE = 0.2
# The viewport in document coordinates (the DevTools clip's), wherever the page is scrolled.
VISIBLE_RECT = """() => {
    const v = window.visualViewport;
    return {x: v.pageLeft, y: v.pageTop, width: v.width, height: v.height};
}"""

__all__ = ["MAX_SCREENSHOT_BYTES", "viewport_png"]


async def viewport_png(
    devtools: CDPSession, max_bytes: int = MAX_SCREENSHOT_BYTES
) -> tuple[bytes, str]:
    """(PNG of the viewport at most max_bytes, "") or (b"", why there is none)."""
    try:
        png = await _capture(devtools, {})
        scale = 1.0
        for _ in range(SCALED_ATTEMPTS):
            if len(png) <= max_bytes:
                return png, ""
            scale = max(MIN_SCALE, scale * math.sqrt(max_bytes / len(png)) * SCALE_MARGIN)
            png = await _capture(devtools, {"clip": {**await _visible(devtools), "scale": scale}})
    except (PlaywrightError, TimeoutError) as error:
        return b"", f"no screenshot.png: the browser could not take it ({_first_line(error)})"
    if len(png) <= max_bytes:
        return png, ""
    return b"", f"no screenshot.png: the viewport stays over {max_bytes // 1024} KB even scaled down"


async def _capture(devtools: CDPSession, options: dict[str, Any]) -> bytes:
    taken = await asyncio.wait_for(
        devtools.send("Page.captureScreenshot", {"format": "png", **FAST_PNG, **options}),
        SCREENSHOT_TIMEOUT)
    return base64.b64decode(taken["data"])


async def _visible(devtools: CDPSession) -> dict[str, float]:
    found = await asyncio.wait_for(devtools.send("Runtime.evaluate", {
        "expression": f"({VISIBLE_RECT})()", "returnByValue": True}), SCREENSHOT_TIMEOUT)
    return dict(found["result"]["value"])


def _first_line(error: BaseException) -> str:
    text = str(error).strip()
    return text.splitlines()[0] if text else type(error).__name__

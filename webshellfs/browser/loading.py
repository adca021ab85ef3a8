"""Waiting for a page to settle, serializing it, and reading responses the browser does not
render as pages. Functions of one tab; the session decides when to call them."""

from __future__ import annotations

import asyncio
from contextlib import suppress
from urllib.parse import urljoin

from playwright.async_api import BrowserContext
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from webshellfs.browser.options import BrowserOptions
from webshellfs.browser.policy import NetworkPolicy
from webshellfs.browser.scripts import DOM_SETTLE, FRAME_QUIET_MS, SNAPSHOT
from webshellfs.browser.tab import Tab
from webshellfs.errors import FetchError
from webshellfs.fetch import Capture

MAX_REDIRECTS = 10
# Loads of the main frame one call may see (redirects by script or meta refresh included);
# past this the page is reloading itself in a loop and the call fails at once.
MAX_NAVIGATIONS = 10
_HTML_TYPES = ("", "text/html", "application/xhtml+xml")
# Errors that mean "the document changed under us": settle again and retry.
_NAVIGATION_MARKERS = (
    "Execution context was destroyed",
    "Cannot find context with specified id",
    "frame was detached",
    "navigating and changing the content",
)


def is_html(content_type: str) -> bool:
    return content_type.split(";", 1)[0].strip().lower() in _HTML_TYPES


def is_navigation_error(error: PlaywrightError) -> bool:
    return any(marker in str(error) for marker in _NAVIGATION_MARKERS)


async def settle(tab: Tab, options: BrowserOptions) -> str:
    """Wait (at most settle_cap) for the load event, then until the page looks done: no
    request in flight or ended within the quiet period, the short timers pending at the start
    (and those an action started) fired, and the DOM unchanged for about a frame
    (scripts.DOM_SETTLE). A navigation restarts the wait. Returns "" when the page settled,
    else what it was still busy with ("2 requests, 1 timer")."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + options.settle_cap
    quiet = options.quiet_ms / 1000
    page = tab.page
    busy = "requests in flight"
    with suppress(PlaywrightTimeoutError):
        await page.wait_for_load_state("load", timeout=options.settle_cap * 1000)
    while (remaining := deadline - loop.time()) > 0:
        check_navigations(tab)
        waited = tab.network_quiet_for(options.settle_cap)
        if waited < quiet:
            await asyncio.sleep(min(quiet - waited, remaining))
            continue
        try:
            answer = await page.evaluate(DOM_SETTLE, [options.quiet_ms, FRAME_QUIET_MS,
                                                      int(remaining * 1000),
                                                      int(options.settle_cap * 1000)]) or {}
        except PlaywrightError as error:
            if not is_navigation_error(error):
                raise
            with suppress(PlaywrightTimeoutError):
                await page.wait_for_load_state("domcontentloaded",
                                               timeout=max(remaining, 0.001) * 1000)
            continue
        if answer.get("busy"):
            busy = _busy_with(int(answer.get("requests", 0)), int(answer.get("timers", 0)))
            continue
        if tab.network_quiet_for(options.settle_cap) >= quiet:
            return ""
    return busy


def _busy_with(requests: int, timers: int) -> str:
    parts = [f"{n} {what}{'s' if n != 1 else ''}"
             for n, what in ((requests, "request"), (timers, "timer")) if n]
    return ", ".join(parts) or "changes to the page"


class NavigationLoop(FetchError):
    """The page kept loading itself (meta refresh, script redirects); its tab must close, or
    it goes on loading in the background."""


def check_navigations(tab: Tab) -> None:
    """NavigationLoop if the page has loaded itself too often during this call."""
    if tab.navigations_this_call > MAX_NAVIGATIONS:
        # The limit, not the count: the page goes on loading while we notice, so the count races.
        raise NavigationLoop(f"the page at {tab.page.url} loaded more than {MAX_NAVIGATIONS} times "
                             "in one command (a refresh or redirect loop)")


async def snapshot(tab: Tab, options: BrowserOptions) -> tuple[str, bytes]:
    """(URL, serialized rendered DOM) of the tab; a navigation mid-way settles and retries."""
    for attempt in range(3):
        try:
            taken = await tab.page.evaluate(SNAPSHOT)
            break
        except PlaywrightError as error:
            if not is_navigation_error(error):
                raise
            check_navigations(tab)
            if attempt == 2:
                raise NavigationLoop(f"the page at {tab.page.url} kept navigating and could "
                                     "not be captured") from None
            await settle(tab, options)
    url = str(taken["url"])
    body = str(taken["html"]).encode("utf-8")
    tab.popups_opened = int(taken["openedPopups"])
    tab.downloads_clicked = int(taken["clickedDownloads"])
    if taken["mutedDialogs"]:
        tab.notes.append(f"{taken['mutedDialogs']} more dialogs were answered at once without "
                         "being shown (confirm: no, prompt: empty)")
    if taken["blockedPopups"]:
        tab.notes.append(f"the popup blocker refused {taken['blockedPopups']} windows the page "
                         "tried to open without a click")
    if len(body) > options.max_body_bytes:
        raise FetchError(f"the rendered page at {url} is {len(body)} bytes, over the limit "
                         f"of {options.max_body_bytes}")
    return url, body


async def fetch_raw(
    context: BrowserContext, policy: NetworkPolicy, url: str, options: BrowserOptions
) -> Capture:
    """A response the browser does not render as a page (a PDF, JSON, a download): its
    bytes through the context's own HTTP client (same cookies), each redirect hop checked
    by the policy."""
    target = url
    for _ in range(MAX_REDIRECTS):
        await policy.check(target)
        response = await context.request.get(
            target, max_redirects=0, timeout=options.load_timeout * 1000)
        location = response.headers.get("location")
        if 300 <= response.status < 400 and location:
            target = urljoin(target, location)
            continue
        declared = response.headers.get("content-length", "")
        if declared.isdigit() and int(declared) > options.max_body_bytes:
            # Not read into this process at all (Playwright's driver has it buffered already).
            await response.dispose()
            raise FetchError(f"{url} is {declared} bytes, over the limit of "
                             f"{options.max_body_bytes}")
        body = await response.body()
        if len(body) > options.max_body_bytes:
            raise FetchError(f"{url} is larger than {options.max_body_bytes} bytes")
        return Capture(url, target, response.status, response.headers.get("content-type", ""),
                       body, tuple(response.headers.items()))
    raise FetchError(f"{url} redirects more than {MAX_REDIRECTS} times")

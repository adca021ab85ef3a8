"""One live tab: its Playwright page and what the page did that a capture must report.

Listeners are attached once when the tab is made. They count requests in flight (for the
network-quiet wait), keep the status and headers of the last main-document response, collect
same-origin JSON/text responses, answer dialogs, take downloads, and notice a renderer crash.
Everything collected is drained by the next capture.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import Coroutine
from typing import Any
from urllib.parse import urlsplit

from playwright.async_api import CDPSession, Dialog, Download, Frame, Page, Request, Response
from playwright.async_api import Error as PlaywrightError

from webshellfs.browser.records import CapturedResponse, DialogRecord, DownloadRecord
from webshellfs.browser.screenshots import viewport_png

# Content types worth keeping as resources; HTML, scripts and styles are the page itself.
_RESOURCE_TYPES = ("application/json", "text/plain", "text/csv", "application/xml", "text/xml")
_MAX_RESOURCES = 50
# Dialogs answered and recorded per capture. The page guard (scripts.PAGE_GUARD) answers the
# rest inside the page; should some still come (a frame the guard missed), the listener is
# taken off and Playwright dismisses them on its own, without a round trip to us.
MAX_DIALOGS = 20
WARM_UP_TIMEOUT_MS = 2000
# How long the caller waits for a capture's screenshot once it has compiled the capture.
SCREENSHOT_WAIT = 10.0


_BACKGROUND: set[asyncio.Task[None]] = set()


def in_background(work: Coroutine[Any, Any, None]) -> None:
    """Run work without waiting for it; the loop holds tasks only weakly, so keep them here
    until they finish."""
    task = asyncio.ensure_future(work)
    _BACKGROUND.add(task)
    task.add_done_callback(_BACKGROUND.discard)


def origin(url: str) -> tuple[str, str]:
    parts = urlsplit(url)
    return parts.scheme, parts.netloc


def without_fragment(url: str) -> str:
    return url.split("#", 1)[0]


def is_resource_type(content_type: str) -> bool:
    kind = content_type.split(";", 1)[0].strip().lower()
    return kind in _RESOURCE_TYPES or kind.endswith("+json")


async def _quietly(work: Coroutine[Any, Any, None]) -> None:
    with contextlib.suppress(Exception):  # the page or the download may be gone already
        await work


class Tab:
    """A live page plus its event bookkeeping (all touched only on the browser loop)."""

    def __init__(self, tab_id: str, page: Page, downloads_allowed: bool, max_body: int) -> None:
        self.id = tab_id
        self.page = page
        self.last_used = time.monotonic()
        self.crashed = asyncio.Event()
        self.captured_url = ""
        self.status = 200
        self.content_type = "text/html"
        self.headers: tuple[tuple[str, str], ...] = ()
        self._document_response: Response | None = None
        self.lock = asyncio.Lock()
        self._inflight: dict[Request, float] = {}
        self._last_network = time.monotonic()
        self._body_tasks: list[asyncio.Task[CapturedResponse | None]] = []
        self._dialogs: list[DialogRecord] = []
        self._dialogs_muted = False
        # How the current call wants dialogs answered: "" or "accept", "dismiss"; and the
        # text for a prompt (None: its default text).
        self.dialog_answer: tuple[str, str | None] = ("", None)
        self.notes: list[str] = []
        self.navigations = 0
        self._warm_document = -1  # the navigation count when warm_up last ran
        # Since the previous snapshot (scripts.PAGE_GUARD): popups window.open made, clicks
        # on download links.
        self.popups_opened = 0
        self.downloads_clicked = 0
        self._downloads_seen = 0
        self._navigations_before = 0
        self._download_tasks: list[asyncio.Task[DownloadRecord]] = []
        self._downloads_allowed = downloads_allowed
        self._max_body = max_body
        # The screenshot of the latest capture, by number: an older one is never asked for.
        self._screenshots = 0
        self._screenshot: tuple[int, asyncio.Task[tuple[bytes, str]]] | None = None
        self._devtools: CDPSession | None = None  # made at the first screenshot, kept
        page.on("request", self._on_request)
        page.on("requestfinished", self._on_request_done)
        page.on("requestfailed", self._on_request_done)
        page.on("response", self._on_response)
        page.on("dialog", self._on_dialog)
        page.on("download", self._on_download)
        page.on("crash", lambda _: self.crashed.set())
        page.on("framenavigated", self._on_navigated)

    def touch(self) -> None:
        self.last_used = time.monotonic()

    @property
    def busy(self) -> bool:
        """A call (open, execute, focus…) is acting on this tab now."""
        return self.lock.locked()

    async def warm_up(self) -> None:
        """Playwright injects its helper scripts into a document on the first evaluation in
        the page's world and the first actionability check in its own: 100-200 ms together.
        Doing both after a capture of a new document, while the caller compiles it, makes the
        first execute on it as fast as the later ones."""
        if self._warm_document == self.navigations:
            return
        self._warm_document = self.navigations
        with contextlib.suppress(Exception):  # the page may be gone or navigating already
            root = self.page.locator("html")
            await root.evaluate("() => 0", timeout=WARM_UP_TIMEOUT_MS)
            await root.is_enabled(timeout=WARM_UP_TIMEOUT_MS)

    def _on_navigated(self, frame: Frame) -> None:
        if frame == self.page.main_frame:
            self.navigations += 1
            response, self._document_response = self._document_response, None
            if response is not None:
                self.status = response.status
                self.headers = tuple(response.headers.items())
                self.content_type = response.headers.get("content-type", "")

    def begin_call(self) -> None:
        """A new open/execute/focus starts: count its navigations from here."""
        self._navigations_before = self.navigations

    @property
    def navigations_this_call(self) -> int:
        return self.navigations - self._navigations_before

    def discard(self) -> None:
        """The tab is leaving the pool: stop waiting for its bodies, downloads, screenshot."""
        for task in (*self._body_tasks, *self._download_tasks):
            task.cancel()
        self._body_tasks.clear()
        self._download_tasks.clear()
        if self._screenshot is not None:
            self._screenshot[1].cancel()
            self._screenshot = None

    # screenshots --------------------------------------------------------------------------

    def start_screenshot(self) -> int:
        """Start taking the viewport now, in the background (the caller compiles meanwhile);
        returns its number for `screenshot`. It replaces the previous capture's."""
        if self._screenshot is not None:
            self._screenshot[1].cancel()
        self._screenshots += 1
        self._screenshot = (self._screenshots, asyncio.ensure_future(self._take_screenshot()))
        return self._screenshots

    async def _take_screenshot(self) -> tuple[bytes, str]:
        if self._devtools is None:
            try:
                self._devtools = await self.page.context.new_cdp_session(self.page)
            except PlaywrightError as error:
                return b"", f"no screenshot.png: no DevTools session for the tab ({error})"
        png, missing = await viewport_png(self._devtools)
        if not png:
            self._devtools = None  # it may be what failed: the next screenshot makes another
        return png, missing

    async def screenshot(self, number: int) -> tuple[bytes, str]:
        """(PNG, "") of the screenshot started as number, or (b"", why there is none)."""
        if self._screenshot is None or self._screenshot[0] != number:
            return b"", "no screenshot.png: the tab captured again before it was kept"
        task = self._screenshot[1]
        try:
            return await asyncio.wait_for(asyncio.shield(task), SCREENSHOT_WAIT)
        except TimeoutError:
            return b"", f"no screenshot.png: it took over {SCREENSHOT_WAIT:g} s"
        except asyncio.CancelledError:
            if task.cancelled():  # the tab left the pool meanwhile
                return b"", "no screenshot.png: the tab was closed before it was taken"
            raise

    # network ------------------------------------------------------------------------------

    def _on_request(self, request: Request) -> None:
        self._inflight[request] = self._last_network = time.monotonic()

    def _on_request_done(self, request: Request) -> None:
        self._inflight.pop(request, None)
        self._last_network = time.monotonic()

    def network_quiet_for(self, stale_after: float) -> float:
        """Seconds since the last request started or ended; 0 while one is in flight. A
        request open for longer than stale_after (a long poll, an event stream) is ignored."""
        now = time.monotonic()
        if any(now - started < stale_after for started in self._inflight.values()):
            return 0.0
        return now - self._last_network

    def _on_response(self, response: Response) -> None:
        request = response.request
        if request.is_navigation_request() and request.frame == self.page.main_frame:
            # The tab's document only once the navigation commits: a response the browser
            # turns into a download (an attachment) never does, and the page stays.
            self._document_response = response
            return
        content_type = response.headers.get("content-type", "")
        if not is_resource_type(content_type):
            return
        if origin(response.url) != origin(self.page.url):
            return
        if len(self._body_tasks) < _MAX_RESOURCES:
            self._body_tasks.append(asyncio.ensure_future(self._read_body(response)))

    async def _read_body(self, response: Response) -> CapturedResponse | None:
        try:
            body = await response.body()
        except Exception:  # noqa: BLE001 — a body the browser already dropped is simply absent
            return None
        if len(body) > self._max_body:
            return None
        return CapturedResponse(response.url, response.headers.get("content-type", ""), body)

    async def drain_resources(self, timeout: float) -> tuple[CapturedResponse, ...]:
        tasks, self._body_tasks = self._body_tasks, []
        if not tasks:
            return ()
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        for task in pending:
            task.cancel()
        return tuple(r for t in tasks if t in done and (r := t.result()) is not None)

    # dialogs and downloads ----------------------------------------------------------------

    def _on_dialog(self, dialog: Dialog) -> None:
        # A listener must answer or the page stalls. Unless the command said otherwise,
        # accepting is what the person who clicked the control meant; a prompt gets its
        # default text.
        how, text = self.dialog_answer
        dismiss = how == "dismiss"
        typed = (dialog.default_value if text is None else text) if dialog.type == "prompt" else None
        in_background(self._answer(dialog, dismiss, typed))
        if len(self._dialogs) >= MAX_DIALOGS:
            self._dialogs_muted = True
            self.page.remove_listener("dialog", self._on_dialog)
            return
        if dismiss:
            answer = "dismissed"
        else:
            answer = "accepted" if typed is None else f"accepted with {typed!r}"
        self._dialogs.append(DialogRecord(dialog.type, dialog.message, answer))

    @staticmethod
    async def _answer(dialog: Dialog, dismiss: bool, typed: str | None) -> None:
        with contextlib.suppress(Exception):  # the page may be gone already
            if dismiss:
                await dialog.dismiss()
            else:
                await dialog.accept(typed)

    def drain_dialogs(self) -> tuple[DialogRecord, ...]:
        """The dialogs since the last capture; after a flood, listen (and record) again."""
        dialogs, self._dialogs = tuple(self._dialogs), []
        if self._dialogs_muted:
            self._dialogs_muted = False
            self.page.on("dialog", self._on_dialog)
            self.notes.append(f"the page raised more than {MAX_DIALOGS} dialogs; the first "
                              f"{MAX_DIALOGS} are listed, the rest were dismissed")
        return dialogs

    def _on_download(self, download: Download) -> None:
        self._downloads_seen += 1
        self._download_tasks.append(asyncio.ensure_future(self._take_download(download)))

    async def _take_download(self, download: Download) -> DownloadRecord:
        """Read a finished download into memory and delete Chromium's file at once."""
        name = download.suggested_filename
        if not self._downloads_allowed:
            # Reported at once: waiting for Chromium to give the refused download up can
            # outlast the capture that should report it.
            in_background(_quietly(download.cancel()))
            return DownloadRecord(download.url, name, b"", "downloads are refused")
        try:
            path = await download.path()
            size = path.stat().st_size
            if size > self._max_body:
                return DownloadRecord(download.url, name, b"", f"{size} bytes is over the cap")
            return DownloadRecord(download.url, name, path.read_bytes())
        except Exception as error:  # noqa: BLE001 — a failed download is reported, not raised
            return DownloadRecord(download.url, name, b"", f"the download failed: {error}")
        finally:
            await download.delete()

    async def drain_downloads(self, timeout: float) -> tuple[DownloadRecord, ...]:
        """Downloads finished within timeout; the others stay for the next capture. A click
        on a download link the page reported is waited for (Chromium announces the download
        only once it has the response headers)."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self._downloads_seen < self.downloads_clicked and loop.time() < deadline:
            await asyncio.sleep(0.02)
        self._downloads_seen = self.downloads_clicked = 0
        tasks, self._download_tasks = self._download_tasks, []
        if not tasks:
            return ()
        done, pending = await asyncio.wait(tasks, timeout=timeout)
        self._download_tasks = [task for task in tasks if task in pending]
        return tuple(task.result() for task in tasks if task in done)

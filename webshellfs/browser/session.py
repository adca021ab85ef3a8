"""The browser side of the room, living on the browser thread's asyncio loop.

One Chromium (launched here, or reached over CDP or a Playwright server), one context per mount
so cookies and storage are shared by every tab, and a capped pool of tabs (the least recently
used closes). Every call runs under a deadline; past it the tab is closed, else the context is
replaced, else the whole browser is killed and relaunched on the next call — and the error says
which tabs were lost. Only `webshellfs.browser.service` calls this, through the bridge.
"""

from __future__ import annotations

import asyncio
import itertools
import os
import re
from collections.abc import Coroutine, Iterator, Mapping
from contextlib import suppress
from dataclasses import replace
from typing import Any, TypeVar

from playwright.async_api import Browser as PlaywrightBrowser
from playwright.async_api import (
    BrowserContext,
    Locator,
    Page,
    Playwright,
    Response,
    async_playwright,
)
from playwright.async_api import Error as PlaywrightError
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from webshellfs.browser.discovery import LISTENER_LOG
from webshellfs.browser.gate import Gate
from webshellfs.browser.gestures import GESTURES
from webshellfs.browser.loading import NavigationLoop, fetch_raw, is_html, settle, snapshot
from webshellfs.browser.operations import OPERATIONS, Inputs
from webshellfs.browser.options import CHROMIUM_ARGS, BrowserOptions
from webshellfs.browser.policy import (
    GATE_HEADER,
    TUNNEL_FAILURE,
    NetworkPolicy,
    net_error,
)
from webshellfs.browser.pool import TabPool
from webshellfs.browser.processes import (
    ChromiumProcesses,
    driver_children,
    marker_environment,
    new_marker,
)
from webshellfs.browser.profile import Profile
from webshellfs.browser.readback import ReadBacks, unmet
from webshellfs.browser.records import Gesture, TabCapture
from webshellfs.browser.scripts import LOCATOR_ATTRIBUTE, MUTATION_CLOCK, page_guard
from webshellfs.browser.tab import MAX_DIALOGS, Tab, in_background, without_fragment
from webshellfs.errors import (
    AccessDenied,
    ActionBlocked,
    FetchError,
    FetchTimeout,
    NotFoundError,
    UsageError,
)
from webshellfs.fetch import Capture

T = TypeVar("T")

HTML_CONTENT_TYPE = "text/html; charset=utf-8"
NO_GESTURE = Gesture()
CLOSE_TIMEOUT = 5.0
RESPONSIVE_TIMEOUT = 1.0
NEW_TAB_TIMEOUT = 15.0
LAUNCH_TIMEOUT = 30.0
PROFILE_TIMEOUT = 5.0


def selector_of(locator: str) -> str:
    """The Playwright selector for a compiled locator: a data-wsfs-id, or an XPath from a
    static compile."""
    if locator.startswith("/"):
        return f"xpath={locator}"
    return f'[{LOCATOR_ATTRIBUTE}="{locator}"]'


def _note_busy(tab: Tab, busy: str) -> None:
    """Say when a capture could not wait for the page to finish, so the agent looks again."""
    if busy:
        tab.notes.append(f"the page was still busy when captured ({busy} pending); "
                         "`focus` on its page captures it again once that has landed")


def first_line(error: BaseException) -> str:
    return str(error).strip().splitlines()[0] if str(error).strip() else type(error).__name__


# What kept an action waiting until its timeout, in a person's words, by the line of
# Playwright's call log that says so (the last such line is the reason).
WAITED_FOR: tuple[tuple[re.Pattern[str], str], ...] = (
    (re.compile(r"^(<.*>) intercepts pointer events$"), r"\1 covers it (a click lands there)"),
    (re.compile(r"^element is not enabled$"), "it is disabled"),
    (re.compile(r"^element is not editable$"), "it is read-only"),
    (re.compile(r"^element is not visible$"), "it is not visible"),
    (re.compile(r"^element is not stable$"), "it keeps moving"),
    (re.compile(r"^element is outside of the viewport$"), "it is outside the page's view"),
)


def why_waited(error: BaseException) -> str:
    """Why a timed-out action never ran (`it is disabled`), from its call log; "" if unsaid."""
    reason = ""
    for line in str(error).splitlines():
        line = line.strip().lstrip("- ").strip()
        for pattern, words in WAITED_FOR:
            if pattern.match(line):
                reason = pattern.sub(words, line)
    return reason


class Session:
    """Chromium, its context and the tab pool; every method runs on the browser loop."""

    def __init__(
        self,
        options: BrowserOptions,
        policy: NetworkPolicy | None = None,
        tab_numbers: Iterator[int] | None = None,
        profile: Profile | None = None,
    ) -> None:
        """tab_numbers: where tab ids come from; a replacement session continues the old
        one's numbering, so a tab id never names two different tabs. profile: where cookies and
        storage are loaded from into each new context, and saved to after every call."""
        self.options = options
        self.profile = profile
        self.processes = ChromiumProcesses(new_marker())
        self.policy = policy or NetworkPolicy(options.rules)
        # A local Chromium sends everything through the gate, which judges every connection
        # (redirect hops included, which route handlers never see).
        self.gate = Gate(self.policy, options.max_body_bytes)
        self._playwright: Playwright | None = None
        self._browser: PlaywrightBrowser | None = None
        self._context: BrowserContext | None = None
        self._pool = TabPool(options.max_tabs, tab_numbers or itertools.count(1),
                             self._make_tab, self._lose_front)
        self._notes: list[str] = []
        self._spare: asyncio.Task[Page] | None = None
        self._front = ""
        self._lock = asyncio.Lock()

    @property
    def running(self) -> bool:
        """Whether a browser is up (a plain read, safe from the trio thread): if not, the next
        call first launches or connects, which may take up to LAUNCH_TIMEOUT."""
        browser = self._browser
        return browser is not None and browser.is_connected()

    # public calls -------------------------------------------------------------------------

    async def open(self, url: str, screenshot: bool = True) -> TabCapture:
        """A new tab at url, loaded and captured. A non-HTML response keeps no tab.
        screenshot: take one (when the options do); a page that is not kept live needs none."""
        await self.policy.check(url)
        tab = await self._new_tab()

        async def run() -> TabCapture:
            await self._to_front(tab)
            return await self._load(tab, url, screenshot)

        try:
            result = await self._guarded(tab, run(), f"loading {url}")
        except BaseException:
            await self._recover(tab)
            raise
        if is_html(result.capture.content_type):
            return result
        await self._recover(tab)
        return TabCapture("", result.capture, True, notes=result.notes)

    async def navigate(self, tab_id: str, url: str) -> TabCapture:
        """Load url in an existing tab (following a link L… in the same tab)."""
        await self.policy.check(url)
        tab = await self._live_tab(tab_id)

        async def run() -> TabCapture:
            await self._to_front(tab)
            return await self._load(tab, url)

        return await self._guarded(tab, run(), f"loading {url}")

    async def execute(
        self,
        tab_id: str,
        locator: str,
        operation: str,
        values: Mapping[str, str],
        gesture: Gesture = NO_GESTURE,
        field_elements: Mapping[str, str] | None = None,
    ) -> TabCapture:
        """Act on one element of a live tab (or, for a gesture with no locator, on the page),
        wait for navigation or the DOM to settle, capture. Without a gesture the action's own
        operation runs, then any keys the gesture names are pressed on the element."""
        act = OPERATIONS.get(operation)
        if gesture.name and gesture.name not in GESTURES:
            raise UsageError(f"unknown gesture {gesture.name!r}; known: {', '.join(GESTURES)}")
        if not gesture.name and act is None:
            raise UsageError(f"unknown operation {operation!r}; known: {', '.join(OPERATIONS)}")
        tab = await self._live_tab(tab_id)
        timeout = self.options.action_timeout * 1000

        async def run() -> TabCapture:
            await self._to_front(tab)
            element = await self._find(tab, locator) if locator else None
            tab.dialog_answer = (gesture.dialog, gesture.answer)
            checks: ReadBacks = ()
            missed: tuple[str, ...] = ()
            if gesture.name:
                target = selector_of(gesture.target) if gesture.target else ""
                await GESTURES[gesture.name](tab.page, element, replace(gesture, target=target),
                                             timeout)
            else:
                assert act is not None and element is not None
                checks = await act(element, Inputs(values, field_elements or {}), timeout)
                if gesture.keys:  # the keys act on the value (Enter takes and clears it)
                    missed, checks = await unmet(checks), ()
                for key in gesture.keys:
                    await element.press(key, timeout=timeout)
            _note_busy(tab, await settle(tab, self.options))
            if not is_html(tab.content_type):
                raw = await self._fetch_raw(tab.page.url)
                return TabCapture(tab.id, raw, navigated=True, unmet=missed)
            # Read back once settled, on the page acted on (not on one it led to).
            if without_fragment(tab.page.url) == without_fragment(tab.captured_url):
                missed += await unmet(checks)
            return replace(await self._capture(tab, tab.captured_url), unmet=missed)

        doing = f"{gesture.name or operation} on {locator or 'the page'}"
        try:
            return await self._guarded(tab, run(), doing)
        finally:
            tab.dialog_answer = ("", None)

    async def focus(self, tab_id: str) -> TabCapture:
        """The tab's current state (it may have changed by itself since the last capture)."""
        tab = await self._live_tab(tab_id)

        async def run() -> TabCapture:
            await self._to_front(tab)
            _note_busy(tab, await settle(tab, self.options))
            return await self._capture(tab, tab.captured_url)

        return await self._guarded(tab, run(), f"capturing tab {tab_id}")

    async def screenshot(self, tab_id: str, number: int) -> tuple[bytes, str]:
        """The screenshot a capture of tab_id started (TabCapture.screenshot_number), once
        taken: (PNG, "") or (b"", why there is none)."""
        tab = self._pool.find(tab_id)
        if tab is None:
            return b"", f"no screenshot.png: tab {tab_id} was closed before it was taken"
        return await tab.screenshot(number)

    async def close_tab(self, tab_id: str) -> None:
        tab = self._pool.get(tab_id)
        await self._recover(tab)
        self._pool.remove(tab, "it was closed")

    async def tabs(self) -> tuple[tuple[str, str], ...]:
        """(tab id, current URL) of every live tab, least recently used first."""
        return self._pool.listing()

    async def saving_profile(self, work: Coroutine[Any, Any, T]) -> T:
        """Run one call, then save the context's cookies and storage to the profile (also
        after a failed call: a login may have happened before the failure)."""
        try:
            result = await work
        except Exception:
            await self._save_profile()
            raise
        await self._save_profile()
        return result

    async def _save_profile(self) -> None:
        context = self._context
        if self.profile is None or context is None:
            return
        try:
            try:
                state = await asyncio.wait_for(context.storage_state(indexed_db=True),
                                               PROFILE_TIMEOUT)
            except PlaywrightError:
                # IndexedDB with typed arrays cannot be saved; cookies and localStorage can.
                state = await asyncio.wait_for(context.storage_state(), PROFILE_TIMEOUT)
            self.profile.save(dict(state))
        except (TimeoutError, PlaywrightError, OSError) as error:
            self._notes.append(f"the browser profile {self.profile.name!r} could not be saved "
                               f"({first_line(error)}); it keeps its previous cookies and storage")

    async def close(self) -> None:
        """Close everything; for a local browser no process of ours survives this."""
        if self._spare is not None:
            self._spare.cancel()
            self._spare = None
        await self._save_profile()
        self._pool.forget_all("the browser was closed")
        if self._context is not None:
            with suppress(Exception):
                await asyncio.wait_for(self._context.close(), CLOSE_TIMEOUT)
        await self._drop_browser()
        if self._playwright is not None:
            with suppress(Exception):
                await asyncio.wait_for(self._playwright.stop(), CLOSE_TIMEOUT)
            self._playwright = None
        if self.options.mode == "local":
            await self._reap()
        await self.gate.close()

    # launching ----------------------------------------------------------------------------

    async def _ensure(self) -> BrowserContext:
        async with self._lock:
            if self._browser is not None and not self._browser.is_connected():
                lost = self._pool.forget_all("the browser crashed")
                self._notes.append(f"the browser had stopped and was started again{lost}")
                await self._drop_browser()
            if self._playwright is None:
                self._playwright = await self._start_driver()
            if self._browser is None:
                try:
                    self._browser = await self._connect(self._playwright)
                except FetchError:
                    # The Playwright driver itself may be what died: start it again, once.
                    with suppress(Exception):
                        await asyncio.wait_for(self._playwright.stop(), CLOSE_TIMEOUT)
                    self._playwright = await self._start_driver()
                    self._browser = await self._connect(self._playwright)
            if self._context is None:
                self._context = await self._new_context(self._browser)
            return self._context

    async def _start_driver(self) -> Playwright:
        """Start Playwright's driver process and remember its pid (see ChromiumProcesses)."""
        before = driver_children()
        playwright = await async_playwright().start()
        started = driver_children() - before
        self.processes.driver = started.pop() if len(started) == 1 else None
        return playwright

    async def _connect(self, playwright: Playwright) -> PlaywrightBrowser:
        chromium = playwright.chromium
        options = self.options
        try:
            if options.mode == "cdp":
                return await chromium.connect_over_cdp(options.endpoint, timeout=LAUNCH_TIMEOUT * 1000)
            if options.mode == "ws":
                return await chromium.connect(options.endpoint, timeout=LAUNCH_TIMEOUT * 1000)
            args = list(CHROMIUM_ARGS)
            if os.geteuid() == 0:
                args.append("--no-sandbox")
            if options.downloads_dir is not None:
                options.downloads_dir.mkdir(parents=True, exist_ok=True)
            browser = await chromium.launch(
                executable_path=options.chromium,
                headless=True,
                args=args,
                env=marker_environment(self.processes.marker),
                downloads_path=options.downloads_dir,
                proxy=await self.gate.proxy(),  # type: ignore[arg-type]
                timeout=LAUNCH_TIMEOUT * 1000,
                ignore_default_args=["--disable-popup-blocking"],
                handle_sigint=False,
                handle_sigterm=False,
                handle_sighup=False,
            )
            self.processes.pids()  # remembers the browser's process group from now on
            return browser
        except PlaywrightError as error:
            where = options.endpoint or options.chromium
            raise FetchError(f"cannot start the browser ({where}): {first_line(error)}") from None

    async def _new_context(self, browser: PlaywrightBrowser) -> BrowserContext:
        # A remote browser on this machine can reach the gate too: its context goes through it.
        # One on another host cannot, and the gate must not listen beyond loopback (an open
        # proxy): there only the route handler judges requests (docs/security.md).
        remote_here = self.options.remote_on_this_machine
        context = await browser.new_context(
            accept_downloads=self.options.downloads_dir is not None,
            service_workers="block",
            storage_state=self.profile.load() if self.profile is not None else None,  # type: ignore[arg-type]
            proxy=await self.gate.proxy() if remote_here else None,  # type: ignore[arg-type]
        )
        await context.add_init_script(LISTENER_LOG)
        await context.add_init_script(MUTATION_CLOCK)
        await context.add_init_script(page_guard(MAX_DIALOGS))
        if not (self.options.mode == "local" or remote_here):
            # Routing turns Chromium's HTTP cache off (every page would fetch its styles,
            # scripts and images again) and costs a round trip per request: only a browser
            # that cannot reach the gate has its requests judged this way instead.
            await context.route("**/*", self.policy.route)
        await context.route_web_socket(lambda _: True, self.policy.route_web_socket)
        return context

    async def _drop_browser(self) -> None:
        browser, self._browser, self._context = self._browser, None, None
        if browser is not None:
            with suppress(Exception):
                await asyncio.wait_for(browser.close(), CLOSE_TIMEOUT)

    # tabs ---------------------------------------------------------------------------------

    async def _new_tab(self) -> Tab:
        """A tab for open: the spare blank page made after the previous open, or a new one.
        Making a page costs more than loading a small one, so the next is made in advance."""
        context = await self._ensure()
        spare, self._spare = self._spare, None
        page = await self._take_spare(spare, context)
        if page is None:
            try:
                page = await asyncio.wait_for(context.new_page(), NEW_TAB_TIMEOUT)
            except (TimeoutError, PlaywrightError) as error:
                await self._kill_browser()
                raise FetchError(f"the browser could not open a tab ({first_line(error)}); "
                                 "it is started again on the next command") from None
        tab = self._pool.adopt(page)
        self._spare = asyncio.ensure_future(self._make_spare(context))
        return tab

    @staticmethod
    async def _take_spare(
        spare: asyncio.Task[Page] | None, context: BrowserContext
    ) -> Page | None:
        if spare is None or spare.cancelled():
            return None
        try:
            page = await asyncio.wait_for(spare, NEW_TAB_TIMEOUT)
        except (TimeoutError, PlaywrightError):
            return None
        return page if page.context is context and not page.is_closed() else None

    async def _make_spare(self, context: BrowserContext) -> Page:
        page = await context.new_page()
        # A new page takes the front; give it back to the tab that should have it.
        wanted = self._pool.find(self._front)
        if wanted is not None:
            with suppress(PlaywrightError):
                await wanted.page.bring_to_front()
        return page

    async def _to_front(self, tab: Tab) -> None:
        """Make tab the visible one: Chromium throttles animation frames in background tabs,
        and Playwright's actions wait for those frames."""
        if self._front != tab.id:
            self._front = tab.id
            await tab.page.bring_to_front()

    def _make_tab(self, tab_id: str, page: Page) -> Tab:
        return Tab(tab_id, page, self.options.downloads_dir is not None,
                   self.options.max_body_bytes)

    def _lose_front(self) -> None:
        """A page opened another, which took the front: the next action brings its tab back."""
        self._front = ""

    async def _live_tab(self, tab_id: str) -> Tab:
        await self._ensure()
        tab = self._pool.get(tab_id)
        tab.touch()
        return tab

    async def _find(self, tab: Tab, locator: str) -> Locator:
        """The element an action names, in the page or any of its frames."""
        selector = selector_of(locator)
        for frame in tab.page.frames:
            found = frame.locator(selector)
            if await found.count() > 0:
                return found.first
        raise NotFoundError(f"the element {locator} is no longer on the page in tab {tab.id}")

    # deadlines and recovery ---------------------------------------------------------------

    async def _guarded(self, tab: Tab, work: Coroutine[Any, Any, T], doing: str) -> T:
        """Run work for tab under the call deadline, watching for a renderer crash. Calls on
        one tab run one at a time; calls on different tabs run concurrently."""
        deadline = self.options.call_deadline

        async def one_at_a_time() -> T:
            async with tab.lock:
                tab.begin_call()
                return await work

        task = asyncio.ensure_future(one_at_a_time())
        crash = asyncio.ensure_future(tab.crashed.wait())
        try:
            await asyncio.wait({task, crash}, timeout=deadline,
                               return_when=asyncio.FIRST_COMPLETED)
        finally:
            crash.cancel()
            if not task.done():
                task.cancel()
        if tab.crashed.is_set():
            await self._recover(tab)
            self._pool.remove(tab, "its renderer crashed")
            raise FetchError(f"the page crashed while {doing}; tab {tab.id} was closed")
        if not task.done() or task.cancelled():
            how = await self._recover(tab)
            raise FetchTimeout(f"{doing} did not finish within {deadline:.0f} s; {how}")
        error = task.exception()
        if error is None:
            return task.result()
        if isinstance(error, PlaywrightError):
            raise await self._explain(error, tab, doing) from None
        if isinstance(error, NavigationLoop):
            raise NavigationLoop(f"{error}; {await self._recover(tab)}") from None
        raise error

    async def _explain(self, error: PlaywrightError, tab: Tab, doing: str) -> FetchError:
        """The domain error for a Playwright failure, after finding out what actually broke:
        the browser, a frozen page (then closed), or only this one step."""
        if await self._browser_died(patient="closed" in str(error).lower()):
            lost = self._pool.forget_all("the browser crashed")
            return FetchError(f"the browser crashed while {doing}; "
                              f"it is started again on the next command{lost}")
        if self.policy.caused(str(error)):
            # The refusal is this error's message; it must not turn up again as a later note.
            return AccessDenied(self._drain(self.policy.refused)[-1])
        if isinstance(error, PlaywrightTimeoutError):
            if await self._responsive(tab):
                reason = why_waited(error)
                if reason:
                    return ActionBlocked(f"{doing}: {reason} "
                                         f"(waited {self.options.action_timeout:g} s)")
                return FetchTimeout(f"{doing}: {first_line(error)}")
            how = await self._recover(tab)
            # What timed out (a click, a raw mouse press) says how long the page was given.
            return FetchTimeout(f"{doing}: the page stopped responding "
                                f"({first_line(error)}); {how}")
        return FetchError(f"{doing} failed in the browser: {first_line(error)}")

    async def _browser_died(self, patient: bool) -> bool:
        """Whether the browser is gone; a dead pipe is noticed a moment after the failure it
        caused, so a "closed" error waits briefly for the disconnect to arrive."""
        for _ in range(10 if patient else 1):
            if self._browser is None or not self._browser.is_connected():
                return True
            if patient:
                await asyncio.sleep(0.05)
        return False

    async def _responsive(self, tab: Tab) -> bool:
        try:
            await asyncio.wait_for(tab.page.evaluate("1"), RESPONSIVE_TIMEOUT)
        except (TimeoutError, PlaywrightError):
            return False
        return True

    async def _recover(self, tab: Tab) -> str:
        """Close a tab that hung or failed; if even that hangs, replace the context, and if
        that hangs too, kill the browser. Returns what was done, for the error message."""
        self._pool.remove(tab)
        try:
            await asyncio.wait_for(tab.page.close(), CLOSE_TIMEOUT)
            return f"tab {tab.id} was closed"
        except (TimeoutError, PlaywrightError):
            if tab.page.is_closed():  # it went while we closed it (a navigation race): enough
                return f"tab {tab.id} was closed"
        context = self._context
        if context is not None:
            lost = self._pool.forget_all("the browser context was replaced after a hang")
            self._context = None
            try:
                await asyncio.wait_for(context.close(), CLOSE_TIMEOUT)
                return f"the browser context was replaced{lost}"
            except (TimeoutError, PlaywrightError):
                pass
        lost = self._pool.forget_all("the browser was killed after a hang")
        await self._kill_browser()
        return f"the browser was killed and is started again on the next command{lost}"

    async def _kill_browser(self) -> None:
        if self.options.mode == "local":
            self.processes.kill()
        await self._drop_browser()

    async def _reap(self) -> None:
        """Kill what is left of our Chromium and wait (briefly) until it is gone."""
        for _ in range(40):
            if self.processes.kill() == 0:
                return
            await asyncio.sleep(0.05)

    # loading, settling, capturing ---------------------------------------------------------

    async def _load(self, tab: Tab, url: str, screenshot: bool = True) -> TabCapture:
        timeout = self.options.load_timeout
        try:
            response = await tab.page.goto(url, wait_until="domcontentloaded",
                                           timeout=timeout * 1000)
        except PlaywrightTimeoutError:
            raise FetchTimeout(f"{url} did not finish loading within {timeout:.0f} s") from None
        except PlaywrightError as error:
            if "Download is starting" in str(error):
                return TabCapture(tab.id, await self._fetch_raw(url), True)
            unreachable = self.policy.unreachable_error(url)
            if TUNNEL_FAILURE in str(error) and unreachable:
                raise FetchError(f"loading {url} failed in the browser: {unreachable}") from None
            raise
        refusal = self._gate_refusal(url, response)
        if refusal is not None:
            raise refusal
        if response is not None and not is_html(response.headers.get("content-type", "")):
            # The browser shows PDFs, images and JSON in viewers of its own; the bytes the
            # server sent are what the compiler needs.
            return TabCapture(tab.id, await self._fetch_raw(url), True)
        await settle(tab, self.options)
        return await self._capture(tab, tab.captured_url, requested_url=url,
                                   screenshot=screenshot)

    def _gate_refusal(self, url: str, response: Response | None) -> FetchError | None:
        """The error a load is when the gate answered in the page's place (the address
        refused, or not reachable) or cut the page's body off (over the size limit)."""
        if response is None:
            return None
        why = response.headers.get(GATE_HEADER.lower())
        if why is None and not self.policy.cut(response.url):
            return None
        if why is None or why == "refused":
            notes = self._drain(self.policy.refused)
            return AccessDenied(notes[-1] if notes else f"{url} was refused by the network policy")
        return FetchError(f"loading {url} failed in the browser: {net_error(why)}")

    async def _fetch_raw(self, url: str) -> Capture:
        assert self._context is not None
        return await fetch_raw(self._context, self.policy, url, self.options)

    async def _capture(
        self, tab: Tab, previous_url: str, requested_url: str = "", screenshot: bool = True
    ) -> TabCapture:
        url, body = await snapshot(tab, self.options)
        tab.captured_url = url
        # Taken while the caller compiles the snapshot: `screenshot` below hands it over.
        shot = tab.start_screenshot() if screenshot and self.options.screenshots else 0
        await self._pool.wait_for_popups(tab, tab.popups_opened, self.options.settle_cap)
        popups, popups_closed = self._pool.take_popups(tab)
        if popups_closed:
            tab.notes.append(f"the page opened {len(popups) + popups_closed} windows; "
                             f"{popups_closed} past the first {len(popups)} were closed at once")
        capture = Capture(requested_url or url, url, tab.status, HTML_CONTENT_TYPE, body,
                          tab.headers)
        in_background(tab.warm_up())
        return TabCapture(
            tab_id=tab.id,
            capture=capture,
            navigated=without_fragment(url) != without_fragment(previous_url),
            resources=await tab.drain_resources(self.options.settle_cap),
            dialogs=tab.drain_dialogs(),
            downloads=await tab.drain_downloads(self.options.settle_cap),
            new_tabs=popups,
            closed_tabs=self._pool.take_capped(),
            notes=(self._drain(self._notes) + self._drain(tab.notes)
                   + self._drain(self.policy.refused)),
            screenshot_number=shot,
        )

    @staticmethod
    def _drain(items: list[str]) -> tuple[str, ...]:
        drained = tuple(dict.fromkeys(items))
        items.clear()
        return drained

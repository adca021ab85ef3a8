"""The trio face of the browser: what the engine calls.

Each call runs on the browser thread (bridge.py) and is awaited from trio without blocking the
trio thread. The browser thread applies each call's own deadline and recovery; on top of that
the trio side gives it `recovery_grace` seconds more, and if the loop still has not answered it
kills our Chromium processes and starts a fresh thread and browser for the next call.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Coroutine, Mapping
from typing import Any, TypeVar

from webshellfs.browser.bridge import BrowserLoop, LoopStuck
from webshellfs.browser.options import BrowserOptions
from webshellfs.browser.policy import NetworkPolicy
from webshellfs.browser.processes import ChromiumProcesses
from webshellfs.browser.profile import Profile
from webshellfs.browser.records import Gesture, TabCapture
from webshellfs.browser.session import LAUNCH_TIMEOUT, Session
from webshellfs.errors import FetchError, FetchTimeout

T = TypeVar("T")

CLOSE_DEADLINE = 30.0


class Browser:
    """A live browser for one mount: `open`, `execute`, `navigate`, `focus`, `close_tab`."""

    def __init__(self, options: BrowserOptions, policy: NetworkPolicy | None = None) -> None:
        """policy: the network policy for every request; by default the options' one. With a
        profile, it is taken for this browser at once (UsageError if another mount has it)
        and given back when the browser closes."""
        self.options = options
        self._policy = policy
        self._profile: Profile | None = None
        if options.profile_dir is not None:
            self._profile = Profile(options.profile_dir)
            self._profile.lock()
        self._loop: BrowserLoop | None = None
        self._session: Session | None = None
        self._tab_numbers = itertools.count(1)

    def _started(self) -> tuple[BrowserLoop, Session]:
        if self._loop is None or self._session is None:
            self._loop = BrowserLoop()
            self._session = Session(self.options, self._policy, self._tab_numbers, self._profile)
        return self._loop, self._session

    async def _call(self, make: Callable[[Session], Coroutine[Any, Any, T]]) -> T:
        loop, session = self._started()
        deadline = self.options.call_deadline + self.options.recovery_grace
        if not session.running:
            deadline += LAUNCH_TIMEOUT
        try:
            return await loop.run(make(session), deadline)
        except LoopStuck:
            if loop is not self._loop:  # another call already gave this browser up
                raise FetchError("the browser was replaced while this call ran; "
                                 "all its tabs are lost") from None
            session.processes.kill_driver()
            self._abandon(loop, session, wedged=True)
            raise FetchTimeout("the browser stopped answering; it was killed and is started "
                               "again on the next command (all its tabs are lost)") from None

    def _abandon(self, loop: BrowserLoop, session: Session, wedged: bool = False) -> None:
        """Make sure nothing of this browser outlives it, and start afresh on the next call."""
        if loop is self._loop:
            self._loop = self._session = None
        if self.options.mode == "local":
            session.processes.kill()
        loop.stop(timeout=1.0 if wedged else 10.0)

    async def open(self, url: str, screenshot: bool = True) -> TabCapture:
        """Load url in a new tab and capture it (tab_id is "" for a non-HTML response).
        screenshot=False: no screenshot.png is wanted (a page not kept live)."""
        return await self._call(lambda s: s.saving_profile(s.open(url, screenshot)))

    async def execute(
        self,
        tab_id: str,
        locator: str,
        operation: str,
        values: Mapping[str, str] | None = None,
        gesture: Gesture | None = None,
        field_elements: Mapping[str, str] | None = None,
    ) -> TabCapture:
        """Run operation (click, fill, select, check, uncheck, submit, enter, navigate…) on the
        element with that locator (a data-wsfs-id, or an XPath from a static compile), or a
        gesture (double-click, key presses, drag … see browser/gestures.py) instead; a gesture
        with no locator acts on the page. For a form, field_elements gives the data-wsfs-id of
        each named field as the capture saw it, for the fields the page gave no name."""
        how = gesture or Gesture()
        return await self._call(lambda s: s.saving_profile(
            s.execute(tab_id, locator, operation, values or {}, how, field_elements)))

    async def navigate(self, tab_id: str, url: str) -> TabCapture:
        return await self._call(lambda s: s.saving_profile(s.navigate(tab_id, url)))

    async def focus(self, tab_id: str) -> TabCapture:
        return await self._call(lambda s: s.saving_profile(s.focus(tab_id)))

    async def screenshot(self, capture: TabCapture) -> tuple[bytes, str]:
        """The screenshot.png of a capture, taken on the browser thread while the caller
        compiled it: (PNG, "") or (b"", why there is none, for the daemon's log)."""
        if not capture.screenshot_number:
            return b"", ""
        return await self._call(lambda s: s.screenshot(capture.tab_id, capture.screenshot_number))

    async def close_tab(self, tab_id: str) -> None:
        await self._call(lambda s: s.close_tab(tab_id))

    async def tabs(self) -> tuple[tuple[str, str], ...]:
        return await self._call(lambda s: s.tabs())

    async def aclose(self) -> None:
        """Close the browser (saving its profile); afterwards no Chromium process of ours is
        left, and the profile is free for another mount."""
        loop, session = self._loop, self._session
        try:
            if loop is None or session is None:
                return
            try:
                await loop.run(session.close(), CLOSE_DEADLINE)
            except LoopStuck:
                self._abandon(loop, session, wedged=True)
                return
            self._abandon(loop, session)
        finally:
            self._release_profile()

    def close_blocking(self) -> None:
        """aclose() for code without a trio loop (test teardown, benchmarks)."""
        loop, session = self._loop, self._session
        try:
            if loop is None or session is None:
                return
            try:
                loop.run_blocking(session.close(), CLOSE_DEADLINE)
            except TimeoutError:
                self._abandon(loop, session, wedged=True)
                return
            self._abandon(loop, session)
        finally:
            self._release_profile()

    def _release_profile(self) -> None:
        if self._profile is not None:
            self._profile.unlock()

    @property
    def processes(self) -> ChromiumProcesses:
        """The Chromium processes of this browser (a local one), for counting and killing."""
        return self._started()[1].processes

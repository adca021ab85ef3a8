"""The live side of the engine: which page each browser tab shows, and execute / focus / close.

Each open tab shows exactly one stored page (or page state); `_pages.tsv` says `active` for the
page whose tab was used last, `live` for the other open tabs and `stored` for the rest. After an
action the tab shows the resulting page: a new page when it navigated, a state when the same URL
changed (`_state.md` holds the diff), an earlier state's address when the result is identical to
it, and the same page when nothing changed. A page its tab has moved on from (an earlier state,
a page the tab left): the command acts on what the tab shows now when the same control (kind and
label) is there; else a page as its URL loads is opened again in a new tab, as a person goes
back to it, and a state an action made is refused (a fresh copy lacks what was done on it). A
page without a tab is reopened from its URL, and the control is confirmed (same kind and label)
before anything is done.
"""

from __future__ import annotations

import contextlib
import dataclasses
import functools
import logging
import re
from collections.abc import Awaitable, Callable, Iterator, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any
from urllib.parse import urldefrag

import trio

from webshellfs import ctl
from webshellfs.browser import (
    Browser,
    BrowserFetcher,
    CapturedResponse,
    Gesture,
    TabCapture,
    TabGone,
)
from webshellfs.browser.records import WordsNotShown
from webshellfs.compiler import KnownAction, KnownLink, PriorActions
from webshellfs.contract.layout import (
    MAP_FILE,
    RESOURCE_COLUMNS,
    FileDiff,
    clean_field,
    diff_files,
    render_page,
    state_digest,
)
from webshellfs.engine.effect import bounded, effect_lines, page_outline
from webshellfs.engine.inputs import TYPED_KINDS, action_title, check_inputs, find_by_label
from webshellfs.engine.records import Answer, Outcome, name_page
from webshellfs.engine.uploads import upload_paths
from webshellfs.errors import (
    AccessDenied,
    ActionBlocked,
    FetchError,
    FetchTimeout,
    NotFoundError,
    UsageError,
)
from webshellfs.fetch import Capture, Fetcher, HttpStatusError
from webshellfs.store import PageRecord, Store

__all__ = ["ActionOutcome", "Compiled", "LiveTabs", "StateNote", "StoredFetcher"]

log = logging.getLogger(__name__)

PATHS_SHOWN = 8
REOPENED_AS = {
    "page": "it led elsewhere",
    "state": "it has changed since",
    "earlier": "as in that earlier state",
    "unchanged": "",
}


@dataclass(frozen=True)
class StateNote:
    """What makes a stored page a state: the page before, and the action and inputs."""

    previous: str
    action: str
    inputs: tuple[str, ...]
    diff: FileDiff
    effect: tuple[str, ...] = ()  # what it changed, line by line (engine/effect.py)


@dataclass(frozen=True)
class Compiled:
    """A compiled capture and the digests of its rendered files (see layout.file_digests)."""

    page: Any  # CompiledPage
    digests: dict[str, str]

    @property
    def digest(self) -> str:
        return state_digest(self.digests)


@dataclass(frozen=True)
class ActionOutcome:
    """Where an action led, without the words of an answer (exploration reads this): how is
    page | state | earlier | unchanged, record the page the tab shows now."""

    how: str
    record: PageRecord
    diff: FileDiff
    result: TabCapture


Compile = Callable[..., Awaitable[Compiled]]
Keep = Callable[..., Awaitable[PageRecord]]


@dataclass
class _Placed:
    """Where a capture landed: the page its tab now shows, and how it got there."""

    record: PageRecord
    how: str  # "page" | "state" | "earlier" | "unchanged"
    diff: FileDiff = field(default_factory=FileDiff)
    resources: tuple[Any, ...] = ()  # the Resources of the page it shows
    # Where each action and link of the capture is in the tab's DOM now: for a page reached
    # again ("earlier", "unchanged") the stored locators are those of its first capture.
    locators: dict[str, str] = field(default_factory=dict)
    # For a page reached again ("earlier", "unchanged"): the control with keyboard focus now,
    # where it is not the one its stored _map.md names ("" for none); None where it is.
    # _map.md is left out of a state's identity, so keys that only move the focus (arrows in a
    # menu, Tab in a dialog) change no file.
    focus_moved: str | None = None
    # A state, or a page reached again: what changed from the page acted on (effect.py).
    effect: tuple[str, ...] = ()
    # A new page it led to: its outline (effect.page_outline).
    outline: tuple[str, ...] = ()

    def resource_file(self, url: str, body: bytes) -> str:
        """`N0005/R0002 (resources/R0002.pdf)`: where a kept response or download is."""
        for resource in reversed(self.resources):
            if resource.url == url and resource.data == body:
                path = f"resources/{resource.id}.{resource.extension}"
                return f"{self.record.page_id}/{resource.id} ({path})"
        return ""


def _moved(focus: str, stored_meta: Mapping[str, Any]) -> str | None:
    return None if focus == stored_meta.get("focus", "") else focus


def _focus_now(placed: _Placed) -> list[str]:
    """Where the keyboard focus went, for a page reached again whose _map.md names another
    control (or none)."""
    if placed.focus_moved is None:
        return []
    now = placed.focus_moved or "none (no control has it)"
    page = placed.record.page_id
    return [f"focus now: {now} ({page}/_map.md names the focus of its first capture)"]


def _inputs_shown(values: Mapping[str, str]) -> tuple[str, ...]:
    return tuple(f"{name}={value}" for name, value in values.items())


def _paths(paths: tuple[str, ...]) -> str:
    shown = ", ".join(paths[:PATHS_SHOWN])
    return shown + (f" … {len(paths) - PATHS_SHOWN} more" if len(paths) > PATHS_SHOWN else "")


class LiveTabs:
    """The pages shown in browser tabs, and the live commands. `compile` and `keep` are the
    engine's one compile-and-store path."""

    def __init__(
        self,
        browser: Browser,
        store: Store,
        compile: Compile,
        keep: Keep,
        uploads: Path | None = None,
        max_upload_bytes: int = 0,
    ) -> None:
        """uploads: the directory `upload` may take files from (None refuses uploads)."""
        self.browser = browser
        self.store = store
        self.uploads = uploads
        self.max_upload_bytes = max_upload_bytes
        self._compile = compile
        self._keep = keep
        self._tab_of: dict[str, str] = {}  # page id → tab id
        self._left: dict[str, str] = {}  # page id → the open tab that showed it and moved on
        self._live_locators: dict[str, dict[str, str]] = {}  # page id → object id → locator
        self._active = ""
        # One live command at a time: each reads which tab shows which page, acts, and moves the
        # tab to the result; interleaved, two could act on a page the other just replaced.
        self._one_at_a_time = trio.Lock()

    # --- statuses -------------------------------------------------------------------------------

    async def _set(self, changes: Mapping[str, str]) -> None:
        for page, status in changes.items():
            await trio.to_thread.run_sync(self.store.set_status, page, status)

    async def show(self, page: str, tab: str, locators: Mapping[str, str] | None = None) -> None:
        """page is now what tab shows, in front: the page the tab showed before is stored.
        locators: where its actions and links are in the tab's DOM now, when that may differ
        from what the page stored (a state reached again after a re-render)."""
        changes: dict[str, str] = {}
        for other, other_tab in list(self._tab_of.items()):
            if other_tab == tab and other != page:
                del self._tab_of[other]
                self._live_locators.pop(other, None)
                self._left[other] = tab
                changes[other] = "stored"
        self._left.pop(page, None)
        if locators is not None:
            self._live_locators[page] = dict(locators)
        if self._active and self._active != page and self._active in self._tab_of:
            changes[self._active] = "live"
        self._tab_of[page] = tab
        self._active = page
        changes[page] = "active"
        await self._set(changes)

    def moved_on_from(self, page: str) -> bool:
        """Whether an open tab showed page and now shows another (acting on page acts there)."""
        return self._shown_instead(page) is not None

    async def add_background(self, page: str, tab: str) -> None:
        """A page in a tab that is not the one in use (a popup)."""
        self._tab_of[page] = tab
        await self._set({page: "live"})

    async def tabs_closed(self, tabs: tuple[str, ...]) -> list[str]:
        """The pool closed these tabs: their pages are stored. Returns those pages."""
        gone = [page for page, tab in self._tab_of.items() if tab in tabs]
        for page in [page for page, tab in self._left.items() if tab in tabs]:
            del self._left[page]
        for page in gone:
            del self._tab_of[page]
            self._live_locators.pop(page, None)
            if self._active == page:
                self._active = ""
        await self._set({page: "stored" for page in gone})
        return gone

    async def sync(self) -> list[str]:
        """Pages whose tabs the browser no longer has (a relaunch lost them, a renderer crashed)
        become stored; returns them."""
        if not self._tab_of:
            return []
        open_tabs = dict(await self.browser.tabs())
        return await self.tabs_closed(tuple(t for t in self._tab_of.values() if t not in open_tabs))

    async def _tab_for(self, page: str) -> str | None:
        """page's tab if it is still open in the browser; otherwise its page is stored."""
        await self.sync()
        return self._tab_of.get(page)

    # --- placing a capture ----------------------------------------------------------------------

    async def picture(self, result: TabCapture) -> bytes:
        """The screenshot.png the browser took of a capture while it was compiled; b"" if it
        has none (the daemon's log says why one failed: it never fails the command)."""
        try:
            png, missing = await self.browser.screenshot(result)
        except FetchError as error:
            png, missing = b"", f"no screenshot.png: {error}"
        if missing:
            log.warning("%s (%s)", missing, result.capture.url)
        return png

    async def _earlier_state(
        self, url: str, digest: str
    ) -> tuple[PageRecord, dict[str, Any]] | None:
        """The latest stored page of this URL with this digest, and its meta."""
        def find() -> tuple[PageRecord, dict[str, Any]] | None:
            for record in reversed(self.store.pages_with_url(url)):
                meta = self.store.page_meta(record.page_id)
                if meta.get("digest") == digest:
                    return record, meta
            return None

        return await trio.to_thread.run_sync(find)

    async def place(
        self,
        base: PageRecord,
        base_meta: Mapping[str, Any],
        result: TabCapture,
        via: str,
        action: str,
        inputs: tuple[str, ...],
        navigated: bool | None = None,
    ) -> _Placed:
        """Store what the tab shows after acting on base (unless it is already stored).
        navigated: whether it is another page (default: what the browser said). A state of
        the same page keeps the ids of base's controls that are still there."""
        elsewhere = result.navigated if navigated is None else navigated
        prior = None if elsewhere else prior_actions(base_meta)
        kept = result.kept
        if not kept and not elsewhere:
            # Received nothing new: the page still holds what base received (a scroll that
            # loads nothing leaves the page as it was, not a state without its resources).
            kept = await trio.to_thread.run_sync(stored_responses, self.store, base.page_id)
        compiled = await self._compile(result.capture, kept, prior)
        capture = result.capture
        resources = compiled.page.resources
        now = _locators_of(compiled.page)
        if elsewhere:
            visited = await trio.to_thread.run_sync(self._last_visit, capture.url)
            record = await self._keep(compiled, capture, via=via, parent=base.page_id,
                                      screenshot=await self.picture(result))
            outline = await self._told(record, compiled, visited)
            return _Placed(record, "page", resources=resources, locators=now,
                           outline=tuple(outline))
        focus = compiled.page.focus
        if compiled.digest == base_meta.get("digest"):
            return _Placed(base, "unchanged", resources=resources, locators=now,
                           focus_moved=_moved(focus, base_meta))
        earlier = await self._earlier_state(capture.url, compiled.digest)
        before = base_meta.get("files") or {}
        if earlier is not None:
            record, meta = earlier
            diff = diff_files(before, meta.get("files") or {})
            effect = await trio.to_thread.run_sync(
                self._effect, base.page_id, diff,
                lambda: functools.partial(self.store.read_file, record.page_id))
            return _Placed(record, "earlier", resources=resources, locators=now,
                           focus_moved=_moved(focus, meta), effect=effect)
        diff = diff_files(before, compiled.digests)
        effect = await trio.to_thread.run_sync(
            self._effect, base.page_id, diff, lambda: render_page(compiled.page).get)
        note = StateNote(base.page_id, action, inputs, diff, effect)
        record = await self._keep(compiled, capture, via=via, parent=base.page_id, state=note,
                                  screenshot=await self.picture(result))
        return _Placed(record, "state", diff, resources, now, effect=effect)

    def _last_visit(self, url: str) -> tuple[PageRecord, dict[str, Any]] | None:
        """The newest stored page of url and its meta (in a thread): what a page the tab has
        just led to is compared with."""
        pages = self.store.pages_with_url(url)
        return (pages[-1], self.store.page_meta(pages[-1].page_id)) if pages else None

    async def _told(
        self, record: PageRecord, compiled: Compiled,
        visited: tuple[PageRecord, dict[str, Any]] | None,
    ) -> list[str]:
        """What an answer shows of a page an action led to: what changed since its URL's last
        visit (a list after an add, with its "Added …" message), else its outline."""
        if visited is not None:
            last, meta = visited
            diff = diff_files(meta.get("files") or {}, compiled.digests)
            effect = await trio.to_thread.run_sync(
                self._effect, last.page_id, diff, lambda: render_page(compiled.page).get)
            if effect:
                return [f"changed since {last.page_id}, this URL's last visit:",
                        *bounded(effect, f"cat {record.page_id}/_map.md")]
        map_md = await trio.to_thread.run_sync(self.store.read_file, record.page_id, MAP_FILE)
        return page_outline(record.page_id, compiled.page, map_md or b"")

    def _effect(
        self, base: str, diff: FileDiff, reader: Callable[[], Callable[[str], bytes | None]]
    ) -> tuple[str, ...]:
        """What changed from base to the state reader() reads the files of (in a thread: it
        reads the store and may render the new state's files)."""
        if not diff:
            return ()
        return tuple(effect_lines(diff, functools.partial(self.store.read_file, base), reader()))

    # --- commands -------------------------------------------------------------------------------

    async def execute(self, command: ctl.Execute, record: PageRecord) -> str:
        async with self._one_at_a_time:
            try:
                return await self._execute(command, record)
            except (FetchError, Answer):
                await self._after_failure()
                raise

    async def outcome_of(self, command: ctl.Execute, record: PageRecord) -> ActionOutcome:
        """Run an action as execute does (reopening a page that has no tab) and say where it
        led; the tab is left showing the result."""
        async with self._one_at_a_time:
            try:
                page = record.page_id
                meta = await trio.to_thread.run_sync(self.store.page_meta, page)
                action, values = _action_of(command, meta, page)
                title = action_title(command.object_id, action)
                tab, base, base_meta, result = await self._act(record, meta, command, action,
                                                               values, (), [])
                placed = await self.place(base, base_meta, result, command.object_id,
                                          _state_action(command, title), ())
                await self.show(placed.record.page_id, tab, placed.locators)
                return ActionOutcome(placed.how, placed.record, placed.diff, result)
            except (FetchError, Answer):
                await self._after_failure()
                raise

    async def _after_failure(self) -> None:
        """A failed browser call may have lost tabs (a crash, a context replaced after a hang,
        as its error says): their pages are stored from now on."""
        with contextlib.suppress(FetchError):
            await self.sync()

    async def _execute(self, command: ctl.Execute, record: PageRecord) -> str:
        page = record.page_id
        meta = await trio.to_thread.run_sync(self.store.page_meta, page)
        if command.label:
            command = replace(command, object_id=find_by_label(meta, command.label, page),
                              label="")
        action, values = _action_of(command, meta, page)
        title = action_title(command.object_id, action) if command.object_id else page
        if command.text:
            title = f'{title} "{command.text}"' if command.object_id else f'"{command.text}"'
        inputs = _inputs_shown(values)
        lines = [_did(command, title, inputs, meta, page)]
        files = self._upload_files(command)
        try:
            tab, base, base_meta, result = await self._act(record, meta, command, action,
                                                           values, files, lines)
        except WordsNotShown as error:
            raise Answer(Outcome.FAILED, await self._words_answer(error, record, meta)) from None
        via = command.object_id or command.gesture
        placed = await self.place(base, base_meta, result, via, _state_action(command, title),
                                  inputs)
        await self.show(placed.record.page_id, tab, placed.locators)
        name_page(placed.record.page_id)
        lines += self._outcome(base, placed)
        if command.gesture == "highlight":
            # The gesture checked that the page holds exactly these words selected.
            lines.append(f'selected: "{command.text}"' if command.text
                         else f"selected: the whole text of {command.object_id}")
        lines += await self._aftermath(result, placed, via)
        if result.unmet:
            # Stored all the same: the answer says what the page shows instead.
            submitted = command.submit and action.get("kind") == "submit"
            lines[1:1] = _not_as_asked(result.unmet, submitted, placed.record.page_id)
            raise Answer(Outcome.FAILED, "\n".join(lines))
        return "\n".join(lines) + "\n"

    def _upload_files(self, command: ctl.Execute) -> tuple[str, ...]:
        if command.gesture != "upload":
            return ()
        return upload_paths(command.files, self.uploads, self.max_upload_bytes)

    async def _act(
        self, record: PageRecord, meta: dict[str, Any], command: ctl.Execute,
        action: dict[str, Any], values: dict[str, str], files: tuple[str, ...], lines: list[str],
    ) -> tuple[str, PageRecord, dict[str, Any], TabCapture]:
        """Act in the page's tab; in the tab that has moved on from it, on what it shows now;
        else in a reopened one. Returns the tab, the page acted on (a reopened one may be a
        newer state), its meta and the capture."""
        tab = await self._tab_for(record.page_id)
        shows_now = self._shown_instead(record.page_id) if tab is None else None
        if shows_now is not None:
            moved = await self._moved_on(record, meta, shows_now, command, action, lines)
            if moved is not None:
                tab, record, meta, command, action, values = moved
        act = functools.partial(self._act_in, record=record, meta=meta, command=command,
                                action=action, values=values, files=files, lines=lines)
        try:
            return await act(tab)
        except TabGone:
            # Closed between being found and being used (the cap, making room for another
            # session's open): the page is stored now, and reopened like any stored page, once.
            await self.sync()
        try:
            return await act(None)
        except TabGone as error:
            raise Answer(
                Outcome.FAILED, f"did not act: {error}; the page is still {record.page_id}"
            ) from None

    async def _act_in(
        self, tab: str | None, *, record: PageRecord, meta: dict[str, Any],
        command: ctl.Execute, action: dict[str, Any], values: dict[str, str],
        files: tuple[str, ...], lines: list[str],
    ) -> tuple[str, PageRecord, dict[str, Any], TabCapture]:
        base, base_meta = record, meta
        object_id = command.object_id
        reopened = tab is None
        if tab is None:
            if command.gesture in HISTORY_GESTURES:
                raise Answer(
                    Outcome.FAILED,
                    f"did not act: {record.page_id} has no open tab, so there is no history to "
                    f"go {command.gesture} in; `open {record.url}` loads it again",
                )
            tab, base, base_meta, locator = await self._reopen(record, object_id, action, lines)
            action = {**action, "locator": locator}
        # A tab that shows base since an earlier command may have re-rendered its controls
        # since base was first stored: act where they are now. (A reopened tab's locators are
        # those just confirmed.)
        live = {} if reopened else self._live_locators.get(base.page_id, {})
        if object_id in live:
            action = {**action, "locator": live[object_id]}
        gesture = _gesture(command, base_meta, files, live)
        if object_id.startswith("L"):
            with _did_not_act(base.page_id):
                return tab, base, base_meta, await self._follow(tab, action, gesture)
        run = functools.partial(self._run_action, tab, command, values, gesture)
        if reopened or not object_id:  # just confirmed, or the page itself
            with _did_not_act(base.page_id):
                return tab, base, base_meta, await run(action)
        try:
            with _did_not_act(base.page_id, found_again=True):
                return tab, base, base_meta, await run(action)
        except NotFoundError as error:
            gone = error
        # Drawn anew since the capture (a timer, a framework's re-render): the same kind of
        # control with the same label, found on the tab as it is now, is the one meant.
        locator = await self._found_again(tab, object_id, action, base_meta)
        if locator is None:
            raise Answer(
                Outcome.FAILED,
                f"did not act: {gone}; the page has no {action.get('kind')} control labelled "
                f"{action.get('label')!r} now (`focus {base.page_id}` shows the tab as it is); "
                f"the page is still {base.page_id}",
            )
        lines.append(f"note: {object_id} was drawn anew since {base.page_id} was captured; "
                     "acted on the same control where it is now")
        with _did_not_act(base.page_id):
            return tab, base, base_meta, await run({**action, "locator": locator})

    def _shown_instead(self, page: str) -> str | None:
        """The page shown now by the open tab that showed this one before, if any."""
        tab = self._left.get(page)
        return next((p for p, t in self._tab_of.items() if t == tab), None) if tab else None

    async def _moved_on(
        self, record: PageRecord, record_meta: Mapping[str, Any], current: str,
        command: ctl.Execute, action: dict[str, Any], lines: list[str],
    ) -> tuple[str, PageRecord, dict[str, Any], ctl.Execute, dict[str, Any], dict[str, str]
               ] | None:
        """A page whose tab shows another one now (current: a later state, a page it led
        to): the command goes to the same control (kind and label) there, named in the
        answer, so nothing typed into the tab is lost to a reopened copy. Without one, a page
        as its URL loads (not a state an action made) is opened again to act on (None), as a
        person goes back to it: the tab that moved on keeps what it shows. A state an action
        made is not: its copy would lack what was done on it, so the command is refused."""
        page, tab = record.page_id, self._tab_of[current]
        now = await trio.to_thread.run_sync(self.store.page, current)
        meta = await trio.to_thread.run_sync(self.store.page_meta, current)
        moved = f"tab {tab} showed {page} before and shows {current} now"
        object_id = _same_control(command.object_id, action, meta) if command.object_id else ""
        if now is None or object_id is None:
            if not record_meta.get("state_of") or command.object_id.startswith("L"):
                return None
            raise Answer(
                Outcome.FAILED,
                f"did not act: {moved}, and {current} has no {action.get('kind')} control "
                f"labelled {action.get('label')!r} (see {current}/actions.tsv); nothing was done "
                f"({page} is a state an action made: `open {record.url}` loads the page afresh)",
            )
        command = dataclasses.replace(command, page=current, object_id=object_id)
        action, values = _action_of(command, meta, current)
        where = f"on {action_title(object_id, action)} of {current}" if object_id else (
            f"on {current}")
        lines.append(f"earlier: {moved}; acted {where}")
        return tab, now, meta, command, action, values

    async def _words_answer(
        self, error: WordsNotShown, record: PageRecord, meta: Mapping[str, Any]
    ) -> str:
        """`did not act: …` with each candidate's address: the action it is (or is inside),
        else the first line of content/ that shows its words."""
        page = record.page_id
        ids = {str(a.get("locator")): action_id
               for action_id, a in (meta.get("actions") or {}).items() if a.get("locator")}
        ids.update((locator, object_id) for object_id, locator
                   in self._live_locators.get(page, {}).items())
        lines = [f"did not act: {error}; the page is still {page}"]
        for candidate in error.candidates:
            where = ids.get(candidate.locator) or await trio.to_thread.run_sync(
                _line_showing, self.store, page, meta, candidate.text)
            lines.append(f"  {where or '(not in the compiled files)'}: {candidate.text!r}")
        return "\n".join(lines)

    async def _run_action(
        self, tab: str, command: ctl.Execute, values: dict[str, str], gesture: Gesture,
        action: Mapping[str, Any],
    ) -> TabCapture:
        return await self.browser.execute(
            tab, str(action.get("locator") or ""), _operation(command, action, values), values,
            gesture,
            _field_elements(action),
        )

    async def _found_again(
        self, tab: str, object_id: str, action: Mapping[str, Any], meta: Mapping[str, Any]
    ) -> str | None:
        """The locator, in the tab's DOM now, of the control the page's new capture gives the
        same id (ids are kept for the same kind and label); None if no such control."""
        now = await self.browser.focus(tab)
        compiled = await self._compile(now.capture, now.kept, prior_actions(meta))
        for candidate in compiled.page.actions:
            same = (candidate.kind, candidate.label) == (action.get("kind"), action.get("label"))
            if candidate.id == object_id and same and candidate.locator:
                return str(candidate.locator)
        return None

    async def _follow(self, tab: str, link: dict[str, Any], gesture: Gesture) -> TabCapture:
        """A link on a live tab is clicked, as a person would: the page's handlers run and the
        browser follows the href only if the page lets it. A link whose element is not known
        (a page compiled without a browser, a reopened page) is loaded by its URL."""
        locator = str(link.get("locator") or "")
        if gesture.name:
            if not locator:
                raise UsageError(f"{gesture.name} needs the link's element, which this page "
                                 "does not record; follow it with execute instead")
            return await self.browser.execute(tab, locator, "follow", {}, gesture)
        if locator:
            try:
                return await self.browser.execute(tab, locator, "follow", {}, gesture)
            except NotFoundError:
                pass  # re-rendered since the capture: its URL still leads where it did
        return await self.browser.navigate(tab, str(link["url"]))

    async def _reopen(
        self, record: PageRecord, object_id: str, action: Mapping[str, Any], lines: list[str]
    ) -> tuple[str, PageRecord, dict[str, Any], str]:
        """Open a stored page's URL again and confirm the control is there (same kind and
        label); returns the tab, the page it shows, its meta and the control's locator now."""
        page = record.page_id
        meta = await trio.to_thread.run_sync(self.store.page_meta, page)
        moved_to = self._shown_instead(page)
        tab_gone = (f"{page} is in no tab now (its tab moved on to {moved_to})" if moved_to
                    else f"{page} had no open tab")
        why = tab_gone + (
            " (it is a state made by an action: its URL is reopened as it loads now)"
            if meta.get("state_of")
            else ""
        )
        try:
            opened = await self.browser.open(record.url)
        except FetchError as error:
            raise Answer(
                Outcome.FAILED, f"did not act: {why}, and reopening {record.url} failed: {error}"
            ) from None
        if not opened.tab_id:
            raise Answer(
                Outcome.FAILED,
                f"did not act: {why}, and {record.url} is no longer a page that can be acted on",
            )
        await self.tabs_closed(opened.closed_tabs)
        # A fresh tab always "navigates"; it is the same page unless it landed elsewhere.
        elsewhere = urldefrag(opened.capture.url).url != urldefrag(record.url).url
        placed = await self.place(record, meta, opened, "reopen", "reopen", (), elsewhere)
        current = placed.record
        await self.show(current.page_id, opened.tab_id, placed.locators)
        current_meta = await trio.to_thread.run_sync(self.store.page_meta, current.page_id)
        lines.append(
            f"reopened: {why}; the tab shows {current.page_id}"
            + ("" if current.page_id == page else f" ({REOPENED_AS[placed.how]})")
        )
        if not object_id or object_id.startswith("L"):
            return opened.tab_id, current, current_meta, ""
        locator = _confirm(action, current_meta)
        if locator is None:
            raise Answer(
                Outcome.FAILED,
                "\n".join(lines[1:]) + f"\ndid not act: the reopened page has no "
                f"{action.get('kind')} control labelled {action.get('label')!r}; "
                f"the current page is {current.page_id} (see {current.page_id}/actions.tsv)",
            )
        return opened.tab_id, current, current_meta, locator

    def _outcome(self, base: PageRecord, placed: _Placed) -> list[str]:
        new = placed.record.page_id
        if placed.how == "unchanged":
            return [
                (
                    f"→ unchanged: {base.page_id} still shows the same content; nothing new was "
                    "stored (the action ran)"
                ),
                *_focus_now(placed),
            ]
        if placed.how == "earlier":
            return [
                f"→ {new}: the same as an earlier state, reused (nothing new stored)",
                *bounded(placed.effect, f"cat {new}/_map.md"),
                *_focus_now(placed),
            ]
        if placed.how == "page":
            return [
                f"→ {new} new page: {clean_field(placed.record.title) or '(untitled)'}",
                f"url: {placed.record.url}",
                *placed.outline,
            ]
        diff = placed.diff
        out = [
            (
                f"→ {new} new state of {base.page_id}: {len(diff.changed)} changed, "
                f"{len(diff.added)} added, {len(diff.removed)} removed (see {new}/_state.md)"
            )
        ]
        if placed.effect:
            return out + bounded(placed.effect, f"cat {new}/_state.md")
        for heading, paths in (
            ("changed", diff.changed),
            ("added", diff.added),
            ("removed", diff.removed),
        ):
            if paths:
                out.append(f"  {heading}: {_paths(paths)}")
        return out

    async def _aftermath(self, result: TabCapture, placed: _Placed, via: str) -> list[str]:
        """What else happened: dialogs, downloads, popups, tabs the pool closed, notes."""
        page = placed.record
        out = [f"dialog: {d.kind} {clean_field(d.message)!r} → {d.answer}" for d in result.dialogs]
        for download in result.downloads:
            name = clean_field(download.filename)
            if download.refused:
                out.append(f"download: {name} refused: {download.refused}")
            else:
                where = placed.resource_file(download.url, download.body)
                out.append(f"download: {name} ({len(download.body)} bytes) stored as {where}")
        for tab in result.new_tabs:
            try:
                popup = await self.browser.focus(tab)
                compiled = await self._compile(popup.capture, popup.kept)
                record = await self._keep(
                    compiled, popup.capture, via=f"{via} popup", parent=page.page_id,
                    screenshot=await self.picture(popup),
                )
                await self.add_background(record.page_id, tab)
                out.append(f"popup: {record.page_id} {popup.capture.url} (live in its own tab)")
            except FetchError as error:
                out.append(f"popup: tab {tab} could not be captured: {error}")
        closed = await self.tabs_closed(result.closed_tabs)
        if closed:
            out.append(f"tabs closed to stay under the cap: {', '.join(closed)} now stored")
        out += [f"note: {clean_field(n)}" for n in result.notes]
        return out

    async def focus(self, record: PageRecord) -> str:
        async with self._one_at_a_time:
            try:
                return await self._focus(record)
            except (FetchError, Answer):
                await self._after_failure()
                raise

    async def _focus(self, record: PageRecord) -> str:
        page = record.page_id
        tab = await self._tab_for(page)
        now = self._shown_instead(page) if tab is None else None
        if now is not None:
            raise Answer(
                Outcome.FAILED,
                f"{page} has no tab of its own: tab {self._tab_of[now]} showed it before and "
                f"shows {now} now (`focus {now}` captures the tab again)",
            )
        if tab is None:
            raise Answer(
                Outcome.FAILED,
                f"{page} has no open tab (status stored); `open {record.url}` loads it again",
            )
        meta = await trio.to_thread.run_sync(self.store.page_meta, page)
        result = await self.browser.focus(tab)
        placed = await self.place(record, meta, result, "focus", "focus", ())
        await self.show(placed.record.page_id, tab)
        lines = [f"focused {page} (tab {tab})"]
        if placed.how == "unchanged":
            lines.append(f"→ {page} is the current state (unchanged since it was captured)")
            lines += _focus_now(placed)
        else:
            lines += self._outcome(record, placed)
        lines += await self._aftermath(result, placed, "focus")
        return "\n".join(lines) + "\n"

    async def close(self, record: PageRecord) -> str:
        async with self._one_at_a_time:
            return await self._close(record)

    async def _close(self, record: PageRecord) -> str:
        page = record.page_id
        tab = await self._tab_for(page)
        if tab is None:
            return f"{page} has no open tab; nothing to close (it stays stored)\n"
        try:
            await self.browser.close_tab(tab)
        except NotFoundError:
            pass  # already gone: the page is stored all the same
        await self.tabs_closed((tab,))
        return f"closed tab {tab}; {page} stays readable, status stored\n"


@contextlib.contextmanager
def _did_not_act(page: str, found_again: bool = False) -> Iterator[None]:
    """An element that is gone (NotFoundError, unless it is to be `found_again`: then it goes
    on up) or that never became operable (ActionBlocked) as the command's answer, nothing
    done; a lost tab (TabGone) goes on up, to be reopened."""
    try:
        yield
    except TabGone:
        raise
    except NotFoundError as error:
        if found_again:
            raise
        raise Answer(Outcome.FAILED, f"did not act: {error}; the page is still {page}") from None
    except ActionBlocked as error:
        raise Answer(
            Outcome.FAILED,
            f"did not act: {error}; the page is still {page} "
            f"(`focus {page}` shows the tab as it is now)",
        ) from None


def stored_responses(store: Store, page: str) -> tuple[CapturedResponse, ...]:
    """The responses a stored page kept as resources, read back from its resources.tsv and
    resources/ files (a refused download has a row but no file, and is left out)."""
    listing = store.read_file(page, "resources.tsv") or b""
    responses = []
    for line in listing.decode("utf-8", "replace").splitlines()[1:]:
        row = dict(zip(RESOURCE_COLUMNS, line.split("\t")))
        body = store.read_file(page, row.get("file", "")) if row.get("file") else None
        if body is not None:
            name = row["file"].rpartition("/")[2]
            url = _long_value(store, page, row["url"])
            responses.append(CapturedResponse(url, row["content-type"], body, name))
    return tuple(responses)


def _long_value(store: Store, page: str, value: str) -> str:
    """A TSV value as it was before a long one moved to long-values/ (`→ long-values/…`)."""
    moved = re.match(r"→ (long-values/V\d+\.txt) \(", value)
    if not moved:
        return value
    return (store.read_file(page, moved.group(1)) or b"").decode("utf-8", "replace").rstrip("\n")


# How many characters of a candidate's words look for its line in content/.
LINE_PREFIX_CHARS = 60


def _line_showing(store: Store, page: str, meta: Mapping[str, Any], text: str) -> str:
    """`N0003/content/01-list.md:4`: the line of the page's content/ showing text (spacing and
    case squashed), as grep -rn prints it — one that is only that text (a list item's marker
    aside) first, else the first holding its start; "" if none does."""
    wanted = " ".join(text.split()).lower()
    start = wanted[:LINE_PREFIX_CHARS]
    holding = ""
    for path in sorted(p for p in meta.get("files") or {} if p.startswith("content/")):
        body = (store.read_file(page, path) or b"").decode("utf-8", "replace")
        for number, line in enumerate(body.splitlines(), 1):
            shown = " ".join(line.split()).lower()
            if wanted and re.sub(r"^([-*+]|\d+\.) ", "", shown) == wanted:
                return f"{page}/{path}:{number}"
            if start and start in shown and not holding:
                holding = f"{page}/{path}:{number}"
    return holding


def _locators_of(page: Any) -> dict[str, str]:
    """Object id → locator of a compiled page's actions and links (a live capture's marks)."""
    found = {link.id: link.locator for link in page.links if link.locator}
    found.update((action.id, action.locator) for action in page.actions if action.locator)
    return found


def prior_actions(meta: Mapping[str, Any]) -> PriorActions:
    """A stored page's actions and links as the next state of it keeps their ids."""
    actions = meta.get("actions") or {}
    known = tuple(
        KnownAction(action_id, str(a.get("kind", "")), str(a.get("control", "")),
                    str(a.get("label", "")), str(a.get("locator", "")))
        for action_id, a in actions.items()
    )
    used = max((int(action_id[1:]) for action_id in actions), default=0) + 1
    urls = meta.get("links") or {}
    texts, locators = meta.get("link_texts") or {}, meta.get("link_locators") or {}
    links = tuple(KnownLink(link_id, str(url), str(texts.get(link_id, "")),
                            str(locators.get(link_id, "")))
                  for link_id, url in urls.items())
    links_used = max((int(link_id[1:]) for link_id in urls), default=0) + 1
    return PriorActions(known, max(used, int(meta.get("next_action") or 1)),
                        links, max(links_used, int(meta.get("next_link") or 1)))


HISTORY_GESTURES = frozenset({"back", "forward"})
# How a response says what was done, by gesture ("" the action's own operation).
DONE_AS = {
    "": "executed",
    "click": "clicked",
    "dblclick": "double-clicked",
    "rightclick": "right-clicked",
    "hover": "hovered over",
    "highlight": "highlighted",
    "focus": "focused",
    "press": "pressed",
    "drag": "dragged",
    "scroll": "scrolled",
    "upload": "uploaded into",
    "back": "went back on",
    "forward": "went forward on",
}


def _action_of(
    command: ctl.Execute, meta: Mapping[str, Any], page: str
) -> tuple[dict[str, Any], dict[str, str]]:
    """The stored record of what the command acts on (an action, a link, or the page itself)
    and the inputs checked against it. NotFoundError / UsageError before anything is done."""
    object_id = command.object_id
    if not object_id:
        return {"kind": "", "control": "page", "label": ""}, {}
    if object_id.startswith("L"):
        url = (meta.get("links") or {}).get(object_id)
        if url is None:
            raise NotFoundError(f"no link {object_id} on {page}; see {page}/links.tsv")
        if command.inputs:
            raise UsageError(f"the link {object_id} takes no inputs")
        locator = (meta.get("link_locators") or {}).get(object_id, "")
        text = (meta.get("link_texts") or {}).get(object_id) or url
        return {"kind": "navigate", "control": "link", "label": text, "url": url,
                "locator": locator}, {}
    action = (meta.get("actions") or {}).get(object_id)
    if action is None:
        raise NotFoundError(f"no action {object_id} on {page}; see {page}/actions.tsv")
    if command.gesture:
        return dict(action), {}
    return dict(action), check_inputs(object_id, action, command.inputs, command.submit)


# What `fill` does instead of the action's own operation: set, never submit or press Enter.
FILL_OPERATIONS = {
    "submit": "set-fields", "enter": "fill", "fill": "fill", "edit": "fill",
    "select": "select", "check": "check", "uncheck": "uncheck",
}


def _operation(command: ctl.Execute, action: Mapping[str, Any], values: Mapping[str, str]) -> str:
    """The browser operation for the command: the action's own (a click into a field given no
    value), or for `fill` the one that sets its fields and leaves the form unsubmitted."""
    kind = str(action.get("kind") or "")
    if command.submit:
        return "click" if kind in TYPED_KINDS and not values else kind
    if kind not in FILL_OPERATIONS:
        raise UsageError(
            f"fill sets a form's or a field's inputs; {action_title(command.object_id, action)} "
            f"has none: execute {command.page} {command.object_id}"
        )
    return FILL_OPERATIONS[kind]


def _field_elements(action: Mapping[str, Any]) -> dict[str, str]:
    """Where the capture saw each named field of a form action: the browser finds a field the
    page gave no name (`field3`) by it. A static compile's XPath is left out: the tab's DOM is
    the live one, not the document that XPath was taken from."""
    if action.get("kind") != "submit":
        return {}
    return {
        str(f.get("name")): str(f.get("locator"))
        for f in action.get("fields") or []
        if f.get("locator") and not str(f.get("locator")).startswith("/")
    }


def _object_locator(
    object_id: str, meta: Mapping[str, Any], page: str, live: Mapping[str, str]
) -> str:
    """The locator of an action or link on a page (a drag's drop target): where the tab's DOM
    has it now if known, else where the page stored it."""
    if object_id in live:
        return live[object_id]
    found = (meta.get("actions") or {}).get(object_id) or {}
    locator = found.get("locator") or (meta.get("link_locators") or {}).get(object_id)
    if not locator:
        raise NotFoundError(f"no action or link {object_id} to drop onto on {page}; "
                            f"see {page}/actions.tsv")
    return str(locator)


def _gesture(
    command: ctl.Execute, meta: Mapping[str, Any], files: tuple[str, ...],
    live: Mapping[str, str],
) -> Gesture:
    target = _object_locator(command.target, meta, "the page", live) if command.target else ""
    return Gesture(command.gesture, command.keys, target, files, command.scroll,
                   command.dialog, command.answer, command.text, command.by)


def _did(
    command: ctl.Execute, title: str, inputs: tuple[str, ...], meta: Mapping[str, Any], page: str
) -> str:
    """The response's first line: `double-clicked A0003 clickable "Dolores" on N0001`."""
    done = DONE_AS[command.gesture] if command.submit else "filled"
    if command.gesture == "press":
        what = f"{' '.join(command.keys)} on {title}" if command.object_id else " ".join(command.keys)
    elif command.gesture == "drag" and command.by is not None:
        what = f"{title} by {command.by[0]},{command.by[1]} px"
    elif command.gesture == "drag":
        onto = (meta.get("actions") or {}).get(command.target)
        what = f"{title} onto " + (action_title(command.target, onto) if onto else command.target)
    elif command.gesture == "scroll":
        what = f"{title} {command.scroll}".strip() if command.object_id else command.scroll
    elif command.gesture == "upload":
        what = f"{title}: {' '.join(command.files)}"
    elif command.gesture in HISTORY_GESTURES:
        return f"{done} {page}"
    else:
        what = title + (f" with {' '.join(inputs)}" if inputs else "")
    if command.keys and not command.gesture:
        what += f", then pressed {' '.join(command.keys)}"
    line = f"{done} {what} on {page}"
    if command.answer is not None:
        return line + f" (a prompt is answered {command.answer!r})"
    return line + (f" (a dialog is {command.dialog}ed)" if command.dialog else "")


def _not_as_asked(unmet: tuple[str, ...], submitted: bool, page: str) -> list[str]:
    """The lines that say a control does not show what was asked (and, for a form, that it
    was therefore not submitted), right under the answer's first line."""
    lines = [f"not as asked: {line}" for line in unmet]
    if submitted:
        lines.append(f"not submitted: the form holds what {page} shows; set the fields again "
                     "or submit it as it is")
    return lines


def _state_action(command: ctl.Execute, title: str) -> str:
    """What _state.md says made a state: the action's title, with the gesture (or `fill`)."""
    verb = command.gesture or ("" if command.submit else "fill")
    return f"{verb} {title}" if verb else title


def _same_control(
    object_id: str, action: Mapping[str, Any], meta: Mapping[str, Any]
) -> str | None:
    """The id, on another page, of the control with the action's kind and label (a link: its
    URL and text): the same id if it is that, else the only one that is; None if none is."""
    if object_id.startswith("L"):
        links, texts = meta.get("links") or {}, meta.get("link_texts") or {}
        same = [i for i, url in links.items()
                if url == action.get("url") and (texts.get(i) or url) == action.get("label")]
    else:
        same = [i for i, a in (meta.get("actions") or {}).items()
                if (a.get("kind"), a.get("label")) == (action.get("kind"), action.get("label"))]
    if object_id in same:
        return object_id
    return same[0] if len(same) == 1 else None


def _confirm(action: Mapping[str, Any], meta: Mapping[str, Any]) -> str | None:
    """The locator of the control on a reopened page that has the action's kind and label: the
    one at the same locator if it matches, else the only one that does; None if unconfirmed."""
    kind, label = action.get("kind"), action.get("label")
    same = [
        a
        for a in (meta.get("actions") or {}).values()
        if a.get("kind") == kind and a.get("label") == label
    ]
    for candidate in same:
        if candidate.get("locator") == action.get("locator"):
            return str(candidate["locator"])
    return str(same[0]["locator"]) if len(same) == 1 else None


class StoredFetcher:
    """Fetcher for retrieve: each page is rendered in a browser tab that is closed at once (the
    page is stored, not live); what the browser fails to load comes over plain HTTP."""

    def __init__(self, fetcher: BrowserFetcher, plain: Fetcher | None) -> None:
        self.fetcher = fetcher
        self.plain = plain

    async def fetch(self, url: str) -> Capture:
        try:
            # Its tab closes at once: no page of a retrieve is live, so none needs a screenshot.
            result = await self.fetcher.fetch_live(url, screenshot=False)
        except (HttpStatusError, FetchTimeout, AccessDenied):
            raise
        except FetchError:
            if self.plain is None:
                raise
            return await self.plain.fetch(url)
        if result.tab_id:
            with contextlib.suppress(FetchError, NotFoundError):
                await self.fetcher.browser.close_tab(result.tab_id)
        return result.capture

    async def aclose(self) -> None:
        """Nothing of its own: the engine closes both fetchers."""

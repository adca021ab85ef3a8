"""The engine: runs `.ctl` commands against the store and a fetcher, and shows the store as the
mount's tree. It knows nothing of FUSE; the FUSE layer only translates file operations into
`entry` / `listdir` / `read` (the tree), `command` / `response` (`.ctl`) and `aclose`.

Threading: the read side is synchronous and runs on the trio thread that serves FUSE
(`tree.py`: point queries and cached listings only). The command side awaits: fetching is
async, compiling and every store write run in worker threads, so a running command never holds
up reads or another session's command.

`open` and `retrieve` share one path from a fetched capture to a stored page (`_keep`): a
retrieve searches (webshellfs.search), reuses the pages already stored for its results, fetches
the rest at once and hands each to `_keep` the moment it arrives; `_search/Q….md` keeps the
ranked results with each one's page or the reason it has none. The search backend is made on
the first retrieve, so a misconfigured one fails retrieve and never `open`.

    engine/
      records.py   Entry, Outcome, Response: what the FUSE layer receives
      tree.py      the read side
      queries.py   lookup and resolve, answered from a stored page
      live.py      tabs ↔ pages, execute / focus / close, page states
      inputs.py    execute's inputs checked against the stored action
      resources.py responses and downloads a live page received → resources and their tables
      progress.py  what a running command reports (`report`), shown as `.progress` and over
                   the socket to a `webshell` in a terminal
      sites.py     `explore`: the exploration room's Driver over the engine's own paths
      shortcuts.py `search` and `choose`, made of open and execute

Given a `BrowserFetcher`, pages open in Chromium as live tabs (`_pages.tsv` status active/live)
and execute/focus/close work; a page the browser fails to load is fetched over `plain_fetcher`
instead (the response says so). Given a plain fetcher, those three commands explain that this
mount has no browser (`no_browser` says why).
"""

from __future__ import annotations

import dataclasses
import functools
import logging
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

import trio

from webshellfs import ctl, search
from webshellfs.browser import BrowserFetcher, CapturedResponse, TabCapture
from webshellfs.compiler import PriorActions
from webshellfs.compiler.nonhtml import media_type, supported_type
from webshellfs.config import Settings
from webshellfs.contract.addresses import LAST_PAGE, PageId
from webshellfs.contract.layout import (
    MAP_FILE,
    STATE_FILE,
    clean_field,
    file_digests,
    map_summary,
    render_page,
    render_state,
)
from webshellfs.contract.records import CompiledPage
from webshellfs.engine.live import Compiled, LiveTabs, StateNote, StoredFetcher
from webshellfs.engine.progress import Progress, report, reporting
from webshellfs.engine.queries import lookup_cells, page_meta, resolve_ref
from webshellfs.engine.effect import page_outline
from webshellfs.engine.records import Answer, Entry, Outcome, Response, name_page, naming
from webshellfs.engine.resources import with_responses
from webshellfs.engine.shortcuts import run_choose, run_search
from webshellfs.engine.sites import EngineDriver, run_explore
from webshellfs.engine.tree import TreeView, no_response_yet
from webshellfs.errors import (
    CommandSyntaxError,
    CompileError,
    FetchError,
    FetchTimeout,
    NotFoundError,
    SearchError,
    StoreError,
    UsageError,
)
from webshellfs.fetch import Capture, Fetcher, HttpStatusError
from webshellfs.explore import STOP_MARGIN, Explorer, explored
from webshellfs.guide import guide_text, help_index, topic_text
from webshellfs.search.walls import wall_marker
from webshellfs.store import PageRecord, Store
from webshellfs.workers import compile_in_worker

__all__ = ["Engine", "Entry", "Outcome", "Progress", "Response", "page_meta"]

log = logging.getLogger(__name__)

REQUEST_SHOWN = 300
TITLE_CHARS = 300  # in _pages.tsv; the whole title stays in the page's _map.md
# Compiles run in worker processes (workers.py); more at once than the machine has cores would
# finish none sooner and hold more memory.
PARALLEL_COMPILES = 2
# Seconds a retrieve keeps, before the command deadline, to write its report and respond.
REPORT_MARGIN = 1.0
# Seconds an exploration given its own --time keeps past it to checkpoint and answer, beyond
# the margin it keeps for a step under way (explore's STOP_MARGIN).
EXPLORE_ANSWER_SECONDS = 5.0
# Commands that need the live browser.
LIVE_COMMANDS = (ctl.Execute, ctl.Focus, ctl.Close)
_Answer = Answer


# Domain errors a command may end with, most specific first, and the outcome each means.
OUTCOME_FOR: tuple[tuple[type[Exception], Outcome], ...] = (
    (CommandSyntaxError, Outcome.INVALID),
    (UsageError, Outcome.INVALID),
    (NotFoundError, Outcome.INVALID),
    (FetchTimeout, Outcome.TIMEOUT),
    (FetchError, Outcome.FAILED),
    (StoreError, Outcome.FAILED),
    (CompileError, Outcome.FAILED),
)


def _request_line(line: str | bytes) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return clean_field(text)[:REQUEST_SHOWN]


def _refuse_wall(capture: Capture) -> None:
    """A CAPTCHA or bot wall is not the page asked for: never store it as if it were."""
    marker = wall_marker(capture.status, capture.body)
    if marker is not None:
        raise FetchError(
            f"{capture.url} answered with a CAPTCHA/bot wall (HTTP {capture.status}, {marker}), "
            "not the page; nothing was stored"
        )


def _finish_compiled(page: CompiledPage, responses: Sequence[CapturedResponse]) -> Compiled:
    """Add the responses and downloads kept with a capture (see resources.py) and digest the
    files rendered without a page id (to compare states)."""
    page = with_responses(page, responses)
    return Compiled(page, file_digests(render_page(page)))


def _render_stored(
    page: CompiledPage, page_id: str, state: StateNote | None, screenshot: bytes
) -> dict[str, bytes]:
    if state is None:
        return render_page(page, page_id, screenshot=screenshot)
    lineage = f"state of {state.previous} after {state.action}"
    files = render_page(page, page_id, lineage, screenshot)
    files[STATE_FILE] = render_state(
        state.previous, state.action, state.inputs, state.diff, state.effect
    )
    return files


def _open_summary(
    record: PageRecord, page: CompiledPage, capture: Capture, map_md: bytes
) -> str:
    """The answer to `open`: the page, its outline (so reading _map.md is a choice), its forms,
    what else it holds, and where to go next."""
    page_id = record.page_id
    lines = [f"{page_id}  {clean_field(page.title) or '(untitled)'}", f"url: {record.url}"]
    if capture.requested_url != capture.url:
        lines.append(f"asked for: {capture.requested_url}")
    lines += page_outline(page_id, page, map_md, navigation=True)
    return "\n".join(lines) + "\n"


class Engine:
    """Runs commands and shows the store as the mount's tree. Owns the store and the fetchers;
    `aclose()` closes them. `plain_fetcher` reads robots.txt as raw bytes when `fetcher` is a
    browser (which would render the text file as a page), and fetches what the browser fails to
    load; by default `fetcher` does both. `no_browser`: why this mount has no browser (shown
    when a live command is asked for)."""

    def __init__(
        self,
        store: Store,
        fetcher: Fetcher,
        settings: Settings,
        *,
        plain_fetcher: Fetcher | None = None,
        no_browser: str = "",
    ) -> None:
        self.store = store
        self.fetcher = fetcher
        self.plain_fetcher = plain_fetcher
        self.settings = settings
        self.no_browser = no_browser
        self.live: LiveTabs | None = None
        self._retrieve_fetcher: Fetcher = fetcher
        if isinstance(fetcher, BrowserFetcher):
            self.live = LiveTabs(fetcher.browser, store, self._compile, self._store_page,
                                 settings.uploads, settings.max_upload_bytes)
            self._retrieve_fetcher = StoredFetcher(fetcher, plain_fetcher)
        self.tree = TreeView(store, guide_text().encode("utf-8"))
        self._responses: dict[str, Response] = {}
        self._progress: dict[str, Progress] = {}  # session → its running or last command's
        self._last_page: dict[str, str] = {}  # session → the page its last command named (`@`)
        self._compile_slots = trio.CapacityLimiter(PARALLEL_COMPILES)
        self._backend: search.SearchBackend | None = None
        # robots.txt answers are kept for the life of the mount, one fetch per site.
        robots_fetcher = fetcher if plain_fetcher is None else plain_fetcher
        self._robots = None if settings.ignore_robots else search.RobotsRules(robots_fetcher)
        self._handlers: dict[type, Callable[[Any], Awaitable[str]]] = {
            ctl.Retrieve: self._retrieve,
            ctl.Open: self._open,
            ctl.Lookup: self._lookup,
            ctl.Resolve: self._resolve,
            ctl.Help: self._help,
            ctl.Execute: self._execute,
            ctl.Focus: self._focus,
            ctl.Close: self._close,
            ctl.Explore: self._explore,
            ctl.Search: functools.partial(run_search, self),
            ctl.Choose: functools.partial(run_choose, self),
        }
        self.explorer = Explorer(store, EngineDriver(
            store, self._retrieve_fetcher, self._keep, self.live, self._robots, _refuse_wall,
        ), report)

    # --- read side (see tree.py) ----------------------------------------------------------------

    def entry(self, path: str) -> Entry | None:
        """The entry at path, or None if there is none."""
        return self.tree.entry(path)

    def listdir(self, path: str) -> list[Entry]:
        """A directory's entries sorted by name; NotFoundError if there is no such directory."""
        return self.tree.listdir(path)

    def read(self, path: str, offset: int, size: int) -> bytes:
        """size bytes of a file from offset (fewer at its end); NotFoundError if no such file."""
        return self.tree.read(path, offset, size)

    def response(self, session: str) -> bytes:
        """The last response for that session, or a short hint if it has none yet."""
        found = self._responses.get(session)
        return no_response_yet(session) if found is None else found.data

    def last_page(self, session: str) -> str | None:
        """The page the session's last command named (what `@` stands for), if any."""
        return self._last_page.get(session)

    def progress(self, session: str) -> Progress | None:
        """What the session's running command has reported so far, or its last command once
        it has ended (None before its first)."""
        return self._progress.get(session)

    # --- command side ---------------------------------------------------------------------------

    async def command(
        self, line: str | bytes, session: str, on_progress: Callable[[str], None] | None = None
    ) -> Response:
        """Run one `.ctl` line within the command deadline. Never raises for bad input or failed
        web work: the outcome says. The response is kept for the session and in `_log/`.
        From its start `progress(session)` holds what it reported so far, and on_progress is
        told of each line as it comes."""
        request_id = self.store.reserve_request_id()
        shown = _request_line(line)
        # Noted as running, so a daemon killed before it answers still says so in _log/ later.
        await self._log_write(self.store.begin_command, request_id, session, shown)
        deadline = self._deadline_for(line)
        outcome, body = Outcome.OK, ""
        progress = self._progress[session] = Progress(f"{request_id} progress: {shown}",
                                                      listener=on_progress)
        try:
            with naming() as named, reporting(progress), trio.fail_after(deadline):
                body = await self._run(line, session)
        except _Answer as answer:
            outcome, body = answer.outcome, answer.text
        except trio.TooSlowError:
            outcome = Outcome.TIMEOUT
            body = (
                f"the command did not finish within its deadline of {deadline:g} s "
                "(the mount's --deadline); nothing was stored\n"
            )
        response = Response(request_id, outcome, f"{request_id} {outcome.value}: {shown}\n{body}")
        self._responses[session] = response
        if named:
            self._last_page[session] = named[-1]
        self.tree.touched()
        with trio.CancelScope(shield=True):
            await self._log_write(
                self.store.add_log, request_id, session, shown, outcome.value, response.text
            )
        return response

    def _deadline_for(self, line: str | bytes) -> float:
        """The mount's command deadline; an exploration given more time (`explore --time S`)
        bounds itself, so it gets that time and a little to write its answer."""
        try:
            command = ctl.parse(line)
        except CommandSyntaxError:
            return self.settings.command_deadline
        asked = command.seconds if isinstance(command, ctl.Explore) else None
        if asked is None:
            return self.settings.command_deadline
        return max(self.settings.command_deadline, asked + STOP_MARGIN + EXPLORE_ANSWER_SECONDS)

    async def _log_write(self, write: Callable[..., object], *args: str) -> None:
        """A write to the command log; when the store cannot take it (a full disk) the command
        still runs and answers, and only the daemon's log says the record is missing."""
        try:
            await trio.to_thread.run_sync(write, *args)
        except StoreError as error:
            log.warning("%s", error)
        except Exception:
            log.exception("could not write %s to the log", args[0])

    async def _run(self, line: str | bytes, session: str) -> str:
        try:
            command = self._at_last_page(ctl.parse(line), session)
            return await self._handlers[type(command)](command)
        except _Answer:
            raise
        except Exception as error:
            for kind, outcome in OUTCOME_FOR:
                if isinstance(error, kind):
                    raise _Answer(outcome, str(error)) from None
            log.exception("command failed unexpectedly: %s", _request_line(line))
            raise _Answer(
                Outcome.FAILED, f"internal error ({type(error).__name__}); see the daemon's log"
            ) from None

    def _at_last_page(self, command: ctl.Command, session: str) -> ctl.Command:
        """The command with `@` replaced by the page the session's last command named."""
        if getattr(command, "page", None) != LAST_PAGE:
            return command
        last = self._last_page.get(session)
        if last is None:
            raise NotFoundError("@ stands for the page your last command named, and this "
                                "session has named none yet: open or retrieve a page first")
        return dataclasses.replace(command, page=PageId(last))  # type: ignore[type-var]

    def _require_page(self, page: PageId) -> PageRecord:
        record = self.tree.page(page)
        if record is None:
            raise NotFoundError(f"no page {page}; see _pages.tsv for the stored ones")
        name_page(page)
        return record

    async def _help(self, command: ctl.Help) -> str:
        if command.verb is None:
            return help_index()
        if command.verb in ctl.COMMANDS:
            return ctl.help_text(command.verb)
        topic = topic_text(command.verb)
        if topic is None:
            raise NotFoundError(f"no command or topic {command.verb!r}\n{help_index()}")
        return topic

    def _live(self, command: ctl.Execute | ctl.Focus | ctl.Close) -> tuple[LiveTabs, PageRecord]:
        record = self._require_page(command.page)
        if self.live is None:
            raise _Answer(
                Outcome.FAILED,
                f"{type(command).__name__.lower()} needs the live browser: "
                f"{self.no_browser or 'this mount has no browser'}. "
                "Stored pages stay readable, and `open <url>` fetches a page over plain HTTP.",
            )
        return self.live, record

    async def _execute(self, command: ctl.Execute) -> str:
        live, record = self._live(command)
        return await live.execute(command, record)

    async def _focus(self, command: ctl.Focus) -> str:
        live, record = self._live(command)
        return await live.focus(record)

    async def _close(self, command: ctl.Close) -> str:
        live, record = self._live(command)
        return await live.close(record)

    async def _fetch_for_open(self, url: str) -> tuple[Capture, TabCapture | None, str]:
        """The capture, the live tab it came with (None over plain HTTP), and a note."""
        if self.live is None:
            note = f"note: {self.no_browser}; fetched over plain HTTP" if self.no_browser else ""
            return await self.fetcher.fetch(url), None, note
        assert isinstance(self.fetcher, BrowserFetcher)
        try:
            result = await self.fetcher.fetch_live(url)
        except (HttpStatusError, FetchTimeout):
            raise
        except FetchError as error:
            if self.plain_fetcher is None:
                raise
            log.info("the browser failed on %s (%s); falling back to plain HTTP", url, error)
            capture = await self.plain_fetcher.fetch(url)
            note = f"note: the browser could not load it ({error}); fetched over plain HTTP, no live tab"
            return capture, None, note
        return result.capture, result, ""

    async def _open(self, command: ctl.Open) -> str:
        try:
            capture, live_tab, note = await self._fetch_for_open(command.url)
        except HttpStatusError as error:
            _refuse_wall(error.capture)
            raise
        tab = live_tab.tab_id if live_tab is not None else ""
        try:
            _refuse_wall(capture)
            if not supported_type(capture.content_type):
                raise FetchError(
                    f"{capture.url} is {media_type(capture.content_type)}, not a document to compile "
                    "(HTML, XML, PDF, JSON, CSV, text, markdown or an image)"
                )
        except FetchError:
            if tab and self.live is not None:
                await self.live.browser.close_tab(tab)
            raise
        responses = live_tab.kept if live_tab is not None else ()
        compiled = await self._compile(capture, responses)
        site = await trio.to_thread.run_sync(explored, self.store, capture.url, compiled.page)
        if site is not None:  # its _map.md says so too (a note: no part of the page's state)
            page_notes = (*compiled.page.notes, site.map_note())
            compiled = dataclasses.replace(
                compiled, page=dataclasses.replace(compiled.page, notes=page_notes))
        # Taken by the browser while the page compiled (none over plain HTTP).
        screenshot = await self.live.picture(live_tab) if self.live and live_tab else b""
        record = await self._store_page(compiled, capture, via="open", screenshot=screenshot)
        name_page(record.page_id)
        page = compiled.page
        map_md = await trio.to_thread.run_sync(self.store.read_file, record.page_id, MAP_FILE)
        text = _open_summary(record, page, capture, map_md or b"")
        if self.live is not None and live_tab is not None:
            closed = await self.live.tabs_closed(live_tab.closed_tabs)
            if tab:
                await self.live.show(record.page_id, tab)
                text += f"live in tab {tab} (status active)\n"
            if closed:
                text += f"tabs closed to stay under the cap: {', '.join(closed)} now stored\n"
            text += "".join(f"note: {clean_field(n)}\n" for n in live_tab.notes)
        text += site.answer() if site is not None else ""
        return text + (note + "\n" if note else "")

    async def _explore(self, command: ctl.Explore) -> str:
        return await run_explore(command, self.explorer)

    # --- what the shortcuts (engine/shortcuts.py) build on: open, execute and their checks

    def require_page(self, page: PageId) -> PageRecord:
        return self._require_page(page)

    def require_live(self, verb: str) -> LiveTabs:
        if self.live is None:
            raise _Answer(Outcome.FAILED, f"{verb} needs the live browser: "
                          f"{self.no_browser or 'this mount has no browser'}")
        return self.live

    async def command_open(self, url: str) -> str:
        return await self._open(ctl.Open(url))

    async def command_execute(self, command: ctl.Execute) -> str:
        return await self._execute(command)

    async def _compile(
        self,
        capture: Capture,
        responses: Sequence[CapturedResponse] = (),
        prior: PriorActions | None = None,
    ) -> Compiled:
        """Compile a capture in a worker process (killed if the deadline passes). prior: for a
        new state of a page, the actions whose ids it keeps."""
        page = await compile_in_worker(
            capture.body, capture.url, capture.content_type, self._compile_slots, prior
        )
        return await trio.to_thread.run_sync(_finish_compiled, page, responses)

    async def _store_page(
        self, compiled: Compiled, capture: Capture, *, via: str, parent: str = "",
        state: StateNote | None = None, screenshot: bytes = b"",
    ) -> PageRecord:
        """Store a compiled capture as a new page (a state when `state` says what made it),
        with the screenshot its live tab took, if any, in the same write."""
        page = compiled.page
        # files/digest: what the next state is compared with; state_of: the page it is a state of.
        meta = {**page_meta(page, capture), "files": compiled.digests, "digest": compiled.digest,
                "next_action": page.next_action, "next_link": page.next_link}
        if state is not None:
            meta["state_of"] = state.previous
        store_it = functools.partial(
            self.store.add_page,
            lambda page_id: _render_stored(page, page_id, state, screenshot),
            title=clean_field(page.title)[:TITLE_CHARS],
            url=capture.url,
            parent=parent,
            via=via,
            meta=meta,
            also_url=capture.requested_url,
        )
        # Once compiled, the write is short and all-or-nothing: let it finish.
        with trio.CancelScope(shield=True):
            record = await trio.to_thread.run_sync(store_it)
        # The daemon's log names every page fetched and kept, whichever fetcher brought it.
        log.info("stored %s (%s): %s, HTTP %d, %s, %d bytes", record.page_id, via, capture.url,
                 capture.status, media_type(capture.content_type) or "no type",
                 len(capture.body))
        return record

    async def _keep(
        self, capture: Capture, via: str, responses: Sequence[CapturedResponse] = ()
    ) -> tuple[PageRecord, CompiledPage]:
        """Compile a fetched capture (in a worker thread) and store it as a new page."""
        compiled = await self._compile(capture, responses)
        return await self._store_page(compiled, capture, via=via), compiled.page

    async def _keep_result(self, capture: Capture) -> str:
        record, _ = await self._keep(capture, via="retrieve")
        return record.page_id

    def _stored_page(self, url: str) -> str | None:
        record = self.store.newest_page_for(url)
        return None if record is None else record.page_id

    def _search_backend(self) -> search.SearchBackend:
        """Made on first use and kept; SearchError (the command fails) if it cannot be."""
        if self._backend is None:
            self._backend = search.backend_from_spec(self.settings.search, self.settings)
        return self._backend

    async def _retrieve(self, command: ctl.Retrieve) -> str:
        query = search.validate_query(command.query)  # a bad query fails before the backend is made
        policy = search.PrefetchPolicy.from_settings(self.settings, supported_type)
        try:
            done = await search.retrieve(
                query,
                command.k,
                self._search_backend(),
                self._retrieve_fetcher,
                policy,
                self._robots,
                stored=(lambda url: None) if command.refresh else self._stored_page,
                keep=self._keep_result,
                # Stop fetching in time to report: the pages stored so far are named, not lost.
                deadline=trio.current_effective_deadline() - REPORT_MARGIN,
                progress=report,
            )
        except SearchError as error:
            # The search itself failed: its report says why, like every retrieve's.
            failed = functools.partial(search.render_failed_search, query, str(error))
            search_id = await self._add_search(query, failed)
            raise SearchError(f"{error}\n→ _search/{search_id}.md") from None
        search_id = await self._add_search(done.query, done.report)
        pages = [done.addresses[r.url] for r in done.results if r.url in done.addresses]
        if pages:
            name_page(pages[0])
        outlines = await trio.to_thread.run_sync(self._outlines, pages)
        return done.response(search_id, outlines)

    def _outlines(self, pages: Sequence[str]) -> dict[str, str]:
        """Each page's sections on one line (from its _map.md), for a retrieve's answer."""
        return {page: map_summary(self.store.read_file(PageId(page), MAP_FILE) or b"")
                for page in pages}

    async def _add_search(self, query: str, render: Callable[[str], str]) -> str:
        """Keep a retrieve's report as `_search/Q….md`; its address."""
        with trio.CancelScope(shield=True):
            return await trio.to_thread.run_sync(self.store.add_search, query, render)

    async def _lookup(self, command: ctl.Lookup) -> str:
        self._require_page(command.page)
        return await trio.to_thread.run_sync(lookup_cells, self.store, command)

    async def _resolve(self, command: ctl.Resolve) -> str:
        record = self._require_page(command.page)
        return await trio.to_thread.run_sync(resolve_ref, self.store, record, command.ref)

    async def aclose(self) -> None:
        """Close the fetchers, then the store (which releases the cache lock)."""
        await self.fetcher.aclose()
        if self.plain_fetcher is not None:
            await self.plain_fetcher.aclose()
        self.store.close()

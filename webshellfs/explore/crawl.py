"""The exploration itself: breadth first from a start page over one site, bounded by pages,
depth and time, one page or one control at a time, with a checkpoint in the store after each
(a step of the state's journal: what it added; a whole snapshot at a run's start and end).

Every page is loaded and stored by the engine as any page is (`Driver.load`), so it is
greppable at once. Its links are recorded; those that are safe (safety.py) and on the site go
into the frontier. The page gets a template (templates.py); on the first REPRESENTATIVES pages
of a template the controls a person uses to move or reveal are tried, each once per template
(once for the whole site when it sits in the site's chrome: a header's menu), through the
engine's live execute path (`Driver.try_control`), which reports what changed: first what a
person clicks, then what a person points at (the top navigation's items, swept as a pointer
sweeps a menu bar, and the items of a small menu that opened: menus.py). After each try the
page is restored in its tab as a person would (the pointer leaves, Escape); it is reloaded
only when that did not bring it back. Links that only a menu showed are followed like any
other. A list's further items, once two of the same address shape (templates.py: numbers and
a slug generalised) share a template, are put off until the rest of the site was walked
(`state.later`): the bounds spend the walk on the site's other pages first, and those items
not reached are listed with their template. A link that redirects is recorded with where it
landed, and leads to the page stored there. Links past the depth bound are kept with their
depth and path: a resume with a deeper bound follows them.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import Protocol

import trio

from webshellfs.contract.layout import clean_field, format_inputs, hidden_links
from webshellfs.contract.records import Action, CompiledPage, Link, Section
from webshellfs.errors import CompileError, FetchError, NotFoundError, UsageError
from webshellfs.explore.behaviors import Tried, effect_of
from webshellfs.explore.menus import (
    HOVERS_PER_SITE,
    Menu,
    Pointed,
    hover_candidates,
    menu_of,
    pointed_in,
)
from webshellfs.explore.safety import (
    control_refusal,
    is_candidate,
    link_refusal,
    pointing_refusal,
    same_site,
    site_of,
)
from webshellfs.explore.shortcuts import is_search_form
from webshellfs.explore.sitemap import map_address, render_files, site_directory
from webshellfs.explore.state import (
    Behavior,
    Bounds,
    Form,
    Journal,
    PageEntry,
    Queue,
    SiteState,
    Skip,
    Template,
    Visit,
)
from webshellfs.explore.templates import address_shape, outline, signature
from webshellfs.store import Store

__all__ = ["DEFAULT_BOUNDS", "Driver", "Explorer", "Landed", "Loaded", "answer", "nothing_stored"]

DEFAULT_BOUNDS = Bounds(pages=100, depth=4, seconds=60.0)
REPRESENTATIVES = 2  # pages of a template whose controls are tried
FINISH_MARGIN = 1.2  # on the time a stopped walk's pace says the rest would take
TRIES_PER_PAGE = 12
# Requests per second to one site: a page load and each control tried (it reloads the page).
REQUESTS_PER_SECOND = 4.0
# Seconds kept before the command's deadline: a step started later could be cut short.
STOP_MARGIN = 15.0
NAVIGATION_REGIONS = ("nav", "header")
HOVER_KEY = "\thover\t"  # in the key of an item pointed at: `nav<TAB>hover<TAB>Products`
# What a hover did that is not recorded: nothing, a restyling, a try that could not be made.
UNTOLD_HOVERS = ("nothing", "changes:", "not tried:")
CHROME = "boilerplate"
# The map's files are rendered again at most this often during a walk (each render reads the
# whole state), and always at a run's start and end.
MAP_SECONDS = 2.0
# A snapshot replaces the journal once its steps outweigh the last snapshot (and this much).
JOURNAL_SLACK = 64 * 1024


@dataclass
class _Kept:
    """What the store holds of a site being walked: the journal's mark, how many bytes its
    steps and last snapshot take, when its map was last rendered."""

    journal: Journal
    snapshot_bytes: int
    steps_bytes: int = 0
    rendered_at: float = -math.inf


@dataclass(frozen=True)
class Loaded:
    """A page the engine loaded and stored: its address, where it ended up, the compiled page."""

    page: str
    url: str
    compiled: CompiledPage


class Landed(Exception):
    """A load that redirected to a page the walk had stored: nothing was stored again."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.url = url


def nothing_stored(url: str) -> bool:
    return False


class Driver(Protocol):
    """What an exploration asks of the engine (engine/sites.py gives it)."""

    live: bool  # controls can be tried (the mount has a browser)

    async def allowed(self, url: str) -> bool: ...

    # Fetch and store the page; when it lands elsewhere, on an address `stored` says the walk
    # has a page for, raise Landed instead of storing it a second time.
    async def load(self, url: str, stored: Callable[[str], bool] = nothing_stored) -> Loaded: ...

    # Click (gesture "") or hover a control (an action or link id, or words) of the page; the
    # tab is left on the result, whose new lines are told against compare_with (or page).
    async def try_control(self, page: str, control: str, *, gesture: str = "", words: str = "",
                          compare_with: str = "") -> Tried: ...

    # Undo a try in the tab that shows `shown`; False when only a reload would (tab closed).
    async def restore(self, page: str, shown: str, hovered: bool) -> bool: ...

    # The tries on a page are over: their tab is closed.
    async def done(self) -> None: ...


class _Stop(Exception):
    """A bound was hit: its sentence is in the state's `stopped`."""


class Explorer:
    """Runs explorations over a driver and keeps them in the store; `report` tells progress."""

    def __init__(self, store: Store, driver: Driver, report: Callable[[str], None],
                 requests_per_second: float = REQUESTS_PER_SECOND) -> None:
        self.store = store
        self.interval = 1 / requests_per_second
        self.driver = driver
        self.report = report
        self._last_request: dict[str, float] = {}  # site → when it was last sent a request
        self._walking: set[str] = set()  # sites being explored now (one walk per site)
        self._kept: dict[str, _Kept] = {}  # site → its checkpoints during a run

    # --- the state ------------------------------------------------------------------------------

    def saved(self, site: str) -> SiteState | None:
        """The state kept for a site (as site_of names it), or None."""
        kept = self.store.site_state(site_directory(site))
        return None if kept is None else SiteState.load(*kept)

    async def _save(self, state: SiteState, whole: bool = False) -> None:
        """A checkpoint: the step's journal record (the map's files with it when they were
        last rendered MAP_SECONDS ago), or, when whole or the journal outgrew it, a snapshot."""
        state.updated_ns = time.time_ns()
        directory = site_directory(state.site)
        kept = self._kept.get(state.site)
        now = time.monotonic()

        def snapshot() -> None:
            text = state.to_json()
            self.store.save_site(directory, text, render_files(state))
            self._kept[state.site] = _Kept(Journal(state), len(text), rendered_at=now)

        def step() -> None:
            assert kept is not None
            record = kept.journal.step(state)
            files = render_files(state) if now - kept.rendered_at >= MAP_SECONDS else None
            try:
                self.store.add_site_step(directory, record, files)
            except BaseException:
                del self._kept[state.site]  # the journal's mark moved on: a snapshot next
                raise
            kept.steps_bytes += len(record)
            if files is not None:
                kept.rendered_at = now

        whole = whole or kept is None or kept.steps_bytes > kept.snapshot_bytes + JOURNAL_SLACK
        # In the worker, the walk waiting for it, so the state holds still meanwhile.
        with trio.CancelScope(shield=True):  # a checkpoint is short and whole
            await trio.to_thread.run_sync(snapshot if whole else step)

    def latest_to_resume(self, depth: int | None) -> SiteState | None:
        """The latest walk not finished; else, given a --depth, the latest that left links
        past its depth bound that this one reaches."""
        states = (SiteState.load(*kept) for directory, _ in self.store.sites()
                  if (kept := self.store.site_state(directory)) is not None)
        deeper = None
        for state in states:
            if not state.finished:
                return state
            if deeper is None and depth is not None and any(
                    v.depth <= depth for v in state.too_deep):
                deeper = state
        return deeper

    @staticmethod
    def new_state(url: str, bounds: Bounds) -> SiteState:
        state = SiteState(site_of(url), url, bounds, time.time_ns())
        state.queue.add(Visit(url, 0, (f"open {url}",)))
        return state

    # --- the run --------------------------------------------------------------------------------

    async def run(self, state: SiteState, seconds: float) -> tuple[int, int, float]:
        """Explore until the frontier is empty or a bound is hit; returns the pages stored, the
        controls tried and the seconds spent in this run. UsageError if another session is
        exploring the same site now."""
        if state.site in self._walking:
            raise UsageError(f"{state.site} is being explored by another command now; "
                             "its map grows as it goes")
        self._walking.add(state.site)
        try:
            return await self._run(state, seconds)
        finally:
            self._walking.discard(state.site)

    async def _run(self, state: SiteState, seconds: float) -> tuple[int, int, float]:
        started = trio.current_time()
        command_end = trio.current_effective_deadline() - STOP_MARGIN
        stop_at = min(started + seconds, command_end)
        state.stopped = []
        state.finished = False
        self._within_new_bounds(state)
        self._kept.pop(state.site, None)
        await self._save(state, whole=True)
        before_pages, before_tried = len(state.stored()), len(state.behaviors)
        try:
            while (queue := self._next_queue(state)) is not None:
                self._check_bounds(state, stop_at, command_end, seconds)
                visit = queue.items[queue.head]
                with trio.move_on_at(stop_at + STOP_MARGIN / 2) as cut:
                    await self._visit(state, visit, stop_at)
                if cut.cancelled_caught or state.trying:  # out of time amid its controls
                    self._stopped_by_time(state, command_end, seconds)
                    raise _Stop
                queue.head += 1
                await self._save(state)
            state.finished = True
        except _Stop:
            pass
        finally:
            spent = trio.current_time() - started
            state.seconds += spent
            await self._save(state, whole=True)
            self._kept.pop(state.site, None)
        return len(state.stored()) - before_pages, len(state.behaviors) - before_tried, spent

    @staticmethod
    def _next_queue(state: SiteState) -> Queue | None:
        """The site's own queue first; a list's items put off for later once it is empty."""
        return next((queue for queue in (state.queue, state.later) if queue), None)

    @staticmethod
    def _within_new_bounds(state: SiteState) -> None:
        """Links kept past the depth bound that a resume's deeper bound reaches join the
        queue, in the order they were found (which keeps the walk breadth first)."""
        reached = [v for v in state.too_deep if v.depth <= state.bounds.depth]
        if not reached:
            return
        state.too_deep = [v for v in state.too_deep if v.depth > state.bounds.depth]
        queued = {v.url for v in state.queue.pending()}
        for visit in reached:
            if visit.url not in state.pages and visit.url not in queued:
                state.queue.add(visit)
                queued.add(visit.url)

    def _check_bounds(self, state: SiteState, stop_at: float, command_end: float,
                      seconds: float) -> None:
        stored = len(state.stored())
        if stored >= state.bounds.pages:
            state.stopped.append(f"pages: {stored} stored (--pages {state.bounds.pages}); "
                                 f"{len(state.frontier())} addresses not visited")
            raise _Stop
        if trio.current_time() >= stop_at:
            self._stopped_by_time(state, command_end, seconds)
            raise _Stop

    @staticmethod
    def _stopped_by_time(state: SiteState, command_end: float, seconds: float) -> None:
        if trio.current_time() >= command_end:
            why = "the command's deadline (the mount's --deadline) was near"
        else:
            why = f"--time {seconds:g} s"
        state.stopped.append(f"time: {why}; {len(state.frontier())} addresses not visited")

    async def _pace(self, site: str) -> None:
        """The per-site rate limit: loads and tries at least `interval` seconds apart."""
        last = self._last_request.get(site, -math.inf)
        wait = last + self.interval - trio.current_time()
        if wait > 0:
            await trio.sleep(wait)
        self._last_request[site] = trio.current_time()

    async def _visit(self, state: SiteState, visit: Visit, stop_at: float) -> None:
        """Load one address and record it. Its entry joins the state only once it is known
        whole: a visit cut short (a killed daemon, the deadline) is made again on resume."""
        known = state.pages.get(visit.url)
        if known is not None and known.page and known.page == state.trying:
            await self._try_again(state, visit, known, stop_at)
        if known is not None:
            return
        entry = PageEntry(visit.url, visit.depth, "", path=visit.path)
        if not await self.driver.allowed(visit.url):
            entry.status = "robots.txt disallows it"
            state.pages[visit.url] = entry
            return
        like = "" if visit.like else self._listed_like(state, visit.url)
        if like:
            state.later.add(replace(visit, like=like))
            return
        await self._pace(state.site)
        state.requests += 1
        try:
            loaded = await self.driver.load(visit.url, lambda url: bool(
                (known := state.pages.get(url)) is not None and known.page))
        except Landed as landed:  # another link redirected there before
            self._redirected(state, visit, state.pages[landed.url])
            return
        except (FetchError, CompileError, UsageError, NotFoundError) as error:
            entry.status = "failed: " + clean_field(str(error)).split(";")[0][:200]
            state.pages[visit.url] = entry
            self.report(f"{visit.url}: {entry.status}")
            return
        page = loaded.compiled
        entry.page, entry.title = loaded.page, clean_field(page.title)[:200]
        if not same_site(loaded.url, state.site):
            entry.status = f"led off the site, to {loaded.url}"
            state.pages[visit.url] = entry
            return
        landed = loaded.url.partition("#")[0]
        first = state.pages.get(landed) if landed != visit.url else None
        if first is not None and first.page:  # stored again by a driver that did not check
            self._redirected(state, visit, first)
            return
        template = self._template_of(state, page, loaded.url)
        entry = replace(entry, status="stored", template=template.id)
        if landed != visit.url and first is None:  # entries are never replaced (the journal)
            state.pages[landed] = replace(entry, url=landed)
            entry = replace(entry, status=f"redirects → {landed}")
        state.pages[visit.url] = entry
        self.report(f"{loaded.page} {template.id} depth {visit.depth} {loaded.url}")
        if visit.depth == 0:
            state.navigation = [
                (section.name, clean_field(link.text), link.url) for link in page.links
                if (section := _section_of(page, link.section)) is not None
                and section.name in NAVIGATION_REGIONS]
        self._note_forms(state, loaded)
        self._follow_links(state, loaded, visit)
        if len(template.representatives) < REPRESENTATIVES:
            template.representatives.append(loaded.page)
            state.trying = loaded.page
            await self._try_controls(state, loaded, template, visit, stop_at)

    @staticmethod
    def _redirected(state: SiteState, visit: Visit, first: PageEntry) -> None:
        """visit's address led to a page stored before: it is that page."""
        state.pages[visit.url] = replace(first, url=visit.url, depth=visit.depth,
                                         status=f"redirects → {first.url}", path=visit.path)

    async def _try_again(self, state: SiteState, visit: Visit, entry: PageEntry,
                         stop_at: float) -> None:
        """A page whose controls were being tried when the walk was cut (a killed daemon):
        load it again and try those not tried yet."""
        template = state.template(entry.template)
        await self._pace(state.site)
        state.requests += 1
        try:
            loaded = await self.driver.load(visit.url)
        except (FetchError, CompileError, UsageError, NotFoundError):
            loaded = None
        if loaded is None or template is None:
            state.trying = ""
            return
        await self._try_controls(state, loaded, template, visit, stop_at)

    @staticmethod
    def _listed_like(state: SiteState, url: str) -> str:
        """The template of a list's items when two stored pages of url's address shape share
        it, so url is put off until the rest of the site was walked; "" otherwise."""
        shape = address_shape(url)
        alike = [p.template for p in state.stored() if address_shape(p.url) == shape]
        return alike[0] if len(alike) >= REPRESENTATIVES and len(set(alike)) == 1 else ""

    @staticmethod
    def _template_of(state: SiteState, page: CompiledPage, url: str) -> Template:
        shape = signature(page)
        for template in state.templates:
            if template.signature == shape:
                return template
        template = Template(f"T{len(state.templates) + 1:02d}", shape, outline(page), url)
        state.templates.append(template)
        return template

    @staticmethod
    def _note_forms(state: SiteState, loaded: Loaded) -> None:
        known = {form.address for form in state.forms}
        page = loaded.compiled
        for action in page.actions:
            if action.kind != "submit" or action.context in known:
                continue
            section = _section_of(page, action.section)
            region = section.name if section is not None else ""
            search = region == "search" or is_search_form(
                action.label, [(f.name, f.type, f.label) for f in action.fields])
            state.forms.append(Form(loaded.page, f'{action.id} {action.control} "{action.label}"',
                                    action.context, format_inputs(action), search))
            known.add(action.context)

    def _follow_links(self, state: SiteState, loaded: Loaded, visit: Visit) -> None:
        queued = {v.url for v in (*state.queue.items, *state.later.items)}
        skipped = {s.what for s in state.skipped}
        too_deep = {v.url for v in state.too_deep}
        revealed_by = hidden_links(loaded.compiled)
        for link in loaded.compiled.links:
            url = link.url.partition("#")[0]
            if not url or url in state.pages or url in queued:
                continue
            refusal = link_refusal(link, state.site)
            if refusal:
                what = f'link "{clean_field(link.text)[:60]}" → {url}'
                if what not in skipped and not refusal.startswith(("another site", "not a web")):
                    state.skipped.append(Skip(loaded.page, what, refusal))
                    skipped.add(what)
                continue
            step = f'"{clean_field(link.text)[:60]}" [{link.id} on {loaded.page}]'
            if link.id in revealed_by:  # in a closed menu: what opens it comes first
                step = f"{revealed_by[link.id]} > {step}"
            found = Visit(url, visit.depth + 1, (*visit.path, step))
            if found.depth > state.bounds.depth:
                if url not in too_deep:
                    state.too_deep.append(found)
                    too_deep.add(url)
                continue
            state.queue.add(found)
            queued.add(url)

    # --- controls -------------------------------------------------------------------------------

    @staticmethod
    def _control_key(page: CompiledPage, template: Template, action: Action) -> str:
        """Chrome controls are the site's (tried once anywhere); content ones the template's."""
        section = _section_of(page, action.section)
        where = section.name if section is not None and section.kind == CHROME else template.id
        return f"{where}\t{action.control}\t{action.label}"

    async def _try_controls(self, state: SiteState, loaded: Loaded, template: Template,
                            visit: Visit, stop_at: float) -> None:
        """Try the page's controls not tried yet for its template (or the site's chrome), then
        point at its menus; `state.trying` is cleared once they all were."""
        finished = await self._click_controls(state, loaded, template, visit, stop_at) and (
            not self.driver.live
            or await self._point_at_menus(state, loaded, template, visit, stop_at))
        if self.driver.live:
            await self.driver.done()
        if finished:  # else out of time: `state.trying` stays, so a resume tries the rest
            state.trying = ""

    async def _click_controls(self, state: SiteState, loaded: Loaded, template: Template,
                              visit: Visit, stop_at: float) -> bool:
        """Click the controls a person uses to move or reveal, restoring the page after each;
        False when time ran out first."""
        page = loaded.compiled
        tries = 0
        for action in page.actions:
            if not (is_candidate(action) or action.kind == "submit"):
                continue
            key = self._control_key(page, template, action)
            if key in state.tried:
                continue
            title = f'{action.id} {action.control} "{clean_field(action.label)[:60]}"'
            refusal = control_refusal(action)
            if refusal or not self.driver.live:
                state.tried.append(key)
                if refusal and action.kind != "submit":  # forms are listed as forms
                    state.skipped.append(Skip(loaded.page, title, refusal))
                continue
            if tries >= TRIES_PER_PAGE:
                break
            if trio.current_time() >= stop_at:
                return False
            tries += 1
            tried = await self._try(state, loaded.page, action.id)
            effect = effect_of(page, action.id, tried, action.label)
            where = key.partition("\t")[0]
            menu = menu_of(tried.appeared, action.label)
            self._record(state, loaded, template, title, effect,
                         "content" if where == template.id else where, tried, visit,
                         menu if effect.startswith("opens menu") else None)
            await self._restore(loaded.page, _left_on(tried), hovered=False)
            state.tried.append(key)
            await self._save(state)
        return True

    async def _try(self, state: SiteState, page: str, control: str, *, gesture: str = "",
                   words: str = "", compare_with: str = "") -> Tried:
        """One try, paced and counted: the page loaded again for it (when its tab was
        closed), and the page it led to, are requests to the site."""
        await self._pace(state.site)
        tried = await self.driver.try_control(page, control, gesture=gesture, words=words,
                                              compare_with=compare_with)
        state.requests += int(tried.reloaded) + int(tried.how == "page")
        return tried

    async def _restore(self, page: str, shown: str, hovered: bool) -> None:
        """The page as it was before the try, in its tab (which shows `shown`: "" after a try
        that failed or led to another page); else the tab is closed and the next try loads
        the page again."""
        if not shown:
            await self.driver.done()
        elif shown != page:
            await self.driver.restore(page, shown, hovered)

    def _record(self, state: SiteState, loaded: Loaded, template: Template, title: str,
                effect: str, where: str, tried: Tried, visit: Visit,
                menu: Menu | None = None) -> None:
        state.behaviors.append(Behavior(loaded.page, template.id, title, effect, where,
                                        menu.columns if menu is not None else ()))
        self.report(f"{loaded.page} tried {title}: {effect}")
        if tried.how == "page" and same_site(tried.url, state.site):
            self._discovered(state, tried.url, visit, f"click {title} on {loaded.page}")
        for _, items in (menu.columns if menu is not None else ()):
            for words, url in items:
                if url and not link_refusal(Link("", url, words, -1), state.site):
                    self._discovered(state, url, visit, f'{title} > "{words}" on {loaded.page}')

    async def _point_at_menus(self, state: SiteState, loaded: Loaded, template: Template,
                              visit: Visit, stop_at: float) -> bool:
        """Point at each top-level item of the page's menu bars (and at what answers to
        hover), as a person sweeps a menu bar; what opens a menu is recorded with what it
        holds, and a small menu's items are pointed at in turn for a submenu. A hover that
        showed nothing (or only restyled the page) is not recorded. False when time ran out
        first (a resume points at the rest)."""
        page = loaded.compiled
        for item in hover_candidates(page):
            region = self._region_of(page, item)
            key = f"{region or template.id}{HOVER_KEY}{item.words}"
            if key in state.tried:
                continue
            if pointing_refusal(item.words):
                state.tried.append(key)
                continue
            if sum(HOVER_KEY in tried for tried in state.tried) >= HOVERS_PER_SITE:
                return True
            if trio.current_time() >= stop_at:
                return False
            title = f"hover {item.title}"
            tried = await self._try(state, loaded.page, item.object_id, gesture="hover",
                                    words="" if item.object_id else item.words)
            menu = menu_of(tried.appeared, item.words)
            effect = effect_of(page, item.object_id, tried, item.words)
            shown = _left_on(tried)
            if effect.startswith("opens menu") and menu.items:
                self._record(state, loaded, template, title, effect, region or "content",
                             tried, visit, menu)
                shown = await self._point_within(state, loaded, template, visit, shown,
                                                 title, menu, region or "content")
            elif not effect.startswith(UNTOLD_HOVERS):
                self._record(state, loaded, template, title, effect, region or "content",
                             tried, visit)
            await self._restore(loaded.page, shown, hovered=True)
            state.tried.append(key)
            await self._save(state)
        return True

    async def _point_within(self, state: SiteState, loaded: Loaded, template: Template,
                            visit: Visit, opened: str, title: str, menu: Menu,
                            region: str) -> str:
        """Point at each item of the menu that opened (on `opened`, the state showing it);
        an item that opens a submenu is recorded as `hover "Company" > L0004 link "About
        us"`. Returns the page the tab shows after."""
        shown = opened
        for item in pointed_in(menu):
            if pointing_refusal(item.words):
                continue
            tried = await self._try(state, opened, item.object_id, gesture="hover",
                                    words="" if item.object_id else item.words,
                                    compare_with=opened)
            shown = _left_on(tried)
            if not shown:
                break
            submenu = menu_of(tried.appeared, item.words)
            if submenu.items:
                self._record(state, loaded, template, f"{title} > {item.title}", effect_of(
                    loaded.compiled, "", tried, item.words), region, tried, visit, submenu)
        return shown

    @staticmethod
    def _region_of(page: CompiledPage, item: Pointed) -> str:
        """The chrome region an item pointed at belongs to (a menu bar's item: `nav`); "" for
        a control in the page's own text (tried once per template)."""
        action = next((a for a in page.actions if a.id == item.object_id), None)
        if action is None:
            return "nav"
        section = _section_of(page, action.section)
        return section.name if section is not None and section.kind == CHROME else ""

    @staticmethod
    def _discovered(state: SiteState, url: str, visit: Visit, step: str) -> None:
        url = url.partition("#")[0]
        known = (*state.queue.items, *state.later.items, *state.too_deep)
        if url in state.pages or any(v.url == url for v in known):
            return
        found = Visit(url, visit.depth + 1, (*visit.path, step))
        if found.depth > state.bounds.depth:
            state.too_deep.append(found)
        else:
            state.queue.add(found)


def _left_on(tried: Tried) -> str:
    """The page a try left its tab showing, to be restored from; "" when there is none to
    restore (it failed, or led to another page: the tab is closed)."""
    return "" if tried.how in ("failed", "page") else tried.page


def _section_of(page: CompiledPage, index: int) -> Section | None:
    return page.sections[index] if 0 <= index < len(page.sections) else None


def _time_to_finish(state: SiteState, stored: int, spent: float) -> str:
    """` (at this run's pace, about 120 s more: `explore --resume --time 120`)` when time
    stopped a run that stored pages; "" otherwise."""
    waiting = len(state.frontier())
    if not waiting or not stored or not any(why.startswith("time:") for why in state.stopped):
        return ""
    seconds = math.ceil(waiting * spent / stored * FINISH_MARGIN / 10) * 10
    return (f" (at this run's pace, {waiting} addresses take about {seconds} s more: "
            f"`explore --resume --time {seconds}`)")


def answer(state: SiteState, stored: int, tried: int, spent: float, resumed: bool) -> str:
    """The command's answer: what this run did, the bounds hit, where the map is."""
    site_map = map_address(state.site)
    listed = len(state.later)
    lines = [
        f"{'resumed' if resumed else 'explored'} {state.site} from {state.start}: "
        f"{stored} pages stored and {tried} controls tried in {spent:.1f} s",
        f"site so far: {len(state.stored())} pages stored, {listed} listed by their address, "
        f"{len(state.templates)} templates, {len(state.behaviors)} behaviours, "
        f"{len(state.forms)} forms, {len(state.skipped)} things skipped for safety",
    ]
    lines += [f"stopped: {why}" for why in state.stopped]
    if state.too_deep:
        lines.append(f"depth: {len(state.too_deep)} addresses deeper than --depth "
                     f"{state.bounds.depth} were not followed (`explore --resume --depth "
                     f"{state.bounds.depth + 1}` follows the next level)")
    if state.finished:
        lines.append("finished: every address within the bounds was visited")
    else:
        lines.append("not finished: `explore --resume` continues where it stopped"
                     + _time_to_finish(state, stored, spent))
    lines.append(f"map: {site_map}/map.md (pages.tsv, templates.tsv, behaviors.tsv, menus.tsv, "
                 "paths.tsv beside it)")
    lines.append(f"next: cat {site_map}/map.md")
    return "\n".join(lines) + "\n"


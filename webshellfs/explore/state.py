"""What an exploration knows, kept in the store after every page and every control tried, so a
killed daemon's exploration resumes from its last whole step (`explore --resume`).

The state is kept as a snapshot (the whole state, as JSON) and a journal of steps after it:
within a run everything the walk learns is added at the end of a list (pages, behaviours,
queued addresses …) or is a small field rewritten whole (the queue's head, the templates), so
a step is written as what was added since the last one (`Journal`), and its cost stays the
same however big the site grows. `SiteState.load` replays the steps over the snapshot.

Plain dataclasses turned to and from JSON; nothing here does I/O.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterable
from dataclasses import asdict, dataclass, field, is_dataclass
from itertools import islice
from typing import Any

__all__ = ["Behavior", "Bounds", "Form", "Journal", "PageEntry", "Queue", "SiteState", "Skip",
           "Template", "Visit"]

STATE_VERSION = 2


@dataclass(frozen=True)
class Bounds:
    pages: int
    depth: int
    seconds: float


@dataclass(frozen=True)
class Visit:
    """A URL waiting in a queue: how deep, the clicks that reach it from the start, and, for a
    list's item put off until the rest of the site was walked, the template it will have."""

    url: str
    depth: int
    path: tuple[str, ...] = ()
    like: str = ""


@dataclass
class Queue:
    """Addresses to visit in order: every one ever added stays in `items`, those before `head`
    were visited, so the queue only grows at its end (what the journal needs)."""

    items: list[Visit] = field(default_factory=list)
    head: int = 0

    def pending(self) -> list[Visit]:
        return self.items[self.head:]

    def __len__(self) -> int:
        return len(self.items) - self.head

    def add(self, visit: Visit) -> None:
        self.items.append(visit)


@dataclass
class PageEntry:
    """One URL of the site, final once recorded. status: stored (page is its address), or why
    it has no page of its own: `redirects → URL` (page is the one stored there), robots.txt,
    HTTP 404 …"""

    url: str
    depth: int
    status: str
    page: str = ""
    title: str = ""
    template: str = ""
    path: tuple[str, ...] = ()
    section: str = ""  # for a link of the start page's navigation: its region


@dataclass
class Template:
    id: str
    signature: str
    outline: str
    example: str
    representatives: list[str] = field(default_factory=list)


@dataclass(frozen=True)
class Behavior:
    """What a control did when tried once: `navigates → URL`, `opens menu: …`, `nothing` …"""

    page: str
    template: str
    control: str  # `A0004 button "More"`, `hover L0003 link "Products"`
    effect: str
    where: str  # site-wide chrome (`nav`) or the template's content ("content")
    # What a menu it opened holds: columns of (heading or "", items as (words, URL or "")).
    menu: tuple[tuple[str, tuple[tuple[str, str], ...]], ...] = ()


@dataclass(frozen=True)
class Form:
    page: str
    action: str  # `A0002 form "Search"`
    address: str  # `GET https://…/search`
    inputs: str
    search: bool


@dataclass(frozen=True)
class Skip:
    page: str
    what: str
    why: str


def _visit(data: dict[str, Any]) -> Visit:
    return Visit(data["url"], data["depth"], tuple(data["path"]), data.get("like", ""))


def _entry(data: dict[str, Any]) -> PageEntry:
    return PageEntry(**{**data, "path": tuple(data["path"])})


# The lists a run only adds to, and how an item of each is read back from JSON.
_GROWING: dict[str, Callable[[dict[str, Any]], Any]] = {
    "behaviors": lambda d: Behavior(**d),
    "forms": lambda d: Form(**d),
    "skipped": lambda d: Skip(**d),
    "tried": lambda d: d,
    "too_deep": _visit,
}
_QUEUES = ("queue", "later")
# Small or scalar fields, written whole in every step.
_WHOLE = ("finished", "stopped", "trying", "requests", "seconds", "updated_ns")
# Fields written whole in a step only when they changed (a few dozen entries at most).
_CHANGING = ("templates", "navigation")


@dataclass
class SiteState:
    site: str
    start: str
    bounds: Bounds
    started_ns: int
    updated_ns: int = 0
    finished: bool = False
    stopped: list[str] = field(default_factory=list)  # the bounds hit, as sentences
    queue: Queue = field(default_factory=Queue)  # breadth first
    later: Queue = field(default_factory=Queue)  # a list's items, after the rest of the site
    pages: dict[str, PageEntry] = field(default_factory=dict)  # url → entry, in visit order
    templates: list[Template] = field(default_factory=list)
    behaviors: list[Behavior] = field(default_factory=list)
    forms: list[Form] = field(default_factory=list)
    skipped: list[Skip] = field(default_factory=list)
    tried: list[str] = field(default_factory=list)  # keys of controls tried (see crawl.py)
    navigation: list[tuple[str, str, str]] = field(default_factory=list)  # region, text, url
    trying: str = ""  # the page whose controls are being tried (a resume tries the rest)
    requests: int = 0
    seconds: float = 0.0  # spent in all runs so far
    too_deep: list[Visit] = field(default_factory=list)  # links past the depth bound

    def to_json(self) -> str:
        data = asdict(self)
        data["version"] = STATE_VERSION
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> SiteState:
        data: dict[str, Any] = json.loads(text)
        if data.pop("version", 1) == 1:
            data = _from_version_1(data)
        data["bounds"] = Bounds(**data["bounds"])
        for name in _QUEUES:
            data[name] = Queue([_visit(v) for v in data[name]["items"]], data[name]["head"])
        data["pages"] = {url: _entry(p) for url, p in data["pages"].items()}
        data["templates"] = [Template(**t) for t in data["templates"]]
        data["navigation"] = [tuple(n) for n in data["navigation"]]
        for name, item in _GROWING.items():
            data[name] = [item(d) for d in data[name]]
        return cls(**data)

    @classmethod
    def load(cls, snapshot: str, steps: Iterable[str]) -> SiteState:
        """The state a snapshot and the steps written after it make."""
        state = cls.from_json(snapshot)
        for step in steps:
            state._apply(json.loads(step))
        return state

    def _apply(self, step: dict[str, Any]) -> None:
        for name in _WHOLE:
            setattr(self, name, step[name])
        for name, item in _GROWING.items():
            getattr(self, name).extend(item(d) for d in step.get(name, ()))
        for name in _QUEUES:
            queue: Queue = getattr(self, name)
            queue.items.extend(_visit(v) for v in step.get(name, ()))
            queue.head = step[f"{name}_head"]
        self.pages.update((p["url"], _entry(p)) for p in step.get("pages", ()))
        if "templates" in step:
            self.templates = [Template(**t) for t in step["templates"]]
        if "navigation" in step:
            self.navigation = [tuple(n) for n in step["navigation"]]

    def frontier(self) -> list[Visit]:
        """The addresses not visited yet, in the order they will be."""
        return self.queue.pending() + self.later.pending()

    def stored(self) -> list[PageEntry]:
        return [p for p in self.pages.values() if p.status == "stored"]

    def template(self, template_id: str) -> Template | None:
        return next((t for t in self.templates if t.id == template_id), None)


def _dump(items: Iterable[Any]) -> list[Any]:
    return [asdict(item) if is_dataclass(item) else item for item in items]


def _from_version_1(data: dict[str, Any]) -> dict[str, Any]:
    """A state kept before the journal: one frontier, listed pages as entries, the addresses
    past the depth bound without their depth or path."""
    listed = [p for p in data["pages"].values() if p["status"] == "listed"]
    data["pages"] = {url: p for url, p in data["pages"].items() if p["status"] != "listed"}
    data["queue"] = {"items": data.pop("frontier"), "head": 0}
    data["later"] = {"items": [{"url": p["url"], "depth": p["depth"], "path": p["path"],
                                "like": p["template"]} for p in listed], "head": 0}
    depth = data["bounds"]["depth"] + 1
    data["too_deep"] = [{"url": url, "depth": depth, "path": []} for url in data["too_deep"]]
    return data


def _text(items: Iterable[Any]) -> str:
    return json.dumps(_dump(items), ensure_ascii=False)


class Journal:
    """What of a state the store holds already, so that a step writes only what was added
    since (`step`); `SiteState.load` reads it back. Made afresh with each snapshot."""

    def __init__(self, state: SiteState) -> None:
        self._mark(state)

    def _mark(self, state: SiteState, changing: dict[str, str] | None = None) -> None:
        self.lengths = {name: len(getattr(state, name)) for name in _GROWING}
        self.lengths.update({name: len(getattr(state, name).items) for name in _QUEUES})
        self.lengths["pages"] = len(state.pages)
        self.changing = changing or {name: _text(getattr(state, name)) for name in _CHANGING}

    def step(self, state: SiteState) -> str:
        """What changed since the last step or snapshot, as one JSON record."""
        record: dict[str, Any] = {name: getattr(state, name) for name in _WHOLE}
        for name in _GROWING:
            added = getattr(state, name)[self.lengths[name]:]
            if added:
                record[name] = _dump(added)
        for name in _QUEUES:
            queue: Queue = getattr(state, name)
            record[f"{name}_head"] = queue.head
            if len(queue.items) > self.lengths[name]:
                record[name] = _dump(queue.items[self.lengths[name]:])
        if len(state.pages) > self.lengths["pages"]:
            record["pages"] = _dump(islice(state.pages.values(), self.lengths["pages"], None))
        changing = {name: _text(getattr(state, name)) for name in _CHANGING}
        for name, text in changing.items():
            if text != self.changing[name]:
                record[name] = _dump(getattr(state, name))
        self._mark(state, changing)
        return json.dumps(record, ensure_ascii=False)

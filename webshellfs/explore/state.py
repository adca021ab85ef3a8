"""What an exploration knows, kept whole in the store after every page and every control tried,
so a killed daemon's exploration resumes from its last step (`explore --resume`).

Plain dataclasses turned to and from JSON; nothing here does I/O.
"""

from __future__ import annotations

import json
from dataclasses import asdict, dataclass, field
from typing import Any

__all__ = ["Behavior", "Bounds", "Form", "PageEntry", "SiteState", "Skip", "Template", "Visit"]

STATE_VERSION = 1


@dataclass(frozen=True)
class Bounds:
    pages: int
    depth: int
    seconds: float


@dataclass(frozen=True)
class Visit:
    """A URL waiting in the frontier: how deep, and the clicks that reach it from the start."""

    url: str
    depth: int
    path: tuple[str, ...] = ()


@dataclass
class PageEntry:
    """One URL of the site. status: stored (page is its address), listed (an item of a list
    whose template is known: not fetched), or why it has no page (robots, HTTP 404 …)."""

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


@dataclass
class SiteState:
    site: str
    start: str
    bounds: Bounds
    started_ns: int
    updated_ns: int = 0
    finished: bool = False
    stopped: list[str] = field(default_factory=list)  # the bounds hit, as sentences
    frontier: list[Visit] = field(default_factory=list)
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
    too_deep: list[str] = field(default_factory=list)  # addresses past the depth bound

    def to_json(self) -> str:
        data = asdict(self)
        data["version"] = STATE_VERSION
        return json.dumps(data, ensure_ascii=False)

    @classmethod
    def from_json(cls, text: str) -> SiteState:
        data: dict[str, Any] = json.loads(text)
        data.pop("version", None)
        data["bounds"] = Bounds(**data["bounds"])
        data["frontier"] = [Visit(v["url"], v["depth"], tuple(v["path"])) for v in data["frontier"]]
        data["pages"] = {url: PageEntry(**{**p, "path": tuple(p["path"])})
                         for url, p in data["pages"].items()}
        data["templates"] = [Template(**t) for t in data["templates"]]
        data["behaviors"] = [Behavior(**b) for b in data["behaviors"]]
        data["forms"] = [Form(**f) for f in data["forms"]]
        data["skipped"] = [Skip(**s) for s in data["skipped"]]
        data["navigation"] = [tuple(n) for n in data["navigation"]]
        return cls(**data)

    def stored(self) -> list[PageEntry]:
        return [p for p in self.pages.values() if p.status == "stored"]

    def template(self, template_id: str) -> Template | None:
        return next((t for t in self.templates if t.id == template_id), None)

"""The records a compiled page is made of.

A `CompiledPage` is immutable and self-contained: the layout turns it into files, the store
keeps those files, and nothing later changes it. Objects refer to the section they sit in by
its index into `CompiledPage.sections`; the layout turns that index into a file path, so file
names are decided in one place.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

SectionKind = Literal["content", "boilerplate"]


@dataclass(frozen=True)
class Section:
    """A run of page text: one heading section of the main text, or one boilerplate region.

    Attributes:
        kind: "content" for main text, "boilerplate" for nav/header/footer/aside-like regions.
        name: for content, the heading text ("" for text before the first heading);
            for boilerplate, the region name (nav, header, footer, aside, search, banner…).
        path: heading path from the top, e.g. ("Specs", "Size"); empty for the intro and boilerplate.
        lines: the rendered text lines, inline references included.
    """

    kind: SectionKind
    name: str
    path: tuple[str, ...]
    lines: tuple[str, ...]


@dataclass(frozen=True)
class Link:
    """A hyperlink. `target_section` is the section a same-page `#fragment` link points at
    (-1 when it points elsewhere or the fragment is unknown); `locator` finds the element again
    in a live tab, so following the link is a click on it (see Action.locator)."""

    id: str
    url: str
    text: str
    section: int
    target_section: int = -1
    locator: str = ""


@dataclass(frozen=True)
class Image:
    id: str
    src: str
    description: str
    section: int


@dataclass(frozen=True)
class Choice:
    """One option of a select, radio group or listbox."""

    value: str
    label: str
    selected: bool = False
    group: str = ""


@dataclass(frozen=True)
class Field:
    """One input an action takes: `q(text,required)` or `size(select: s=Small|m=Medium; current=m)`.
    `limits`: what the field accepts, as the page declares it: (("min", "1"), ("max", "10"),
    ("step", "1")) for a number or range, (("format", "YYYY-MM-DD|MM/DD/YYYY"),) for a date.
    `locator`: the field's element (a group's first member), so a field is found whether or
    not the page gave it a `name`."""

    name: str
    type: str
    label: str = ""
    required: bool = False
    value: str = ""
    choices: tuple[Choice, ...] = ()
    limits: tuple[tuple[str, str], ...] = ()
    locator: str = ""


@dataclass(frozen=True)
class Action:
    """Something the page lets you do.

    Attributes:
        kind: click | fill | select | check | submit | navigate | toggle | edit.
        control: what the element is (button, text, select, checkbox, radio group, form, tab…).
        label: the human name of the control, from labels, ARIA or its own text.
        context: where it belongs, e.g. `form A0004 "Sign in"` or `GET https://x/search`.
        fields: the inputs it takes; a form's fields are all its controls.
        target: the URL a GET form or navigate action leads to ("" if none).
        locator: how to find the element again in the same DOM (an XPath), for the browser.
    """

    id: str
    kind: str
    control: str
    label: str
    context: str
    fields: tuple[Field, ...]
    section: int
    target: str = ""
    locator: str = ""


@dataclass(frozen=True)
class Cell:
    """One grid position of a body row. `extent` is set where the page's cell covers several
    positions (a rowspan or colspan): its rows and columns, `r5c3-4`, the same on each."""

    row: int
    col: int
    row_label: str
    col_label: str
    value: str
    refs: tuple[str, ...] = ()
    extent: str = ""


@dataclass(frozen=True)
class Table:
    """A data table with every cell expanded (rowspan/colspan) and labelled.

    `grid` is the plain rectangular grid including header rows, for T01.tsv. `resource`: the
    file of the resource the table was made from (`resources/R0001.json`, a list of records in
    a response the page received), "" for a table of the document itself; such a table sits in
    no section (`section` is ignored).
    """

    id: str
    caption: str
    n_rows: int
    n_cols: int
    cells: tuple[Cell, ...]
    grid: tuple[tuple[str, ...], ...]
    section: int
    resource: str = ""


@dataclass(frozen=True)
class Fact:
    key: str
    value: str


@dataclass(frozen=True)
class Resource:
    """A response captured while the page loaded (same-origin JSON or text)."""

    id: str
    url: str
    content_type: str
    data: bytes
    extension: str = "txt"


@dataclass(frozen=True)
class CompiledPage:
    """Everything the compiler learned about one captured document.

    `anchors` maps each element id (`#fragment`) to the section it sits in, for `resolve`.
    `notes` says what was cut or could not be read (truncation, limits reached, charset guesses);
    the layout prints them in `_map.md`, so nothing is dropped silently. `next_action`: the
    lowest action number no state of this page has used (compiler/identity.py), `next_link` the
    same for links. `focus`: the
    mention of the control that had keyboard focus in a live capture (`[A0004 q: text "Search"]`).
    """

    url: str
    title: str
    lang: str = ""
    sections: tuple[Section, ...] = ()
    tables: tuple[Table, ...] = ()
    links: tuple[Link, ...] = ()
    images: tuple[Image, ...] = ()
    actions: tuple[Action, ...] = ()
    facts: tuple[Fact, ...] = ()
    resources: tuple[Resource, ...] = ()
    anchors: tuple[tuple[str, int], ...] = ()
    notes: tuple[str, ...] = field(default=())
    next_action: int = 1
    next_link: int = 1
    focus: str = ""

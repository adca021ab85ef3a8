"""The mutable side of one compile: sections being filled and objects being numbered.

The walker (walker.py) visits the DOM in document order and hands elements to constructors
(tables.py, actions.py, and its own link/image rules). Every constructor registers what it finds
here, so identifiers come out in document order whichever room found the object.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, replace
from typing import TypeVar
from urllib.parse import urljoin, urlsplit

from lxml.html import HtmlElement

from webshellfs.compiler.identity import ActionIds, LinkIds, PriorActions
from webshellfs.contract.addresses import format_object_id
from webshellfs.contract.records import (
    Action,
    Cell,
    CompiledPage,
    Fact,
    Field,
    Image,
    Link,
    Resource,
    Section,
    Table,
)

# Attribute a live capture puts on elements the browser must find again; static HTML lacks it
# and falls back to the element's XPath in the parsed tree.
LOCATOR_ATTRIBUTE = "data-wsfs-id"
# Attribute a live capture puts on elements the page made operable by script, with words for
# how (browser/discovery.py): `click dblclick`, `pointer`, `focusable`, `drag` …
OPERABLE_ATTRIBUTE = "data-wsfs-op"
# Attribute a live capture puts on the element that has keyboard focus.
FOCUS_ATTRIBUTE = "data-wsfs-focus"
# Attribute a live capture puts on a field whose stylesheet draws words on it (::before or
# ::after content: a "❯" toggle); other elements get such words as text.
DRAWN_ATTRIBUTE = "data-wsfs-drawn"

_R = TypeVar("_R", Image, Action, Table)
# How many left-out frames _map.md's note names by their link ids.
MAX_FRAMES_NAMED = 5
# Around the number of a control that reveals hidden text, until build() names it.
REVEAL_MARK = "\u2063"
_REVEAL_TOKEN = re.compile(REVEAL_MARK + r"(\d+)" + REVEAL_MARK)


@dataclass(frozen=True)
class Emitted:
    """What a constructor leaves at the element's position in the current section.

    Attributes:
        inline: text placed where the element was, e.g. `[A0003 button "Go"]` ("" for none).
        block: the inline text stands on a line of its own instead of joining the sentence.
        descend: the walker still walks the element's children as ordinary content.
        action_id: the action the element is, when it is one of its own ("" otherwise).
    """

    inline: str = ""
    block: bool = False
    descend: bool = False
    action_id: str = ""


Constructor = Callable[[HtmlElement, "PageBuilder"], "Emitted | None"]


@dataclass
class _SectionDraft:
    kind: str
    name: str
    path: tuple[str, ...]
    lines: list[str]


# A `[hidden until …]` mark names its control by a label this short: it is on every line.
REVEAL_LABEL_CHARS = 40


def _short(label: str) -> str:
    return label if len(label) <= REVEAL_LABEL_CHARS else label[: REVEAL_LABEL_CHARS - 1] + "…"


class PageBuilder:
    """Collects sections, objects and notes for one page; `build()` freezes them.

    Attributes:
        url: the page URL as fetched.
        base_url: the URL relative references resolve against (<base href> if any).
        current: index of the section new text and objects belong to.
        text_of: installed by the walker; renders an element's content as inline text,
            registering the links and controls inside it (used for table cells, labels with links).
    """

    def __init__(self, url: str, prior: PriorActions | None = None) -> None:
        """prior: the actions of the state before, for a new state of the same page (their
        ids are kept; see identity.py)."""
        self.url = url
        self._action_ids = ActionIds(prior)
        self._link_ids = LinkIds(prior)
        self.base_url = url
        self.title = ""
        self.lang = ""
        self.focus = ""  # the mention of the control with keyboard focus (a live capture)
        self._sections: list[_SectionDraft] = []
        self._regions: dict[str, int] = {}
        self.current = self.start_section((), "")
        self.links: list[Link] = []
        self.images: list[Image] = []
        self.actions: list[Action] = []
        self._action_index: dict[str, int] = {}
        self._reveal_locators: list[tuple[str, str]] = []  # (locator, name if no object)
        self._reveal_names: list[str] | None = None
        self.tables: list[Table] = []
        self.facts: list[Fact] = []
        self.resources: list[Resource] = []
        self.notes: list[str] = []
        self.frames_left_out: list[str] = []  # link ids of frames whose documents are not here
        self.anchors: dict[str, int] = {}
        self._link_fragments: dict[str, str] = {}
        self.text_of: Callable[[HtmlElement], str] = lambda el: ""
        # Per-page indexes a constructor builds once (label maps, form owners), by constructor name.
        self.caches: dict[str, object] = {}

    # sections -----------------------------------------------------------------------------

    def start_section(self, path: tuple[str, ...], name: str) -> int:
        """Open a new content section (a heading) and make it current."""
        self._sections.append(_SectionDraft("content", name, path, []))
        self.current = len(self._sections) - 1
        return self.current

    def region(self, name: str) -> int:
        """The boilerplate section for a region kind (all navs share `nav`), created on first use."""
        if name not in self._regions:
            self._sections.append(_SectionDraft("boilerplate", name, (), []))
            self._regions[name] = len(self._sections) - 1
        return self._regions[name]

    def add_line(self, text: str, section: int | None = None) -> None:
        self._sections[self.current if section is None else section].lines.append(text)

    def section_kind(self, index: int) -> str:
        return self._sections[index].kind

    # objects ------------------------------------------------------------------------------

    def resolve_url(self, href: str | None) -> str | None:
        """Absolute http(s)/other URL for an href, or None if it is empty or unusable."""
        if href is None:
            return None
        href = href.strip()
        if not href:
            return None
        try:
            resolved = urljoin(self.base_url, href)
            urlsplit(resolved)
        except ValueError:
            return None
        return resolved

    def locator(self, element: HtmlElement) -> str:
        marked = element.get(LOCATOR_ATTRIBUTE)
        return marked if marked else element.getroottree().getpath(element)

    def add_link(
        self, url: str, text: str, same_page_fragment: str = "", locator: str = ""
    ) -> str:
        """Register a link; a same-page `#fragment` link is tied to its target section at build."""
        link_id = self._link_ids.claim(url, text, locator)
        self.links.append(Link(link_id, url, text, self.current, locator=locator))
        if same_page_fragment:
            self._link_fragments[link_id] = same_page_fragment
        return link_id

    def add_anchor(self, element_id: str) -> None:
        """An element id (a `#fragment` target) seen in the current section; the first one wins."""
        self.anchors.setdefault(element_id, self.current)

    def add_image(self, src: str, description: str) -> str:
        image_id = format_object_id("I", len(self.images) + 1)
        self.images.append(Image(image_id, src, description, self.current))
        return image_id

    def add_action(
        self,
        kind: str,
        control: str,
        label: str,
        *,
        context: str = "",
        fields: tuple[Field, ...] = (),
        target: str = "",
        locator: str = "",
    ) -> str:
        action_id = self._action_ids.claim(kind, control, label, locator)
        self._action_index[action_id] = len(self.actions)
        self.actions.append(
            Action(action_id, kind, control, label, context, fields, self.current, target, locator)
        )
        return action_id

    def object_counts(self) -> tuple[int, ...]:
        """How many links, images, actions and tables are numbered so far (a mark for
        `move_objects`)."""
        return len(self.links), len(self.images), len(self.actions), len(self.tables)

    def move_objects(self, since: tuple[int, ...], old: int, new: int) -> None:
        """The objects numbered after the mark `since` (object_counts) in section old belong to
        section new: the line that mentions them went there."""
        for records, start in zip((self.links, self.images, self.actions, self.tables), since):
            for index in range(start, len(records)):
                if records[index].section == old:
                    records[index] = replace(records[index], section=new)  # type: ignore[call-overload]

    def action(self, action_id: str) -> Action:
        """An action registered earlier in this compile, by its id."""
        return self.actions[self._action_index[action_id]]

    def next_table_id(self) -> str:
        return format_object_id("T", len(self.tables) + 1)

    def reserve_table(self) -> str:
        """Number a table at its start tag, before its cells (which may hold nested tables) are
        built, so outer tables come before inner ones; fill it with `add_table(..., table_id=)`."""
        table_id = self.next_table_id()
        self.tables.append(Table(table_id, "", 0, 0, (), (), self.current))
        return table_id

    def add_table(
        self,
        caption: str,
        n_rows: int,
        n_cols: int,
        cells: tuple[Cell, ...],
        grid: tuple[tuple[str, ...], ...],
        *,
        table_id: str = "",
    ) -> str:
        """Register a table, or fill in one numbered earlier by `reserve_table`."""
        if table_id:
            index = int(table_id[1:]) - 1
            section = self.tables[index].section
            self.tables[index] = Table(table_id, caption, n_rows, n_cols, cells, grid, section)
            return table_id
        table_id = self.next_table_id()
        self.tables.append(Table(table_id, caption, n_rows, n_cols, cells, grid, self.current))
        return table_id

    def add_fact(self, key: str, value: str) -> None:
        self.facts.append(Fact(key, value))

    def reveal_mark(self, locator: str, name: str) -> str:
        """A placeholder for the control at locator, in a `[hidden until …]` mark: the control
        may come later in the document, so its id is put in at build(); `name` (`"Facts"`)
        stands when it is no object of its own (it sits in text that is itself hidden)."""
        self._reveal_locators.append((locator, name))
        return f"{REVEAL_MARK}{len(self._reveal_locators) - 1}{REVEAL_MARK}"

    def _revealed_lines(self, lines: list[str]) -> tuple[str, ...]:
        if not self._reveal_locators:
            return tuple(lines)
        if self._reveal_names is None:
            named = {a.locator: f'{a.id} {a.control} "{_short(a.label)}"' for a in self.actions}
            for link in self.links:
                named.setdefault(link.locator, f'{link.id} link "{_short(link.text)}"')
            self._reveal_names = [named.get(loc, name) for loc, name in self._reveal_locators]
        names = self._reveal_names
        return tuple(
            _REVEAL_TOKEN.sub(lambda m: names[int(m.group(1))], line) if REVEAL_MARK in line
            else line
            for line in lines
        )

    def add_frame(self, url: str, title: str) -> None:
        """A frame whose document is not in the capture (another origin's, or any frame of a
        page compiled without a browser): a link to it, and a note in _map.md at build."""
        self.frames_left_out.append(self.add_link(url, f"frame: {title}" if title else "frame"))

    def _frames_note(self) -> tuple[str, ...]:
        if not self.frames_left_out:
            return ()
        shown = ", ".join(self.frames_left_out[:MAX_FRAMES_NAMED])
        more = len(self.frames_left_out) - MAX_FRAMES_NAMED
        return (f"not included: {len(self.frames_left_out)} frame(s) whose pages are not in "
                "this capture (another site's, or compiled without a browser): "
                f"{shown}{f' … {more} more' if more > 0 else ''} in links.tsv; open a frame's "
                "URL to read it",)

    def note(self, text: str) -> None:
        """Record something cut or guessed; it is printed in `_map.md`."""
        if text not in self.notes:
            self.notes.append(text)

    # result -------------------------------------------------------------------------------

    def build(self) -> CompiledPage:
        """Freeze into a CompiledPage, dropping an empty intro and renumbering nothing else:
        objects keep the section indexes they were given."""
        drop_intro = not self._sections[0].lines and not self._attached(0)
        offset = 1 if drop_intro else 0
        sections = tuple(
            Section(d.kind, d.name, d.path, self._revealed_lines(d.lines))  # type: ignore[arg-type]
            for d in self._sections[offset:]
        )

        def shifted(records: list[_R]) -> tuple[_R, ...]:
            if not offset:
                return tuple(records)  # nothing moves: dataclasses.replace was 2% of a compile
            return tuple(replace(r, section=r.section - offset) for r in records)

        return CompiledPage(
            url=self.url,
            title=self.title,
            lang=self.lang,
            sections=sections,
            tables=shifted(self.tables),
            links=tuple(self._built_link(link, offset) for link in self.links),
            images=shifted(self.images),
            actions=shifted(self.actions),
            next_action=self._action_ids.next_number,
            next_link=self._link_ids.next_number,
            focus=self.focus,
            facts=tuple(self.facts),
            resources=tuple(self.resources),
            anchors=tuple((name, index - offset) for name, index in self.anchors.items()),
            notes=tuple(self.notes) + self._frames_note(),
        )

    def _built_link(self, link: Link, offset: int) -> Link:
        """The link with its section shifted and its fragment's target section; the record
        itself when neither changes (most links), built directly otherwise (cheaper than
        dataclasses.replace)."""
        target = self._fragment_target(link.id, offset)
        if not offset and target == link.target_section:
            return link
        return Link(link.id, link.url, link.text, link.section - offset, target, link.locator)

    def _fragment_target(self, link_id: str, offset: int) -> int:
        fragment = self._link_fragments.get(link_id)
        if fragment is None or fragment not in self.anchors:
            return -1
        return self.anchors[fragment] - offset

    def _attached(self, index: int) -> bool:
        return any(
            record.section == index
            for group in (self.links, self.images, self.actions, self.tables)
            for record in group
        )

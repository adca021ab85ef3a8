"""The document walk: one pass over the tree, in document order, turning it into sections of
lines and numbered objects.

Text becomes one line per paragraph (inline formatting merged into its sentence), headings open
sections that keep their heading path, lists become `- item` / `1. item` lines, blockquotes
`> ` lines, preformatted text a fenced block. Links and images are placed inline as
`text [L0012]` and `[I0003 image: alt]`; tables and actions are handed to their constructors
(tables.py, actions.py), which register their objects in the same builder, so every identifier
comes out in document order. Page chrome goes to boilerplate regions (boilerplate.py); text
that is on the page but hidden from people (dom.visually_hidden) goes to `boilerplate/hidden.md`,
never to content/, so an instruction planted out of sight cannot pass for the page's text.

The walk uses an explicit stack, not recursion, so any nesting depth is safe.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field
from urllib.parse import unquote, urlsplit

import lxml.etree
from lxml.html import HtmlElement

from webshellfs.compiler.actions import match_action, shown_through_label
from webshellfs.compiler.actions.index import page_index
from webshellfs.compiler.actions.labels import aria_name
from webshellfs.compiler.boilerplate import (
    TextWeights,
    find_main_container,
    heading_sections,
    is_listing,
    is_skip_link,
    landmark_region,
    minor_region,
    peripheral_region,
    placed_region,
)
from webshellfs.compiler.builder import LOCATOR_ATTRIBUTE, Emitted, PageBuilder
from webshellfs.compiler.dom import (
    is_assistive_math,
    is_hidden,
    plain_text,
    squash,
    visually_hidden,
    without_controls,
)
from webshellfs.compiler.drawn import canvas_mention, describe_drawing, is_drawing
from webshellfs.compiler.facts import extract_facts
from webshellfs.compiler.identity import PriorActions
from webshellfs.compiler.parse import parse
from webshellfs.compiler.reveal import Revealers
from webshellfs.compiler.rules import (
    BLOCK_TAGS,
    CONTROL_TAGS,
    DEFAULT_ARIA_HEADING_LEVEL,
    FRAME_TAGS,
    HEADING_GROUP_TAGS,
    HEADING_LEVELS,
    HIDDEN_REGION,
    INLINE_CODE_TAGS,
    INTERACTIVE_TAGS,
    LAZY_SRC_ATTRIBUTES,
    LAZY_SRCSET_ATTRIBUTES,
    LIST_TAGS,
    MAX_HEADING_CHARS,
    MAX_LINE_CHARS,
    MAX_PREFIX_LEVELS,
    MAX_SECTION_CHARS,
    MAX_SECTIONS,
    MAX_TEXT_CHARS,
    OBJECT_TAGS,
    ORDERED_LIST_TAGS,
    PREFORMATTED_TAGS,
    SECTIONING_ROLES,
    SECTIONING_TAGS,
    SKIP_TAGS,
)
from webshellfs.compiler.stylesheets import mark_stylesheet_hidden
from webshellfs.compiler.tables import build_table, is_aria_table
from webshellfs.contract.records import CompiledPage

_SRCSET_SPLIT = re.compile(r",\s+|,(?=[^,\s]+\s+\d)")
_DESCRIPTOR = re.compile(r"^(\d+(?:\.\d+)?)([wx])$")
# `History [ edit ]`, `Install #`, `Usage ¶`: edit links and permalink marks are not part of a
# section's name.
_TRAILING_BRACKETS = re.compile(r"\s*(?:\[[^\[\]]{0,20}\]|[#¶§🔗]+)$")
_HAS_REF = re.compile(r"\[[ALIT]\d{2,}[\] ]")
# Enough raw text to tell that a would-be heading is too long to be one (whitespace included).
HEADING_TEXT_LIMIT = 4 * MAX_HEADING_CHARS
# How much of a control's own text names it in a `[hidden until "…"]` mark when it is no object.
MAX_REVEALER_CHARS = 40
# Roles of an element that may be a modal dialog (with aria-modal="true").
DIALOG_ROLES = frozenset({"dialog", "alertdialog"})
_UNKNOWN = object()
# What makes urljoin change a URL it is handed: whitespace, dot segments, backslashes, brackets
# (IPv6 hosts, which it validates), an empty query before a fragment.
_JOIN_CHANGES = re.compile(r"[ \t\n\r\\\[\]]|/\.|\?#")
_FENCE_RUN = re.compile(r"`{3,}")
# `see specs [L0005] .` → `see specs [L0005].`: the space a ref brings is not the sentence's.
_SPACE_BEFORE_PUNCTUATION = re.compile(r"(?<=\]) (?=[.,;:!?)'’”])")


@dataclass
class _Prefix:
    """What a container puts before its lines: `first` on its first line, `rest` after."""

    first: str
    rest: str
    used: bool = False


@dataclass
class _Term:
    """The definition-list term waiting for its definition (`term: definition`)."""

    text: str = ""
    defined: bool = False


@dataclass
class _OpenLink:
    element: HtmlElement
    url: str
    fragment: str
    buffer_mark: int
    emitted_mark: int


@dataclass
class PageContext:
    """What the walk knows about the page as a whole: where its main text is."""

    main: HtmlElement | None
    main_path: frozenset[HtmlElement]
    weights: TextWeights
    # The main text is a listing (a home page, a search page): its lists of articles stay.
    listing: bool = False
    # Elements of the main text under a heading that names their kind (heading_sections).
    sections: dict[HtmlElement, str] = field(default_factory=dict)
    _resolver: UrlResolver | None = None
    _revealers: Revealers | None = None

    def revealers(self, element: HtmlElement) -> Revealers:
        """Made at the first hidden element that might be shown (most pages have none)."""
        if self._revealers is None:
            self._revealers = Revealers(element.getroottree().getroot())
        return self._revealers

    def resolver(self, builder: PageBuilder) -> UrlResolver:
        """Made on first use, once the walk has set the builder's base URL."""
        if self._resolver is None:
            self._resolver = UrlResolver(builder)
        return self._resolver

    @classmethod
    def of(cls, body: HtmlElement) -> PageContext:
        weights = TextWeights(body)
        main = find_main_container(body, weights.prose)
        if main is None:
            return cls(None, frozenset(), weights)
        listing = is_listing(main, weights)
        return cls(main, frozenset([main, *main.iterancestors()]), weights, listing,
                   heading_sections(main, weights, listing))


class UrlResolver:
    """builder.resolve_url, remembered per page (menus repeat their links), with shortcuts that
    give what urljoin gives for the common plain cases: absolute http(s) URLs, root-relative
    paths and fragments."""

    def __init__(self, builder: PageBuilder) -> None:
        self.builder = builder
        self.known: dict[str, str | None] = {}
        base = builder.base_url
        self.base_document = base.partition("#")[0]
        scheme, _, rest = base.partition("://")
        self.origin = f"{scheme}://{rest.split('/', 1)[0]}" if scheme in ("http", "https") else ""
        self.documents = {builder.url.partition("#")[0], self.base_document}

    def resolve(self, href: str) -> str | None:
        known = self.known.get(href, _UNKNOWN)
        if known is not _UNKNOWN:
            return known  # type: ignore[return-value]
        url: str | None
        # urljoin drops an empty query or fragment mark: those go the slow way.
        plain = _JOIN_CHANGES.search(href) is None and not href.endswith(("?", "#"))
        if plain and href.startswith(("https://", "http://")):
            url = href
        elif plain and self.origin and href.startswith("/") and not href.startswith("//"):
            url = self.origin + href
        elif plain and self.origin and len(href) > 1 and href.startswith("#"):
            url = self.base_document + href
        else:
            url = self.builder.resolve_url(href)
        self.known[href] = url
        return url


class Walker:
    """Walks elements into a PageBuilder. `inline=True` renders into one line of text instead
    of sections (table cells, labels: `builder.text_of`)."""

    def __init__(self, builder: PageBuilder, page: PageContext, *, inline: bool = False) -> None:
        self.builder = builder
        self.page = page
        self.inline = inline
        # Inside text the page shows only after an action (_reveal): its controls cannot be
        # operated yet, so they are text there, and its links are followed by their URL.
        self.revealing = 0
        self.buffer: list[str] = []
        self.collected: list[str] = []
        self.lead = ""
        self.prefixes: list[_Prefix] = []
        self.held: tuple[int, str] | None = None
        self.emitted = 0
        self.headings: list[tuple[int, str]] = []
        self.lists: list[list[int] | None] = []
        self.terms: list[_Term] = []
        self.pending_anchors: list[str] = []
        self.region: str | None = None
        self.in_main = False
        # The walk has passed the main text: what follows it is weighed as such (boilerplate.py).
        self.after_main = False
        self.sectioning_depth = 0
        self.text_chars = 0
        self.sections_started = 0
        # Characters written per section, and the content section being written:
        # (index, heading path, name, part number).
        self.filled: dict[int, int] = {}
        # The objects numbered before the last line was emitted (builder.object_counts): those
        # after it are mentioned in the next line, and go where it goes.
        self.objects_mark = builder.object_counts()
        self.content_section: tuple[int, tuple[str, ...], str, int] = (builder.current, (), "", 1)
        # The parent and level of the heading that opened the current section; kicker lines
        # waiting for the heading they stand over.
        self.section_heading: tuple[HtmlElement | None, int] = (None, 0)
        self.kickers: list[str] = []

    # the walk -----------------------------------------------------------------------------

    def walk_children(self, element: HtmlElement) -> None:
        """Walk an element's content (its text and children, not the element itself)."""
        stack: list = element[::-1]
        if element.text:
            self._add_text(element.text)
        self._run(stack)

    def walk(self, element: HtmlElement) -> None:
        self._run([element])

    def finish(self) -> None:
        self._flush()
        self._release_held()
        self._place_anchors()

    def rendered(self) -> str:
        """What an inline walk produced: one line."""
        return " ".join(self.collected)

    def _run(self, stack: list) -> None:
        while stack:
            item = stack.pop()
            if isinstance(item, str):
                self._add_text(item)
            elif isinstance(item, tuple):
                item[0](item[1])
            else:
                self._enter(item, stack)

    def _enter(self, element: HtmlElement, stack: list) -> None:
        if element.tail:
            stack.append(element.tail)
        tag = element.tag
        if tag in FRAME_TAGS and not is_hidden(element):
            self._frame(element)
        if tag == "canvas" and not is_hidden(element):
            self._canvas(element)
        if not isinstance(tag, str) or tag in SKIP_TAGS:
            return
        if (is_hidden(element) and not shown_through_label(element, self.builder)
                and not self._reveal(element, stack)):
            return
        hides = self._hides_text(element, tag)
        if hides and self._set_aside(element, tag):
            return
        role = element.get("role")
        self._enter_context(element, tag, stack, hides, role)
        if ((tag == "dialog" or role in DIALOG_ROLES) and element.get("aria-modal") == "true"
                and not hides and not self.revealing):
            self._note_modal(element)
        element_id = element.get("id")
        if element_id:
            self.pending_anchors.append(element_id)
        if tag == "a" and element.get("name"):
            self.pending_anchors.append(element.get("name"))
        emitted = None if self.revealing else match_action(element, self.builder)
        # A list item that is an action inline (a menu item shown on hover) starts its line.
        starts_item = (emitted is not None and tag == "li" and emitted.descend
                       and not emitted.block)
        if emitted is not None and not starts_item:
            self._place(emitted)
            if not emitted.descend:
                return
        if (tag in HEADING_LEVELS or role == "heading") and self._heading(element, tag):
            return
        if tag in BLOCK_TAGS:
            self._flush()
            stack.append((self._flush_exit, None))
        handler = _HANDLERS.get(tag)
        if handler is None and role and is_aria_table(element):
            handler = Walker._table  # a table of div role=table > role=row > role=cell
        if handler is not None and not handler(self, element, stack):
            return
        if starts_item:
            self._place(emitted)
        # A slice gives the children reversed in C, several times faster than reversed().
        stack.extend(element[::-1])
        if element.text:
            self._add_text(element.text)

    def _note_modal(self, element: HtmlElement) -> None:
        """A modal dialog shown (aria-modal, a <dialog> opened by showModal): the page under it
        takes no clicks, which nothing else in the files says; _map.md's notes do."""
        name = (aria_name(element, page_index(self.builder, element))
                or plain_text(next(element.iter(*HEADING_LEVELS), element), MAX_REVEALER_CHARS))
        self.builder.note(f'a modal dialog is open ("{name[:MAX_REVEALER_CHARS]}"): only its '
                          "controls can be used until it is closed; the page under it takes no "
                          "clicks")

    def _frame(self, element: HtmlElement) -> None:
        """A frame left in the capture as <iframe src> (another origin's: a live capture
        inlines same-origin frames) is named in links.tsv and _map.md, never dropped unsaid."""
        url = self.builder.resolve_url(element.get("src"))
        if url and urlsplit(url).scheme in ("http", "https"):
            self.builder.add_frame(url, squash(element.get("title") or element.get("name") or ""))

    def _canvas(self, element: HtmlElement) -> None:
        """A canvas holds no text to walk: it is said to be a picture (drawn.py)."""
        emitted = canvas_mention(element, self.builder, operable=not self.revealing)
        if emitted is not None:
            self._place(emitted)

    def _reveal(self, element: HtmlElement, stack: list) -> bool:
        """Whether to walk a hidden element after all: when a control shows it (reveal.py),
        each of its lines says which — `[hidden until A0007 link "Team"] …`."""
        if self.inline or not element.text_content().strip():
            return False
        revealer = self.page.revealers(element).of(element)
        if revealer is None:
            return False
        self._flush()
        name = f'"{plain_text(revealer, MAX_REVEALER_CHARS)[:MAX_REVEALER_CHARS]}"'
        mark = f"[hidden until {self.builder.reveal_mark(self.builder.locator(revealer), name)}] "
        self._push_prefix(mark, mark, stack)
        self.revealing += 1
        outline = None if self.region is not None else (
            self.sections_started, self.builder.current, self.content_section,
            list(self.headings), self.section_heading)
        stack.append((self._end_reveal, outline))
        return True

    def _end_reveal(self, outline: tuple | None) -> None:
        """Past a hidden part: what follows it is under the heading it followed, not under a
        heading of the hidden part (a closed dialog's title, a tab panel's last heading)."""
        self.revealing -= 1
        if outline is not None and self.sections_started != outline[0]:
            self._flush()
            (_, self.builder.current, self.content_section, self.headings,
             self.section_heading) = outline

    def _enter_context(self, element: HtmlElement, tag: str, stack: list, hides: bool,
                       role: str | None) -> None:
        """Track where we are (main text, sectioning content) and switch into a boilerplate
        region when the element is one; the matching exits are pushed on the stack. `role`:
        the element's role attribute."""
        if element is self.page.main:
            self.in_main = True
            stack.append((self._leave_main, None))
        if tag in SECTIONING_TAGS or role in SECTIONING_ROLES:
            self.sectioning_depth += 1
            stack.append((self._leave_sectioning, None))
        if self.inline:
            return
        region = HIDDEN_REGION if hides else self._region_of(element, tag)
        if region is None or region == self.region:
            return
        self._flush()
        self._place_anchors()
        stack.append((self._leave_region, (self.builder.current, self.region)))
        self.region = region
        self.builder.current = self.builder.region(region)

    def _hides_text(self, element: HtmlElement, tag: str) -> bool:
        """Whether the element's text is hidden from people and belongs in the hidden region.
        Not a form control (see rules.HIDDEN_REGION), not a skip link (it shows on focus),
        not a formula's MathML (is_assistive_math), not what holds the main text, and not
        again inside the hidden region."""
        return (self.region != HIDDEN_REGION and tag not in CONTROL_TAGS
                and visually_hidden(element) and element not in self.page.main_path
                and not (tag == "a" and is_skip_link(element))
                and not is_assistive_math(element))

    def _set_aside(self, element: HtmlElement, tag: str) -> bool:
        """For a visually hidden element (_hides_text): with nothing in it to act on, its text
        becomes one line of the hidden region, and the paragraph around it reads on unbroken;
        in an inline walk too (a table cell, a heading), so a hidden instruction reaches
        neither tables/ nor a file name. True if it was set aside."""
        if tag in INTERACTIVE_TAGS:
            return False
        if next(element.iter(*INTERACTIVE_TAGS), None) is not None:
            return False  # walked into the hidden region instead (_region_of), objects and all
        line = plain_text(element, MAX_LINE_CHARS)
        if line:
            self.builder.add_line(line, self.builder.region(HIDDEN_REGION))
        return True

    def _region_of(self, element: HtmlElement, tag: str) -> str | None:
        """The region an element starts: inside a region only a landmark (a nav inside the
        header is the nav); elsewhere also the evidence rules of boilerplate.py, and for an
        element the browser showed fixed to the window, its place where the rules found
        nothing or only guessed. Never an element holding the main text container."""
        page = self.page
        if element in page.main_path:
            return None  # it holds the main text, whatever it calls itself
        page_level = self.sectioning_depth == 0 and not self.in_main
        region = landmark_region(element, page_level)
        if region is not None or self.region is not None:
            return region
        if tag == "a" and is_skip_link(element):
            return "nav"
        if page.main is None:
            region = None
        elif self.in_main:
            region = page.sections.get(element) or minor_region(
                element, page.weights, page.main, page.listing)
        else:
            region = peripheral_region(element, page.weights, page.listing, self.after_main)
        return placed_region(element, page.weights, region)

    def _leave_region(self, saved: tuple[int, str | None]) -> None:
        self._flush()
        self._place_anchors()
        self.builder.current, self.region = saved

    def _leave_main(self, _: None) -> None:
        self.in_main = False
        self.after_main = True

    def _leave_sectioning(self, _: None) -> None:
        self.sectioning_depth -= 1

    def _flush_exit(self, _: None) -> None:
        self._flush()

    # lines --------------------------------------------------------------------------------

    def _add_text(self, text: str) -> None:
        self.buffer.append(text)
        if self.pending_anchors and not text.isspace():
            self._place_anchors()

    def _place_anchors(self) -> None:
        for anchor in self.pending_anchors:
            self.builder.add_anchor(anchor)
        self.pending_anchors.clear()

    def _flush(self) -> None:
        """End the running paragraph: its text becomes one line."""
        if not self.buffer:
            return
        text = "".join(self.buffer)
        self.buffer.clear()
        if text.isspace():
            return  # the spaces between blocks (most flushes): squash would leave nothing
        text = squash(text)
        if "] " in text:
            text = _SPACE_BEFORE_PUNCTUATION.sub("", text)
        if not text:
            return
        if self.lead:
            text = self.lead + text
            self.lead = ""
        self._emit(text)

    def _emit(self, text: str) -> None:
        if self.kickers and not self.inline:
            kickers, self.kickers = self.kickers, []
            for kicker in kickers:
                self._emit(kicker)
        if self.inline:
            self.collected.append(text)
            self.emitted += 1
            return
        if self.text_chars > MAX_TEXT_CHARS:
            return
        self.text_chars += len(text)
        if self.text_chars > MAX_TEXT_CHARS:
            self.builder.note(
                f"the page has more than {MAX_TEXT_CHARS:,} characters of text; "
                "text after that point is not kept"
            )
        for chunk in _wrap(text, MAX_LINE_CHARS):
            self._split_long_section()
            line = self._prefix() + chunk
            self._release_held()
            self.held = (self.builder.current, line)
            self.emitted += 1
            self.filled[self.builder.current] = self.filled.get(self.builder.current, 0) + len(line)
            self.objects_mark = self.builder.object_counts()

    def _split_long_section(self) -> None:
        """Continue a content section past MAX_SECTION_CHARS in a new file, `Name (part 2)`,
        so no single file is too big to read whole."""
        index, path, name, part = self.content_section
        if self.builder.current != index or self.filled.get(index, 0) < MAX_SECTION_CHARS:
            return
        part += 1
        label = f"{name or 'Introduction'} (part {part})"
        self._release_held()
        new_index = self.builder.start_section(path[:-1] + (label,), label)
        self.builder.move_objects(self.objects_mark, index, new_index)
        self.content_section = (new_index, path, name, part)

    def _release_held(self) -> None:
        if self.held is not None:
            self.builder.add_line(self.held[1], self.held[0])
            self.held = None

    def _prefix(self) -> str:
        """List markers, indentation and quote marks for the next line. Only the outer
        MAX_PREFIX_LEVELS containers show: deeper nesting would make every line a wall of
        indentation (and a small hostile page a huge output)."""
        parts = []
        for prefix in self.prefixes[:MAX_PREFIX_LEVELS]:
            parts.append(prefix.rest if prefix.used else prefix.first)
            prefix.used = True
        return "".join(parts)

    def _pop_prefix(self, _: None) -> None:
        self._flush()
        self.prefixes.pop()

    def _place(self, emitted: Emitted) -> None:
        """Put a constructor's inline text where its element was."""
        if not emitted.inline:
            return
        self._place_anchors()
        if emitted.block and not self.inline:
            self._flush()
            self._emit(emitted.inline)
        else:
            self.buffer.append(f" {emitted.inline} ")

    # headings -----------------------------------------------------------------------------

    def _heading(self, element: HtmlElement, tag: str) -> bool:
        """Open a section for a heading; False if the element is not one (or is a heading
        that cannot be one: empty, too long, inside a region or a one-line rendering).

        In a heading group (<hgroup>, or a <header> holding several headings) only the
        highest-ranked heading opens a section: a kicker before it and a subtitle after it
        are lines of that section."""
        level = _heading_level(element, tag)
        if level is None:
            return False
        name = _TRAILING_BRACKETS.sub("", plain_text(element, limit=HEADING_TEXT_LIMIT,
                                                     seen_only=True))
        if not name or len(name) > MAX_HEADING_CHARS:
            return False
        if self.inline or self.region is not None or self._is_subtitle(element, level):
            self._flush()
            self._add_text(self.builder.text_of(element))
            self._flush()
            return True
        if _is_kicker(element, level):
            self.kickers.append(self.builder.text_of(element))
            return True
        if self.sections_started >= MAX_SECTIONS:
            self.builder.note(
                f"the page has more than {MAX_SECTIONS} headings; later ones are kept as text lines"
            )
            return False
        self._flush()
        self._release_held()
        self.sections_started += 1
        while self.headings and self.headings[-1][0] >= level:
            self.headings.pop()
        self.headings.append((level, name))
        path = tuple(h[1] for h in self.headings)
        self.content_section = (self.builder.start_section(path, name), path, name, 1)
        self.section_heading = (element.getparent(), level)
        self._place_anchors()
        rendered = self.builder.text_of(element)
        if _HAS_REF.search(rendered) or _TRAILING_BRACKETS.sub("", rendered) != name:
            self._emit(rendered)
        return True

    def _is_subtitle(self, element: HtmlElement, level: int) -> bool:
        """A lower-ranked heading in the same heading group as the one that opened the current
        section, with nothing between them (`<h1>Title</h1><h2>Dek</h2>` in a header)."""
        group, opened_level = self.section_heading
        return (
            group is not None
            and element.getparent() is group
            and group.tag in HEADING_GROUP_TAGS
            and level > opened_level
            and self.content_section[0] == self.builder.current
            and self.filled.get(self.builder.current, 0) == 0
        )

    # element rules: each returns whether the walk descends into the element -----------------

    def _link(self, element: HtmlElement, stack: list) -> bool:
        href = element.get("href")
        if href is None or href.strip().lower().startswith("javascript:"):
            return True
        url = self._resolve(href)
        if url is None:
            return True
        opened = _OpenLink(element, url, self._same_page_fragment(url), len(self.buffer), self.emitted)
        stack.append((self._close_link, opened))
        return True

    def _resolve(self, href: str) -> str | None:
        return self.page.resolver(self.builder).resolve(href)

    def _same_page_fragment(self, url: str) -> str:
        """The fragment of a link into this very document ("" for any other link)."""
        document, mark, fragment = url.partition("#")
        if not mark or not fragment:
            return ""
        resolver = self.page.resolver(self.builder)
        return unquote(fragment) if document in resolver.documents else ""

    def _close_link(self, link: _OpenLink) -> None:
        """Number the link once its content is placed and put `[L0012]` after that content:
        after its text on the running line, or on the last line it produced."""
        text = self._placed_text(link) or _link_label(link.element) or plain_text(link.element)
        # Only a live capture's mark: a static page's links are followed by loading their URL.
        locator = "" if self.revealing else link.element.get(LOCATOR_ATTRIBUTE) or ""
        link_id = self.builder.add_link(link.url, text, link.fragment, locator)
        ref = f" [{link_id}] "
        start = link.buffer_mark if self.emitted == link.emitted_mark else 0
        if not all(map(str.isspace, self.buffer[start:])):
            self.buffer.append(ref)
        elif self.emitted != link.emitted_mark and self._append_to_last_line(ref.rstrip()):
            return
        else:
            self.buffer.append(f" {text}{ref}")

    def _placed_text(self, link: _OpenLink) -> str:
        """The link's text as placed on the running line, with the refs of images or controls
        inside it reduced to their labels ("" when the link spans lines)."""
        if self.emitted != link.emitted_mark:
            return ""
        return _strip_refs(squash("".join(self.buffer[link.buffer_mark:])))

    def _append_to_last_line(self, text: str) -> bool:
        """Add to the line emitted last, if it is in the current section."""
        if self.inline and self.collected:
            self.collected[-1] += text
            return True
        if self.held is not None and self.held[0] == self.builder.current:
            self.held = (self.held[0], self.held[1] + text)
            return True
        return False

    def _image(self, element: HtmlElement, stack: list) -> bool:
        src = _image_source(element)
        url = self._resolve(src) if src else None
        if url is None or _is_tracking_pixel(element):
            return False
        description, captioned = _image_description(element)
        image_id = self.builder.add_image(url, description)
        self._place_anchors()
        # A figure's caption is a line of its own next to the image: not said twice.
        label = f"[{image_id} image: {description}]" if description and not captioned else f"[{image_id} image]"
        self.buffer.append(f" {label} ")
        return False

    def _drawing(self, element: HtmlElement, stack: list) -> bool:
        """An SVG drawing: a line saying what it is, then its shapes, each by kind, colour,
        size and position (drawn.py). An icon, or a drawing inside one line's rendering or in
        text not shown yet, is walked as text."""
        if self.inline or self.revealing or not is_drawing(element):
            return True
        self._flush()
        self._place_anchors()
        for line in describe_drawing(element, self.builder):
            self._emit(line)
        return False

    def _line_break(self, element: HtmlElement, stack: list) -> bool:
        self._flush()
        return False

    def _table(self, element: HtmlElement, stack: list) -> bool:
        emitted = build_table(element, self.builder)
        self._place(emitted)
        return emitted.descend

    def _list(self, element: HtmlElement, stack: list) -> bool:
        counter = None
        if element.tag in ORDERED_LIST_TAGS:
            counter = [_int_attribute(element.get("start"), 1)]
        self.lists.append(counter)
        stack.append((self._pop_list, None))
        return True

    def _pop_list(self, _: None) -> None:
        self.lists.pop()

    def _list_item(self, element: HtmlElement, stack: list) -> bool:
        if self.inline:
            return True
        counter = self.lists[-1] if self.lists else None
        if counter is None:
            marker = "- "
        else:
            counter[0] = _int_attribute(element.get("value"), counter[0])
            marker = f"{counter[0]}. "
            counter[0] += 1
        self._push_prefix(marker, "  ", stack)
        return True

    def _blockquote(self, element: HtmlElement, stack: list) -> bool:
        if not self.inline:
            self._push_prefix("> ", "> ", stack)
        return True

    def _push_prefix(self, first: str, rest: str, stack: list) -> None:
        self.prefixes.append(_Prefix(first, rest))
        stack.append((self._pop_prefix, None))

    def _definition_list(self, element: HtmlElement, stack: list) -> bool:
        self.terms.append(_Term())
        stack.append((self._close_definition_list, None))
        return True

    def _close_definition_list(self, _: None) -> None:
        self._flush()
        term = self.terms.pop()
        if term.text and not term.defined:
            self._emit(term.text)

    def _term(self, element: HtmlElement, stack: list) -> bool:
        if self.inline or not self.terms:
            return True
        term = self.terms[-1]
        if term.defined:
            self.terms[-1] = _Term()
        stack.append((self._close_term, None))
        return True

    def _close_term(self, _: None) -> None:
        text = squash("".join(self.buffer))
        self.buffer.clear()
        term = self.terms[-1]
        if text:
            term.text = f"{term.text}, {text}" if term.text else text

    def _definition(self, element: HtmlElement, stack: list) -> bool:
        if self.inline or not self.terms or not self.terms[-1].text:
            return True
        term = self.terms[-1]
        self.lead = f"{term.text}: "
        term.defined = True
        self._push_prefix("", "  ", stack)
        stack.append((self._drop_lead, None))
        return True

    def _drop_lead(self, _: None) -> None:
        self._flush()
        if self.lead:
            self._emit(self.lead.rstrip(": "))
            self.lead = ""

    def _preformatted(self, element: HtmlElement, stack: list) -> bool:
        text = _preformatted_text(element)
        text = text.replace("\r\n", "\n").replace("\r", "\n").removeprefix("\n").rstrip()
        if not text.strip():
            return False
        self._place_anchors()
        if self.inline:
            self.buffer.append(f" {squash(text)} ")
            return False
        fence = "```"
        longest = max((len(m.group()) for m in _FENCE_RUN.finditer(text)), default=0)
        if longest >= 3:
            fence = "`" * (longest + 1)
        self._emit(fence)
        for line in text.split("\n"):
            self._emit_raw(line.rstrip())
        self._emit(fence)
        return False

    def _emit_raw(self, line: str) -> None:
        """A preformatted line: kept as is, even when blank."""
        if self.text_chars > MAX_TEXT_CHARS:
            return
        self.text_chars += len(line)
        line = self._prefix() + without_controls(line)
        self._release_held()
        self.held = (self.builder.current, line)
        self.emitted += 1
        self.filled[self.builder.current] = self.filled.get(self.builder.current, 0) + len(line)
        self.objects_mark = self.builder.object_counts()

    def _inline_code(self, element: HtmlElement, stack: list) -> bool:
        """Code inside a sentence as the page shows it, with no marks: a phrase copied from the
        page (`shared_buffers (integer)`) must be found by grep. Its highlighter's spans are
        read as one text, unless it holds objects (links, images…) that need the walk."""
        if len(element) and next(element.iterdescendants(*OBJECT_TAGS), None) is not None:
            return True
        code = squash(_preformatted_text(element) if len(element) else element.text or "")
        if code:
            self._add_text(code)
        return False


# The walker's element rules by tag, each returning whether the walk descends into the element.
# One table of plain functions, not bound methods per walker: an inline walk (every table cell,
# every heading) would build it anew.
_HANDLERS: dict[str, Callable[[Walker, HtmlElement, list], bool]] = {
    "a": Walker._link,
    "img": Walker._image,
    "svg": Walker._drawing,
    "br": Walker._line_break,
    "table": Walker._table,
    "li": Walker._list_item,
    "dl": Walker._definition_list,
    "dt": Walker._term,
    "dd": Walker._definition,
    "blockquote": Walker._blockquote,
    **dict.fromkeys(LIST_TAGS, Walker._list),
    **dict.fromkeys(PREFORMATTED_TAGS, Walker._preformatted),
    **dict.fromkeys(INLINE_CODE_TAGS, Walker._inline_code),
}


# --- helpers ----------------------------------------------------------------------------------

_REF = re.compile(r"\s*\[[ALIT]\d{2,}\]")
# Brackets are excluded inside, so a page full of `[A01 x` cannot make this quadratic.
_LABELLED_REF = re.compile(r"\[(?:[AI]\d{2,}) [a-z ]+(?:: |\")?([^\[\]]*?)\"?\]")


def _strip_refs(text: str) -> str:
    if "[" not in text:  # no ref to strip (most links' text): the regexes would change nothing
        return squash(text)
    return squash(_REF.sub("", _LABELLED_REF.sub(r"\1", text)))


def _preformatted_text(element: HtmlElement) -> str:
    """A <pre>'s text exactly, with <br> as a line break (highlighters emit those)."""
    parts: list[str] = []
    skipped = 0
    for event, node in lxml.etree.iterwalk(element, events=("start", "end")):
        tag = node.tag
        unrendered = isinstance(tag, str) and tag in SKIP_TAGS
        if event == "start":
            if unrendered:
                skipped += 1
            elif not skipped:
                if tag == "br":
                    parts.append("\n")
                if isinstance(tag, str) and node.text:
                    parts.append(node.text)
            continue
        if unrendered:
            skipped -= 1
        if not skipped and node is not element and node.tail:
            parts.append(node.tail)
    return "".join(parts)


def _heading_level(element: HtmlElement, tag: str) -> int | None:
    level = HEADING_LEVELS.get(tag)
    if level is None and element.get("role") == "heading":
        level = _aria_level(element.get("aria-level"))
    return level


def _is_kicker(element: HtmlElement, level: int) -> bool:
    """A heading right before a higher-ranked one in the same heading group
    (`<h4>Science</h4><h1>Title</h1>` in a header)."""
    parent = element.getparent()
    if parent is None or parent.tag not in HEADING_GROUP_TAGS:
        return False
    following = element.getnext()
    while following is not None and not isinstance(following.tag, str):
        following = following.getnext()
    if following is None:
        return False
    next_level = _heading_level(following, following.tag)
    return next_level is not None and next_level < level and bool(plain_text(following, limit=1))


def _link_label(element: HtmlElement) -> str:
    """A link's name when it shows no text: its aria-label, title, or an image's alt."""
    for attribute in ("aria-label", "title"):
        text = squash(element.get(attribute) or "")
        if text:
            return text
    image = element.find(".//img")
    return squash(image.get("alt") or "") if image is not None else ""


def _wrap(text: str, width: int) -> list[str]:
    """Split a too-long line at spaces (or hard, when there are none) into pieces ≤ width."""
    if len(text) <= width:
        return [text]
    pieces = []
    start, end = 0, len(text)
    while end - start > width:
        cut = text.rfind(" ", start, start + width)
        if cut <= start:
            cut = start + width
        pieces.append(text[start:cut])
        start = cut + 1 if text[cut:cut + 1] == " " else cut
    if start < end:
        pieces.append(text[start:])
    return pieces


def _int_attribute(value: str | None, default: int) -> int:
    try:
        number = int((value or "").strip())
    except ValueError:
        return default
    return number if abs(number) < 10**9 else default


def _aria_level(value: str | None) -> int:
    level = _int_attribute(value, DEFAULT_ARIA_HEADING_LEVEL)
    return level if 1 <= level <= 9 else DEFAULT_ARIA_HEADING_LEVEL


def _best_srcset_candidate(srcset: str) -> str:
    """The largest candidate of a srcset: highest `w`, else highest `x` (no descriptor = 1x)."""
    best_url, best_score = "", (-1, -1.0)
    for candidate in _SRCSET_SPLIT.split(srcset.strip()):
        parts = candidate.split()
        if not parts:
            continue
        url = parts[0]
        score = (0, 1.0)
        if len(parts) > 1:
            match = _DESCRIPTOR.match(parts[1].lower())
            if match:
                value = float(match.group(1))
                score = (1, value) if match.group(2) == "w" else (0, value)
        if score > best_score:
            best_url, best_score = url, score
    return best_url


def _image_source(element: HtmlElement) -> str:
    srcset = element.get("srcset") or next(
        (element.get(a) for a in LAZY_SRCSET_ATTRIBUTES if element.get(a)), ""
    )
    if srcset:
        best = _best_srcset_candidate(srcset)
        if best:
            return best
    src = (element.get("src") or "").strip()
    if not src or src.startswith("data:"):
        lazy = next((element.get(a) for a in LAZY_SRC_ATTRIBUTES if element.get(a)), "")
        src = lazy.strip() or src
    return src


def _is_tracking_pixel(element: HtmlElement) -> bool:
    return element.get("width") in ("0", "1") and element.get("height") in ("0", "1")


def _image_description(element: HtmlElement) -> tuple[str, bool]:
    """(description, whether it is the enclosing figure's caption): alt, title, figcaption."""
    for attribute in ("alt", "title"):
        text = squash(element.get(attribute) or "")
        if text:
            return text, False
    figure = next(element.iterancestors("figure"), None)
    if figure is not None:
        caption = figure.find(".//figcaption")
        if caption is not None:
            return plain_text(caption), True
    return "", False


# --- the entry point --------------------------------------------------------------------------


def render_inline(element: HtmlElement, builder: PageBuilder, page: PageContext) -> str:
    """`builder.text_of`: an element's content as one line, with the refs of the objects inside
    (registered here, in document order)."""
    walker = Walker(builder, page, inline=True)
    walker.walk_children(element)
    walker.finish()
    return walker.rendered()


def compile_page(
    data: bytes | str, url: str, *, content_type: str = "", prior: PriorActions | None = None
) -> CompiledPage:
    """Compile one captured document. Pure and deterministic; never raises: whatever cannot be
    read is said in the page's notes. prior: a new state's previous actions (identity.py)."""
    builder = PageBuilder(url, prior)
    try:
        _compile_html(data, content_type, builder)
    # The last line of defence: a page always comes out, and its notes say why it is short.
    except Exception as error:  # noqa: BLE001
        builder.note(f"compiler error ({type(error).__name__}: {str(error)[:200]}); "
                     "the page is compiled up to that point")
    return builder.build()


def _compile_html(data: bytes | str, content_type: str, builder: PageBuilder) -> None:
    document = parse(data, content_type)
    root = document.root
    for note in [*document.notes, *mark_stylesheet_hidden(root)]:
        builder.note(note)
    builder.lang = squash(root.get("lang") or root.get("xml:lang") or "")
    base = root.find(".//base[@href]")
    if base is not None:
        builder.base_url = builder.resolve_url(base.get("href")) or builder.url
    builder.title = _title(root)
    body = root.find("body")
    if body is None:
        body = root
    page = PageContext.of(body)
    builder.text_of = lambda element: render_inline(element, builder, page)
    walker = Walker(builder, page)
    walker.walk(body)
    walker.finish()
    extract_facts(root, document.text, builder)


_PAGE_TITLE = lxml.etree.XPath("//title[not(ancestor::svg)]")


def _title(root: HtmlElement) -> str:
    """<title>, else og:title, else the first <h1>."""
    title = root.find("head/title")
    if title is None:  # not a drawing's <title>: that names the drawing
        title = next(iter(_PAGE_TITLE(root)), None)
    if title is not None and squash(title.text_content()):
        return squash(title.text_content())
    og = root.find(".//meta[@property='og:title']")
    if og is not None and squash(og.get("content") or ""):
        return squash(og.get("content") or "")
    heading = root.find(".//h1")
    return plain_text(heading) if heading is not None else ""

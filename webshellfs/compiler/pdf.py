"""A PDF compiled into sections that follow its outline or its headings, with its links, tables
and metadata as the page's objects.

Two libraries, each for what it does best: pypdf reads the document's structure (page count,
metadata, the outline, link annotations), pdfminer.six lays out each page's characters with
their positions, fonts and sizes (docs/dependencies.md says why these two).

    sections  the outline (bookmarks) when the PDF has one: each entry starts a section at the
              line on its page that repeats its title, else at its page's top; without an
              outline, lines set larger than the body text (or bold at its size) are headings,
              one level per size, biggest first. A section's first line says where it is:
              `pages 4–6` (or `page 4`); `[page 5]` marks where a new page begins inside it.
    links     URI annotations, in links.tsv with the text under them; `text [L0001]` in the line
    tables    runs of two or more rows whose short cells start at the same columns
              (compiler/pdftables.py), labelled as plain rows are (compiler/plaintables.py)
    furniture page numbers and running headers/footers at a page's edge, out of the text
    facts     the document information dictionary as `pdf:title`, `pdf:author` …

Bounded: at most MAX_PDF_PAGES pages; pages are laid out until LAYOUT_SECONDS have gone by and
the rest are read as plain text; outline entries and links have their own caps. Any error from
either library on a damaged file becomes a note, never a failed compile.
"""

from __future__ import annotations

import io
import logging
import re
import time
from collections import Counter
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from pdfminer.converter import PDFPageAggregator
from pdfminer.layout import (
    IndexAssigner,
    LAParams,
    LTChar,
    LTFigure,
    LTPage,
    LTTextBox,
    LTTextLine,
)
from pdfminer.pdfdocument import PDFDocument
from pdfminer.pdfinterp import PDFPageInterpreter, PDFResourceManager
from pdfminer.pdfpage import PDFPage
from pdfminer.pdfparser import PDFParser
from pdfminer.pdftypes import PDFStream, resolve1
from pypdf import PdfReader

from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.pdftables import Item, Line, TableRows, style_weights, with_tables
from webshellfs.compiler.plaintables import add_header_table

# pdfminer warns on every odd thing a real PDF holds; the page's notes say what matters.
logging.getLogger("pdfminer").setLevel(logging.CRITICAL + 1)

MAX_PDF_PAGES = 2000
# Decoded content streams of one page above this are read as plain text, not laid out: 190 KB
# of text drawn over itself took pdfminer 12 s; a legible page of text holds far less.
MAX_LAYOUT_BYTES = 300_000
LAYOUT_SECONDS = 20.0
MAX_OUTLINE_ENTRIES = 1000
MAX_OUTLINE_DEPTH = 6
MAX_LINKS = 5000
# Links of one page whose words are looked for under them (each is checked against each line).
MAX_PAGE_LINK_TEXTS = 500
# Text boxes above this count are kept top to bottom: pdfminer's column-aware ordering of boxes
# grows with their square (a page of a thousand table cells would take seconds).
MAX_FLOW_BOXES = 150
# A heading is set at least this much larger than the body text (or bold at its size).
HEADING_SCALE = 1.15
MAX_HEADING_CHARS = 120
MAX_HEADING_LEVELS = 6

# A page's first or last line that is only its number: `7`, `- 7 -`, `Page 7 of 20`, `vii`.
PAGE_NUMBER = re.compile(
    r"^(?:page\s*)?[-–—(\[]?\s*(?:\d{1,5}|[ivxlc]{1,8})\s*[-–—)\]]?"
    r"(?:\s*(?:of|/)\s*\d{1,5})?$",
    re.IGNORECASE,
)
# What may stand before an outline entry's title in its heading line (spaces squashed out).
SECTION_NUMBER = re.compile(
    r"^(?:chapter|section|part|appendix)?(?:\d{1,3}|[a-z])?(?:[.:\-–]\d{0,3})*[.:\-–]?$"
)
FURNITURE_PAGES = 2

# all_texts: text drawn in form XObjects (figures) is laid out too; some writers put it all there.
FLOW = LAParams(all_texts=True)
UNORDERED = LAParams(boxes_flow=None, all_texts=True)
BOLD_FONT = re.compile(r"bold|black|heavy|semibold|demi", re.IGNORECASE)
HAS_LETTER = re.compile(r"[^\W\d_]")
# A table of contents' line (`Introduction . . . . 1`), set like the heading it names.
CONTENTS_ENTRY = re.compile(r"(?:\.\s?){4,}\s*[\dixvlc]{1,6}$", re.IGNORECASE)
# Where a link's reference goes in a line, until the link is registered in its section.
LINK_MARK = "\u2064"
_LINK_TOKEN = re.compile(LINK_MARK + r"(\d+)" + LINK_MARK)
INFO_FACTS = (
    ("/Title", "title"),
    ("/Author", "author"),
    ("/Subject", "subject"),
    ("/Keywords", "keywords"),
    ("/Creator", "creator"),
    ("/Producer", "producer"),
    ("/CreationDate", "created"),
    ("/ModDate", "modified"),
)




@dataclass
class PdfLink:
    """A URI annotation; text: the words under its rectangle, found when its page is laid out."""

    url: str
    rect: tuple[float, float, float, float]
    text: str = ""


@dataclass
class OutlineEntry:
    path: tuple[str, ...]
    page: int  # 1-based


@dataclass
class Section:
    """path: the heading's titles from the outermost; marks: link marks the heading held."""

    path: tuple[str, ...]
    first_page: int
    items: list[Item] = field(default_factory=list)
    marks: str = ""


def compile_pdf(data: bytes, builder: PageBuilder) -> None:
    # pypdf raises many unrelated exception types on damaged files; any of them means
    # "unreadable", which the page must say rather than fail.
    try:
        reader = PdfReader(io.BytesIO(data))
        if reader.is_encrypted and not reader.decrypt(""):
            builder.note("the PDF is encrypted with a password: its text cannot be read")
            return
        pages = list(reader.pages)
        metadata = reader.metadata or {}
    except Exception as error:  # noqa: BLE001 - see above
        builder.note(f"could not read the PDF: {type(error).__name__}: {error}")
        return
    titled = _facts(metadata, len(pages), builder)
    if len(pages) > MAX_PDF_PAGES:
        builder.note(f"kept the first {MAX_PDF_PAGES} of {len(pages)} PDF pages")
    pages = pages[:MAX_PDF_PAGES]
    links = _links(pages, builder)
    items = _without_furniture(_read_pages(data, pages, links, builder), builder)
    outline = _outline(reader, len(pages), builder)
    sections = _by_outline(items, outline) if outline else _by_headings(items)
    if not titled and not outline:
        # Untitled: the biggest heading of the first page names the document.
        builder.title = next(
            (s.path[0] for s in sections if len(s.path) == 1 and s.first_page == 1),
            builder.title,
        )
    _emit(sections, [link for page in sorted(links) for link in links[page]], builder)


# --- document structure (pypdf) ----------------------------------------------------------------


def _facts(metadata: Any, page_count: int, builder: PageBuilder) -> bool:
    """The information dictionary as facts; whether it gave the document a title."""
    title = _meta(metadata, "/Title")
    if title:
        builder.title = title
    builder.add_fact("pdf:pages", str(page_count))
    for key, name in INFO_FACTS:
        value = _meta(metadata, key)
        if value:
            builder.add_fact(f"pdf:{name}", value)
    return bool(title)


def _meta(metadata: Any, key: str) -> str:
    try:
        value = metadata.get(key)
    except Exception:  # noqa: BLE001 - a damaged info dictionary reads as empty
        return ""
    return " ".join(str(value).split()) if value else ""


def _outline(reader: PdfReader, page_count: int, builder: PageBuilder) -> list[OutlineEntry]:
    """The outline's entries in order, each with its title path and 1-based page."""
    try:
        roots = reader.outline
    except Exception as error:  # noqa: BLE001 - a damaged outline is no outline
        builder.note(f"the PDF's outline could not be read ({type(error).__name__})")
        return []
    entries: list[OutlineEntry] = []
    # Iterative, depth-first: (nodes of one level, their parent's path).
    stack: list[tuple[Iterator[Any], tuple[str, ...]]] = [(iter(roots), ())]
    last_path: tuple[str, ...] = ()
    while stack:
        node = next(stack[-1][0], None)
        if node is None:
            stack.pop()
            continue
        parent = stack[-1][1]
        if isinstance(node, list):  # the children of the entry before
            if len(last_path) < MAX_OUTLINE_DEPTH and last_path[:-1] == parent:
                stack.append((iter(node), last_path))
            continue
        if len(entries) == MAX_OUTLINE_ENTRIES:
            builder.note(f"kept the first {MAX_OUTLINE_ENTRIES} outline entries")
            break
        title = " ".join(str(getattr(node, "title", "") or "").split())
        try:
            page = reader.get_destination_page_number(node) + 1
        except Exception:  # noqa: BLE001 - an entry pointing nowhere starts no section
            page = 0
        last_path = (*parent, title or "(untitled)")
        if 1 <= page <= page_count:
            entries.append(OutlineEntry(last_path, page))
    return entries


def _links(pages: list[Any], builder: PageBuilder) -> dict[int, list[PdfLink]]:
    """URI link annotations by 1-based page, with rectangles in pdfminer's coordinates."""
    found: dict[int, list[PdfLink]] = {}
    count = 0
    for number, page in enumerate(pages, start=1):
        try:
            annotations = page.get("/Annots")
            annotations = annotations.get_object() if annotations is not None else []
            annotations = annotations if isinstance(annotations, list) else []
            left, bottom = (float(v) for v in page.mediabox.lower_left)
        except Exception as error:  # noqa: BLE001 - damaged annotations lose their links only
            builder.note(f"page {number}: links could not be read ({type(error).__name__})")
            continue
        for reference in annotations:
            link = _uri_link(reference, left, bottom)
            link_url = builder.resolve_url(link.url) if link else None
            if link is None or link_url is None:
                continue
            link.url = link_url
            if count == MAX_LINKS:
                builder.note(f"kept the first {MAX_LINKS} links of the PDF")
                return found
            found.setdefault(number, []).append(link)
            count += 1
    return found


def _uri_link(reference: Any, left: float, bottom: float) -> PdfLink | None:
    """The link of a URI annotation, its rectangle moved to the page's origin as pdfminer's
    characters are; None for any other annotation or a damaged one."""
    try:
        annotation = reference.get_object()
        if annotation.get("/Subtype") != "/Link":
            return None
        action = annotation["/A"] if "/A" in annotation else None
        if not action or action.get("/S") != "/URI" or not action.get("/URI"):
            return None
        x0, y0, x1, y1 = (float(v) for v in annotation["/Rect"])
        url = str(action["/URI"]).strip()
    except Exception:  # noqa: BLE001 - as above
        return None
    rect = (min(x0, x1) - left, min(y0, y1) - bottom, max(x0, x1) - left, max(y0, y1) - bottom)
    return PdfLink(url, rect)


# --- page text (pdfminer, else pypdf's plain text) ---------------------------------------------


def _read_pages(
    data: bytes, pages: list[Any], links: dict[int, list[PdfLink]], builder: PageBuilder
) -> list[Item]:
    """Every page's lines and tables, in page order. A page pdfminer finds no text on, or could
    not lay out, is read by pypdf as plain text (a damaged content stream may read there)."""
    by_page: dict[int, list[Item]] = {}
    deadline = time.monotonic() + LAYOUT_SECONDS
    try:
        for number, layout in enumerate(_layouts(data, len(pages)), start=1):
            if isinstance(layout, int):
                builder.note(f"page {number}: {layout:,} bytes of content (over "
                             f"{MAX_LAYOUT_BYTES:,}), read as plain text")
                continue
            by_page[number] = _page_items(layout, number, links.get(number, []))
            if time.monotonic() > deadline and number < len(pages):
                builder.note(
                    f"pages {number + 1}–{len(pages)} read as plain text: laying out the first "
                    f"{number} took the {LAYOUT_SECONDS:.0f} s allowed"
                )
                break
    except Exception as error:  # noqa: BLE001 - pdfminer on a damaged file, as pypdf above
        builder.note(
            f"page {len(by_page) + 1}: layout could not be read ({type(error).__name__}); "
            "the rest is plain text"
        )
    textless: list[int] = []
    unreadable: dict[str, list[int]] = {}
    for number, page in enumerate(pages, start=1):
        laid = by_page.get(number, [])
        if any(isinstance(item, TableRows) or item.size for item in laid):
            continue
        plain = _plain_lines(page, number)
        if isinstance(plain, str):
            unreadable.setdefault(plain, []).append(number)
            plain = []
        elif not plain:
            textless.append(number)
        by_page[number] = [*plain, *laid]  # laid: the page's links over no text
    if textless:
        builder.note(_pages_note(textless, "no extractable text") + " (scanned images?)")
    for error, numbers in unreadable.items():
        builder.note(_pages_note(numbers, "text could not be read") + f" ({error})")
    return [item for number in sorted(by_page) for item in by_page[number]]


def _layouts(data: bytes, page_count: int) -> Iterator[LTPage | int]:
    """Each page's characters grouped into lines and text boxes, in reading order; for a page
    whose content streams hold more than MAX_LAYOUT_BYTES, their size instead (one page
    cannot be stopped halfway, so a huge one is not started)."""
    document = PDFDocument(PDFParser(io.BytesIO(data)), password="")
    resources = PDFResourceManager(caching=True)
    device = PDFPageAggregator(resources, laparams=None)
    interpreter = PDFPageInterpreter(resources, device)
    for number, page in enumerate(PDFPage.create_pages(document), start=1):
        if number > page_count:
            return
        size = sum(len(stream.get_data()) for stream in _streams(page.contents))
        if size > MAX_LAYOUT_BYTES:
            yield size
            continue
        interpreter.process_page(page)
        layout = device.get_result()
        layout.analyze(UNORDERED)
        _order_boxes(layout)
        yield layout


def _streams(contents: Any) -> Iterator[PDFStream]:
    """A page's content streams (one, or an array of them)."""
    for reference in contents if isinstance(contents, list) else [contents]:
        stream = resolve1(reference)
        if isinstance(stream, PDFStream):
            yield stream


def _order_boxes(layout: LTPage) -> None:
    """pdfminer's reading order for a page of few boxes (columns read one after the other)."""
    boxes = [obj for obj in layout if isinstance(obj, LTTextBox)]
    if not 1 < len(boxes) <= MAX_FLOW_BOXES:
        return
    assigner = IndexAssigner()
    for group in layout.group_textboxes(FLOW, boxes):
        group.analyze(FLOW)
        assigner.run(group)
    boxes.sort(key=lambda box: box.index)
    others = [obj for obj in layout if not isinstance(obj, LTTextBox)]
    layout._objs = [*boxes, *others]  # pdfminer's own analyze() sets the order so; no setter


def _page_items(layout: LTPage, number: int, links: list[PdfLink]) -> list[Item]:
    """A laid-out page's lines in reading order, with its tables found and a mark where each
    of its links' words end (links over no text: a line of marks at the page's end)."""
    lines: list[Line] = []
    raw: list[str] = []
    # Per link, per line: the span of the line's raw text its characters cover.
    spans: dict[int, dict[int, tuple[int, int]]] = {}
    for box_number, box in enumerate(_text_boxes(layout)):
        for text_line in box:
            if not isinstance(text_line, LTTextLine):
                continue
            text, size, bold = _line_text(text_line, len(raw), links, spans)
            raw.append(text)
            lines.append(Line(number, "", size, bold, box_number, tuple(text_line.bbox)))
    marks: dict[int, list[tuple[int, int]]] = {}
    for link_index, by_line in spans.items():
        links[link_index].text = " ".join(" ".join(raw[i][a:b].split()) for i, (a, b) in
                                          sorted(by_line.items()))
        last = max(by_line)
        marks.setdefault(last, []).append((by_line[last][1], link_index))
    for line_index, at in marks.items():
        text = raw[line_index]
        for offset, link_index in sorted(at, reverse=True):
            text = f"{text[:offset]}{LINK_MARK}{link_index}{LINK_MARK}{text[offset:]}"
        raw[line_index] = text
    for line, text in zip(lines, raw):
        line.text = " ".join(text.split())
    items = with_tables([line for line in lines if line.text])
    loose = [i for i in range(len(links)) if i not in spans]
    if loose:
        items.append(Line(number, " ".join(f"{LINK_MARK}{i}{LINK_MARK}" for i in loose)))
    return items


def _text_boxes(layout: LTPage) -> Iterator[LTTextBox]:
    """The page's text boxes in order, then those inside its figures."""
    stack: list[Iterator[Any]] = [iter(layout)]
    while stack:
        obj = next(stack[-1], None)
        if obj is None:
            stack.pop()
        elif isinstance(obj, LTTextBox):
            yield obj
        elif isinstance(obj, LTFigure):
            stack.append(iter(obj))


def _line_text(
    text_line: LTTextLine,
    line_index: int,
    links: list[PdfLink],
    spans: dict[int, dict[int, tuple[int, int]]],
) -> tuple[str, float, bool]:
    """The line's raw text, its most common character size and whether it is all bold; the
    span of the text under each link goes into spans."""
    parts: list[str] = []
    length = 0
    sizes: Counter[float] = Counter()
    bold = True
    over = [
        i for i, link in enumerate(links[:MAX_PAGE_LINK_TEXTS])
        if _overlaps(link.rect, text_line.bbox)
    ]
    for child in text_line:
        text = child.get_text().replace(LINK_MARK, "")
        parts.append(text)
        length += len(text)
        if not isinstance(child, LTChar) or not text.strip():
            continue
        sizes[round(child.size * 2) / 2] += 1
        bold = bold and bool(BOLD_FONT.search(child.fontname or ""))
        middle = ((child.x0 + child.x1) / 2, (child.y0 + child.y1) / 2)
        for i in over:
            if _inside(middle, links[i].rect):
                start, _ = spans.setdefault(i, {}).get(line_index, (length - len(text), 0))
                spans[i][line_index] = (start, length)
    size = sizes.most_common(1)[0][0] if sizes else 0.0
    return "".join(parts), size, bold and bool(sizes)


def _overlaps(a: tuple[float, ...], b: tuple[float, ...]) -> bool:
    return a[0] < b[2] and b[0] < a[2] and a[1] < b[3] and b[1] < a[3]


def _inside(point: tuple[float, float], rect: tuple[float, ...]) -> bool:
    return rect[0] <= point[0] <= rect[2] and rect[1] <= point[1] <= rect[3]


def _without_furniture(items: list[Item], builder: PageBuilder) -> list[Item]:
    """The items without the page furniture: the lines of a page's first or last row (by
    position), set apart from the rest by at least their height, that are only a page number
    or whose text and size (the page's number aside) are there on two pages or more.
    Running headers and footers go to boilerplate/header.md and footer.md, once each; page
    numbers go, since `[page N]` says the same."""
    by_page: dict[int, list[Line]] = {}
    for item in items:
        if isinstance(item, Line) and item.box >= 0 and LINK_MARK not in item.text:
            by_page.setdefault(item.page, []).append(item)
    edges: list[tuple[str, Line]] = []
    for lines in by_page.values():
        if len(lines) < 2:
            continue
        ordered = sorted(lines, key=lambda line: -line.bbox[3])
        edges += [("header", line) for line in _edge_row(ordered, top=True)]
        ordered.sort(key=lambda line: line.bbox[1])
        edges += [("footer", line) for line in _edge_row(ordered, top=False)]
    repeated = Counter(_furniture_key(region, line) for region, line in edges)
    furniture: dict[int, str] = {}
    for region, line in edges:
        if PAGE_NUMBER.match(line.text):
            furniture[id(line)] = ""
        elif repeated[_furniture_key(region, line)] >= FURNITURE_PAGES:
            furniture[id(line)] = region
    shown: set[tuple[str, str, float]] = set()
    for item in items:
        region = furniture.get(id(item))
        if region and isinstance(item, Line) and _furniture_key(region, item) not in shown:
            shown.add(_furniture_key(region, item))
            builder.add_line(item.text, section=builder.region(region))
    return [item for item in items if id(item) not in furniture]


def _edge_row(ordered: list[Line], top: bool) -> list[Line]:
    """The lines on the row at the page's edge (ordered from that edge), when a gap of at least
    their height parts them from the rest; none otherwise."""
    first = ordered[0]
    middle = (first.bbox[1] + first.bbox[3]) / 2
    row = [line for line in ordered[:8] if line.bbox[1] <= middle <= line.bbox[3]]
    rest = [line for line in ordered if line not in row]
    if not rest:
        return []
    nearest = rest[0]
    gap = first.bbox[1] - nearest.bbox[3] if top else nearest.bbox[1] - first.bbox[3]
    return row if gap >= _height(first) else []


def _height(line: Line) -> float:
    return max(line.bbox[3] - line.bbox[1], 1.0)


def _furniture_key(region: str, line: Line) -> tuple[str, str, float]:
    """Where, what (the page's own number aside) and how big: `Page # of 20` on every page."""
    return region, re.sub(rf"(?<!\d){line.page}(?!\d)", "#", line.text), line.size


def _plain_lines(page: Any, number: int) -> list[Line] | str:
    """A page's text without layout (pypdf), or the name of the error when even that fails."""
    try:
        text = page.extract_text() or ""
    except Exception as error:  # noqa: BLE001 - damaged page content
        return type(error).__name__
    return [Line(number, " ".join(t.split())) for t in text.splitlines() if t.strip()]


def _pages_note(numbers: list[int], what: str) -> str:
    shown = ", ".join(map(str, numbers[:20])) + (" …" if len(numbers) > 20 else "")
    return f"{what} on page {shown}"


# --- sections ----------------------------------------------------------------------------------


def _by_outline(items: list[Item], outline: list[OutlineEntry]) -> list[Section]:
    """Sections that start where the outline's entries point: at the line of the entry's page
    that repeats its title (that line is the heading), else at the page's first line."""
    sections = [Section((), 1)]
    position = 0  # entries start in order: never before the entry before
    for entry in outline:
        start, heading = _entry_start(items, entry, position)
        sections[-1].items.extend(items[position:start])
        position = start + (1 if heading else 0)
        sections.append(Section(entry.path, entry.page))
    sections[-1].items.extend(items[position:])
    return sections


def _entry_start(items: list[Item], entry: OutlineEntry, after: int) -> tuple[int, bool]:
    title = _squashed(entry.path[-1])
    first = None
    for index in range(after, len(items)):
        item = items[index]
        if item.page < entry.page:
            continue
        if item.page > entry.page:
            break
        if first is None:
            first = index
        if isinstance(item, Line) and title and _is_title(_squashed(item.text), title):
            return index, True
    if first is not None:
        return first, False
    later = next((i for i in range(after, len(items)) if items[i].page > entry.page), len(items))
    return later, False


def _squashed(text: str) -> str:
    return "".join(text.split()).lower()


def _is_title(line: str, title: str) -> bool:
    """The line is the title, or the title after its number (`3.1`, `Chapter 3:`, `A.2`)."""
    return line == title or (
        line.endswith(title) and bool(SECTION_NUMBER.match(line[: len(line) - len(title)]))
    )


def _by_headings(items: list[Item]) -> list[Section]:
    """Sections from lines set as headings: larger than the body text, or bold at its size. A
    heading that wraps onto the next line (same style and box) is one heading."""
    levels = _heading_levels(items)
    sections = [Section((), 1)]
    path: list[tuple[int, str]] = []
    index = 0
    while index < len(items):
        item = items[index]
        index += 1
        level = levels.get(_style(item)) if _headline(item) else None
        if level is None or not isinstance(item, Line):
            sections[-1].items.append(item)
            continue
        words = [item.text]
        while index < len(items) and _continues(items[index], item):
            words.append(items[index].text)  # type: ignore[union-attr]
            index += 1
        heading = " ".join(words)
        title = " ".join(_LINK_TOKEN.sub(" ", heading).split())
        path = [(lvl, name) for lvl, name in path if lvl < level] + [(level, title)]
        marks = heading if LINK_MARK in heading else ""
        sections.append(Section(tuple(name for _, name in path), item.page, marks=marks))
    return sections


def _style(line: Line) -> tuple[float, bool] | None:
    return (line.size, line.bold) if line.size else None


def _headline(item: Item) -> bool:
    """Whether a line may be a heading whatever its style: short, with words, not an entry of a
    table of contents (set like the heading it names)."""
    return (
        isinstance(item, Line)
        and len(item.text) <= MAX_HEADING_CHARS
        and bool(HAS_LETTER.search(item.text))
        and not CONTENTS_ENTRY.search(item.text)
    )


def _continues(item: Item, heading: Line) -> bool:
    return (
        _headline(item)
        and isinstance(item, Line)
        and _style(item) == _style(heading)
        and item.page == heading.page
        and item.box == heading.box
    )


def _heading_levels(items: list[Item]) -> dict[tuple[float, bool], int]:
    """Heading styles (size, bold) by level: sizes above the body's (the style of most
    characters), biggest first, then bold at the body's size; at most MAX_HEADING_LEVELS."""
    lines = [item for item in items if isinstance(item, Line)]
    weight: Counter[tuple[float, bool]] = Counter()
    for style, count in style_weights(lines):
        weight[style] += count
    for item in items:
        if isinstance(item, TableRows):
            weight.update(item.styles)
    if not weight:
        return {}
    body_size, body_bold = weight.most_common(1)[0][0]
    candidates = {
        _style(line)
        for line in lines
        if _style(line)
        and _headline(line)
        and (line.size >= body_size * HEADING_SCALE
             or (line.bold and not body_bold and line.size >= body_size))
    }
    ordered = sorted(candidates, key=lambda s: (-s[0], not s[1]))  # type: ignore[index]
    return {style: min(n + 1, MAX_HEADING_LEVELS) for n, style in enumerate(ordered) if style}


# --- output ------------------------------------------------------------------------------------


def _emit(sections: list[Section], links: list[PdfLink], builder: PageBuilder) -> None:
    """Sections into the builder, each opening with the pages it spans."""
    headerless: list[str] = []
    for section in sections:
        if section.path:
            builder.start_section(section.path, section.path[-1])
        elif not section.items:
            continue
        pages = [item.page for item in section.items]
        first = section.first_page if section.path else pages[0]
        last = max([first, *pages])
        builder.add_line(f"page {first}" if first == last else f"pages {first}–{last}")
        if section.marks:  # the heading's links, with its words
            builder.add_line(_with_links(section.marks, links, builder))
        page, box = first, None
        for item in section.items:
            if item.page != page:
                builder.add_line(f"[page {item.page}]")
                page, box = item.page, None
            if isinstance(item, TableRows):
                builder.add_line(_table(item, links, builder))
                if not item.header:
                    headerless.append(builder.tables[-1].id)
                box = None
                continue
            if box is not None and item.box >= 0 and item.box != box:  # a new paragraph
                builder.add_line("")
            builder.add_line(_with_links(item.text, links, builder))
            box = item.box
    if headerless:
        shown = " ".join(headerless[:10]) + (" …" if len(headerless) > 10 else "")
        builder.note(f"no header row in {shown}: col_label is `column N`")


def _with_links(text: str, links: list[PdfLink], builder: PageBuilder) -> str:
    def register(match: re.Match[str]) -> str:
        link = links[int(match.group(1))]
        link_id = builder.add_link(link.url, link.text)
        return f" [{link_id}]" if match.start() else f"[{link_id}]"

    return _LINK_TOKEN.sub(register, text)


def _table(table: TableRows, links: list[PdfLink], builder: PageBuilder) -> str:
    """Register the table (its links first) and return its reference for the text. A table
    without a header row gets numbered columns and keeps every row as a body row."""
    width = len(table.rows[0])
    rows = table.rows if table.header else [[""] * width, *table.rows]
    refs: dict[tuple[int, int], tuple[str, ...]] = {}
    values: list[list[str]] = []
    for r, row in enumerate(rows):
        values.append([])
        for c, value in enumerate(row):
            ids = tuple(
                builder.add_link(links[int(m.group(1))].url, links[int(m.group(1))].text)
                for m in _LINK_TOKEN.finditer(value)
            )
            if ids and r:
                refs[(r - 1, c)] = ids
            values[-1].append(" ".join(_LINK_TOKEN.sub(" ", value).split()))
    header = [label or f"column {c + 1}" for c, label in enumerate(values[0])]
    return add_header_table(builder, "", header, values[1:], refs)

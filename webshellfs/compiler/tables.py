"""Tables: an HTML <table> becomes a labelled data table, or stays text when it only lays out
the page.

A data table is numbered at its start tag (T01, T02… in document order, so an outer table comes
before the tables nested in its cells) and leaves `[T01 5×4 → tables/T01.cells]` in the text.
rowspan/colspan are expanded, and every grid position of a body row becomes one `Cell` that
carries its row label and column label (a row that is one cell across the table is one `Cell`),
so `grep Medium tables/T01.cells` returns the value with its context. Links, controls and
nested tables inside a cell are registered through `builder.text_of` and listed in the cell's
refs.

A cell's value is its clean text, as a browser shows it: link and image refs stay in the refs
column (`Lake Louise, Canada`), an image-only cell reads as its description, <sup>/<sub> join
their word (`km2`), and footnote marks (`[8]`, `*`, `†` in a <sup>) are kept apart from the
words of values and labels. A cell holding a control or a nested table keeps those references
in its value: they say what to execute and where to look.

How labels are found:
- column labels: the rows of <thead>, else the leading rows made only of header cells (<th>),
  else a first row of <td> styled as headers (all bold, or a `header` class) or with a blank
  top-left corner. Several header rows join: "Measurements > Chest".
- row labels: the row's header cells (<th>, scope=row), left to right, after the naming cell
  before them if any. A table without any row header uses its first column with text in most
  rows; when that column only ranks or numbers the rows, the next one joins it
  (`1 · Soviet Union`). A body row holding a single header cell ("Tops", "Regular season",
  even inside <thead> below its first row) is a group row: it prefixes the rows below it
  ("Tops > Medium").
- a cell's own `headers="id1 id2"` list, when it names header cells, wins over both.
- title rows: leading rows of one header cell across the whole table name the table (its
  caption when it has none), not its columns.

A table is layout, not data, when its role says so, when it has fewer than two rows or columns,
when its cells only frame other tables, or when it has no header markup and its cells hold
page structure (nested tables, paragraphs, lists, headings, forms…).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from webshellfs.compiler.actions.found import found_action, row_action
from webshellfs.compiler.actions.rules import role_of
from webshellfs.compiler.builder import OPERABLE_ATTRIBUTE, Emitted, PageBuilder
from webshellfs.compiler.dom import is_hidden, plain_text, squash, visually_hidden
from webshellfs.compiler.rules import BLOCK_TAGS, SKIP_TAGS
from webshellfs.contract.records import Cell

# Grid positions kept per table; rows past it are cut and said in the notes.
MAX_CELLS = 50_000
# HTML itself clamps colspan to 1000 and rowspan to 65534.
MAX_COLUMNS = 1_000
MAX_ROWSPAN = 65_534
LABEL_JOIN = " > "
# Longer labels are clipped; a longer first cell is not taken as its row's name.
MAX_LABEL_CHARS = 100

LAYOUT_ROLES = frozenset({"presentation", "none"})
DATA_ROLES = frozenset({"table", "grid", "treegrid"})
# Page structure that data cells rarely hold and layout cells usually do. Form controls count
# too: a headerless grid of labels and inputs is a form's layout.
LAYOUT_CONTENT = (
    "table",
    "input",
    "select",
    "textarea",
    "div",
    "p",
    "ul",
    "ol",
    "dl",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "form",
    "section",
    "article",
    "nav",
    "aside",
    "header",
    "footer",
    "blockquote",
    "iframe",
)
# Children of <table> whose <tr> children are rows (True: header rows). Browsers also accept
# rows inside a stray <form>.
ROW_GROUPS = {"thead": True, "tbody": False, "tfoot": False, "form": False}
CELL_TAGS = frozenset({"td", "th"})
# A table built of ARIA roles (`div role=table` > `div role=row` > `span role=cell`): its rows
# sit in it or in its role=rowgroup children, its cells in the rows.
ARIA_ROW_GROUP = "rowgroup"
ARIA_ROW = "row"
ARIA_CELLS = frozenset({"cell", "gridcell", "columnheader", "rowheader"})
ARIA_HEADERS = {"columnheader": False, "rowheader": True}  # header cell → is a row header
BOLD_TAGS = frozenset({"b", "strong"})
ROW_SCOPES = frozenset({"row", "rowgroup"})
COLUMN_SCOPES = frozenset({"col", "colgroup"})

_LEADING_NUMBER = re.compile(r"\s*(\d+)")
_MENTIONED_ID = re.compile(r"\[([ALIT]\d{2,})\b")
# A link's ref in rendered text, and an image's, which leaves its description.
_LINK_REF = re.compile(r"\s*\[L\d{2,}\]")
_IMAGE_REF = re.compile(r"\[I\d{2,} image(?:: ([^\[\]]*))?\]")

# Footnote marks: a <sup> of this class, or whose whole text is bracketed (`[8]`, `[a]`,
# `[citation needed]`) or only mark symbols, or that links into the page (`#cite_note-8`).
# A bare digit without a link is an exponent (`km<sup>2</sup>`) and stays text.
FOOTNOTE_CLASSES = frozenset({"reference", "mw-ref", "noprint", "footnote"})
_FOOTNOTE_TEXT = re.compile(r"^(?:\[[^\[\]]{1,40}\]|[*†‡§¶#]+)$")
# Sort keys and alternates that MediaWiki's own stylesheet hides: a page compiled without that
# stylesheet would read `Carr, DavidDavid Carr`.
HIDDEN_CELL_CLASSES = frozenset({"sortkey", "display-none", "geo-nondefault"})
# Elements whose text is not a cell's value: a select's options, a text box's default.
UNREAD_IN_VALUES = frozenset({"select", "textarea", "input"})
# Elements a cell's text breaks around (a space); everything else joins like inline text.
BREAK_TAGS = BLOCK_TAGS | {"br"}
# A rank or index: 1, 2., =3, T4, 5th, #6, (7) — a column of these does not name its rows.
_RANK = re.compile(r"^[=T#(]?(\d{1,4})(?:\.|st|nd|rd|th|\))?=?$", re.IGNORECASE)
# Rank and name in one row label: `1 · Soviet Union`.
RANK_JOIN = " · "


@dataclass
class _Slot:
    """One source cell; rowspan/colspan make it cover several grid positions."""

    element: HtmlElement
    header: bool
    row_header: bool
    rowspan: int
    colspan: int
    text: str = ""
    label: str = ""
    refs: tuple[str, ...] = ()
    marks: tuple[str, ...] = ()
    pictured: bool = False  # the text is an image's description: the cell has no words


@dataclass
class _Row:
    in_head: bool
    slots: list[_Slot]
    line: dict[int, _Slot] = field(default_factory=dict)


def build_table(element: HtmlElement, builder: PageBuilder) -> Emitted:
    """The constructor for <table>: register a data table, or hand a layout table back to the
    walker to walk as text."""
    caption, rows, total_rows = _source_rows(element)
    _place(rows)
    width = max((max(r.line) + 1 for r in rows if r.line), default=0)
    if _is_layout(element, caption, rows, width):
        return Emitted(descend=True)
    table_id = builder.reserve_table()
    if width and len(rows) * width > MAX_CELLS:
        rows = rows[: max(1, MAX_CELLS // width)]
    if len(rows) < total_rows:
        builder.note(
            f"{table_id}: kept the first {len(rows)} of {total_rows} rows "
            f"(limit {MAX_CELLS} cells per table)"
        )
    caption_text = _read_caption(caption, builder) or _clip(squash(element.get("aria-label") or ""))
    _read_cells(rows, builder)
    titles = _title_rows(rows)
    if titles and not caption_text:
        caption_text = _clip(rows[0].line[0].label)
    head = _header_rows(rows, len(titles), width)
    col_labels = _column_labels(rows, head, width)
    if not any(col_labels) and not any(s.row_header for row in rows for s in row.slots):
        builder.note(f"{table_id}: no header cells; col_label is empty, row_label the row's name")
    cells = tuple(_cells(rows, head | set(range(len(titles))), col_labels, width))
    # The grid shows cells as the page does, footnote marks and all.
    grid = tuple(
        tuple(_shown(row.line[c]) if c in row.line else "" for c in range(width)) for row in rows
    )
    builder.add_table(caption_text, len(rows), width, cells, grid, table_id=table_id)
    named = f' "{caption_text}"' if caption_text else ""
    return Emitted(
        inline=f"[{table_id} {len(rows)}×{width}{named} → tables/{table_id}.cells]", block=True
    )


def is_aria_table(element: HtmlElement) -> bool:
    """A data table made of ARIA roles on other elements than <table>. Only role=table: a
    `div role=grid` is a widget (a combobox's popup, a grid of buttons), walked for its
    controls."""
    return element.tag != "table" and role_of(element) == "table"


def _shown(slot: _Slot) -> str:
    return slot.text + "".join(slot.marks)


# --- structure -------------------------------------------------------------------------------


def _source_rows(table: HtmlElement) -> tuple[HtmlElement | None, list[_Row], int]:
    """The caption, the visible rows in source order (cut at MAX_CELLS), and how many rows
    there were."""
    caption: HtmlElement | None = None
    rows: list[_Row] = []
    total = 0
    budget = MAX_CELLS
    for tr, in_head in _row_elements(table):
        total += 1
        if budget <= 0:
            continue
        slots = [_slot(td, in_head) for td in _row_cells(tr)]
        budget -= max(1, sum(s.colspan for s in slots))
        rows.append(_Row(in_head, slots))
    for child in table:
        if child.tag == "caption" and not is_hidden(child):
            caption = child
            break
    return caption, rows, total


def _row_elements(table: HtmlElement) -> Iterator[tuple[HtmlElement, bool]]:
    if table.tag != "table":
        yield from _aria_rows(table)
        return
    for child in table:
        tag = child.tag
        if not isinstance(tag, str) or is_hidden(child):
            continue
        if tag == "tr":
            yield child, False
        elif tag in ROW_GROUPS:
            yield from (
                (tr, ROW_GROUPS[tag]) for tr in child if tr.tag == "tr" and not is_hidden(tr)
            )


def _aria_rows(table: HtmlElement) -> Iterator[tuple[HtmlElement, bool]]:
    """The rows of a table made of ARIA roles; a row of column headers only is a header row."""
    for child in table:
        if not isinstance(child.tag, str) or is_hidden(child):
            continue
        role = role_of(child)
        rows = [child] if role == ARIA_ROW else [
            r for r in child if isinstance(r.tag, str) and role_of(r) == ARIA_ROW
            and not is_hidden(r)
        ] if role == ARIA_ROW_GROUP else []
        for row in rows:
            cells = _row_cells(row)
            yield row, bool(cells) and all(role_of(c) == "columnheader" for c in cells)


def _row_cells(row: HtmlElement) -> list[HtmlElement]:
    """A row's cells: <td>/<th> of a <tr>, role=cell/gridcell/…header children of a row."""
    if row.tag == "tr":
        return [cell for cell in row if cell.tag in CELL_TAGS]
    return [cell for cell in row if isinstance(cell.tag, str) and role_of(cell) in ARIA_CELLS]


def _span(value: str | None, limit: int) -> int:
    """A rowspan/colspan value as browsers read it: leading digits, 1 when absent or invalid."""
    if value is None:
        return 1
    match = _LEADING_NUMBER.match(value)
    return min(int(match.group(1)), limit) if match else 1


def _slot(cell: HtmlElement, in_head: bool) -> _Slot:
    scope = cell.get("scope", "").strip().lower()
    role = role_of(cell) if cell.tag not in CELL_TAGS else ""
    header = cell.tag == "th" or scope in ROW_SCOPES or scope in COLUMN_SCOPES or (
        role in ARIA_HEADERS)
    row_header = not in_head and (
        scope in ROW_SCOPES or (cell.tag == "th" and scope not in COLUMN_SCOPES)
        or ARIA_HEADERS.get(role, False)
    )
    return _Slot(
        cell,
        header,
        row_header,
        rowspan=_span(cell.get("rowspan"), MAX_ROWSPAN),
        colspan=max(1, _span(cell.get("colspan"), MAX_COLUMNS)),
    )


def _place(rows: list[_Row]) -> None:
    """Fill each row's `line` (column → slot), expanding spans; rowspan=0 reaches the last row."""
    below: dict[int, tuple[_Slot, int]] = {}  # column → (slot, last row it covers)
    last_row = len(rows) - 1
    for r, row in enumerate(rows):
        line = {c: slot for c, (slot, last) in below.items() if last >= r}
        below = {c: held for c, held in below.items() if held[1] > r}
        col = 0
        for slot in row.slots:
            while col in line:
                col += 1
            if col >= MAX_COLUMNS:
                break
            last = last_row if slot.rowspan == 0 else min(last_row, r + slot.rowspan - 1)
            for c in range(col, min(col + slot.colspan, MAX_COLUMNS)):
                if c in line:
                    continue
                line[c] = slot
                if last > r:
                    below[c] = (slot, last)
            col += slot.colspan
        row.line = line


def _is_layout(
    table: HtmlElement, caption: HtmlElement | None, rows: list[_Row], width: int
) -> bool:
    role = table.get("role", "").strip().lower()
    if role in LAYOUT_ROLES:
        return True
    if role in DATA_ROLES:
        return False
    if len(rows) < 2 or width < 2 or _wraps_tables(rows):
        return True
    if _has_header_markup(table, caption, rows):
        return False
    return any(
        True
        for row in rows
        for slot in row.slots
        for _ in slot.element.iterdescendants(*LAYOUT_CONTENT)
    )


def _wraps_tables(rows: list[_Row]) -> bool:
    """Every body cell with content holds a table: a frame around tables (a navbox, a side-by-side
    pair), not a table itself."""
    holders = 0
    for row in rows:
        for slot in row.slots:
            if next(slot.element.iterdescendants("table"), None) is not None:
                holders += 1
            elif not slot.header and slot.element.text_content().strip():
                return False
    return holders > 0


def _has_header_markup(table: HtmlElement, caption: HtmlElement | None, rows: list[_Row]) -> bool:
    if (caption is not None and plain_text(caption)) or table.get("summary"):
        return True
    return any(
        row.in_head or any(s.header or s.element.get("headers") for s in row.slots) for row in rows
    )


# --- text ------------------------------------------------------------------------------------


def _read_caption(caption: HtmlElement | None, builder: PageBuilder) -> str:
    if caption is None:
        return ""
    builder.text_of(caption)  # registers its links in document order
    return plain_text(caption)


def _read_cells(rows: list[_Row], builder: PageBuilder) -> None:
    """Render every cell once, in source order, so the objects inside keep document order.

    A cell's value is its clean text: links and images leave their refs to the refs column
    (a link the page's script acts on, an action, too: a date picker's day `10`), an image-only
    cell reads as its description, footnote marks go apart. A cell holding a control or a
    table keeps their references in place (`[A0001 button "Buy"]`): that is how the line says
    what to execute or where to look."""
    for row in rows:
        parent = row.slots[0].element.getparent() if row.slots else None
        is_row = parent is not None and (parent.tag == "tr" or role_of(parent) == ARIA_ROW)
        row_id = row_action(parent, builder) if is_row else ""
        for slot in row.slots:
            cell_id = _cell_action(slot.element, builder)
            before = (
                len(builder.actions),
                len(builder.links),
                len(builder.tables),
                len(builder.images),
            )
            rendered = builder.text_of(slot.element)
            slot.text, slot.marks, slot.pictured = _clean_text(slot.element)
            slot.label = slot.text
            if before == (
                len(builder.actions),
                len(builder.links),
                len(builder.tables),
                len(builder.images),
            ):
                slot.refs = (cell_id,) if cell_id else ()
                continue
            registered = (
                [a.id for a in builder.actions[before[0] :]]
                + [link.id for link in builder.links[before[1] :]]
                + [t.id for t in builder.tables[before[2] :]]
                + [i.id for i in builder.images[before[3] :]]
            )
            slot.refs = _in_text_order(registered, rendered)
            controls = [a for a in builder.actions[before[0]:] if a.control not in LINK_CONTROLS]
            if controls or len(builder.tables) > before[2]:
                slot.text = _IMAGE_REF.sub(lambda m: m.group(1) or "", _LINK_REF.sub("", rendered))
                slot.text = squash(slot.text)
            if cell_id:
                slot.refs = (cell_id, *slot.refs)
        if row_id:
            for slot in row.slots:
                slot.refs = (row_id, *slot.refs)


# Controls that are links to a person: in a cell, their text is the value, their id a ref.
LINK_CONTROLS = frozenset({"link"})


def _cell_action(cell: HtmlElement, builder: PageBuilder) -> str:
    """A cell the page made operable (a day of a date picker, a grid cell) is an action
    itself: its id, which goes first in the cell's refs ("" for an ordinary cell)."""
    found = found_action(cell, builder) if cell.get(OPERABLE_ATTRIBUTE) else None
    return found.action_id if found is not None else ""


def _clean_text(cell: HtmlElement) -> tuple[str, tuple[str, ...], bool]:
    """(the cell's visible text, its footnote marks, whether the text is images' descriptions). Inline elements join as a browser shows
    them (`km<sup>2</sup>` is `km2`), blocks and line breaks part words; an image's
    description stands in only when the cell has no text at all. Iterative, for deep nests."""
    parts: list[str] = []
    marks: list[str] = []
    images: list[str] = []
    stack: list[HtmlElement | str] = cell[::-1]
    if cell.text:
        parts.append(cell.text)
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            parts.append(item)
            continue
        if item.tail:
            stack.append(item.tail)
        tag = item.tag
        if not isinstance(tag, str) or tag in SKIP_TAGS or tag in UNREAD_IN_VALUES:
            continue
        if is_hidden(item) or visually_hidden(item) or _has_class(item, HIDDEN_CELL_CLASSES):
            continue
        if tag == "sup" and _is_footnote_mark(item):
            marks.append(squash("".join(item.itertext())))
            continue
        if tag == "img":
            images.append(squash(item.get("alt") or item.get("title") or ""))
            continue
        if tag in BREAK_TAGS:
            parts.append(" ")
            stack.append(" ")
        stack.extend(item[::-1])
        if item.text:
            parts.append(item.text)
    text = squash("".join(parts))
    pictured = not text and any(images)
    if pictured:
        text = " ".join(i for i in images if i)
    return text, tuple(m for m in marks if m), pictured


def _has_class(element: HtmlElement, classes: frozenset[str]) -> bool:
    names = element.get("class")
    return bool(names) and not classes.isdisjoint(names.lower().split())


def _is_footnote_mark(sup: HtmlElement) -> bool:
    if _has_class(sup, FOOTNOTE_CLASSES):
        return True
    text = plain_text(sup, limit=60)
    if _FOOTNOTE_TEXT.match(text.replace(" ", "")):
        return True
    return any((a.get("href") or "").startswith("#") for a in sup.iter("a"))


def _in_text_order(ids: list[str], text: str) -> tuple[str, ...]:
    """Refs in the order the cell's text mentions them (document order), unmentioned ones last."""
    if len(ids) < 2:
        return tuple(ids)
    wanted = set(ids)
    ordered = list(dict.fromkeys(i for i in _MENTIONED_ID.findall(text) if i in wanted))
    return tuple(ordered + [i for i in ids if i not in ordered])


# --- labels ----------------------------------------------------------------------------------


def _single_header(row: _Row) -> _Slot | None:
    """The header cell that is a row's only cell (however many columns it spans)."""
    slots = {id(s): s for s in row.line.values()}
    if len(slots) != 1:
        return None
    (slot,) = slots.values()
    return slot if slot.header else None


def _group_cell(row: _Row) -> _Slot | None:
    """The cell that makes a body row a group row: a header cell alone in its row, or a bold
    data cell alone across two columns or more (`<td colspan=5><b>Highway 91</b></td>`)."""
    single = _single_header(row)
    if single is not None:
        return single
    slots = {id(s): s for s in row.line.values()}
    if len(slots) != 1 or len(row.line) < 2:
        return None
    (slot,) = slots.values()
    return slot if slot.text and _bold_only(slot.element) else None


def _one_cell(row: _Row) -> bool:
    """A row that is one cell over two columns or more (a note, a picture across the table)."""
    return len(row.line) > 1 and len({id(s) for s in row.line.values()}) == 1


def _title_rows(rows: list[_Row]) -> range:
    """Leading rows of one header cell across the table (as wide as the row below it, at
    least): its title, not column labels. A first row of one data cell across (a map, a
    note) over a row of header cells is a title row too."""
    count = 0
    while count < len(rows) - 1 and _spans_row_below(rows, count) and _single_header(rows[count]):
        count += 1
    if count == 0 and len(rows) > 2 and _spans_row_below(rows, 0):
        below = rows[1].line.values()
        if len({id(s) for s in rows[0].line.values()}) == 1 and all(s.header for s in below):
            count = 1
    return range(count)


def _spans_row_below(rows: list[_Row], index: int) -> bool:
    return len(rows[index].line) >= max(2, len(rows[index + 1].line))


def _header_rows(rows: list[_Row], start: int, width: int) -> set[int]:
    """Indexes of the rows that label columns (title rows before `start` excluded). One header
    cell across the table below the first header row starts a group of rows ("Regular
    season"): it labels the rows below it, not the columns."""
    head = {
        r
        for r in range(start, len(rows))
        if rows[r].in_head and not (r > start and _group_row(rows[r], rows[start], width))
    }
    if not head:
        for r in range(start, len(rows)):
            row = rows[r]
            if not row.line or not all(s.header and not _scoped_row(s) for s in row.line.values()):
                break
            if r > start and _group_row(row, rows[start], width):
                break
            head.add(r)
    if not head and len(rows) > start + 1 and _styled_header_row(rows[start], rows[start + 1]):
        head.add(start)
    if len(head) == len(rows) - start:
        head = {start}
    return head


def _group_row(row: _Row, first_header: _Row, width: int) -> bool:
    """One header cell across the table (or at least across its first header row)."""
    spanned = min(width, len(first_header.line))
    return len(row.line) >= max(2, spanned) and _single_header(row) is not None


def _scoped_row(slot: _Slot) -> bool:
    return slot.element.get("scope", "").strip().lower() in ROW_SCOPES


def _styled_header_row(first: _Row, second: _Row) -> bool:
    """A first row of <td> that still labels the columns: every cell bold or classed as a
    header, or a blank top-left corner over a row of names, beside a first column of names."""
    slots = first.slots
    if not slots or any(ref[0] != "L" for s in slots for ref in s.refs):
        return False
    named = [s for s in slots if s.text]
    if named and all(_bold_only(s.element) or _header_class(s.element) for s in named):
        return True
    corner = second.line.get(0)
    return (
        len(slots) > 2
        and not slots[0].text
        and all(s.text for s in slots[1:])
        and corner is not None
        and bool(corner.text)
    )


def _header_class(cell: HtmlElement) -> bool:
    return any("head" in word for word in (cell.get("class") or "").lower().split())


def _bold_only(cell: HtmlElement) -> bool:
    """A cell whose whole text sits in one <b>/<strong>: a header row on pages without <th>."""
    if (cell.text or "").strip():
        return False
    children = [c for c in cell if isinstance(c.tag, str)]
    return (
        len(children) == 1
        and children[0].tag in BOLD_TAGS
        and not (children[0].tail or "").strip()
        and bool(plain_text(children[0]))
    )


def _clip(label: str) -> str:
    return label if len(label) <= MAX_LABEL_CHARS else label[: MAX_LABEL_CHARS - 1].rstrip() + "…"


def _join(parts: list[str]) -> str:
    """Labels joined outermost first, skipping blanks and a repeat of the label just before."""
    kept: list[str] = []
    for part in parts:
        part = _clip(part)
        if part and (not kept or kept[-1] != part):
            kept.append(part)
    return LABEL_JOIN.join(kept)


def _column_labels(rows: list[_Row], head: set[int], width: int) -> list[str]:
    return [
        _join([rows[r].line[c].label for r in sorted(head) if c in rows[r].line])
        for c in range(width)
    ]


def _headers_by_id(rows: list[_Row], head: set[int]) -> dict[str, tuple[_Slot, bool]]:
    """Header cells with an id, for `headers="…"` references: id → (cell, labels a column)."""
    found: dict[str, tuple[_Slot, bool]] = {}
    for r, row in enumerate(rows):
        for slot in row.slots:
            element_id = slot.element.get("id")
            if element_id and (slot.header or r in head):
                found.setdefault(element_id, (slot, r in head))
    return found


def _named_headers(
    slot: _Slot, headers: dict[str, tuple[_Slot, bool]], fallback: tuple[str, str]
) -> tuple[str, str]:
    """(row label, column label) from a cell's own `headers` list, where it names any."""
    named = [headers[i] for i in slot.element.get("headers", "").split() if i in headers]
    row = _join([s.label for s, is_column in named if not is_column])
    column = _join([s.label for s, is_column in named if is_column])
    return row or fallback[0], column or fallback[1]


def _filled(rows: list[_Row], body: list[int], column: int, *, words: bool = False) -> list[str]:
    """The non-empty labels of a column's body cells (with `words`, not images' descriptions)."""
    slots = (rows[r].line.get(column) for r in body)
    return [s.label for s in slots if s is not None and s.label and not (words and s.pictured)]


def _ranks_rows(rows: list[_Row], body: list[int], column: int) -> bool:
    """A column of ranks or indexes: small numbers only (a column of years names its rows).
    Medal pictures for the first places do not count."""
    numbers = [_RANK.match(label) for label in _filled(rows, body, column, words=True)]
    return bool(numbers) and all(numbers) and max(int(m.group(1)) for m in numbers if m) <= (
        2 * len(body) + 10
    )


def _name_columns(rows: list[_Row], body: list[int], width: int) -> tuple[int, ...]:
    """The columns that name a row where no header cell does: the first column with words in
    most rows (a column of colour keys, icons or portraits names nothing), and the next such
    column too when that first one only ranks or numbers the rows (`1 · Soviet Union`)."""
    filled = [
        c for c in range(width) if 2 * len(_filled(rows, body, c, words=True)) >= len(body)
    ]
    if not filled:
        return (0,)
    first = filled[0]
    if len(filled) > 1 and _ranks_rows(rows, body, first):
        return first, filled[1]
    return (first,)


def _row_name(row: _Row, columns: tuple[int, ...]) -> str:
    parts = [
        row.line[c].label
        for c in dict.fromkeys(columns)
        if c in row.line and row.line[c].label and len(row.line[c].label) <= MAX_LABEL_CHARS
    ]
    # A long first cell is content (a list of links, a paragraph), not a name.
    return RANK_JOIN.join(dict.fromkeys(parts))


def _extents(rows: list[_Row]) -> dict[int, str]:
    """For each source cell that covers several grid positions, its rows and columns as a
    cell id reads them (`r5c3-4`, `r2-4c1`): a copy of one spanned value says it is one."""
    where: dict[int, tuple[int, int, int, int]] = {}
    for r, row in enumerate(rows, start=1):
        for c, slot in row.line.items():
            top, bottom, left, right = where.get(id(slot), (r, r, c + 1, c + 1))
            where[id(slot)] = (min(top, r), max(bottom, r), min(left, c + 1), max(right, c + 1))

    def span(first: int, last: int) -> str:
        return f"{first}-{last}" if last > first else str(first)

    return {key: f"r{span(top, bottom)}c{span(left, right)}"
            for key, (top, bottom, left, right) in where.items()
            if bottom > top or right > left}


def _cells(rows: list[_Row], head: set[int], col_labels: list[str], width: int) -> Iterator[Cell]:
    # Rows that say something of columns: not group rows, not one cell across (a note).
    body = [
        r
        for r in range(len(rows))
        if r not in head and _group_cell(rows[r]) is None and not _one_cell(rows[r])
    ]
    explicit_headers = _headers_by_id(rows, head)
    explicit = any(s.row_header for r in body for s in rows[r].line.values())
    names = _name_columns(rows, body, width)
    ranked = {c for c in range(width) if _ranks_rows(rows, body, c)}
    extents = _extents(rows)
    group = ""
    for r in range(len(rows)):
        if r in head:
            continue
        row = rows[r]
        group_cell = _group_cell(row)
        if group_cell is not None:
            group = group_cell.label
            continue
        across = len(row.line) == width > 1 and len({id(s) for s in row.line.values()}) == 1
        own: list[str] = []
        if explicit and not across:
            seen: dict[int, tuple[int, _Slot]] = {}
            for c in sorted(row.line):
                if row.line[c].row_header and row.line[c].label:  # not an empty colour key
                    seen.setdefault(id(row.line[c]), (c, row.line[c]))
            own = [s.label for _, s in seen.values()]
            first = min((c for c, _ in seen.values()), default=0)
            if len(seen) == 1 and first in ranked:
                # A rank as the row's header: the next cell names the row.
                own = [_row_name(row, (first, first + 1))]
            elif own and names[0] < first:
                # A name before the header cell (`1 · Soviet Union`, `Entrant · Constructor`).
                lead = _row_name(row, names[:1])
                own = [RANK_JOIN.join(p for p in (lead, _join(own)) if p)]
        if not own and not across:
            own = [_row_name(row, names)]
        row_label = _join([group, *own])
        for c in sorted(row.line):
            slot = row.line[c]
            # A row header under no column label is already every line's row_label: a line of
            # its own would only repeat it (infoboxes: "Founded  Founded").
            if explicit and slot.row_header and not slot.refs and not across and not col_labels[c]:
                continue
            if slot.text or slot.refs:
                # One cell across the whole table (an image, a note) belongs to no column: one line.
                labels = (row_label, "" if across else col_labels[c])
                if explicit_headers and slot.element.get("headers"):
                    labels = _named_headers(slot, explicit_headers, labels)
                yield Cell(r + 1, c + 1, *labels, slot.text, slot.refs, extents.get(id(slot), ""))
            if across:
                break

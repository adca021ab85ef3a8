"""Tables: an HTML <table> becomes a labelled data table, or stays text when it only lays out
the page.

A data table is numbered at its start tag (T01, T02… in document order, so an outer table comes
before the tables nested in its cells) and leaves `[T01 5×4 → tables/T01.cells]` in the text.
rowspan/colspan are expanded, and every grid position of a body row becomes one `Cell` that
carries its row label and column label, so `grep Medium tables/T01.cells` returns the value with
its context. Links, controls and nested tables inside a cell are registered through
`builder.text_of` and listed in the cell's refs.

How labels are found:
- column labels: the rows of <thead>, else the leading rows made only of header cells (<th>),
  else a first row whose cells are all bold. Several header rows join: "Measurements > Chest".
- row labels: the row's header cells (<th>, scope=row), left to right. A table without any row
  header uses its first column. A body row holding a single header cell ("Tops"), or one cell
  spanning the whole width, is a group row: it prefixes the rows below it ("Tops > Medium").

A table is layout, not data, when its role says so, when it has fewer than two rows or columns,
or when it has no header markup and its cells hold page structure (nested tables, paragraphs,
lists, headings, forms…).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from webshellfs.compiler.builder import Emitted, PageBuilder
from webshellfs.compiler.dom import is_hidden, plain_text
from webshellfs.contract.records import Cell

# Grid positions kept per table; rows past it are cut and said in the notes.
MAX_CELLS = 50_000
# HTML itself clamps colspan to 1000 and rowspan to 65534.
MAX_COLUMNS = 1_000
MAX_ROWSPAN = 65_534
LABEL_JOIN = " > "

LAYOUT_ROLES = frozenset({"presentation", "none"})
DATA_ROLES = frozenset({"table", "grid", "treegrid"})
# Page structure that data cells rarely hold and layout cells usually do.
LAYOUT_CONTENT = (
    "table", "div", "p", "ul", "ol", "dl", "h1", "h2", "h3", "h4", "h5", "h6", "form",
    "section", "article", "nav", "aside", "header", "footer", "blockquote", "iframe",
)
# Children of <table> whose <tr> children are rows (browsers also accept rows inside a stray <form>).
ROW_GROUPS = {"thead": True, "tbody": False, "tfoot": False, "form": False}
CELL_TAGS = frozenset({"td", "th"})
BOLD_TAGS = frozenset({"b", "strong"})
ROW_SCOPES = frozenset({"row", "rowgroup"})
COLUMN_SCOPES = frozenset({"col", "colgroup"})

_LEADING_NUMBER = re.compile(r"\s*(\d+)")
_MENTIONED_ID = re.compile(r"\[([ALIT]\d{2,})\b")


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


@dataclass
class _Row:
    in_head: bool
    slots: list[_Slot]
    line: dict[int, _Slot] = field(default_factory=dict)


def build_table(element: HtmlElement, builder: PageBuilder) -> Emitted:
    """The constructor for <table>: register a data table, or hand a layout table back to the walker."""
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
    caption_text = _read_caption(caption, builder)
    _read_cells(rows, builder)
    head = _header_rows(rows)
    col_labels = _column_labels(rows, head, width)
    cells = tuple(_cells(rows, head, col_labels, width))
    grid = tuple(
        tuple(row.line[c].text if c in row.line else "" for c in range(width)) for row in rows
    )
    builder.add_table(caption_text, len(rows), width, cells, grid, table_id=table_id)
    named = f' "{caption_text}"' if caption_text else ""
    return Emitted(
        inline=f"[{table_id} {len(rows)}×{width}{named} → tables/{table_id}.cells]", block=True
    )


# --- structure -------------------------------------------------------------------------------


def _source_rows(table: HtmlElement) -> tuple[HtmlElement | None, list[_Row], int]:
    """The caption, the visible rows in source order (cut at MAX_CELLS), and how many rows there were."""
    caption: HtmlElement | None = None
    rows: list[_Row] = []
    total = 0
    budget = MAX_CELLS
    for tr, in_head in _row_elements(table):
        total += 1
        if budget <= 0:
            continue
        slots = [_slot(td, in_head) for td in tr if td.tag in CELL_TAGS]
        budget -= max(1, sum(s.colspan for s in slots))
        rows.append(_Row(in_head, slots))
    for child in table:
        if child.tag == "caption" and not is_hidden(child):
            caption = child
            break
    return caption, rows, total


def _row_elements(table: HtmlElement) -> Iterator[tuple[HtmlElement, bool]]:
    for child in table:
        tag = child.tag
        if not isinstance(tag, str) or is_hidden(child):
            continue
        if tag == "tr":
            yield child, False
        elif tag in ROW_GROUPS:
            yield from ((tr, ROW_GROUPS[tag]) for tr in child if tr.tag == "tr" and not is_hidden(tr))


def _span(value: str | None, limit: int) -> int:
    """A rowspan/colspan value as browsers read it: leading digits, 1 when absent or invalid."""
    if value is None:
        return 1
    match = _LEADING_NUMBER.match(value)
    return min(int(match.group(1)), limit) if match else 1


def _slot(cell: HtmlElement, in_head: bool) -> _Slot:
    scope = cell.get("scope", "").strip().lower()
    header = cell.tag == "th" or scope in ROW_SCOPES or scope in COLUMN_SCOPES
    row_header = not in_head and (scope in ROW_SCOPES or (cell.tag == "th" and scope not in COLUMN_SCOPES))
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


def _is_layout(table: HtmlElement, caption: HtmlElement | None, rows: list[_Row], width: int) -> bool:
    role = table.get("role", "").strip().lower()
    if role in LAYOUT_ROLES:
        return True
    if role in DATA_ROLES:
        return False
    if len(rows) < 2 or width < 2:
        return True
    if _has_header_markup(table, caption, rows):
        return False
    return any(
        True for row in rows for slot in row.slots for _ in slot.element.iterdescendants(*LAYOUT_CONTENT)
    )


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
    """Render every cell once, in source order, so the objects inside keep document order."""
    for row in rows:
        for slot in row.slots:
            before = (len(builder.actions), len(builder.links), len(builder.tables), len(builder.images))
            slot.text = builder.text_of(slot.element)
            slot.label = slot.text
            if before == (len(builder.actions), len(builder.links), len(builder.tables), len(builder.images)):
                continue
            registered = (
                [a.id for a in builder.actions[before[0]:]]
                + [link.id for link in builder.links[before[1]:]]
                + [t.id for t in builder.tables[before[2]:]]
                + [i.id for i in builder.images[before[3]:]]
            )
            slot.refs = _in_text_order(registered, slot.text)
            # A label is plain text: the refs of a sortable header stay out of every cell line.
            slot.label = plain_text(slot.element)


def _in_text_order(ids: list[str], text: str) -> tuple[str, ...]:
    """Refs in the order the cell's text mentions them (document order), unmentioned ones last."""
    if len(ids) < 2:
        return tuple(ids)
    wanted = set(ids)
    ordered = list(dict.fromkeys(i for i in _MENTIONED_ID.findall(text) if i in wanted))
    return tuple(ordered + [i for i in ids if i not in ordered])


# --- labels ----------------------------------------------------------------------------------


def _header_rows(rows: list[_Row]) -> set[int]:
    """Indexes of the rows that label columns."""
    head = {r for r, row in enumerate(rows) if row.in_head}
    if not head:
        for r, row in enumerate(rows):
            if not row.line or not all(s.header and not _scoped_row(s) for s in row.line.values()):
                break
            head.add(r)
    if not head and rows and rows[0].line and all(_bold_only(s.element) for s in rows[0].slots):
        head.add(0)
    if len(head) == len(rows):
        head = {0}
    return head


def _scoped_row(slot: _Slot) -> bool:
    return slot.element.get("scope", "").strip().lower() in ROW_SCOPES


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


def _join(parts: list[str]) -> str:
    """Labels joined outermost first, skipping blanks and a repeat of the label just before."""
    kept: list[str] = []
    for part in parts:
        if part and (not kept or kept[-1] != part):
            kept.append(part)
    return LABEL_JOIN.join(kept)


def _column_labels(rows: list[_Row], head: set[int], width: int) -> list[str]:
    return [_join([rows[r].line[c].label for r in sorted(head) if c in rows[r].line]) for c in range(width)]


def _group_label(row: _Row, width: int) -> str | None:
    """The label of a group row (one header cell, or one cell across the table), else None."""
    slots = {id(s): s for s in row.line.values()}
    if len(slots) != 1:
        return None
    (slot,) = slots.values()
    if slot.header or len(row.line) == width:
        return slot.label
    return None


def _cells(rows: list[_Row], head: set[int], col_labels: list[str], width: int) -> Iterator[Cell]:
    body = [r for r in range(len(rows)) if r not in head]
    explicit = any(s.row_header for r in body for s in rows[r].line.values())
    group = ""
    for r in body:
        row = rows[r]
        label = _group_label(row, width) if width > 1 else None
        if label is not None:
            group = label
            continue
        if explicit:
            seen: dict[int, _Slot] = {}
            for c in sorted(row.line):
                if row.line[c].row_header:
                    seen.setdefault(id(row.line[c]), row.line[c])
            own = [s.label for s in seen.values()]
        else:
            first = row.line.get(0)
            own = [first.label] if first is not None else []
        row_label = _join([group, *own])
        for c in sorted(row.line):
            slot = row.line[c]
            if slot.text or slot.refs:
                yield Cell(r + 1, c + 1, row_label, col_labels[c], slot.text, slot.refs)

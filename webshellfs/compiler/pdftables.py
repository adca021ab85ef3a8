"""A PDF page's lines, and the tables among them: rows of short pieces of text that start at
the same columns.

pdfminer splits a line where the space between characters is wide (a table's column gap), so
a table row is several lines on one baseline. A table is a run of two or more such rows, each
no further below the one before than MAX_ROW_GAP row heights, whose pieces each fall into one
column of the run's first row (the columns widen as rows join). A row of two columns of prose
is not a table row: its pieces are long and fill the row's width.

The first row labels the columns when it looks like a header: bold where the row below is not,
or words above a column of numbers. Otherwise every row is a body row and the columns are
`column 1`, `column 2` … (the same as an empty CSV header).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

# Table rows: cells no longer than this, covering at most this share of the row's width
# unless their average is shorter than MAX_SHORT_CELL (a dense listing of codes and names).
MAX_CELL_CHARS = 60
MAX_CELL_COVER = 0.75
MAX_SHORT_CELL = 20
# Two rows of one table are at most this many row heights apart.
MAX_ROW_GAP = 2.5
_NUMBER = re.compile(r"^[-+−]?[$€£]?\d[\d,. ]*%?$")

Style = tuple[float, bool]  # (size, bold)


@dataclass
class Line:
    """One line of a page's text. size is 0 and box -1 for text read without layout."""

    page: int
    text: str
    size: float = 0.0
    bold: bool = False
    box: int = -1
    bbox: tuple[float, float, float, float] = (0.0, 0.0, 0.0, 0.0)


@dataclass
class TableRows:
    """A table's text by row and column. header: whether rows[0] labels the columns. styles:
    its characters by (size, bold), which count toward the body text's style."""

    page: int
    rows: list[list[str]]
    header: bool = True
    styles: Counter[Style] = field(default_factory=Counter)


Item = Line | TableRows


def style_weights(lines: Iterable[Line]) -> Iterator[tuple[Style, int]]:
    """(style, characters) of each line laid out with a size."""
    for line in lines:
        if line.size:
            yield (line.size, line.bold), len(line.text)


def with_tables(lines: list[Line]) -> list[Item]:
    """The page's lines with each table's lines replaced by one TableRows where its first line
    stood in reading order."""
    if len(lines) < 4:
        return list(lines)
    order = {id(line): n for n, line in enumerate(lines)}
    replaced: dict[int, TableRows | None] = {}
    for table in _tables(_rows(lines)):
        members = [id(line) for row in table for line in row]
        replaced.update(dict.fromkeys(members))
        styles: Counter[Style] = Counter()
        for style, count in style_weights(line for row in table for line in row):
            styles[style] += count
        grid = _grid(table)
        first = min(members, key=order.__getitem__)
        replaced[first] = TableRows(lines[0].page, grid, _has_header(table, grid), styles)
    out: list[Item] = []
    for line in lines:
        if id(line) not in replaced:
            out.append(line)
        elif (found := replaced[id(line)]) is not None:
            out.append(found)
    return out


def _rows(lines: list[Line]) -> list[list[Line]]:
    """Lines on one baseline band, top to bottom, each row left to right."""
    ordered = sorted(lines, key=lambda line: -(line.bbox[1] + line.bbox[3]))
    rows: list[list[Line]] = []
    for line in ordered:
        middle = (line.bbox[1] + line.bbox[3]) / 2
        if rows:
            last = rows[-1][0]
            if abs((last.bbox[1] + last.bbox[3]) / 2 - middle) <= _height(last) / 2:
                rows[-1].append(line)
                continue
        rows.append([line])
    return [sorted(row, key=lambda line: line.bbox[0]) for row in rows]


def _height(line: Line) -> float:
    return max(line.bbox[3] - line.bbox[1], 1.0)


def _cell_row(row: list[Line]) -> bool:
    """Two or more short pieces of text with wide space between them."""
    if len(row) < 2 or any(len(line.text) > MAX_CELL_CHARS for line in row):
        return False
    span = row[-1].bbox[2] - row[0].bbox[0]
    covered = sum(line.bbox[2] - line.bbox[0] for line in row)
    short = sum(len(line.text) for line in row) / len(row) <= MAX_SHORT_CELL
    return span > 0 and (short or covered <= MAX_CELL_COVER * span)


def _tables(rows: list[list[Line]]) -> Iterator[list[list[Line]]]:
    """Runs of cell rows whose cells fall in the columns of the run's first row."""
    index = 0
    while index < len(rows):
        head = rows[index]
        if not _cell_row(head):
            index += 1
            continue
        columns = [[line.bbox[0], line.bbox[2]] for line in head]
        run = [head]
        while index + len(run) < len(rows):
            row = rows[index + len(run)]
            gap = run[-1][0].bbox[1] - row[0].bbox[3]
            if gap > MAX_ROW_GAP * _height(run[-1][0]) or not _cell_row(row):
                break
            if not _fits(row, columns):
                break
            run.append(row)
        if len(run) >= 2:
            yield run
        index += len(run)


def _fits(row: list[Line], columns: list[list[float]]) -> bool:
    """Whether each piece of the row overlaps one column no other piece does; the columns
    widen to take it in."""
    taken: set[int] = set()
    for line in row:
        best = _column_of(line, columns)
        if _overlap(line, columns[best]) <= 0 or best in taken:
            return False
        taken.add(best)
    for line in row:
        column = columns[_column_of(line, columns)]
        column[0], column[1] = min(column[0], line.bbox[0]), max(column[1], line.bbox[2])
    return True


def _overlap(line: Line, column: list[float]) -> float:
    return min(line.bbox[2], column[1]) - max(line.bbox[0], column[0])


def _column_of(line: Line, columns: list[list[float]]) -> int:
    return max(range(len(columns)), key=lambda c: _overlap(line, columns[c]))


def _grid(table: list[list[Line]]) -> list[list[str]]:
    """The table's text by row and column (an empty string where a row has no cell)."""
    columns = [[line.bbox[0], line.bbox[2]] for line in table[0]]
    for row in table[1:]:
        _fits(row, columns)
    grid = []
    for row in table:
        out = [""] * len(columns)
        for line in row:
            out[_column_of(line, columns)] = line.text
        grid.append(out)
    return grid


def _has_header(table: list[list[Line]], grid: list[list[str]]) -> bool:
    """Bold over a row that is not, or words over a column of numbers."""
    first, second = table[0], table[1]
    if all(line.bold for line in first) and not all(line.bold for line in second):
        return True
    body = grid[1:]
    return any(
        grid[0][c] and not _NUMBER.match(grid[0][c])
        and all(_NUMBER.match(row[c]) for row in body if row[c])
        and any(row[c] for row in body)
        for c in range(len(grid[0]))
    )

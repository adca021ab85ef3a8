"""Tables that come as plain rows rather than markup (JSON records, CSV, a PDF's aligned text):
a header row of column labels, then body rows labelled by their first column, in the same
`Cell` records an HTML table makes (compiler/tables.py), so `grep` over tables/ reads the same.
"""

from __future__ import annotations

from webshellfs.compiler.builder import PageBuilder
from webshellfs.contract.records import Cell


def add_header_table(
    builder: PageBuilder,
    caption: str,
    header: list[str],
    rows: list[list[str]],
    refs: dict[tuple[int, int], tuple[str, ...]] | None = None,
) -> str:
    """Register the table in the current section and return the reference that stands in the
    text for it, `[T01 4×3 → tables/T01.cells]`. refs: link ids by (body row, column) index."""
    refs = refs or {}
    cells = tuple(
        Cell(r + 2, c + 1, row[0], header[c], value, refs.get((r, c), ()))
        for r, row in enumerate(rows)
        for c, value in enumerate(row)
        if value
    )
    grid = (tuple(header), *(tuple(row) for row in rows))
    table_id = builder.add_table(caption, len(grid), len(header), cells, grid)
    named = f' "{caption}"' if caption else ""
    return f"[{table_id} {len(grid)}×{len(header)}{named} → tables/{table_id}.cells]"

"""Does one grep answer a cell? Real span-heavy Wikipedia tables against their gold grids.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_tables.py              # the figures
    .venv/bin/python tests/benchmarks/bench_tables.py --misses 20  # plus missed cells, dev half

The corpus is WikiTableQuestions' tables with rowspan/colspan (`csv/<batch>-csv/<id>.html`, the
gold grid in `<id>.tsv`: first row the header, header levels joined by a newline, every spanned
cell copied into each position it covers). Each table is compiled alone, as a page of its own,
and its tables/*.cells files are read back. A gold body cell is answered when one line of
those files has

- value: the gold cell's text,
- row_label: the row's name among its parts (split at ` > ` and ` · `). The row's name is the
  gold row's first cell, or its second when the first column only ranks or numbers the rows;
- col_label: the gold column header, its levels joined with ` > ` (a repeated level once), or
  as one label (the gold's newline is also a `<br>` inside one header cell: `Original<br>Tribe`).
  A column the gold leaves without a header asks nothing of col_label.

Text is compared with whitespace collapsed. The gold keeps footnote marks in the text
(`Julius Peppers†`, `Opponent#`), where we keep them apart: a gold text also matches without
its trailing marks. Empty gold cells ask nothing. The tables are split
in two halves by a hash of their name: rules are tuned on the dev half, the held-out half
checks they carry over.
"""

from __future__ import annotations

import argparse
import hashlib
import os
import re
import sys
from dataclasses import dataclass, field
from pathlib import Path

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page

ROOT = Path(__file__).resolve().parents[2]
CORPORA = Path(os.environ.get("WEBSHELL_CORPORA") or ROOT.parent / "shared/corpora")
DEFAULT_CORPUS = CORPORA / "wtq-span-tables-dev"
PAGE_URL = "https://en.wikipedia.org/wiki/Table_{batch}_{id}"
TARGET = 0.95
LABEL_PARTS = re.compile(r" > | · ")
# A rank or index: 1, 2., =3, T4, 5th, #6, (7).
RANK = re.compile(r"^[=T#(]?\d{1,4}(?:\.|st|nd|rd|th|\))?=?$", re.IGNORECASE)
# Footnote marks at the end of a gold text: `[8]`, `[a]`, `*`, `†`, `#`.
TRAILING_MARKS = re.compile(r"\s*(?:\[[^\[\]]{1,40}\]|[*†‡§¶#]+)+$")
# WikiTableQuestions' TSV escapes.
_ESCAPES = {"n": "\n", "p": "|", "\\": "\\"}
_ESCAPE = re.compile(r"\\(.)")


def squash(text: str) -> str:
    return " ".join(text.split())


def unescape(field_text: str) -> str:
    return _ESCAPE.sub(lambda m: _ESCAPES.get(m.group(1), m.group(0)), field_text)


def read_gold(path: Path) -> tuple[list[str], list[list[str]]]:
    rows = [
        [unescape(f) for f in line.split("\t")]
        for line in path.read_text(encoding="utf-8").splitlines()
    ]
    return rows[0], rows[1:]


def spellings(text: str) -> set[str]:
    """A gold text as it may stand in our line: whole, or without its trailing footnote marks."""
    text = squash(text)
    return {text, TRAILING_MARKS.sub("", text)} - {""} or {""}


def header_label(header: str) -> str:
    """`Chart-Positions\\nUK` → `Chart-Positions > UK`; a level repeated below itself once."""
    levels: list[str] = []
    for level in (squash(part) for part in header.split("\n")):
        if level and (not levels or levels[-1] != level):
            levels.append(level)
    return " > ".join(levels)


def name_column(body: list[list[str]]) -> int:
    """The column that names the rows: the first, or the second when the first only ranks or
    numbers them (small numbers, at most about twice the row count: not years)."""
    firsts = [squash(row[0]) for row in body if row and squash(row[0])]
    if not firsts or not all(RANK.match(value) for value in firsts):
        return 0
    largest = max(int(re.sub(r"\D", "", value)) for value in firsts)
    return 1 if largest <= 2 * len(body) + 10 and all(len(row) > 1 for row in body) else 0


@dataclass(frozen=True)
class Line:
    row_parts: frozenset[str]
    col_label: str
    value: str


@dataclass
class Score:
    asked: int = 0
    answered: int = 0
    tables: int = 0
    tables_whole: int = 0
    misses: list[str] = field(default_factory=list)

    def add(self, other: Score) -> None:
        self.asked += other.asked
        self.answered += other.answered
        self.tables += other.tables
        self.tables_whole += other.tables_whole
        self.misses += other.misses

    @property
    def share(self) -> float:
        return self.answered / self.asked if self.asked else 0.0


def compiled_lines(html: bytes, url: str) -> dict[str, list[Line]]:
    """The page's cell lines, by value."""
    files = render_page(compile_page(html, url))
    by_value: dict[str, list[Line]] = {}
    for path, data in files.items():
        if not (path.startswith("tables/") and path.endswith(".cells")):
            continue
        for text in data.decode("utf-8", "replace").splitlines()[1:]:
            fields = text.split("\t")
            if len(fields) < 5:
                continue
            row_label, col_label, value = (squash(f) for f in fields[2:5])
            parts = frozenset([row_label, *LABEL_PARTS.split(row_label)])
            by_value.setdefault(value, []).append(Line(parts, col_label, value))
    return by_value


def score_table(html_path: Path, batch: str, table_id: str) -> Score:
    header, body = read_gold(html_path.with_suffix(".tsv"))
    lines = compiled_lines(html_path.read_bytes(), PAGE_URL.format(batch=batch, id=table_id))
    names = name_column(body)
    columns = [spellings(header_label(h)) | spellings(h) for h in header]
    score = Score(tables=1)
    for row in body:
        row_names = spellings(row[names]) if names < len(row) else {""}
        for c, raw in enumerate(row):
            value = squash(raw)
            if not value:
                continue
            score.asked += 1
            col_labels = columns[c] if c < len(columns) else {""}
            candidates = [line for v in spellings(raw) for line in lines.get(v, ())]
            if any(
                ("" in row_names or not row_names.isdisjoint(line.row_parts))
                and ("" in col_labels or line.col_label in col_labels)
                for line in candidates
            ):
                score.answered += 1
            else:
                score.misses.append(
                    f"{batch}/{table_id} value={value!r} row={min(row_names)!r} col={min(col_labels)!r}"
                )
    score.tables_whole = int(score.answered == score.asked)
    return score


def is_dev(name: str) -> bool:
    return hashlib.sha1(name.encode()).digest()[0] % 2 == 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", type=Path, default=DEFAULT_CORPUS)
    parser.add_argument("--misses", type=int, default=0, help="print this many dev-half misses")
    args = parser.parse_args()
    index = args.corpus / "span_tables.tsv"
    if not index.exists():
        print(f"no corpus at {args.corpus}", file=sys.stderr)
        return 2
    halves = {"dev": Score(), "held-out": Score()}
    for line in index.read_text().splitlines()[1:]:
        batch, table_id = line.split("\t")[:2]
        html_path = args.corpus / "csv" / f"{batch}-csv" / f"{table_id}.html"
        halves["dev" if is_dev(f"{batch}/{table_id}") else "held-out"].add(
            score_table(html_path, batch, table_id)
        )
    print("| half | tables | gold body cells | answered by one line | share | tables whole |")
    print("|---|---|---|---|---|---|")
    for name, score in halves.items():
        print(
            f"| {name} | {score.tables} | {score.asked} | {score.answered} | "
            f"**{score.share:.4f}** | {score.tables_whole} |"
        )
    print(f"target ≥ {TARGET}")
    for miss in halves["dev"].misses[: args.misses]:
        print(miss)
    return 0


if __name__ == "__main__":
    sys.exit(main())

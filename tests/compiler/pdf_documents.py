"""Real PDFs made on the spot with pypdf, for the PDF compiler's tests: text placed at chosen
positions in Helvetica (bold or not) at chosen sizes, ruled lines, link annotations and an
outline. Nothing copied from anywhere: every word is written here.

`python -m tests.compiler.pdf_documents DIR` writes them as files: fixtures/site/survey.pdf and
fixtures/site/field-report.pdf, which tests/fs/test_pdf.py opens through a mount, are
`survey()` and `outlined_report()` written this way.
"""

from __future__ import annotations

import io
import sys
from dataclasses import dataclass, field
from pathlib import Path

from pdfminer.fontmetrics import FONT_METRICS
from pypdf import PdfWriter
from pypdf.annotations import Link
from pypdf.generic import DecodedStreamObject, DictionaryObject, NameObject

PAGE_WIDTH, PAGE_HEIGHT = 612, 792
LEFT, TOP = 72, 720
FONTS = {"/F1": "/Helvetica", "/F2": "/Helvetica-Bold"}
# Glyph widths of the standard fonts (thousandths of the size), to place link rectangles.
WIDTHS = FONT_METRICS["Helvetica"][1]


@dataclass(frozen=True)
class Run:
    """One line of text at (x, y) from the page's bottom left."""

    text: str
    x: float
    y: float
    size: float = 11
    bold: bool = False


@dataclass
class Sheet:
    """One page being written: runs of text, links over parts of them, horizontal rules."""

    runs: list[Run] = field(default_factory=list)
    links: list[tuple[tuple[float, float, float, float], str]] = field(default_factory=list)
    rules: list[tuple[float, float, float]] = field(default_factory=list)
    cursor: float = TOP

    def line(self, text: str, size: float = 11, bold: bool = False, x: float = LEFT) -> Run:
        """A line at the cursor, which moves down by 1.4 times the size."""
        run = Run(text, x, self.cursor, size, bold)
        self.runs.append(run)
        self.cursor -= size * 1.4
        return run

    def gap(self, points: float = 8) -> None:
        self.cursor -= points

    def link(self, run: Run, words: str, url: str) -> None:
        """A URI annotation over `words` inside run (located by their offset in its text)."""
        before = run.text[: run.text.index(words)]
        start = run.x + _width(before, run.size)
        end = start + _width(words, run.size)
        self.links.append(((start - 1, run.y - 2, end + 1, run.y + run.size), url))

    def row(self, cells: list[str], columns: list[float], size: float = 10,
            bold: bool = False) -> None:
        """A table row: each cell at its column's x, on one baseline."""
        for text, x in zip(cells, columns):
            if text:
                self.runs.append(Run(text, x, self.cursor, size, bold))
        self.cursor -= size * 1.6

    def rule(self, x0: float, x1: float) -> None:
        self.rules.append((x0, x1, self.cursor + 9))


def _width(text: str, size: float) -> float:
    return sum(WIDTHS.get(char, 500) for char in text) * size / 1000


def _escaped(text: str) -> str:
    return text.replace("\\", "\\\\").replace("(", "\\(").replace(")", "\\)")


def _content(sheet: Sheet) -> bytes:
    parts = [f"{x0} {y} m {x1} {y} l S" for x0, x1, y in sheet.rules]
    for run in sheet.runs:
        font = "/F2" if run.bold else "/F1"
        parts.append(
            f"BT {font} {run.size} Tf {run.x} {run.y} Td ({_escaped(run.text)}) Tj ET"
        )
    return "\n".join(parts).encode("latin-1")


def write_pdf(
    sheets: list[Sheet],
    metadata: dict[str, str] | None = None,
    outline: list[tuple[str, int, list[tuple[str, int]]]] | None = None,
) -> bytes:
    """The PDF of the sheets; outline: (title, page index, [(child title, page index)…])."""
    writer = PdfWriter()
    fonts = DictionaryObject()
    for name, base in FONTS.items():
        fonts[NameObject(name)] = writer._add_object(  # pypdf has no call for a bare font
            DictionaryObject(
                {
                    NameObject("/Type"): NameObject("/Font"),
                    NameObject("/Subtype"): NameObject("/Type1"),
                    NameObject("/BaseFont"): NameObject(base),
                }
            )
        )
    for index, sheet in enumerate(sheets):
        page = writer.add_blank_page(PAGE_WIDTH, PAGE_HEIGHT)
        page[NameObject("/Resources")] = DictionaryObject({NameObject("/Font"): fonts})
        stream = DecodedStreamObject()
        stream.set_data(_content(sheet))
        page[NameObject("/Contents")] = writer._add_object(stream)
        for rect, url in sheet.links:
            writer.add_annotation(index, Link(rect=rect, url=url))
    for title, page_index, children in outline or []:
        parent = writer.add_outline_item(title=title, page_number=page_index)
        for child, child_page in children:
            writer.add_outline_item(title=child, page_number=child_page, parent=parent)
    if metadata:
        writer.add_metadata(metadata)
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _prose(sheet: Sheet, topic: str, lines: int = 3) -> None:
    for n in range(1, lines + 1):
        sheet.line(f"Line {n} about {topic}, written for the tests.", size=10)


def outlined_report() -> bytes:
    """Seven pages whose outline (Introduction p1, Methods p2 > Sampling p3, Results p4–6,
    Discussion p7) is the only structure: every line is the same 10 pt font, and the headings
    on the pages are plain lines that repeat the outline's titles."""
    sheets = [Sheet() for _ in range(7)]
    titles = {0: "Introduction", 1: "Methods", 2: "Sampling", 3: "Results", 6: "Discussion"}
    for index, sheet in enumerate(sheets):
        if index in titles:
            sheet.line(titles[index], size=10)
        _prose(sheet, f"page {index + 1}")
    sheets[5].line("Soil moisture peaked in week 9.", size=10)
    return write_pdf(
        sheets,
        {"/Title": "Field report", "/Author": "B. Surveyor", "/Subject": "Soil survey"},
        [("Introduction", 0, []), ("Methods", 1, [("Sampling", 2)]), ("Results", 3, []),
         ("Discussion", 6, [])],
    )


def headed_notes() -> bytes:
    """Three pages without an outline: an 18 pt bold title, 14 pt bold headings, 11 pt bold
    subheadings and 10 pt body text."""
    first, second, third = Sheet(), Sheet(), Sheet()
    first.line("Pond Notes", size=18, bold=True)
    first.gap()
    first.line("Water", size=14, bold=True)
    _prose(first, "water")
    first.line("Clarity", size=11, bold=True)
    _prose(first, "clarity", 2)
    second.line("Plants", size=14, bold=True)
    _prose(second, "plants", 4)
    third.line("More about plants on the third page.", size=10)
    third.line("Animals", size=14, bold=True)
    _prose(third, "animals", 2)
    return write_pdf([first, second, third], {"/Title": "Pond Notes"})


TABLE_COLUMNS = [72, 200, 320]


def survey() -> bytes:
    """One page: a heading, a paragraph with a link annotation over two words, a table of a
    header row and three rows (column starts at 72, 200 and 320 pt), a closing line."""
    sheet = Sheet()
    sheet.line("Meadow Survey", size=16, bold=True)
    sheet.gap()
    linked = sheet.line("The counts come from the survey site, updated weekly.", size=10)
    sheet.link(linked, "survey site", "https://example.org/meadow/counts")
    sheet.gap()
    sheet.row(["Species", "Count", "Habitat"], TABLE_COLUMNS, bold=True)
    sheet.rule(72, 420)
    sheet.row(["Clover", "42", "wet meadow"], TABLE_COLUMNS)
    sheet.row(["Yarrow", "17", "dry bank"], TABLE_COLUMNS)
    sheet.row(["Sorrel", "8", "wet meadow"], TABLE_COLUMNS)
    sheet.gap()
    sheet.line("Counts were taken in June.", size=10)
    return write_pdf([sheet], {"/Title": "Meadow Survey", "/Author": "C. Counter"})


DOCUMENTS = {"field-report": outlined_report, "headed-notes": headed_notes, "survey": survey}


if __name__ == "__main__":
    out = Path(sys.argv[1] if len(sys.argv) > 1 else ".")
    for name, make in DOCUMENTS.items():
        (out / f"{name}.pdf").write_bytes(make())

"""PDFs compiled into sections by outline or by headings, with links, tables and facts; checked
through the files render_page makes, on real PDFs written by tests/compiler/pdf_documents.py."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest
from pypdf import PdfReader, PdfWriter
from pypdf.generic import (
    ArrayObject,
    DecodedStreamObject,
    DictionaryObject,
    NameObject,
    NumberObject,
)

from tests.compiler.pdf_documents import (
    Run,
    Sheet,
    headed_notes,
    outlined_report,
    survey,
    write_pdf,
)
from webshellfs.compiler import pdf
from webshellfs.compiler.nonhtml import compile_nonhtml
from webshellfs.contract.layout import render_page


def files(data: bytes, name: str = "doc.pdf") -> dict[str, list[str]]:
    page = compile_nonhtml(data, f"https://e.test/docs/{name}", "application/pdf")
    assert page is not None
    return {
        path: body.decode("utf-8").splitlines() for path, body in render_page(page, "N0003").items()
    }


def pdf_content(data: bytes) -> bytes:
    """The first page's content stream, decoded."""
    return PdfReader(io.BytesIO(data)).pages[0].get_contents().get_data()


def contents(tree: dict[str, list[str]]) -> dict[str, list[str]]:
    return {path: lines for path, lines in tree.items() if path.startswith("content/")}


def map_part(tree: dict[str, list[str]], heading: str) -> list[str]:
    lines = tree["_map.md"]
    start = lines.index(heading) + 1
    end = next((i for i in range(start, len(lines)) if not lines[i]), len(lines))
    return lines[start:end]


def test_the_outline_makes_the_sections_and_each_says_its_pages() -> None:
    tree = files(outlined_report(), "report.pdf")

    assert map_part(tree, "## content/ (5 sections)") == [
        "01-introduction.md  5 lines",
        "02-methods.md  5 lines",
        "  03-sampling.md  5 lines",
        "04-results.md  14 lines",
        "05-discussion.md  5 lines",
    ]
    # The page's own heading line, repeating the outline's title, is the heading, not text.
    assert tree["content/02-methods.md"][:3] == [
        "# Methods",
        "page 2",
        "Line 1 about page 2, written for the tests.",
    ]
    assert tree["content/03-sampling.md"][:2] == ["# Methods > Sampling", "page 3"]
    results = tree["content/04-results.md"]
    assert results[:2] == ["# Results", "pages 4–6"]
    assert results.index("[page 5]") == 5 and results.index("[page 6]") == 9
    assert results[-1] == "Soil moisture peaked in week 9."
    assert tree["_map.md"][0] == "# Field report"
    assert tree["facts.kv"] == [
        "pdf:pages = 7",
        "pdf:title = Field report",
        "pdf:author = B. Surveyor",
        "pdf:subject = Soil survey",
        "pdf:producer = pypdf",
    ]


def test_without_an_outline_bigger_and_bold_lines_are_headings_by_size() -> None:
    tree = files(headed_notes(), "notes.pdf")

    assert map_part(tree, "## content/ (5 sections)") == [
        "01-pond-notes.md  2 lines",
        "  02-water.md  5 lines",
        "    03-clarity.md  4 lines",
        "  04-plants.md  8 lines",
        "  05-animals.md  4 lines",
    ]
    assert tree["content/03-clarity.md"] == [
        "# Pond Notes > Water > Clarity",
        "page 1",
        "Line 1 about clarity, written for the tests.",
        "Line 2 about clarity, written for the tests.",
    ]
    # A section running onto the next page says so, and marks where that page begins.
    assert tree["content/04-plants.md"][:2] == ["# Pond Notes > Plants", "pages 2–3"]
    assert tree["content/04-plants.md"][-2:] == [
        "[page 3]",
        "More about plants on the third page.",
    ]
    assert tree["content/05-animals.md"][:2] == ["# Pond Notes > Animals", "page 3"]


def test_an_untitled_pdf_is_named_by_its_biggest_heading_on_the_first_page() -> None:
    first = Sheet()
    first.line("Winter Count", size=20, bold=True)
    first.line("Seven swans on the lake.", size=10)
    first.line("Two herons by the reeds.", size=10)
    tree = files(write_pdf([first]), "count.pdf")

    assert tree["_map.md"][0] == "# Winter Count"
    assert tree["content/01-winter-count.md"][:3] == [
        "# Winter Count", "page 1", "Seven swans on the lake.",
    ]


def test_a_link_annotation_is_a_link_with_the_words_under_it() -> None:
    tree = files(survey(), "survey.pdf")

    assert tree["content/01-meadow-survey.md"] == [
        "# Meadow Survey",
        "page 1",
        "The counts come from the survey site [L0001], updated weekly.",
        "[T01 4×3 → tables/T01.cells]",
        "Counts were taken in June.",
    ]
    assert tree["links.tsv"] == [
        "id\turl\ttext\tsection",
        "L0001\thttps://example.org/meadow/counts\tsurvey site\tcontent/01-meadow-survey.md",
    ]


def test_aligned_rows_are_a_table_labelled_by_its_first_row_and_column() -> None:
    tree = files(survey(), "survey.pdf")

    assert tree["tables/T01.tsv"] == [
        "Species\tCount\tHabitat",
        "Clover\t42\twet meadow",
        "Yarrow\t17\tdry bank",
        "Sorrel\t8\twet meadow",
    ]
    # One grep answers "<column> of <row>": the value with both labels on one line.
    assert "r3c2\t3\tYarrow\tCount\t17\t" in tree["tables/T01.cells"]
    assert tree["tables/T01.cells"][:4] == [
        "cell\trow\trow_label\tcol_label\tvalue\trefs",
        "r2c1\t2\tClover\tSpecies\tClover\t",
        "r2c2\t2\tClover\tCount\t42\t",
        "r2c3\t2\tClover\tHabitat\twet meadow\t",
    ]
    assert map_part(tree, "## tables/ (1)") == ["T01  4×3  in content/01-meadow-survey.md"]
    assert tree["facts.kv"][:3] == [
        "pdf:pages = 1",
        "pdf:title = Meadow Survey",
        "pdf:author = C. Counter",
    ]


def test_two_columns_of_prose_are_not_a_table() -> None:
    sheet = Sheet()
    for n in range(6):
        sheet.row(
            [f"Left column line {n} runs on with its words until", f"right column line {n} "
             "runs on with its words too"],
            [72, 320],
        )
    tree = files(write_pdf([sheet]))

    assert tree["_map.md"].count("## tables/ (1)") == 0
    assert not any(path.startswith("tables/") for path in tree)


def test_a_link_in_a_table_cell_is_in_the_cells_refs() -> None:
    sheet = Sheet()
    sheet.line("Sources", size=16, bold=True)
    sheet.row(["Name", "Where"], [72, 250], bold=True)
    run_y = sheet.cursor
    sheet.row(["Clover", "field notes"], [72, 250])
    sheet.row(["Yarrow", "archive"], [72, 250])
    sheet.links.append(((249, run_y - 2, 305, run_y + 10), "https://example.org/notes"))
    tree = files(write_pdf([sheet]))

    assert "r2c2\t2\tClover\tWhere\tfield notes\tL0001" in tree["tables/T01.cells"]
    assert tree["links.tsv"][1].split("\t") == [
        "L0001", "https://example.org/notes", "field notes", "content/01-sources.md",
    ]


def test_a_link_over_no_text_is_still_listed_on_its_page() -> None:
    sheet = Sheet()
    sheet.line("Only words here.", size=10)
    sheet.links.append(((300, 100, 400, 150), "https://example.org/blank"))
    tree = files(write_pdf([sheet]))

    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        "page 1",
        "Only words here.",
        "[L0001]",
    ]
    assert tree["links.tsv"][1] == "L0001\thttps://example.org/blank\t\tcontent/00-intro.md"


def notes(tree: dict[str, list[str]]) -> list[str]:
    lines = tree["_map.md"]
    return lines[lines.index("## notes") + 1 :] if "## notes" in lines else []


@pytest.mark.parametrize(
    ("damage", "note", "readable"),
    [
        pytest.param(
            lambda data: data[: len(data) * 9 // 10],
            "- could not read the PDF: PdfStreamError: Stream has ended unexpectedly",
            False,
            id="cut short",
        ),
        pytest.param(
            lambda data: data.replace(b"/Length", b"/Filter /FlateDecode /Length", 1),
            "- no extractable text on page 1 (scanned images?)",
            False,
            id="page content that does not decode",
        ),
        pytest.param(
            lambda data: data.replace(b"/Rect [", b"/Rect [ (x) "), None, True, id="bad link"
        ),
        pytest.param(
            lambda data: data.replace(b"/Kids [", b"/Kids [ 77 0 R ", 1),
            None,
            True,
            id="a page that is not there",
        ),
    ],
)
def test_a_damaged_pdf_compiles_to_what_can_be_read_and_says_what_cannot(
    damage: Callable[[bytes], bytes], note: str | None, readable: bool
) -> None:
    tree = files(damage(survey()), "survey.pdf")

    assert tree["_map.md"][1] == "url: https://e.test/docs/survey.pdf"
    text = [line for lines in contents(tree).values() for line in lines]
    assert ("Counts were taken in June." in text) is readable
    assert notes(tree) == ([note] if note else [])


def test_an_outline_entry_pointing_nowhere_starts_no_section() -> None:
    data = re.sub(rb"/D \[ \d+ 0 R", b"/D [ 999 0 R", outlined_report())
    tree = files(data)

    # No entry has a page: the text stays, as one section of the whole document.
    assert list(contents(tree)) == ["content/00-intro.md"]
    assert contents(tree)["content/00-intro.md"][1] == "pages 1–7"


def test_pages_past_the_layout_budget_are_plain_text(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "LAYOUT_SECONDS", 0.0)
    tree = files(headed_notes())

    assert "- pages 2–3 read as plain text: laying out the first 1 took the 0 s allowed" in (
        tree["_map.md"]
    )
    # Page 1's headings are kept; plain text has no sizes, so its lines are text.
    assert "content/02-water.md" in tree
    assert "Plants" in tree["content/03-clarity.md"]


def test_pages_past_the_cap_are_left_out_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "MAX_PDF_PAGES", 2)
    tree = files(outlined_report())

    assert "- kept the first 2 of 7 PDF pages" in tree["_map.md"]
    assert tree["facts.kv"][0] == "pdf:pages = 7"
    assert list(contents(tree)) == ["content/01-introduction.md", "content/02-methods.md"]


def test_a_table_without_a_header_row_has_numbered_columns_and_says_so() -> None:
    sheet = Sheet()
    sheet.line("Codes", size=16, bold=True)
    for size, kind, name in (("2", "CARD16", "MAJOR_VERSION"), ("4", "CARD32", "ALIAS_OFFSET"),
                             ("4", "CARD32", "GLOB_OFFSET")):
        sheet.row([size, kind, name], [72, 100, 160])
    tree = files(write_pdf([sheet]))

    assert tree["tables/T01.tsv"] == [
        "column 1\tcolumn 2\tcolumn 3",
        "2\tCARD16\tMAJOR_VERSION",
        "4\tCARD32\tALIAS_OFFSET",
        "4\tCARD32\tGLOB_OFFSET",
    ]
    assert "r3c3\t3\t4\tcolumn 3\tALIAS_OFFSET\t" in tree["tables/T01.cells"]
    assert notes(tree) == ["- no header row in T01: col_label is `column N`"]


def test_words_over_a_column_of_numbers_are_a_header() -> None:
    sheet = Sheet()
    sheet.row(["Pond", "Depth"], [72, 200])
    sheet.row(["North", "2.5"], [72, 200])
    sheet.row(["South", "1.25"], [72, 200])
    sheet.row(["East", "3"], [72, 200])
    tree = files(write_pdf([sheet]))

    assert "r3c2\t3\tSouth\tDepth\t1.25\t" in tree["tables/T01.cells"]
    assert notes(tree) == []


def test_running_headers_go_to_boilerplate_and_page_numbers_go() -> None:
    """Two rows of furniture a page: a running header with a number at its right, a footer."""
    sheets = []
    for number in range(1, 4):
        sheet = Sheet()
        sheet.runs.append(Run("Pond survey, spring 2026", 72, 760, 9))
        sheet.runs.append(Run(str(number + 10), 530, 760, 9))  # the printed page number
        sheet.runs.append(Run(f"Page {number} of 3", 500, 40, 9))
        sheet.line(f"Findings of week {number} at the pond.", size=10)
        sheet.line("Water stayed clear all week.", size=10)
        sheets.append(sheet)
    tree = files(write_pdf(sheets))

    assert tree["boilerplate/header.md"] == ["# (header)", "Pond survey, spring 2026"]
    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        "pages 1–3",
        "Findings of week 1 at the pond.",
        "Water stayed clear all week.",
        "[page 2]",
        "Findings of week 2 at the pond.",
        "Water stayed clear all week.",
        "[page 3]",
        "Findings of week 3 at the pond.",
        "Water stayed clear all week.",
    ]


def test_an_outline_title_is_found_after_its_section_number() -> None:
    first, second = Sheet(), Sheet()
    first.line("1 Ponds", size=10)
    first.line("Ponds hold still water.", size=10)
    first.line("1.1 Depth", size=10)
    first.line("Most are shallow.", size=10)
    second.line("Chapter 2: Streams", size=10)
    second.line("Streams move.", size=10)
    outline = [("Ponds", 0, [("Depth", 0)]), ("Streams", 1, [])]
    tree = files(write_pdf([first, second], outline=outline))

    assert contents(tree) == {
        "content/01-ponds.md": ["# Ponds", "page 1", "Ponds hold still water."],
        "content/02-depth.md": ["# Ponds > Depth", "page 1", "Most are shallow."],
        "content/03-streams.md": ["# Streams", "page 2", "Streams move."],
    }


def test_an_outline_that_loops_back_ends() -> None:
    report = outlined_report()
    first = re.search(rb"(\d+) 0 obj\s*<<[^>]*?/Title \(Introduction\)", report)
    assert first is not None
    looped = report.replace(b"/Title (Discussion)",
                            b"/Title (Discussion) /Next " + first.group(1) + b" 0 R")
    tree = files(looped)

    assert list(contents(tree))[-1] == "content/05-discussion.md"


def test_links_past_the_cap_are_left_out_and_said(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(pdf, "MAX_LINKS", 3)
    sheet = Sheet()
    sheet.line("Five links over one line of text.", size=10)
    for n in range(5):
        sheet.links.append(((72, 715, 120, 730), f"https://example.org/{n}"))
    tree = files(write_pdf([sheet]))

    assert len(tree["links.tsv"]) == 1 + 3
    assert notes(tree) == ["- kept the first 3 links of the PDF"]


def test_a_pdf_locked_with_a_password_says_so() -> None:
    writer = PdfWriter(clone_from=io.BytesIO(survey()))
    writer.encrypt("secret", algorithm="RC4-128")
    locked = io.BytesIO()
    writer.write(locked)
    tree = files(locked.getvalue(), "survey.pdf")

    assert notes(tree) == ["- the PDF is encrypted with a password: its text cannot be read"]
    assert contents(tree) == {}


def test_a_pdf_encrypted_without_a_password_reads_as_usual() -> None:
    writer = PdfWriter(clone_from=io.BytesIO(survey()))
    writer.encrypt("", owner_password="owner", algorithm="RC4-128")
    opened = io.BytesIO()
    writer.write(opened)
    tree = files(opened.getvalue(), "survey.pdf")

    assert "Counts were taken in June." in tree["content/01-meadow-survey.md"]
    assert "r3c2\t3\tYarrow\tCount\t17\t" in tree["tables/T01.cells"]


def test_a_relative_link_is_made_absolute_against_the_pdfs_url() -> None:
    sheet = Sheet()
    run = sheet.line("See the appendix for the counts.", size=10)
    sheet.link(run, "the appendix", "appendix.html")
    tree = files(write_pdf([sheet]), "report.pdf")

    assert tree["links.tsv"][1].split("\t")[:3] == [
        "L0001", "https://e.test/docs/appendix.html", "the appendix",
    ]


def test_a_table_of_contents_in_heading_type_starts_no_sections() -> None:
    sheet = Sheet()
    sheet.line("Contents", size=14, bold=True)
    sheet.line("Ponds . . . . . . . . . . 2", size=11, bold=True)
    sheet.line("Streams . . . . . . . . . 3", size=11, bold=True)
    sheet.line("Ponds", size=11, bold=True)
    sheet.line("Ponds hold still water, and this line is body text.", size=10)
    sheet.line("So is this one, a little longer than the headings are.", size=10)
    tree = files(write_pdf([sheet]))

    assert list(contents(tree)) == ["content/01-contents.md", "content/02-ponds.md"]
    assert tree["content/01-contents.md"][2:] == [
        "Ponds . . . . . . . . . . 2", "Streams . . . . . . . . . 3",
    ]


def test_a_page_of_too_much_content_is_read_as_plain_text(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setattr(pdf, "MAX_LAYOUT_BYTES", 100)
    tree = files(survey())

    assert [n for n in notes(tree) if "content" in n] == [
        f"- page 1: {len(pdf_content(survey())):,} bytes of content (over 100), read as plain text"
    ]
    # Plain text: no sizes, so no headings; the words are all there.
    assert "Counts were taken in June." in tree["content/00-intro.md"]


def test_text_drawn_inside_a_form_xobject_is_laid_out_too() -> None:
    sheet = Sheet()
    sheet.line("Boxed Notes", size=16, bold=True)
    sheet.line("Text that a writer put in a form object.", size=10)
    plain = PdfReader(io.BytesIO(write_pdf([sheet])))
    writer = PdfWriter(clone_from=plain)
    page = writer.pages[0]
    form = DecodedStreamObject()
    form.set_data(page.get_contents().get_data())
    form.update({
        NameObject("/Type"): NameObject("/XObject"),
        NameObject("/Subtype"): NameObject("/Form"),
        NameObject("/BBox"): ArrayObject([NumberObject(0), NumberObject(0),
                                          NumberObject(612), NumberObject(792)]),
        NameObject("/Resources"): page["/Resources"],
    })
    resources = DictionaryObject(page["/Resources"])
    resources[NameObject("/XObject")] = DictionaryObject(
        {NameObject("/Fm1"): writer._add_object(form)}  # pypdf has no call for a bare object
    )
    page[NameObject("/Resources")] = resources
    drawing = DecodedStreamObject()
    drawing.set_data(b"q /Fm1 Do Q")
    page[NameObject("/Contents")] = writer._add_object(drawing)
    out = io.BytesIO()
    writer.write(out)
    tree = files(out.getvalue())

    assert tree["content/01-boxed-notes.md"] == [
        "# Boxed Notes", "page 1", "Text that a writer put in a form object.",
    ]

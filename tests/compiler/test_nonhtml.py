"""Non-HTML documents compiled into page records, checked through the files render_page makes."""

from __future__ import annotations

import json
import struct

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.search.pdfs import make_pdf
from webshellfs.compiler.nonhtml import compile_nonhtml, document_kind, supported_type
from webshellfs.contract.layout import render_page


def files(data: bytes, url: str, content_type: str) -> dict[str, list[str]]:
    page = compile_nonhtml(data, url, content_type)
    assert page is not None
    return {
        path: body.decode("utf-8").splitlines() for path, body in render_page(page, "N0002").items()
    }


def map_notes(tree: dict[str, list[str]]) -> list[str]:
    lines = tree["_map.md"]
    return lines[lines.index("## notes") + 1 :] if "## notes" in lines else []


# --- PDF ---------------------------------------------------------------------------------------

PDF = make_pdf(
    ["Soil holds water.\nClay holds more.", "", "Roots need (air)."],
    {"/Title": "Garden paper", "/Author": "A. Gardener"},
)


def test_a_pdf_without_outline_or_headings_is_one_section_that_marks_its_pages() -> None:
    tree = files(PDF, "https://e.test/docs/paper.pdf", "application/pdf")
    assert tree["_map.md"] == [
        "# Garden paper",
        "url: https://e.test/docs/paper.pdf",
        "page: N0002",
        "",
        "## content/ (1 sections)",
        "00-intro.md  6 lines",
        "",
        "## records",
        "links.tsv 0 · images.tsv 0 · actions.tsv 0 (0 forms) · facts.kv 4 · resources.tsv 0 · long-values/ 0",
        "",
        "## notes",
        "- no extractable text on page 2 (scanned images?)",
    ]
    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        "pages 1–3",
        "Soil holds water.",
        "Clay holds more.",
        "[page 3]",
        "Roots need (air).",
    ]
    assert tree["facts.kv"] == [
        "pdf:pages = 3",
        "pdf:title = Garden paper",
        "pdf:author = A. Gardener",
        "pdf:producer = pypdf",
    ]


def test_pdf_sent_as_octet_stream_is_recognised_by_its_bytes() -> None:
    tree = files(PDF, "https://e.test/download?id=7", "application/octet-stream")
    assert tree["_map.md"][0] == "# Garden paper"


@pytest.mark.parametrize(
    ("data", "note"),
    [
        (
            b"%PDF-1.4 then nothing",
            "- could not read the PDF: PdfStreamError: Stream has ended unexpectedly",
        ),
        (b"", "- could not read the PDF: EmptyFileError: Cannot read an empty file"),
        (PDF[: len(PDF) // 2], None),
    ],
)
def test_a_broken_pdf_is_a_page_that_says_why(data: bytes, note: str | None) -> None:
    tree = files(data, "https://e.test/docs/broken.pdf", "application/pdf")
    assert tree["_map.md"][:3] == [
        "# broken.pdf",
        "url: https://e.test/docs/broken.pdf",
        "page: N0002",
    ]
    notes = map_notes(tree)
    if note is not None:
        assert notes == [note]
    else:
        assert notes and notes[0].startswith("- could not read the PDF: ")


# --- JSON --------------------------------------------------------------------------------------

SHOP = {
    "name": "Seed shop",
    "open": True,
    "rating": 4.5,
    "tags": ["seeds", "soil"],
    "owner": {"name": "Ada", "email": None},
    "items": [
        {"sku": "S1", "name": "Clover", "price": 3},
        {"sku": "S2", "name": "Thyme", "sizes": ["s", "m"]},
    ],
    "empty": [],
}


def test_json_becomes_facts_and_record_tables() -> None:
    tree = files(
        json.dumps(SHOP).encode(), "https://e.test/api/shop.json", "application/json; charset=utf-8"
    )
    assert tree["facts.kv"] == [
        "name = Seed shop",
        "open = true",
        "rating = 4.5",
        "tags[0] = seeds",
        "tags[1] = soil",
        "owner.name = Ada",
        "owner.email = null",
        'items = [T01 3×4 "items" → tables/T01.cells]',
        "empty = []",
    ]
    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        "JSON document: an object with 7 keys",
        'items: [T01 3×4 "items" → tables/T01.cells]',
    ]
    assert tree["tables/T01.tsv"] == [
        "sku\tname\tprice\tsizes",
        "S1\tClover\t3\t",
        'S2\tThyme\t\t["s","m"]',
    ]
    assert tree["tables/T01.cells"] == [
        "cell\trow\trow_label\tcol_label\tvalue\trefs",
        "r2c1\t2\tS1\tsku\tS1\t",
        "r2c2\t2\tS1\tname\tClover\t",
        "r2c3\t2\tS1\tprice\t3\t",
        "r3c1\t3\tS2\tsku\tS2\t",
        "r3c2\t3\tS2\tname\tThyme\t",
        'r3c4\t3\tS2\tsizes\t["s","m"]\t',
    ]
    assert tree["_map.md"][0] == "# shop.json"


def test_json_list_of_records_at_the_root() -> None:
    tree = files(
        b'[{"a": 1}, {"a": 2, "b": "x"}]', "https://e.test/rows", "application/vnd.api+json"
    )
    assert tree["facts.kv"] == ["$ = [T01 3×2 → tables/T01.cells]"]
    assert tree["tables/T01.tsv"] == ["a\tb", "1\t", "2\tx"]


def test_json_scalar_document() -> None:
    assert files(b'"just text"', "https://e.test/x.json", "application/json")["facts.kv"] == [
        "$ = just text"
    ]


def test_invalid_json_is_kept_as_text() -> None:
    tree = files(b'{"a": 1,\n broken', "https://e.test/bad.json", "application/json")
    assert tree["content/00-intro.md"] == ["# (before the first heading)", '{"a": 1,', " broken"]
    assert map_notes(tree) == [
        "- not valid JSON (JSONDecodeError: Expecting property name enclosed in double quotes: "
        "line 2 column 2 (char 10)); kept as text"
    ]


def test_very_deep_json_does_not_exhaust_the_stack() -> None:
    deep = b'{"a":' * 100 + b"1" + b"}" * 100
    tree = files(deep, "https://e.test/deep.json", "application/json")
    assert tree["facts.kv"][0].startswith("a." * 63 + "a = {")
    assert map_notes(tree) == ["- JSON nested deeper than 64 levels is shown as text"]
    too_deep = b"[" * 100_000 + b"]" * 100_000
    assert map_notes(files(too_deep, "https://e.test/x.json", "application/json"))[0].startswith(
        "- not valid JSON (RecursionError"
    )


# --- CSV, text, markdown -----------------------------------------------------------------------


def test_csv_becomes_one_table() -> None:
    tree = files(b"plant,height\nclover,10\nthyme\n", "https://e.test/plants.csv", "text/csv")
    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        "[T01 3×2 → tables/T01.cells]",
    ]
    assert tree["tables/T01.tsv"] == ["plant\theight", "clover\t10", "thyme\t"]
    assert tree["tables/T01.cells"][1:] == [
        "r2c1\t2\tclover\tplant\tclover\t",
        "r2c2\t2\tclover\theight\t10\t",
        "r3c1\t3\tthyme\tplant\tthyme\t",
    ]


def test_plain_text_is_content() -> None:
    tree = files(
        b"First line  \r\n\r\n\r\n\r\nSecond line\n\n", "https://e.test/notes.txt", "text/plain"
    )
    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        "First line",
        "",
        "Second line",
    ]
    assert tree["_map.md"][0] == "# notes.txt"


MARKDOWN = b"""Before any heading.

# Garden guide

Read [the basics](/basics.html) first. ![A clover](img/clover.png)

Soil
====

```
# not a heading
```

## Water  ##

Rain matters.

Tools
-----

- spade
"""


def test_markdown_headings_become_sections() -> None:
    tree = files(MARKDOWN, "https://e.test/docs/guide.md", "text/markdown; charset=utf-8")
    assert sorted(p for p in tree if p.startswith("content/")) == [
        "content/00-intro.md",
        "content/01-garden-guide.md",
        "content/02-soil.md",
        "content/03-water.md",
        "content/04-tools.md",
    ]
    assert tree["content/00-intro.md"] == ["# (before the first heading)", "Before any heading."]
    assert tree["content/01-garden-guide.md"] == [
        "# Garden guide",
        "Read the basics [L0001] first. [I0001 A clover]",
    ]
    assert tree["content/02-soil.md"] == ["# Soil", "```", "# not a heading", "```"]
    assert tree["content/03-water.md"] == ["# Soil > Water", "Rain matters."]
    assert tree["content/04-tools.md"] == ["# Soil > Tools", "- spade"]
    assert tree["links.tsv"][1:] == [
        "L0001\thttps://e.test/basics.html\tthe basics\tcontent/01-garden-guide.md"
    ]
    assert tree["images.tsv"][1:] == [
        "I0001\thttps://e.test/docs/img/clover.png\tA clover\tcontent/01-garden-guide.md"
    ]
    assert tree["_map.md"][0] == "# Garden guide"


# --- images ------------------------------------------------------------------------------------

PNG = (
    b"\x89PNG\r\n\x1a\n"
    + struct.pack(">I", 13)
    + b"IHDR"
    + struct.pack(">IIBBBBB", 640, 480, 8, 2, 0, 0, 0)
)
GIF = b"GIF89a" + struct.pack("<HH", 16, 9) + b"\x00" * 8
JPEG = (
    b"\xff\xd8"
    + b"\xff\xe0\x00\x04\x00\x00"
    + b"\xff\xc0\x00\x11\x08"
    + struct.pack(">HH", 300, 200)
    + b"\x00" * 10
)


@pytest.mark.parametrize(
    ("data", "content_type", "description"),
    [
        (PNG, "image/png", "image/png, 640×480"),
        (GIF, "image/gif", "image/gif, 16×9"),
        (JPEG, "image/jpeg", "image/jpeg, 200×300"),
        (b"RIFF....WEBP", "image/webp", "image/webp"),
        (PNG, "", "image, 640×480"),
    ],
)
def test_an_image_is_one_image_record(data: bytes, content_type: str, description: str) -> None:
    tree = files(data, "https://e.test/img/logo", content_type)
    assert tree["images.tsv"] == [
        "id\tsrc\tdescription\tsection",
        f"I0001\thttps://e.test/img/logo\t{description}\tcontent/00-intro.md",
    ]
    assert tree["content/00-intro.md"] == [
        "# (before the first heading)",
        f"[I0001 {description}, {len(data)} bytes]",
    ]


# --- dispatch ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "url", "content_type", "kind"),
    [
        (b"<html>", "https://e.test/", "text/html; charset=utf-8", "html"),
        (b"<feed/>", "https://e.test/feed", "application/atom+xml", "html"),
        (b"<?xml?>", "https://e.test/a.xml", "text/xml", "html"),
        (b"%PDF-1.7", "https://e.test/a", "", "pdf"),
        (b"# Title", "https://e.test/README.md", "application/octet-stream", "markdown"),
        (b"{}", "https://e.test/a.json", "", "json"),
        (b"<html>", "https://e.test/page", "", "html"),
        (b"{}", "https://e.test/a", "application/ld+json", "json"),
        (b"x", "https://e.test/a", "image/svg+xml", "image"),
    ],
)
def test_document_kind(data: bytes, url: str, content_type: str, kind: str) -> None:
    assert document_kind(data, url, content_type) == kind


def test_html_is_left_to_the_walker() -> None:
    assert compile_nonhtml(b"<html><title>x</title></html>", "https://e.test/", "text/html") is None


@pytest.mark.parametrize(
    ("content_type", "supported"),
    [
        ("text/html; charset=utf-8", True),
        ("application/pdf", True),
        ("application/json", True),
        ("text/plain", True),
        ("text/markdown", True),
        ("text/csv", True),
        ("image/png", True),
        ("application/problem+json", True),
        ("", True),
        ("application/octet-stream", True),
        ("application/atom+xml", True),
        ("application/zip", False),
        ("video/mp4", False),
        ("application/x-msdownload", False),
    ],
)
def test_supported_type(content_type: str, supported: bool) -> None:
    assert supported_type(content_type) is supported


@settings(max_examples=150, deadline=None)
@given(
    data=st.one_of(
        st.binary(max_size=300),
        st.just(PDF[:200]),
        st.binary(max_size=200).map(lambda b: b"%PDF-" + b),
    ),
    content_type=st.sampled_from(
        [
            "application/pdf",
            "application/json",
            "text/csv",
            "text/plain",
            "text/markdown",
            "image/png",
            "image/jpeg",
            "",
            "text/x-markdown",
        ]
    ),
)
def test_garbage_never_raises(data: bytes, content_type: str) -> None:
    page = compile_nonhtml(data, "https://e.test/x", content_type)
    if page is not None:
        render_page(page, "N0001")


SPACED = "a" + " " * 200_000 + "b"


@pytest.mark.parametrize(
    ("line", "content"),
    [
        ("[" * 200_000, ["# (before the first heading)", "[" * 200_000]),
        ("# " + SPACED, ["# " + SPACED]),
        ("[a](" * 50_000, ["# (before the first heading)", "[a](" * 50_000]),
        ("![" * 100_000, ["# (before the first heading)", "![" * 100_000]),
    ],
)
def test_long_hostile_lines_are_linear(line: str, content: list[str]) -> None:
    """Each of these took seconds to minutes with backtracking patterns; now they are kept."""
    tree = files(line.encode(), "https://e.test/a.md", "text/markdown")
    assert [lines for path, lines in tree.items() if path.startswith("content/")] == [content]

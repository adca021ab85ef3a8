"""tables.py: data tables become labelled cells (spans expanded), layout tables stay text."""

from __future__ import annotations

import time
from pathlib import Path

import lxml.html

from webshellfs.compiler import compile_page
from webshellfs.compiler.builder import Emitted, PageBuilder
from webshellfs.compiler.dom import plain_text
from webshellfs.compiler.tables import MAX_CELLS, build_table
from webshellfs.contract.layout import render_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "fixtures" / "pages"
# A few of WikiTableQuestions' span-heavy Wikipedia tables with their gold grids (CC BY-SA 4.0).
WTQ = ROOT / "tests" / "corpora" / "wtq-span-tables"
WIKI = "https://en.wikipedia.org/wiki/Sample"

SHOP = "https://shop.example.test/p/oxford"
CLUB = "https://club.example.test/results"


def compiled(name: str, url: str) -> dict[str, bytes]:
    return render_page(compile_page((PAGES / name).read_bytes(), url))


def lines(files: dict[str, bytes], path: str) -> list[str]:
    return files[path].decode().splitlines()


def table_of(html: str) -> tuple[Emitted, PageBuilder]:
    """build_table on the first <table>, cells rendered as plain text."""
    root = lxml.html.document_fromstring(html)
    builder = PageBuilder("https://example.test/")
    builder.text_of = plain_text
    return build_table(root.find(".//table"), builder), builder


def test_size_table_labels_every_cell_with_its_row_and_column() -> None:
    files = compiled("tables-sizes.html", SHOP)
    assert lines(files, "tables/T01.cells") == [
        "cell\trow\trow_label\tcol_label\tvalue\trefs",
        "r4c1\t4\tRegular fit > Small\tSize\tSmall\t",
        "r4c2\t4\tRegular fit > Small\tBody > Chest\t90\t",
        "r4c3\t4\tRegular fit > Small\tBody > Waist\t76\t",
        "r4-5c4\t4\tRegular fit > Small\tSleeve\t84\t",
        "r5c1\t5\tRegular fit > Medium\tSize\tMedium\t",
        "r5c2\t5\tRegular fit > Medium\tBody > Chest\t96\t",
        "r5c3\t5\tRegular fit > Medium\tBody > Waist\t82\t",
        "r4-5c4\t5\tRegular fit > Medium\tSleeve\t84\t",
        "r6c1\t6\tRegular fit > Large\tSize\tLarge\t",
        "r6c2-3\t6\tRegular fit > Large\tBody > Chest\ton request\t",
        "r6c2-3\t6\tRegular fit > Large\tBody > Waist\ton request\t",
        "r6c4\t6\tRegular fit > Large\tSleeve\t86\t",
    ]


def test_grep_medium_returns_values_with_their_labels() -> None:
    files = compiled("tables-sizes.html", SHOP)
    medium = [line for line in lines(files, "tables/T01.cells") if "Medium" in line]
    assert "r5c2\t5\tRegular fit > Medium\tBody > Chest\t96\t" in medium
    assert "r4-5c4\t5\tRegular fit > Medium\tSleeve\t84\t" in medium  # rowspan from Small's row


def test_grid_keeps_header_rows_and_expands_spans() -> None:
    files = compiled("tables-sizes.html", SHOP)
    assert lines(files, "tables/T01.tsv") == [
        "Size\tBody\tBody\tSleeve",
        "Size\tChest\tWaist\tSleeve",
        "Regular fit\tRegular fit\tRegular fit\tRegular fit",
        "Small\t90\t76\t84",
        "Medium\t96\t82\t84",
        "Large\ton request\ton request\t86",
    ]


def test_table_mention_carries_its_size_and_caption() -> None:
    files = compiled("tables-sizes.html", SHOP)
    assert lines(files, "content/02-size-guide.md")[-1] == (
        '[T01 6×4 "Shirt sizes (cm)" → tables/T01.cells]'
    )
    assert lines(files, "content/03-stock.md")[-1] == "[T02 3×3 → tables/T02.cells]"


def test_links_and_buttons_in_a_cell_are_its_refs_in_document_order() -> None:
    files = compiled("tables-sizes.html", SHOP)
    assert lines(files, "tables/T02.cells") == [
        "cell\trow\trow_label\tcol_label\tvalue\trefs",
        "r2c1\t2\tWhite\tColour\tWhite\t",
        "r2c2\t2\tWhite\tIn stock\t12\t",
        'r2c3\t2\tWhite\tBuy\tDetails [A0001 button "Add to cart"]\tL0001 A0001',
        "r3c1\t3\tBlue\tColour\tBlue\t",
        "r3c2\t3\tBlue\tIn stock\t0\t",
        "r3c3\t3\tBlue\tBuy\tNotify me\tL0002",
    ]
    assert lines(files, "actions.tsv")[1] == "A0001\tclick\tAdd to cart\t\t\tcontent/03-stock.md"


def test_nested_table_is_its_own_table_numbered_after_the_outer_one() -> None:
    files = compiled("tables-nested.html", CLUB)
    assert lines(files, "tables/T01.cells")[3] == (
        "r2c3\t2\tNorth\tTable\t[T02 3×2 → tables/T02.cells]\tT02"
    )
    assert lines(files, "tables/T02.cells") == [
        "cell\trow\trow_label\tcol_label\tvalue\trefs",
        "r2c1\t2\tRavens\tTeam\tRavens\t",
        "r2c2\t2\tRavens\tPoints\t31\t",
        "r3c1\t3\tOwls\tTeam\tOwls\t",
        "r3c2\t3\tOwls\tPoints\t27\t",
    ]


def test_layout_table_is_walked_as_text() -> None:
    files = compiled("tables-nested.html", CLUB)
    # The role=presentation wrapper is no table: its heading, text and link are page text.
    assert lines(files, "content/01-club-results.md") == [
        "# Club results",
        "Results of the spring season.",
        "- Archive [L0001]",
        "[T01 3×3 → tables/T01.cells]",
        "[T03 3×2 → tables/T03.cells]",
    ]


def test_wrapper_table_without_headers_holding_page_structure_is_layout() -> None:
    emitted, builder = table_of(
        "<table><tr><td><h1>Title</h1><p>Intro</p></td><td><ul><li>Menu</li></ul></td></tr>"
        "<tr><td><p>Body</p></td><td>Side</td></tr></table>"
    )
    assert emitted == Emitted(descend=True)
    assert builder.tables == []


def test_single_column_and_single_row_tables_are_layout() -> None:
    assert table_of("<table><tr><th>A</th></tr><tr><td>1</td></tr></table>")[0] == Emitted(
        descend=True
    )
    assert table_of("<table><tr><th>A</th><td>1</td></tr></table>")[0] == Emitted(descend=True)


def test_bold_first_row_labels_the_columns() -> None:
    files = compiled("tables-nested.html", CLUB)
    assert lines(files, "tables/T03.cells")[1:3] == [
        "r2c1\t2\tRiverside\tVenue\tRiverside\t",
        "r2c2\t2\tRiverside\tCapacity\t4,000\t",
    ]


def test_header_column_labels_rows_of_a_vertical_table_without_lines_of_their_own() -> None:
    _, builder = table_of(
        "<table><tr><th>Weight</th><td>2 kg</td></tr><tr><th>Colour</th><td>Red</td></tr></table>"
    )
    assert [(c.row_label, c.col_label, c.value) for c in builder.tables[0].cells] == [
        ("Weight", "", "2 kg"),
        ("Colour", "", "Red"),
    ]


def test_huge_spans_are_clamped() -> None:
    started = time.perf_counter()
    emitted, builder = table_of(
        "<table><tr><th>Key</th><th>A</th><th>B</th></tr>"
        '<tr><td rowspan="65534">k</td><td colspan="100000">wide</td></tr>'
        "<tr><td>1</td><td>2</td></tr></table>"
    )
    assert time.perf_counter() - started < 1
    table = builder.tables[0]
    assert emitted.inline == "[T01 3×1000 → tables/T01.cells]"
    assert table.grid[2][:4] == ("k", "1", "2", "")
    assert len(table.cells) == 1000 + 3  # row 2: k and 999 × "wide"; row 3: k, 1, 2


def test_a_million_cells_are_cut_to_the_limit_with_a_note() -> None:
    row = "<tr>" + "<td>7</td>" * 1000 + "</tr>"
    html = "<table><tr>" + "<th>h</th>" * 1000 + "</tr>" + row * 1000 + "</table>"
    started = time.perf_counter()
    emitted, builder = table_of(html)
    assert time.perf_counter() - started < 10
    kept = MAX_CELLS // 1000
    assert emitted.inline == f"[T01 {kept}×1000 → tables/T01.cells]"
    assert builder.notes == [
        f"T01: kept the first {kept} of 1001 rows (limit {MAX_CELLS} cells per table)"
    ]


def test_title_row_names_the_table_and_a_full_width_row_is_one_cell() -> None:
    emitted, builder = table_of(
        "<table><tr><th colspan=2>Oxford shirt</th></tr>"
        "<tr><td colspan=2>A photo of the shirt</td></tr>"
        "<tr><th>Fabric</th><td>Cotton</td></tr><tr><th>Fit</th><td>Regular</td></tr></table>"
    )
    assert emitted.inline == '[T01 4×2 "Oxford shirt" → tables/T01.cells]'
    assert [(c.row, c.col, c.row_label, c.col_label, c.value) for c in builder.tables[0].cells] == [
        (2, 1, "", "", "A photo of the shirt"),
        (3, 2, "Fabric", "", "Cotton"),
        (4, 2, "Fit", "", "Regular"),
    ]


def test_a_frame_around_tables_is_layout() -> None:
    emitted, _ = table_of(
        "<table><tr><th colspan=2>Most active developers</th></tr><tr>"
        "<td><table><tr><th>Name</th><th>Commits</th></tr><tr><td>Ada</td><td>63</td></tr></table></td>"
        "<td><table><tr><th>Name</th><th>Lines</th></tr><tr><td>Bo</td><td>455</td></tr></table></td>"
        "</tr></table>"
    )
    assert emitted == Emitted(descend=True)


def test_blank_corner_cell_marks_a_header_row() -> None:
    _, builder = table_of(
        "<table><tr><td></td><td>Draft</td><td>Review</td></tr>"
        "<tr><td>Load map</td><td>done</td><td>open</td></tr></table>"
    )
    assert [(c.row_label, c.col_label, c.value) for c in builder.tables[0].cells] == [
        ("Load map", "", "Load map"),
        ("Load map", "Draft", "done"),
        ("Load map", "Review", "open"),
    ]


def test_headers_attribute_names_a_cells_labels() -> None:
    _, builder = table_of(
        "<table><tr><td></td><th id=q1>Q1</th><th id=q2>Q2</th></tr>"
        "<tr><th id=rev>Revenue</th><td headers='rev q2'>10</td><td headers='q1 rev'>12</td></tr></table>"
    )
    assert [(c.row_label, c.col_label, c.value) for c in builder.tables[0].cells] == [
        ("Revenue", "Q2", "10"),
        ("Revenue", "Q1", "12"),
    ]


def test_headerless_grid_of_labels_and_inputs_is_a_forms_layout() -> None:
    emitted, _ = table_of(
        "<table><tr><td>User name</td><td><input name=u></td></tr>"
        "<tr><td>Password</td><td><input type=password name=p></td></tr></table>"
    )
    assert emitted == Emitted(descend=True)


# --- clean values and labels (WikiTableQuestions samples and small cases) --------------------


def wiki_table(name: str) -> list[str]:
    batch, table_id = name.split("/")
    html = (WTQ / "csv" / f"{batch}-csv" / f"{table_id}.html").read_bytes()
    return lines(render_page(compile_page(html, WIKI)), "tables/T01.cells")


def gold_sample_names() -> list[str]:
    rows = (WTQ / "span_tables.tsv").read_text().splitlines()[1:]
    return ["/".join(row.split("\t")[:2]) for row in rows]


def test_every_gold_cell_of_the_samples_is_one_line_with_its_value_and_labels() -> None:
    from tests.benchmarks.bench_tables import score_table

    for name in gold_sample_names():
        batch, table_id = name.split("/")
        score = score_table(WTQ / "csv" / f"{batch}-csv" / f"{table_id}.html", batch, table_id)
        assert score.asked and score.misses == [], name


def test_links_stay_in_refs_and_footnote_marks_out_of_labels() -> None:
    cells = wiki_table("200/0")
    assert cells[1:3] == ["r3c1\t3\t1969\tYear\t1969\t", "r3c2\t3\t1969\tTitle\tRenaissance\tL0006"]
    # `UK<sup class=reference>[9]</sup>` under `Chart-Positions`: the mark is not the label's.
    assert cells[3] == "r3c3\t3\t1969\tChart-Positions > UK\t60\t"


def test_the_grid_still_shows_footnote_marks() -> None:
    batch, table_id = "200", "0"
    html = (WTQ / "csv" / f"{batch}-csv" / f"{table_id}.html").read_bytes()
    grid = lines(render_page(compile_page(html, WIKI)), "tables/T01.tsv")
    assert grid[1].split("\t")[2:5] == ["UK[9]", "US", "NL[10]"]


def test_a_rank_column_and_the_name_beside_it_label_the_row() -> None:
    assert wiki_table("204/508")[1:3] == [
        "r2c1\t2\t1 · NextEra Energy Resources 250\tNo.\t1\t",
        "r2c2\t2\t1 · NextEra Energy Resources 250\tRace Title\tNextEra Energy Resources 250\tL0003",
    ]


def test_a_group_row_under_the_header_prefixes_rows_not_columns() -> None:
    assert wiki_table("204/168")[1] == "r3c1\t3\tRegular season > 11/09/2013*\tDate\t11/09/2013*\t"


def test_an_empty_colour_key_does_not_name_the_row() -> None:
    assert wiki_table("202/92")[1] == "r3c2\t3\tLiberal\tParty\tLiberal\tL0003"


def test_sup_and_sub_join_their_word_and_an_image_only_cell_reads_as_its_alt() -> None:
    _, builder = table_of(
        "<table><tr><th>Name</th><th>Area (km<sup>2</sup>)</th><th>Flag</th></tr>"
        "<tr><td>H<sub><a href='/two'>2</a></sub>O<sup><a href='#n1'>[1]</a></sup></td>"
        "<td>5<sup>*</sup></td><td><a href='/f'><img src='f.png' alt='Flag of Oslo'></a></td>"
        "</tr></table>"
    )
    assert [(c.row_label, c.col_label, c.value) for c in builder.tables[0].cells] == [
        ("H2O", "Name", "H2O"),
        ("H2O", "Area (km2)", "5"),
        ("H2O", "Flag", "Flag of Oslo"),
    ]
    assert builder.tables[0].grid[1] == ("H2O[1]", "5*", "Flag of Oslo")


def test_a_table_without_headers_says_so_in_the_map() -> None:
    _, builder = table_of(
        "<table><tr><td>Oslo</td><td>709,000</td></tr><tr><td>Bergen</td><td>291,000</td></tr></table>"
    )
    assert [(c.row_label, c.col_label, c.value) for c in builder.tables[0].cells][:2] == [
        ("Oslo", "", "Oslo"),
        ("Oslo", "", "709,000"),
    ]
    assert builder.notes == ["T01: no header cells; col_label is empty, row_label the row's name"]


def test_sort_keys_hidden_by_the_sites_stylesheet_are_not_values() -> None:
    _, builder = table_of(
        "<table><tr><th>Pick</th><th>Player</th></tr>"
        "<tr><td>1</td><td><span class='sortkey'>Carr, David</span>David Carr</td></tr></table>"
    )
    assert builder.tables[0].cells[1].value == "David Carr"


def test_a_table_made_of_aria_roles_is_a_table() -> None:
    html = (
        "<h1>Students</h1><div role=table aria-label=Students>"
        "<div role=rowgroup><div role=row><span role=columnheader>First Name</span>"
        "<span role=columnheader>Company</span></div></div>"
        "<div role=rowgroup><div role=row><span role=rowheader>Aaron</span>"
        "<span role=cell>Acme</span></div></div></div>"
    )
    files = render_page(compile_page(html.encode(), "https://school.example/"))
    assert "[T01 2×2 \"Students\" → tables/T01.cells]" in files["content/01-students.md"].decode()
    assert "r2c2\t2\tAaron\tCompany\tAcme\t" in files["tables/T01.cells"].decode()

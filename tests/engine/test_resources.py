"""Responses and downloads as a page's resources, and their records as tables after the page's
own (no browser: the records the browser hands over are made here)."""

from __future__ import annotations

import json

from webshellfs.browser import CapturedResponse, DownloadRecord
from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page
from webshellfs.engine.resources import MAX_TABULATED_BYTES, with_responses

URL = "https://shop.test/orders"
PAGE = (b"<html><head><title>Orders</title></head><body><h1>Orders</h1>"
        b"<table><tr><th>Shop</th><th>City</th></tr><tr><td>North</td><td>Oslo</td></tr></table>"
        b"</body></html>")
ITEMS = json.dumps({"items": [{"name": "Item 1", "price": 3}, {"name": "Item 2"}],
                    "more": True}).encode()
CSV = b"order,total\n1001,45 EUR\n"
PDF = b"%PDF-1.4 not really"


def rendered(responses: list[CapturedResponse]) -> dict[str, bytes]:
    page = compile_page(PAGE, URL, content_type="text/html")
    return render_page(with_responses(page, responses), "N0003")


def lines(files: dict[str, bytes], path: str) -> list[str]:
    return files[path].decode().splitlines()


def test_responses_and_downloads_are_resources_with_their_records_as_tables() -> None:
    files = rendered([
        CapturedResponse(f"{URL}/api?page=1", "application/json; charset=utf-8", ITEMS),
        CapturedResponse(f"{URL}/note", "text/plain", b"hello"),
        DownloadRecord(f"{URL}/export", "orders.csv", CSV).as_response(),
        DownloadRecord(f"{URL}/report", "report.pdf", PDF).as_response(),
        DownloadRecord(f"{URL}/blob", "data.Weird$Ext", b"\x00\x01").as_response(),
    ])
    assert lines(files, "resources.tsv") == [
        "id\turl\tcontent-type\tbytes\tfile",
        (f"R0001\t{URL}/api?page=1\tapplication/json; charset=utf-8\t{len(ITEMS)}"
        "\tresources/R0001.json"),
        f"R0002\t{URL}/note\ttext/plain\t5\tresources/R0002.txt",
        f"R0003\t{URL}/export\ttext/csv\t{len(CSV)}\tresources/R0003.csv",
        f"R0004\t{URL}/report\tapplication/pdf\t{len(PDF)}\tresources/R0004.pdf",
        f"R0005\t{URL}/blob\tapplication/octet-stream\t2\tresources/R0005.bin",
    ]
    assert files["resources/R0001.json"] == ITEMS
    assert files["resources/R0003.csv"] == CSV
    assert files["resources/R0004.pdf"] == PDF
    # The page's own table stays T01; the resources' records follow, in resource order.
    assert lines(files, "tables/T01.tsv") == ["Shop\tCity", "North\tOslo"]
    assert lines(files, "tables/T02.tsv") == ["name\tprice", "Item 1\t3", "Item 2\t"]
    assert lines(files, "tables/T02.cells") == [
        "cell\trow\trow_label\tcol_label\tvalue\trefs",
        "r2c1\t2\tItem 1\tname\tItem 1\t",
        "r2c2\t2\tItem 1\tprice\t3\t",
        "r3c1\t3\tItem 2\tname\tItem 2\t",
    ]
    assert lines(files, "tables/T03.tsv") == ["order\ttotal", "1001\t45 EUR"]
    map_lines = lines(files, "_map.md")
    start = map_lines.index("## tables/ (3)")
    assert map_lines[start:start + 4] == [
        "## tables/ (3)",
        "T01  2×2  in content/01-orders.md",
        'T02  3×2 "items"  from resources/R0001.json',
        "T03  2×2  from resources/R0003.csv",
    ]
    # Only the page's own table is listed under its section.
    assert "01-orders.md  2 lines  [T01]" in map_lines


def test_no_responses_leave_the_page_as_it_was() -> None:
    page = compile_page(PAGE, URL, content_type="text/html")
    assert with_responses(page, []) is page


def test_a_large_json_resource_is_kept_but_not_tabulated() -> None:
    big = json.dumps([{"n": "x" * 1000}] * (MAX_TABULATED_BYTES // 1000)).encode()
    files = rendered([CapturedResponse(f"{URL}/big", "application/json", big)])
    assert files["resources/R0001.json"] == big
    assert sorted(p for p in files if p.startswith("tables/")) == [
        "tables/T01.cells", "tables/T01.tsv"]
    assert (f"- R0001 is over {MAX_TABULATED_BYTES} bytes: stored, but its records are not made "
            "into tables") in lines(files, "_map.md")

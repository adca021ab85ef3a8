"""`search` and `choose`: the rules that find a page's search box and a control by its words, and
both shortcuts through the engine on the shop (live, and search over plain HTTP)."""

from __future__ import annotations

import re
from pathlib import Path

from tests.explore.engine_run import ask, run
from tests.explore.shop_site import ShopSite, page_for
from webshellfs.browser import Browser
from webshellfs.compiler import compile_page
from webshellfs.engine import Engine, Outcome
from webshellfs.engine.queries import page_meta
from webshellfs.explore.shortcuts import named, results_url, search_control
from webshellfs.fetch import Capture

BASE = "http://shop.example"


def meta_of(path: str) -> dict:  # type: ignore[type-arg]
    body = page_for(path, {})
    assert body is not None
    capture = Capture(BASE + path, BASE + path, 200, "text/html", body)
    return page_meta(compile_page(body, BASE + path, content_type="text/html"), capture)


def test_the_search_box_is_the_form_with_a_search_field() -> None:
    found = search_control(meta_of("/index.html"))
    assert found is not None
    assert (found.object_id, found.field) == ("A0002", "q")
    assert results_url(found.record, found.field, "rain jacket") == (
        f"{BASE}/search?q=rain+jacket")
    # The about page's contact form takes a name and a message: no search box there but the
    # header's.
    assert search_control(meta_of("/about.html")).object_id == "A0002"  # type: ignore[union-attr]


def test_a_lone_field_labelled_search_is_a_search_box() -> None:
    meta = {"actions": {
        "A0001": {"kind": "fill", "control": "text", "label": "Your name", "fields": []},
        "A0002": {"kind": "fill", "control": "combobox", "label": "Search products",
                  "fields": []},
    }}
    found = search_control(meta)
    assert found is not None and (found.object_id, found.field) == ("A0002", "")


def test_a_control_is_named_by_its_words_exactly_then_by_their_start_then_anywhere() -> None:
    meta = meta_of("/product/1.html")
    assert named(meta, "size guide").object_id == "A0004"  # type: ignore[union-attr]
    assert named(meta, "Desc").object_id == "A0005"  # type: ignore[union-attr]
    assert named(meta, "careers").object_id.startswith("L")  # type: ignore[union-attr]
    assert named(meta, "careers", links=False) is None
    assert named(meta, "nothing like it") is None


def test_search_and_choose_live(tmp_path: Path, browser: Browser, shop: ShopSite) -> None:
    async def body(engine: Engine) -> None:
        site = shop.base.partition("//")[2]
        await ask(engine, f"explore {shop.url('/index.html')} --depth 1")
        lines = await ask(engine, f"search {site} rain jacket")
        assert lines[:3] == [
            f"search box of {site}: N0001 A0002 form \"Search\" "
            f"(from _sites/{site.replace(':', '-')}/map.md)",
            # typed first (a state of N0001 holding the words), then submitted there
            "searched with A0002 form \"Search\" on N0001: typed q='rain jacket' → N0008, "
            "then submitted there",
            "executed A0002 form \"Search\" with q=rain jacket on N0008",
        ]
        assert any(line.endswith("new page: Search results") for line in lines), lines
        chose = await ask(engine, "choose N0001 More Press")
        assert chose[0] == (
            'the map says button "More" opens menu: Careers, Press (explored on N0001)')
        assert chose[1].startswith('opened A0001 button "More" on N0001 → N')
        assert chose[2] == 'picked L0007 link "Press"'
        assert any(line.endswith("new page: Press") for line in chose), chose
        finder = (await ask(engine, f"open {shop.url('/finder.html')}"))[0].split()[0]
        took = await ask(engine, f"search {finder} Rain jacket")
        assert took[0].startswith(f"typed 'Rain jacket' into A0001 form \"Go\" on {finder} → N")
        assert took[0].endswith("; took the suggestion 'Rain jacket' "
                                "(A0002 listbox \"Suggestions\")")
        assert any(line.endswith("new page: Rain jacket") for line in took), took
        # The finder's tab has moved on: its page is opened again to search there. No
        # suggestion reads just "rain", so the form is submitted.
        typed = await ask(engine, f"search {finder} rain")
        assert typed[0] == f"{finder} is in no tab now: its URL opened again"
        again = typed[1].split()[0]
        assert any(line.startswith(f"searched with A0001 form \"Go\" on {again}: typed "
                                   "q='rain' → N") for line in typed), typed
        assert any(line.endswith("new page: Search results") for line in typed), typed
        menus = (await ask(engine, f"open {shop.url('/menus.html')}"))[0].split()[0]
        nested = await ask(engine, f'choose {menus} Shop "Shoes > Gaiters"')
        assert nested[0].startswith(f'opened A0001 button "Shop" on {menus} → N')
        assert re.fullmatch(r'opened A\d{4} button "Shoes" on N\d{4} → N\d{4}', nested[1])
        assert re.fullmatch(r'picked L\d{4} link "Gaiters"', nested[2])
        assert any(line.endswith("new page: Gaiters") for line in nested), nested
        missing = await ask(engine, "choose N0001 More Jobs", Outcome.INVALID)
        assert "no item reads 'Jobs' on N" in "\n".join(missing)
        assert shop.trapped() == []

    run(tmp_path, body, browser)


def test_search_without_a_browser_opens_the_results_address(tmp_path: Path, shop: ShopSite
                                                            ) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"search {shop.url('/about.html')} wool")
        assert lines[0] == "N0001  About us"
        searched = lines.index("searched with A0002 form \"Search\" on N0001: q='wool', its "
                               "results address opened (no live browser)")
        assert lines[searched + 1:searched + 3] == [
            "N0002  Search results", f"url: {shop.url('/search?q=wool')}"]
        refused = await ask(engine, "choose N0001 More Press", Outcome.FAILED)
        assert refused == ["choose needs the live browser: this mount has no browser"]

    run(tmp_path, body)

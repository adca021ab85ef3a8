"""Menus as a person meets them, on the fixture menu site with the real Chromium: a dropdown
shown by CSS `:hover`, a mega menu shown on mouseenter, a nested hover menu, a mega menu and a
dropdown that open on a click. `explore` points at the menu bar, records what each menu holds
(a mega menu's columns by heading), follows the links only a menu shows, restores the page by
moving the pointer away or pressing Escape instead of reloading it, and never presses a "Log
out" inside a menu; `choose` opens each kind and picks an item, with the map and without."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.explore.engine_run import ask, read, rows, run, site_dir
from tests.explore.menu_site import MENU_PAGES, ONLY_IN_MENUS, MenuSite, page_for
from webshellfs.browser import Browser
from webshellfs.compiler import compile_page
from webshellfs.engine import Engine
from webshellfs.explore.menus import hover_candidates, menu_of, pointed_in
from webshellfs.explore.safety import pointing_refusal

BASE = "http://menus.example"


@pytest.fixture
def menus() -> MenuSite:
    site = MenuSite()
    yield site  # type: ignore[misc]
    site.close()


def test_the_menu_bar_items_are_what_is_pointed_at() -> None:
    body = page_for("/index.html")
    assert body is not None
    page = compile_page(body, BASE + "/index.html", content_type="text/html")
    # Compiled without a browser the hover menus are hidden; their top-level items are there
    # to point at: links, and words alone over a CSS dropdown. The click menus' buttons are
    # clicked instead.
    assert [(p.control, p.words) for p in hover_candidates(page)] == [
        ("link", "Home"), ("link", "Guides"), ("link", "Products"), ("", "Company")]
    # With a browser's capture, the items a stylesheet's :hover or a mouseenter listener opens
    # a menu on, and words a script listens to hover on, are `hover target`s, pointed at by
    # their ids wherever they are (test_every_kind_of_menu_explored_live).


def test_a_long_list_of_links_is_no_menu_bar() -> None:
    """A documentation site's sidebar of many links is read, not swept with the pointer."""
    items = "".join(f'<li><a href="/doc/{n}.html">Chapter {n}</a></li>' for n in range(20))
    body = (f'<!DOCTYPE html><title>Manual</title><nav aria-label="Contents"><ul>{items}</ul>'
            "</nav><main><h1>Manual</h1><p>Read on.</p></main>").encode()
    page = compile_page(body, BASE + "/doc/index.html", content_type="text/html")
    assert hover_candidates(page) == []


def test_what_appeared_is_read_as_a_menu_with_columns() -> None:
    appeared = (
        ("boilerplate/nav.md", "- Products [L0003]", BASE + "/products.html"),
        ("boilerplate/nav.md", "  Footwear", ""),
        ("boilerplate/nav.md", "  - Trail shoes [L0004]", BASE + "/p/trail-shoes.html"),
        ("boilerplate/nav.md", "  ### Gear", ""),
        ("boilerplate/nav.md", "  - Tent [L0005]", BASE + "/p/tent.html"),
        ("content/01-home.md", "Hovered!", ""),
    )
    menu = menu_of(appeared, "Products")
    assert menu.columns == (
        ("Footwear", (("Trail shoes", BASE + "/p/trail-shoes.html"),)),
        ("Gear", (("Tent", BASE + "/p/tent.html"),)),
    )
    assert pointed_in(menu) == []  # a mega menu's columns are read, not swept
    plain = menu_of((("boilerplate/nav.md", "  - About us [L0004]", BASE + "/about.html"),
                     ("boilerplate/nav.md", "  - Jobs", ""),
                     ("boilerplate/nav.md", '  - [A0003 button "Log out"]', "")))
    assert [item for _, items in plain.columns for item, _ in items] == [
        "About us", "Jobs", "Log out"]
    # A control in a menu is not pointed at (the click loop is what presses controls, by its
    # rules); a link or words that read as logging out are not even pointed at.
    assert [(p.object_id, p.words) for p in pointed_in(plain)] == [
        ("L0004", "About us"), ("", "Jobs")]
    assert pointing_refusal("Log out") == 'leaves: reads "log out"'
    assert pointing_refusal("Our team") == ""


def test_every_kind_of_menu_explored_live(tmp_path: Path, browser: Browser, menus: MenuSite
                                         ) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"explore {menus.url('/index.html')}")
        assert lines[1].startswith(f"site so far: {len(MENU_PAGES) + 1} pages stored"), lines
        site = site_dir(menus)
        behaviors = {row[2]: (row[1], row[3]) for row in rows(engine, f"{site}/behaviors.tsv")}
        # The live page showed each hover menu's item answering to the pointer (a stylesheet's
        # :hover, a mouseenter listener): each is a hover target, pointed at by its id.
        assert behaviors['hover A0001 "Guides"'] == (
            "nav", "opens menu: Reading maps, Knots, Weather")
        assert behaviors['hover A0002 "Products"'] == (
            "nav", "opens menu: Footwear: Trail shoes, Boots, Sandals · Clothing: Rain jacket, "
            "Fleece · Gear: Tent, Stove, Head torch")
        assert behaviors['hover A0003 "Company"'] == (
            "nav", "opens menu: About us, Jobs, Log out")
        assert behaviors['hover A0003 "Company" > A0007 "About us"'] == (
            "nav", "opens menu: Our team, History")
        assert behaviors['A0004 button "Brands"'] == (
            "nav", "opens menu: Our own: Ridge, Tarn · Partners: Fellwear, Cairn")
        assert behaviors['A0005 button "Account"'] == (
            "nav", "opens menu: Profile, Settings, Log out")
        # A control the live page saw answer to hover, in the home page's text: tried for its
        # template.
        assert behaviors['hover A0006 "Opening hours"'] == (
            "T01", "shows: Summer, Winter")
        # The "Log out" button in Company's menu is listed, never pointed at nor pressed.
        assert not any("Log out" in control for control in behaviors if "hover" in control)
        # Pointing at Home opened nothing: nothing is recorded of it.
        assert not any("Home" in control for control in behaviors)
        # map.md lists what each menu holds, a mega menu by its columns; menus.tsv all of it.
        site_map = read(engine, f"{site}/map.md")
        assert ('- N0001 hover A0002 "Products" [nav]: opens menu: Footwear: Trail '
                "shoes, "
                "Boots, Sandals · Clothing: Rain jacket, Fleece · Gear: Tent, Stove, Head torch"
                ) in site_map
        assert len(site_map.encode()) < 4000
        items = {(row[1], row[2], row[3]): urlsplit(row[4]).path
                 for row in rows(engine, f"{site}/menus.tsv")}
        assert items[('hover A0002 "Products"', "Gear", "Head torch")] == (
            "/p/head-torch.html")
        assert items[('hover A0003 "Company" > A0007 "About us"', "",
                      "Our team")] == "/team.html"
        assert items[('A0005 button "Account"', "", "Settings")] == "/settings.html"
        # Links only a menu showed were followed like any.
        pages = {urlsplit(row[0]).path: row for row in rows(engine, f"{site}/pages.tsv")}
        assert all(pages[path][5] == "stored" for path in ONLY_IN_MENUS)
        paths = {urlsplit(row[0]).path: row[2] for row in rows(engine, f"{site}/paths.tsv")}
        # A link a closed menu holds is found with the page, what opens the menu before it
        # (the outermost: menus.tsv has each step of a nested one, which choose follows).
        assert re.fullmatch(r'open .*/index\.html > hover A0003 "Company" > '
                            r'"Our team" \[L\d{4} on N0001\]', paths["/team.html"])
        # Restored by the pointer leaving or by Escape, never reloaded: each page was loaded
        # once, and the start page once more for its first try (its load's tab is closed).
        assert menus.page_loads() == len(MENU_PAGES) + 1 + 1
        # Nothing unsafe: no "Log out" button in a hover menu pressed (a POST), no link to
        # /logout followed.
        assert menus.trapped() == []

    run(tmp_path, body, browser)


def test_choose_with_the_map(tmp_path: Path, browser: Browser, menus: MenuSite) -> None:
    async def body(engine: Engine) -> None:
        await ask(engine, f"explore {menus.url('/index.html')} --depth 0")
        await ask(engine, f"open {menus.url('/jobs.html')}")
        mega = await ask(engine, 'choose @ Products "Trail shoes"')
        assert mega[0] == ('the map says hover "Products" opens menu: Footwear: '
                           "Trail shoes, Boots, Sandals · Clothing: Rain jacket, Fleece · Gear: "
                           "Tent, Stove, Head torch (explored on N0001)")
        assert re.fullmatch(r'pointed at A0002 hover target "Products" on N\d{4} → N\d{4}',
                            mega[1])
        assert re.fullmatch(r'picked L\d{4} link "Trail shoes"', mega[2])
        assert any(line.endswith("new page: Trail shoes") for line in mega), mega
        # The map knows Our team is in About us's submenu: pointed at on the way.
        nested = await ask(engine, 'choose @ Company "Our team"')
        assert nested[0].startswith(
            'the map says hover "Company" opens menu: About us, Jobs')
        assert re.fullmatch(r'pointed at A0003 hover target "Company" on N\d{4} → N\d{4}',
                            nested[1])
        assert re.fullmatch(r'pointed at A\d{4} hover target "About us" on N\d{4} → N\d{4}',
                            nested[2])
        assert any(line.endswith("new page: Our team") for line in nested), nested
        assert menus.trapped() == []

    run(tmp_path, body, browser)


def test_choose_on_the_live_page_without_a_map(tmp_path: Path, browser: Browser,
                                               menus: MenuSite) -> None:
    async def body(engine: Engine) -> None:
        async def choose(menu: str, item: str) -> list[str]:
            await ask(engine, f"open {menus.url('/index.html')}")
            return await ask(engine, f'choose @ {menu} "{item}"')

        # The item a mouseenter listener opens is a hover target: pointed at, the mega menu's
        # item taken.
        mega = await choose("Products", "Head torch")
        assert re.fullmatch(r'pointed at A0002 hover target "Products" on N\d{4} → N\d{4}',
                            mega[0])
        assert any(line.endswith("new page: Head torch") for line in mega), mega
        # Words over a CSS dropdown, then its nested item (hover targets the stylesheet's :hover
        # makes them), named step by step.
        nested = await choose("Company", "About us > History")
        assert re.fullmatch(r'pointed at A0003 hover target "Company" on N\d{4} → N\d{4}',
                            nested[0])
        assert re.fullmatch(r'pointed at A\d{4} hover target "About us" on N\d{4} → N\d{4}',
                            nested[1])
        assert any(line.endswith("new page: History") for line in nested), nested
        hover = await choose("Guides", "Knots")
        assert any(line.endswith("new page: Knots") for line in hover), hover
        # The click menus: a button that says it opens something is clicked.
        click = await choose("Account", "Settings")
        assert re.fullmatch(r'opened A0005 button "Account" on N\d{4} → N\d{4}', click[0])
        assert any(line.endswith("new page: Settings") for line in click), click
        brands = await choose("Brands", "Cairn")
        assert any(line.endswith("new page: Cairn") for line in brands), brands
        assert menus.trapped() == []

    run(tmp_path, body, browser)

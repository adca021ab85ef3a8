"""`explore` through the engine: the shop walked with the real Chromium (templates found, menus,
dialogs, tabs and disclosures tried, nothing unsafe ever sent), and over plain HTTP for the
bounds and resuming (quicker, and the same walk without the controls)."""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import urlsplit

from tests.explore.engine_run import ask, read, rows, run, site_dir
from tests.explore.shop_site import ShopSite
from webshellfs.browser import Browser
from webshellfs.engine import Engine, Outcome
from webshellfs.mcp.files import read_path

def test_the_shop_explored_live(tmp_path: Path, browser: Browser, shop: ShopSite) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"explore {shop.url('/index.html')}")
        site = site_dir(shop)
        # Its progress, as `cat .progress` shows it: a line per page and per control tried.
        progress = engine.progress("s1")
        assert progress is not None
        assert progress.lines[0] == f"N0001 T01 depth 0 {shop.url('/index.html')}"
        assert 'N0001 tried A0001 button "More": opens menu: Careers, Press' in progress.lines
        assert re.fullmatch(r"explored 127\.0\.0\.1:\d+ from .*/index\.html: 19 pages stored "
                            r"and 5 controls tried in [\d.]+ s", lines[0]), lines
        assert lines[1:] == [
            "site so far: 19 pages stored, 0 listed by their address, 5 templates, 5 behaviours, "
            "3 forms, 6 things skipped for safety",
            "finished: every address within the bounds was visited",
            f"map: {site}/map.md (pages.tsv, templates.tsv, behaviors.tsv, menus.tsv, "
            "paths.tsv beside it)",
            f"next: cat {site}/map.md",
        ]
        # Nothing unsafe reached the server: no form, no POST, no logout, no download, nothing
        # robots.txt disallows.
        assert shop.trapped() == []
        templates = {row[0]: row[1:3] + [row[5]] for row in rows(engine, f"{site}/templates.tsv")}
        assert templates == {
            "T01": ["1", "0", "Trail Shop · Your account"],
            "T02": ["5", "0", "Products, page 1"],
            "T03": ["1", "0", "About us · Contact"],
            "T04": ["9", "0", "Trail shoe · Ask a question"],
            "T05": ["3", "0", "Choosing a trail shoe · Related"],
        }
        behaviors = {row[2].partition(" ")[2]: (row[1], row[3])
                     for row in rows(engine, f"{site}/behaviors.tsv")}
        assert behaviors['button "More"'] == ("nav", "opens menu: Careers, Press")
        assert behaviors['button "Size guide"'] == ("T04", 'opens dialog "Size guide"')
        assert behaviors['button "Reviews"'] == ("T04", "shows: Five stars from 12 walkers.")
        assert behaviors['details "Footnotes"'] == (
            "T05", "shows: Written by the shop's walkers in 2021.")
        assert behaviors['button "Delete account"'] == ("skipped",
                                                       'never used: destroys: reads "delete"')
        assert behaviors['form "Search"'][0] == "form"
        site_map = read(engine, f"{site}/map.md")
        assert "- search: N0001 A0002 form \"Search\" → GET " in site_map
        assert len(site_map.encode()) < 4000
        # Every page is stored as any page is: greppable at once, its path from the start kept.
        pages = {urlsplit(row[0]).path: row for row in rows(engine, f"{site}/pages.tsv")}
        product = pages["/product/1.html"]
        assert "grips well" in read(engine, f"{product[4]}/content/01-trail-shoe.md")
        paths = {urlsplit(row[0]).path: row[2] for row in rows(engine, f"{site}/paths.tsv")}
        assert re.fullmatch(r'open .*/index\.html > "Products" \[L0002 on N0001\] > '
                            r'"Trail shoe" \[L0008 on N\d{4}\]', paths["/product/1.html"])
        assert pages["/private/orders.html"][5] == "robots.txt disallows it"
        # A page opened later on the explored site says so.
        opened = await ask(engine, f"open {shop.url('/product/4.html')}")
        assert f"site map: {site}/map.md" in opened
        assert any(line.startswith("site: explored ") and "this page has template T04" in line
                   for line in opened)
        page = opened[0].split()[0]
        assert "this site was explored " in read(engine, f"{page}/_map.md")
        # Done once: again only when asked to.
        again = await ask(engine, f"explore {shop.url('/')}", Outcome.INVALID)
        assert again[0].endswith("`explore --refresh URL` explores it again")

    run(tmp_path, body, browser)


def test_bounds_are_reported_and_resume_goes_on(tmp_path: Path, shop: ShopSite) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"explore {shop.url('/index.html')} --pages 3 --depth 1")
        assert lines[0].startswith("explored 127.0.0.1:")
        assert ": 3 pages stored and 0 controls tried" in lines[0]
        assert lines[2:5] == [
            "stopped: pages: 3 stored (--pages 3); 4 addresses not visited",
            ("depth: 10 addresses deeper than --depth 1 were not followed (`explore --resume "
             "--depth 2` follows the next level)"),
            "not finished: `explore --resume` continues where it stopped",
        ]
        site = site_dir(shop)
        site_map = read(engine, f"{site}/map.md")
        assert "not finished (`explore --resume` continues)" in site_map
        # The MCP server's read shows the same files.
        assert read_path(engine, f"{site}/map.md", "s1") == site_map
        assert read_path(engine, "_sites", "s1") == f"{site.partition('/')[2]}/\n"
        assert "bounds: pages: 3 stored (--pages 3); 4 addresses not visited · depth: " in site_map
        resumed = await ask(engine, "explore --resume --pages 50")
        assert resumed[0].startswith(f"resumed 127.0.0.1:{shop.base.rpartition(':')[2]} from ")
        assert ": 3 pages stored and 0 controls tried" in resumed[0]
        assert resumed[2:4] == [
            ("depth: 10 addresses deeper than --depth 1 were not followed (`explore --resume "
             "--depth 2` follows the next level)"),
            "finished: every address within the bounds was visited",
        ]
        stored = [row for row in rows(engine, f"{site}/pages.tsv") if row[5] == "stored"]
        assert len(stored) == 6
        assert len({row[0] for row in stored}) == 6  # none fetched twice
        assert (await ask(engine, "explore --resume", Outcome.INVALID))[0].startswith(
            "explore --resume: no unfinished exploration")
        redone = await ask(engine, f"explore --refresh {shop.url('/index.html')} --depth 0")
        assert ": 1 pages stored" in redone[0]
        assert shop.trapped() == []

    run(tmp_path, body)


def test_the_time_bound_stops_a_slow_site(tmp_path: Path) -> None:
    slow = ShopSite(delay=0.6)
    try:
        async def body(engine: Engine) -> None:
            lines = await ask(engine, f"explore {slow.url('/index.html')} --time 1")
            assert any(line.startswith("stopped: time: --time 1 s; ") for line in lines), lines

        run(tmp_path, body)
    finally:
        slow.close()


def test_a_walk_given_more_time_than_the_command_deadline_takes_it_and_says_what_is_left(
    tmp_path: Path,
) -> None:
    slow = ShopSite(delay=0.6)
    try:
        async def body(engine: Engine) -> None:
            lines = await ask(engine, f"explore {slow.url('/index.html')} --time 4")
            assert any(line.startswith("stopped: time: --time 4 s; ") for line in lines), lines
            left = next(line for line in lines if line.startswith("not finished"))
            assert re.fullmatch(r"not finished: `explore --resume` continues where it stopped "
                                r"\(at this run's pace, \d+ addresses take about (\d+) s more: "
                                r"`explore --resume --time \1`\)", left), left

        run(tmp_path, body, deadline=2.0)  # the mount's deadline: the walk asked for more
    finally:
        slow.close()

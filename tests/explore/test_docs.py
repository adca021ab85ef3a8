"""`explore` of a small manual over plain HTTP (tests/explore/docs_site.py): a link that
redirects is recorded with where it landed, and two such links are one page; pages whose
addresses differ by a slug are one template and the map names their address; a list's further
items (by number or by slug) are put off until the rest of the site was walked, and listed
when a bound stops it first; a resume with a deeper --depth follows the links kept past the
old one."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from urllib.parse import urlsplit

import pytest

from tests.explore.docs_site import DocsSite
from tests.explore.engine_run import ask, read, rows, run
from webshellfs.engine import Engine
from webshellfs.explore import DEFAULT_BOUNDS, Explorer
from webshellfs.explore.sitemap import render_map


@pytest.fixture
def docs() -> Iterator[DocsSite]:
    site = DocsSite()
    yield site
    site.close()


def site_dir(docs: DocsSite) -> str:
    return "_sites/127.0.0.1-" + docs.base.rpartition(":")[2]


def by_path(engine: Engine, path: str) -> dict[str, list[str]]:
    return {urlsplit(row[0]).path: row for row in rows(engine, path)}


def test_redirects_slugs_and_a_lists_items(tmp_path: Path, docs: DocsSite) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"explore {docs.url('/index.html')}")
        assert "finished: every address within the bounds was visited" in lines
        site = site_dir(docs)
        pages = by_path(engine, f"{site}/pages.tsv")
        # Two old addresses redirect to the history page: one page, stored once, and each
        # address leads to it.
        history = pages["/guide/history.html"]
        assert history[5] == "stored" and history[1] == "History"
        for old in ("/old-intro.html", "/moved/intro"):
            assert pages[old][4] == history[4]
            assert pages[old][5] == f"redirects → {docs.url('/guide/history.html')}"
        assert [row[4] for row in pages.values()].count(history[4]) == 3
        # … and the cache holds it once: the second redirect was not stored again.
        cached = [row for row in rows(engine, "_pages.tsv") if "/guide/history.html" in row[-1]]
        assert len(cached) == 1, cached
        assert sum(1 for row in pages.values() if row[5] == "stored") == 15
        paths = by_path(engine, f"{site}/paths.tsv")
        assert paths["/guide/history.html"][1] == paths["/moved/intro"][1] == history[4]
        assert paths["/guide/history.html"][2].endswith('"Introduction (old address)" '
                                                       f"[L0005 on {pages['/index.html'][4]}]")
        # The guide pages share a template whatever their slug; the map names their address.
        guide = pages["/guide/intro.html"][2]
        assert {pages[f"/guide/{slug}.html"][2] for slug in ("install", "usage")} == {guide}
        templates = {row[0]: row for row in rows(engine, f"{site}/templates.tsv")}
        assert templates[guide][1:4] == ["4", "0", "/guide/{slug}.html"]
        example = pages["/example/1.html"][2]
        assert templates[example][1:4] == ["6", "0", "/example/{n}.html"]
        site_map = read(engine, f"{site}/map.md")
        assert f"- {guide} /guide/{{slug}}.html: 4 stored; e.g. /guide/intro.html" in site_map

    run(tmp_path, body)


def test_a_lists_items_wait_for_the_rest_of_the_site(tmp_path: Path, docs: DocsSite) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"explore {docs.url('/index.html')} --pages 11")
        assert "stopped: pages: 11 stored (--pages 11); 4 addresses not visited" in lines
        site = site_dir(docs)
        pages = by_path(engine, f"{site}/pages.tsv")
        # The note three links deep was found after the third example, and stored before it;
        # the third guide page (its address a slug in /guide/, like two stored) waited too.
        assert pages["/chapter/section/note.html"][5] == "stored"
        order = list(pages)
        assert order.index("/guide/usage.html") > order.index("/chapter/section/note.html")
        example = pages["/example/1.html"][2]
        listed = {path: row[2] for path, row in pages.items() if row[5] == "listed"}
        assert listed == {f"/example/{n}.html": example for n in (3, 4, 5, 6)}
        assert f"{example} /example/{{n}}.html: 2 stored, 4 more listed by their address" in (
            read(engine, f"{site}/map.md"))
        resumed = await ask(engine, "explore --resume --pages 50")
        assert ": 4 pages stored" in resumed[0]
        assert "finished: every address within the bounds was visited" in resumed
        fetched = [path for path in docs.requests if path.startswith("/example/")]
        assert sorted(fetched) == sorted(set(fetched))  # none twice

    run(tmp_path, body)


def test_a_deeper_depth_on_resume_follows_the_links_past_the_old_one(
        tmp_path: Path, docs: DocsSite) -> None:
    async def body(engine: Engine) -> None:
        lines = await ask(engine, f"explore {docs.url('/index.html')} --depth 1")
        assert "finished: every address within the bounds was visited" in lines
        assert ("depth: 7 addresses deeper than --depth 1 were not followed (`explore --resume "
                "--depth 2` follows the next level)") in lines
        site = site_dir(docs)
        pages = by_path(engine, f"{site}/pages.tsv")
        assert pages["/chapter/section.html"][3:] == ["2", "", "past --depth 1"]
        resumed = await ask(engine, "explore --resume --depth 2")
        assert ": 7 pages stored" in resumed[0], resumed
        assert "depth: 1 addresses deeper than --depth 2 were not followed" in resumed[2]
        again = await ask(engine, "explore --resume --depth 5")
        assert ": 1 pages stored" in again[0], again
        pages = by_path(engine, f"{site}/pages.tsv")
        note = pages["/chapter/section/note.html"]
        assert note[3:4] + note[5:] == ["3", "stored"]
        steps = by_path(engine, f"{site}/paths.tsv")["/chapter/section/note.html"][2]
        assert steps.count(" > ") == 3  # its path from the start, kept while it waited
        fetched = [path for path in docs.requests if path != "/robots.txt"]
        # Each page once, but the history page twice: each old address was followed to it.
        assert len(fetched) - len(set(fetched)) == fetched.count("/guide/history.html") - 1 == 1

    run(tmp_path, body)


def test_a_map_says_so_when_the_start_page_has_no_navigation_and_how_to_find_a_page() -> None:
    state = Explorer.new_state("http://docs.example/index.html", DEFAULT_BOUNDS)
    site_map = render_map(state)
    assert "## Top navigation (the start page's header and menus)\n- none: the start page has no " \
        "header or nav region; its links are the site's contents" in site_map
    assert ("find a page: grep -i 'WORDS' _sites/docs.example/pages.tsv (by title), or grep -rli "
            "'WORDS' N*/content/ (by its text: every page stored is there)") in site_map

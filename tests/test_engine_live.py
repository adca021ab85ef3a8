"""The engine with the real Chromium on the live fixture site: open makes live tabs, execute makes
pages and states, focus and close keep `_pages.tsv` true, a stored page is reopened before it
is acted on. One browser for the module; each test has its own store and closes its tabs."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import pytest
import trio

from tests.browser.live_site import LiveSite
from tests.conftest import chromium_path, require
from tests.search.site import start_site
from webshellfs.browser import Browser, BrowserFetcher, BrowserOptions
from webshellfs.config import Settings
from webshellfs.engine import Engine, Outcome
from webshellfs.fetch.http import HttpFetcher
from webshellfs.store import Store

Body = Callable[[Engine, LiveSite], Awaitable[None]]
MAX_TABS = 3  # small, so a test reaches the pool's cap


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    shared = Browser(
        BrowserOptions(
            chromium=chromium,
            allow_private=True,
            load_timeout=20.0,
            action_timeout=10.0,
            settle_cap=2.0,
            max_tabs=MAX_TABS,
        )
    )
    yield shared
    shared.close_blocking()


@pytest.fixture
def drive(tmp_path: Path, browser: Browser, live: LiveSite) -> Callable[[Body], None]:
    def run(body: Body) -> None:
        async def main() -> None:
            config = Settings(
                mountpoint=tmp_path / "mnt",
                cache=tmp_path / "cache.sqlite",
                allow_private=True,
                fetch_timeout=20.0,
                command_deadline=90.0,
            )
            plain = HttpFetcher(config)
            engine = Engine(
                Store(config.cache), BrowserFetcher(browser), config, plain_fetcher=plain
            )
            try:
                await body(engine, live)
            finally:
                # The browser is the module's: close only this test's tabs.
                for tab, _ in await browser.tabs():
                    await browser.close_tab(tab)
                await plain.aclose()
                engine.store.close()

        trio.run(main)

    return run


async def ask(engine: Engine, line: str, outcome: Outcome = Outcome.OK) -> list[str]:
    """The response's lines after its first (`R0001 ok: …`), checking the outcome."""
    response = await engine.command(line, "s1")
    assert response.outcome is outcome, response.text
    return response.text.splitlines()[1:]


def read(engine: Engine, path: str) -> str:
    entry = engine.entry(path)
    assert entry is not None, path
    return engine.read(path, 0, entry.size).decode()


def pages(engine: Engine) -> list[str]:
    """_pages.tsv rows without the URL column (the port changes)."""
    rows = read(engine, "_pages.tsv").splitlines()[1:]
    return ["\t".join(row.split("\t")[:5]) for row in rows]


def test_open_makes_the_page_active_and_the_one_before_live(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        lines = await ask(engine, f"open {live.url('/product.html')}")
        assert lines == [
            "N0001  Trail shoe",
            f"url: {live.url('/product.html')}",
            "content/01-trail-shoe.md:",
            '  Size [A0001 size: select "Size" = "Small"]',
            "  Price: 40 EUR",
            '  [A0002 gift=on: checkbox "Gift wrap"] Gift wrap [A0003 button "Add to cart"]',
            "  Cart: empty",
            "actions:",
            '  A0001 select "Size" size(select: s=Small|m=Medium|l=Large; current=s)',
            '  A0002 checkbox "Gift wrap" gift(checkbox: on=Gift wrap)',
            '  A0003 button "Add to cart"',
            "0 links · 3 actions · 2 facts",
            "all of N0001/content/ is above",
            lines[-1],
        ]
        assert lines[-1].startswith("live in tab t") and lines[-1].endswith(" (status active)")
        await ask(engine, f"open {live.url('/search.html')}")
        assert pages(engine) == [
            "N0001\t\topen\tlive\tTrail shoe",
            "N0002\t\topen\tactive\tArchive search",
        ]
        assert await ask(engine, "focus N0001") == [
            f"focused N0001 (tab {lines[-1].split()[3]})",
            "→ N0001 is the current state (unchanged since it was captured)",
        ]
        assert pages(engine)[:2] == [
            "N0001\t\topen\tactive\tTrail shoe",
            "N0002\t\topen\tlive\tArchive search",
        ]

    drive(body)


def test_choosing_a_size_makes_a_state_with_the_new_price(drive: Callable[[Body], None]) -> None:
    changed = [  # what the answer shows, and _state.md keeps
        '  - content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Small"]',
        "  - content/01-trail-shoe.md:3: Price: 40 EUR",
        '  + content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Medium"]',
        "  + content/01-trail-shoe.md:3: Price: 45 EUR",
    ]

    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/product.html')}")
        assert await ask(engine, "execute N0001 A0001 size=m") == [
            'executed A0001 select "Size" with size=m on N0001',
            "→ N0002 new state of N0001: 2 changed, 0 added, 0 removed (see N0002/_state.md)",
            *changed,
        ]
        assert read(engine, "N0002/_state.md") == (
            '# state\nprevious: N0001\naction: A0001 select "Size"\ninputs: size=m\n\n'
            "## what changed (4 lines)\n" + "".join(line[2:] + "\n" for line in changed) + "\n"
            "## changed (2)\nactions.tsv\ncontent/01-trail-shoe.md\n\n## added (0)\n\n"
            "## removed (0)\n"
        )
        assert "Price: 45 EUR" in read(engine, "N0002/content/01-trail-shoe.md").splitlines()
        assert "Price: 40 EUR" in read(engine, "N0001/content/01-trail-shoe.md").splitlines()
        assert read(engine, "N0002/_map.md").splitlines()[2] == (
            'page: N0002 (state of N0001 after A0001 select "Size")'
        )
        assert pages(engine) == [
            "N0001\t\topen\tstored\tTrail shoe",
            "N0002\tN0001\tA0001\tactive\tTrail shoe",
        ]
        # Back to Small: the same as N0001, whose address is reused.
        assert await ask(engine, "execute N0002 A0001 size=Small") == [
            'executed A0001 select "Size" with size=Small on N0002',
            "→ N0001: the same as an earlier state, reused (nothing new stored)",
            '  - content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Medium"]',
            "  - content/01-trail-shoe.md:3: Price: 45 EUR",
            '  + content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Small"]',
            "  + content/01-trail-shoe.md:3: Price: 40 EUR",
        ]
        # Small again: nothing changes, nothing is stored, and the response says so.
        assert await ask(engine, "execute N0001 A0001 size=s") == [
            'executed A0001 select "Size" with size=s on N0001',
            (
                "→ unchanged: N0001 still shows the same content; nothing new was stored "
                "(the action ran)"
            ),
        ]
        assert pages(engine) == [
            "N0001\t\topen\tactive\tTrail shoe",
            "N0002\tN0001\tA0001\tstored\tTrail shoe",
        ]

    drive(body)


def test_wrong_inputs_are_refused_with_the_valid_ones_before_acting(
    drive: Callable[[Body], None],
) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/search.html')}")
        search_inputs = (
            'q(search "Search the archive",required) year(select: ""=Any year|2009|2019; current=)'
        )
        assert await ask(engine, "execute N0001 A0001 query=old", Outcome.INVALID) == [
            f"unknown input 'query' for A0001 form \"Search\"; valid inputs: {search_inputs}"
        ]
        assert await ask(engine, "execute N0001 A0001 year=2009", Outcome.INVALID) == [
            f"missing required input 'q' for A0001 form \"Search\"; valid inputs: {search_inputs}"
        ]
        assert await ask(engine, "execute N0001 A0001 q=old year=1999", Outcome.INVALID) == [
            "no choice '1999' for year; choices: \"\"=Any year | 2009 | 2019"
        ]
        assert await ask(engine, "execute N0001 A0009", Outcome.INVALID) == [
            "no action A0009 on N0001; see N0001/actions.tsv"
        ]
        assert pages(engine) == ["N0001\t\topen\tactive\tArchive search"]
        assert live.requests.count("/search.html") >= 1
        assert not [r for r in live.requests if r.startswith("/search?")]

    drive(body)


def test_searching_the_archive_finds_an_old_article(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/search.html')}")
        results = live.url("/search?q=lighthouse&year=2009")
        assert await ask(engine, "execute N0001 A0001 q=lighthouse year=2009") == [
            'executed A0001 form "Search" with q=lighthouse year=2009 on N0001',
            "→ N0002 new page: Results for lighthouse",
            f"url: {results}",
            "content/01-results-for-lighthouse.md:",
            "  3 articles from 2009.",
            "  1. Lighthouse, part 1 [L0001]",
            "  2. Lighthouse, part 2 [L0002]",
            "  3. Lighthouse, part 3 [L0003]",
            "3 links · 0 actions · 2 facts",
            "all of N0002/content/ is above",
        ]
        text = read(engine, "N0002/content/01-results-for-lighthouse.md").splitlines()
        assert "3 articles from 2009." in text
        assert pages(engine) == [
            "N0001\t\topen\tstored\tArchive search",
            "N0002\tN0001\tA0001\tactive\tResults for lighthouse",
        ]
        # A page reached by navigating (not a state) is reopened from its own URL.
        await ask(engine, "close N0002")
        lines = await ask(engine, "execute N0002 L0001")
        assert lines[:2] == [
            f'executed L0001 link "Lighthouse, part 1" → {live.url("/article/1")} on N0002',
            "reopened: N0002 had no open tab; the tab shows N0002",
        ]
        assert lines[2].startswith("→ N0003 new page: ")

    drive(body)


def test_logging_in_reaches_the_account_page(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/login.html')}")
        lines = await ask(engine, "execute N0001 A0001 user=alice password=secret")
        assert lines[:2] == [
            'executed A0001 form "Sign in" with user=alice password=secret on N0001',
            "→ N0002 new page: Your account",
        ]
        assert "Signed in as alice." in read(engine, "N0002/content/01-your-account.md")
        # The session cookie stays in the browser: the account page opened again knows alice.
        await ask(engine, f"open {live.url('/account')}")
        assert "Signed in as alice." in read(engine, "N0003/content/01-your-account.md")

    drive(body)


def test_load_more_until_item_40(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/more.html')}")
        # The JSON the page fetched while loading is kept as a resource of the page.
        assert read(engine, "N0001/resources.tsv").splitlines()[1].split("\t")[:3] == [
            "R0001",
            live.url("/api/items?offset=0&limit=10"),
            "application/json",
        ]
        assert read(engine, "N0001/resources/R0001.json").startswith(
            '{"items": [{"name": "Item 1"}'
        )
        page = "N0001"
        for _ in range(3):
            lines = await ask(engine, f"execute {page} A0001")
            page = lines[1].split()[1]
        assert page == "N0004"
        items = read(engine, "N0004/content/01-items.md").splitlines()
        assert items[-1] == "- Item 40"
        assert "- Item 40" not in read(engine, "N0003/content/01-items.md").splitlines()
        # The last page of items removed the button: no action is left to run.
        assert await ask(engine, "execute N0004 A0001", Outcome.INVALID) == [
            "no action A0001 on N0004; see N0004/actions.tsv"
        ]

    drive(body)


def test_a_closed_page_is_reopened_and_then_acted_on(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        opened = await ask(engine, f"open {live.url('/product.html')}")
        tab = next(line for line in opened if line.startswith("live in tab")).split()[3]
        assert await ask(engine, "close N0001") == [
            f"closed tab {tab}; N0001 stays readable, status stored"
        ]
        assert pages(engine) == ["N0001\t\topen\tstored\tTrail shoe"]
        assert await ask(engine, "execute N0001 A0001 size=l") == [
            'executed A0001 select "Size" with size=l on N0001',
            "reopened: N0001 had no open tab; the tab shows N0001",
            "→ N0002 new state of N0001: 2 changed, 0 added, 0 removed (see N0002/_state.md)",
            '  - content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Small"]',
            "  - content/01-trail-shoe.md:3: Price: 40 EUR",
            '  + content/01-trail-shoe.md:2: Size [A0001 size: select "Size" = "Large"]',
            "  + content/01-trail-shoe.md:3: Price: 50 EUR",
        ]
        assert "Price: 50 EUR" in read(engine, "N0002/content/01-trail-shoe.md").splitlines()
        assert pages(engine) == [
            "N0001\t\topen\tstored\tTrail shoe",
            "N0002\tN0001\tA0001\tactive\tTrail shoe",
        ]

    drive(body)


def test_a_tab_closed_between_finding_it_and_acting_is_reopened(
    drive: Callable[[Body], None]
) -> None:
    # The race the tab cap can cause: another session's open closes the tab after execute
    # found it. Made certain here by closing the tab just before the first act reaches it.
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/product.html')}")
        browser = engine.live.browser
        act = browser.execute
        calls: list[str] = []

        async def close_first(tab: str, *args: object) -> object:
            calls.append(tab)
            if len(calls) == 1:
                await browser.close_tab(tab)
            return await act(tab, *args)

        browser.execute = close_first  # type: ignore[method-assign]
        try:
            lines = await ask(engine, "execute N0001 A0001 size=l")
        finally:
            del browser.execute
        assert len(calls) == 2 and calls[0] != calls[1]
        assert lines[:2] == ['executed A0001 select "Size" with size=l on N0001',
                             "reopened: N0001 had no open tab; the tab shows N0001"]
        assert "Price: 50 EUR" in read(engine, "N0002/content/01-trail-shoe.md").splitlines()

    drive(body)


def test_a_control_that_the_reopened_page_lacks_is_not_acted_on(
    drive: Callable[[Body], None],
) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/combobox.html')}")
        await ask(engine, "execute N0001 A0001")  # opens the list box: state N0002 offers colours
        await ask(engine, "close N0002")
        assert await ask(engine, "execute N0002 A0004 value=red", Outcome.FAILED) == [
            (
                "reopened: N0002 had no open tab (it is a state made by an action: its URL is "
                "reopened as it loads now); the tab shows N0001 (as in that earlier state)"
            ),
            (
                "did not act: the reopened page has no select control labelled 'Red Blue'; "
                "the current page is N0001 (see N0001/actions.tsv)"
            ),
        ]
        assert pages(engine) == [
            "N0001\t\topen\tactive\tPaint",
            "N0002\tN0001\tA0001\tstored\tPaint",
        ]

    drive(body)


def test_an_alert_is_answered_and_reported(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/alert.html')}")
        assert await ask(engine, "execute N0001 A0001") == [
            'executed A0001 button "Save" on N0001',
            "→ N0002 new state of N0001: 1 changed, 0 added, 0 removed (see N0002/_state.md)",
            "  + content/01-settings.md:3: Saved",  # a message: first
            "  - content/01-settings.md:3: Unsaved",
            "dialog: alert 'Saved!' → accepted",
        ]

    drive(body)


def test_a_link_is_followed_in_the_same_tab(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/index.html')}")
        assert read(engine, "N0001/links.tsv").splitlines()[3].split("\t")[:2] == [
            "L0003",
            live.url("/product.html"),
        ]
        assert await ask(engine, "execute N0001 L0003") == [
            f'executed L0003 link "Product with sizes" → {live.url("/product.html")} on N0001',
            "→ N0002 new page: Trail shoe",
            f"url: {live.url('/product.html')}",
            "content/01-trail-shoe.md:",
            '  Size [A0001 size: select "Size" = "Small"]',
            "  Price: 40 EUR",
            '  [A0002 gift=on: checkbox "Gift wrap"] Gift wrap [A0003 button "Add to cart"]',
            "  Cart: empty",
            "actions:",
            '  A0001 select "Size" size(select: s=Small|m=Medium|l=Large; current=s)',
            '  A0002 checkbox "Gift wrap" gift(checkbox: on=Gift wrap)',
            '  A0003 button "Add to cart"',
            "0 links · 3 actions · 2 facts",
            "all of N0002/content/ is above",
        ]
        assert pages(engine) == [
            "N0001\t\topen\tstored\tLive fixture site",
            "N0002\tN0001\tL0003\tactive\tTrail shoe",
        ]

    drive(body)


def test_a_browser_that_cannot_start_falls_back_to_plain_http(
    tmp_path: Path, live: LiveSite
) -> None:
    async def main() -> None:
        config = Settings(
            mountpoint=tmp_path / "mnt",
            cache=tmp_path / "cache.sqlite",
            allow_private=True,
            fetch_timeout=20.0,
            command_deadline=90.0,
        )
        broken = Browser(BrowserOptions(chromium=str(tmp_path / "no-chromium"), allow_private=True))
        engine = Engine(
            Store(config.cache), BrowserFetcher(broken), config, plain_fetcher=HttpFetcher(config)
        )
        try:
            lines = await ask(engine, f"open {live.url('/product.html')}")
            assert lines[0] == "N0001  Trail shoe"
            assert lines[-1] == (
                "note: the browser could not load it (cannot start the browser "
                f"({tmp_path / 'no-chromium'}): BrowserType.launch: Failed to launch chromium "
                f"because executable doesn't exist at {tmp_path / 'no-chromium'}); fetched over "
                "plain HTTP, no live tab"
            )
            assert pages(engine) == ["N0001\t\topen\tstored\tTrail shoe"]
            lines = await ask(engine, "execute N0001 A0001 size=m", Outcome.FAILED)
            assert lines[0].startswith(
                f"did not act: N0001 had no open tab, and reopening {live.url('/product.html')} "
                "failed: cannot start the browser"
            )
        finally:
            await engine.aclose()

    trio.run(main)


def test_a_popup_becomes_a_live_page(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/popup.html')}")
        assert read(engine, "N0001/actions.tsv").splitlines()[1].split("\t")[:3] == [
            "A0001",
            "click",
            "Open help",
        ]
        lines = await ask(engine, "execute N0001 A0001")
        assert lines[0] == 'executed A0001 button "Open help" on N0001'
        via = "A0001"
        if not lines[-1].startswith("popup:"):
            # The popup opened after the capture: the next call on that tab reports it.
            lines = await ask(engine, "focus N0001")
            via = "focus"
        assert lines[-1] == f"popup: N0002 {live.url('/tabs.html')} (live in its own tab)"
        assert pages(engine)[1] == f"N0002\tN0001\t{via} popup\tlive\tSpecs"
        assert (await ask(engine, "close N0002"))[0].endswith("N0002 stays readable, status stored")
        assert await ask(engine, "close N0002") == [
            "N0002 has no open tab; nothing to close (it stays stored)"
        ]

    drive(body)


def test_the_tab_the_pool_closes_makes_its_page_stored(drive: Callable[[Body], None]) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        for path in ("/index.html", "/product.html", "/search.html"):
            await ask(engine, f"open {live.url(path)}")
        lines = await ask(engine, f"open {live.url('/login.html')}")
        assert lines[-1] == "tabs closed to stay under the cap: N0001 now stored"
        assert [row.split("\t")[3] for row in pages(engine)] == ["stored", "live", "live", "active"]
        # Executing on it reopens it: a tab again, and the pool closes the next oldest.
        lines = await ask(engine, "execute N0001 L0003")
        assert lines[1] == "reopened: N0001 had no open tab; the tab shows N0001"
        assert [row.split("\t")[3] for row in pages(engine)] == [
            "stored",
            "stored",
            "live",
            "live",
            "active",
        ]

    drive(body)


def test_retrieve_renders_results_in_the_browser_and_keeps_no_tab(
    tmp_path: Path, browser: Browser
) -> None:
    search_site = start_site()
    config = Settings(
        mountpoint=tmp_path / "mnt",
        cache=tmp_path / "cache.sqlite",
        allow_private=True,
        fetch_timeout=20.0,
        command_deadline=90.0,
        search=f"searxng={search_site.url}",
    )

    async def main() -> None:
        plain = HttpFetcher(config)
        engine = Engine(Store(config.cache), BrowserFetcher(browser), config, plain_fetcher=plain)
        try:
            lines = await ask(engine, "retrieve -k 2 rain wall")
            assert lines[1:4] == [
                f'1. N0001 "Rain gardens" {search_site.url}pages/normal.html',
                "   content/: 01-rain-gardens",
                (
                    f'2. failed: CAPTCHA/bot wall (HTTP 403, cf-challenge) — "Walled gardens" '
                    f"{search_site.url}pages/wall.html"
                ),
            ]
            assert pages(engine) == ["N0001\t\tretrieve\tstored\tRain gardens"]
            assert await browser.tabs() == ()
        finally:
            await plain.aclose()
            engine.store.close()

    try:
        trio.run(main)
    finally:
        search_site.stop()


def test_a_page_that_never_loads_times_out_without_falling_back(
    tmp_path: Path, live: LiveSite
) -> None:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    impatient = Browser(
        BrowserOptions(chromium=chromium, allow_private=True, load_timeout=3.0, settle_cap=1.0)
    )
    config = Settings(mountpoint=tmp_path / "mnt", cache=tmp_path / "cache.sqlite",
                      allow_private=True, fetch_timeout=3.0, command_deadline=90.0)  # fmt: skip

    async def main() -> None:
        engine = Engine(Store(config.cache), BrowserFetcher(impatient), config,
                        plain_fetcher=HttpFetcher(config))  # fmt: skip
        try:
            never = live.url("/never")
            assert await ask(engine, f"open {never}", Outcome.TIMEOUT) == [
                f"{never} did not finish loading within 3 s"
            ]
            assert pages(engine) == []
        finally:
            await engine.aclose()

    trio.run(main)
    assert live.requests.count("/never") == 1  # the browser's only: no plain-HTTP retry


def test_a_value_the_page_did_not_take_is_answered_with_what_it_shows(
    drive: Callable[[Body], None],
) -> None:
    # Web components that keep their own state: a select and a list box in open shadow roots,
    # each listing a choice out of stock that it will not take.
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/print.html')}")
        assert await ask(engine, "execute N0001 A0001 value=Poster", Outcome.FAILED) == [
            'executed A0001 select "Paper size" with value=Poster on N0001',
            "not as asked: asked Poster; the field shows A3 landscape",
            "→ unchanged: N0001 still shows the same content; nothing new was stored "
            "(the action ran)",
        ]
        lines = await ask(engine, 'execute N0001 A0001 value="A4 portrait"')
        assert lines[:2] == [
            'executed A0001 select "Paper size" with value=A4 portrait on N0001',
            "→ N0002 new state of N0001: 2 changed, 0 added, 0 removed (see N0002/_state.md)",
        ]
        assert "  + content/01-print-shop.md:4: Size: A4 portrait" in lines
        assert await ask(engine, "execute N0002 A0002 value=Satin", Outcome.FAILED) == [
            'executed A0002 listbox "Finish" with value=Satin on N0002',
            "not as asked: asked Satin; the field shows Gloss",
            "→ unchanged: N0002 still shows the same content; nothing new was stored "
            "(the action ran)",
        ]
        lines = await ask(engine, "execute N0002 A0002 value=matte")
        assert lines[1].startswith("→ N0003 new state of N0002")
        assert "Finish: Matte" in read(engine, "N0003/content/01-print-shop.md").splitlines()
        # A slider that moves by fives steps past 12; the state it made is stored all the same.
        lines = await ask(engine, "execute N0003 A0003 value=12", Outcome.FAILED)
        assert lines[1] == "not as asked: asked 12; the control shows 16"
        assert lines[2].startswith("→ N0004 new state of N0003")
        assert "Copies are printed in packs of 5: 16 copies" in read(
            engine, "N0004/content/01-print-shop.md").splitlines()
        # A date typed as the page writes it shows in the field's own form: no difference.
        await ask(engine, "execute N0004 A0004 value=01/26/2010")
        assert "Due: 2010-01-26" in read(engine, "N0005/content/01-print-shop.md").splitlines()

    drive(body)


def test_boxes_sharing_a_name_are_all_set_or_the_answer_names_those_that_are_not(
    drive: Callable[[Body], None],
) -> None:
    # A list's row selection: boxes named ids, a required owner that already holds Katherine.
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/orders.html')}")
        inputs = read(engine, "N0001/actions.tsv").splitlines()[1].split("\t")[4]
        assert "owner(select,required: \"\"=---------|3=Alan|7=Katherine; current=7)" in inputs
        lines = await ask(engine, "execute N0001 A0001 ids=101|103 action=ship tags=urgent|Gift")
        assert lines[1].startswith("→ N0002 new state of N0001")
        text = read(engine, "N0002/content/01-orders.md").splitlines()
        assert "2 of 4 selected" in text
        assert "Done: Mark shipped on 101, 103 by Katherine; tags urgent, gift; notify yes" in text
        # off unticks: a whole group, and a box of its own.
        lines = await ask(engine, "fill N0002 A0001 ids=off notify=off")
        assert lines[1].startswith("→ N0003 new state of N0002")
        assert "0 of 4 selected" in read(engine, "N0003/content/01-orders.md").splitlines()
        assert "notify(checkbox: on=Notify customers)" in read(engine, "N0003/actions.tsv")
        # A locked row takes no tick: the answer names it, and the form is not submitted.
        lines = await ask(engine, "execute N0003 A0001 ids=102|104 action=hold", Outcome.FAILED)
        assert lines == [
            'executed A0001 form "Orders" with ids=102|104 action=hold on N0003',
            "not as asked: ids: asked 102|104; not ticked: Select order 104",
            "not submitted: the form holds what N0004 shows; set the fields again or submit it "
            "as it is",
            "→ N0004 new state of N0003: 2 changed, 0 added, 0 removed (see N0004/_state.md)",
            *lines[4:],
        ]
        assert "  + content/01-orders.md:4: 1 of 4 selected" in lines
        text = read(engine, "N0004/content/01-orders.md").splitlines()
        assert "1 of 4 selected" in text
        assert "Done: Mark shipped on 101, 103 by Katherine; tags urgent, gift; notify yes" in text
        assert await ask(engine, "execute N0004 A0001 ids=101|999", Outcome.INVALID) == [
            "no choice '999' for ids; choices: 101=Select order 101 | 102=Select order 102 | "
            "103=Select order 103 | 104=Select order 104 (off unticks them all)"
        ]
        # A box is named by its label as well, as the page gives it (aria-label here).
        lines = await ask(engine, 'fill N0004 A0001 ids="Select order 101|Select order 103"')
        assert lines[1].startswith("→ N0005 new state of N0004"), lines
        assert "2 of 4 selected" in read(engine, "N0005/content/01-orders.md").splitlines()

    drive(body)


def test_a_link_of_a_page_its_tab_moved_on_from_is_followed_from_the_page_opened_again(
    drive: Callable[[Body], None],
) -> None:
    # A list's second item after its first: the tab shows the first item's page, which has
    # no link to the second; the list is loaded again to take it, as a person goes back.
    async def body(engine: Engine, live: LiveSite) -> None:
        opened = await ask(engine, f"open {live.url('/index.html')}")
        tab = next(line for line in opened if line.startswith("live in tab")).split()[3]
        await ask(engine, 'execute N0001 "Sign in"')  # the tab moves on to N0002
        lines = await ask(engine, 'execute N0001 "Modal"')
        assert lines[1] == (f"reopened: N0001 is in no tab now (its tab moved on to N0002); "
                            "the tab shows N0001")
        assert lines[2] == "→ N0003 new page: Newsletter"  # modal.html
        assert pages(engine)[1].endswith("\tSign in")  # the tab that moved on keeps its page
        assert tab in [t for t, _ in await engine.live.browser.tabs()]

    drive(body)


def test_a_control_of_a_page_its_tab_moved_on_from_is_used_on_the_page_opened_again(
    drive: Callable[[Body], None],
) -> None:
    # The page as its URL loads, left by a link: a control the new page lacks is used on the
    # page opened again, as a person goes back to it; the tab that moved on keeps its page.
    async def body(engine: Engine, live: LiveSite) -> None:
        await ask(engine, f"open {live.url('/fixed.html')}")
        await ask(engine, 'execute N0001 "Front page"')  # the tab moves on to N0002
        lines = await ask(engine, 'execute N0001 "Start chat"')
        assert lines[1] == (f"reopened: N0001 is in no tab now (its tab moved on to N0002); "
                            "the tab shows N0001")
        assert lines[2].startswith("→ unchanged"), lines
        assert pages(engine) == ["N0001\t\topen\tactive\tTide tables",
                                 "N0002\tN0001\tL0001\tlive\tLive fixture site"]

    drive(body)


def test_an_earlier_state_of_a_live_tab_is_acted_on_where_the_tab_is_now(
    drive: Callable[[Body], None],
) -> None:
    async def body(engine: Engine, live: LiveSite) -> None:
        opened = await ask(engine, f"open {live.url('/draft.html')}")
        tab = next(line for line in opened if line.startswith("live in tab")).split()[3]
        await ask(engine, 'fill N0001 A0001 value="first line"')  # N0002 holds the typing
        # Save draft on N0001: the tab shows N0002, whose Save draft keeps what was typed.
        assert await ask(engine, "execute N0001 A0002") == [
            'executed A0002 button "Save draft" on N0001',
            f"earlier: tab {tab} showed N0001 before and shows N0002 now; acted on A0002 "
            'button "Save draft" of N0002',
            "→ N0003 new state of N0002: 1 changed, 0 added, 0 removed (see N0003/_state.md)",
            "  + content/01-draft.md:3: Saved: first line",  # a message: first
            "  - content/01-draft.md:3: Saved: nothing",
        ]
        assert "Saved: first line" in read(engine, "N0003/content/01-draft.md").splitlines()
        # Show tips removes its button: once the tab moved on, N0001's is nowhere to act on.
        lines = await ask(engine, "execute N0001 A0003")
        assert lines[1].startswith(f"earlier: tab {tab} showed N0001 before and shows N0003 now")
        assert await ask(engine, "execute N0002 A0003", Outcome.FAILED) == [
            f"did not act: tab {tab} showed N0002 before and shows N0004 now, and N0004 has no "
            "click control labelled 'Show tips' (see N0004/actions.tsv); nothing was done "
            f"(N0002 is a state an action made: `open {live.url('/draft.html')}` loads the page "
            "afresh)"
        ]
        assert "first line" in read(engine, "N0004/actions.tsv")  # nothing typed was lost
        assert await ask(engine, "focus N0001", Outcome.FAILED) == [
            f"N0001 has no tab of its own: tab {tab} showed it before and shows N0004 now "
            "(`focus N0004` captures the tab again)"
        ]
        assert pages(engine) == [
            "N0001\t\topen\tstored\tDraft",
            "N0002\tN0001\tA0001\tstored\tDraft",
            "N0003\tN0002\tA0002\tstored\tDraft",
            "N0004\tN0003\tA0003\tactive\tDraft",
        ]
        assert [t for t, _ in await engine.live.browser.tabs()] == [tab]

    drive(body)

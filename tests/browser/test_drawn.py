"""Drawn pages in the real Chromium: the capture measures an SVG's shapes and a canvas, the
compiled page describes them, and clicking "the red circle" by its action clicks it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import page_text, run
from tests.browser.live_site import LiveSite
from webshellfs.browser import Browser
from webshellfs.compiler import compile_page

pytestmark = pytest.mark.browser


def test_the_red_circle_is_described_and_clicked_among_others(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/shapes.html")))
    lines = page_text(page).splitlines()
    plan = lines.index('[drawing 320×200 "Seating plan": 5 shapes]')
    assert lines[plan + 1:plan + 7] == [
        "[rect grey 320×20 at 160,190]",
        "[A0001 circle blue r=12 at 40,80]",
        "[A0002 circle red r=12 at 100,80]",
        "[A0003 circle green r=12 at 160,80]",
        '[A0004 rect "Table 2" orange 60×40 at 230,60]',
        "Stage",
    ]
    assert '[A0005 canvas 200×100 "Sky map": a picture; see screenshot.png]' in lines
    actions = {a.label: a for a in compile_page(page.capture.body, page.capture.url).actions}
    red = actions["red circle"]
    assert (red.kind, red.control, red.context) == ("click", "circle",
                                                    "red #e53935, r=12, at 100,80")
    clicked = run(lambda: browser.execute(page.tab_id, red.locator, red.kind, {}))
    assert "Picked: red." in page_text(clicked)
    table = actions["Table 2"]
    clicked = run(lambda: browser.execute(page.tab_id, table.locator, table.kind, {}))
    assert "Picked: table 2." in page_text(clicked)
    sky = actions["Sky map"]
    clicked = run(lambda: browser.execute(page.tab_id, sky.locator, sky.kind, {}))
    assert "Picked: the sky." in page_text(clicked)

"""The contract between the compiler and the browser: an action compiled from a capture is
executed with its own kind and locator, as the engine will do it."""

from __future__ import annotations

import pytest

from tests.browser.conftest import page_text, run
from tests.browser.live_site import LiveSite
from webshellfs.browser import Browser, TabCapture
from webshellfs.compiler import compile_page
from webshellfs.contract.records import Action

pytestmark = pytest.mark.browser


def action(result: TabCapture, label: str) -> Action:
    page = compile_page(result.capture.body, result.capture.url,
                        content_type=result.capture.content_type)
    found = [a for a in page.actions if a.label == label]
    assert len(found) == 1, [(a.label, a.kind) for a in page.actions]
    return found[0]


def execute(browser: Browser, result: TabCapture, label: str, **values: str) -> TabCapture:
    chosen = action(result, label)
    return run(lambda: browser.execute(result.tab_id, chosen.locator, chosen.kind, values))


def test_compiled_select_checkbox_and_button(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/product.html")))
    assert "Price: 45 EUR" in page_text(execute(browser, page, "Size", size="Medium"))
    execute(browser, page, "Gift wrap", gift="yes")
    added = execute(browser, page, "Add to cart")
    assert "Cart: 1 trail shoe, size m" in page_text(added)
    assert [c.selected for c in action(added, "Gift wrap").fields[0].choices] == [True]


def test_compiled_form_submits_with_its_fields(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/search.html")))
    result = execute(browser, page, "Search", q="lighthouse", year="2019")
    assert result.navigated
    assert "3 articles from 2019." in page_text(result)


def test_compiled_radio_group_and_menu_item(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/combobox.html")))
    assert "Finish: gloss" in page_text(execute(browser, page, "Finish", finish="gloss"))
    assert "Primer: yes" in page_text(execute(browser, page, "Primer coat"))

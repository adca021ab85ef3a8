"""The contract between the compiler and the browser: an action compiled from a capture is
executed with its own kind and locator, as the engine will do it."""

from __future__ import annotations

import lxml.html
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


def visible(text: str, words: str) -> bool:
    """Whether a line shows words as visible now (not `[hidden until …]`)."""
    return any(words in line and "[hidden until" not in line for line in text.splitlines())


def test_menus_a_stylesheet_opens_on_hover_are_hover_targets(
    browser: Browser, site: LiveSite
) -> None:
    """fixtures/site/live/scripted/css-menu.html: no script, every menu shown by a `:hover` rule
    (inside @media and @supports, one nested with `&`). The items they hang from answer to
    hover; rules that only recolour, apply to print, or need what no browser supports mark
    nothing."""
    page = run(lambda: browser.open(site.url("/scripted/css-menu.html")))
    root = lxml.html.document_fromstring(page.capture.body)
    marked = [(el.tag, el.get("class")) for el in root.xpath("//*[@data-wsfs-op]")]
    # Fiction and About (Our people is hidden); the leaves, Home among them, match the rule's
    # `.bar li` but hold no list for it to show.
    assert marked == [("li", "opens"), ("li", "opens"), ("span", "hint")]
    text = page_text(page)
    assert '- [A0001 hover target "Fiction"] Fiction [L0002]' in text
    assert '- [A0002 hover target "About"] About' in text
    # Their dropdowns are told as closed, each line marked with what shows it.
    assert not visible(text, "Our people") and not visible(text, "Novels")
    assert '  [hidden until A0002 hover target "About"] - History [L' in text, text
    opened = execute(browser, page, "About")
    assert action(opened, "About").kind == "hover"
    nested = action(opened, "Our people")
    assert nested.kind == "hover" and nested.control == "hover target"
    assert "History [L" in page_text(opened)
    assert not visible(page_text(opened), "Booksellers")
    # The submenu's item shows its list by a nested rule (`.sub { &:hover > .team { … } }`).
    submenu = execute(browser, opened, "Our people")
    shown = page_text(submenu)
    assert "Booksellers [L" in shown and "Binders [L" in shown, shown
    # Words whose note the next sibling shows (`.hint:hover + .note`).
    assert '[A0003 hover target "Gift wrapping"]' in text and not visible(text, "Free over"), text
    assert "Free over 30 EUR." in page_text(execute(browser, page, "Gift wrapping"))


def test_a_stylesheet_of_another_origin_is_passed_over(browser: Browser, site: LiveSite) -> None:
    """The browser does not show a page's scripts the rules of another origin's stylesheet:
    its menu is not found (the capture does not fail); the page's own rule still is."""
    page = run(lambda: browser.open(site.url("/css-menu-elsewhere")))
    assert "/scripted/css-menu.css" in site.requests  # the browser has the stylesheet
    text = page_text(page)
    assert '- [A0001 hover target "Here"] Here' in text
    assert "- Elsewhere" in text and "hover target \"Elsewhere\"" not in text


def test_which_hover_rules_say_pointing_shows_something(browser: Browser, site: LiveSite) -> None:
    """fixtures/site/live/scripted/hover-rules.html: one box a rule, each commented there."""
    page = run(lambda: browser.open(site.url("/scripted/hover-rules.html")))
    root = lxml.html.document_fromstring(page.capture.body)
    assert root.xpath("//*[@data-wsfs-op]/@id") == ["a1", "a5", "a6"]

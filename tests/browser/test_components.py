"""Web components in the real Chromium (fixtures/site/live/components.html: a select, a switch
and tabs built as libraries build them, with open shadow roots and slotted children): each
control is listed once, a select's options before it is opened, and each is operated by its
action as a person would, choosing by label."""

from __future__ import annotations

import re

import pytest

from tests.browser.conftest import page_text, run
from tests.browser.live_site import LiveSite
from webshellfs.browser import Browser, Gesture, TabCapture
from webshellfs.compiler import compile_page
from webshellfs.contract.layout import format_inputs
from webshellfs.contract.records import Action

pytestmark = pytest.mark.browser


def actions(result: TabCapture) -> dict[str, Action]:
    page = compile_page(result.capture.body, result.capture.url)
    return {a.label: a for a in page.actions}


def order(result: TabCapture) -> str:
    return next(line for line in page_text(result).splitlines() if line.startswith("Order:"))


def act(browser: Browser, result: TabCapture, label: str, **values: str) -> TabCapture:
    chosen = actions(result)[label]
    return run(lambda: browser.execute(result.tab_id, chosen.locator, chosen.kind, values))


def test_each_control_once_with_a_select_s_options_before_it_opens(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/components.html")))
    found = actions(page)
    assert [(a.control, label) for label, a in found.items()] == [
        ("combobox", "Paper size"), ("combobox", "Finish"), ("checkbox", "Gift wrap"),
        ("tab", "Paper"), ("tab", "Delivery"),
    ]
    assert format_inputs(found["Paper size"]) == (
        "value(combobox: A4 portrait|A3 landscape|Poster; current=A3 landscape)")
    # Each instance's shadow ids are its own in the capture.
    body = page.capture.body.decode()
    assert len(set(re.findall(r'id="(listbox~s\d+)"', body))) == 2


def test_choose_by_label_switch_and_tab_as_a_person_does(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/components.html")))
    assert order(page) == "Order: A3 landscape, matte, no gift wrap."
    page = act(browser, page, "Paper size", value="Poster")
    assert order(page) == "Order: Poster, matte, no gift wrap."
    page = act(browser, page, "Finish", value="gloss")
    assert order(page) == "Order: Poster, gloss, no gift wrap."
    page = act(browser, page, "Gift wrap", value="on")
    assert order(page) == "Order: Poster, gloss, gift wrap."
    assert "Ships in two days." not in page_text(page)
    page = act(browser, page, "Delivery")
    assert "Ships in two days." in page_text(page)
    assert "tab \"Delivery\" selected" in page_text(page)


def test_clicking_a_component_s_label_does_what_the_browser_does(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/components.html")))
    clicked = run(lambda: browser.execute(page.tab_id, "", "click", {},
                                          Gesture(name="click", text="Gift wrap")))
    assert order(clicked) == "Order: A3 landscape, matte, gift wrap."

"""execute in the real Chromium: forms, selects, clicks, dialogs, popups, downloads and frames,
each checked through the capture that follows (compiled like any page)."""

from __future__ import annotations

import re

import time

import pytest
import trio

from tests.browser.conftest import locator_of, page_text, run
from tests.browser.live_site import LIVE_ROOT, LiveSite
from webshellfs.browser import Browser, DialogRecord, DownloadRecord, TabCapture
from webshellfs.errors import NotFoundError, UsageError

pytestmark = pytest.mark.browser


def test_search_form_filled_in_one_step_yields_the_results_page(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/search.html")))
    form = locator_of(page, "//form")
    result = run(lambda: browser.execute(page.tab_id, form, "submit",
                                         {"q": "volcano", "year": "2009"}))
    assert result.navigated
    assert result.tab_id == page.tab_id
    assert result.capture.url == site.url("/search?q=volcano&year=2009")
    text = page_text(result)
    assert "Results for volcano" in text
    assert "3 articles from 2009." in text
    assert "Volcano, part 3" in text


def test_enter_on_a_search_field_submits_it(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/search.html")))
    field = locator_of(page, "//input[@name='q']")
    result = run(lambda: browser.execute(page.tab_id, field, "enter", {"q": "old article"}))
    assert result.navigated
    assert result.capture.url == site.url("/search?q=old+article&year=")
    assert "Results for old article" in page_text(result)


def test_login_keeps_its_session_cookie_across_tabs(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/login.html")))
    form = locator_of(page, "//form")
    result = run(lambda: browser.execute(page.tab_id, form, "submit", {
        "user": "alice", "password": "secret", "remember": "yes"}))
    assert result.navigated
    assert result.capture.url == site.url("/account")
    assert "Signed in as alice." in page_text(result)
    other_tab = run(lambda: browser.open(site.url("/account")))
    assert other_tab.tab_id != page.tab_id
    assert "Signed in as alice." in page_text(other_tab)


def test_form_refuses_unknown_fields_before_acting(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/login.html")))
    form = locator_of(page, "//form")
    with pytest.raises(UsageError, match="the form has no field 'email'; its fields: user, "
                                         "password, remember"):
        run(lambda: browser.execute(page.tab_id, form, "submit", {"email": "a@b.c"}))
    still = run(lambda: browser.focus(page.tab_id))
    assert still.capture.url == site.url("/login.html")


def test_choosing_size_m_changes_the_price(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/product.html")))
    assert "Price: 40 EUR" in page_text(page)
    size = locator_of(page, "//select")
    by_label = run(lambda: browser.execute(page.tab_id, size, "select", {"size": "Medium"}))
    assert not by_label.navigated
    assert "Price: 45 EUR" in page_text(by_label)
    assert '<option value="m" selected="">Medium</option>' in by_label.capture.body.decode()
    by_value = run(lambda: browser.execute(page.tab_id, size, "select", {"size": "l"}))
    assert "Price: 50 EUR" in page_text(by_value)
    with pytest.raises(UsageError, match=r"no choice 'XL'; choices: s=small \| m=medium \| "
                                         r"l=large"):
        run(lambda: browser.execute(page.tab_id, size, "select", {"size": "XL"}))


def test_check_and_click_change_the_state(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/product.html")))
    gift = locator_of(page, "//input[@id='gift']")
    checked = run(lambda: browser.execute(page.tab_id, gift, "check"))
    assert '<input id="gift" type="checkbox" data-wsfs-id="w2" checked=""' in (
        checked.capture.body.decode())
    unchecked = run(lambda: browser.execute(page.tab_id, gift, "uncheck"))
    # Unchecked, and the box keeps the keyboard focus the click gave it.
    assert ('<input id="gift" type="checkbox" data-wsfs-id="w2" data-wsfs-focus="">'
            in unchecked.capture.body.decode())
    added = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button"), "click"))
    assert "Cart: 1 trail shoe, size s" in page_text(added)


def test_load_more_until_item_40(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/more.html")))
    more = locator_of(page, "//button[@id='more']")
    result = page
    for _ in range(3):
        result = run(lambda: browser.execute(page.tab_id, more, "click"))
        assert len(result.resources) == 1
    assert result.resources[0].url == site.url("/api/items?offset=30&limit=10")
    text = page_text(result)
    assert "Item 40" in text
    assert "Load more" not in text


def test_tabs_and_accordion_reveal_their_panels(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/tabs.html")))
    # Hidden panels are greppable, each line marked with the control that shows it.
    text = page_text(page)
    assert re.search(r'^\[hidden until A\d{4} button "Care"\] Wash cold, dry flat\.$', text, re.M)
    assert re.search(r'^\[hidden until A\d{4} details "Shipping"\] Ships in two days\.$', text,
                     re.M)
    care = locator_of(page, "//button[@id='tab-care']")
    after_tab = run(lambda: browser.execute(page.tab_id, care, "click"))
    assert re.search(r"^Wash cold, dry flat\.$", page_text(after_tab), re.M)
    assert re.search(r"^\[hidden until .*\] Sizes run small\.$", page_text(after_tab), re.M)
    summary = locator_of(page, "//summary")
    opened = run(lambda: browser.execute(page.tab_id, summary, "click"))
    assert re.search(r"^Ships in two days\.$", page_text(opened), re.M)


def shown_text(result: TabCapture) -> str:
    """The page's text but for what is marked as shown only after an action."""
    return "\n".join(line for line in page_text(result).splitlines()
                     if not line.startswith("[hidden until"))


def test_modal_opens_and_its_form_submits(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/modal.html")))
    # The closed dialog right after the button that opens it is greppable, marked with it.
    assert '[hidden until A0001 button "Subscribe"] Join 10,000 readers.' in page_text(page)
    assert "Join 10,000 readers." not in shown_text(page)
    opened = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button[@id='open']"),
                                         "click"))
    assert "Join 10,000 readers." in shown_text(opened)
    form = locator_of(opened, "//dialog//form")
    done = run(lambda: browser.execute(page.tab_id, form, "submit", {"email": "a@b.example"}))
    assert not done.navigated
    assert "Subscribed: a@b.example" in page_text(done)
    assert "Join 10,000 readers." not in shown_text(done)


def test_dialogs_are_answered_and_reported(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/alert.html")))
    saved = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button[@id='save']"),
                                        "click"))
    assert saved.dialogs == (DialogRecord("alert", "Saved!", "accepted"),)
    assert "Saved" in page_text(saved)
    reset = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button[@id='reset']"),
                                        "click"))
    assert reset.dialogs == (DialogRecord("confirm", "Reset everything?", "accepted"),)
    assert "Reset done" in page_text(reset)


def test_popup_becomes_a_new_tab(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/popup.html")))
    result = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button[@id='open']"),
                                         "click"))
    assert not result.navigated
    assert len(result.new_tabs) == 1
    popup = run(lambda: browser.focus(result.new_tabs[0]))
    assert popup.capture.url == site.url("/tabs.html")
    assert "Sizes run small." in page_text(popup)


def test_a_target_blank_link_is_followed_in_the_same_tab(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/popup.html")))
    link = locator_of(page, "//a[@id='blank']")
    result = run(lambda: browser.execute(page.tab_id, link, "navigate"))
    assert result.navigated
    assert result.new_tabs == ()
    assert result.tab_id == page.tab_id
    assert result.capture.url == site.url("/jslist.html")


def test_navigate_loads_a_url_in_the_same_tab(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/index.html")))
    result = run(lambda: browser.navigate(page.tab_id, site.url("/product.html")))
    assert result.navigated
    assert result.tab_id == page.tab_id
    assert "Price: 40 EUR" in page_text(result)


def test_a_download_is_captured_as_bytes(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/popup.html")))
    result = run(lambda: browser.execute(page.tab_id, locator_of(page, "//a[@id='file']"),
                                         "click"))
    assert result.downloads == (
        DownloadRecord(site.url("/report.pdf"), "report.pdf",
                       (LIVE_ROOT / "report.pdf").read_bytes()),
    )


def test_a_link_to_a_pdf_comes_back_as_the_pdf(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/index.html")))
    page = run(lambda: browser.navigate(page.tab_id, site.url("/popup.html")))
    assert page.navigated
    link = locator_of(page, "//a[@id='pdf']")
    result = run(lambda: browser.execute(page.tab_id, link, "navigate"))
    assert result.navigated
    assert result.capture.content_type == "application/pdf"
    assert result.capture.body == (LIVE_ROOT / "report.pdf").read_bytes()


def test_an_element_inside_a_same_origin_frame_is_found(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/rendered.html")))
    button = locator_of(page, "//button[@id='frame-button']")
    result = run(lambda: browser.execute(page.tab_id, button, "click"))
    assert "Clicked in frame" in page_text(result)


def test_unknown_tabs_and_elements_are_not_found(browser: Browser, site: LiveSite) -> None:
    with pytest.raises(NotFoundError, match="there is no live tab t999"):
        run(lambda: browser.execute("t999", "w1", "click"))
    page = run(lambda: browser.open(site.url("/index.html")))
    with pytest.raises(NotFoundError, match=f"the element w999 is no longer on the page in tab "
                                            f"{page.tab_id}"):
        run(lambda: browser.execute(page.tab_id, "w999", "click"))
    run(lambda: browser.close_tab(page.tab_id))
    with pytest.raises(NotFoundError, match=f"tab {page.tab_id} is gone: it was closed"):
        run(lambda: browser.focus(page.tab_id))


def test_calls_on_different_tabs_run_concurrently_from_trio(
    browser: Browser, site: LiveSite
) -> None:
    first = run(lambda: browser.open(site.url("/product.html")))
    second = run(lambda: browser.open(site.url("/product.html")))
    size = locator_of(first, "//select")
    results: dict[str, str] = {}

    async def choose(tab_id: str, wanted: str) -> None:
        result = await browser.execute(tab_id, size, "select", {"size": wanted})
        results[tab_id] = page_text(result)

    async def both() -> None:
        async with trio.open_nursery() as nursery:
            nursery.start_soon(choose, first.tab_id, "m")
            nursery.start_soon(choose, second.tab_id, "l")

    trio.run(both)
    assert "Price: 45 EUR" in results[first.tab_id]
    assert "Price: 50 EUR" in results[second.tab_id]


def test_a_listbox_reveals_its_options_as_actions(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/combobox.html")))
    assert '<ul role="listbox" id="colours" data-wsfs-id="w2" hidden="">' in (
        page.capture.body.decode())
    opened = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button"), "click"))
    html = opened.capture.body.decode()
    assert '<li role="option" data-value="red" data-wsfs-id="w3" data-wsfs-op="click">Red</li>' in html
    assert '<li role="option" data-value="blue" data-wsfs-id="w4" data-wsfs-op="click">Blue</li>' in html
    chosen = run(lambda: browser.execute(page.tab_id, "w4", "click"))
    assert "Colour: Blue" in page_text(chosen)
    assert '<ul role="listbox" id="colours" data-wsfs-id="w2" hidden="">' in (
        chosen.capture.body.decode())


def test_select_chooses_in_list_boxes_and_radio_groups(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/combobox.html")))
    listbox = locator_of(page, "//ul[@role='listbox']")
    run(lambda: browser.execute(page.tab_id, locator_of(page, "//button"), "click"))
    with pytest.raises(UsageError, match=r"no choice 'green'; choices: red=red \| blue=blue"):
        run(lambda: browser.execute(page.tab_id, listbox, "select", {"value": "green"}))
    chosen = run(lambda: browser.execute(page.tab_id, listbox, "select", {"value": "Red"}))
    assert "Colour: Red" in page_text(chosen)
    group = locator_of(page, "//input[@value='matte']")
    by_label = run(lambda: browser.execute(page.tab_id, group, "select", {"finish": "Gloss"}))
    assert "Finish: gloss" in page_text(by_label)
    assert '<input type="radio" name="finish" data-wsfs-id="w6" value="gloss" checked=""' in (
        by_label.capture.body.decode())
    by_value = run(lambda: browser.execute(page.tab_id, group, "select", {"finish": "matte"}))
    assert "Finish: matte" in page_text(by_value)


def test_check_works_on_aria_menu_items(browser: Browser, site: LiveSite) -> None:
    page = run(lambda: browser.open(site.url("/combobox.html")))
    primer = locator_of(page, "//div[@id='primer']")
    on = run(lambda: browser.execute(page.tab_id, primer, "check"))
    assert "Primer: yes" in page_text(on)
    still_on = run(lambda: browser.execute(page.tab_id, primer, "check"))
    assert "Primer: yes" in page_text(still_on)
    off = run(lambda: browser.execute(page.tab_id, primer, "uncheck"))
    assert "Primer: no" in page_text(off)


def test_an_answer_a_short_timer_shows_is_waited_for_but_not_a_polling_loop(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/timers.html")))
    assert "Availability: unknown" in page_text(page)
    started = time.monotonic()
    result = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button"), "click"))
    # The answer comes 200 ms after the click; the page also polls every 100 ms, forever.
    assert "In stock: 3" in page_text(result)
    assert time.monotonic() - started < browser.options.settle_cap


def test_a_navigation_started_by_script_is_followed_to_a_late_answer(
    browser: Browser, site: LiveSite
) -> None:
    page = run(lambda: browser.open(site.url("/leave.html")))
    result = run(lambda: browser.execute(page.tab_id, locator_of(page, "//button"), "click"))
    assert result.navigated
    assert result.capture.url == site.url("/slow")
    assert "Worth the wait." in page_text(result)

"""Opening pages in the real Chromium: what the rendered-DOM capture holds and how it compiles."""

from __future__ import annotations

import socket
import time

import lxml.html
import pytest

from tests.browser.conftest import page_text, run
from tests.browser.live_site import LIVE_ROOT, LiveSite
from webshellfs.browser import Browser, CapturedResponse
from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page
from webshellfs.errors import AccessDenied, FetchError

pytestmark = pytest.mark.browser


def test_script_built_list_is_in_the_compiled_content(browser: Browser, site: LiveSite) -> None:
    result = run(lambda: browser.open(site.url("/jslist.html")))
    assert result.tab_id.startswith("t")
    assert result.navigated
    assert result.capture.status == 200
    assert result.capture.content_type == "text/html; charset=utf-8"
    assert result.capture.url == site.url("/jslist.html")
    text = page_text(result)
    for planet in ("Mercury", "Venus", "Earth", "Mars"):
        assert f"{planet} (built by script)" in text
    assert "Loading…" not in text


def test_capture_inlines_shadow_roots_frames_and_current_values(
    browser: Browser, site: LiveSite
) -> None:
    result = run(lambda: browser.open(site.url("/rendered.html")))
    html = result.capture.body.decode("utf-8")
    assert '<p class="gone" hidden="">Hidden by a stylesheet.</p>' in html
    assert '<p class="ghost" hidden="">Invisible by visibility.</p>' in html
    assert "<p>Visible text.</p>" in html
    assert "noscript" not in html
    assert ('<user-card><p>Shadow greeting</p><button type="button" data-wsfs-id="w2">'
            "Shadow button</button></user-card>") in html
    assert (f'<div data-wsfs-frame="{site.url("/frame.html")}"><p>Text inside the frame.</p>'
            f'<a href="{site.url("/index.html")}" data-wsfs-id="w3">Frame link</a>') in html
    assert '<textarea id="note" data-wsfs-id="w5">typed by script</textarea>' in html
    assert '<input id="agree" type="checkbox" data-wsfs-id="w6" checked="">' in html

    text = page_text(result)
    assert "Shadow greeting" in text
    assert "Text inside the frame." in text
    assert "Hidden by a stylesheet" not in text
    assert "Invisible by visibility" not in text
    assert "Secret button" not in text


def test_an_inline_hiding_the_stylesheet_overrules_is_not_kept(
    browser: Browser, site: LiveSite
) -> None:
    text = page_text(run(lambda: browser.open(site.url("/overruled.html"))))
    assert "The stylesheet overrules the inline hiding." in text
    assert "Really hidden." not in text


def test_what_stays_on_screen_while_the_page_scrolls_is_not_the_main_text(
    browser: Browser, site: LiveSite
) -> None:
    """Elements the page fixes to the window, named by nothing (CSS-in-JS class names): the
    capture marks where each sits and the compiler files it by that; a sticky line, which
    scrolls with its section, stays in content/."""
    result = run(lambda: browser.open(site.url("/fixed.html")))
    root = lxml.html.document_fromstring(result.capture.body)
    marks = {el.get("class"): el.get("data-wsfs-fixed") for el in root.iter("div")}
    assert marks == {"c1": "top", "c4": "side", "c6": None, "c3": "over", "c2": "bottom"}
    files = render_page(compile_page(result.capture.body, result.capture.url))
    content = b"".join(data for name, data in files.items() if name.startswith("content/"))
    assert b"Updated every morning at six." in content and b"Neap tides" in content
    assert b"Coastline Weekly" in files["boilerplate/header.md"]
    assert b"Tide stations on this coast" in files["boilerplate/aside.md"]
    assert b"Chat with a harbour master" in files["boilerplate/popup.md"]
    assert b"We use cookies" in files["boilerplate/footer.md"]
    for chrome in (b"Coastline", b"Tide stations", b"Chat with", b"cookies"):
        assert chrome not in content


def test_every_actionable_element_gets_a_unique_locator(browser: Browser, site: LiveSite) -> None:
    result = run(lambda: browser.open(site.url("/search.html")))
    root = lxml.html.document_fromstring(result.capture.body)
    marked = [(el.tag, el.get("data-wsfs-id")) for el in root.iter() if el.get("data-wsfs-id")]
    assert marked == [("form", "w1"), ("input", "w2"), ("select", "w3"), ("button", "w4")]
    again = run(lambda: browser.focus(result.tab_id))
    assert again.capture.body == result.capture.body
    assert not again.navigated


def test_same_origin_json_seen_while_loading_is_a_resource(
    browser: Browser, site: LiveSite
) -> None:
    result = run(lambda: browser.open(site.url("/more.html")))
    first_ten = ", ".join(f'{{"name": "Item {n}"}}' for n in range(1, 11))
    assert result.resources == (
        CapturedResponse(site.url("/api/items?offset=0&limit=10"), "application/json",
                         f'{{"items": [{first_ten}], "more": true}}'.encode()),
    )
    assert "Item 10" in page_text(result)


@pytest.mark.parametrize(("path", "content_type"), [
    ("/data.json", "application/json"),
    ("/report.pdf", "application/pdf"),
])
def test_non_html_comes_back_as_its_raw_bytes(
    browser: Browser, site: LiveSite, path: str, content_type: str
) -> None:
    result = run(lambda: browser.open(site.url(path)))
    assert result.tab_id == ""
    assert result.capture.content_type == content_type
    assert result.capture.body == (LIVE_ROOT / path.lstrip("/")).read_bytes()
    assert result.capture.status == 200


def test_non_http_schemes_are_refused(browser: Browser) -> None:
    with pytest.raises(AccessDenied, match=r"only http and https URLs can be opened; file: is "
                                           r"refused: file:///etc/passwd"):
        run(lambda: browser.open("file:///etc/passwd"))


def test_a_refused_connection_is_a_fetch_error(browser: Browser) -> None:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"http://127.0.0.1:{probe.getsockname()[1]}/"
    with pytest.raises(FetchError, match=f"^loading {url} failed in the browser: "
                                         "net::ERR_CONNECTION_REFUSED$"):
        run(lambda: browser.open(url))


def test_a_refused_https_connection_says_so_not_that_a_tunnel_failed(browser: Browser) -> None:
    """Chromium opens HTTPS through the gate with CONNECT and reports any failed tunnel as
    ERR_TUNNEL_CONNECTION_FAILED; the error names what the gate met instead."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        url = f"https://127.0.0.1:{probe.getsockname()[1]}/"
    with pytest.raises(FetchError, match=f"^loading {url} failed in the browser: "
                                         "net::ERR_CONNECTION_REFUSED$"):
        run(lambda: browser.open(url))


def test_an_endless_animation_does_not_hold_the_settle_wait(
    browser: Browser, site: LiveSite
) -> None:
    started = time.monotonic()
    result = run(lambda: browser.open(site.url("/animated.html")))
    assert time.monotonic() - started < browser.options.settle_cap
    assert "Content arrived" in page_text(result)

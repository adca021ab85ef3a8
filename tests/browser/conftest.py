"""Fixtures for browser tests: the live fixture site and one real Chromium for the module.

Every test here drives the real Chromium (fails in CI when it is missing, never skips there)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path
from typing import TypeVar

import lxml.html
import pytest
import trio

from tests.browser.live_site import LiveSite
from tests.conftest import chromium_path, require
from webshellfs.browser import Browser, BrowserOptions, TabCapture
from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page

T = TypeVar("T")

# Short waits keep the failure tests fast; the defaults are for the real web.
TEST_LOAD_TIMEOUT = 3.0
TEST_ACTION_TIMEOUT = 3.0


def live_options(**changes: object) -> BrowserOptions:
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    base = {"chromium": chromium, "allow_private": True, "load_timeout": TEST_LOAD_TIMEOUT,
            "action_timeout": TEST_ACTION_TIMEOUT, "settle_cap": 2.0}
    base.update(changes)
    return BrowserOptions(**base)  # type: ignore[arg-type]


def run(call: Callable[[], Awaitable[T]]) -> T:
    """Run one trio call (the browser outlives trio.run: its thread is its own)."""
    return trio.run(call)


@pytest.fixture(scope="session")
def site() -> Iterator[LiveSite]:
    server = LiveSite()
    yield server
    server.close()


@pytest.fixture(scope="module")
def browser(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Browser]:
    downloads = tmp_path_factory.mktemp("downloads")
    live = Browser(live_options(downloads_dir=Path(downloads)))
    yield live
    live.close_blocking()


def page_text(result: TabCapture) -> str:
    """The text files of the compiled capture (content/, then boilerplate/ where the compiler
    puts dialogs, navigation and the like), in file order."""
    page = compile_page(result.capture.body, result.capture.url,
                        content_type=result.capture.content_type)
    files = render_page(page)
    return "\n".join(files[name].decode("utf-8") for name in sorted(files, key=_text_order)
                     if name.startswith(("content/", "boilerplate/")))


def _text_order(name: str) -> tuple[bool, str]:
    return (not name.startswith("content/"), name)


def locator_of(result: TabCapture, xpath: str) -> str:
    """The data-wsfs-id of the one element xpath selects in the capture."""
    root = lxml.html.document_fromstring(result.capture.body)
    found = root.xpath(xpath)
    assert len(found) == 1, f"{xpath} matched {len(found)} elements"
    return str(found[0].get("data-wsfs-id"))

"""The shop for the exploration tests, one per test (its request log is that test's alone),
and the real mounts of tests/fs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.conftest import chromium_path, require
from tests.explore.shop_site import ShopSite
from tests.fs.conftest import new_mount, new_served
from webshellfs.browser import Browser, BrowserOptions

__all__ = ["browser", "new_mount", "new_served", "shop"]


@pytest.fixture
def shop() -> Iterator[ShopSite]:
    site = ShopSite()
    yield site
    site.close()


@pytest.fixture(scope="module")
def browser() -> Iterator[Browser]:
    """One Chromium for a module's engine tests (each closes its own tabs)."""
    chromium = chromium_path()
    require(chromium is not None, "Chromium")
    assert chromium is not None
    shared = Browser(BrowserOptions(chromium=chromium, allow_private=True, load_timeout=20.0,
                                    action_timeout=10.0, settle_cap=2.0, max_tabs=4))
    yield shared
    shared.close_blocking()

"""The shop for the exploration tests, one per test (its request log is that test's alone)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.explore.shop_site import ShopSite


@pytest.fixture
def shop() -> Iterator[ShopSite]:
    site = ShopSite()
    yield site
    site.close()

"""The shop for the exploration tests, one per test (its request log is that test's alone),
and the real mounts of tests/fs."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.explore.shop_site import ShopSite
from tests.fs.conftest import new_mount, new_served

__all__ = ["new_mount", "new_served", "shop"]


@pytest.fixture
def shop() -> Iterator[ShopSite]:
    site = ShopSite()
    yield site
    site.close()

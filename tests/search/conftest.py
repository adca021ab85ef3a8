"""The search fixture site, served once per test module."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.search.site import SearchSite, start_site


@pytest.fixture(scope="module")
def site() -> Iterator[SearchSite]:
    running = start_site()
    yield running
    running.stop()

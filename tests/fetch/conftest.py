"""The fixture site, served once for the fetch tests."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from tests.site import FixtureSite


@pytest.fixture(scope="module")
def site() -> Iterator[FixtureSite]:
    running = FixtureSite().start()
    yield running
    running.stop()

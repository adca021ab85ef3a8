"""Shared test helpers. A test that needs FUSE or Chromium fails in CI (CI=true) when they are
missing, and is skipped only on a developer machine that lacks them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator

import pytest

from tests.site import FixtureSite

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(available: bool, what: str) -> None:
    """Fail (in CI) or skip (outside CI) when a real part the test needs is missing."""
    if available:
        return
    if IN_CI:
        pytest.fail(f"{what} is missing, and CI must run every real test")
    pytest.skip(f"{what} is missing on this machine (outside CI, so skipping)")


def fuse_available() -> bool:
    return os.path.exists("/dev/fuse") and shutil.which("fusermount3") is not None


def chromium_path() -> str | None:
    return shutil.which("chromium") or (
        "/usr/bin/chromium" if os.path.exists("/usr/bin/chromium") else None
    )


@pytest.fixture(scope="session")
def site() -> Iterator[FixtureSite]:
    """The fixture web site (tests/site.py) on 127.0.0.1, for the whole test session."""
    server = FixtureSite().start()
    yield server
    server.stop()

"""Shared test helpers. A test that needs FUSE, Chromium or the shared corpora fails in CI
(CI=true) when they are missing, and is skipped only on a developer machine that lacks them."""

from __future__ import annotations

import os
import shutil
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.browser.live_site import LiveSite
from tests.site import FixtureSite

IN_CI = os.environ.get("CI", "").lower() in ("1", "true", "yes")
# The corpora beside the project (not in a clone); tests/corpora/ holds the sample a clone needs.
SHARED_CORPORA = Path(__file__).resolve().parents[2] / "shared" / "corpora"
NO_CORPORA = "none"


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--corpora",
        default=os.environ.get("WEBSHELL_CORPORA") or str(SHARED_CORPORA),
        help="the shared corpora for corpus-wide tests (default: $WEBSHELL_CORPORA, else"
        f" {SHARED_CORPORA}); '{NO_CORPORA}' skips those tests on purpose, even in CI",
    )


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


@pytest.fixture(scope="module")
def live() -> Iterator[LiveSite]:
    """The live site (tests/browser/live_site.py: fixtures/site/live/ and the routes that need
    a server) on 127.0.0.1, one per module, so its request log is that module's alone."""
    server = LiveSite()
    yield server
    server.close()


@pytest.fixture(scope="session")
def shared_corpora(request: pytest.FixtureRequest) -> Path:
    """The shared corpora's folder, for corpus-wide tests; missing is a failure in CI unless the
    run said --corpora none (a clone's run, where there are none by design)."""
    chosen = request.config.getoption("--corpora")
    if chosen == NO_CORPORA:
        pytest.skip("--corpora none: this run has no shared corpora")
    corpora = Path(chosen)
    require(corpora.is_dir(), f"the shared corpora at {corpora} (--corpora or $WEBSHELL_CORPORA)")
    return corpora

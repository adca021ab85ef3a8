"""Security tests reuse the browser room's live site and module browser (the real Chromium)."""

from tests.browser.conftest import browser, site

__all__ = ["browser", "site"]

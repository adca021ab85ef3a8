"""BrowserOptions from the mount's settings, and the --browser spec."""

from __future__ import annotations

from pathlib import Path

import pytest

from webshellfs.browser import BrowserOptions, parse_browser_spec
from webshellfs.config import Settings
from webshellfs.errors import UsageError


@pytest.mark.parametrize(("spec", "parsed"), [
    ("local", ("local", "")),
    ("cdp=http://127.0.0.1:9222", ("cdp", "http://127.0.0.1:9222")),
    ("ws=ws://grid:3000/playwright?token=x=y", ("ws", "ws://grid:3000/playwright?token=x=y")),
])
def test_browser_specs(spec: str, parsed: tuple[str, str]) -> None:
    assert parse_browser_spec(spec) == parsed


@pytest.mark.parametrize("spec", ["", "remote", "cdp=", "http://127.0.0.1:9222"])
def test_bad_browser_specs_are_refused(spec: str) -> None:
    with pytest.raises(UsageError, match="--browser takes local, cdp=URL, ws=URL or http"):
        parse_browser_spec(spec)


def test_options_follow_the_settings(tmp_path: Path) -> None:
    settings = Settings(mountpoint=tmp_path / "mnt", cache=tmp_path / "cache" / "cache.sqlite",
                        browser="cdp=http://127.0.0.1:9222", chromium="/opt/chromium",
                        allow_private=True, fetch_timeout=12.0, max_page_bytes=1000)
    options = BrowserOptions.from_settings(settings)
    assert options == BrowserOptions(
        mode="cdp", endpoint="http://127.0.0.1:9222", chromium="/opt/chromium",
        allow_private=True, load_timeout=12.0, downloads_dir=tmp_path / "cache" / "downloads",
        max_body_bytes=1000)
    assert options.call_deadline == 12.0 + 10.0 + 2 * 3.0

"""The errnos docs/security.md promises, through a real mount: extended attributes (none kept;
changing them is read-only like any change) and an `open` the network policy refuses (EIO,
the reason in the response, like any failed command)."""

from __future__ import annotations

import errno
import os
from collections.abc import Callable

import pytest

from tests.conftest import chromium_path, require
from tests.fs.conftest import Mount
from tests.site import FixtureSite

METADATA = "http://169.254.169.254/latest/meta-data/"  # refused even with --allow-private


@pytest.mark.parametrize("path", [".ctl", "_pages.tsv", "N0001", "N0001/_map.md"])
def test_extended_attributes_are_unsupported_to_read_and_read_only_to_change(
    mounted: Mount, site: FixtureSite, path: str
) -> None:
    assert mounted.ctl(f"open {site.url('/article.html')}").returncode == 0
    target = mounted.path / path
    for read_them in (lambda: os.getxattr(target, "user.note"), lambda: os.listxattr(target)):
        with pytest.raises(OSError) as unsupported:
            read_them()
        assert unsupported.value.errno == errno.ENOTSUP
    for change_them in (lambda: os.setxattr(target, "user.note", b"x"),
                        lambda: os.removexattr(target, "user.note")):
        with pytest.raises(OSError) as refused:
            change_them()
        assert refused.value.errno == errno.EROFS


@pytest.mark.parametrize("browser", ["http", "local"])
def test_a_page_hop_the_policy_refuses_fails_open_with_eio_and_the_reason(
    new_mount: Callable[[], Mount], site: FixtureSite, browser: str
) -> None:
    if browser == "local":
        require(chromium_path() is not None, "Chromium")
    mount = new_mount().start("--browser", browser)
    url = site.url(f"/redirect?to={METADATA}")
    result = mount.ctl(f"open {url}")
    assert "write error: Input/output error" in result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"R0001 failed: open {url}"
    assert "169.254.169.254" in lines[1] and "link-local" in lines[1], lines
    assert (mount.path / "_pages.tsv").read_text().splitlines()[1:] == []

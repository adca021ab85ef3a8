"""The mount needs pyfuse3 built with webshellfs/pyfuse3-unopened.patch (mount.sh builds it)."""

from __future__ import annotations

import importlib.metadata

import pytest

from webshellfs import fs
from webshellfs.errors import UsageError


def test_the_installed_pyfuse3_is_the_patched_build() -> None:
    assert importlib.metadata.version("pyfuse3").endswith("+webshellfs.1")
    fs.require_patched_pyfuse3()


def test_a_stock_pyfuse3_is_refused_with_the_fix(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(importlib.metadata, "version", lambda name: "3.5.0")
    with pytest.raises(UsageError) as refused:
        fs.require_patched_pyfuse3()
    assert str(refused.value) == (
        "pyfuse3 3.5.0 is the stock build; webshellfs needs it built with "
        "webshellfs/pyfuse3-unopened.patch, which ./mount.sh does (docs/operations.md)")

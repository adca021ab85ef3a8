"""Golden pages: every fixtures/pages/*.html compiles to exactly the tree in fixtures/golden/<name>/.

A page's URL is taken from a first-line comment `<!-- url: https://… -->`, else from a sidecar
file `<name>.url`, else it is `https://example.test/<name>.html`.

After an intended change, regenerate and then READ every changed file before committing:

    UPDATE_GOLDEN=1 .venv/bin/python -m pytest tests/compiler/test_golden.py
"""

from __future__ import annotations

import os
import re
import shutil
from pathlib import Path

import pytest

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page

ROOT = Path(__file__).resolve().parents[2]
PAGES = ROOT / "fixtures" / "pages"
GOLDEN = ROOT / "fixtures" / "golden"
UPDATE = os.environ.get("UPDATE_GOLDEN", "") not in ("", "0")
_URL_COMMENT = re.compile(rb"\s*<!--\s*url:\s*(\S+)\s*-->")


def page_url(page: Path, data: bytes) -> str:
    match = _URL_COMMENT.match(data)
    if match:
        return match.group(1).decode("utf-8")
    sidecar = page.with_suffix(".url")
    if sidecar.exists():
        return sidecar.read_text(encoding="utf-8").strip()
    return f"https://example.test/{page.stem}.html"


def compiled_tree(page: Path) -> dict[str, bytes]:
    data = page.read_bytes()
    return render_page(compile_page(data, page_url(page, data)), page_id="N0001")


def stored_tree(directory: Path) -> dict[str, bytes]:
    return {
        path.relative_to(directory).as_posix(): path.read_bytes()
        for path in sorted(directory.rglob("*"))
        if path.is_file()
    }


def write_tree(files: dict[str, bytes], directory: Path) -> None:
    if directory.exists():
        shutil.rmtree(directory)
    for relpath, data in files.items():
        target = directory / relpath
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(data)


@pytest.mark.parametrize("page", sorted(PAGES.glob("*.html")), ids=lambda p: p.stem)
def test_page_compiles_to_its_golden_tree(page: Path) -> None:
    files = compiled_tree(page)
    golden = GOLDEN / page.stem
    if UPDATE:
        write_tree(files, golden)
    assert golden.is_dir(), f"no golden tree for {page.name}; run with UPDATE_GOLDEN=1 and review it"
    expected = stored_tree(golden)
    assert sorted(files) == sorted(expected), "the set of files differs"
    for path in files:
        assert files[path].decode("utf-8") == expected[path].decode("utf-8"), path

"""The docs tell the truth about what they can be checked against without a mount: every runtime
dependency has its reason, mount.sh says what docs/operations.md says it says, and the README's
first session starts where a machine without internet can follow it."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"


def section(text: str, heading: str) -> str:
    """The text under a `## heading`, up to the next heading of that level."""
    return text.split(f"## {heading}\n", 1)[1].split("\n## ", 1)[0]


def test_every_runtime_dependency_says_why_it_is_there() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    names = {re.split(r"[<>=!~ ;\[]", spec, maxsplit=1)[0].lower()
             for spec in project["dependencies"]}
    runtime = (DOCS / "dependencies.md").read_text().split("Test and benchmark extras")[0]
    listed = set(re.findall(r"^\| ([a-z0-9_.-]+) \|", runtime, re.MULTILINE))
    assert names - listed == set()


def test_mount_sh_says_what_the_operations_doc_says() -> None:
    table = (DOCS / "operations.md").read_text()
    said = re.findall(r'say "([^"]*(?:stale mount|already mounted)[^"]*)"',
                      (ROOT / "mount.sh").read_text())
    assert len(said) == 2
    for message in said:
        assert f"`{message.replace('$mountpoint', 'MOUNTPOINT')}`" in table


def test_the_first_session_starts_with_the_offline_demo_and_says_where_it_keeps_pages() -> None:
    first = section((ROOT / "README.md").read_text(), "A first session")
    assert first.index("./mount.sh --demo") < first.index("example.org")
    demo_cache = re.search(r'demo_cache="\$\{XDG_CACHE_HOME:-\$HOME/\.cache\}/([^"]+)"',
                           (ROOT / "mount.sh").read_text())
    assert demo_cache is not None
    assert f"`~/.cache/{demo_cache.group(1)}`" in first
    assert "ls -a" in first  # .ctl is a dot file
    assert "write error: Input/output error" in first and "cat /mnt/web/.ctl" in first


def test_every_search_backend_and_its_variables_are_documented() -> None:
    from webshellfs.search import BACKENDS, SPEC_VARIABLE
    from webshellfs.search import brave, local, serper

    options = (DOCS / "operations.md").read_text()
    for name in BACKENDS:
        assert f"`{name}" in options, name
    for variable in (SPEC_VARIABLE, serper.KEY_VARIABLE, brave.KEY_VARIABLE, local.BASE_VARIABLE):
        assert f"`{variable}`" in options, variable

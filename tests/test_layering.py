"""Each room imports only what its row allows, so the engine stays testable without FUSE and
the compiler stays pure. The table is the architecture; docs/architecture.md prints it."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parent.parent / "webshellfs"

# room (module or package under webshellfs/) → top-level names it must never import.
FORBIDDEN: dict[str, set[str]] = {
    "contract": {"webshellfs.compiler", "webshellfs.store", "webshellfs.engine", "webshellfs.fs",
                 "webshellfs.browser", "webshellfs.fetch", "lxml", "trio", "pyfuse3", "playwright",
                 "httpx"},
    "compiler": {"webshellfs.store", "webshellfs.engine", "webshellfs.fs", "webshellfs.browser",
                 "webshellfs.fetch", "webshellfs.mount", "trio", "pyfuse3", "playwright", "httpx",
                 "sqlite3"},
    "store": {"webshellfs.compiler", "webshellfs.engine", "webshellfs.fs", "webshellfs.browser",
              "webshellfs.fetch", "trio", "pyfuse3", "playwright", "lxml"},
    "ctl": {"webshellfs.compiler", "webshellfs.store", "webshellfs.engine", "webshellfs.fs",
            "webshellfs.browser", "webshellfs.fetch", "trio", "pyfuse3", "sqlite3"},
    "fetch": {"webshellfs.compiler", "webshellfs.store", "webshellfs.engine", "webshellfs.fs",
              "pyfuse3", "playwright", "sqlite3"},
    "search": {"webshellfs.compiler", "webshellfs.store", "webshellfs.engine", "webshellfs.fs",
               "webshellfs.browser", "pyfuse3", "playwright", "lxml", "sqlite3"},
    "browser": {"webshellfs.store", "webshellfs.engine", "webshellfs.fs", "pyfuse3", "sqlite3"},
    "engine": {"webshellfs.fs", "webshellfs.inodes", "webshellfs.mount", "pyfuse3", "playwright",
               "lxml"},
    # Exploration reaches the web and the store's pages only through the engine's Driver, and
    # reads compiled pages as records: the compiler stays unaware of it.
    "explore": {"webshellfs.engine", "webshellfs.compiler", "webshellfs.browser",
                "webshellfs.fetch", "webshellfs.fs", "webshellfs.inodes", "webshellfs.mount",
                "pyfuse3", "playwright", "lxml", "httpx"},
    # Imported by every compile worker process: it must stay light.
    "workers": {"webshellfs.store", "webshellfs.engine", "webshellfs.fs", "webshellfs.browser",
                "webshellfs.fetch", "webshellfs.search", "webshellfs.mount", "pyfuse3",
                "playwright", "httpx", "sqlite3"},
    "directory": {"webshellfs.fs", "webshellfs.inodes", "webshellfs.mount", "webshellfs.fusemount",
                  "pyfuse3"},
    # The wiring shared by every face: pyfuse3 only through fusemount, imported to mount.
    "mount": {"webshellfs.fs", "webshellfs.inodes", "pyfuse3"},
    "cli": {"webshellfs.fs", "webshellfs.inodes", "pyfuse3"},
    # Imported by `webshell` (it should start fast) and by fs.py: no event loop, no FUSE.
    "sockets": {"webshellfs.engine", "webshellfs.store", "webshellfs.fs", "webshellfs.browser",
                "trio", "pyfuse3", "playwright", "lxml", "httpx", "sqlite3"},
    "channel": {"webshellfs.fs", "webshellfs.store", "webshellfs.browser", "trio", "pyfuse3",
                "playwright", "lxml", "sqlite3"},
    # The MCP server is a face of the engine like fs.py: it reads only what the engine serves.
    "mcp": {"webshellfs.fs", "webshellfs.inodes", "webshellfs.fusemount", "webshellfs.compiler",
            "webshellfs.browser", "webshellfs.fetch", "pyfuse3", "playwright", "lxml", "sqlite3"},
    "fs": {"webshellfs.compiler", "webshellfs.store", "webshellfs.browser", "webshellfs.fetch",
           "lxml", "sqlite3", "playwright", "httpx"},
}


def room_files(room: str) -> list[Path]:
    package = PACKAGE / room
    if package.is_dir():
        return sorted(package.rglob("*.py"))
    module = PACKAGE / f"{room}.py"
    return [module] if module.exists() else []


def imported_names(path: Path) -> set[str]:
    names: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.Import):
            names.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            names.add(node.module)
    return names


def violates(name: str, forbidden: set[str]) -> bool:
    return any(name == f or name.startswith(f + ".") for f in forbidden)


@pytest.mark.parametrize("room", sorted(FORBIDDEN))
def test_room_imports_stay_within_its_layer(room: str) -> None:
    files = room_files(room)
    assert files, f"room {room} has no module under webshellfs/"
    bad = [
        f"{path.relative_to(PACKAGE.parent)} imports {name}"
        for path in files
        for name in sorted(imported_names(path))
        if violates(name, FORBIDDEN[room])
    ]
    assert not bad, "\n".join(bad)

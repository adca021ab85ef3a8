"""Inode numbers: fixed root, computed per path from the store, one `.ctl` inode per session,
lookup counts."""

from __future__ import annotations

import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import pyfuse3
import pytest

from webshellfs.engine.tree import TreeView
from webshellfs.fs import session_of
from webshellfs.inodes import CTL_PATH, InodeTable, child_path, parent_path
from webshellfs.store import Store


FILES = {"_map.md": b"# Title\n", "content/01-a.md": b"# A\nalpha\n", "links.tsv": b"id\turl\n"}


@pytest.fixture
def table(tmp_path: Path) -> Iterator[InodeTable]:
    """A table over a store holding two pages and one log record."""
    with Store(tmp_path / "cache.sqlite") as store:
        for url in ("http://a.org/", "http://b.org/"):
            store.add_page(lambda page_id: FILES, title="Title", url=url, via="open")
        store.add_log(store.reserve_request_id(), "s", "open x", "ok", "text")
        yield InodeTable(TreeView(store, b"readme"))


def test_every_path_has_its_own_number_and_the_root_is_fixed(table: InodeTable) -> None:
    paths = ["", "README.md", "_pages.tsv", "_log", "_search", "_log/R0001.md", "N0001",
             "N0001/_map.md", "N0001/content", "N0001/content/01-a.md", "N0002", "N0002/_map.md"]
    numbers = [table.inode(path) for path in paths]
    assert numbers[0] == pyfuse3.ROOT_INODE
    assert len(set(numbers)) == len(numbers)
    assert [table.path(number) for number in numbers] == paths
    assert table.inode("N0002/_map.md") == numbers[-1]  # asked again: the same
    assert table.path(999) is None


def test_numbers_follow_from_the_store_so_a_new_table_gives_the_same(table: InodeTable) -> None:
    again = InodeTable(table.numbering)
    for path in ("N0001/content/01-a.md", "_log/R0001.md", "N0002"):
        assert again.inode(path) == table.inode(path)


@pytest.mark.parametrize("path", ["N01", "N00001", "N0001/nothing", "_log/R01.md",
                                  "_log/R0001.txt", "elsewhere"])
def test_names_spelled_otherwise_than_listed_have_no_number(table: InodeTable, path: str) -> None:
    assert table.numbering.number(path) is None
    with pytest.raises(KeyError):
        table.inode(path)


def test_each_session_has_its_own_ctl_inode(table: InodeTable) -> None:
    one, two = table.ctl_inode("100"), table.ctl_inode("200")
    assert one != two and table.ctl_inode("100") == one
    assert table.path(one) == table.path(two) == CTL_PATH
    assert (table.ctl_session(one), table.ctl_session(two)) == ("100", "200")
    assert table.ctl_session(table.inode("N0001")) is None
    assert one not in {table.inode(path) for path in ("", "N0001", "N0002/_map.md")}


def test_lookup_counts_balance_and_nothing_is_kept_per_inode(table: InodeTable) -> None:
    for _ in range(3):
        table.remember()
    assert table.references() == 3
    table.forget([(table.inode("N0001"), 2), (table.inode("N0002"), 1)])
    assert table.references() == 0
    assert len(vars(table)) == 6 and not table._ctl_of  # no per-path state to grow


def test_path_helpers() -> None:
    assert child_path("", "N0001") == "N0001"
    assert child_path("N0001", "content") == "N0001/content"
    assert parent_path("N0001/content/01-x.md") == "N0001/content"
    assert parent_path("N0001") == ""


def test_session_is_the_unix_session_or_the_environment_override() -> None:
    assert session_of(os.getpid()) == str(os.getsid(0))
    child = subprocess.Popen([sys.executable, "-c", "print(flush=True); input()"],
                             env={**os.environ, "WEBSHELL_SESSION": "agent-7"},
                             stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        assert child.stdout is not None
        child.stdout.readline()  # running its own program, environment in place
        assert session_of(child.pid) == "env:agent-7"
    finally:
        child.kill()
        child.wait()
    assert session_of(child.pid) == f"pid{child.pid}"

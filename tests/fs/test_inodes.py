"""Inode numbers: fixed root, stable per path, one `.ctl` inode per session, lookup counts."""

from __future__ import annotations

import os
import subprocess
import sys

import pyfuse3

from webshellfs.fs import session_of
from webshellfs.inodes import CTL_PATH, InodeTable, child_path, parent_path


def test_paths_keep_their_numbers_and_the_root_is_fixed() -> None:
    table = InodeTable()
    assert table.inode("") == pyfuse3.ROOT_INODE
    first = table.inode("N0001")
    second = table.inode("N0001/_map.md")
    assert (first, second) == (pyfuse3.ROOT_INODE + 1, pyfuse3.ROOT_INODE + 2)
    assert table.inode("N0001") == first
    assert table.path(second) == "N0001/_map.md"
    assert table.path(999) is None


def test_each_session_has_its_own_ctl_inode() -> None:
    table = InodeTable()
    one, two = table.ctl_inode("100"), table.ctl_inode("200")
    assert one != two and table.ctl_inode("100") == one
    assert table.path(one) == table.path(two) == CTL_PATH
    assert (table.ctl_session(one), table.ctl_session(two)) == ("100", "200")
    assert table.ctl_session(table.inode("N0001")) is None


def test_lookup_counts_balance() -> None:
    table = InodeTable()
    a, b = table.inode("a"), table.inode("b")
    for inode in (a, a, b):
        table.remember(inode)
    assert table.held() == 2
    table.forget([(a, 1), (b, 1)])
    assert table.held() == 1
    table.forget([(a, 1)])
    assert table.held() == 0
    assert table.inode("a") == a  # numbers outlive the kernel's references


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

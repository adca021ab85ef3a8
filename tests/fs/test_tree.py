"""The tree, on a mount and on a directory served with --no-fuse, read with real shell tools:
ls, cat, grep, stat; and, on a mount, refused writes."""

from __future__ import annotations

import errno
import os
import stat
from pathlib import Path

import pytest

from tests.fs.conftest import Mount, Place, sh
from tests.site import FixtureSite

# What `.ctl` is: the file to write on a mount, the socket webshell talks to in directory mode.
CTL_KIND = {"fuse": stat.S_ISREG, "directory": stat.S_ISSOCK}
PAGE_ENTRIES = ["_map.md", "actions.tsv", "boilerplate", "content", "facts.kv", "images.tsv",
                "links.tsv", "long-values", "resources", "resources.tsv", "tables"]


def _open_two_pages(place: Place, site: FixtureSite) -> None:
    for path in ("/article.html", "/shop.html"):
        assert place.ctl(f"open {site.url(path)}").returncode == 0


@pytest.fixture
def two_pages(place: Place, site: FixtureSite) -> Place:
    """Two pages, on a mount and on a served directory."""
    _open_two_pages(place, site)
    return place


@pytest.fixture
def two_pages_mounted(mounted: Mount, site: FixtureSite) -> Mount:
    """Two pages on a FUSE mount, for what only a filesystem can do (inodes, refused writes)."""
    _open_two_pages(mounted, site)
    return mounted


def test_open_answers_with_the_new_page_address(place: Place, site: FixtureSite) -> None:
    url = site.url("/article.html")
    result = place.ctl(f"open {url}")
    assert result.returncode == 0, result.stderr
    lines = result.stdout.splitlines()
    assert lines[0] == f"R0001 ok: open {url}"
    assert lines[1] == "N0001  The Lighthouse Keepers"


def test_ls_shows_root_files_and_pages(two_pages: Place) -> None:
    listing = sh(f"ls -A {two_pages.path}").stdout.split()
    # `@` leads each caller of a mount to its own last page, so a listing (not told who asks)
    # leaves it out; a plain directory holds it as a link to the last command's page.
    last = ["@"] if two_pages.mode == "directory" else []
    assert listing == [".ctl", *last, "N0001", "N0002", "README.md", "_log", "_pages.tsv",
                       "_search", "_sites"]
    assert sh(f"ls {two_pages.path}/N0002").stdout.split() == PAGE_ENTRIES


def test_pages_tsv_lists_every_stored_page(two_pages: Place, site: FixtureSite) -> None:
    assert (two_pages.path / "_pages.tsv").read_text().splitlines() == [
        "page\tparent\tvia\tstatus\ttitle\turl",
        f"N0001\t\topen\tstored\tThe Lighthouse Keepers\t{site.url('/article.html')}",
        f"N0002\t\topen\tstored\tSouvenir Shop\t{site.url('/shop.html')}",
    ]


def test_cat_map_and_grep_across_pages(two_pages: Place, site: FixtureSite) -> None:
    map_lines = sh(f"cat {two_pages.path}/N0001/_map.md").stdout.splitlines()
    assert map_lines[:3] == ["# The Lighthouse Keepers", f"url: {site.url('/article.html')}",
                             "page: N0001"]
    found = sh(f"cd {two_pages.path} && grep -rn 'Fresnel lens' N0001 N0002").stdout.splitlines()
    assert len(found) == 1
    assert found[0].startswith("N0001/content/") and "Fresnel lens of the first order" in found[0]
    found = sh(f"cd {two_pages.path} && grep -rln 'Medium' N0001 N0002").stdout.split()
    assert found and all(path.startswith("N0002/") for path in found)


def test_every_response_is_kept_in_the_log(two_pages: Place, site: FixtureSite) -> None:
    assert sorted(os.listdir(two_pages.path / "_log")) == ["R0001.md", "R0002.md"]
    log = (two_pages.path / "_log" / "R0002.md").read_text()
    assert f"R0002 ok: open {site.url('/shop.html')}" in log.splitlines()


def test_modes_owners_and_sizes_are_honest(two_pages: Place) -> None:
    root = two_pages.path
    assert stat.S_IMODE(os.stat(root / "N0001").st_mode) == 0o555
    assert stat.S_IMODE(os.stat(root / "N0001" / "_map.md").st_mode) == 0o444
    ctl = os.stat(root / ".ctl")
    assert stat.S_IMODE(ctl.st_mode) == 0o600 and CTL_KIND[two_pages.mode](ctl.st_mode)
    assert ctl.st_uid == os.getuid()
    for name in ("_map.md", "links.tsv", "facts.kv"):
        path = root / "N0001" / name
        assert os.stat(path).st_size == len(path.read_bytes())


def test_inode_numbers_are_stable_and_distinct(two_pages_mounted: Mount) -> None:
    root = two_pages_mounted.path
    paths = [root / "N0001", root / "N0001" / "_map.md", root / "N0002" / "_map.md", root / ".ctl"]
    first = [os.stat(path).st_ino for path in paths]
    sh(f"ls -lR {root} > /dev/null")
    assert [os.stat(path).st_ino for path in paths] == first
    assert len(set(first)) == len(first)
    assert os.stat(root).st_ino == 1


def test_reads_at_any_offset(two_pages: Place) -> None:
    path = two_pages.path / "N0001" / "_map.md"
    whole = path.read_bytes()
    fd = os.open(path, os.O_RDONLY)
    try:
        for offset, size in ((0, 1), (5, 17), (len(whole) - 3, 100), (len(whole), 10)):
            assert os.pread(fd, size, offset) == whole[offset : offset + size]
    finally:
        os.close(fd)


def _write_into(path: Path, flags: int) -> None:
    """Open for writing and write: nothing is ever opened on this mount (the kernel lets root
    open a file whatever its mode), so the write is where the refusal comes."""
    fd = os.open(path, flags)
    try:
        os.write(fd, b"changed")
    finally:
        os.close(fd)


@pytest.mark.parametrize(
    "attempt",
    [
        lambda root: _write_into(root / "N0001" / "_map.md", os.O_WRONLY),
        lambda root: _write_into(root / "N0001" / "_map.md", os.O_WRONLY | os.O_APPEND),
        lambda root: _write_into(root / "N0001" / "_map.md", os.O_WRONLY | os.O_TRUNC),
        lambda root: os.open(root / "N0001" / "new.md", os.O_WRONLY | os.O_CREAT, 0o644),
        lambda root: _write_into(root / "_pages.tsv", os.O_RDWR),
        lambda root: os.truncate(root / "N0001" / "links.tsv", 0),
        lambda root: os.mkdir(root / "N0001" / "more"),
        lambda root: os.unlink(root / "N0001" / "_map.md"),
        lambda root: os.rename(root / "N0001", root / "N0009"),
        lambda root: os.chmod(root / "N0001" / "_map.md", 0o644),
        lambda root: os.symlink("N0001", root / "latest"),
        lambda root: os.rmdir(root / "N0001" / "tables"),
    ],
    ids=["write", "append", "write-truncating", "create", "write-root-file", "truncate", "mkdir", "unlink", "rename", "chmod",
         "symlink", "rmdir"],
)
def test_page_files_refuse_every_change(two_pages_mounted: Mount, attempt) -> None:
    before = (two_pages_mounted.path / "N0001" / "_map.md").read_bytes()
    with pytest.raises(OSError) as refused:
        attempt(two_pages_mounted.path)
    assert (two_pages_mounted.path / "N0001" / "_map.md").read_bytes() == before
    # Root passes permission checks, so the filesystem itself answers: read-only.
    assert refused.value.errno in (errno.EROFS, errno.EACCES)
    if os.getuid() == 0:
        assert refused.value.errno == errno.EROFS


def test_shell_redirection_into_a_page_file_fails(two_pages_mounted: Mount) -> None:
    result = sh(f"echo hello > {two_pages_mounted.path}/N0001/_map.md")
    assert result.returncode != 0
    assert "Read-only file system" in result.stderr or "Permission denied" in result.stderr


def test_missing_names_are_enoent(two_pages: Place) -> None:
    for missing in ("N0003", "N0001/nope.md", "N0001/content/99-x.md"):
        with pytest.raises(FileNotFoundError):
            os.stat(two_pages.path / missing)


def test_listing_many_pages_is_complete_and_ordered(place: Place, site: FixtureSite) -> None:
    # Far more entries than one readdir reply holds, so listing continues from offsets.
    count = 60
    script = " && ".join(
        f"( {place.command_script('open ' + site.url(f'/generated?n={n}'))} ) >/dev/null"
        for n in range(count)
    )
    assert sh(script, timeout=120).returncode == 0
    names = sh(f"ls {place.path}").stdout.split()
    pages = [name for name in names if name.startswith("N")]
    assert pages == [f"N{n:04d}" for n in range(1, count + 1)]
    assert len(sh(f"ls -l {place.path}").stdout.splitlines()) == len(names) + 1


def test_grep_over_the_whole_mount_reads_every_kind_of_file(two_pages: Place) -> None:
    result = sh(f"cd {two_pages.path} && grep -rn 'Lighthouse Keepers' .")
    assert result.returncode == 0 and result.stderr == ""
    files = {line.split(":", 1)[0] for line in result.stdout.splitlines()}
    assert {"./_pages.tsv", "./_log/R0001.md", "./N0001/_map.md"} <= files

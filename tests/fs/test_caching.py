"""What the kernel may keep and what it may not: stored pages are cached for long and the daemon
keeps nothing per entry, yet a remount, a page stored while `grep -r` runs, and the files that
change (`_pages.tsv`, `_log/`) are never served stale."""

from __future__ import annotations

import os
import subprocess
from collections.abc import Callable
from pathlib import Path

from tests.fs.conftest import Mount, Place, sh
from tests.site import FixtureSite
from webshellfs.contract.addresses import PageId
from webshellfs.engine.tree import PAGES_TSV, TreeView
from webshellfs.store import Store

FILES = {"_map.md": b"# Title\n", "content/01-a.md": b"# A\nalpha\n"}


def _pages_tsv(tree: TreeView) -> list[str]:
    entry = tree.entry(PAGES_TSV)
    assert entry is not None
    data = tree.read(PAGES_TSV, 0, entry.size + 100)
    assert len(data) == entry.size
    return data.decode().splitlines()


def test_pages_tsv_follows_new_pages_and_status_changes(tmp_path: Path) -> None:
    with Store(tmp_path / "cache.sqlite") as store:
        tree = TreeView(store, b"readme")
        assert _pages_tsv(tree) == ["page\tparent\tvia\tstatus\ttitle\turl"]
        for url in ("http://a.org/", "http://b.org/"):
            store.add_page(lambda page_id: FILES, title="T", url=url, via="open")
        assert [line.split("\t")[:4] for line in _pages_tsv(tree)[1:]] == [
            ["N0001", "", "open", "stored"], ["N0002", "", "open", "stored"]]
        store.set_status(PageId("N0001"), "live")
        store.add_page(lambda page_id: FILES, title="T", url="http://c.org/", via="open")
        assert [line.split("\t")[3] for line in _pages_tsv(tree)[1:]] == ["live", "stored",
                                                                          "stored"]
        assert [e.name for e in tree.listdir("") if e.name.startswith("N")] == [
            "N0001", "N0002", "N0003"]


def test_a_page_reads_the_same_after_a_remount_and_keeps_its_inode_numbers(
    new_mount: Callable[[], Mount], site: FixtureSite
) -> None:
    first = new_mount().start()
    for path in ("/article.html", "/shop.html"):
        assert first.ctl(f"open {site.url(path)}").returncode == 0
    files = sorted(p.relative_to(first.path) for p in first.path.glob("N000*/**/*") if p.is_file())
    assert sh(f"cd {first.path} && grep -rq Lighthouse N0001").returncode == 0  # all cached
    before = {f: ((first.path / f).read_bytes(), os.stat(first.path / f).st_ino) for f in files}
    first.unmount()

    second = new_mount().start()
    after = {f: ((second.path / f).read_bytes(), os.stat(second.path / f).st_ino) for f in files}
    assert after == before


def test_a_page_stored_while_grep_runs_is_listed_and_read_at_once(
    place: Place, site: FixtureSite
) -> None:
    root = place.path
    assert place.ctl(f"open {site.url('/article.html')}").returncode == 0
    stop = root.parent / "stop-grepping"
    errors = root.parent / "grep-errors"
    # grep -r over the whole tree, again and again, while two more pages are stored.
    grepping = subprocess.Popen(
        ["bash", "-c", f"while [ ! -e {stop} ]; do grep -rq Lighthouse {root}/N* "
         f"|| echo \"grep exit $?\"; cat {root}/_pages.tsv > /dev/null; done > {errors} 2>&1"])
    try:
        for path in ("/shop.html", "/index.html"):
            result = sh(f"( {place.command_script('open ' + site.url(path))} ) >/dev/null "
                        f"&& ls {root} && ls {root}/_log && tail -1 {root}/_pages.tsv "
                        f"&& grep -rl Souvenir {root}/N0002")
            assert result.returncode == 0, result.stderr
            assert "N0002" in result.stdout.split()
        lines = result.stdout.splitlines()
        assert "N0003" in lines and "R0003.md" in lines
        assert any(line.startswith("N0003\t") and "Fixture Site Home" in line for line in lines)
        assert f"{root}/N0002/_map.md" in lines
        assert (root / "_log" / "R0003.md").read_text().startswith("# R0003 ok")
    finally:
        stop.touch()
        grepping.wait(timeout=60)
    assert errors.read_text() == ""

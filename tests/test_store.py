"""The WebCache: whole-page transactions, numbering, content-addressed blobs, the lock, the schema."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.tmpfs import resize, tiny_tmpfs
from webshellfs.errors import CacheLocked, StoreError
from webshellfs.store import LOG_RESERVE_BYTES, SCHEMA_VERSION, Store

FILES = {"_map.md": b"# Title\n", "content/01-a.md": b"# A\nalpha\n", "links.tsv": b"id\turl\n"}


def add(store: Store, files: dict[str, bytes] = FILES, url: str = "http://x.org/", **kw: object) -> str:
    return store.add_page(lambda page_id: files, title="Title", url=url, via="open", **kw).page_id


def test_page_round_trip(tmp_path: Path) -> None:
    with Store(tmp_path / "cache.sqlite") as store:
        page = add(store, meta={"anchors": {"a": "content/01-a.md"}})
        assert page == "N0001"
        record = store.page(page)
        assert record is not None
        assert (record.title, record.url, record.via, record.status) == ("Title", "http://x.org/", "open", "stored")
        assert abs(record.created_ns - time.time_ns()) < 60e9
        assert [(f.relpath, f.size) for f in store.page_files(page)] == [
            ("_map.md", 8), ("content/01-a.md", 10), ("links.tsv", 7)
        ]
        assert store.read_file(page, "content/01-a.md") == b"# A\nalpha\n"
        assert store.read_file(page, "nope.md") is None
        assert store.page_meta(page) == {"anchors": {"a": "content/01-a.md"}}
        assert [r.page_id for r in store.pages_with_url("http://x.org/")] == ["N0001"]
        assert store.page("N0002") is None


def test_the_page_id_is_handed_to_render(tmp_path: Path) -> None:
    with Store(tmp_path / "cache.sqlite") as store:
        add(store)
        record = store.add_page(lambda page_id: {"_map.md": f"page: {page_id}\n".encode()},
                                title="t", url="u")
        assert store.read_file(record.page_id, "_map.md") == b"page: N0002\n"


@pytest.mark.parametrize("relpath", ["../escape.md", "/abs.md", "content//x.md", "content/./x.md", ""])
def test_a_file_path_leaving_the_page_is_refused_and_nothing_is_written(tmp_path: Path, relpath: str) -> None:
    with Store(tmp_path / "cache.sqlite") as store:
        with pytest.raises(StoreError, match="refusing a page file path that leaves its directory"):
            add(store, {**FILES, relpath: b"x"})
        assert store.pages() == []


def test_reads_a_slice_of_a_large_file(tmp_path: Path) -> None:
    big = bytes(range(256)) * (20 * 1024 * 4)  # 20 MiB
    with Store(tmp_path / "cache.sqlite") as store:
        page = add(store, {"resources/R0001.bin": big})
        found = store.page_file(page, "resources/R0001.bin")
        assert found is not None and found.size == len(big)
        assert store.read_blob(found.blob, 4096 + 3, 4096) == big[4099 : 4099 + 4096]
        assert store.read_blob(found.blob, len(big) - 10, 4096) == big[-10:]
        assert store.read_blob(found.blob, len(big) + 5, 4096) == b""


# Reads 4 KiB slices of a 48 MiB file in a fresh process and prints how much its peak memory grew.
SLICE_READER = textwrap.dedent(
    """
    import resource, sys
    from webshellfs.store import Store

    store = Store(sys.argv[1])
    found = store.page_file("N0001", "resources/R0001.bin")
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    for offset in range(0, found.size, found.size // 8):
        assert len(store.read_blob(found.blob, offset, 4096)) == 4096
    print(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss - before)
    """
)


def test_a_slice_read_does_not_load_the_whole_file(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        add(store, {"resources/R0001.bin": os.urandom(1 << 20) * 48})
    grown_kib = subprocess.run([sys.executable, "-c", SLICE_READER, str(path)], check=True,
                               capture_output=True, text=True).stdout
    assert int(grown_kib) < 8 * 1024


def test_identical_files_are_stored_once(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        add(store)
        add(store, {**FILES, "_map.md": b"# Other\n"})
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM blobs").fetchone()[0] == 4
        assert db.execute("SELECT count(*) FROM files").fetchone()[0] == 6


def test_numbering_continues_across_reopen_and_failed_writes_take_no_number(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        assert [add(store), add(store)] == ["N0001", "N0002"]
        assert store.reserve_request_id() == "R0001"
        store.add_log("R0001", "s1", "open http://x.org/", "ok", "R0001 ok: open http://x.org/\n")

        def broken(page_id: str) -> dict[str, bytes]:
            raise RuntimeError("render failed")

        with pytest.raises(RuntimeError):
            store.add_page(broken, title="t", url="u")
        assert [r.page_id for r in store.pages()] == ["N0001", "N0002"]
    with Store(path) as store:
        assert add(store) == "N0003"
        assert store.reserve_request_id() == "R0002"
        record = store.log_record(1)
        assert record is not None
        assert (record.request_id, record.session, record.outcome) == ("R0001", "s1", "ok")
        assert store.log_numbers() == [1]


def test_reads_go_on_during_a_long_write_and_never_see_half_a_page(tmp_path: Path) -> None:
    halfway = threading.Event()
    finish = threading.Event()

    def slow_files(page_id: str) -> Iterator[tuple[str, bytes]]:
        for index in range(20):
            if index == 10:
                halfway.set()
                finish.wait(10)
            yield f"content/{index:02d}.md", b"x" * 1000

    with Store(tmp_path / "cache.sqlite") as store:
        first = add(store)
        writer = threading.Thread(
            target=store.add_page, args=(lambda page_id: dict(slow_files(page_id)),),
            kwargs={"title": "big", "url": "http://big/"},
        )
        writer.start()
        try:
            assert halfway.wait(10)
            started = time.perf_counter()
            for _ in range(50):
                assert [r.page_id for r in store.pages()] == [first]
                assert store.read_file(first, "_map.md") == FILES["_map.md"]
                assert store.page_files("N0002") == []
            assert time.perf_counter() - started < 2
        finally:
            finish.set()
            writer.join(10)
        assert len(store.page_files("N0002")) == 20


def test_searches_are_numbered_and_kept(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        assert store.add_search("red shoes", lambda q: f"# {q} red shoes\n") == "Q0001"
    with Store(path) as store:
        assert store.add_search("blue", lambda q: f"# {q} blue\n") == "Q0002"
        assert store.search_numbers() == [1, 2]
        found = store.search_text(1)
        assert found is not None and found[0] == "# Q0001 red shoes\n"
        assert store.search_text(3) is None


def test_the_newest_page_for_a_url_matches_final_and_asked_for_urls(tmp_path: Path) -> None:
    with Store(tmp_path / "cache.sqlite") as store:
        add(store, url="http://x.org/a")
        add(store, url="http://x.org/b", also_url="http://x.org/old-b")
        add(store, url="http://x.org/a", parent="N0001")  # a state after an action: not the page
        add(store, url="http://x.org/c", also_url="http://x.org/c")
        found = {url: store.newest_page_for(url) for url in
                 ("http://x.org/a", "http://x.org/b", "http://x.org/old-b", "http://x.org/c", "http://x.org/d")}
        assert {url: r.page_id if r else None for url, r in found.items()} == {
            "http://x.org/a": "N0001", "http://x.org/b": "N0002", "http://x.org/old-b": "N0002",
            "http://x.org/c": "N0004", "http://x.org/d": None,
        }
        add(store, url="http://x.org/b")
        newest = store.newest_page_for("http://x.org/b")
        assert newest is not None and newest.page_id == "N0005"


def test_a_version_1_cache_is_upgraded_in_place(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        add(store, url="http://x.org/a")
    with sqlite3.connect(path) as db:
        db.execute("DROP TABLE page_urls")
        db.execute("DROP TABLE running")
        db.execute("DROP TABLE site_steps")
        db.execute("DROP TABLE site_files")
        db.execute("DROP TABLE sites")
        db.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    with Store(path) as store:
        add(store, url="http://x.org/b", also_url="http://x.org/old-b")
        assert [store.newest_page_for(u).page_id for u in ("http://x.org/a", "http://x.org/old-b")] == [
            "N0001", "N0002"
        ]
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION),)


def test_a_site_map_is_replaced_whole_and_kept_across_opens(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        store.save_site("shop.example", '{"n": 1}', {"map.md": b"one", "pages.tsv": b"a"})
        store.save_site("shop.example", '{"n": 2}', {"map.md": b"two"})
    with Store(path) as store:
        assert [site for site, _ in store.sites()] == ["shop.example"]
        assert store.site_state("shop.example") == ('{"n": 2}', [])
        assert store.site_files("shop.example") == [("map.md", 3)]
        assert store.site_file("shop.example", "map.md") == b"two"
        assert store.site_file("shop.example", "pages.tsv") is None
        assert store.site_state("other.example") is None


def test_a_site_steps_follow_its_snapshot_until_the_next(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        store.save_site("shop.example", '{"n": 1}', {"map.md": b"one"})
        store.add_site_step("shop.example", '{"a": 1}')
        store.add_site_step("shop.example", '{"a": 2}', {"map.md": b"two", "pages.tsv": b"p"})
    with Store(path) as store:
        assert store.site_state("shop.example") == ('{"n": 1}', ['{"a": 1}', '{"a": 2}'])
        assert store.site_files("shop.example") == [("map.md", 3), ("pages.tsv", 1)]
        store.save_site("shop.example", '{"n": 2}', {"map.md": b"three"})
        assert store.site_state("shop.example") == ('{"n": 2}', [])
        store.add_site_step("shop.example", '{"a": 3}')
        assert store.site_state("shop.example") == ('{"n": 2}', ['{"a": 3}'])
        assert store.site_file("shop.example", "map.md") == b"three"


def test_a_second_open_of_the_same_cache_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path):
        with pytest.raises(CacheLocked) as refused:
            Store(path)
        assert str(refused.value) == (
            f"the cache {path} is in use by another webshellfs (pid {os.getpid()}); unmount that "
            "one first, or choose another cache with --cache FILE"
        )
    Store(path).close()  # released on close
    alias = tmp_path / "alias.sqlite"
    alias.symlink_to(path)
    with Store(path), pytest.raises(CacheLocked):
        Store(alias)


def test_a_newer_schema_is_refused(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    Store(path).close()
    with sqlite3.connect(path) as db:
        db.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    with pytest.raises(StoreError) as refused:
        Store(path)
    assert str(refused.value) == (
        f"the cache {path} was written by a newer webshellfs (schema {SCHEMA_VERSION + 1}; this one "
        f"reads up to {SCHEMA_VERSION}); upgrade webshellfs or use another --cache"
    )
    with pytest.raises(StoreError, match="newer webshellfs"):  # not CacheLocked: the lock was released
        Store(path)


def test_foreign_files_are_refused(tmp_path: Path) -> None:
    other_db = tmp_path / "other.sqlite"
    with sqlite3.connect(other_db) as db:
        db.execute("CREATE TABLE t (x)")
    with pytest.raises(StoreError, match="is an SQLite file but not a webshellfs cache"):
        Store(other_db)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    with pytest.raises(StoreError, match=f"cannot open the cache {junk}: file is not a database"):
        Store(junk)


# The child writes a page of many 1 MiB files, prints "midway" half-way through the write (inside
# the transaction) and then slows down, so the parent can SIGKILL it mid-write.
KILLED_WRITER = textwrap.dedent(
    """
    import sys, time
    from collections.abc import Mapping
    from webshellfs.store import Store

    class SlowFiles(Mapping):
        def __init__(self, n):
            self.names = [f"content/{i:03d}-part.md" for i in range(n)]
        def __len__(self):
            return len(self.names)
        def __iter__(self):
            return iter(self.names)
        def __getitem__(self, name):
            index = self.names.index(name)
            if index == len(self.names) // 2:
                print("midway", flush=True)
            if index >= len(self.names) // 2:
                time.sleep(0.2)
            return bytes([index % 256]) * (1 << 20)

    store = Store(sys.argv[1])
    store.add_page(lambda page_id: {"_map.md": b"# first\\n"}, title="first", url="http://a/")
    store.add_page(lambda page_id: SlowFiles(40), title="big", url="http://b/")
    print("finished", flush=True)
    """
)


def test_a_writer_killed_mid_page_leaves_no_half_page(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    child = subprocess.Popen([sys.executable, "-c", KILLED_WRITER, str(path)],
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout is not None
        assert child.stdout.readline() == "midway\n"
        os.kill(child.pid, signal.SIGKILL)
    finally:
        child.wait(timeout=30)
    assert child.returncode == -signal.SIGKILL
    with Store(path) as store:
        assert [(r.page_id, r.title) for r in store.pages()] == [("N0001", "first")]
        assert store.page_files("N0002") == []
        assert add(store) == "N0002"
        assert [f.relpath for f in store.page_files("N0002")] == sorted(FILES)


def test_a_command_left_running_by_a_killed_daemon_is_logged_as_interrupted(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        for request_id, command in (("R0001", "open http://x.org/"), ("R0002", "retrieve gardens")):
            assert store.reserve_request_id() == request_id
            store.begin_command(request_id, "s1", command)
        store.add_log("R0001", "s1", "open http://x.org/", "ok", "R0001 ok: open http://x.org/\n")
        assert store.log_numbers() == [1]  # R0002 never answered, as if the daemon died here
    with Store(path) as store:
        assert store.log_numbers() == [1, 2]
        record = store.log_record(2)
        assert record is not None
        assert (record.session, record.command, record.outcome) == ("s1", "retrieve gardens", "failed")
        assert record.text == (
            "R0002 failed: retrieve gardens\nthe daemon stopped before this command finished (it "
            "was killed or crashed), so it was never answered; pages it stored before that are "
            "listed in _pages.tsv, whole. Run it again if it is still needed.\n"
        )
        assert store.reserve_request_id() == "R0003"
    with sqlite3.connect(path) as db:
        assert db.execute("SELECT count(*) FROM running").fetchone() == (0,)


def test_a_new_daemon_has_no_tabs_so_every_page_is_stored_at_open(tmp_path: Path) -> None:
    path = tmp_path / "cache.sqlite"
    with Store(path) as store:
        add(store)
        add(store)
        store.set_status("N0001", "live")
        store.set_status("N0002", "active")
    with Store(path) as store:
        assert [(r.page_id, r.status) for r in store.pages()] == [("N0001", "stored"), ("N0002", "stored")]


def _fill(store: Store, tag: str) -> tuple[list[str], StoreError]:
    """Add incompressible 64 KiB pages until the store refuses one."""
    stored: list[str] = []
    for number in range(1000):
        noise = os.urandom(64 * 1024)
        try:
            stored.append(add(store, {**FILES, "content/02-noise.md": noise}, url=f"http://x.org/{tag}{number}"))
        except StoreError as error:
            return stored, error
    raise AssertionError("the disk never filled")


def test_a_full_disk_fails_the_write_with_its_reason_and_keeps_every_page(tmp_path: Path) -> None:
    with tiny_tmpfs(tmp_path / "tiny", "1m") as tiny:
        path = tiny / "cache.sqlite"
        store = Store(path)
        stored, error = _fill(store, "a")
        assert len(stored) >= 3
        failed_url = f"http://x.org/a{len(stored)}"
        assert str(error) == (
            f"the disk holding the cache {path} is full, so the page of {failed_url} was not "
            "stored; the pages stored before stay readable. Free some space there (or mount "
            "again with --cache on a larger disk) and run the command again"
        )
        assert [r.page_id for r in store.pages()] == stored
        for page in stored:
            assert store.read_file(page, "content/01-a.md") == b"# A\nalpha\n"
            assert len(store.read_file(page, "content/02-noise.md") or b"") == 64 * 1024
        with pytest.raises(StoreError, match="^the disk holding the cache .* is full, so the search results"):
            for _ in range(100):  # a search report is small: some may still fit
                store.add_search("gardens", lambda search_id: "x" * 60_000)
        store.close()  # no room to checkpoint: the WAL is kept, and the lock released anyway

        with Store(path) as reopened:  # on the still-full disk: every page is there
            assert [r.page_id for r in reopened.pages()] == stored
            with pytest.raises(StoreError, match="is full"):
                add(reopened, {**FILES, "content/02-noise.md": os.urandom(64 * 1024)})
            resize(tiny, "4m")
            assert add(reopened, url="http://x.org/after") == f"N{len(stored) + 1:04d}"
        with sqlite3.connect(path) as db:
            assert db.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
            assert db.execute("SELECT count(*) FROM pages").fetchone() == (len(stored) + 1,)
            orphans = db.execute("SELECT count(*) FROM files WHERE page NOT IN (SELECT number FROM pages)")
            assert orphans.fetchone() == (0,)


def _fill_disk(directory: Path) -> None:
    """Fill the disk holding directory with a plain file, up to its last byte."""
    with open(directory / "ballast", "wb") as ballast:
        try:
            while True:
                ballast.write(b"\0" * 65536)
                ballast.flush()
        except OSError:
            pass


def test_a_disk_filled_by_others_still_takes_the_log_record_of_the_failing_command(
    tmp_path: Path
) -> None:
    with tiny_tmpfs(tmp_path / "tiny", "2m") as tiny:
        path = tiny / "cache.sqlite"
        reserve = tiny / "cache.sqlite-reserve"
        with Store(path) as store:
            assert reserve.stat().st_size == LOG_RESERVE_BYTES
            _fill_disk(tiny)
            with pytest.raises(StoreError, match="is full"):
                add(store, {**FILES, "content/02-noise.md": os.urandom(64 * 1024)})
            request = store.reserve_request_id()
            store.add_log(request, "s1", "open http://x.org/", "failed", "the disk is full\n" * 50)
            assert not reserve.exists()  # given up for that record
            assert store.log_numbers() == [int(request[1:])]
            (tiny / "ballast").unlink()
            store.add_log(store.reserve_request_id(), "s1", "help", "ok", "commands\n")
            assert reserve.stat().st_size == LOG_RESERVE_BYTES  # made again once there is room

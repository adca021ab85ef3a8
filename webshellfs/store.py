"""The WebCache: every stored page, the command log and search results, in one SQLite file.

Invariants:
- A page is written in ONE transaction: it appears whole or not at all, even if the process is
  killed mid-write. Its number is taken inside that transaction, so a failed write consumes no
  number, and numbers are never reused (AUTOINCREMENT keeps the high-water mark).
- File contents live in `blobs`, once per content hash, so states share unchanged files.
- One process owns a cache file at a time: an exclusive `flock` on `<cache>.lock`.
- A command is noted as running when it starts and the note is replaced by its log record when
  it ends, in one transaction; a note found at open belongs to a command the daemon never
  finished (killed, crashed), and becomes a log record saying so. Its request number stays used.
  A new daemon has no browser tabs, so at open every page's status becomes `stored`.
- A full disk is a StoreError that says so; the write is rolled back whole and every page
  stored before stays readable (a full disk only stops writes, WAL reads need no space). A
  reserve file beside the cache holds room for the command log: a log record the full disk
  refuses is written again in the room given up by deleting it, so `_log/` still says what
  failed; the reserve is made again once there is space.
- The API is synchronous and short. Reads are point queries on indexes and run on whichever
  thread asks, each thread on its own read-only connection, so the FUSE thread never waits for
  a worker's read; WAL serves them all while a write runs. Writes share one connection behind
  the write lock and are meant for worker threads.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import json
import logging
import os
import sqlite3
import threading
import time
import weakref
from collections.abc import Callable, Iterator, Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Self

from webshellfs.contract.addresses import PageId, format_page_id
from webshellfs.errors import CacheLocked, StoreError

__all__ = [
    "SCHEMA_VERSION",
    "LogRecord",
    "PageFile",
    "PageRecord",
    "Store",
    "format_request_id",
    "format_search_id",
]

log = logging.getLogger(__name__)

SCHEMA_VERSION = 5

# The other URLs a page answers for (the URL asked for, when a redirect ended elsewhere), so a
# later retrieve of the same search result finds the page instead of fetching it again.
_PAGE_URLS = """
CREATE TABLE page_urls (
    url TEXT NOT NULL,
    page INTEGER NOT NULL REFERENCES pages(number),
    PRIMARY KEY (url, page)
) WITHOUT ROWID;
"""
# Commands started and not yet answered (see the module docstring).
_RUNNING = """
CREATE TABLE running (
    number INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    command TEXT NOT NULL,
    created_ns INTEGER NOT NULL
);
"""
# What `explore` learned of a site (webshellfs/explore): its state as JSON, for --resume (a
# snapshot; the steps after it are in site_steps), and the map's files as `_sites/<site>/` shows
# them, replaced whole.
_SITES = """
CREATE TABLE sites (site TEXT PRIMARY KEY, state TEXT NOT NULL, updated_ns INTEGER NOT NULL);
CREATE TABLE site_files (
    site TEXT NOT NULL REFERENCES sites(site),
    name TEXT NOT NULL,
    data BLOB NOT NULL,
    PRIMARY KEY (site, name)
);
"""
# An exploration's steps since its last snapshot (`sites.state`), in order: each is what one
# page or control added, so a checkpoint costs the same however big the site has grown.
_SITE_STEPS = """
CREATE TABLE site_steps (
    site TEXT NOT NULL REFERENCES sites(site),
    number INTEGER NOT NULL,
    step TEXT NOT NULL,
    PRIMARY KEY (site, number)
) WITHOUT ROWID;
"""
# version → the script that brings a cache of that version to the next one.
_MIGRATIONS = {1: _PAGE_URLS, 2: _RUNNING, 3: _SITES, 4: _SITE_STEPS}

_SCHEMA = """
CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE pages (
    number INTEGER PRIMARY KEY AUTOINCREMENT,
    parent TEXT NOT NULL DEFAULT '',
    via TEXT NOT NULL DEFAULT '',
    status TEXT NOT NULL,
    title TEXT NOT NULL,
    url TEXT NOT NULL,
    created_ns INTEGER NOT NULL
);
CREATE INDEX pages_by_url ON pages(url);
CREATE TABLE blobs (
    id INTEGER PRIMARY KEY,
    hash TEXT NOT NULL UNIQUE,
    size INTEGER NOT NULL,
    data BLOB NOT NULL
);
CREATE TABLE files (
    page INTEGER NOT NULL REFERENCES pages(number),
    relpath TEXT NOT NULL,
    blob INTEGER NOT NULL REFERENCES blobs(id),
    size INTEGER NOT NULL,
    PRIMARY KEY (page, relpath)
) WITHOUT ROWID;
CREATE TABLE page_meta (page INTEGER PRIMARY KEY REFERENCES pages(number), json TEXT NOT NULL);
CREATE TABLE log (
    number INTEGER PRIMARY KEY,
    session TEXT NOT NULL,
    command TEXT NOT NULL,
    outcome TEXT NOT NULL,
    response TEXT NOT NULL,
    created_ns INTEGER NOT NULL
);
CREATE TABLE searches (
    number INTEGER PRIMARY KEY,
    query TEXT NOT NULL,
    text TEXT NOT NULL,
    created_ns INTEGER NOT NULL
);
""" + _PAGE_URLS + _RUNNING + _SITES + _SITE_STEPS

STORED = "stored"  # the status of a page in no browser tab
SQLITE_FULL = 13  # primary result code: "database or disk is full"
# Room kept on the cache's disk for log records (see the module docstring): far more than the
# WAL frames of a few responses need.
LOG_RESERVE_BYTES = 512 * 1024
INTERRUPTED = (
    "the daemon stopped before this command finished (it was killed or crashed), so it was "
    "never answered; pages it stored before that are listed in _pages.tsv, whole. Run it again "
    "if it is still needed."
)


def format_request_id(number: int) -> str:
    return f"R{number:04d}"


def format_search_id(number: int) -> str:
    return f"Q{number:04d}"


@dataclass(frozen=True)
class PageRecord:
    """One row of `_pages.tsv`, plus its number and write time (the page's mtime)."""

    number: int
    parent: str
    via: str
    status: str
    title: str
    url: str
    created_ns: int

    @property
    def page_id(self) -> PageId:
        return format_page_id(self.number)


@dataclass(frozen=True)
class PageFile:
    relpath: str
    size: int
    blob: int


@dataclass(frozen=True)
class LogRecord:
    number: int
    session: str
    command: str
    outcome: str
    text: str
    created_ns: int

    @property
    def request_id(self) -> str:
        return format_request_id(self.number)


def _lock_file(path: Path) -> int:
    """Take the exclusive lock beside the cache, or raise CacheLocked naming the holder."""
    real = path.resolve()  # two names for one file (a symlink) must meet at one lock
    lock_path = real.with_name(real.name + ".lock")
    fd = os.open(lock_path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o644)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        holder = os.pread(fd, 32, 0).decode("ascii", "replace").strip()
        os.close(fd)
        who = f" (pid {holder})" if holder.isdigit() else ""
        raise CacheLocked(
            f"the cache {path} is in use by another webshellfs{who}; unmount that one first, "
            f"or choose another cache with --cache FILE"
        ) from None
    os.ftruncate(fd, 0)
    os.pwrite(fd, f"{os.getpid()}\n".encode(), 0)
    return fd


class _Connection(sqlite3.Connection):
    """A plain connection that can be weakly referenced (so a store can close its readers)."""


def _is_full(error: sqlite3.Error) -> bool:
    """SQLite reports ENOSPC as SQLITE_FULL; extended codes keep it in their low byte."""
    return (error.sqlite_errorcode or 0) & 0xFF == SQLITE_FULL


def _keep_reserve(reserve: Path) -> None:
    """Make the log's reserve if it is missing and the disk has room (else try again later)."""
    if reserve.exists():
        return
    try:
        fd = os.open(reserve, os.O_WRONLY | os.O_CREAT | os.O_CLOEXEC, 0o600)
        try:
            os.posix_fallocate(fd, 0, LOG_RESERVE_BYTES)
        finally:
            os.close(fd)
    except OSError:
        with contextlib.suppress(OSError):
            reserve.unlink()  # a reserve only partly allocated holds no promise


def _write_error(path: Path, what: str, error: sqlite3.Error) -> StoreError:
    """The StoreError for a failed write of `what`; a full disk gets a message of its own."""
    if _is_full(error):
        return StoreError(
            f"the disk holding the cache {path} is full, so {what} was not stored; the pages "
            "stored before stay readable. Free some space there (or mount again with --cache on "
            "a larger disk) and run the command again"
        )
    return StoreError(f"cannot write {what} to the cache {path}: {error}")


def _connect(path: Path) -> sqlite3.Connection:
    connection = sqlite3.connect(
        path, isolation_level=None, check_same_thread=False, timeout=30, factory=_Connection
    )
    connection.execute("PRAGMA busy_timeout = 30000")
    return connection


class Store:
    """The page store of one mount. Open it once per process; `close()` releases the lock."""

    def __init__(self, path: Path) -> None:
        self.path = Path(path)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock_fd = _lock_file(self.path)
        real = self.path.resolve()  # beside the cache's own file, on its disk
        self._reserve = real.with_name(real.name + "-reserve")
        self._local = threading.local()
        self._readers: weakref.WeakSet[sqlite3.Connection] = weakref.WeakSet()
        try:
            self._writer = _connect(self.path)
            self._prepare_schema()
        except sqlite3.DatabaseError as error:
            self._release()
            raise StoreError(f"cannot open the cache {self.path}: {error}") from error
        except BaseException:
            self._release()
            raise
        self._write_lock = threading.Lock()
        self._ids_lock = threading.Lock()
        self._settle_previous_daemon()
        last = self._writer.execute(
            "SELECT max(coalesce((SELECT max(number) FROM log), 0), "
            "coalesce((SELECT max(number) FROM running), 0))"
        ).fetchone()[0]
        self._next_request = last + 1
        self.generation = 0  # bumped on every page write, so callers can cache listings
        self.status_generation = 0  # bumped when a stored page's status changes
        _keep_reserve(self._reserve)

    def _prepare_schema(self) -> None:
        db = self._writer
        db.execute("PRAGMA journal_mode = WAL")
        db.execute("PRAGMA synchronous = NORMAL")
        db.execute("PRAGMA foreign_keys = ON")
        has_meta = db.execute(
            "SELECT 1 FROM sqlite_master WHERE type='table' AND name='meta'"
        ).fetchone()
        if not has_meta:
            other = db.execute("SELECT count(*) FROM sqlite_master").fetchone()[0]
            if other:
                raise StoreError(f"{self.path} is an SQLite file but not a webshellfs cache")
            # One script, one transaction: a crash while creating leaves an empty file.
            db.executescript(
                f"BEGIN IMMEDIATE;{_SCHEMA}"
                f"INSERT INTO meta(key, value) VALUES ('schema_version', '{SCHEMA_VERSION}');"
                "COMMIT;"
            )
            return
        row = db.execute("SELECT value FROM meta WHERE key='schema_version'").fetchone()
        version = int(row[0]) if row else 0
        if version > SCHEMA_VERSION:
            raise StoreError(
                f"the cache {self.path} was written by a newer webshellfs (schema {version}; this "
                f"one reads up to {SCHEMA_VERSION}); upgrade webshellfs or use another --cache"
            )
        if version not in _MIGRATIONS and version != SCHEMA_VERSION:
            raise StoreError(f"the cache {self.path} has unknown schema version {version}")
        while version < SCHEMA_VERSION:
            db.executescript(
                f"BEGIN IMMEDIATE;{_MIGRATIONS[version]}"
                f"UPDATE meta SET value = '{version + 1}' WHERE key = 'schema_version';"
                "COMMIT;"
            )
            version += 1

    def _settle_previous_daemon(self) -> None:
        """What a previous daemon left: commands it started and never answered are logged as
        interrupted, and no page is in a tab (a new daemon has none yet), so every page's
        status is `stored`. On a full disk this waits for a later open; the request numbers
        noted stay used meanwhile."""
        db = self._writer
        running = db.execute(
            "SELECT number, session, command, created_ns FROM running ORDER BY number"
        ).fetchall()
        in_tabs = db.execute("SELECT 1 FROM pages WHERE status != ? LIMIT 1", (STORED,)).fetchone()
        if not running and not in_tabs:
            return
        try:
            db.execute("BEGIN IMMEDIATE")
            for number, session, command, created_ns in running:
                text = f"{format_request_id(number)} failed: {command}\n{INTERRUPTED}\n"
                db.execute(
                    "INSERT OR IGNORE INTO log(number, session, command, outcome, response, "
                    "created_ns) VALUES (?, ?, ?, 'failed', ?, ?)",
                    (number, session, command, text, created_ns),
                )
            db.execute("DELETE FROM running")
            db.execute("UPDATE pages SET status = ? WHERE status != ?", (STORED, STORED))
            db.execute("COMMIT")
        except sqlite3.Error as error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            log.warning("%s", _write_error(self.path, "what the previous daemon left", error))

    def _release(self) -> None:
        for reader in list(self._readers):
            reader.close()
        writer = getattr(self, "_writer", None)
        if writer is not None:
            writer.close()
        if self._lock_fd >= 0:
            os.close(self._lock_fd)
            self._lock_fd = -1

    def close(self) -> None:
        if self._lock_fd < 0:
            return
        with self._write_lock:
            try:
                self._writer.execute("PRAGMA wal_checkpoint(TRUNCATE)")
            except sqlite3.Error as error:
                # The WAL is as durable as the main file: the next open reads it.
                log.warning("the cache %s was closed without a checkpoint (%s); its write-ahead "
                            "log is kept and read at the next open", self.path, error)
            self._release()

    def __enter__(self) -> Self:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    # --- write side (worker threads) -----------------------------------------------------------

    def add_page(
        self,
        render: Callable[[PageId], Mapping[str, bytes]],
        *,
        title: str,
        url: str,
        status: str = STORED,
        parent: str = "",
        via: str = "",
        meta: Mapping[str, Any] | None = None,
        also_url: str = "",
    ) -> PageRecord:
        """Store one page whole. `render(page_id)` returns its files; it is called inside the
        transaction once the number is known, because the files name their own address.
        `also_url`: another URL the page answers for (the one asked for, before redirects)."""
        created_ns = time.time_ns()
        with self._write_lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            try:
                number = db.execute(
                    "INSERT INTO pages(parent, via, status, title, url, created_ns) "
                    "VALUES (?, ?, ?, ?, ?, ?)",
                    (parent, via, status, title, url, created_ns),
                ).lastrowid
                assert number is not None
                files = render(format_page_id(number))
                for relpath, data in files.items():
                    _check_relpath(relpath)
                    blob = self._put_blob(bytes(data))
                    db.execute(
                        "INSERT INTO files(page, relpath, blob, size) VALUES (?, ?, ?, ?)",
                        (number, relpath, blob, len(data)),
                    )
                db.execute(
                    "INSERT INTO page_meta(page, json) VALUES (?, ?)",
                    (number, json.dumps(dict(meta or {}), ensure_ascii=False, sort_keys=True)),
                )
                if also_url and also_url != url:
                    db.execute("INSERT INTO page_urls(url, page) VALUES (?, ?)", (also_url, number))
                db.execute("COMMIT")
            except BaseException as error:
                if db.in_transaction:  # SQLite may have rolled back already (disk full…)
                    db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise _write_error(self.path, f"the page of {url}", error) from error
                raise
            self.generation += 1
        return PageRecord(number, parent, via, status, title, url, created_ns)

    def _put_blob(self, data: bytes) -> int:
        digest = hashlib.sha256(data).hexdigest()
        row = self._writer.execute("SELECT id FROM blobs WHERE hash = ?", (digest,)).fetchone()
        if row:
            return int(row[0])
        blob_id = self._writer.execute(
            "INSERT INTO blobs(hash, size, data) VALUES (?, ?, ?)", (digest, len(data), data)
        ).lastrowid
        assert blob_id is not None
        return blob_id

    def set_status(self, page: PageId, status: str) -> None:
        with self._write_lock:
            try:
                self._writer.execute(
                    "UPDATE pages SET status = ? WHERE number = ?", (status, _page_number(page))
                )
            except sqlite3.Error as error:
                raise _write_error(self.path, f"the status of {page}", error) from error
            # In this order: a reader that sees the new generation sees the new statuses too.
            self.status_generation += 1
            self.generation += 1

    def reserve_request_id(self) -> str:
        """The next R… id, taken when a command starts so the log keeps arrival order."""
        with self._ids_lock:
            number = self._next_request
            self._next_request += 1
        return format_request_id(number)

    def begin_command(self, request_id: str, session: str, command: str) -> None:
        """Note a command as running until add_log answers it (see the module docstring)."""
        with self._write_lock:
            try:
                self._writer.execute(
                    "INSERT INTO running(number, session, command, created_ns) VALUES (?, ?, ?, ?)",
                    (int(request_id[1:]), session, command, time.time_ns()),
                )
            except sqlite3.Error as error:
                raise _write_error(self.path, f"the start of {request_id}", error) from error

    def add_log(self, request_id: str, session: str, command: str, outcome: str, text: str) -> LogRecord:
        """Keep a command's response as its log record, replacing its running note. On a full
        disk the log's reserve is given up for it (see the module docstring)."""
        record = LogRecord(int(request_id[1:]), session, command, outcome, text, time.time_ns())
        with self._write_lock:
            try:
                self._insert_log(record)
            except sqlite3.Error as error:
                if not (_is_full(error) and self._reserve.exists()):
                    self._drop_running_note(record.number)
                    raise _write_error(self.path, f"the response of {request_id}", error) from error
                self._reserve.unlink()
                log.warning("the disk holding the cache %s is full; its log reserve was given up "
                            "to keep the response of %s", self.path, request_id)
                try:
                    self._insert_log(record)
                except sqlite3.Error as again:
                    self._drop_running_note(record.number)
                    raise _write_error(self.path, f"the response of {request_id}", again) from again
        _keep_reserve(self._reserve)
        return record

    def _insert_log(self, record: LogRecord) -> None:
        db = self._writer
        try:
            db.execute("BEGIN IMMEDIATE")
            db.execute(
                "INSERT INTO log(number, session, command, outcome, response, created_ns) "
                "VALUES (?, ?, ?, ?, ?, ?)",
                (record.number, record.session, record.command, record.outcome, record.text,
                 record.created_ns),
            )
            db.execute("DELETE FROM running WHERE number = ?", (record.number,))
            db.execute("COMMIT")
        except sqlite3.Error:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _drop_running_note(self, number: int) -> None:
        """A command answered but not kept: never report it as interrupted later."""
        with contextlib.suppress(sqlite3.Error):
            self._writer.execute("DELETE FROM running WHERE number = ?", (number,))

    def add_search(self, query: str, render: Callable[[str], str]) -> str:
        """Keep one retrieve's results as `_search/Q….md`; `render(search_id)` gives the text."""
        with self._write_lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            try:
                number = db.execute("SELECT coalesce(max(number), 0) + 1 FROM searches").fetchone()[0]
                search_id = format_search_id(number)
                db.execute(
                    "INSERT INTO searches(number, query, text, created_ns) VALUES (?, ?, ?, ?)",
                    (number, query, render(search_id), time.time_ns()),
                )
                db.execute("COMMIT")
            except BaseException as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise _write_error(self.path, "the search results", error) from error
                raise
        return search_id

    def save_site(self, site: str, state: str, files: Mapping[str, bytes]) -> None:
        """Keep what an exploration of site knows so far: its whole state (JSON, a snapshot:
        the steps before it are dropped) and its map's files, replacing the ones before in one
        transaction (a killed daemon leaves the last whole checkpoint)."""
        self._write_site(site, files, [
            ("INSERT INTO sites(site, state, updated_ns) VALUES (?, ?, ?) ON CONFLICT(site) "
             "DO UPDATE SET state = excluded.state, updated_ns = excluded.updated_ns",
             (site, state, time.time_ns())),
            ("DELETE FROM site_steps WHERE site = ?", (site,)),
        ])

    def add_site_step(self, site: str, step: str,
                      files: Mapping[str, bytes] | None = None) -> None:
        """Add one step to an exploration saved before (what it learned since its last step),
        with its map's files when given, in one transaction."""
        self._write_site(site, files, [
            ("INSERT INTO site_steps(site, number, step) SELECT ?, coalesce(max(number), 0) + 1, "
             "? FROM site_steps WHERE site = ?", (site, step, site)),
            ("UPDATE sites SET updated_ns = ? WHERE site = ?", (time.time_ns(), site)),
        ])

    def _write_site(self, site: str, files: Mapping[str, bytes] | None,
                    statements: list[tuple[str, tuple[Any, ...]]]) -> None:
        with self._write_lock:
            db = self._writer
            db.execute("BEGIN IMMEDIATE")
            try:
                for sql, args in statements:
                    db.execute(sql, args)
                if files is not None:
                    db.execute("DELETE FROM site_files WHERE site = ?", (site,))
                    db.executemany(
                        "INSERT INTO site_files(site, name, data) VALUES (?, ?, ?)",
                        [(site, name, bytes(data)) for name, data in files.items()],
                    )
                db.execute("COMMIT")
            except BaseException as error:
                if db.in_transaction:
                    db.execute("ROLLBACK")
                if isinstance(error, sqlite3.Error):
                    raise _write_error(self.path, f"the map of {site}", error) from error
                raise
            if files is not None:
                self.generation += 1

    # --- read side (any thread; point queries) -------------------------------------------------

    def _reader(self) -> sqlite3.Connection:
        """This thread's read-only connection, opened on first use; it closes with its thread
        (or with the store)."""
        connection: sqlite3.Connection | None = getattr(self._local, "reader", None)
        if connection is None:
            if self._lock_fd < 0:
                raise StoreError(f"the cache {self.path} is closed")
            connection = _connect(self.path)
            connection.execute("PRAGMA query_only = ON")
            self._local.reader = connection
            self._readers.add(connection)
        return connection

    def _query(self, sql: str, args: tuple[Any, ...] = ()) -> list[tuple[Any, ...]]:
        return self._reader().execute(sql, args).fetchall()

    def page(self, page: PageId) -> PageRecord | None:
        rows = self._query(
            "SELECT number, parent, via, status, title, url, created_ns FROM pages WHERE number = ?",
            (_page_number(page),),
        )
        return PageRecord(*rows[0]) if rows else None

    def pages(self, after: int = 0) -> list[PageRecord]:
        """Every stored page numbered above `after`, in order (pages are only ever added)."""
        rows = self._query(
            "SELECT number, parent, via, status, title, url, created_ns FROM pages "
            "WHERE number > ? ORDER BY number",
            (after,),
        )
        return [PageRecord(*row) for row in rows]

    def pages_with_url(self, url: str) -> list[PageRecord]:
        rows = self._query(
            "SELECT number, parent, via, status, title, url, created_ns FROM pages "
            "WHERE url = ? ORDER BY number",
            (url,),
        )
        return [PageRecord(*row) for row in rows]

    def newest_page_for(self, url: str) -> PageRecord | None:
        """The newest page (not a state made by an action) stored for url, whether url is
        where it ended up or what was asked for."""
        rows = self._query(
            "SELECT number, parent, via, status, title, url, created_ns FROM pages "
            "WHERE parent = '' AND (url = ? OR number IN (SELECT page FROM page_urls WHERE url = ?)) "
            "ORDER BY number DESC LIMIT 1",
            (url, url),
        )
        return PageRecord(*rows[0]) if rows else None

    def page_files(self, page: PageId) -> list[PageFile]:
        rows = self._query(
            "SELECT relpath, size, blob FROM files WHERE page = ? ORDER BY relpath",
            (_page_number(page),),
        )
        return [PageFile(*row) for row in rows]

    def every_page_file(self) -> Iterator[tuple[PageId, PageFile]]:
        """Every file of every page, by page then path, in one query (for checking a copy)."""
        rows = self._reader().execute(
            "SELECT page, relpath, size, blob FROM files ORDER BY page, relpath")
        for page, relpath, size, blob in rows:
            yield format_page_id(page), PageFile(relpath, size, blob)

    def page_file(self, page: PageId, relpath: str) -> PageFile | None:
        rows = self._query(
            "SELECT relpath, size, blob FROM files WHERE page = ? AND relpath = ?",
            (_page_number(page), relpath),
        )
        return PageFile(*rows[0]) if rows else None

    def page_meta(self, page: PageId) -> dict[str, Any]:
        rows = self._query("SELECT json FROM page_meta WHERE page = ?", (_page_number(page),))
        return json.loads(rows[0][0]) if rows else {}

    def read_blob(self, blob: int, offset: int = 0, size: int = -1) -> bytes:
        """A slice of one stored file; only the pages holding that slice are read."""
        with self._reader().blobopen("blobs", "data", blob, readonly=True) as handle:
            length = len(handle)
            if offset >= length:
                return b""
            handle.seek(offset)
            return handle.read(length - offset if size < 0 else min(size, length - offset))

    def read_file(self, page: PageId, relpath: str) -> bytes | None:
        found = self.page_file(page, relpath)
        return None if found is None else self.read_blob(found.blob)

    def log_numbers(self) -> list[int]:
        return [row[0] for row in self._query("SELECT number FROM log ORDER BY number")]

    def log_record(self, number: int) -> LogRecord | None:
        rows = self._query(
            "SELECT number, session, command, outcome, response, created_ns FROM log WHERE number = ?",
            (number,),
        )
        return LogRecord(*rows[0]) if rows else None

    def search_numbers(self) -> list[int]:
        return [row[0] for row in self._query("SELECT number FROM searches ORDER BY number")]

    def search_text(self, number: int) -> tuple[str, int] | None:
        rows = self._query("SELECT text, created_ns FROM searches WHERE number = ?", (number,))
        return (rows[0][0], rows[0][1]) if rows else None

    def sites(self) -> list[tuple[str, int]]:
        """Every explored site and when its map was last written, newest first."""
        rows = self._query("SELECT site, updated_ns FROM sites ORDER BY updated_ns DESC")
        return [(row[0], row[1]) for row in rows]

    def site_state(self, site: str) -> tuple[str, list[str]] | None:
        """An exploration's last snapshot and the steps after it, read in one transaction."""
        reader = self._reader()
        reader.execute("BEGIN")
        try:
            rows = reader.execute("SELECT state FROM sites WHERE site = ?", (site,)).fetchall()
            steps = reader.execute(
                "SELECT step FROM site_steps WHERE site = ? ORDER BY number", (site,)
            ).fetchall()
        finally:
            reader.execute("COMMIT")
        return (rows[0][0], [row[0] for row in steps]) if rows else None

    def site_files(self, site: str) -> list[tuple[str, int]]:
        """The names and sizes of a site's map files."""
        rows = self._query(
            "SELECT name, length(data) FROM site_files WHERE site = ? ORDER BY name", (site,)
        )
        return [(row[0], row[1]) for row in rows]

    def site_file(self, site: str, name: str) -> bytes | None:
        rows = self._query(
            "SELECT data FROM site_files WHERE site = ? AND name = ?", (site, name)
        )
        return bytes(rows[0][0]) if rows else None


def _check_relpath(relpath: str) -> None:
    """A page file's path must stay inside its page directory."""
    parts = relpath.split("/")
    if relpath.startswith("/") or any(part in ("", ".", "..") for part in parts):
        raise StoreError(f"refusing a page file path that leaves its directory: {relpath!r}")


def _page_number(page: PageId) -> int:
    return int(page[1:])

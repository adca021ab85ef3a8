"""Directory mode, `webshellfs DIR --no-fuse`: the mount's tree kept in DIR as plain files, for
machines where FUSE cannot be mounted, with commands over the socket DIR/.ctl (sockets.py).

The store stays the truth. `DirectoryMirror` walks the same tree the FUSE layer serves
(engine/tree.py) and writes into DIR what DIR lacks. A page directory is written whole under a
hidden staging name (treeout.write_page_dir), made read-only (directories 0555, files 0444),
then renamed into place: a reader never sees half a page, and a killed daemon leaves only a
staging name, which the next start removes. Every other file is written beside its place and
renamed over it. At start the mirror checks DIR against the store (each page's names, sizes and
modes; each log and search record) and rewrites what differs; after every command, and whenever
the store's page list changes while one runs, it adds what is new and rewrites `_pages.tsv`.
"""

from __future__ import annotations

import contextlib
import errno
import fcntl
import logging
import os
import shutil
import signal
import socket
import stat
import tempfile
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path

import trio

from webshellfs.channel import ERRNO_FOR_OUTCOME, session_of
from webshellfs.contract.addresses import parse_page_id
from webshellfs.ctl import MAX_COMMAND_BYTES
from webshellfs.engine import Engine, Entry
from webshellfs.engine.tree import (
    LAST_LINK, LOG_DIR, PAGES_TSV, README, SEARCH_DIR, SITES_DIR, TreeView,
)
from webshellfs.errors import UsageError
from webshellfs.guide import guide_text
from webshellfs.sockets import (
    RUN,
    SOCKET_NAME,
    STOP,
    WATCH,
    encode_progress,
    encode_reply,
    parse_request,
    peer_of,
    socket_address,
)
from webshellfs.treeout import write_page_dir
from webshellfs.workers import warm_up

__all__ = ["DirectoryMirror", "prepare", "serve"]

log = logging.getLogger(__name__)

STAGING = ".webshellfs-"  # hidden names of what is being written; leftovers go at start
DIR_MODE = 0o555
FILE_MODE = 0o444
OPEN_DIR_MODE = 0o755  # _log/, _search/ and _sites/ while something is added
SOCKET_MODE = 0o600
RECORD_DIRS = (LOG_DIR, SEARCH_DIR)
ROOT_FILES = (README, PAGES_TSV)
# How often the store's page list is looked at while commands run (a retrieve stores its
# pages one by one: they show in DIR as they come, not only when it ends).
POLL_SECONDS = 0.25
STOP_SIGNALS = (signal.SIGINT, signal.SIGTERM, signal.SIGHUP)  # SIGHUP: the terminal closed
# A request is a command line with its verb; more than this is refused by the engine anyway.
REQUEST_LIMIT = MAX_COMMAND_BYTES + len(RUN) + 2
REQUEST_SECONDS = 30.0  # to send a request: a caller that never finishes one is dropped
# Lines of progress waiting to be sent to a `watch` caller; past this (a caller that does not
# read) the rest are left out, never the command held up.
PROGRESS_BACKLOG = 256


def prepare(root: Path) -> None:
    """Refuse a directory that cannot be served: missing, not a directory, or holding files
    that are not an earlier directory-mode tree (which is checked and reused)."""
    try:
        held = sorted(os.listdir(root))
    except OSError as exc:
        raise UsageError(f"cannot serve {root}: {exc.strerror}") from None
    if held and PAGES_TSV not in held:
        more = f" and {len(held) - 1} more" if len(held) > 1 else ""
        raise UsageError(
            f"{root} is not empty (it holds {held[0]!r}{more}) and holds no earlier webshellfs "
            "tree: serve an empty directory"
        )


def _lock(root: Path) -> int:
    """One daemon per directory, held for the daemon's life (whatever its cache)."""
    fd = os.open(root, os.O_RDONLY | os.O_DIRECTORY)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        os.close(fd)
        raise UsageError(
            f"another webshellfs serves {root} already; stop it first: webshell --at {root} --stop"
        ) from None
    return fd


@contextmanager
def _open_for_writing(directory: Path) -> Iterator[None]:
    """A read-only directory made writable while something is added (the daemon may not be
    root), then read-only again."""
    os.chmod(directory, OPEN_DIR_MODE)
    try:
        yield
    finally:
        os.chmod(directory, DIR_MODE)


def _remove(path: Path) -> None:
    """Remove a file or a read-only tree of ours."""
    if path.is_dir() and not path.is_symlink():
        for parent, _dirs, _files in os.walk(path):
            os.chmod(parent, OPEN_DIR_MODE)
        shutil.rmtree(path)
    else:
        path.unlink(missing_ok=True)


def _write_file(path: Path, data: bytes, mtime_ns: int) -> None:
    """Write path whole: beside it under a staging name, read-only, then renamed over it."""
    staging = path.with_name(f"{STAGING}{path.name}")
    staging.unlink(missing_ok=True)
    staging.write_bytes(data)
    os.chmod(staging, FILE_MODE)
    os.utime(staging, ns=(mtime_ns, mtime_ns))
    os.replace(staging, path)


def _seal(top: Path, mtime_ns: int) -> None:
    """Make a written tree read-only, every entry dated mtime_ns (innermost first, since adding
    to a directory moves its time)."""
    for parent, _dirs, files in os.walk(top, topdown=False):
        for name in files:
            os.chmod(os.path.join(parent, name), FILE_MODE)
            os.utime(os.path.join(parent, name), ns=(mtime_ns, mtime_ns))
        os.chmod(parent, DIR_MODE)
        os.utime(parent, ns=(mtime_ns, mtime_ns))


def _is_sealed_file(path: Path) -> bool:
    """A plain file, read-only as the daemon leaves it."""
    try:
        info = os.lstat(path)
    except FileNotFoundError:
        return False
    return stat.S_ISREG(info.st_mode) and stat.S_IMODE(info.st_mode) == FILE_MODE


def _on_disk(top: Path) -> set[tuple[str, bool, int, int]]:
    """(relative path, is a directory, size, mode) of everything under top: scandir and one
    lstat per entry, since a start checks every file of thousands of pages."""
    found: set[tuple[str, bool, int, int]] = set()
    pending = [("", os.fspath(top))]
    while pending:
        prefix, directory = pending.pop()
        with os.scandir(directory) as children:
            for child in children:
                info = child.stat(follow_symlinks=False)
                relpath = prefix + child.name
                is_dir = stat.S_ISDIR(info.st_mode)
                found.add((relpath, is_dir, 0 if is_dir else info.st_size,
                           stat.S_IMODE(info.st_mode)))
                if is_dir:
                    pending.append((relpath + "/", child.path))
    return found


class DirectoryMirror:
    """Keeps root equal to the tree the store shows. Not thread-safe: one call at a time."""

    def __init__(self, root: Path, tree: TreeView) -> None:
        self.root = root
        self.tree = tree
        self._pages: set[str] = set()  # page directories known to match the store
        self._records: set[str] = set()  # `_log/R0001.md` … known written
        self._root_files: dict[str, bytes] = {}  # README.md, _pages.tsv as last written
        self._site_files: dict[str, bytes] = {}  # `_sites/<site>/map.md` … as last written

    def rebuild(self) -> None:
        """At start: clear what a killed daemon left, check everything against the store,
        write what is missing or differs, and remove pages the store does not have."""
        self._remove_staging(self.root)
        wanted = set(self._page_names())
        for child in self.root.iterdir():
            if parse_page_id(child.name) and child.name not in wanted:
                log.info("removing %s: the store has no such page", child)
                _remove(child)
        self._pages = {page for page, layout in self.tree.page_layouts()
                       if page in wanted and self._page_matches(page, layout)}
        for top in RECORD_DIRS:
            self._check_records(top)
        for name in ROOT_FILES:
            path = self.root / name
            self._root_files[name] = path.read_bytes() if _is_sealed_file(path) else b""
        self.sync()

    def sync(self) -> None:
        """Write what the store has and DIR does not yet: new pages, records, `_pages.tsv`."""
        for page in self._page_names():
            if page not in self._pages:
                self._write_page(page)
                self._pages.add(page)
        for name in ROOT_FILES:
            entry = self.tree.entry(name)
            assert entry is not None, "the root files always exist"
            data = self.tree.read(name, 0, entry.size)
            if data != self._root_files.get(name):
                _write_file(self.root / name, data, entry.mtime_ns)
                self._root_files[name] = data
        for top in RECORD_DIRS:
            new = [e for e in self.tree.listdir(top) if e.path not in self._records]
            if new:
                with _open_for_writing(self.root / top):
                    for entry in new:
                        self._write_record(entry)
        self._sync_sites()

    # --- _sites/: each explored site's map, rewritten file by file as it changes

    def _sync_sites(self) -> None:
        top = self.root / SITES_DIR
        if not top.is_dir():
            top.mkdir(mode=DIR_MODE)
        for site in self.tree.listdir(SITES_DIR):
            files = [e for e in self.tree.listdir(site.path) if not e.is_dir]
            changed = {e.path: self.tree.read(e.path, 0, e.size) for e in files}
            changed = {p: d for p, d in changed.items() if self._site_files.get(p) != d}
            if not changed:
                continue
            with _open_for_writing(top):
                (self.root / site.path).mkdir(mode=DIR_MODE, exist_ok=True)
            with _open_for_writing(self.root / site.path):
                for path, data in changed.items():
                    _write_file(self.root / path, data, site.mtime_ns)
                    self._site_files[path] = data

    def point_last(self, page: str) -> None:
        """`@` in DIR: a link to the page the last command named. A plain directory cannot show
        each caller its own, as the mount does, so it is the last command's, whoever sent it
        (in commands, `@` is still the sender's own)."""
        link = self.root / LAST_LINK
        with contextlib.suppress(OSError):
            if os.readlink(link) == page:
                return
        staging = self.root / f"{STAGING}{LAST_LINK}"
        staging.unlink(missing_ok=True)
        os.symlink(page, staging)
        os.replace(staging, link)

    # --- pages

    def _page_names(self) -> list[str]:
        return [e.name for e in self.tree.listdir("") if e.is_dir and parse_page_id(e.name)]

    def _page_entries(self, page: str) -> list[Entry]:
        """Every entry under a page directory, as the mount shows it."""
        found: list[Entry] = []
        pending = [page]
        while pending:
            for entry in self.tree.listdir(pending.pop()):
                found.append(entry)
                if entry.is_dir:
                    pending.append(entry.path)
        return found

    def _page_matches(self, page: str, layout: set[tuple[str, bool, int]]) -> bool:
        path = self.root / page
        if not path.is_dir() or stat.S_IMODE(path.stat().st_mode) != DIR_MODE:
            return False
        expected = {(relpath, is_dir, size, DIR_MODE if is_dir else FILE_MODE)
                    for relpath, is_dir, size in layout}
        if _on_disk(path) == expected:
            return True
        log.info("rewriting %s: it differs from the stored page", path)
        return False

    def _write_page(self, page: str) -> None:
        entry = self.tree.entry(page)
        assert entry is not None
        prefix = len(page) + 1
        files = {
            e.path[prefix:]: self.tree.read(e.path, 0, e.size)
            for e in self._page_entries(page) if not e.is_dir
        }
        staging = self.root / f"{STAGING}{page}"
        if staging.exists():  # an attempt that failed half-way (a full disk, say)
            _remove(staging)
        write_page_dir(files, staging)
        _seal(staging, entry.mtime_ns)
        destination = self.root / page
        if destination.exists():  # a damaged copy found at start: swap, then drop it
            old = self.root / f"{STAGING}{page}.old"
            os.rename(destination, old)
            os.rename(staging, destination)
            _remove(old)
        else:
            os.rename(staging, destination)

    # --- _log/ and _search/

    def _check_records(self, top: str) -> None:
        directory = self.root / top
        if not directory.is_dir():
            directory.mkdir()
        with _open_for_writing(directory):
            self._remove_staging(directory)
            expected = {e.name: e for e in self.tree.listdir(top)}
            for child in directory.iterdir():
                entry = expected.get(child.name)
                sealed = _is_sealed_file(child)
                if entry is None or not sealed or child.stat().st_size != entry.size:
                    _remove(child)
                else:
                    self._records.add(entry.path)

    def _write_record(self, entry: Entry) -> None:
        data = self.tree.read(entry.path, 0, entry.size)
        _write_file(self.root / entry.path, data, entry.mtime_ns)
        self._records.add(entry.path)

    @staticmethod
    def _remove_staging(directory: Path) -> None:
        for child in directory.iterdir():
            if child.name.startswith((STAGING, "." + STAGING)):
                _remove(child)


class CommandServer:
    """Answers `webshell` over the socket: runs each command in the engine, brings DIR up to
    date, then replies with the errno and the response."""

    def __init__(self, engine: Engine, mirror: DirectoryMirror) -> None:
        self.engine = engine
        self.mirror = mirror
        self._mirror_lock = trio.Lock()
        self._stop: trio.CancelScope | None = None
        self._held: list[int] = []  # connections answered "stopped"

    async def sync(self) -> None:
        async with self._mirror_lock:
            try:
                await trio.to_thread.run_sync(self.mirror.sync)
            except OSError:
                log.exception("could not bring %s up to date with the store", self.mirror.root)

    async def watch(self) -> None:
        """Sync whenever the store's page list changes (pages a running retrieve stores)."""
        seen = self.engine.store.generation
        while True:
            await trio.sleep(POLL_SECONDS)
            if self.engine.store.generation != seen:
                seen = self.engine.store.generation
                await self.sync()

    async def listen(
        self, path: Path, stop: trio.CancelScope, *, task_status: trio.TaskStatus[None]
    ) -> None:
        self._stop = stop
        listener = trio.SocketListener(await _bind_private(path))
        async with trio.open_nursery() as handlers:
            task_status.started()
            await trio.serve_listeners(self.handle, [listener], handler_nursery=handlers)

    async def handle(self, stream: trio.SocketStream) -> None:
        stopping = False
        try:
            peer = peer_of(stream.socket)
            if peer.uid not in (os.getuid(), 0):
                reply = encode_reply(errno.EACCES, b"only the user who started webshellfs may\n")
            else:
                kind, line = parse_request(await _receive(stream))
                if kind == RUN:
                    reply = await self._run(line, session_of(peer.pid))
                elif kind == WATCH:
                    reply = await self._watched(line, session_of(peer.pid), stream)
                elif kind == STOP:
                    reply, stopping = encode_reply(0, b"stopped\n"), True
                else:
                    reply = encode_reply(errno.EINVAL, b"not a webshell request\n")
            await stream.send_all(reply)
        except (trio.BrokenResourceError, trio.ClosedResourceError, trio.TooSlowError) as gone:
            # The caller left (killed mid-command, say): the command ran and is in _log/.
            log.info("a webshell caller left before its reply (%s)", type(gone).__name__)
            stopping = False
        finally:
            if stopping and self._stop is not None:
                # A copy held open until the process ends (trio closes the stream itself), so
                # `webshell --stop` returns once the daemon is gone, not merely asked to go.
                self._held.append(os.dup(stream.socket.fileno()))
                log.info("asked to stop over the socket")
                self._stop.cancel()
            else:
                await stream.aclose()

    async def _run(
        self, line: bytes, session: str, on_progress: Callable[[str], None] | None = None
    ) -> bytes:
        response = await self.engine.command(line, session, on_progress)
        await self.sync()  # the pages and records it named are in DIR before it answers
        last = self.engine.last_page(session)
        if last is not None:
            await trio.to_thread.run_sync(self.mirror.point_last, last)
        return encode_reply(ERRNO_FOR_OUTCOME.get(response.outcome, 0), response.data)

    async def _watched(self, line: bytes, session: str, stream: trio.SocketStream) -> bytes:
        """`_run`, sending the command's progress to the caller while it runs. A caller that
        has gone stops only the sending: the command runs on and is kept in _log/."""
        send, receive = trio.open_memory_channel[str](PROGRESS_BACKLOG)

        def on_progress(text: str) -> None:
            with contextlib.suppress(trio.WouldBlock, trio.BrokenResourceError):
                send.send_nowait(text)

        async def forward() -> None:
            async with receive:
                async for text in receive:
                    try:
                        await stream.send_all(encode_progress(text))
                    except (trio.BrokenResourceError, trio.ClosedResourceError):
                        return

        async with trio.open_nursery() as nursery:
            nursery.start_soon(forward)
            async with send:
                reply = await self._run(line, session, on_progress)
        return reply


async def _receive(stream: trio.SocketStream) -> bytes:
    """The whole request (the caller shuts its side after sending), at most REQUEST_LIMIT."""
    data = bytearray()
    with trio.fail_after(REQUEST_SECONDS):
        while len(data) <= REQUEST_LIMIT:
            chunk = await stream.receive_some(65536)
            if not chunk:
                break
            data += chunk
    return bytes(data)


async def _bind_private(path: Path) -> trio.socket.SocketType:
    """A listening socket at path, mode 0600 from its first moment: bound inside a private
    (0700) staging directory, then renamed over path (and over a killed daemon's socket)."""
    staging = Path(tempfile.mkdtemp(prefix=STAGING, dir=path.parent))
    try:
        listening = trio.socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        with socket_address(staging / "socket") as address:
            await listening.bind(address)
        os.chmod(staging / "socket", SOCKET_MODE)
        os.replace(staging / "socket", path)
        listening.listen(128)
        return listening
    finally:
        shutil.rmtree(staging, ignore_errors=True)


def serve(engine: Engine, root: Path, on_ready: Callable[[], None]) -> None:
    """Fill root from the store, then answer `webshell` until stopped; closes the engine."""
    try:
        lock = _lock(root)
    except BaseException:
        trio.run(engine.aclose)
        raise
    try:
        mirror = DirectoryMirror(root, TreeView(engine.store, guide_text(directory=True).encode()))
        started = time.monotonic()
        try:
            mirror.rebuild()
        except BaseException:
            trio.run(engine.aclose)
            raise
        log.info("serving %s as plain files (cache %s, pid %d); checking it against the store "
                 "took %.2f s", root, engine.store.path, os.getpid(), time.monotonic() - started)
        trio.run(_main, engine, CommandServer(engine, mirror), root / SOCKET_NAME, on_ready)
        log.info("stopped serving %s", root)
    finally:
        os.close(lock)


async def _main(
    engine: Engine, server: CommandServer, socket_path: Path, on_ready: Callable[[], None]
) -> None:
    try:
        async with trio.open_nursery() as nursery:

            async def stop_on_signal() -> None:
                with trio.open_signal_receiver(*STOP_SIGNALS) as signals:
                    async for signum in signals:
                        log.info("%s received: stopping", signal.Signals(signum).name)
                        nursery.cancel_scope.cancel()  # commands still running are dropped
                        return

            nursery.start_soon(stop_on_signal)
            await nursery.start(server.listen, socket_path, nursery.cancel_scope)
            nursery.start_soon(server.watch)
            nursery.start_soon(warm_up)
            on_ready()
    finally:
        socket_path.unlink(missing_ok=True)
        with trio.CancelScope(shield=True):
            await server.sync()  # whatever was stored before the stop is in DIR
            await engine.aclose()

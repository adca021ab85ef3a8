"""The FUSE room: file operations translated onto the Engine, and nothing else.

pyfuse3 runs every handler below as a trio task on one thread. The engine's read side is made
of short synchronous queries, so handlers call it directly; a `.ctl` write awaits
`Engine.command`, which does its slow work in worker threads, so while one command runs every
other handler keeps being served.

Only `FUSEError` may leave a handler: anything else would end `pyfuse3.main` and unmount the
filesystem. Every handler therefore runs inside `guarded`, which maps domain errors to errnos
through the one table `ERRNO_FOR` and turns anything unexpected into a logged EIO.

`.ctl` has one inode per session. The kernel serialises writes (and truncating opens) on an
inode, so with one shared inode a session's slow `open` would hold up every other session's
commands; with its own inode each session waits only for itself. Its entry is never cached, so
every path walk asks again and each caller lands on its own session's inode. `.progress` is the
same per session and holds what the session's running (else last) command has reported so far:
`webshell` reads it while its write to `.ctl` waits. It is answered, not listed, so
the root holds what the contract lists.

Caching: nothing here is ever opened. `open` and `opendir` answer ENOSYS, which tells the
kernel to stop sending OPEN, OPENDIR and their RELEASEs and to keep every file's pages and every
directory's listing in its own caches; a warm `grep -r` then costs almost no requests. Reads,
writes and readdirs still come, naming their inode (webshellfs/pyfuse3-unopened.patch makes
pyfuse3 pass it where a handle would be). A stored page never changes, so its entries carry long
timeouts, and the kernel keeps them for as long as it likes. This layer keeps nothing per entry
(inode numbers are computed, inodes.py): what the kernel asks again, the engine answers again
from its small caches, so the daemon's memory does not grow with what has been read.

What changes is kept current two ways: `.ctl` and `_pages.tsv` have no attribute caching, so
each read asks for their size and time first and the kernel drops its pages when either moved;
and when a command ends, the kernel is told to forget the root's, `_log/`'s and `_search/`'s
listings and `_pages.tsv` (the only things a command changes) before the write returns, so the
caller's next `ls` or `cat` is current.
"""

from __future__ import annotations

import errno
import functools
import importlib.metadata
import logging
import os
import stat
from collections.abc import Awaitable, Callable
from typing import Any, NoReturn, ParamSpec, TypeVar

import pyfuse3
import trio

from webshellfs.channel import ERRNO_FOR_OUTCOME, session_of
from webshellfs.engine import Engine, Entry
from webshellfs.engine.tree import LAST_LINK as LAST_PATH
from webshellfs.engine.tree import LOG_DIR, PAGES_TSV, SEARCH_DIR, SITES_DIR
from webshellfs.errors import (
    AccessDenied,
    CacheLocked,
    FetchError,
    FetchTimeout,
    NotFoundError,
    StoreError,
    UsageError,
    WebshellError,
)
from webshellfs.inodes import (
    CTL_PATH,
    PROGRESS_PATH,
    ROOT_PATH,
    InodeTable,
    child_path,
    parent_path,
)

__all__ = [
    "ERRNO_FOR",
    "ERRNO_FOR_OUTCOME",
    "Operations",
    "errno_for",
    "require_patched_pyfuse3",
    "session_of",
]

log = logging.getLogger(__name__)

# Domain error → errno. The most specific class wins (see errno_for).
ERRNO_FOR: dict[type[BaseException], int] = {
    WebshellError: errno.EIO,
    UsageError: errno.EINVAL,
    NotFoundError: errno.ENOENT,
    FetchError: errno.EIO,
    FetchTimeout: errno.ETIMEDOUT,
    AccessDenied: errno.EACCES,
    StoreError: errno.EIO,
    CacheLocked: errno.EBUSY,
}

# A stored page never changes and no name is ever removed: let the kernel keep them.
FOREVER = 3600.0
# Directories that gain entries (the root, _log/) keep their attributes briefly: only their
# mtime goes stale, and a zero timeout would cost a GETATTR on every path walked through them.
CHANGING_DIR_ATTR_TIMEOUT = 1.0
# readdir is not told who lists, so the root's listing shows `.ctl` with this session's inode;
# its entry is never cached, so any use of the name looks it up again for the caller's own.
LISTED_SESSION = "listing"
# What a command can change: forgotten by the kernel when one ends.
CHANGING_PATHS = (ROOT_PATH, PAGES_TSV, LOG_DIR, SEARCH_DIR, SITES_DIR)
# The local version label of a pyfuse3 built with our patch (mount.sh builds it).
PATCHED_PYFUSE3 = "+webshellfs."

P = ParamSpec("P")
R = TypeVar("R")


def errno_for(exc: BaseException) -> int:
    """The errno of the most specific class of exc found in ERRNO_FOR (EIO if none)."""
    for cls in type(exc).__mro__:
        if cls in ERRNO_FOR:
            return ERRNO_FOR[cls]
    return errno.EIO


def require_patched_pyfuse3() -> None:
    """Refuse to mount with a stock pyfuse3: it would hand every read and readdir handle 0."""
    version = importlib.metadata.version("pyfuse3")
    if PATCHED_PYFUSE3 not in version:
        raise UsageError(
            f"pyfuse3 {version} is the stock build; webshellfs needs it built with "
            "webshellfs/pyfuse3-unopened.patch, which ./mount.sh does (docs/operations.md)"
        )


def _invalidate_kernel_caches(inodes: list[int]) -> None:
    """Make the kernel drop its attributes, pages and listing of each inode. Blocking, so it
    runs in a worker thread; never for an inode whose write is in progress (its pages are
    locked until that write is answered)."""
    for inode in inodes:
        try:
            pyfuse3.invalidate_inode(pyfuse3.InodeT(inode))
        except OSError as error:
            if error.errno != errno.ENOENT:  # ENOENT: the kernel holds nothing of it
                log.warning("could not invalidate inode %d: %s", inode, error)


def guarded(handler: Callable[P, Awaitable[R]]) -> Callable[P, Awaitable[R]]:
    """Let only FUSEError out of a handler: domain errors become their errno, anything else
    is logged with its traceback and answered with EIO."""

    @functools.wraps(handler)
    async def wrapper(*args: P.args, **kwargs: P.kwargs) -> R:
        try:
            return await handler(*args, **kwargs)
        except pyfuse3.FUSEError:
            raise
        except WebshellError as exc:
            log.debug("%s: %s: %s", handler.__name__, type(exc).__name__, exc)
            raise pyfuse3.FUSEError(errno_for(exc)) from None
        except Exception:
            log.exception("unexpected error in %s%r", handler.__name__, args[1:])
            raise pyfuse3.FUSEError(errno.EIO) from None

    return wrapper


# A directory's children as readdir serves them: (name, attributes); each counts as a lookup.
_Listing = list[tuple[bytes, pyfuse3.EntryAttributes]]


def _read_only(*_args: Any) -> Awaitable[NoReturn]:
    async def refuse() -> NoReturn:
        raise pyfuse3.FUSEError(errno.EROFS)

    return refuse()


class Operations(pyfuse3.Operations):
    """Attributes:
        engine: answers every question about paths and runs `.ctl` commands.
        inodes: path ↔ inode numbers and the kernel's lookup count.
        _changing_listings: path → listing of a directory that grows (the root, `_log/`,
            `_search/`), until the next command ends: the kernel asks for a long one in many
            parts. A page's directories are listed afresh each time (they are short).
    """

    enable_writeback_cache = False

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.inodes = InodeTable(engine.tree)
        self._uid = os.getuid()
        self._gid = os.getgid()
        self._changing_listings: dict[str, _Listing] = {}

    # --- names and attributes

    def _path(self, inode: int) -> str:
        path = self.inodes.path(inode)
        if path is None:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return path

    def _entry(self, path: str) -> Entry:
        entry = self.engine.entry(path)
        if entry is None:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return entry

    def _entry_attributes(self, path: str, inode: int | None = None) -> pyfuse3.EntryAttributes:
        return self._attributes(self._entry(path), inode)

    def _ctl_attributes(self, inode: int) -> pyfuse3.EntryAttributes:
        """`.ctl` as one session sees it: its own inode, sized to its own last response (the
        kernel serves reads from its page cache up to that size)."""
        session = self.inodes.ctl_session(inode)
        assert session is not None, "every .ctl inode belongs to a session"
        return self._attributes(self._entry(CTL_PATH), inode, len(self.engine.response(session)))

    def _progress_entry(self, inode: int) -> tuple[Entry, bytes]:
        """`.progress` as one session sees it, and its bytes: dated by the last report, so a
        read after a new one finds the size and time moved and the kernel reads it again."""
        session = self.inodes.session(inode)
        assert session is not None, "every .progress inode belongs to a session"
        progress = self.engine.progress(session)
        data = b"" if progress is None else progress.data
        mtime = self.engine.tree.started_ns if progress is None else progress.changed_ns
        return Entry(PROGRESS_PATH, PROGRESS_PATH, False, len(data), mtime, False), data

    def _session_attributes(self, inode: int) -> pyfuse3.EntryAttributes:
        """A per-session file's attributes (`.ctl` or `.progress`), never cached."""
        if self.inodes.ctl_session(inode) is not None:
            return self._ctl_attributes(inode)
        attrs = self._attributes(self._progress_entry(inode)[0], inode)
        attrs.entry_timeout = 0
        return attrs

    def _last_page(self, ctx: pyfuse3.RequestContext) -> bytes:
        """Where `@` leads for the caller: the page its session's last command named."""
        page = self.engine.last_page(session_of(ctx.pid))
        if page is None:
            raise pyfuse3.FUSEError(errno.ENOENT)  # no command of this session named a page yet
        return page.encode("ascii")

    def _last_attributes(self, ctx: pyfuse3.RequestContext) -> pyfuse3.EntryAttributes:
        """`@` as the caller sees it: a link never cached, since it leads elsewhere for each
        session and after each command (the kernel asks readlink at every use)."""
        target = self._last_page(ctx)
        entry = Entry(LAST_PATH, LAST_PATH, False, len(target), self.engine.tree.started_ns, False)
        attrs = self._attributes(entry)
        attrs.st_mode = pyfuse3.ModeT(stat.S_IFLNK | 0o777)
        attrs.entry_timeout = attrs.attr_timeout = 0
        return attrs

    def _attributes(
        self, entry: Entry, inode: int | None = None, size: int | None = None
    ) -> pyfuse3.EntryAttributes:
        """Attributes of entry; inode defaults to the path's own number and size to the
        entry's (`.ctl` passes its session's)."""
        size = entry.size if size is None else size
        attrs = pyfuse3.EntryAttributes()
        if inode is None:
            number = self.inodes.numbering.number(entry.path)
            if number is None:  # a name the engine accepts but does not list (N01 for N0001)
                raise pyfuse3.FUSEError(errno.ENOENT)
            inode = number
        attrs.st_ino = pyfuse3.InodeT(inode)
        if entry.is_dir:
            attrs.st_mode = pyfuse3.ModeT(stat.S_IFDIR | 0o555)
            attrs.st_nlink = 2
        else:
            attrs.st_mode = pyfuse3.ModeT(stat.S_IFREG | (0o600 if entry.writable else 0o444))
            attrs.st_nlink = 1
        attrs.st_uid = self._uid
        attrs.st_gid = self._gid
        attrs.st_size = size
        attrs.st_blksize = 4096
        attrs.st_blocks = (size + 511) // 512
        attrs.st_atime_ns = attrs.st_mtime_ns = attrs.st_ctime_ns = entry.mtime_ns
        attrs.entry_timeout = 0 if entry.writable else FOREVER
        if entry.immutable:
            attrs.attr_timeout = FOREVER
        elif entry.is_dir:
            attrs.attr_timeout = CHANGING_DIR_ATTR_TIMEOUT
        else:
            attrs.attr_timeout = 0
        return attrs

    # --- lookups

    @guarded
    async def lookup(
        self, parent_inode: int, name: bytes, ctx: pyfuse3.RequestContext
    ) -> pyfuse3.EntryAttributes:
        parent = self._path(parent_inode)
        if name == b".":
            path = parent
        elif name == b"..":
            path = parent_path(parent)
        else:
            try:
                path = child_path(parent, name.decode("ascii"))
            except UnicodeDecodeError:
                raise pyfuse3.FUSEError(errno.ENOENT) from None  # every name we show is ASCII
        if path in (CTL_PATH, PROGRESS_PATH):
            attrs = self._session_attributes(
                self.inodes.session_inode(path, session_of(ctx.pid)))
        elif path == LAST_PATH:
            attrs = self._last_attributes(ctx)
        else:
            attrs = self._entry_attributes(path)
        self.inodes.remember()
        return attrs

    async def forget(self, inode_list: list[tuple[int, int]]) -> None:
        # Not a request: pyfuse3 allows no exception here at all, not even FUSEError.
        try:
            self.inodes.forget(inode_list)
        except Exception:
            log.exception("unexpected error in forget")

    @guarded
    async def getattr(self, inode: int, ctx: pyfuse3.RequestContext) -> pyfuse3.EntryAttributes:
        if self.inodes.session(inode) is not None:
            return self._session_attributes(inode)
        path = self._path(inode)
        if path == LAST_PATH:
            return self._last_attributes(ctx)
        return self._entry_attributes(path, inode)

    @guarded
    async def readlink(self, inode: int, ctx: pyfuse3.RequestContext) -> bytes:
        if self._path(inode) != LAST_PATH:
            raise pyfuse3.FUSEError(errno.EINVAL)  # the only link in the mount
        return self._last_page(ctx)

    @guarded
    async def setattr(
        self,
        inode: int,
        attr: pyfuse3.EntryAttributes,
        fields: pyfuse3.SetattrFields,
        fh: int | None,
        ctx: pyfuse3.RequestContext,
    ) -> pyfuse3.EntryAttributes:
        # `echo … > .ctl` opens with O_TRUNC, which may arrive as a truncation to zero (and a
        # time update): accept that on .ctl as a no-op; every other change is refused.
        if self.inodes.ctl_session(inode) is None and self.inodes.session(inode) is not None:
            raise pyfuse3.FUSEError(errno.EROFS)  # .progress
        entry = self._entry(self._path(inode))
        changes_owner_or_mode = fields.update_mode or fields.update_uid or fields.update_gid
        truncates_to_zero = not fields.update_size or attr.st_size == 0
        if not entry.writable or changes_owner_or_mode or not truncates_to_zero:
            raise pyfuse3.FUSEError(errno.EROFS)
        return self._ctl_attributes(inode)

    # --- directories

    def _children(self, directory: Entry) -> _Listing:
        listing = self._changing_listings.get(directory.path)
        if listing is not None:
            return listing
        listing = []
        for child in self.engine.listdir(directory.path):
            if child.writable:  # .ctl: readdir cannot tell the session; a lookup will
                attrs = self._ctl_attributes(self.inodes.ctl_inode(LISTED_SESSION))
            else:
                attrs = self._attributes(child)
            listing.append((child.name.encode("ascii"), attrs))
        if not directory.immutable:
            self._changing_listings[directory.path] = listing  # until the next command ends
        return listing

    @guarded
    async def opendir(self, inode: int, ctx: pyfuse3.RequestContext) -> NoReturn:
        raise pyfuse3.FUSEError(errno.ENOSYS)  # never asked again: see the module docstring

    @guarded
    async def readdir(self, inode: int, start_id: int, token: pyfuse3.ReaddirToken) -> None:
        path = self._path(inode)
        here = self._entry(path)
        # "." and ".." come first and are never lookup-counted (pyfuse3's rule). Entries are
        # only ever added at the end, so an index stays valid between the calls of one listing;
        # a changing listing is remembered, not copied per call (a root of thousands of pages).
        dots = [(b".", self._attributes(here)), (b"..", self._entry_attributes(parent_path(path)))]
        for index in range(start_id, len(dots)):
            name, attrs = dots[index]
            if not pyfuse3.readdir_reply(token, name, attrs, index + 1):
                return
        children = self._children(here)
        for index in range(max(start_id - len(dots), 0), len(children)):
            name, attrs = children[index]
            if not pyfuse3.readdir_reply(token, name, attrs, len(dots) + index + 1):
                return
            self.inodes.remember()

    # --- files

    @guarded
    async def open(self, inode: int, flags: int, ctx: pyfuse3.RequestContext) -> NoReturn:
        raise pyfuse3.FUSEError(errno.ENOSYS)  # never asked again: see the module docstring

    @guarded
    async def read(self, inode: int, off: int, size: int) -> bytes:
        session = self.inodes.ctl_session(inode)
        if session is not None:
            return self.engine.response(session)[off : off + size]
        if self.inodes.session(inode) is not None:
            return self._progress_entry(inode)[1][off : off + size]
        return self.engine.read(self._path(inode), off, size)

    @guarded
    async def write(self, inode: int, off: int, buf: bytes) -> int:
        session = self.inodes.ctl_session(inode)
        if session is None:
            raise pyfuse3.FUSEError(errno.EROFS)
        response = await self.engine.command(buf, session)  # ctl refuses bytes that are not text
        await self._forget_changing()
        failure = ERRNO_FOR_OUTCOME.get(response.outcome)
        if failure is not None:
            raise pyfuse3.FUSEError(failure)
        return len(buf)

    async def _forget_changing(self) -> None:
        """After a command: drop what we and the kernel remember of the changing entries (the
        root's and _log/'s listings, _pages.tsv), so the caller's next `ls` or `cat` is current.
        .ctl itself needs nothing: its new size and time make the kernel drop its old pages."""
        self._changing_listings.clear()
        changing = [self.inodes.inode(path) for path in CHANGING_PATHS]
        await trio.to_thread.run_sync(_invalidate_kernel_caches, changing)

    @guarded
    async def statfs(self, ctx: pyfuse3.RequestContext) -> pyfuse3.StatvfsData:
        data = pyfuse3.StatvfsData()
        data.f_bsize = data.f_frsize = 4096
        data.f_namemax = 255
        return data

    # --- everything that would change the tree: this filesystem is read-only but for .ctl

    mkdir = mknod = unlink = rmdir = symlink = rename = link = create = _read_only
    setxattr = removexattr = _read_only

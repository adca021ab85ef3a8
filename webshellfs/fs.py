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
every path walk asks again and each caller lands on its own session's inode.

Caching: a stored page never changes, so its entries carry long timeouts and its files keep
the kernel page cache across opens, and this layer remembers their attributes and listings so
the requests the kernel still sends (open, opendir, readdir) do not reach the engine. Files
that change (`.ctl`, `_pages.tsv`, `README.md`) get no attribute caching and direct I/O, so
every read sees the current bytes whatever their size.
"""

from __future__ import annotations

import errno
import functools
import logging
import os
import stat
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, NoReturn, ParamSpec, TypeVar

import pyfuse3

from webshellfs.engine import Engine, Entry, Outcome
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
from webshellfs.inodes import CTL_PATH, InodeTable, child_path, parent_path

__all__ = ["ERRNO_FOR", "ERRNO_FOR_OUTCOME", "Operations", "errno_for", "session_of"]

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

# How a `.ctl` write ends, by the command's outcome; OK returns the byte count instead.
ERRNO_FOR_OUTCOME: dict[Outcome, int] = {
    Outcome.INVALID: errno.EINVAL,
    Outcome.FAILED: errno.EIO,
    Outcome.TIMEOUT: errno.ETIMEDOUT,
}

# A stored page never changes and no name is ever removed: let the kernel keep them.
FOREVER = 3600.0
# Directories that gain entries (the root, _log/) keep their attributes briefly: only their
# mtime goes stale, and a zero timeout would cost a GETATTR on every path walked through them.
CHANGING_DIR_ATTR_TIMEOUT = 1.0
# Immutable entries (and listings of immutable directories) are remembered once seen, so the
# requests a warm `grep -r` still sends (open, opendir, readdir) skip the engine. Past this many
# the memory is simply dropped and refilled.
KNOWN_LIMIT = 200_000

SESSION_VARIABLE = b"WEBSHELL_SESSION="

P = ParamSpec("P")
R = TypeVar("R")


def errno_for(exc: BaseException) -> int:
    """The errno of the most specific class of exc found in ERRNO_FOR (EIO if none)."""
    for cls in type(exc).__mro__:
        if cls in ERRNO_FOR:
            return ERRNO_FOR[cls]
    return errno.EIO


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


def session_of(pid: int) -> str:
    """The session a `.ctl` caller belongs to: WEBSHELL_SESSION from its environment if set,
    else its Unix session id, so `echo … > .ctl; cat .ctl` in one shell pairs up and two
    shells never see each other's responses."""
    try:
        with open(f"/proc/{pid}/environ", "rb") as environ:
            for variable in environ.read().split(b"\0"):
                if variable.startswith(SESSION_VARIABLE) and len(variable) > len(SESSION_VARIABLE):
                    return "env:" + variable[len(SESSION_VARIABLE):].decode("utf-8", "replace")
    except OSError:
        pass  # gone already, or not ours to read: the session id still tells
    try:
        return str(os.getsid(pid))
    except OSError:
        return f"pid{pid}"


@dataclass
class _OpenFile:
    path: str
    session: str = ""  # only for .ctl
    response: bytes | None = None  # .ctl: the response as of the last read at offset 0


@dataclass(frozen=True)
class _Known:
    """An entry with its attributes, ready to answer lookup, getattr and readdir."""

    entry: Entry
    attrs: pyfuse3.EntryAttributes


# A directory listing as readdir serves it: (name, attributes, counts as a kernel lookup).
_Listing = list[tuple[bytes, pyfuse3.EntryAttributes, bool]]


def _read_only(*_args: Any) -> Awaitable[NoReturn]:
    async def refuse() -> NoReturn:
        raise pyfuse3.FUSEError(errno.EROFS)

    return refuse()


class Operations(pyfuse3.Operations):
    """Attributes:
        engine: answers every question about paths and runs `.ctl` commands.
        inodes: path ↔ inode numbers and the kernel's lookup counts.
        _files, _dirs: open handles by number; one counter numbers both.
        _known: path → entry and attributes, for immutable entries only (they never change).
        _listings: path → listing, for immutable directories only.
    """

    enable_writeback_cache = False

    def __init__(self, engine: Engine) -> None:
        super().__init__()
        self.engine = engine
        self.inodes = InodeTable()
        self._uid = os.getuid()
        self._gid = os.getgid()
        self._files: dict[int, _OpenFile] = {}
        self._dirs: dict[int, _Listing] = {}
        self._next_handle = 1
        self._known: dict[str, _Known] = {}
        self._listings: dict[str, _Listing] = {}

    # --- names and attributes

    def _path(self, inode: int) -> str:
        path = self.inodes.path(inode)
        if path is None:
            raise pyfuse3.FUSEError(errno.ENOENT)
        return path

    def _known_entry(self, path: str) -> _Known:
        known = self._known.get(path)
        if known is None:
            entry = self.engine.entry(path)
            if entry is None:
                raise pyfuse3.FUSEError(errno.ENOENT)
            known = self._remember(entry)
        return known

    def _remember(self, entry: Entry) -> _Known:
        """Entry with fresh attributes; kept for next time if the engine says it never changes."""
        known = _Known(entry, self._attributes(entry))
        if entry.immutable:
            if len(self._known) >= KNOWN_LIMIT:
                self._known.clear()
                self._listings.clear()
            self._known[entry.path] = known
        return known

    def _entry(self, path: str) -> Entry:
        return self._known_entry(path).entry

    def _attributes(self, entry: Entry, inode: int | None = None) -> pyfuse3.EntryAttributes:
        """Attributes of entry; inode defaults to the path's own number (`.ctl` passes its
        session's)."""
        attrs = pyfuse3.EntryAttributes()
        attrs.st_ino = pyfuse3.InodeT(self.inodes.inode(entry.path) if inode is None else inode)
        if entry.is_dir:
            attrs.st_mode = pyfuse3.ModeT(stat.S_IFDIR | 0o555)
            attrs.st_nlink = 2
        else:
            attrs.st_mode = pyfuse3.ModeT(stat.S_IFREG | (0o600 if entry.writable else 0o444))
            attrs.st_nlink = 1
        attrs.st_uid = self._uid
        attrs.st_gid = self._gid
        attrs.st_size = entry.size
        attrs.st_blksize = 4096
        attrs.st_blocks = (entry.size + 511) // 512
        attrs.st_atime_ns = attrs.st_mtime_ns = attrs.st_ctime_ns = entry.mtime_ns
        attrs.entry_timeout = 0 if entry.writable else FOREVER
        if entry.immutable:
            attrs.attr_timeout = FOREVER
        elif entry.is_dir:
            attrs.attr_timeout = CHANGING_DIR_ATTR_TIMEOUT
        else:
            attrs.attr_timeout = 0
        return attrs

    def _new_handle(self) -> int:
        handle = self._next_handle
        self._next_handle += 1
        return handle

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
        if path == CTL_PATH:
            attrs = self._attributes(self._entry(path), self.inodes.ctl_inode(session_of(ctx.pid)))
        else:
            attrs = self._known_entry(path).attrs
        self.inodes.remember(attrs.st_ino)
        return attrs

    async def forget(self, inode_list: list[tuple[int, int]]) -> None:
        # Not a request: pyfuse3 allows no exception here at all, not even FUSEError.
        try:
            self.inodes.forget(inode_list)
        except Exception:
            log.exception("unexpected error in forget")

    @guarded
    async def getattr(self, inode: int, ctx: pyfuse3.RequestContext) -> pyfuse3.EntryAttributes:
        known = self._known_entry(self._path(inode))
        if known.entry.writable:
            return self._attributes(known.entry, inode)  # .ctl: this session's inode
        return known.attrs

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
        entry = self._entry(self._path(inode))
        changes_owner_or_mode = fields.update_mode or fields.update_uid or fields.update_gid
        truncates_to_zero = not fields.update_size or attr.st_size == 0
        if not entry.writable or changes_owner_or_mode or not truncates_to_zero:
            raise pyfuse3.FUSEError(errno.EROFS)
        return self._attributes(entry, inode)

    # --- directories

    def _children(self, directory: Entry, ctx: pyfuse3.RequestContext) -> _Listing:
        listing = self._listings.get(directory.path)
        if listing is not None:
            return listing
        listing = []
        for child in self.engine.listdir(directory.path):
            if child.writable:  # .ctl, listed with the caller's session's inode
                attrs = self._attributes(child, self.inodes.ctl_inode(session_of(ctx.pid)))
            else:
                attrs = (self._known.get(child.path) or self._remember(child)).attrs
            listing.append((child.name.encode("ascii"), attrs, True))
        if directory.immutable:
            self._listings[directory.path] = listing
        return listing

    @guarded
    async def opendir(self, inode: int, ctx: pyfuse3.RequestContext) -> int:
        path = self._path(inode)
        here = self._known_entry(path)
        # "." and ".." are listed but never lookup-counted (pyfuse3's rule).
        listing = [(b".", here.attrs, False), (b"..", self._known_entry(parent_path(path)).attrs,
                                                  False)]
        # One listing per open: readdir continues from an index into it, so a directory that
        # grows while `ls` runs never shows an entry twice or skips one.
        listing += self._children(here.entry, ctx)
        handle = self._new_handle()
        self._dirs[handle] = listing
        return handle

    @guarded
    async def readdir(self, fh: int, start_id: int, token: pyfuse3.ReaddirToken) -> None:
        listing = self._dirs[fh]
        for index in range(start_id, len(listing)):
            name, attrs, counted = listing[index]
            if not pyfuse3.readdir_reply(token, name, attrs, index + 1):
                return
            if counted:
                self.inodes.remember(attrs.st_ino)

    @guarded
    async def releasedir(self, fh: int) -> None:
        self._dirs.pop(fh, None)

    # --- files

    @guarded
    async def open(self, inode: int, flags: int, ctx: pyfuse3.RequestContext) -> pyfuse3.FileInfo:
        path = self._path(inode)
        entry = self._entry(path)
        if entry.is_dir:
            raise pyfuse3.FUSEError(errno.EISDIR)
        writing = flags & os.O_ACCMODE != os.O_RDONLY
        if writing and not entry.writable:
            raise pyfuse3.FUSEError(errno.EROFS)
        handle = self._new_handle()
        if entry.writable:
            session = self.inodes.ctl_session(inode) or session_of(ctx.pid)
            self._files[handle] = _OpenFile(path, session=session)
            return pyfuse3.FileInfo(fh=handle, direct_io=True, keep_cache=False)
        self._files[handle] = _OpenFile(path)
        if entry.immutable:
            return pyfuse3.FileInfo(fh=handle, keep_cache=True)
        return pyfuse3.FileInfo(fh=handle, direct_io=True, keep_cache=False)

    @guarded
    async def read(self, fh: int, off: int, size: int) -> bytes:
        handle = self._files[fh]
        if not handle.session:
            return self.engine.read(handle.path, off, size)
        if off == 0 or handle.response is None:
            # Taken once per pass from the start, so a response that changes while a reader
            # is part-way through is never served as a mix of two.
            handle.response = self.engine.response(handle.session)
        return handle.response[off : off + size]

    @guarded
    async def write(self, fh: int, off: int, buf: bytes) -> int:
        handle = self._files[fh]
        if not handle.session:
            raise pyfuse3.FUSEError(errno.EROFS)
        response = await self.engine.command(buf.decode("utf-8", "replace"), handle.session)
        handle.response = None
        failure = ERRNO_FOR_OUTCOME.get(response.outcome)
        if failure is not None:
            raise pyfuse3.FUSEError(failure)
        return len(buf)

    @guarded
    async def release(self, fh: int) -> None:
        self._files.pop(fh, None)

    @guarded
    async def statfs(self, ctx: pyfuse3.RequestContext) -> pyfuse3.StatvfsData:
        data = pyfuse3.StatvfsData()
        data.f_bsize = data.f_frsize = 4096
        data.f_namemax = 255
        return data

    # --- everything that would change the tree: this filesystem is read-only but for .ctl

    mkdir = mknod = unlink = rmdir = symlink = rename = link = create = _read_only
    setxattr = removexattr = _read_only

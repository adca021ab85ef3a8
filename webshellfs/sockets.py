"""The command socket of a directory served with --no-fuse: `DIR/.ctl`, a Unix socket readable
and writable by its owner only, that `webshell` talks to instead of writing a `.ctl` file.

One connection carries one request and its reply, then closes:

    request:  "run <command line>\\n"   or   "watch <command line>\\n"   or   "stop\\n"
    reply:    "<errno>\\n" then the response, exactly as `cat .ctl` shows it on a mount

errno is 0 when the command succeeded, else the errno the mount's `.ctl` write fails with
(webshellfs/channel.py), so `webshell` exits alike in both modes. `watch` runs the command as
`run` does and, before the reply, sends each line of progress the command reports as it comes
("progress <line>\\n", the lines a mount's `.progress` shows); the reply is the same. The daemon learns who asks
from the connection itself (SO_PEERCRED): the caller's pid gives its session, as on a mount.
Standard library only: `webshell` imports this and should start fast.
"""

from __future__ import annotations

import errno
import os
import socket
import struct
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

__all__ = [
    "PROGRESS",
    "RUN",
    "SOCKET_NAME",
    "STOP",
    "WATCH",
    "Peer",
    "SocketGone",
    "decode_reply",
    "encode_progress",
    "encode_reply",
    "parse_request",
    "peer_of",
    "request_over",
    "socket_address",
]

SOCKET_NAME = ".ctl"
RUN = b"run "
WATCH = b"watch "
STOP = b"stop"
PROGRESS = b"progress "
_CREDENTIALS = struct.Struct("3i")  # struct ucred: pid, uid, gid
ADDRESS_BYTES = 107  # sun_path holds 108 bytes with its final NUL


class SocketGone(OSError):
    """The socket is there but no daemon answers it, or the daemon left before answering."""


@dataclass(frozen=True)
class Peer:
    pid: int
    uid: int


class _Socket(Protocol):
    def getsockopt(self, level: int, option: int, size: int, /) -> bytes: ...


def peer_of(connection: _Socket) -> Peer:
    """Who is on the other end of a Unix socket connection (Linux: SO_PEERCRED)."""
    pid, uid, _gid = _CREDENTIALS.unpack(
        connection.getsockopt(socket.SOL_SOCKET, socket.SO_PEERCRED, _CREDENTIALS.size)
    )
    return Peer(pid, uid)


@contextmanager
def socket_address(path: Path) -> Iterator[str]:
    """An address for the socket file at path: path itself, or when that is too long for a Unix
    socket address, the same file reached through /proc/self/fd/ of its opened directory."""
    if len(os.fsencode(path)) <= ADDRESS_BYTES:
        yield str(path)
        return
    directory = os.open(path.parent, os.O_RDONLY | os.O_DIRECTORY)
    try:
        yield f"/proc/self/fd/{directory}/{path.name}"
    finally:
        os.close(directory)


def parse_request(data: bytes) -> tuple[bytes, bytes]:
    """(RUN or WATCH, command line) or (STOP, b""); anything else is (b"", data): EINVAL."""
    line = data[:-1] if data.endswith(b"\n") else data
    for verb in (RUN, WATCH):
        if line.startswith(verb):
            return verb, line[len(verb):]
    if line == STOP:
        return STOP, b""
    return b"", line


def encode_reply(failure: int, response: bytes) -> bytes:
    return f"{failure}\n".encode("ascii") + response


def encode_progress(line: str) -> bytes:
    """One line of progress (a report is one line: its newlines were made spaces)."""
    return PROGRESS + line.replace("\n", " ").encode("utf-8", "replace") + b"\n"


def decode_reply(data: bytes) -> tuple[int, bytes]:
    head, newline, response = data.partition(b"\n")
    if not newline or not head.isdigit():
        raise SocketGone(errno.ECONNABORTED, "the daemon stopped before it answered")
    return int(head), response


def request_over(
    path: Path, request: bytes, on_progress: Callable[[str], None] | None = None
) -> tuple[int, bytes]:
    """Send one request to the socket at path and wait for the whole reply (as long as the
    command takes; the daemon keeps the deadline). Returns (errno or 0, response). Lines of
    progress before the reply (a `watch` request's) go to on_progress as they arrive."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as connection:
        try:
            with socket_address(path) as address:
                connection.connect(address)
        except ConnectionRefusedError:
            raise SocketGone(errno.ECONNREFUSED, "no daemon answers it") from None
        connection.sendall(request + b"\n")
        connection.shutdown(socket.SHUT_WR)
        received = bytearray()
        reply_starts = 0  # where the reply begins, once the progress lines before it are read
        try:
            while chunk := connection.recv(65536):
                received += chunk
                reply_starts = _take_progress(received, reply_starts, on_progress)
        except ConnectionResetError:
            return decode_reply(b"")  # killed mid-reply: no reply at all
    return decode_reply(bytes(received[reply_starts:]))


def _take_progress(
    received: bytearray, start: int, on_progress: Callable[[str], None] | None
) -> int:
    """Hand over the whole progress lines from start on; returns where the rest begins."""
    while received.startswith(PROGRESS, start):
        end = received.find(b"\n", start)
        if end < 0:
            break
        if on_progress is not None:
            on_progress(received[start + len(PROGRESS):end].decode("utf-8", "replace"))
        start = end + 1
    return start

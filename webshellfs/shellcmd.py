"""`webshell`: run one command, print the response, exit with its status.

    webshell open https://example.org
    webshell execute N0003 A0002 q="red shoes"
    webshell --at /tmp/web help
    webshell --at /tmp/web --stop          # stop a directory served with --no-fuse

The place is a mount (its `.ctl` is a file: the command is written to it and the response read
back) or a directory served with --no-fuse (its `.ctl` is a socket: the command goes over it,
sockets.py). Either way the response and the exit status are the same. The place is `--at`,
else $WEBSHELL_DIR (or $WEBSHELL_MOUNT), else the nearest of the current directory and its
parents that has a `.ctl`, else /mnt/web.

The words after the options are joined back into one command line, each quoted only where the
command's shell-like splitting needs it (spaces, quotes, backslashes), so a value with spaces
reaches the command as one word and a URL reads as typed. The exit status is 0 when the command
succeeded, otherwise the errno the command failed with (EINVAL 22 for a malformed command,
EIO 5 for a failed one, ETIMEDOUT 110 past the deadline), which is also printed; 2 when there
is nothing to talk to.
"""

from __future__ import annotations

import argparse
import errno
import os
import re
import shlex
import stat
import sys
from collections.abc import Sequence
from pathlib import Path

from webshellfs.sockets import SOCKET_NAME, STOP, SocketGone, request_over

__all__ = ["DEFAULT_MOUNT", "find_place", "join_words", "main", "run_command"]

DEFAULT_MOUNT = "/mnt/web"
NO_MOUNT_STATUS = 2
CTL = ".ctl"
PLACE_VARIABLES = ("WEBSHELL_DIR", "WEBSHELL_MOUNT")  # the second: its name before --no-fuse
_NEEDS_QUOTES = re.compile(r"[\s'\"\\]")  # what shlex.split treats specially
# What to do when the place cannot be used, by the errno that said so.
_HINTS = {
    errno.ENOENT: "is webshellfs serving {place}? Start it with ./mount.sh {place}, "
    "or point --at / WEBSHELL_DIR at it",
    errno.ENOTCONN: "the daemon behind {place} died; remount with ./mount.sh {place} "
    "(it clears the stale mount)",
    errno.ECONNREFUSED: "no daemon serves {place} now; start it again with ./mount.sh {place} "
    "(or: webshellfs {place} --no-fuse)",
    errno.ECONNABORTED: "the daemon serving {place} stopped before it answered; "
    "_log/ shows whether the command ran",
}


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webshell",
        description="Run a webshellfs command on a mount (through its .ctl) or on a directory "
        "served with --no-fuse (through its socket), and print the response.",
        epilog="Commands: open, retrieve, execute, focus, lookup, resolve, close, help "
        "(see 'webshell help' and DIR/README.md).",
    )
    parser.add_argument("--at", "--mount", dest="place", type=Path, metavar="DIR",
                        help="the mount or directory (default: $WEBSHELL_DIR, else the current "
                        f"directory or the nearest parent with a .ctl, else {DEFAULT_MOUNT})")
    parser.add_argument("--stop", action="store_true",
                        help="stop the daemon serving DIR with --no-fuse (a mount is unmounted "
                        "with fusermount3 -u)")
    parser.add_argument("words", nargs=argparse.REMAINDER, metavar="COMMAND …")
    return parser


def join_words(words: Sequence[str]) -> str:
    """The command line whose shell-like split (ctl.parse) gives words back."""
    return " ".join(word if word and not _NEEDS_QUOTES.search(word) else shlex.quote(word)
                    for word in words)


def find_place(given: Path | None) -> Path:
    """--at, else the environment, else the nearest directory up from here with a .ctl."""
    if given is not None:
        return given
    for variable in PLACE_VARIABLES:
        if os.environ.get(variable):
            return Path(os.environ[variable])
    try:
        here = Path.cwd()
    except OSError:  # inside a mount whose daemon died, say
        return Path(DEFAULT_MOUNT)
    for directory in (here, *here.parents):
        if os.path.lexists(directory / CTL):
            return directory
    return Path(DEFAULT_MOUNT)


def run_command(mount: Path, line: str) -> tuple[int, str]:
    """Write line to mount/.ctl and read the response back. Returns (errno or 0, response)."""
    ctl = mount / CTL
    failure = 0
    fd = os.open(ctl, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    except OSError as exc:
        failure = exc.errno or errno.EIO
    finally:
        os.close(fd)
    return failure, ctl.read_text(encoding="utf-8", errors="replace")


def _is_socket(place: Path) -> bool:
    return stat.S_ISSOCK(os.stat(place / SOCKET_NAME).st_mode)


def _request(place: Path, words: list[str], stop: bool) -> tuple[int, str]:
    if not _is_socket(place):
        if stop:
            raise SocketGone(errno.ENOTSOCK, f"a mount: unmount it with fusermount3 -u {place}")
        return run_command(place, join_words(words))
    request = STOP if stop else b"run " + join_words(words).encode("utf-8", "surrogateescape")
    failure, response = request_over(place / SOCKET_NAME, request)
    return failure, response.decode("utf-8", errors="replace")


def _explain(place: Path, exc: OSError) -> None:
    """Why there is nothing to talk to at place, and what to do."""
    print(f"webshell: cannot use {place}/{CTL}: {exc.strerror}", file=sys.stderr)
    hint = _HINTS.get(exc.errno or 0)
    if hint:
        print("webshell: " + hint.format(place=place), file=sys.stderr)


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.words and not args.stop:
        args.words = ["help"]
    place = find_place(args.place)
    try:
        failure, response = _request(place, args.words, args.stop)
    except OSError as exc:
        _explain(place, exc)
        return NO_MOUNT_STATUS
    sys.stdout.write(response)
    if failure:
        what = "stop" if args.stop else args.words[0]
        print(f"webshell: {what} failed: {errno.errorcode.get(failure, failure)} "
              f"({os.strerror(failure)})", file=sys.stderr)
    return failure

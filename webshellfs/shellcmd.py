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

While a command runs, `webshell` shows its progress on stderr (a retrieve's results as they
arrive) when stderr is a terminal; the response on stdout and the exit status are the same
either way. On a mount it reads the session's `.progress` while its write to `.ctl` waits; over
a socket it asks with `watch` instead of `run`, and the daemon sends each line as it comes.

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
import threading
from collections.abc import Callable, Sequence
from pathlib import Path

from webshellfs.sockets import RUN, SOCKET_NAME, STOP, WATCH, SocketGone, request_over

__all__ = ["DEFAULT_MOUNT", "find_place", "join_words", "main", "run_command"]

DEFAULT_MOUNT = "/mnt/web"
NO_MOUNT_STATUS = 2
CTL = ".ctl"
PROGRESS = ".progress"  # a mount's: what this session's running command reported so far
PROGRESS_POLL_SECONDS = 0.25
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


def run_command(
    mount: Path, line: str, on_progress: Callable[[str], None] | None = None
) -> tuple[int, str]:
    """Write line to mount/.ctl and read the response back. Returns (errno or 0, response).
    With on_progress, the lines of `.progress` go to it as they come while the write waits."""
    ctl = mount / CTL
    failure = 0
    fd = os.open(ctl, os.O_WRONLY | os.O_TRUNC)
    watcher = None if on_progress is None else _ProgressWatcher(mount / PROGRESS, on_progress)
    try:
        if watcher is not None:
            watcher.start()
        os.write(fd, (line + "\n").encode("utf-8"))
    except OSError as exc:
        failure = exc.errno or errno.EIO
    finally:
        os.close(fd)
        if watcher is not None:
            watcher.stop()
    return failure, ctl.read_text(encoding="utf-8", errors="replace")


class _ProgressWatcher(threading.Thread):
    """Reads a mount's `.progress` every PROGRESS_POLL_SECONDS while a command runs, and once
    more after it, handing on each line not seen yet. Its first line names the command: the
    lines of the one this session ran before are never handed on as this one's."""

    def __init__(self, path: Path, on_progress: Callable[[str], None]) -> None:
        super().__init__(name="webshell-progress", daemon=True)
        self.path = path
        self.on_progress = on_progress
        self.done = threading.Event()
        self.head = ""
        self.shown = 0
        before = self._lines()  # a command already running in this session: not ours
        self.stale_head = before[0] if before else ""

    def _lines(self) -> list[str]:
        try:
            return self.path.read_text(encoding="utf-8", errors="replace").splitlines()
        except OSError:  # a mount without .progress, or one going away: nothing to show
            return []

    def run(self) -> None:
        while not self.done.wait(PROGRESS_POLL_SECONDS):
            self.show(self._lines())

    def show(self, lines: list[str]) -> None:
        if not lines or lines[0] == self.stale_head:
            return
        head, reports = lines[0], lines[1:]
        if head != self.head:
            self.head, self.shown = head, 0
        for report in reports[self.shown:]:
            self.on_progress(report)
        self.shown = max(self.shown, len(reports))

    def stop(self) -> None:
        """After the command: the lines it reported since the last look (it keeps them)."""
        self.done.set()
        self.join(timeout=1.0)
        self.show(self._lines())


def _is_socket(place: Path) -> bool:
    return stat.S_ISSOCK(os.stat(place / SOCKET_NAME).st_mode)


def _request(
    place: Path, words: list[str], stop: bool, on_progress: Callable[[str], None] | None
) -> tuple[int, str]:
    if not _is_socket(place):
        if stop:
            raise SocketGone(errno.ENOTSOCK, f"a mount: unmount it with fusermount3 -u {place}")
        return run_command(place, join_words(words), on_progress)
    line = join_words(words).encode("utf-8", "surrogateescape")
    verb = RUN if on_progress is None else WATCH
    request = STOP if stop else verb + line
    failure, response = request_over(place / SOCKET_NAME, request, on_progress)
    return failure, response.decode("utf-8", errors="replace")


def _progress_printer() -> Callable[[str], None] | None:
    """Where progress goes: stderr when it is a terminal (a person watching); else nowhere,
    so scripts and agents reading stderr see what they saw before."""
    if not sys.stderr.isatty():
        return None

    def show(line: str) -> None:
        print(f"webshell: … {line}", file=sys.stderr, flush=True)

    return show


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
        failure, response = _request(place, args.words, args.stop, _progress_printer())
    except OSError as exc:
        _explain(place, exc)
        return NO_MOUNT_STATUS
    sys.stdout.write(response)
    if failure:
        what = "stop" if args.stop else args.words[0]
        print(f"webshell: {what} failed: {errno.errorcode.get(failure, failure)} "
              f"({os.strerror(failure)})", file=sys.stderr)
    return failure

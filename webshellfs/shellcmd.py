"""`webshell`: write one command to a mount's .ctl, print the response, exit with its status.

    webshell open https://example.org
    webshell execute N0003 A0002 q="red shoes"
    webshell --mount /tmp/web help

The words after the options are joined back into one command line with shell quoting, so a
value with spaces reaches the command as one word. The exit status is 0 when the command
succeeded, otherwise the errno the write failed with (EINVAL 22 for a malformed command,
EIO 5 for a failed one, ETIMEDOUT 110 past the deadline), which is also printed.
"""

from __future__ import annotations

import argparse
import errno
import os
import shlex
import sys
from collections.abc import Sequence
from pathlib import Path

__all__ = ["DEFAULT_MOUNT", "main", "run_command"]

DEFAULT_MOUNT = "/mnt/web"
NO_MOUNT_STATUS = 2


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="webshell",
        description="Run a webshellfs command: write it to MOUNT/.ctl and print the response.",
        epilog="Commands: open, retrieve, execute, focus, lookup, resolve, close, help "
        "(see 'webshell help' and MOUNT/README.md).",
    )
    parser.add_argument("--mount", type=Path,
                        default=Path(os.environ.get("WEBSHELL_MOUNT", DEFAULT_MOUNT)),
                        help=f"the mount point (default $WEBSHELL_MOUNT or {DEFAULT_MOUNT})")
    parser.add_argument("words", nargs=argparse.REMAINDER, metavar="COMMAND …")
    return parser


def run_command(mount: Path, line: str) -> tuple[int, str]:
    """Write line to mount/.ctl and read the response back. Returns (errno or 0, response)."""
    ctl = mount / ".ctl"
    failure = 0
    fd = os.open(ctl, os.O_WRONLY | os.O_TRUNC)
    try:
        os.write(fd, (line + "\n").encode("utf-8"))
    except OSError as exc:
        failure = exc.errno or errno.EIO
    finally:
        os.close(fd)
    return failure, ctl.read_text(encoding="utf-8", errors="replace")


def main(argv: Sequence[str] | None = None) -> int:
    args = _parser().parse_args(argv)
    if not args.words:
        args.words = ["help"]
    try:
        failure, response = run_command(args.mount, shlex.join(args.words))
    except OSError as exc:
        print(f"webshell: cannot use {args.mount}/.ctl: {exc.strerror}", file=sys.stderr)
        if exc.errno == errno.ENOTCONN:
            print(f"webshell: the daemon behind {args.mount} died; remount with "
                  f"./mount.sh {args.mount} (it clears the stale mount)", file=sys.stderr)
        elif exc.errno == errno.ENOENT:
            print(f"webshell: is webshellfs mounted there? Mount with ./mount.sh {args.mount}, "
                  "or point --mount / WEBSHELL_MOUNT at the mount", file=sys.stderr)
        return NO_MOUNT_STATUS
    sys.stdout.write(response)
    if failure:
        print(f"webshell: {args.words[0]} failed: {errno.errorcode.get(failure, failure)} "
              f"({os.strerror(failure)})", file=sys.stderr)
    return failure

"""What every command channel shares, whichever way a command arrives (a write to the mount's
`.ctl`, or `webshell` over the socket of a directory served with --no-fuse): who is asking, and
the errno a command's outcome ends with. No pyfuse3 here, so a machine without FUSE can use it.
"""

from __future__ import annotations

import errno
import os

from webshellfs.engine.records import Outcome

__all__ = ["ERRNO_FOR_OUTCOME", "SESSION_VARIABLE", "session_of"]

# How a command ends, by its outcome; OK is a success (0).
ERRNO_FOR_OUTCOME: dict[Outcome, int] = {
    Outcome.INVALID: errno.EINVAL,
    Outcome.FAILED: errno.EIO,
    Outcome.TIMEOUT: errno.ETIMEDOUT,
}

SESSION_VARIABLE = b"WEBSHELL_SESSION="


def session_of(pid: int) -> str:
    """The session a caller belongs to: WEBSHELL_SESSION from its environment if set, else its
    Unix session id, so `echo … > .ctl; cat .ctl` in one shell pairs up and two shells never
    see each other's responses."""
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

"""The records the engine hands the FUSE layer: directory entries and command responses."""

from __future__ import annotations

import contextlib
import enum
import functools
from collections.abc import Iterator
from contextvars import ContextVar
from dataclasses import dataclass

__all__ = ["Answer", "Entry", "Outcome", "Response", "name_page", "naming"]


@dataclass(frozen=True)
class Entry:
    """One file or directory of the mount.

    Attributes:
        name: the entry's own name ("N0001", "_map.md", ".ctl"); "" for the root.
        path: from the mount root, no leading "/" ("N0001/content/01-x.md"); "" for the root.
        is_dir: a directory.
        size: exact byte size (0 for directories and for `.ctl`, whose content is per session).
        mtime_ns: nanoseconds since the epoch.
        immutable: inside a stored page (or a written log entry): the kernel may cache it long.
        writable: True only for `.ctl`.
    """

    name: str
    path: str
    is_dir: bool
    size: int
    mtime_ns: int
    immutable: bool
    writable: bool = False


class Outcome(enum.Enum):
    """How a command ended; the FUSE layer maps each to the write's result."""

    OK = "ok"  # the write succeeds
    INVALID = "invalid"  # malformed command, unknown page or object → EINVAL
    FAILED = "failed"  # ran and failed (fetch error, refused URL…) → EIO
    TIMEOUT = "timeout"  # past the command deadline or the fetch timeout → ETIMEDOUT


@dataclass(frozen=True)
class Response:
    """The answer to one command: `text` is what `cat .ctl` shows and `_log/<request_id>.md` keeps."""

    request_id: str
    outcome: Outcome
    text: str

    @functools.cached_property
    def data(self) -> bytes:
        """`text` as `cat .ctl` reads it, encoded once (every read and stat of .ctl asks)."""
        return self.text.encode("utf-8", "surrogatepass")


class Answer(Exception):
    """Ends a command early with an outcome other than OK and the text to show."""

    def __init__(self, outcome: Outcome, text: str) -> None:
        super().__init__(text)
        self.outcome = outcome
        self.text = text.rstrip("\n") + "\n"


# `@`: the page a session's last command named. A command's handlers name pages as they store or
# act on them (the last one named wins); the engine keeps it per session when the command ends.
# A context variable, because a command's work runs in tasks it starts (a retrieve's fetches).
_NAMED: ContextVar[list[str]] = ContextVar("the page a command named")


def name_page(page: str) -> None:
    """page is the one the running command produced or acted on (for `@`)."""
    holder = _NAMED.get(None)
    if holder is not None:
        holder[:] = [page]


@contextlib.contextmanager
def naming() -> Iterator[list[str]]:
    """Collect the page the command run inside names: the list holds it once named."""
    holder: list[str] = []
    token = _NAMED.set(holder)
    try:
        yield holder
    finally:
        _NAMED.reset(token)

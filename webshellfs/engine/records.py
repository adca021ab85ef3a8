"""The records the engine hands the FUSE layer: directory entries and command responses."""

from __future__ import annotations

import enum
import functools
from dataclasses import dataclass

__all__ = ["Answer", "Entry", "Outcome", "Response"]


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

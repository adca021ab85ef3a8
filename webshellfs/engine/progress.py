"""What a command has reported while it ran: the results of a retrieve as they arrive.

A command's handlers call `report(text)` wherever they are (a retrieve's fetches run in tasks
of their own): it reaches the progress of the command whose task they run in, through a context
variable the engine sets for each command. The mount shows a session's progress as `.progress`,
and the socket of a directory served --no-fuse sends it as it comes (`listener`), so a
`webshell` in a terminal can print it while it waits. Reports never change a response.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field

from webshellfs.contract.layout import clean_field

__all__ = ["Progress", "report", "reporting"]

Listener = Callable[[str], None]
# Lines kept per command: a retrieve reports about one per result; past this only the count.
MAX_LINES = 200
LINE_CHARS = 300


@dataclass
class Progress:
    """The progress of one running command: a head line, then one line per report.

    Attributes:
        head: `R0007 progress: retrieve lighthouse`: which command the lines are of.
        lines: the reports so far, each one line.
        changed_ns: when the last one came (the mtime of `.progress`).
        listener: also told of each line as it comes (a socket caller waiting for them).
    """

    head: str
    lines: list[str] = field(default_factory=list)
    changed_ns: int = field(default_factory=time.time_ns)
    listener: Listener | None = None
    dropped: int = 0

    def add(self, text: str) -> None:
        line = clean_field(text)[:LINE_CHARS]
        if len(self.lines) < MAX_LINES:
            self.lines.append(line)
        else:
            self.dropped += 1
        self.changed_ns = time.time_ns()
        if self.listener is not None:
            self.listener(line)

    @property
    def data(self) -> bytes:
        """As `cat .progress` shows it."""
        tail = [f"… {self.dropped} more"] if self.dropped else []
        return "".join(f"{line}\n" for line in [self.head, *self.lines, *tail]).encode()


_CURRENT: ContextVar[Progress | None] = ContextVar("webshellfs_progress", default=None)


def report(text: str) -> None:
    """Tell the running command's caller how far it got (nothing happens outside a command)."""
    progress = _CURRENT.get()
    if progress is not None:
        progress.add(text)


@contextmanager
def reporting(progress: Progress) -> Iterator[Progress]:
    """Reports made while the block runs, in this task and tasks it starts, go to progress."""
    token = _CURRENT.set(progress)
    try:
        yield progress
    finally:
        _CURRENT.reset(token)

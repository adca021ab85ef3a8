"""Domain errors. No errnos here: the FUSE layer maps these to errnos in one table.

    WebshellError
    ├── UsageError            a bad command line or command (→ EINVAL)
    │   └── CommandSyntaxError
    ├── NotFoundError         a page, object or file that does not exist (→ ENOENT / EINVAL in .ctl)
    ├── FetchError            the web did not give us the page (→ EIO)
    │   ├── FetchTimeout      (→ ETIMEDOUT)
    │   ├── AccessDenied      blocked by policy: scheme, private address, robots (→ EACCES; a .ctl command → EIO)
    │   └── SearchError       the search backend failed or refused (names it and how to choose another)
    ├── CompileError          fetched, but its compile ran out of memory or its process died (→ EIO)
    └── StoreError            the cache cannot be opened or written
        └── CacheLocked       another daemon holds the cache
"""

from __future__ import annotations


class WebshellError(Exception):
    """Base of every error webshellfs raises on purpose; its message is shown to the user."""


class UsageError(WebshellError):
    pass


class CommandSyntaxError(UsageError):
    pass


class NotFoundError(WebshellError):
    pass


class FetchError(WebshellError):
    pass


class FetchTimeout(FetchError):
    pass


class ActionBlocked(FetchTimeout):
    """An action waited out its timeout for its element to become operable (disabled,
    covered, read-only): nothing was done, and the tab is as it was."""


class AccessDenied(FetchError):
    pass


class SearchError(FetchError):
    pass


class CompileError(WebshellError):
    pass


class StoreError(WebshellError):
    pass


class CacheLocked(StoreError):
    pass

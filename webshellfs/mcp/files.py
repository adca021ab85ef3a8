"""`read` and `grep` for MCP clients: what `cat`/`sed -n`/`ls` and `grep -rn` show a shell agent on
the mount, over the same engine and store.

Lines are counted as sed and grep count them (split on "\\n" only), so a grep hit
`N0001/content/02-specs.md:14:…` and `read N0001/content/02-specs.md 14 14` name the same line,
the contract's line address. Answers are bounded (an MCP client hands them to a model whole):
a read stops at a line boundary past READ_CHARS and says how to read on; grep stops at a number
of matches and says how many it left out.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from webshellfs.contract.addresses import PageId, parse_page_id
from webshellfs.engine import Engine
from webshellfs.engine.tree import CTL, LAST_LINK
from webshellfs.errors import NotFoundError, UsageError
from webshellfs.store import Store

__all__ = [
    "GREP_MATCHES",
    "MAX_GREP_MATCHES",
    "PNG_TYPE",
    "GrepQuery",
    "grep_pages",
    "read_image",
    "read_path",
]

READ_CHARS = 100_000  # a read past this stops at the next line end and says where to go on
GREP_MATCHES = 100  # matches shown by default
MAX_GREP_MATCHES = 1000
LINE_CHARS = 2_000  # a longer matching line is cut: a whole paragraph is not evidence
BINARY_MARK = b"\0"  # as grep decides: a NUL byte means binary
PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_TYPE = "image/png"


def _clean_path(path: str) -> str:
    parts = [part for part in path.strip().strip("/").split("/") if part not in ("", ".")]
    if ".." in parts:
        raise UsageError(f"{path!r}: paths are under the store; '..' is not allowed")
    return "/".join(parts)


def at_last_page(engine: Engine, path: str, session: str) -> str:
    """path with a leading `@` (the page the session's last command named) made its address."""
    first, slash, rest = path.partition("/")
    if first != LAST_LINK:
        return path
    page = engine.last_page(session)
    if page is None:
        raise NotFoundError("@ stands for the page your last command named, and this session "
                            "has named none yet: open or retrieve a page first")
    return page + slash + rest


def _listing(engine: Engine, path: str) -> str:
    """A directory as `ls -p` shows it: one name per line, directories marked with "/"."""
    return "".join(f"{e.name}/\n" if e.is_dir else f"{e.name}\n" for e in engine.listdir(path))


def _line_slice(text: str, start: int | None, end: int | None) -> str:
    """Lines start..end (1-based, both included), as `sed -n 'START,ENDp'`."""
    if (start is not None and start < 1) or (end is not None and end < 1):
        raise UsageError("line numbers start at 1")
    if start is not None and end is not None and end < start:
        raise UsageError(f"end ({end}) is before start ({start})")
    lines = text.split("\n")
    if text.endswith("\n"):
        lines.pop()  # the last "\n" ends the last line; it does not start another
    first = (start or 1) - 1
    chosen = lines[first : end if end is not None else len(lines)]
    return "".join(line + "\n" for line in chosen) if chosen else ""


def _bounded(text: str, first_line: int) -> str:
    """text up to the end of the line where it passes READ_CHARS, and a note if it went on."""
    if len(text) <= READ_CHARS:
        return text
    cut = text.find("\n", READ_CHARS)
    if cut < 0 or cut == len(text) - 1:
        return text
    shown = text[: cut + 1]
    last = first_line + shown.count("\n") - 1
    return shown + f"[… cut after line {last}: read again with start={last + 1}]\n"


def read_path(
    engine: Engine, path: str, session: str, start: int | None = None, end: int | None = None
) -> str:
    """A file's text (optionally lines start..end), a directory's listing, or `.ctl`: the
    session's last response. NotFoundError when there is no such path."""
    clean = at_last_page(engine, _clean_path(path), session)
    if clean == CTL:
        data = engine.response(session)
    else:
        entry = engine.entry(clean)
        if entry is None:
            raise NotFoundError(f"no such file or directory: {clean or '/'}")
        if entry.is_dir:
            return _listing(engine, clean)
        data = engine.read(clean, 0, entry.size)
    if BINARY_MARK in data:
        return f"{clean} is a binary file ({len(data)} bytes); it has no lines to show\n"
    text = _line_slice(data.decode("utf-8", "replace"), start, end)
    return _bounded(text, start or 1)


def read_image(engine: Engine, path: str, session: str) -> tuple[str, bytes] | None:
    """(its path, its bytes) when path is a PNG of the store (a page's screenshot.png), which a
    client that shows images gets as an image instead of text; None for anything else."""
    clean = at_last_page(engine, _clean_path(path), session)
    if clean == CTL:
        return None
    entry = engine.entry(clean)
    if entry is None or entry.is_dir or entry.size < len(PNG_SIGNATURE):
        return None
    if engine.read(clean, 0, len(PNG_SIGNATURE)) != PNG_SIGNATURE:
        return None
    return clean, engine.read(clean, 0, entry.size)


@dataclass(frozen=True)
class GrepQuery:
    """What to look for and where: `page` None means every stored page; `group` a file or folder
    inside each page ("content", "tables", "actions.tsv" …), "" meaning all of it."""

    pattern: re.Pattern[str]
    page: PageId | None = None
    group: str = ""
    limit: int = GREP_MATCHES

    @classmethod
    def make(
        cls, pattern: str, page: str | None, group: str | None, ignore_case: bool, limit: int
    ) -> GrepQuery:
        """Check the arguments as given by a client; UsageError says what is wrong."""
        try:
            compiled = re.compile(pattern, re.IGNORECASE if ignore_case else 0)
        except re.error as error:
            raise UsageError(f"the pattern {pattern!r} is not a regular expression: {error}") from None
        page_id = None
        if page:
            page_id = parse_page_id(page.strip().strip("/"))
            if page_id is None:
                raise UsageError(f"{page!r} is not a page address (like N0001)")
        if not 1 <= limit <= MAX_GREP_MATCHES:
            raise UsageError(f"max_matches is from 1 to {MAX_GREP_MATCHES}")
        return cls(compiled, page_id, _clean_path(group or ""), limit)

    def takes(self, relpath: str) -> bool:
        return not self.group or relpath == self.group or relpath.startswith(self.group + "/")


def _matches(store: Store, query: GrepQuery) -> Iterator[str]:
    """`page/relpath:line:text` for every matching line, pages and files in order."""
    if query.page is not None:
        if store.page(query.page) is None:
            raise NotFoundError(f"no page {query.page}; see _pages.tsv for the stored ones")
        pages = [query.page]
    else:
        pages = [record.page_id for record in store.pages()]
    for page in pages:
        for found in store.page_files(page):
            if not query.takes(found.relpath):
                continue
            data = store.read_blob(found.blob)
            if BINARY_MARK in data:
                continue
            for number, line in enumerate(data.decode("utf-8", "replace").split("\n"), 1):
                if query.pattern.search(line):
                    if len(line) > LINE_CHARS:
                        line = line[:LINE_CHARS] + f" …[{len(line)} chars]"
                    yield f"{page}/{found.relpath}:{number}:{line}"


def grep_pages(store: Store, query: GrepQuery) -> str:
    """The matching lines as `grep -rn` prints them from the store's root, at most query.limit,
    then how many more there were. Reads the store only (any thread)."""
    shown: list[str] = []
    more = 0
    for hit in _matches(store, query):
        if len(shown) < query.limit:
            shown.append(hit)
        else:
            more += 1
    if not shown:
        where = query.page or "any page"
        inside = f" ({query.group})" if query.group else ""
        return f"no line matches {query.pattern.pattern!r} in {where}{inside}\n"
    text = "".join(line + "\n" for line in shown)
    if more:
        text += (f"[… {more} more matching lines not shown: narrow with page or group, "
                 "or raise max_matches]\n")
    return text

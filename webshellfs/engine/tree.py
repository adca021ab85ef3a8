"""The read side of the engine: the store shown as the mount's tree.

Everything here is synchronous and runs on the trio thread that serves FUSE, so it does only
SQLite point queries and keeps listings cached: the page list and `_pages.tsv` until the store's
generation changes, and each page's file tree (pages never change) in a small LRU.

Every path also has a number that follows from what is stored (`number`, `path_of`): a kind in
the top bits, then a log or search record's number, or a page's number and the entry's place in
the page's sorted file tree. The FUSE layer uses them as inode numbers, so it keeps no table that
grows with what the kernel has seen, and a path has the same number after a remount.
"""

from __future__ import annotations

import itertools
import time
from collections import OrderedDict
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, datetime
from operator import itemgetter

from webshellfs.contract.addresses import PageId, format_page_id, parse_page_id
from webshellfs.contract.layout import PAGE_DIRS, clean_field
from webshellfs.engine.records import Entry
from webshellfs.errors import NotFoundError
from webshellfs.store import LogRecord, PageFile, PageRecord, Store

__all__ = [
    "CTL",
    "LAST_LINK",
    "LOG_DIR",
    "PAGES_TSV",
    "README",
    "ROOT_NUMBER",
    "SEARCH_DIR",
    "SITES_DIR",
    "UNUSED_NUMBERS",
    "TreeView",
    "no_response_yet",
]

CTL = ".ctl"
# A link to the page the caller's last command named (`@` in commands too); not listed, since a
# listing is not told who asks.
LAST_LINK = "@"
README = "README.md"
PAGES_TSV = "_pages.tsv"
LOG_DIR = "_log"
SEARCH_DIR = "_search"
SITES_DIR = "_sites"  # one directory per explored site: its map (webshellfs/explore)
PAGES_COLUMNS = ("page", "parent", "via", "status", "title", "url")
ROOT_NAMES = (CTL, PAGES_TSV, README, LOG_DIR, SEARCH_DIR, SITES_DIR)
# Page trees kept built: a `grep -r` or `find` walks page by page, so a few suffice; each is a
# few KB, and every one kept is memory the daemon holds however much the kernel forgets.
PAGE_TREE_CACHE = 64

# Path numbers (see the module docstring). `.ctl` and `.progress` have none: the FUSE layer
# numbers them per session from UNUSED_NUMBERS up. Entries under `_sites/` are named by the
# sites explored, so they are numbered in order of first sight (a few per site).
ROOT_NUMBER = 1
_ROOT_NUMBERS = {README: 2, PAGES_TSV: 3, LOG_DIR: 4, SEARCH_DIR: 5, LAST_LINK: 6, SITES_DIR: 7}
_ROOT_PATHS = {number: name for name, number in _ROOT_NUMBERS.items()}
_KIND_SHIFT = 56
_LOG_KIND, _SEARCH_KIND, _PAGE_KIND, _SITE_KIND = 1, 2, 3, 4
_RECORD_KINDS = {LOG_DIR: (_LOG_KIND, "R"), SEARCH_DIR: (_SEARCH_KIND, "Q")}
_PLACE_BITS = 24  # room for 16 million entries in one page
UNUSED_NUMBERS = 5 << _KIND_SHIFT


# How a session named by WEBSHELL_SESSION is spelled (the FUSE layer's session_of).
NAMED_SESSION = "env:"


def no_response_yet(session: str) -> bytes:
    who = f" (session {session})" if session else ""
    hint = (
        f"no response yet for this session{who}. Write a command first, e.g.\n"
        "  echo help > .ctl; cat .ctl\n"
    )
    if session.startswith(NAMED_SESSION):
        # The likely cause: `export WEBSHELL_SESSION=…` in a running shell, whose own
        # `> .ctl` still counts for its Unix session.
        hint += (
            f"WEBSHELL_SESSION={session.removeprefix(NAMED_SESSION)} is set here, but a shell's "
            "own `> .ctl` counts for it only if the shell was started with it (an export in a "
            "running shell does not reach its redirections). `webshell help` writes and reads "
            "in one process.\n"
        )
    return hint.encode()


def render_log(record: LogRecord) -> bytes:
    """`_log/R0001.md`: the request, who asked, when, then the response as `cat .ctl` showed it."""
    when = datetime.fromtimestamp(record.created_ns / 1e9, UTC)
    head = [
        f"# {record.request_id} {record.outcome}",
        f"request: {record.command}",
        f"session: {record.session}",
        f"time: {when.strftime('%Y-%m-%dT%H:%M:%SZ')}",
        "",
    ]
    return ("\n".join(head) + "\n" + record.text).encode("utf-8", "surrogatepass")


def _record_name(prefix: str, number: int) -> str:
    return f"{prefix}{number:04d}.md"


def _listed_page_number(name: str) -> int | None:
    """`N0012` → 12; None for anything else, N00012 included (not how the page is listed)."""
    digits = name[1:]
    if not name.startswith("N") or not digits.isdigit():
        return None
    number = int(digits)
    return number if format_page_id(number) == name else None


def _numbered(name: str, prefix: str) -> int | None:
    """`R0012.md` → 12 for prefix "R"; anything else → None."""
    digits = name[1:-3]
    if name.startswith(prefix) and name.endswith(".md") and digits.isdigit():
        return int(digits)
    return None


@dataclass
class _PageTree:
    """The file tree of one stored page, built once from its file list."""

    record: PageRecord
    page: PageId  # the record's id, spelled once: every request names it
    files: dict[str, PageFile]
    children: dict[str, set[str]] = field(default_factory=dict)
    # Every relpath in sorted order, the page directory itself ("") first: an entry's place.
    places: list[str] = field(default_factory=list)
    place_of: dict[str, int] = field(default_factory=dict)

    @classmethod
    def build(cls, record: PageRecord, files: list[PageFile]) -> _PageTree:
        tree = cls(record, record.page_id, {f.relpath: f for f in files}, {"": set()})
        for directory in PAGE_DIRS:
            tree._add(directory, is_dir=True)
        for relpath in tree.files:
            tree._add(relpath, is_dir=False)
        tree.places = sorted(tree.children.keys() | tree.files.keys())
        tree.place_of = {relpath: place for place, relpath in enumerate(tree.places)}
        return tree

    def _add(self, relpath: str, is_dir: bool) -> None:
        parent, _, name = relpath.rpartition("/")
        if parent not in self.children:
            self._add(parent, is_dir=True)
        self.children[parent].add(name)
        if is_dir:
            self.children.setdefault(relpath, set())

    def entry(self, relpath: str) -> Entry | None:
        page = self.page
        name = relpath.rpartition("/")[2]
        found = self.files.get(relpath)
        if found is not None:
            return Entry(name, f"{page}/{relpath}", False, found.size, self.record.created_ns, True)
        if relpath in self.children:
            return Entry(name, f"{page}/{relpath}", True, 0, self.record.created_ns, True)
        return None


class TreeView:
    """entry / listdir / read over the store. `touched()` marks a new response (.ctl, _log/)."""

    def __init__(self, store: Store, readme: bytes) -> None:
        self.store = store
        self.started_ns = time.time_ns()
        self._readme = readme
        self._changed_ns = self.started_ns
        self._trees: OrderedDict[str, _PageTree] = OrderedDict()
        self._generation = -1
        self._status_generation = -1
        self._pages: dict[str, PageRecord] = {}
        self._page_entries: list[Entry] = []
        self._pages_rows: list[str] = []  # `_pages.tsv`'s lines, its header first
        self._pages_tsv: bytes | None = None  # made from the rows when first read
        self._pages_mtime = self.started_ns
        # Log and search files never change once written: their entries are made once, so
        # listing _log/ costs one query however long the log grows (it runs on the FUSE thread).
        self._record_entries: dict[str, Entry] = {}
        self._site_paths: list[str] = []  # `_sites/…` paths in order of first sight
        self._site_numbers: dict[str, int] = {}

    def touched(self) -> None:
        self._changed_ns = time.time_ns()

    def page(self, page: PageId) -> PageRecord | None:
        self._refresh_pages()
        return self._pages.get(page)

    def _refresh_pages(self) -> None:
        """Bring the page list and `_pages.tsv` up to the store: only the pages added since the
        last look are read, unless a status changed (then all), so a command costs the same
        with 5,000 pages stored as with 5."""
        generation, statuses = self.store.generation, self.store.status_generation
        if generation == self._generation:
            return
        if statuses != self._status_generation:
            self._status_generation = statuses
            self._pages, self._page_entries = {}, []
            self._pages_rows = ["\t".join(PAGES_COLUMNS)]
            self._pages_mtime = self.started_ns
        last = self._page_entries[-1].name if self._page_entries else None
        records = self.store.pages(after=0 if last is None else self._pages[last].number)
        for r in records:
            self._pages[r.page_id] = r
            self._page_entries.append(Entry(r.page_id, r.page_id, True, 0, r.created_ns, True))
            self._pages_rows.append("\t".join(
                clean_field(v) for v in (r.page_id, r.parent, r.via, r.status, r.title, r.url)))
            self._pages_mtime = max(self._pages_mtime, r.created_ns)
        self._pages_tsv = None
        self._generation = generation

    def _pages_file(self) -> bytes:
        self._refresh_pages()
        if self._pages_tsv is None:
            self._pages_tsv = ("\n".join(self._pages_rows) + "\n").encode("utf-8", "surrogatepass")
        return self._pages_tsv

    def page_layouts(self) -> Iterator[tuple[str, set[tuple[str, bool, int]]]]:
        """Each stored page that has files, with every entry under it as (relpath, is a
        directory, size), read in one query rather than a tree per page: directory mode checks
        its copy of thousands of pages with it at start."""
        for page, files in itertools.groupby(self.store.every_page_file(), key=itemgetter(0)):
            layout = {(directory, True, 0) for directory in PAGE_DIRS}
            for _, page_file in files:
                layout.add((page_file.relpath, False, page_file.size))
                parent = page_file.relpath.rpartition("/")[0]
                while parent:
                    layout.add((parent, True, 0))
                    parent = parent.rpartition("/")[0]
            yield page, layout

    def _tree(self, page: str) -> _PageTree | None:
        tree = self._trees.get(page)
        if tree is not None:
            self._trees.move_to_end(page)
            return tree
        record = self.page(PageId(page)) if parse_page_id(page) else None
        if record is None:
            return None
        tree = _PageTree.build(record, self.store.page_files(record.page_id))
        self._trees[page] = tree
        if len(self._trees) > PAGE_TREE_CACHE:
            self._trees.popitem(last=False)
        return tree

    def _root_file(self, name: str) -> Entry | None:
        """One of the root's own entries (None for any other name): only `_pages.tsv` reads
        the page list, so a `.ctl` lookup costs nothing however many pages are stored."""
        if name == CTL:
            return Entry(CTL, CTL, False, 0, self._changed_ns, False, writable=True)
        if name == PAGES_TSV:
            size = len(self._pages_file())
            return Entry(PAGES_TSV, PAGES_TSV, False, size, self._pages_mtime, False)
        if name == README:
            return Entry(README, README, False, len(self._readme), self.started_ns, False)
        if name in (LOG_DIR, SEARCH_DIR, SITES_DIR):
            return Entry(name, name, True, 0, self._changed_ns, False)
        return None

    # --- _sites/: an explored site's map, rewritten while an exploration runs (never cached)

    def _site_entry(self, rest: str) -> Entry | None:
        site, _, name = rest.partition("/")
        updated = dict(self.store.sites()).get(site)
        if updated is None or "/" in name:
            return None
        path = f"{SITES_DIR}/{rest}"
        if not name:
            return Entry(site, path, True, 0, updated, False)
        size = dict(self.store.site_files(site)).get(name)
        return None if size is None else Entry(name, path, False, size, updated, False)

    def _site_names(self, rest: str) -> list[str]:
        if not rest:
            return [f"{SITES_DIR}/{site}" for site, _ in self.store.sites()]
        if self._site_entry(rest) is None or "/" in rest:
            raise NotFoundError(f"no such directory: {SITES_DIR}/{rest}")
        return [f"{SITES_DIR}/{rest}/{name}" for name, _ in self.store.site_files(rest)]

    def _log_file(self, name: str) -> tuple[bytes, int] | None:
        number = _numbered(name, "R")
        record = None if number is None else self.store.log_record(number)
        return None if record is None else (render_log(record), record.created_ns)

    def _search_file(self, name: str) -> tuple[bytes, int] | None:
        number = _numbered(name, "Q")
        found = None if number is None else self.store.search_text(number)
        return None if found is None else (found[0].encode("utf-8"), found[1])

    def _record_entry(self, top: str, name: str) -> Entry | None:
        path = f"{top}/{name}"
        known = self._record_entries.get(path)
        if known is not None:
            return known
        found = (self._log_file if top == LOG_DIR else self._search_file)(name)
        if found is None:
            return None
        entry = Entry(name, path, False, len(found[0]), found[1], True)
        self._record_entries[path] = entry
        return entry

    def number(self, path: str) -> int | None:
        """The number of an existing path; None for `.ctl` and `.progress` and for a name
        spelled otherwise than it is listed. (For a path that does not exist, it means nothing.)"""
        if not path:
            return ROOT_NUMBER
        top, _, rest = path.partition("/")
        if not rest:
            if top in _ROOT_NUMBERS:
                return _ROOT_NUMBERS[top]
            page = _listed_page_number(top)
            return None if page is None else (_PAGE_KIND << _KIND_SHIFT) | (page << _PLACE_BITS)
        if top == SITES_DIR:
            return self._site_number(path)
        if top in _RECORD_KINDS:
            kind, prefix = _RECORD_KINDS[top]
            record = _numbered(rest, prefix)
            if record is None or _record_name(prefix, record) != rest:
                return None
            return (kind << _KIND_SHIFT) | record
        tree = self._tree(top)
        place = None if tree is None or tree.page != top else tree.place_of.get(rest)
        if place is None:
            return None
        return (_PAGE_KIND << _KIND_SHIFT) | (tree.record.number << _PLACE_BITS) | place

    def _site_number(self, path: str) -> int:
        number = self._site_numbers.get(path)
        if number is None:
            number = self._site_numbers[path] = len(self._site_paths)
            self._site_paths.append(path)
        return (_SITE_KIND << _KIND_SHIFT) | number

    def path_of(self, number: int) -> str | None:
        """The path numbered number, the inverse of `number` (None if no path has it)."""
        if number == ROOT_NUMBER:
            return ""
        if number in _ROOT_PATHS:
            return _ROOT_PATHS[number]
        kind, value = number >> _KIND_SHIFT, number & ((1 << _KIND_SHIFT) - 1)
        if kind == _SITE_KIND:
            return self._site_paths[value] if value < len(self._site_paths) else None
        for top, (record_kind, prefix) in _RECORD_KINDS.items():
            if kind == record_kind:
                return f"{top}/{_record_name(prefix, value)}"
        if kind != _PAGE_KIND:
            return None
        page = format_page_id(value >> _PLACE_BITS)
        place = value & ((1 << _PLACE_BITS) - 1)
        tree = self._tree(page)
        if tree is None or place >= len(tree.places):
            return None
        return page if place == 0 else f"{page}/{tree.places[place]}"

    def entry(self, path: str) -> Entry | None:
        path = path.strip("/")
        if not path:
            self._refresh_pages()
            return Entry("", "", True, 0, max(self._changed_ns, self._pages_mtime), False)
        top, _, rest = path.partition("/")
        if not rest:
            entry = self._root_file(top)
            if entry is not None:
                return entry
            record = self.page(PageId(top)) if parse_page_id(top) else None
            return None if record is None else Entry(top, top, True, 0, record.created_ns, True)
        if top in (LOG_DIR, SEARCH_DIR):
            return self._record_entry(top, rest)
        if top == SITES_DIR:
            return self._site_entry(rest)
        tree = self._tree(top)
        return None if tree is None else tree.entry(rest)

    def listdir(self, path: str) -> list[Entry]:
        path = path.strip("/")
        if not path:
            own = [self._root_file(name) for name in ROOT_NAMES]  # _pages.tsv's refreshes pages
            return sorted([e for e in own if e is not None] + self._page_entries,
                          key=lambda e: e.name)
        if path == LOG_DIR:
            names = [f"{LOG_DIR}/{_record_name('R', n)}" for n in self.store.log_numbers()]
        elif path == SEARCH_DIR:
            names = [f"{SEARCH_DIR}/{_record_name('Q', n)}" for n in self.store.search_numbers()]
        elif path.partition("/")[0] == SITES_DIR:
            names = self._site_names(path.partition("/")[2])
        else:
            top, _, rest = path.partition("/")
            tree = self._tree(top)
            if tree is None or rest not in tree.children:
                raise NotFoundError(f"no such directory: {path}")
            names = [f"{path}/{name}" for name in tree.children[rest]]
        entries = [self.entry(name) for name in names]
        return sorted((e for e in entries if e is not None), key=lambda e: e.name)

    def read(self, path: str, offset: int, size: int) -> bytes:
        path = path.strip("/")
        top, _, rest = path.partition("/")
        data: bytes | None = None
        if path == README:
            data = self._readme
        elif path == PAGES_TSV:
            data = self._pages_file()
        elif path == CTL:
            data = no_response_yet("")  # the FUSE layer serves .ctl per session via response()
        elif top in (LOG_DIR, SEARCH_DIR) and rest:
            found = (self._log_file if top == LOG_DIR else self._search_file)(rest)
            data = None if found is None else found[0]
        elif top == SITES_DIR and rest.count("/") == 1:
            data = self.store.site_file(*rest.split("/"))
        elif rest:
            tree = self._tree(top)
            page_file = None if tree is None else tree.files.get(rest)
            if page_file is not None:
                return self.store.read_blob(page_file.blob, offset, size)
        if data is None:
            raise NotFoundError(f"no such file: {path}")
        return data[offset : offset + size]

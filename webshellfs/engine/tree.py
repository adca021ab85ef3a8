"""The read side of the engine: the store shown as the mount's tree.

Everything here is synchronous and runs on the trio thread that serves FUSE, so it does only
SQLite point queries and keeps listings cached: the page list and `_pages.tsv` until the store's
generation changes, and each page's file tree (pages never change) in a bounded LRU.
"""

from __future__ import annotations

import time
from collections import OrderedDict
from dataclasses import dataclass, field
from datetime import UTC, datetime

from webshellfs.contract.addresses import PageId, parse_page_id
from webshellfs.contract.layout import PAGE_DIRS, clean_field
from webshellfs.engine.records import Entry
from webshellfs.errors import NotFoundError
from webshellfs.store import LogRecord, PageFile, PageRecord, Store

__all__ = [
    "CTL", "LAST_LINK", "LOG_DIR", "PAGES_TSV", "README", "SEARCH_DIR", "SITES_DIR", "TreeView",
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
PAGE_TREE_CACHE = 1024


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
    files: dict[str, PageFile]
    children: dict[str, set[str]] = field(default_factory=dict)

    @classmethod
    def build(cls, record: PageRecord, files: list[PageFile]) -> _PageTree:
        tree = cls(record, {f.relpath: f for f in files}, {"": set()})
        for directory in PAGE_DIRS:
            tree._add(directory, is_dir=True)
        for relpath in tree.files:
            tree._add(relpath, is_dir=False)
        return tree

    def _add(self, relpath: str, is_dir: bool) -> None:
        parent, _, name = relpath.rpartition("/")
        if parent not in self.children:
            self._add(parent, is_dir=True)
        self.children[parent].add(name)
        if is_dir:
            self.children.setdefault(relpath, set())

    def entry(self, relpath: str) -> Entry | None:
        page = self.record.page_id
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
        self._pages: dict[str, PageRecord] = {}
        self._page_entries: list[Entry] = []
        self._pages_tsv = b""
        self._pages_mtime = self.started_ns
        # Log and search files never change once written: their entries are made once, so
        # listing _log/ costs one query however long the log grows (it runs on the FUSE thread).
        self._record_entries: dict[str, Entry] = {}

    def touched(self) -> None:
        self._changed_ns = time.time_ns()

    def page(self, page: PageId) -> PageRecord | None:
        self._refresh_pages()
        return self._pages.get(page)

    def _refresh_pages(self) -> None:
        generation = self.store.generation
        if generation == self._generation:
            return
        records = self.store.pages()
        rows = ["\t".join(PAGES_COLUMNS)]
        rows += [
            "\t".join(clean_field(v) for v in (r.page_id, r.parent, r.via, r.status, r.title, r.url))
            for r in records
        ]
        self._pages = {r.page_id: r for r in records}
        self._page_entries = [Entry(r.page_id, r.page_id, True, 0, r.created_ns, True) for r in records]
        self._pages_mtime = max((r.created_ns for r in records), default=self.started_ns)
        self._pages_tsv = ("\n".join(rows) + "\n").encode("utf-8", "surrogatepass")
        self._generation = generation

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

    def _root_files(self) -> list[Entry]:
        self._refresh_pages()
        return [
            Entry(CTL, CTL, False, 0, self._changed_ns, False, writable=True),
            Entry(PAGES_TSV, PAGES_TSV, False, len(self._pages_tsv), self._pages_mtime, False),
            Entry(README, README, False, len(self._readme), self.started_ns, False),
            Entry(LOG_DIR, LOG_DIR, True, 0, self._changed_ns, False),
            Entry(SEARCH_DIR, SEARCH_DIR, True, 0, self._changed_ns, False),
            Entry(SITES_DIR, SITES_DIR, True, 0, self._changed_ns, False),
        ]

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

    def entry(self, path: str) -> Entry | None:
        path = path.strip("/")
        if not path:
            self._refresh_pages()
            return Entry("", "", True, 0, max(self._changed_ns, self._pages_mtime), False)
        top, _, rest = path.partition("/")
        if not rest:
            for entry in self._root_files():
                if entry.name == top:
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
            root_files = self._root_files()  # refreshes the page entries too
            return sorted(root_files + self._page_entries, key=lambda e: e.name)
        if path == LOG_DIR:
            names = [f"{LOG_DIR}/R{n:04d}.md" for n in self.store.log_numbers()]
        elif path == SEARCH_DIR:
            names = [f"{SEARCH_DIR}/Q{n:04d}.md" for n in self.store.search_numbers()]
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
            self._refresh_pages()
            data = self._pages_tsv
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

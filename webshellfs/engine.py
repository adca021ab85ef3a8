"""The engine: runs `.ctl` commands against the store and a fetcher, and shows the store as the
tree of the mount. It knows nothing of FUSE; the FUSE layer only translates file operations
into the calls below (see docs in notes: entry/listdir/read, command, response, aclose).

Threading: the read side (`entry`, `listdir`, `read`, `response`) is synchronous and runs on the
trio thread that serves FUSE, so it only does SQLite point queries and cached listings. The
command side awaits: fetching is async, compiling and every store write run in worker threads,
so a running command never holds up reads or another session's command.
"""

from __future__ import annotations

import enum
import functools
import logging
import time
from collections import OrderedDict
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from datetime import datetime, timezone
from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

import trio

from webshellfs import ctl
from webshellfs.compiler import compile_page
from webshellfs.config import Settings
from webshellfs.contract.addresses import PageId, is_object_id, parse_page_id
from webshellfs.contract.layout import CELL_COLUMNS, PAGE_DIRS, clean_field, render_page, section_files
from webshellfs.contract.records import CompiledPage
from webshellfs.errors import (
    CommandSyntaxError,
    FetchError,
    FetchTimeout,
    NotFoundError,
    StoreError,
)
from webshellfs.fetch import Capture, Fetcher
from webshellfs.guide import guide_text
from webshellfs.store import LogRecord, PageFile, PageRecord, Store

__all__ = ["Engine", "Entry", "Outcome", "Response"]

log = logging.getLogger(__name__)

CTL = ".ctl"
README = "README.md"
PAGES_TSV = "_pages.tsv"
LOG_DIR = "_log"
SEARCH_DIR = "_search"
PAGES_COLUMNS = ("page", "parent", "via", "status", "title", "url")
PAGE_TREE_CACHE = 256
LOOKUP_SHOWN = 30
LABELS_SHOWN = 20
# Media the compiler has no rules for; anything else (HTML, XML, PDF, JSON, text, no type) is
# compiled, and the compiler decides how.
NOT_DOCUMENTS = ("image/", "audio/", "video/", "font/", "application/octet-stream",
                 "application/zip", "application/gzip", "application/x-tar", "application/wasm")


@dataclass(frozen=True)
class Entry:
    name: str
    path: str
    is_dir: bool
    size: int
    mtime_ns: int
    immutable: bool
    writable: bool = False


class Outcome(enum.Enum):
    OK = "ok"
    INVALID = "invalid"
    FAILED = "failed"
    TIMEOUT = "timeout"


@dataclass(frozen=True)
class Response:
    request_id: str
    outcome: Outcome
    text: str


@dataclass
class _PageTree:
    """The file tree of one stored page, built once from its file list (pages never change)."""

    record: PageRecord
    files: dict[str, PageFile]
    children: dict[str, set[tuple[str, bool]]] = field(default_factory=dict)

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
        self.children[parent].add((name, is_dir))
        if is_dir:
            self.children.setdefault(relpath, set())


class _Answer(Exception):
    """Ends a command early with an outcome other than OK and the text to show."""

    def __init__(self, outcome: Outcome, text: str) -> None:
        super().__init__(text)
        self.outcome = outcome
        self.text = text


def _iso(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def _message(error: Exception) -> str:
    return str(error).rstrip("\n") + "\n"


def _request_line(line: str | bytes) -> str:
    text = line.decode("utf-8", "replace") if isinstance(line, bytes) else line
    return clean_field(text)[:300]


def _render_log(record: LogRecord) -> bytes:
    head = [
        f"# {record.request_id} {record.outcome}",
        f"request: {record.command}",
        f"session: {record.session}",
        f"time: {_iso(record.created_ns)}",
        "",
    ]
    return ("\n".join(head) + "\n" + record.text).encode("utf-8", "surrogatepass")


def page_meta(page: CompiledPage, capture: Capture) -> dict[str, Any]:
    """What later commands need without re-reading the page: anchors for resolve, link URLs,
    and the action locators, kinds and labels that execute checks before it acts."""
    paths = section_files(page)
    return {
        "requested_url": capture.requested_url,
        "content_type": capture.content_type,
        "anchors": {name: paths[i] for name, i in page.anchors if 0 <= i < len(paths)},
        "links": {link.id: link.url for link in page.links},
        "actions": {
            action.id: {
                "kind": action.kind,
                "control": action.control,
                "label": action.label,
                "locator": action.locator,
                "target": action.target,
            }
            for action in page.actions
        },
    }


def _open_summary(record: PageRecord, page: CompiledPage, capture: Capture) -> str:
    page_id = record.page_id
    lines = [f"{page_id}  {clean_field(page.title) or '(untitled)'}", f"url: {record.url}"]
    if capture.requested_url != capture.url:
        lines.append(f"asked for: {capture.requested_url}")
    content = sum(1 for s in page.sections if s.kind == "content")
    lines.append(
        f"{content} sections · {len(page.tables)} tables · {len(page.links)} links · "
        f"{len(page.actions)} actions · {len(page.facts)} facts"
    )
    lines.append(f"next: cat {page_id}/_map.md   then grep -rn WORD {page_id}/content/")
    return "\n".join(lines) + "\n"


class Engine:
    """Runs commands and shows the store as the mount's tree. Owns the store and the fetcher."""

    def __init__(self, store: Store, fetcher: Fetcher, settings: Settings) -> None:
        self.store = store
        self.fetcher = fetcher
        self.settings = settings
        self.started_ns = time.time_ns()
        self._changed_ns = self.started_ns
        self._readme = guide_text().encode("utf-8")
        self._responses: dict[str, Response] = {}
        self._trees: OrderedDict[str, _PageTree] = OrderedDict()
        self._pages_generation = -1
        self._pages: dict[str, PageRecord] = {}
        self._pages_tsv = b""
        self._pages_mtime = self.started_ns
        self._handlers: dict[type, Callable[[Any], Awaitable[str]]] = {
            ctl.Open: self._open,
            ctl.Lookup: self._lookup,
            ctl.Resolve: self._resolve,
            ctl.Help: self._help,
            ctl.Execute: self._not_yet,
            ctl.Focus: self._not_yet,
            ctl.Close: self._not_yet,
            ctl.Retrieve: self._not_yet,
        }

    # --- read side ------------------------------------------------------------------------------

    def _refresh_pages(self) -> None:
        """Cache the page list and _pages.tsv until the store changes."""
        generation = self.store.generation
        if generation == self._pages_generation:
            return
        records = self.store.pages()
        rows = ["\t".join(PAGES_COLUMNS)]
        rows += [
            "\t".join(
                clean_field(v) for v in (r.page_id, r.parent, r.via, r.status, r.title, r.url)
            )
            for r in records
        ]
        self._pages = {r.page_id: r for r in records}
        self._pages_mtime = max((r.created_ns for r in records), default=self.started_ns)
        self._pages_tsv = ("\n".join(rows) + "\n").encode("utf-8", "surrogatepass")
        self._pages_generation = generation

    def _tree(self, page: str) -> _PageTree | None:
        tree = self._trees.get(page)
        if tree is not None:
            self._trees.move_to_end(page)
            return tree
        self._refresh_pages()
        record = self._pages.get(page)
        if record is None:
            return None
        tree = _PageTree.build(record, self.store.page_files(record.page_id))
        self._trees[page] = tree
        if len(self._trees) > PAGE_TREE_CACHE:
            self._trees.popitem(last=False)
        return tree

    def _root_files(self) -> dict[str, tuple[int, int, bool]]:
        """name → (size, mtime_ns, writable) for the files at the root."""
        self._refresh_pages()
        return {
            CTL: (0, self._changed_ns, True),
            PAGES_TSV: (len(self._pages_tsv), self._pages_mtime, False),
            README: (len(self._readme), self.started_ns, False),
        }

    def _log_record(self, name: str) -> LogRecord | None:
        if not (name.startswith("R") and name.endswith(".md") and name[1:-3].isdigit()):
            return None
        return self.store.log_record(int(name[1:-3]))

    def _search_record(self, name: str) -> tuple[bytes, int] | None:
        if not (name.startswith("Q") and name.endswith(".md") and name[1:-3].isdigit()):
            return None
        found = self.store.search_text(int(name[1:-3]))
        return None if found is None else (found[0].encode("utf-8"), found[1])

    def entry(self, path: str) -> Entry | None:
        path = path.strip("/")
        if not path:
            self._refresh_pages()
            return Entry("", "", True, 0, max(self._changed_ns, self._pages_mtime), False)
        top, _, rest = path.partition("/")
        if not rest:
            return self._root_entry(top)
        if top == LOG_DIR and "/" not in rest:
            record = self._log_record(rest)
            if record is None:
                return None
            return Entry(rest, path, False, len(_render_log(record)), record.created_ns, True)
        if top == SEARCH_DIR and "/" not in rest:
            found = self._search_record(rest)
            return None if found is None else Entry(rest, path, False, len(found[0]), found[1], True)
        tree = self._tree(top) if parse_page_id(top) else None
        if tree is None:
            return None
        return self._page_entry(tree, rest)

    def _root_entry(self, name: str) -> Entry | None:
        files = self._root_files()
        if name in files:
            size, mtime, writable = files[name]
            return Entry(name, name, False, size, mtime, False, writable)
        if name in (LOG_DIR, SEARCH_DIR):
            return Entry(name, name, True, 0, self._changed_ns, False)
        if parse_page_id(name) is None:
            return None
        self._refresh_pages()
        record = self._pages.get(name)
        return None if record is None else Entry(name, name, True, 0, record.created_ns, True)

    def _page_entry(self, tree: _PageTree, relpath: str) -> Entry | None:
        page = tree.record.page_id
        mtime = tree.record.created_ns
        name = relpath.rpartition("/")[2]
        found = tree.files.get(relpath)
        if found is not None:
            return Entry(name, f"{page}/{relpath}", False, found.size, mtime, True)
        if relpath in tree.children:
            return Entry(name, f"{page}/{relpath}", True, 0, mtime, True)
        return None

    def listdir(self, path: str) -> list[Entry]:
        path = path.strip("/")
        if not path:
            return self._list_root()
        if path == LOG_DIR:
            names = [f"_log/R{n:04d}.md" for n in self.store.log_numbers()]
        elif path == SEARCH_DIR:
            names = [f"_search/Q{n:04d}.md" for n in self.store.search_numbers()]
        else:
            top, _, rest = path.partition("/")
            tree = self._tree(top) if parse_page_id(top) else None
            if tree is None or rest not in tree.children:
                raise NotFoundError(f"no such directory: {path}")
            prefix = f"{top}/{rest}/" if rest else f"{top}/"
            names = [prefix + name for name, _ in tree.children[rest]]
        entries = [self.entry(name) for name in names]
        return sorted((e for e in entries if e is not None), key=lambda e: e.name)

    def _list_root(self) -> list[Entry]:
        entries = [
            Entry(name, name, False, size, mtime, False, writable)
            for name, (size, mtime, writable) in self._root_files().items()
        ]
        entries += [Entry(name, name, True, 0, self._changed_ns, False) for name in (LOG_DIR, SEARCH_DIR)]
        entries += [Entry(p, p, True, 0, r.created_ns, True) for p, r in self._pages.items()]
        return sorted(entries, key=lambda e: e.name)

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
            data = self._no_response_yet("")
        elif top == LOG_DIR and rest:
            record = self._log_record(rest)
            data = None if record is None else _render_log(record)
        elif top == SEARCH_DIR and rest:
            found = self._search_record(rest)
            data = None if found is None else found[0]
        elif rest and parse_page_id(top):
            tree = self._tree(top)
            found_file = None if tree is None else tree.files.get(rest)
            if found_file is not None:
                return self.store.read_blob(found_file.blob, offset, size)
        if data is None:
            raise NotFoundError(f"no such file: {path}")
        return data[offset : offset + size]

    def response(self, session: str) -> bytes:
        found = self._responses.get(session)
        if found is None:
            return self._no_response_yet(session)
        return found.text.encode("utf-8", "surrogatepass")

    @staticmethod
    def _no_response_yet(session: str) -> bytes:
        who = f" (session {session})" if session else ""
        return (
            f"no response yet for this session{who}. Write a command first, e.g.\n"
            "  echo help > .ctl && cat .ctl\n"
        ).encode("utf-8")

    # --- command side ---------------------------------------------------------------------------

    async def command(self, line: str | bytes, session: str) -> Response:
        request_id = self.store.reserve_request_id()
        shown = _request_line(line)
        deadline = self.settings.command_deadline
        outcome, body = Outcome.OK, ""
        try:
            with trio.fail_after(deadline):
                body = await self._run(line)
        except _Answer as answer:
            outcome, body = answer.outcome, answer.text
        except trio.TooSlowError:
            outcome = Outcome.TIMEOUT
            body = (
                f"the command did not finish within its deadline of {deadline:g} s "
                "(the mount's --deadline); nothing was stored\n"
            )
        response = Response(request_id, outcome, f"{request_id} {outcome.value}: {shown}\n{body}")
        self._responses[session] = response
        self._changed_ns = time.time_ns()
        with trio.CancelScope(shield=True):
            try:
                await trio.to_thread.run_sync(
                    self.store.add_log, request_id, session, shown, outcome.value, response.text
                )
            except Exception:
                log.exception("could not write %s to the log", request_id)
        return response

    async def _run(self, line: str | bytes) -> str:
        try:
            command = ctl.parse(line)
            return await self._handlers[type(command)](command)
        except (CommandSyntaxError, NotFoundError) as error:
            raise _Answer(Outcome.INVALID, _message(error)) from None
        except FetchTimeout as error:
            raise _Answer(Outcome.TIMEOUT, _message(error)) from None
        except (FetchError, StoreError) as error:
            raise _Answer(Outcome.FAILED, _message(error)) from None
        except _Answer:
            raise
        except Exception as error:
            log.exception("command failed unexpectedly: %s", _request_line(line))
            raise _Answer(
                Outcome.FAILED, f"internal error ({type(error).__name__}); see the daemon's log\n"
            ) from None

    def _require_page(self, page: PageId) -> PageRecord:
        self._refresh_pages()
        record = self._pages.get(page)
        if record is None:
            raise NotFoundError(f"no page {page}; see _pages.tsv for the stored ones")
        return record

    async def _help(self, command: ctl.Help) -> str:
        if command.verb is not None and command.verb not in ctl.COMMANDS:
            raise NotFoundError(f"no command {command.verb!r}\n{ctl.help_text()}")
        return ctl.help_text(command.verb)

    async def _not_yet(self, command: ctl.Command) -> str:
        page = getattr(command, "page", None)
        if page is not None:
            self._require_page(page)
        verb = type(command).__name__.lower()
        needs = "web search" if isinstance(command, ctl.Retrieve) else "the live browser"
        raise _Answer(
            Outcome.FAILED,
            f"{verb} is not available yet: it needs {needs}, which this version does not have. "
            "Stored pages stay readable, and `open <url>` fetches a page.\n",
        )

    async def _open(self, command: ctl.Open) -> str:
        capture = await self.fetcher.fetch(command.url)
        media_type = capture.content_type.split(";", 1)[0].strip().lower()
        if media_type.startswith(NOT_DOCUMENTS):
            raise FetchError(
                f"{capture.url} is {media_type}, not a document to compile "
                "(HTML, XML, PDF, JSON or text)"
            )
        compile_it = functools.partial(
            compile_page, capture.body, capture.url, content_type=capture.content_type
        )
        # Compiling is pure: if the deadline passes, abandon the thread and drop its result.
        page = await trio.to_thread.run_sync(compile_it, abandon_on_cancel=True)
        store_it = functools.partial(
            self.store.add_page,
            lambda page_id: render_page(page, page_id),
            title=clean_field(page.title),
            url=capture.url,
            via="open",
            meta=page_meta(page, capture),
        )
        # Once compiled, the write is short and all-or-nothing: let it finish.
        with trio.CancelScope(shield=True):
            record = await trio.to_thread.run_sync(store_it)
        return _open_summary(record, page, capture)

    async def _lookup(self, command: ctl.Lookup) -> str:
        self._require_page(command.page)
        return await trio.to_thread.run_sync(self._lookup_cells, command)

    def _lookup_cells(self, command: ctl.Lookup) -> str:
        relpath = f"tables/{command.table}.cells"
        data = self.store.read_file(command.page, relpath)
        if data is None:
            raise NotFoundError(f"{command.page} has no table {command.table}; ls {command.page}/tables/")
        lines = data.decode("utf-8", "replace").splitlines()
        cells = [dict(zip(CELL_COLUMNS, line.split("\t"))) for line in lines[1:]]
        matches = [c for c in cells if _cell_matches(c, command.row, command.col)]
        filters = " ".join(
            f'{name}="{value}"' for name, value in (("row", command.row), ("col", command.col)) if value
        )
        where = f"{command.page}/{relpath}"
        head = f"{len(matches)} of {len(cells)} cells match {filters or '(no filter)'} in {where}"
        if not matches:
            return head + "\n" + _labels_hint(cells)
        rows: dict[str, list[dict[str, str]]] = {}
        for cell in cells:
            rows.setdefault(cell.get("row", ""), []).append(cell)
        labels = self._ref_labels(command.page)
        out = [head]
        for cell in matches[:LOOKUP_SHOWN]:
            out.append(
                f"{cell.get('cell', '')}  {cell.get('row_label', '')} × {cell.get('col_label', '')}"
                f" = {cell.get('value', '')}"
            )
            row = rows.get(cell.get("row", ""), [])
            out.append(f"  row {cell.get('row', '')}: " + " | ".join(_cell_pair(c) for c in row))
            refs = sorted({ref for c in row for ref in c.get("refs", "").split()})
            out += [f"  {ref}: {labels.get(ref, '')}".rstrip() for ref in refs]
        if len(matches) > LOOKUP_SHOWN:
            out.append(f"… {len(matches) - LOOKUP_SHOWN} more: grep in {where}")
        return "\n".join(out) + "\n"

    def _ref_labels(self, page: PageId) -> dict[str, str]:
        meta = self.store.page_meta(page)
        labels = {
            ref: f'{a.get("kind", "")} "{a.get("label", "")}"'
            for ref, a in meta.get("actions", {}).items()
        }
        labels.update({ref: url for ref, url in meta.get("links", {}).items()})
        return labels

    async def _resolve(self, command: ctl.Resolve) -> str:
        record = self._require_page(command.page)
        return await trio.to_thread.run_sync(self._resolve_ref, record, command.ref)

    def _resolve_ref(self, record: PageRecord, ref: str) -> str:
        page = record.page_id
        meta = self.store.page_meta(page)
        if ref.startswith("#"):
            return f"{page} {ref} → {self._anchor(page, meta, ref[1:])}\n"
        if is_object_id(ref):
            if ref.startswith("L"):
                url = meta.get("links", {}).get(ref)
                if url is None:
                    raise NotFoundError(f"{page} has no link {ref}; see {page}/links.tsv")
                return f"{page} {ref} → {self._url_target(record, meta, url)}"
            return f"{page} {ref} → {self._object_place(page, ref)}\n"
        return f"{page} {ref} → {self._url_target(record, meta, urljoin(record.url, ref))}"

    @staticmethod
    def _anchor(page: PageId, meta: dict[str, Any], name: str) -> str:
        anchors: dict[str, str] = meta.get("anchors", {})
        path = anchors.get(name) or anchors.get(unquote(name))
        if path is None:
            known = " ".join(f"#{a}" for a in sorted(anchors)[:LABELS_SHOWN]) or "(none)"
            raise NotFoundError(f"{page} has no anchor #{name}; its anchors: {known}")
        return f"{page}/{path}"

    def _url_target(self, record: PageRecord, meta: dict[str, Any], url: str) -> str:
        """An absolute URL → the section it points at on this page, or the stored pages of it."""
        base, fragment = urldefrag(url)
        if fragment and base == urldefrag(record.url)[0]:
            return f"{url}\n= {self._anchor(record.page_id, meta, fragment)}\n"
        stored = self.store.pages_with_url(base) or self.store.pages_with_url(url)
        if not stored:
            return f"{url}\nnot stored yet: open {url}\n"
        return f"{url}\nstored as {' '.join(r.page_id for r in stored)}\n"

    def _object_place(self, page: PageId, object_id: str) -> str:
        """Where an object is described: its own file, or its line in the page's TSV."""
        own_file = {"T": f"tables/{object_id}.cells", "V": f"long-values/{object_id}.txt"}
        listing = {"A": "actions.tsv", "I": "images.tsv", "R": "resources.tsv"}
        prefix = object_id[0]
        if prefix in own_file:
            if self.store.page_file(page, own_file[prefix]) is None:
                raise NotFoundError(f"{page} has no {object_id}")
            return f"{page}/{own_file[prefix]}"
        data = self.store.read_file(page, listing[prefix]) or b""
        for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
            if line.startswith(object_id + "\t"):
                return f"{page}/{listing[prefix]}:{number}"
        raise NotFoundError(f"{page} has no {object_id}; see {page}/{listing[prefix]}")

    async def aclose(self) -> None:
        await self.fetcher.aclose()
        self.store.close()


def _cell_matches(cell: dict[str, str], row: str | None, col: str | None) -> bool:
    """row=/col= match a label (case-insensitive substring) or an exact row/column number."""
    column_number = cell.get("cell", "").partition("c")[2]
    checks = ((row, cell.get("row_label", ""), cell.get("row", "")), (col, cell.get("col_label", ""), column_number))
    return all(
        wanted is None or wanted.casefold() in label.casefold() or wanted == number
        for wanted, label, number in checks
    )


def _cell_pair(cell: dict[str, str]) -> str:
    refs = cell.get("refs", "")
    return f"{cell.get('col_label', '')}={cell.get('value', '')}" + (f" [{refs}]" if refs else "")


def _labels_hint(cells: list[dict[str, str]]) -> str:
    def first_labels(key: str) -> str:
        seen = list(dict.fromkeys(c.get(key, "") for c in cells if c.get(key)))
        return ", ".join(seen[:LABELS_SHOWN]) + (" …" if len(seen) > LABELS_SHOWN else "")

    return f"row labels: {first_labels('row_label')}\ncol labels: {first_labels('col_label')}\n"

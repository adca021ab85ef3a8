"""`lookup` and `resolve`: questions answered from a stored page alone, with no network.

Both read the page's stored files and its meta record (see `page_meta`), and run in a worker
thread because a table file can be large. They raise NotFoundError for an unknown object.
"""

from __future__ import annotations

from typing import Any
from urllib.parse import unquote, urldefrag, urljoin

from webshellfs import ctl
from webshellfs.contract.addresses import PageId, is_object_id
from webshellfs.contract.layout import CELL_COLUMNS, format_field, hidden_links, section_files
from webshellfs.contract.records import CompiledPage, Field
from webshellfs.errors import NotFoundError
from webshellfs.fetch import Capture
from webshellfs.store import PageRecord, Store

__all__ = ["lookup_cells", "page_meta", "resolve_ref"]

LOOKUP_SHOWN = 30
LABELS_SHOWN = 20

# Where an object is described: in a file of its own, or on its line of a page listing.
OWN_FILE = {"T": "tables/{}.cells", "V": "long-values/{}.txt"}
LISTING = {"A": "actions.tsv", "I": "images.tsv", "R": "resources.tsv"}

Cell = dict[str, str]


def page_meta(page: CompiledPage, capture: Capture) -> dict[str, Any]:
    """What later commands need without re-reading the page: anchors for resolve, link URLs,
    and the action locators, kinds and labels that execute checks before it acts."""
    paths = section_files(page)
    return {
        "requested_url": capture.requested_url,
        "content_type": capture.content_type,
        "anchors": {name: paths[i] for name, i in page.anchors if 0 <= i < len(paths)},
        "links": {link.id: link.url for link in page.links},
        "link_locators": {link.id: link.locator for link in page.links if link.locator},
        "link_texts": {link.id: link.text for link in page.links if link.text},
        "closed_links": sorted(hidden_links(page)),  # in a closed menu: not to be clicked
        "focus": page.focus,
        "actions": {
            action.id: {
                "kind": action.kind,
                "control": action.control,
                "label": action.label,
                "locator": action.locator,
                "target": action.target,
                "fields": [_field_meta(f) for f in action.fields],
            }
            for action in page.actions
        },
    }


def _field_meta(field: Field) -> dict[str, Any]:
    """One input of an action as execute checks it: its name, type, whether it must be given,
    its current value, its choices and which are chosen now, and how actions.tsv shows it (for
    the list of valid ones)."""
    return {
        "name": field.name,
        "label": field.label,
        "type": field.type,
        "required": field.required,
        "value": field.value,
        "choices": [[c.value, c.label] for c in field.choices],
        "selected": [c.value for c in field.choices if c.selected],
        "limits": dict(field.limits),
        "shown": format_field(field),
        "locator": field.locator,
    }


# --- lookup ------------------------------------------------------------------------------------


def _cell_matches(cell: Cell, row: str | None, col: str | None) -> bool:
    """row=/col= match a label (case-insensitive substring) or an exact row/column number."""
    column_number = cell.get("cell", "").partition("c")[2]
    checks = (
        (row, cell.get("row_label", ""), cell.get("row", "")),
        (col, cell.get("col_label", ""), column_number),
    )
    return all(
        wanted is None or wanted.casefold() in label.casefold() or wanted == number
        for wanted, label, number in checks
    )


def _cell_pair(cell: Cell) -> str:
    refs = cell.get("refs", "")
    return f"{cell.get('col_label', '')}={cell.get('value', '')}" + (f" [{refs}]" if refs else "")


def _labels_hint(cells: list[Cell]) -> str:
    def first_labels(key: str) -> str:
        seen = list(dict.fromkeys(c.get(key, "") for c in cells if c.get(key)))
        return ", ".join(seen[:LABELS_SHOWN]) + (" …" if len(seen) > LABELS_SHOWN else "")

    return f"row labels: {first_labels('row_label')}\ncol labels: {first_labels('col_label')}\n"


def _ref_labels(meta: dict[str, Any]) -> dict[str, str]:
    labels = {
        ref: f'{action.get("kind", "")} "{action.get("label", "")}"'
        for ref, action in meta.get("actions", {}).items()
    }
    labels.update(meta.get("links", {}))
    return labels


def lookup_cells(store: Store, command: ctl.Lookup) -> str:
    """The matching cells, each with its whole row and what its row's refs are."""
    relpath = f"tables/{command.table}.cells"
    data = store.read_file(command.page, relpath)
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
    rows: dict[str, list[Cell]] = {}
    for cell in cells:
        rows.setdefault(cell.get("row", ""), []).append(cell)
    labels = _ref_labels(store.page_meta(command.page))
    out = [head]
    shown_rows: set[str] = set()
    for cell in matches[:LOOKUP_SHOWN]:
        out.append(
            f"{cell.get('cell', '')}  {cell.get('row_label', '')} × {cell.get('col_label', '')}"
            f" = {cell.get('value', '')}"
        )
        number = cell.get("row", "")
        if number in shown_rows:
            continue  # the row's context was printed under its first matching cell
        shown_rows.add(number)
        row = rows.get(number, [])
        out.append(f"  row {number}: " + " | ".join(_cell_pair(c) for c in row))
        refs = sorted({ref for c in row for ref in c.get("refs", "").split()})
        out += [f"  {ref}: {labels.get(ref, '')}".rstrip() for ref in refs]
    if len(matches) > LOOKUP_SHOWN:
        out.append(f"… {len(matches) - LOOKUP_SHOWN} more: grep in {where}")
    return "\n".join(out) + "\n"


# --- resolve -----------------------------------------------------------------------------------


def resolve_ref(store: Store, record: PageRecord, ref: str) -> str:
    """`#anchor` → its section file; `L…` or a (relative) URL → the absolute URL and the pages
    that store it, or the section it points at on this page; another object → where it is."""
    page = record.page_id
    meta = store.page_meta(page)
    if ref.startswith("#"):
        return f"{page} {ref} → {_anchor(page, meta, ref[1:])}\n"
    if is_object_id(ref):
        if ref.startswith("L"):
            url = meta.get("links", {}).get(ref)
            if url is None:
                raise NotFoundError(f"{page} has no link {ref}; see {page}/links.tsv")
            return f"{page} {ref} → {_url_target(store, record, meta, url)}"
        return f"{page} {ref} → {_object_place(store, page, ref)}\n"
    return f"{page} {ref} → {_url_target(store, record, meta, urljoin(record.url, ref))}"


def _anchor(page: PageId, meta: dict[str, Any], name: str) -> str:
    anchors: dict[str, str] = meta.get("anchors", {})
    path = anchors.get(name) or anchors.get(unquote(name))
    if path is None:
        known = " ".join(f"#{a}" for a in sorted(anchors)[:LABELS_SHOWN]) or "(none)"
        raise NotFoundError(f"{page} has no anchor #{name}; its anchors: {known}")
    return f"{page}/{path}"


def _url_target(store: Store, record: PageRecord, meta: dict[str, Any], url: str) -> str:
    base, fragment = urldefrag(url)
    if fragment and base == urldefrag(record.url)[0]:
        return f"{url}\n= {_anchor(record.page_id, meta, fragment)}\n"
    stored = store.pages_with_url(base) or store.pages_with_url(url)
    if not stored:
        return f"{url}\nnot stored yet: open {url}\n"
    return f"{url}\nstored as {' '.join(r.page_id for r in stored)}\n"


def _object_place(store: Store, page: PageId, object_id: str) -> str:
    prefix = object_id[0]
    if prefix in OWN_FILE:
        relpath = OWN_FILE[prefix].format(object_id)
        if store.page_file(page, relpath) is None:
            raise NotFoundError(f"{page} has no {object_id}")
        return f"{page}/{relpath}"
    listing = LISTING[prefix]
    data = store.read_file(page, listing) or b""
    for number, line in enumerate(data.decode("utf-8", "replace").splitlines(), 1):
        if line.startswith(object_id + "\t"):
            return f"{page}/{listing}:{number}"
    raise NotFoundError(f"{page} has no {object_id}; see {page}/{listing}")

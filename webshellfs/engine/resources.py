"""What a live page received besides its document, as its R… resources: same-origin JSON/text
responses seen while it loaded and downloads it started. Each is stored as
`resources/R0001.<ext>` with its row in resources.tsv. The lists of records in a JSON resource,
and a CSV resource's rows, also become tables (`tables/T03.cells` …, numbered after the
document's own), made by the same compiler that makes a JSON or CSV document's tables, and
listed in `_map.md` as `from resources/R0001.json`.
"""

from __future__ import annotations

import dataclasses
import re
from collections.abc import Sequence

from webshellfs.browser import CapturedResponse
from webshellfs.compiler import compile_page
from webshellfs.compiler.nonhtml import media_type
from webshellfs.contract.addresses import format_object_id
from webshellfs.contract.records import CompiledPage, Resource, Table

__all__ = ["with_responses"]

# A resource's file extension by its media type; otherwise the extension of its file name.
EXTENSIONS = {
    "application/json": "json",
    "text/json": "json",
    "text/plain": "txt",
    "text/csv": "csv",
    "application/xml": "xml",
    "text/xml": "xml",
    "application/pdf": "pdf",
}
_SAFE_EXTENSION = re.compile(r"[a-z0-9]{1,8}")
# Resources whose records become tables, by extension, and the type they are compiled as.
TABULATED = {"json": "application/json", "csv": "text/csv"}
# Past this a resource is stored but not tabulated: compiling it would cost more than the
# capture it came with.
MAX_TABULATED_BYTES = 5 * 1024 * 1024


def extension_for(response: CapturedResponse) -> str:
    media = media_type(response.content_type)
    if media in EXTENSIONS:
        return EXTENSIONS[media]
    if media.endswith("+json"):
        return "json"
    suffix = response.filename.rpartition(".")[2].lower() if "." in response.filename else ""
    return suffix if _SAFE_EXTENSION.fullmatch(suffix) else "bin"


def _record_tables(resource: Resource, first_number: int) -> tuple[Table, ...]:
    """The tables a resource's records make, numbered from first_number."""
    compiled = compile_page(resource.data, resource.url,
                            content_type=TABULATED[resource.extension])
    path = f"resources/{resource.id}.{resource.extension}"
    return tuple(
        dataclasses.replace(table, id=format_object_id("T", number), resource=path, section=0)
        for number, table in enumerate(compiled.tables, first_number)
    )


def with_responses(page: CompiledPage, responses: Sequence[CapturedResponse]) -> CompiledPage:
    """page with the responses as resources after its own, and their record tables after its
    own tables."""
    if not responses:
        return page
    resources = list(page.resources)
    tables = list(page.tables)
    notes = list(page.notes)
    for response in responses:
        resource = Resource(format_object_id("R", len(resources) + 1), response.url,
                            response.content_type, response.body, extension_for(response))
        resources.append(resource)
        if resource.extension not in TABULATED:
            continue
        if len(resource.data) > MAX_TABULATED_BYTES:
            notes.append(f"{resource.id} is over {MAX_TABULATED_BYTES} bytes: stored, but its "
                         "records are not made into tables")
            continue
        tables += _record_tables(resource, len(tables) + 1)
    return dataclasses.replace(page, resources=tuple(resources), tables=tuple(tables),
                               notes=tuple(notes))

"""Documents that are not HTML, compiled into the same page records as HTML ones.

    PDF       → sections by outline or headings, links, tables and metadata (compiler/pdf.py)
    JSON      → facts (flattened `key.sub[0] = value` lines) and a table for each list of records
    CSV       → one table
    markdown  → content sections by heading, inline links and images as objects
    plain text→ content
    image     → one image record in images.tsv

The kind comes from the Content-Type, else from the first bytes, else from the URL's file
extension. `compile_nonhtml` returns None for HTML (and XML), which the DOM walker compiles.
Like the walker it never raises: a document it cannot read becomes a page whose `_map.md`
notes say why.
"""

from __future__ import annotations

import csv
import io
import json
import re
import struct
from collections.abc import Callable, Iterator
from posixpath import basename
from typing import Any
from urllib.parse import unquote, urlsplit

from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.parse import decode
from webshellfs.compiler.plaintables import add_header_table
from webshellfs.contract.records import CompiledPage

MAX_FACTS = 5000
MAX_TABLE_ROWS = 5000
MAX_JSON_DEPTH = 64

# Media type → kind. "html" means: not ours, the walker compiles it.
MEDIA_KINDS = {
    "text/html": "html",
    "application/xhtml+xml": "html",
    "application/xml": "html",
    "text/xml": "html",
    "image/svg+xml": "image",
    "application/pdf": "pdf",
    "application/x-pdf": "pdf",
    "application/json": "json",
    "text/json": "json",
    "text/csv": "csv",
    "text/plain": "text",
    "text/markdown": "markdown",
    "text/x-markdown": "markdown",
}
# Content types that say nothing about the document: the bytes and the URL decide.
UNDECLARED = {"", "application/octet-stream", "binary/octet-stream", "application/unknown"}
MAGIC_KINDS = (
    (b"%PDF-", "pdf"),
    (b"\x89PNG\r\n\x1a\n", "image"),
    (b"\xff\xd8\xff", "image"),
    (b"GIF87a", "image"),
    (b"GIF89a", "image"),
)
EXTENSION_KINDS = {
    ".pdf": "pdf",
    ".json": "json",
    ".csv": "csv",
    ".txt": "text",
    ".md": "markdown",
    ".markdown": "markdown",
    ".png": "image",
    ".jpg": "image",
    ".jpeg": "image",
    ".gif": "image",
    ".webp": "image",
    ".svg": "image",
}


def media_type(content_type: str) -> str:
    return content_type.split(";", 1)[0].strip().lower()


def declared_kind(content_type: str) -> str | None:
    """The kind a Content-Type names, or None when it names none we know."""
    media = media_type(content_type)
    if media in MEDIA_KINDS:
        return MEDIA_KINDS[media]
    if media.endswith("+json"):
        return "json"
    if media.endswith("+xml"):
        return "html"
    if media.startswith("image/"):
        return "image"
    return None


def supported_type(content_type: str) -> bool:
    """Whether a response of this Content-Type can become a page (HTML or one of ours)."""
    return media_type(content_type) in UNDECLARED or declared_kind(content_type) is not None


def document_kind(data: bytes, url: str, content_type: str) -> str:
    """html | pdf | json | csv | markdown | text | image."""
    if media_type(content_type) not in UNDECLARED:
        return declared_kind(content_type) or "html"
    for magic, kind in MAGIC_KINDS:
        if data.startswith(magic):
            return kind
    name = file_name(url).lower()
    for extension, kind in EXTENSION_KINDS.items():
        if name.endswith(extension):
            return kind
    return "html"


def file_name(url: str) -> str:
    try:
        return unquote(basename(urlsplit(url).path))
    except ValueError:
        return ""


def compile_nonhtml(data: bytes, url: str, content_type: str) -> CompiledPage | None:
    """The page for a non-HTML document, or None when the document is HTML."""
    kind = document_kind(data, url, content_type)
    if kind == "html":
        return None
    builder = PageBuilder(url)
    builder.title = file_name(url)
    COMPILERS[kind](data, content_type, builder)
    return builder.build()


# --- PDF (compiler/pdf.py) ---------------------------------------------------------------------


def _pdf(data: bytes, content_type: str, builder: PageBuilder) -> None:
    # Imported here: pypdf and pdfminer take about a second to import, which every compile
    # worker would pay at its start for pages that are almost never PDFs.
    from webshellfs.compiler.pdf import compile_pdf

    compile_pdf(data, builder)


def text_lines(text: str) -> list[str]:
    """Lines without trailing space, runs of blank lines kept as one, no blank ends."""
    lines: list[str] = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.rstrip()
        if line or (lines and lines[-1]):
            lines.append(line)
    while lines and not lines[-1]:
        lines.pop()
    return lines


# --- JSON and CSV ------------------------------------------------------------------------------


def _json(data: bytes, content_type: str, builder: PageBuilder) -> None:
    try:
        document = json.loads(data)
    except (ValueError, RecursionError) as error:
        builder.note(f"not valid JSON ({type(error).__name__}: {error}); kept as text")
        _text(data, content_type, builder)
        return
    builder.add_line(f"JSON document: {_shape(document)}")
    count = 0
    for key, value in _flatten(document, builder):
        if count == MAX_FACTS:
            builder.note(f"kept the first {MAX_FACTS} JSON values as facts")
            break
        builder.add_fact(key, value)
        count += 1


def _shape(value: Any) -> str:
    if isinstance(value, dict):
        return f"an object with {len(value)} keys"
    if isinstance(value, list):
        return f"a list of {len(value)} items"
    return f"a single {type(value).__name__} value"


def _scalar(value: Any) -> str:
    return value if isinstance(value, str) else json.dumps(value, ensure_ascii=False)


def _compact(value: Any) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    except (RecursionError, ValueError):
        return "(nested too deeply to show)"


def _is_records(value: Any) -> bool:
    return isinstance(value, list) and bool(value) and all(isinstance(v, dict) for v in value)


def _flatten(document: Any, builder: PageBuilder) -> Iterator[tuple[str, str]]:
    """(key, value) facts in document order; lists of records become tables instead.
    Iterative, so a deeply nested document cannot exhaust the stack."""
    stack: list[tuple[str, Any, int]] = [("$", document, 0)]
    while stack:
        key, value, depth = stack.pop()
        if _is_records(value):
            yield key, _records_table(value, key, builder)
        elif isinstance(value, (dict, list)) and value and depth >= MAX_JSON_DEPTH:
            builder.note(f"JSON nested deeper than {MAX_JSON_DEPTH} levels is shown as text")
            yield key, _compact(value)
        elif isinstance(value, dict) and value:
            prefix = "" if key == "$" else f"{key}."
            stack.extend((f"{prefix}{k}", v, depth + 1) for k, v in reversed(value.items()))
        elif isinstance(value, list) and value:
            stack.extend((f"{key}[{i}]", v, depth + 1) for i, v in reversed(list(enumerate(value))))
        elif isinstance(value, (dict, list)):
            yield key, _compact(value)
        else:
            yield key, _scalar(value)


def _records_table(records: list[dict[str, Any]], key: str, builder: PageBuilder) -> str:
    """A table of one row per record, one column per key (first seen first); the reference
    that stands in for it, `[T01 4×3 → tables/T01.cells]`, also goes into the content."""
    if len(records) > MAX_TABLE_ROWS:
        builder.note(f"{key}: kept the first {MAX_TABLE_ROWS} of {len(records)} records")
        records = records[:MAX_TABLE_ROWS]
    columns = list(dict.fromkeys(k for record in records for k in record))
    rows = [[_cell_text(record, column) for column in columns] for record in records]
    caption = key if key != "$" else ""
    reference = add_header_table(builder, caption, [str(c) for c in columns], rows)
    builder.add_line(f"{key}: {reference}")
    return reference


def _cell_text(record: dict[str, Any], column: str) -> str:
    if column not in record:
        return ""
    value = record[column]
    return _compact(value) if isinstance(value, (dict, list)) else _scalar(value)


def _csv(data: bytes, content_type: str, builder: PageBuilder) -> None:
    text, _, notes = decode(data, content_type)
    for note in notes:
        builder.note(note)
    try:
        rows = list(csv.reader(io.StringIO(text)))
    except csv.Error as error:
        builder.note(f"not valid CSV ({error}); kept as text")
        _text(data, content_type, builder)
        return
    rows = [row for row in rows if any(cell.strip() for cell in row)]
    if not rows:
        return
    if len(rows) - 1 > MAX_TABLE_ROWS:
        builder.note(f"kept the first {MAX_TABLE_ROWS} of {len(rows) - 1} CSV rows")
        rows = rows[: MAX_TABLE_ROWS + 1]
    width = max(len(row) for row in rows)
    padded = rows[0] + [""] * (width - len(rows[0]))
    header = [h.strip() or f"column {i + 1}" for i, h in enumerate(padded)]
    body = [[cell.strip() for cell in row] + [""] * (width - len(row)) for row in rows[1:]]
    builder.add_line(add_header_table(builder, "", header, body))


# --- text and markdown -------------------------------------------------------------------------


def _text(data: bytes, content_type: str, builder: PageBuilder) -> None:
    text, _, notes = decode(data, content_type)
    for note in notes:
        builder.note(note)
    for line in text_lines(text):
        builder.add_line(line)


# Patterns are written so that no input makes them backtrack more than linearly: page text
# is untrusted, and one long line must not stall a compile.
_ATX_HEADING = re.compile(r"^ {0,3}(#{1,6})(?:[ \t](.*))?$")
_SETEXT_UNDERLINE = re.compile(r"^ {0,3}(=+|-+)\s*$")
_FENCE = re.compile(r"^ {0,3}(```|~~~)")
# Lines that cannot be the text of a setext heading: list items, quotes, fences.
_NOT_SETEXT_TEXT = ("- ", "* ", "+ ", ">", "```", "~~~")
_INLINE_OBJECT = re.compile(
    r"(!?)\[([^\[\]\n]{0,500})\]"  # [text] or ![alt]
    r"\([ \t]{0,20}<?([^()\[\]\s<>]{1,2048})>?"  # (url or (<url>
    r"(?:[ \t]{1,20}\"[^\"\n]{0,500}\")?[ \t]{0,20}\)"  # optional "title", then )
)


def _markdown(data: bytes, content_type: str, builder: PageBuilder) -> None:
    text, _, notes = decode(data, content_type)
    for note in notes:
        builder.note(note)
    lines = text_lines(text)
    path: list[tuple[int, str]] = []
    titled = False
    fenced = False
    underline_next = False
    # Blank lines are kept between a section's lines, never at its start or end.
    section_started = False
    blank_pending = False
    for index, line in enumerate(lines):
        if underline_next:  # the ==== or ---- under a setext heading
            underline_next = False
            continue
        if _FENCE.match(line):
            fenced = not fenced
        following = lines[index + 1] if index + 1 < len(lines) else ""
        heading = None if fenced else _heading(line, following)
        if heading is None:
            if not line:
                blank_pending = section_started
                continue
            if blank_pending:
                builder.add_line("")
            builder.add_line(line if fenced else _inline_objects(line, builder))
            section_started, blank_pending = True, False
            continue
        level, title, underline_next = heading
        if level == 1 and not titled:
            builder.title, titled = title, True
        path = [(lvl, name) for lvl, name in path if lvl < level] + [(level, title)]
        builder.start_section(tuple(name for _, name in path), title)
        section_started = blank_pending = False


def _heading(line: str, following: str) -> tuple[int, str, bool] | None:
    """(level, text, whether the next line is its setext underline) for a heading line."""
    atx = _ATX_HEADING.match(line)
    if atx:
        return len(atx.group(1)), _without_closing_hashes(atx.group(2) or ""), False
    underline = _SETEXT_UNDERLINE.match(following)
    if underline and line.strip() and not line.lstrip().startswith(_NOT_SETEXT_TEXT):
        return (1 if underline.group(1).startswith("=") else 2), line.strip(), True
    return None


def _without_closing_hashes(text: str) -> str:
    """`Water ##` → `Water` (an ATX heading's optional closing sequence)."""
    text = text.strip()
    bare = text.rstrip("#")
    if bare != text and (not bare or bare[-1] in " \t"):
        return bare.strip()
    return text


def _inline_objects(line: str, builder: PageBuilder) -> str:
    """`[text](url)` → `text [L0001]`; `![alt](src)` → `[I0001 alt]`."""

    def replace(match: re.Match[str]) -> str:
        url = builder.resolve_url(match.group(3))
        if url is None:
            return match.group(0)
        text = match.group(2).strip()
        if match.group(1):
            image_id = builder.add_image(url, text)
            return f"[{image_id} {text}]" if text else f"[{image_id}]"
        return f"{text} [{builder.add_link(url, text)}]"

    return _INLINE_OBJECT.sub(replace, line)


# --- images ------------------------------------------------------------------------------------


def _image(data: bytes, content_type: str, builder: PageBuilder) -> None:
    media = media_type(content_type)
    if media in UNDECLARED:
        media = "image"
    size = image_size(data)
    description = f"{media}, {size[0]}×{size[1]}" if size else media
    image_id = builder.add_image(builder.url, description)
    builder.add_line(f"[{image_id} {description}, {len(data)} bytes]")


def image_size(data: bytes) -> tuple[int, int] | None:
    """Width and height from a PNG, GIF or JPEG header; None for anything else."""
    if data.startswith(b"\x89PNG\r\n\x1a\n") and len(data) >= 24:
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if data[:6] in (b"GIF87a", b"GIF89a") and len(data) >= 10:
        width, height = struct.unpack("<HH", data[6:10])
        return width, height
    if data.startswith(b"\xff\xd8"):
        return _jpeg_size(data)
    return None


# JPEG start-of-frame markers (they carry the size); C4, C8 and CC are other segments.
_JPEG_FRAMES = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def _jpeg_size(data: bytes) -> tuple[int, int] | None:
    offset = 2
    while offset + 9 <= len(data):
        if data[offset] != 0xFF:
            return None
        marker = data[offset + 1]
        length = struct.unpack(">H", data[offset + 2:offset + 4])[0]
        if marker in _JPEG_FRAMES:
            height, width = struct.unpack(">HH", data[offset + 5:offset + 9])
            return width, height
        offset += 2 + length
    return None


COMPILERS: dict[str, Callable[[bytes, str, PageBuilder], None]] = {
    "pdf": _pdf,
    "json": _json,
    "csv": _csv,
    "text": _text,
    "markdown": _markdown,
    "image": _image,
}

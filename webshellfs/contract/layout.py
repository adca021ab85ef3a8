"""How a `CompiledPage` becomes the files of a page directory.

This is the only place that decides file names, column orders and the text of `_map.md`;
the mount and `webshellfs compile` both write exactly what `render_page` returns.
"""

from __future__ import annotations

import hashlib
import re
import sys
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass

from webshellfs.contract.names import slugify
from webshellfs.contract.records import Action, Choice, CompiledPage, Field, Section, Table

LONG_VALUE_CHARS = 2000
MAP_TABLES_LISTED = 20

MAP_FILE = "_map.md"
# Present in every page directory, even when empty, so scripts never need `test -e`.
PAGE_FILES = (MAP_FILE, "links.tsv", "images.tsv", "actions.tsv", "facts.kv", "resources.tsv")
PAGE_DIRS = ("content", "boilerplate", "tables", "resources", "long-values")
# The hidden region is written even when nothing is hidden: an agent told to check it finds it.
HIDDEN_FILE = "boilerplate/hidden.md"
# The viewport when a live tab was captured; only a page captured in a browser tab has one.
SCREENSHOT_FILE = "screenshot.png"

LINK_COLUMNS = ("id", "url", "text", "section")
IMAGE_COLUMNS = ("id", "src", "description", "section")
ACTION_COLUMNS = ("id", "kind", "label", "context", "inputs", "section")
CELL_COLUMNS = ("cell", "row", "row_label", "col_label", "value", "refs")
RESOURCE_COLUMNS = ("id", "url", "content-type", "bytes", "file")

_FIELD_BREAKS = re.compile(r"[\x00-\x1f\x7f-\x9f\u2028\u2029]+")  # all that splitlines() breaks on


# A field's value is written as it is when it is one plain word; else in double quotes with
# these escapes, so a parser gets back spaces, tabs, newlines, commas and quotes exactly.
_VALUE_ESCAPES = {"\\": "\\\\", '"': '\\"', "\t": "\\t", "\n": "\\n", "\r": "\\r"}
_PLAIN_VALUE = re.compile(r'[^\s,()"\\|;=]+')


# A line the compiler marked as shown by a control (compiler/reveal.py):
# `[hidden until A0004 button "Brands"] - Ridge [L0004]`.
_HIDDEN_LINE = re.compile(r"^\s*\[hidden until (A\d{4}) ([^\]]*)\]")
_LINK_ID = re.compile(r"\[(L\d{4})\]")
HOVER_CONTROL = "hover target"


def hidden_links(page: CompiledPage) -> dict[str, str]:
    """For each link in a closed menu or panel, the gesture that opens it: `hover A0003
    "Company"`, `click A0004 button "Brands"`."""
    opened_by: dict[str, str] = {}
    for section in page.sections:
        for line in section.lines:
            mark = _HIDDEN_LINE.match(line)
            if mark is None:
                continue
            control = mark.group(2)
            if control.startswith(HOVER_CONTROL):
                gesture = f"hover {mark.group(1)} {control[len(HOVER_CONTROL):].strip()}"
            else:
                gesture = f"click {mark.group(1)} {control}"
            for link_id in _LINK_ID.findall(line, mark.end()):
                opened_by.setdefault(link_id, gesture)
    return opened_by


def quoted(value: str) -> str:
    """`"line one\\n\\tindented, too"`: a value in double quotes, escaped to stay on one line."""
    escaped = "".join(_VALUE_ESCAPES.get(c, c) for c in value)
    return '"' + _FIELD_BREAKS.sub(lambda m: " " * len(m.group()), escaped) + '"'


def shown_value(value: str) -> str:
    """A field's value in actions.tsv: `a@b.c` as it is, `"  two words  "` quoted."""
    return value if _PLAIN_VALUE.fullmatch(value) else quoted(value)


def clean_field(value: str) -> str:
    """One TSV/kv field: tabs, newlines and other control characters become single spaces."""
    if value.isprintable():  # the common case, and far cheaper than the substitution
        return value.strip()
    return _FIELD_BREAKS.sub(" ", value).strip()


def section_files(page: CompiledPage) -> list[str]:
    """The file path of each section, by index: `content/01-specs.md`, `boilerplate/nav.md`."""
    content_count = sum(1 for s in page.sections if s.kind == "content")
    width = max(2, len(str(content_count)))
    paths: list[str] = []
    next_number = 1  # 00 is kept for the text before the first heading
    for section in page.sections:
        if section.kind == "boilerplate":
            paths.append(f"boilerplate/{slugify(section.name, fallback='region')}.md")
        elif not section.path:
            paths.append(f"content/{0:0{width}d}-intro.md")
        else:
            paths.append(f"content/{next_number:0{width}d}-{slugify(section.name)}.md")
            next_number += 1
    return paths


def section_heading(section: Section) -> str:
    if section.kind == "boilerplate":
        return f"# ({section.name})"
    return "# " + (" > ".join(section.path) if section.path else "(before the first heading)")


class LongValues:
    """Moves values over LONG_VALUE_CHARS into long-values/, numbering them V0001… in render order."""

    def __init__(self) -> None:
        self.files: dict[str, bytes] = {}

    def keep(self, value: str) -> str:
        if len(value) <= LONG_VALUE_CHARS:
            return value
        return f"→ {self.add(value)} ({len(value)} chars)"

    def add(self, text: str) -> str:
        """Store text as the next long value; returns its path."""
        path = f"long-values/V{len(self.files) + 1:04d}.txt"
        self.files[path] = (text + "\n").encode("utf-8", "surrogatepass")
        return path


def _tsv(
    columns: Sequence[str], rows: Iterable[Sequence[str]], long_values: LongValues,
    kept_whole: frozenset[int] = frozenset(),
) -> bytes:
    """A TSV file; a cell over LONG_VALUE_CHARS moves to long-values/, except in the columns
    kept_whole (an action's inputs, which move their long option lists themselves)."""
    lines = ["\t".join(columns)]
    for row in rows:
        lines.append("\t".join(
            clean_field(v) if i in kept_whole else long_values.keep(clean_field(v))
            for i, v in enumerate(row)))
    return ("\n".join(lines) + "\n").encode("utf-8", "surrogatepass")


# A choice whose value is empty ("All departments") shows it, so `=All` does not read as a typo.
EMPTY_VALUE = '""'
# The values that tick and untick a checkbox (`agree=on`, `agree=off`), the same everywhere; for
# boxes sharing a name, `ids=a|b` ticks those and unticks the rest, `ids=off` unticks them all.
# The other words a person may write for "no" untick too.
TICK = "on"
UNTICK = "off"
UNTICK_WORDS = frozenset({UNTICK, "", "0", "false", "no", "unchecked"})


def unticks(value: str, box_values: Iterable[str]) -> bool:
    """Whether a checkbox input unticks: one of UNTICK_WORDS that is no box's own value (a
    row's box may well be `value=0`)."""
    return value.lower() in UNTICK_WORDS and value not in box_values


def _field_label(field: Field) -> str:
    """` "Search terms"` after the type, unless the label only repeats the name."""
    label = clean_field(field.label).replace('"', "'")
    if not label or label.casefold() == field.name.casefold():
        return ""
    return f' "{label}"'


def format_choice(choice: Choice) -> str:
    """`s=Small`, `""=Any year`, or the value alone when the label only repeats it."""
    if choice.label and choice.label != choice.value:
        return f"{choice.value or EMPTY_VALUE}={choice.label}"
    return choice.value


def format_field(field: Field, options_in: str = "") -> str:
    """`q(text,required)`, `size(select: s=Small|m=Medium; current=m)`,
    `qty(number,min=1,max=10,current=1)`; a label that says more than the name follows the
    type: `q(text "Search terms",required)`. options_in: where the field's choices were moved
    (`→ long-values/V0002.txt (250 choices)`), shown in their place."""
    kind = field.type + _field_label(field)
    if field.choices:
        options = options_in or "|".join(format_choice(c) for c in field.choices)
        current = [c.value for c in field.choices if c.selected]
        tail = f"; current={'|'.join(current)}" if current else ""
        required = ",required" if field.required else ""
        return f"{field.name}({kind}{required}: {options}{tail})"
    flags = [kind] + (["required"] if field.required else [])
    flags += [f"{name}={value}" for name, value in field.limits]
    if field.value:
        flags.append(f"current={shown_value(field.value)}")
    return f"{field.name}({','.join(flags)})"


def format_inputs(action: Action, long_values: LongValues | None = None) -> str:
    """An action's inputs, every field of it. Given long_values, when they would pass
    LONG_VALUE_CHARS the longest option lists move there (one choice a line, as actions.tsv
    writes it), longest first, until the rest fits: a form with a country list keeps every
    field in its row."""
    shown = [format_field(f) for f in action.fields]
    if long_values is None:
        return " ".join(shown)
    total = len(" ".join(shown))
    moving = set()
    for index in sorted((i for i, f in enumerate(action.fields) if f.choices),
                        key=lambda i: -len(shown[i])):
        if total <= LONG_VALUE_CHARS:
            break
        moving.add(index)
        total -= len(shown[index])
    for index in sorted(moving):  # numbered in the order of the fields
        field = action.fields[index]
        path = long_values.add("\n".join(clean_field(format_choice(c)) for c in field.choices))
        shown[index] = format_field(field, f"→ {path} ({len(field.choices)} choices)")
    return " ".join(shown)


def _table_files(table: Table, long_values: LongValues) -> dict[str, bytes]:
    cells = _tsv(
        CELL_COLUMNS,
        (
            (c.extent or f"r{c.row}c{c.col}", str(c.row), c.row_label, c.col_label, c.value,
             " ".join(c.refs))
            for c in table.cells
        ),
        long_values,
    )
    grid = "".join(
        "\t".join(long_values.keep(clean_field(v)) for v in row) + "\n" for row in table.grid
    )
    return {
        f"tables/{table.id}.cells": cells,
        f"tables/{table.id}.tsv": grid.encode("utf-8", "surrogatepass"),
    }


def _id_span(ids: Sequence[str]) -> str:
    """`L0003-L0024 (22)` when the ids run without gaps, `L0529…L0745 (9)` when they do not."""
    if len(ids) == 1:
        return ids[0]
    first, last = int(ids[0][1:]), int(ids[-1][1:])
    joiner = "-" if last - first + 1 == len(ids) else "…"
    return f"{ids[0]}{joiner}{ids[-1]} ({len(ids)})"


def _section_summary(page: CompiledPage) -> dict[int, str]:
    """Per section, the objects it holds: `T01 · A0002 · L0003-L0024 (22) · I0001`."""
    held: dict[int, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for group, records in (
        ("tables", [t for t in page.tables if not t.resource]),  # a resource's is in none
        ("actions", page.actions),
        ("links", page.links),
        ("images", page.images),
    ):
        for record in records:
            held[record.section][group].append(record.id)
    summary: dict[int, str] = {}
    for index, groups in held.items():
        parts = []
        for group in ("tables", "actions", "links", "images"):
            ids = groups.get(group)
            if not ids:
                continue
            parts.append(" ".join(ids) if group == "tables" and len(ids) <= 3 else _id_span(ids))
        summary[index] = " · ".join(parts)
    return summary


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"


def _render_map(
    page: CompiledPage,
    paths: list[str],
    files: dict[str, bytes],
    page_id: str,
    lineage: str,
) -> bytes:
    out = [f"# {clean_field(page.title) or '(untitled)'}", f"url: {clean_field(page.url)}"]
    if page_id:
        out.append(f"page: {page_id}" + (f" ({lineage})" if lineage else ""))
    if page.lang:
        out.append(f"lang: {clean_field(page.lang)}")
    if page.focus:
        # Here and not at the control: _map.md is left out of a state's identity, and focus
        # moves with every click and key, so a click that did nothing else stays "unchanged".
        out.append(f"focus: {clean_field(page.focus)}")
    summary = _section_summary(page)
    content = [i for i, s in enumerate(page.sections) if s.kind == "content"]
    out += ["", f"## content/ ({len(content)} sections)"]
    for index in content:
        section = page.sections[index]
        line_count = files[paths[index]].count(b"\n")
        # Indented by heading depth, so the list reads as a table of contents.
        indent = "  " * max(0, len(section.path) - 1)
        entry = f"{indent}{paths[index].removeprefix('content/')}  {_lines(line_count)}"
        name = clean_field(section.name)
        # The heading is shown only when the file name does not already spell it.
        if section.path and "-".join(name.lower().split()) not in paths[index]:
            entry += f"  {name[:60]}"
        if summary.get(index):
            entry += f"  [{summary[index]}]"
        out.append(entry)
    regions = [i for i, s in enumerate(page.sections) if s.kind == "boilerplate"]
    if regions:
        out += ["", "## boilerplate/ (page chrome and hidden text, kept out of content/)"]
        for index in regions:
            line_count = files[paths[index]].count(b"\n")
            entry = f"{paths[index].removeprefix('boilerplate/')}  {_lines(line_count)}"
            if summary.get(index):
                entry += f"  [{summary[index]}]"
            out.append(entry)
    if page.tables:
        out += ["", f"## tables/ ({len(page.tables)})"]
        for table in page.tables[:MAP_TABLES_LISTED]:
            caption = f' "{clean_field(table.caption)[:60]}"' if table.caption else ""
            where = f"from {table.resource}" if table.resource else f"in {paths[table.section]}"
            out.append(f"{table.id}  {table.n_rows}×{table.n_cols}{caption}  {where}")
        if len(page.tables) > MAP_TABLES_LISTED:
            out.append(f"… {len(page.tables) - MAP_TABLES_LISTED} more: ls tables/")
    forms = sum(1 for a in page.actions if a.kind == "submit")
    long_count = sum(1 for p in files if p.startswith("long-values/"))
    out += [
        "",
        "## records",
        f"links.tsv {len(page.links)} · images.tsv {len(page.images)} · "
        f"actions.tsv {len(page.actions)} ({forms} forms) · "
        f"facts.kv {len(page.facts)} · resources.tsv {len(page.resources)} · "
        f"long-values/ {long_count}",
    ]
    if SCREENSHOT_FILE in files:
        out.append(_screenshot_line(files[SCREENSHOT_FILE]))
    if page.notes:
        out += ["", "## notes"] + [f"- {clean_field(n)}" for n in page.notes]
    return ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")


OUTLINE_LINES = 12
_OUTLINED = ("## content/", "## tables/")


def map_outline(
    map_md: bytes, limit: int = OUTLINE_LINES, parts: tuple[str, ...] = _OUTLINED
) -> list[str]:
    """What an answer shows of a new page: the content/ and tables/ parts of its _map.md (a
    line per section, then per table), at most limit lines. When they do not all fit, each
    part keeps an even share (a part needing less leaves the rest to the other), cut with how
    many more lines it has: a long article's sections leave room to name its tables."""
    blocks: list[list[str]] = []
    keep = False
    for line in map_md.decode("utf-8", "replace").splitlines():
        if line.startswith("## "):
            keep = line.startswith(parts)
            if keep:
                blocks.append([line.removeprefix("## ")])
            continue
        if keep and line:
            blocks[-1].append("  " + line)
    if sum(len(block) for block in blocks) <= limit:
        return [line for block in blocks for line in block]
    shares = _shares([len(block) for block in blocks], limit)
    out: list[str] = []
    for block, share in zip(blocks, shares):
        if len(block) <= share:
            out += block
        else:
            out += block[: share - 1] + [f"  … {len(block) - share + 1} more lines in _map.md"]
    return out


def _shares(sizes: list[int], limit: int) -> list[int]:
    """Lines for each part, limit in all, dealt a line at a time in turn to the parts that
    want more: even shares, and what a small part leaves over goes to the others."""
    shares = [0] * len(sizes)
    left = limit
    while left > 0 and any(share < size for share, size in zip(shares, sizes)):
        for index, size in enumerate(sizes):
            if left > 0 and shares[index] < size:
                shares[index] += 1
                left -= 1
    return shares


SUMMARY_CHARS = 160
_TABLE_REF = re.compile(r"\bT\d{2,}\b")


def map_summary(map_md: bytes, width: int = SUMMARY_CHARS) -> str:
    """A page's sections on one line, for a list of pages (a retrieve's results): each file's
    name and the tables in it, `01-intro · 02-specs [T01] · … 9 more`, at most width chars."""
    sections = []
    for line in map_outline(map_md, limit=sys.maxsize):
        name = line.split()[0]
        if line.startswith("  ") and name.endswith(".md"):
            tables = _TABLE_REF.findall(line.partition("[")[2])
            sections.append(name.removesuffix(".md") + (f" [{' '.join(tables)}]" if tables else ""))
    shown: list[str] = []
    for section in sections:
        after = len(sections) - len(shown) - 1
        tail = f" · … {after} more" if after else ""
        if shown and len(" · ".join([*shown, section]) + tail) > width:
            break
        shown.append(section)
    left = len(sections) - len(shown)
    return "content/: " + (" · ".join(shown) or "(empty)") + (f" · … {left} more" if left else "")


def _screenshot_line(png: bytes) -> str:
    """`screenshot.png 1280×720 PNG, 84 KB: the viewport when captured` (its size from the
    PNG header)."""
    width, height = int.from_bytes(png[16:20], "big"), int.from_bytes(png[20:24], "big")
    return (f"{SCREENSHOT_FILE} {width}×{height} PNG, {max(1, round(len(png) / 1024))} KB: "
            "the viewport when captured")


def render_page(
    page: CompiledPage, page_id: str = "", lineage: str = "", screenshot: bytes = b""
) -> dict[str, bytes]:
    """Every file of the page directory, by relative path. Directories in PAGE_DIRS always exist
    even when no file lands in them; callers create them from that constant. screenshot: the
    PNG a live capture took, kept as screenshot.png and listed in _map.md."""
    paths = section_files(page)
    long_values = LongValues()
    files: dict[str, bytes] = {}
    for path, section in zip(paths, page.sections):
        text = "\n".join([section_heading(section), *section.lines]) + "\n"
        files[path] = text.encode("utf-8", "surrogatepass")
    files.setdefault(HIDDEN_FILE, b"# (hidden)\n")
    for table in page.tables:
        files.update(_table_files(table, long_values))
    files["links.tsv"] = _tsv(
        LINK_COLUMNS,
        (
            (
                link.id,
                link.url,
                link.text if link.target_section < 0 else f"{link.text} → {paths[link.target_section]}",
                paths[link.section],
            )
            for link in page.links
        ),
        long_values,
    )
    files["images.tsv"] = _tsv(
        IMAGE_COLUMNS,
        ((i.id, i.src, i.description, paths[i.section]) for i in page.images),
        long_values,
    )
    files["actions.tsv"] = _tsv(
        ACTION_COLUMNS,
        (
            (a.id, a.kind, a.label, a.context, format_inputs(a, long_values), paths[a.section])
            for a in page.actions
        ),
        long_values,
        kept_whole=frozenset({ACTION_COLUMNS.index("inputs")}),
    )
    files["facts.kv"] = "".join(
        f"{clean_field(f.key)} = {long_values.keep(clean_field(f.value))}\n" for f in page.facts
    ).encode("utf-8", "surrogatepass")
    resource_rows = []
    for resource in page.resources:
        path = f"resources/{resource.id}.{resource.extension}"
        files[path] = resource.data
        resource_rows.append(
            (resource.id, resource.url, resource.content_type, str(len(resource.data)), path)
        )
    files["resources.tsv"] = _tsv(RESOURCE_COLUMNS, resource_rows, long_values)
    files.update(long_values.files)
    if screenshot:
        files[SCREENSHOT_FILE] = screenshot
    files["_map.md"] = _render_map(page, paths, files, page_id, lineage)
    return dict(sorted(files.items()))


# --- page states --------------------------------------------------------------------------------

STATE_FILE = "_state.md"
# Files that only describe the others: they change whenever anything does, so they are left
# out when two states are compared. So is the screenshot: its pixels differ with the moment it
# was taken (a caret, an animation, an image still loading) while the state is the same.
DERIVED_FILES = ("_map.md", STATE_FILE, SCREENSHOT_FILE)


@dataclass(frozen=True)
class FileDiff:
    """What changed between the rendered files of two states of one page."""

    changed: tuple[str, ...] = ()
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()

    def __bool__(self) -> bool:
        return bool(self.changed or self.added or self.removed)


def file_digests(files: Mapping[str, bytes]) -> dict[str, str]:
    """relpath → content digest of a page's rendered files (rendered without a page id, so two
    states compare equal when their content is), derived files left out."""
    return {
        path: hashlib.sha256(data).hexdigest()[:32]
        for path, data in sorted(files.items())
        if path not in DERIVED_FILES
    }


def state_digest(digests: Mapping[str, str]) -> str:
    """One digest for a whole state, from its file digests."""
    joined = "\n".join(f"{path}\t{digest}" for path, digest in sorted(digests.items()))
    return hashlib.sha256(joined.encode("utf-8")).hexdigest()[:32]


def diff_files(before: Mapping[str, str], after: Mapping[str, str]) -> FileDiff:
    """Compare two file-digest maps (see file_digests)."""
    return FileDiff(
        changed=tuple(p for p in sorted(after) if p in before and before[p] != after[p]),
        added=tuple(p for p in sorted(after) if p not in before),
        removed=tuple(p for p in sorted(before) if p not in after),
    )


def render_state(
    previous: str, action: str, inputs: Sequence[str], diff: FileDiff, effect: Sequence[str] = ()
) -> bytes:
    """`_state.md`: the previous address, the action and inputs that made this state, what it
    changed (lines added and removed, controls that came or went: engine/effect.py), and the
    files changed / added / removed against the previous state."""
    out = [
        "# state",
        f"previous: {clean_field(previous)}",
        f"action: {clean_field(action)}",
        f"inputs: {' '.join(clean_field(i) for i in inputs) or '(none)'}",
    ]
    if effect:
        out += ["", f"## what changed ({len(effect)} lines)", *effect]
    parts = (("changed", diff.changed), ("added", diff.added), ("removed", diff.removed))
    for heading, paths in parts:
        out += ["", f"## {heading} ({len(paths)})", *paths]
    return ("\n".join(out) + "\n").encode("utf-8", "surrogatepass")

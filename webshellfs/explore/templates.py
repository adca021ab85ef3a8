"""Which pages share a template: the same outline of sections and the same kinds of controls in
the same places, read from the compiled page (not its URL).

A page's signature lists its content sections in order, each as its heading level and the
kinds of controls and tables in it (`h1[button,tab]`, `h2`); a run of sections of one shape
counts once (`h2+`), so a list of ten articles with a heading each and one of three share a
template. The chrome follows as the set of its regions with their controls (`nav[button]`),
since a page's header and footer say which part of the site it belongs to.

The URL names a template only afterwards, for the map: what its pages' addresses have in
common (`address_pattern`: `/product/{n}.html`, `/guide/{slug}.html`).
"""

from __future__ import annotations

import re
from collections import Counter
from functools import lru_cache
from urllib.parse import urlsplit

from webshellfs.contract.records import CompiledPage

__all__ = ["address_pattern", "address_shape", "outline", "signature"]

# Regions every page has or that say nothing of its template.
IGNORED_REGIONS = frozenset({"hidden"})
_DIGITS = re.compile(r"\d+")
MOST = 0.8  # the share of a template's addresses a numbered pattern must match
_EXTENSION = re.compile(r"\.[A-Za-z0-9]{1,5}$")


def _section_shapes(page: CompiledPage) -> list[tuple[str, str]]:
    controls: dict[int, set[str]] = {}
    for action in page.actions:
        controls.setdefault(action.section, set()).add(action.control)
    for table in page.tables:
        if not table.resource:
            controls.setdefault(table.section, set()).add("table")
    shapes = []
    for index, section in enumerate(page.sections):
        kinds = ",".join(sorted(controls.get(index, ())))
        shape = f"[{kinds}]" if kinds else ""
        if section.kind == "content":
            shapes.append(("content", f"h{len(section.path)}{shape}"))
        elif section.name not in IGNORED_REGIONS:
            shapes.append(("chrome", f"{section.name}{shape}"))
    return shapes


def signature(page: CompiledPage) -> str:
    """`h1[button] h2+ | footer nav[button] search[form]`: equal for pages of one template."""
    content: list[str] = []
    for kind, shape in _section_shapes(page):
        if kind != "content":
            continue
        if content and content[-1].rstrip("+") == shape:
            content[-1] = shape + "+"
        else:
            content.append(shape)
    chrome = sorted({shape for kind, shape in _section_shapes(page) if kind == "chrome"})
    return " ".join(content or ["(no text)"]) + " | " + " ".join(chrome or ["(no chrome)"])


def outline(page: CompiledPage) -> str:
    """The headings of a page's content, for templates.tsv: `Trail shoe > Ask a question`."""
    names = [s.name for s in page.sections if s.kind == "content" and s.name]
    return " · ".join(names[:6]) + (" …" if len(names) > 6 else "")


@lru_cache(maxsize=16384)  # asked of every stored page at each visit (crawl._listed_like)
def address_shape(url: str) -> str:
    """A URL with its numbers generalised, and the last part of a path inside a folder taken
    for a slug (`/product/{slug}.html` for /product/12.html and /product/trail-shoe.html;
    `/node{n}.html`): the items of one list."""
    parts = urlsplit(url)
    query = f"?{_DIGITS.sub('{n}', parts.query)}" if parts.query else ""
    folder, _, name = (parts.path or "/").rpartition("/")
    if folder and name:
        found = _EXTENSION.search(name)
        name = "{slug}" + (found.group() if found else "")
    return _DIGITS.sub("{n}", folder) + "/" + _DIGITS.sub("{n}", name) + query


def _segment_pattern(segments: list[str]) -> str:
    """One path segment over a template's pages: itself when they all have it, else with its
    numbers generalised (`node{n}.html`) when that makes most of them one, else `{slug}`
    (keeping a shared extension)."""
    if len(set(segments)) == 1:
        return segments[0]
    numbered = Counter(_DIGITS.sub("{n}", segment) for segment in segments)
    commonest, count = numbered.most_common(1)[0]
    if "{n}" in commonest and count >= MOST * len(segments):
        return commonest
    extensions = {found.group() if (found := _EXTENSION.search(s)) else "" for s in segments}
    return "{slug}" + (extensions.pop() if len(extensions) == 1 else "")


def address_pattern(urls: list[str]) -> str:
    """What the addresses of a template's pages have in common: `/product/{n}.html`,
    `/library/{slug}.html`; the commonest number of path segments decides, "" for none."""
    paths = [(urlsplit(url).path or "/").split("/") for url in urls]
    if not paths:
        return ""
    lengths = [len(parts) for parts in paths]
    common = max(set(lengths), key=lengths.count)
    alike = [parts for parts in paths if len(parts) == common]
    return "/".join(_segment_pattern([parts[i] for parts in alike]) for i in range(common))

"""Drives the object constructors (tables, actions, facts) over a page without the walker's text
rules, so their records can be checked on their own: every element is offered to
`match_action`, every <table> to `build_table`, and `builder.text_of` renders a cell as its text
with `[L0001]` after each link and the constructors' mentions in place."""

from __future__ import annotations

from pathlib import Path

import lxml.html
from lxml.html import HtmlElement

from webshellfs.compiler.actions import match_action
from webshellfs.compiler.builder import Emitted, PageBuilder
from webshellfs.compiler.dom import is_hidden, squash
from webshellfs.compiler.facts import extract_facts
from webshellfs.compiler.tables import build_table
from webshellfs.contract.layout import render_page

PAGES = Path(__file__).resolve().parents[2] / "fixtures" / "pages"
SKIPPED = frozenset({"script", "style", "template", "head", "title"})


def page_html(name: str) -> str:
    return (PAGES / name).read_text(encoding="utf-8")


def drive(html: str, url: str) -> dict[str, bytes]:
    """The page directory's files, built by the constructors alone."""
    root = lxml.html.document_fromstring(html)
    builder = PageBuilder(url)
    builder.text_of = lambda element: squash(" ".join(_inline(element, builder)))
    extract_facts(root, html, builder)
    body = root.find("body")
    if body is not None:
        for line in _blocks(body, builder):
            builder.add_line(line)
    return render_page(builder.build())


def _constructed(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    emitted = match_action(element, builder)
    if emitted is None and element.tag == "table":
        emitted = build_table(element, builder)
    return emitted


def _visible(node: HtmlElement) -> bool:
    return isinstance(node.tag, str) and node.tag not in SKIPPED and not is_hidden(node)


def _inline(element: HtmlElement, builder: PageBuilder) -> list[str]:
    parts = [element.text or ""]
    for child in element:
        if _visible(child):
            emitted = _constructed(child, builder)
            if emitted is not None:
                parts.append(emitted.inline)
            if emitted is None or emitted.descend:
                parts.extend(_inline(child, builder))
            if emitted is None and child.tag == "a" and child.get("href"):
                parts.append(f"[{builder.add_link(builder.resolve_url(child.get('href')) or '', '')}]")
        parts.append(child.tail or "")
    return parts


def _blocks(element: HtmlElement, builder: PageBuilder) -> list[str]:
    """One line per constructor mention, in document order (page text is the walker's business)."""
    lines: list[str] = []
    for child in element:
        if not _visible(child):
            continue
        emitted = _constructed(child, builder)
        if emitted is not None and emitted.inline:
            lines.append(emitted.inline)
        if emitted is None and child.tag == "a" and child.get("href"):
            builder.add_link(builder.resolve_url(child.get("href")) or "", squash(child.text_content()))
        if emitted is None or emitted.descend:
            lines.extend(_blocks(child, builder))
    return lines

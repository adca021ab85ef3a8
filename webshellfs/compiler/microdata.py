"""HTML microdata as facts: each item (`itemscope`) with its type and properties, by the W3C
microdata algorithm as extruct implements it (values per element, `itemref`, nested items as
property values, text as html_text spaces it), over our lxml tree.

extruct's own reader gives the same values but costs more than the page's whole walk: it
finds each item's properties with a set difference of two XPaths over the item's subtree and
copies and cleans every text property's subtree; and importing it loads extruct's RDFa and
microformats stacks (rdflib, pyRdfa3, mf2py, BeautifulSoup), over half a second in every
fresh worker process. Here each item's subtree is walked once, down to the items inside it.
"""

from __future__ import annotations

import re
from typing import Any
from urllib.parse import urljoin

import lxml.etree
from lxml.html import HtmlElement

MAX_ITEMS = 2_000
# Items inside items deeper than this are read as their text: one key part a level, so the
# value still lands within facts.kv's 12-part keys.
MAX_NESTING = 10

# By the attribute nodes: faster than testing every element (`descendant-or-self::*[@…]`).
_ITEMS = lxml.etree.XPath("descendant-or-self::*/@itemscope/..")
# Where a property's value comes from, by element (W3C microdata, "values").
_URL_ATTRIBUTES = {
    "audio": "src", "embed": "src", "iframe": "src", "img": "src", "source": "src",
    "track": "src", "video": "src", "a": "href", "area": "href", "link": "href",
    "object": "data",
}
_VALUE_ATTRIBUTES = {"meta": "content", "data": "value", "meter": "value", "time": "datetime"}
_HTML_WHITESPACE = " \t\n\f\r"
# Text as html_text lays it out: a line break around these.
_BLOCK_TAGS = frozenset({
    "article", "aside", "br", "dd", "details", "div", "dt", "fieldset", "figcaption", "footer",
    "form", "header", "hr", "legend", "li", "main", "nav", "table", "tr", "blockquote", "dl",
    "figure", "h1", "h2", "h3", "h4", "h5", "h6", "ol", "p", "pre", "title", "ul",
})
# Removed before the text is read, as extruct's cleaner does (with their content).
_NOT_TEXT = frozenset({"script", "style", "link", "meta"})
_PUNCTUATION_AFTER = re.compile(r'^[,:;.!?")]')


def microdata_items(root: HtmlElement, base: str) -> list[dict[str, Any]]:
    """extruct's microdata items: {"type", "id", "properties"} or {"type", "value"}, each
    item not a property of another (or referred to by one) once, in document order."""
    reader = _Reader(root, base)
    items = []
    for element in _ITEMS(root)[:MAX_ITEMS]:
        item = reader.item(element)
        if item:
            items.append(item)
    return items


class _Reader:
    def __init__(self, root: HtmlElement, base: str) -> None:
        self.root = root
        self.base = base
        self.seen: set[HtmlElement] = set()
        self._ids: dict[str, HtmlElement] | None = None

    def item(self, element: HtmlElement, depth: int = 0) -> dict[str, Any] | None:
        if element in self.seen:
            return None
        self.seen.add(element)
        item: dict[str, Any] = {}
        types = element.get("itemtype", "").split()
        if types:
            item["type"] = types[0] if len(types) == 1 else types
            if element.get("itemid"):
                item["id"] = element.get("itemid").strip()
        properties: dict[str, list[Any]] = {}
        for prop in self._properties(element):
            self._add(properties, prop, depth)
        for ref in element.get("itemref", "").split():
            for prop in self._referred(ref):
                self._add(properties, prop, depth)
        if properties:
            item["properties"] = {k: v[0] if len(v) == 1 else v for k, v in properties.items()}
        else:
            item["value"] = self._value(element, depth, force=True)
        return item

    def _add(self, properties: dict[str, list[Any]], element: HtmlElement, depth: int) -> None:
        value = self._value(element, depth)
        for name in element.get("itemprop").split():
            properties.setdefault(name, []).append(value)

    def _properties(self, scope: HtmlElement) -> list[HtmlElement]:
        """The elements with itemprop under `scope`, not inside an item below it."""
        found = []
        stack = [child for child in scope[::-1] if isinstance(child.tag, str)]
        while stack:
            element = stack.pop()
            if element.get("itemprop") is not None:
                found.append(element)
            if element.get("itemscope") is None:
                stack.extend(child for child in element[::-1] if isinstance(child.tag, str))
        return found

    def _referred(self, ref: str) -> list[HtmlElement]:
        """The properties an `itemref` names: the element with that id if it is an item
        property itself, else the properties in it of the same scope as it."""
        if self._ids is None:
            self._ids = {}
            for element in self.root.xpath("//@id/.."):
                self._ids.setdefault(element.get("id"), element)
        target = self._ids.get(ref)
        if target is None:
            return []
        if target.get("itemprop") is not None and target.get("itemscope") is not None:
            return [target]
        found = [target] if target.get("itemprop") is not None else []
        return found + self._properties(target)

    def _value(self, element: HtmlElement, depth: int, force: bool = False) -> Any:
        tag = element.tag
        if not force and element.get("itemscope") is not None:
            if depth < MAX_NESTING:
                return self.item(element, depth + 1)
            self.seen.update(_ITEMS(element))  # read as text here, never again as items
            return text_of(element)
        if tag in _VALUE_ATTRIBUTES:
            return element.get(_VALUE_ATTRIBUTES[tag], "")
        if tag in _URL_ATTRIBUTES:
            return urljoin(self.base, element.get(_URL_ATTRIBUTES[tag], "").strip(_HTML_WHITESPACE))
        if element.get("content"):
            return element.get("content")
        name = element.get("itemprop") or ""
        if name.endswith(("-input", "-output")):
            action: dict[str, Any] = {}
            if "required" in element.attrib:
                action["valueRequired"] = True
            if element.get("name"):
                action["valueName"] = element.get("name")
            return action
        return text_of(element)


def text_of(element: HtmlElement) -> str:
    """An element's text laid out as html_text does it (a break at block elements, a space
    between chunks unless punctuation follows or "(" precedes), whitespace squashed: facts.kv
    holds one line per value. Script, style, comments and the like are taken out first, so
    the text on both sides of one is one text."""
    chunks: list[str] = []
    previous: str | None = None  # the last text as written; None at a line break
    touching = False  # no tag since that text: the next one left by a removed node joins it

    def add(written: str | None, joins: bool = False) -> None:
        nonlocal previous, touching
        if joins and touching and written and previous is not None:
            previous += written
            chunks[-1] = " ".join(previous.split())
            return
        text = " ".join(written.split()) if written else ""
        if not text:
            return
        if chunks and (previous is None or previous[-1:].isspace() or (
                not _PUNCTUATION_AFTER.search(text) and not previous.endswith("("))):
            chunks.append(" ")
        chunks.append(text)
        previous, touching = written, True

    def tag(name: object) -> None:
        nonlocal previous, touching
        touching = False
        if name in _BLOCK_TAGS:
            previous = None

    stack: list[tuple[HtmlElement, bool]] = [(element, False)]
    while stack:
        node, closing = stack.pop()
        kept = isinstance(node.tag, str) and node.tag not in _NOT_TEXT
        if kept and not closing:
            tag(node.tag)
            add(node.text)
            stack.append((node, True))
            stack.extend((child, False) for child in node[::-1])
            continue
        if kept:
            tag(node.tag)
        if node is not element:
            add(node.tail, joins=not kept)
    return "".join(chunks)

"""Microformats 2 as facts: each h-card, h-entry, h-event … with its properties, for facts.kv
(`mf.h-entry.name = …`, `mf.h-entry.author.name = W. Developer`).

A small deterministic reader over lxml for the mf2 parsing rules that carry the values: root
classes of the registered vocabularies (ROOT_TYPES: a utility class such as Bootstrap's or
Tailwind's `h-100`, `h-screen`, `h-hidden-phone` is layout, not an item), `p-`, `u-`, `dt-`
and `e-` properties with the element each takes its value from, a root that is a property of
its parent written inside it, and the implied name, photo and url of an item that states none.
Left out: the value-class pattern, backward-compatible classic microformats (`vcard`,
`hentry`), and `e-` properties' markup (their text is the value).

extruct's reader (mf2py) parses the whole page again with BeautifulSoup, whatever the size of
its items: measured at 10.9 s over 14 pages of the Readability corpus. Here a page that
names no root costs one regular-expression search of its bytes, and a page with items one
XPath plus a walk of the items alone, each element once.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

import lxml.etree
from lxml.html import HtmlElement

MAX_ITEMS = 500
# Items written inside items, at most: deeper ones are read as their text.
MAX_NESTING = 10

ROOT_TYPES = frozenset({
    "h-adr", "h-app", "h-card", "h-cite", "h-entry", "h-event", "h-feed", "h-geo", "h-item",
    "h-listing", "h-product", "h-recipe", "h-resume", "h-review", "h-review-aggregate",
})
# Searched in the raw page before any tree work (a literal start keeps the search fast).
_ROOT_MENTION = re.compile(
    r"h-(?:" + "|".join(sorted({t[2:].split("-")[0] for t in ROOT_TYPES})) + r")\b")
_WITH_H_CLASS = lxml.etree.XPath("//@class[contains(., 'h-')]/..")
_PROPERTY_CLASS = re.compile(r"^(p|u|dt|e)-([a-z0-9]+(?:-[a-z0-9]+)*)$")

# Where each kind of property takes its value, by element, before the element's text.
_URL_ATTRIBUTES = {
    "a": "href", "area": "href", "link": "href", "img": "src", "audio": "src",
    "video": "src", "source": "src", "iframe": "src", "object": "data",
}
_TEXT_ATTRIBUTES = {"abbr": "title", "link": "title", "data": "value", "input": "value"}
_TIME_ATTRIBUTES = {"time": "datetime", "ins": "datetime", "del": "datetime", "abbr": "title",
                    "data": "value", "input": "value"}

Resolve = Callable[[str | None], str | None]


def microformat_items(root: HtmlElement, data: bytes | str, resolve: Resolve) -> list[
        tuple[str, Any]]:
    """(root types, properties) of each item on the page not itself a property of another, in
    document order; nested items that are no property are items of their own."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if not _ROOT_MENTION.search(text):
        return []
    roots = [element for element in _WITH_H_CLASS(root) if _types(element)][:MAX_ITEMS]
    inside = set(roots)
    items = []
    for element in roots:
        if _property_names(element) and any(a in inside for a in element.iterancestors()):
            continue  # written inside the item it is a property of
        items.append((",".join(_types(element)), _item(element, resolve)))
    return items


def _types(element: HtmlElement) -> list[str]:
    return sorted(name for name in (element.get("class") or "").split() if name in ROOT_TYPES)


def _property_names(element: HtmlElement) -> list[tuple[str, str]]:
    """(prefix, name) of each property class: `p-name` → ("p", "name")."""
    found = []
    for name in (element.get("class") or "").split():
        match = _PROPERTY_CLASS.match(name)
        if match:
            found.append((match.group(1), match.group(2)))
    return found


def _item(item: HtmlElement, resolve: Resolve, depth: int = 0) -> dict[str, Any]:
    """An item's properties, from its descendants down to (not into) the items inside it."""
    properties: dict[str, list[Any]] = {}
    kinds: set[str] = set()
    nested = False
    stack = [child for child in item[::-1] if isinstance(child.tag, str)]
    while stack:
        element = stack.pop()
        names = _property_names(element)
        is_item = bool(_types(element))
        nested = nested or is_item
        for prefix, name in names:
            kinds.add(prefix)
            value = (_item(element, resolve, depth + 1) if is_item and depth < MAX_NESTING
                     else _value(element, prefix, resolve))
            if value:
                properties.setdefault(name, []).append(value)
        if not is_item:
            stack.extend(child for child in element[::-1] if isinstance(child.tag, str))
    _imply(item, properties, kinds, nested, resolve)
    return {name: values[0] if len(values) == 1 else values for name, values in properties.items()}


def _value(element: HtmlElement, prefix: str, resolve: Resolve) -> str | None:
    tag = element.tag
    if prefix == "u" and tag in _URL_ATTRIBUTES and element.get(_URL_ATTRIBUTES[tag]):
        return resolve(element.get(_URL_ATTRIBUTES[tag]))
    attributes = _TIME_ATTRIBUTES if prefix == "dt" else _TEXT_ATTRIBUTES
    if prefix != "e" and tag in attributes and element.get(attributes[tag]) is not None:
        return element.get(attributes[tag])
    if prefix == "p" and tag in ("img", "area") and element.get("alt") is not None:
        return element.get("alt")
    return element.text_content()


def _imply(
    item: HtmlElement,
    properties: dict[str, list[Any]],
    kinds: set[str],
    nested: bool,
    resolve: Resolve,
) -> None:
    """The implied name, photo and url of mf2, for an item that states none of them."""
    if "name" not in properties and not kinds & {"p", "e"} and not nested:
        name = (item.get("alt") if item.tag in ("img", "area") else
                item.get("title") if item.tag == "abbr" else item.text_content())
        if name and name.strip():
            properties["name"] = [name]
    if "u" in kinds:
        return
    if "photo" not in properties:
        image = _only_descendant(item, "img")
        if image is not None and image.get("src"):
            properties["photo"] = [resolve(image.get("src"))]
    if "url" not in properties:
        link = item if item.tag in ("a", "area") else _only_descendant(item, "a")
        if link is not None and link.get("href"):
            properties["url"] = [resolve(link.get("href"))]


def _only_descendant(item: HtmlElement, tag: str) -> HtmlElement | None:
    """The element itself, its only child, or its only child's only child, if of that tag
    and not an item of its own."""
    element = item
    for _ in range(3):
        if element.tag == tag and (element is item or not _types(element)):
            return element
        children = [child for child in element if isinstance(child.tag, str)]
        if len(children) != 1:
            return None
        element = children[0]
    return None

"""Facts: what a page states about itself in machine-readable form, as `key = value` lines
for facts.kv.

Keys name their source, so `grep price facts.kv` tells JSON-LD from OpenGraph:

    title = Red Shirt – Shop                     <title>
    lang = en                                    <html lang>
    canonical = https://shop.test/p/red-shirt    <link rel=canonical>
    meta.description = A red shirt.              <meta name=…>
    og.title = Red Shirt                         OpenGraph (og:…, article:…, product:… <meta>)
    twitter.card = summary                       <meta name="twitter:…">
    jsonld.Product.offers.price = 19.99          <script type="application/ld+json">
    microdata.Product.name = Red Shirt           itemscope/itemprop
    rdfa.Person.name = Ada                       RDFa (vocab/typeof)

Nested objects join their keys with dots; a list of objects numbers them (`offers[0].price`),
a list of plain values repeats the key. When a type occurs more than once on the page, each
occurrence is numbered (`jsonld.Product[1].name`). Groups come in the order above, each in
document order. A syntax absent from the page costs nothing: its attribute is looked for in
the raw page before any tree search or extractor runs. JSON-LD is read as browsers accept it
(comments, raw control characters, trailing commas); a block still unreadable is noted,
never raised.
"""

from __future__ import annotations

import json
import logging
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import jstyleson
import lxml.etree
from lxml.html import HtmlElement

from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.dom import squash

MAX_FACTS = 5_000
MAX_DEPTH = 12
# Items inside items (RDFa typeof nodes) deeper than this are read as text: each level adds a
# key part, so the value still lands within MAX_DEPTH.
MAX_ITEM_NESTING = MAX_DEPTH // 2

# <meta property|name> prefixes → key prefix. OpenGraph's object types keep their own name.
OPEN_GRAPH_PREFIXES = {
    "og:": "og.",
    "article:": "og.article.",
    "product:": "og.product.",
    "book:": "og.book.",
    "profile:": "og.profile.",
    "music:": "og.music.",
    "video:": "og.video.",
    "twitter:": "twitter.",
}
# <meta name> values that say how to render or verify the page, not what it is about.
META_NAMES_SKIPPED = (
    "viewport",
    "theme-color",
    "color-scheme",
    "format-detection",
    "referrer",
    "robots",
    "googlebot",
    "msapplication-",
    "apple-",
    "mobile-web-app",
    "handheldfriendly",
    "mobileoptimized",
    "csrf-",
    "google-site-verification",
    "facebook-domain-verification",
    "p:domain_verify",
    "fb:",
    "al:",
)
JSONLD_TYPES = frozenset({"application/ld+json"})
# Keys that name or link a node rather than describe it.
NODE_KEYS = frozenset({"@context", "@id", "@type"})
# Where an RDFa property takes its value from, before the element's text.
RDFA_VALUE_ATTRIBUTES = ("content", "datetime", "href", "src", "resource")

_RDFA_TYPED = lxml.etree.XPath("//*[@typeof]")
_JSON_COMMENT_LINES = re.compile(r"^\s*(//.*|<!--.*-->)\s*$", re.MULTILINE)
_WRAPPERS = re.compile(r"^\s*(<!\[CDATA\[|<!--)?|(\]\]>|-->)?\s*;?\s*$")
# The comment-aware pass walks the text in Python: a longer invalid block is not worth it.
MAX_LENIENT_JSON_CHARS = 1_000_000

log = logging.getLogger(__name__)


def extract_facts(root: HtmlElement, data: bytes | str, builder: PageBuilder) -> None:
    """Add the page's facts to the builder, in the order the module docstring shows."""
    facts = _Facts(builder)
    facts.add("title", _title(root))
    facts.add(
        "lang", root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or ""
    )
    facts.add("canonical", _canonical(root, builder))
    meta, open_graph = _meta_facts(root)
    facts.extend(meta)
    facts.extend(open_graph)
    facts.extend(_typed("jsonld", _jsonld_items(root, builder)))
    if _mentions(data, "itemscope"):
        facts.extend(_typed("microdata", _microdata_items(root, builder)))
    if _mentions(data, "typeof"):
        facts.extend(_typed("rdfa", _rdfa_items(root)))
    if facts.dropped:
        builder.note(f"facts.kv: kept the first {MAX_FACTS} facts, {facts.dropped} more were cut")


def _mentions(data: bytes | str, word: str) -> bool:
    """A substring search on the raw page, far cheaper than an XPath over the whole tree: a
    syntax whose attribute never occurs costs nothing."""
    return (word.encode() if isinstance(data, bytes) else word) in data


class _Facts:
    """Adds facts once each (counting those already on the page), up to MAX_FACTS."""

    def __init__(self, builder: PageBuilder) -> None:
        self.builder = builder
        self.seen: set[tuple[str, str]] = {(f.key, f.value) for f in builder.facts}
        self.dropped = 0

    def add(self, key: str, value: str) -> None:
        value = squash(value)
        if not value or (key, value) in self.seen:
            return
        if len(self.seen) >= MAX_FACTS:
            self.dropped += 1
            return
        self.seen.add((key, value))
        self.builder.add_fact(key, value)

    def extend(self, pairs: Iterator[tuple[str, str]] | list[tuple[str, str]]) -> None:
        for key, value in pairs:
            self.add(key, value)


# --- page head -------------------------------------------------------------------------------


def _title(root: HtmlElement) -> str:
    title = root.find("head/title")
    if title is None:
        title = root.find(".//title")
    return title.text_content() if title is not None else ""


def _canonical(root: HtmlElement, builder: PageBuilder) -> str:
    for link in root.iter("link"):
        if "canonical" in (link.get("rel") or "").lower().split():
            return builder.resolve_url(link.get("href")) or ""
    return ""


def _meta_facts(root: HtmlElement) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(`meta.*` facts, OpenGraph and Twitter facts), each in document order."""
    meta: list[tuple[str, str]] = []
    open_graph: list[tuple[str, str]] = []
    for element in root.iter("meta"):
        content = element.get("content")
        if not content or element.get("itemprop") is not None:
            continue
        name = (element.get("property") or element.get("name") or "").strip().lower()
        if not name:
            continue
        prefix = next((p for p in OPEN_GRAPH_PREFIXES if name.startswith(p)), None)
        if prefix is not None:
            rest = name[len(prefix) :].replace(":", ".")
            open_graph.append((OPEN_GRAPH_PREFIXES[prefix] + rest, content))
        elif element.get("name") and not name.startswith(META_NAMES_SKIPPED):
            meta.append((f"meta.{name}", content))
    return meta, open_graph


# --- typed items -----------------------------------------------------------------------------


def _typed(source: str, items: list[tuple[str, Any]]) -> Iterator[tuple[str, str]]:
    """`source.Type.key = value` for each (type, body) item; repeated types are numbered."""
    counts = Counter(kind for kind, _ in items)
    seen: Counter[str] = Counter()
    for kind, body in items:
        prefix = f"{source}.{kind}"
        if counts[kind] > 1:
            prefix += f"[{seen[kind]}]"
            seen[kind] += 1
        yield from _flatten(prefix, body, 0)


def _flatten(key: str, value: Any, depth: int) -> Iterator[tuple[str, str]]:
    if depth > MAX_DEPTH or value is None:
        return
    if isinstance(value, dict):
        for name, inner in value.items():
            if name not in NODE_KEYS:
                yield from _flatten(f"{key}.{name}", inner, depth + 1)
    elif isinstance(value, list):
        if len(value) == 1:
            yield from _flatten(key, value[0], depth + 1)
        elif any(isinstance(v, (dict, list)) for v in value):
            for index, inner in enumerate(value):
                yield from _flatten(f"{key}[{index}]", inner, depth + 1)
        else:
            for inner in value:
                yield from _flatten(key, inner, depth + 1)
    elif isinstance(value, bool):
        yield key, "true" if value else "false"
    elif isinstance(value, (int, float)):
        yield key, json.dumps(value)
    else:
        yield key, str(value)


def _type_name(value: Any) -> str:
    """`Product` from "Product", "schema:Product", "http://schema.org/Product" or a list."""
    names = value if isinstance(value, list) else [value]
    short = [re.split(r"[/#:]", str(n).rstrip("/#:"))[-1] for n in names if n]
    return ",".join(s for s in short if s) or "Thing"


def _jsonld_items(root: HtmlElement, builder: PageBuilder) -> list[tuple[str, Any]]:
    items: list[tuple[str, Any]] = []
    unreadable = 0
    for script in root.iter("script"):
        if (script.get("type") or "").strip().lower() not in JSONLD_TYPES:
            continue
        document = _read_json(script.text or "")
        if document is None:
            unreadable += 1
            continue
        for node in document if isinstance(document, list) else [document]:
            if not isinstance(node, dict):
                continue
            graph = node.get("@graph")
            for item in graph if isinstance(graph, list) else [node]:
                if isinstance(item, dict):
                    items.append((_type_name(item.get("@type")), item))
    if unreadable:
        builder.note(f"facts.kv: {unreadable} JSON-LD block(s) skipped: not valid JSON")
    return items


def _read_json(text: str) -> Any:
    """JSON as browsers accept it in a JSON-LD block: wrapped in CDATA or an HTML comment,
    with `//` and `/* */` comments, raw control characters in strings, ending with `;`, or
    with a trailing comma after the last member."""
    unwrapped = _WRAPPERS.sub("", _JSON_COMMENT_LINES.sub("", text))
    for attempt in (text, unwrapped):
        try:
            return json.loads(attempt, strict=False)
        except (ValueError, RecursionError):
            continue
    if len(unwrapped) > MAX_LENIENT_JSON_CHARS:
        return None
    try:  # comments after values, trailing commas: a comment-aware pass
        return jstyleson.loads(unwrapped, strict=False)
    except (ValueError, RecursionError, IndexError):
        return None


def _microdata_items(root: HtmlElement, builder: PageBuilder) -> list[tuple[str, Any]]:
    from extruct.w3cmicrodata import MicrodataExtractor  # only pages with itemscope pay for it

    try:
        found = MicrodataExtractor().extract_items(root, builder.base_url)
    except Exception as error:  # a third-party parser on hostile input: note it, keep the page
        log.debug("microdata extraction failed", exc_info=True)
        builder.note(f"facts.kv: microdata could not be read ({type(error).__name__})")
        return []
    return [(_type_name(item.get("type")), _microdata_body(item)) for item in found]


def _microdata_body(value: Any) -> Any:
    """extruct's {type, properties} items as plain nested dicts."""
    if isinstance(value, list):
        return [_microdata_body(v) for v in value]
    if isinstance(value, dict):
        if "properties" in value:
            return {k: _microdata_body(v) for k, v in value["properties"].items()}
        return value.get("value")
    return value


def _rdfa_items(root: HtmlElement) -> list[tuple[str, Any]]:
    """RDFa Lite (vocab, typeof, property), as schema.org pages write it: each typeof node not
    itself a property of another is one item."""
    items = []
    for node in _RDFA_TYPED(root):
        types = [t for t in node.get("typeof", "").split() if _vocabulary_type(t)]
        if not types or (
            node.get("property") and any(a.get("typeof") is not None for a in node.iterancestors())
        ):
            continue
        items.append((_type_name(types), _rdfa_properties(node)))
    return items


def _vocabulary_type(token: str) -> bool:
    """`Event` (under a vocab), `schema:Event` or a full URL; MediaWiki's `mw:File` is markup."""
    return ":" not in token or "://" in token or token.startswith("schema:")


def _rdfa_properties(scope: HtmlElement, depth: int = 0) -> dict[str, Any]:
    """An item's properties; items nested past MAX_ITEM_NESTING are read as their text."""
    properties: dict[str, list[Any]] = {}
    stack = list(reversed(scope))
    while stack:
        node = stack.pop()
        if not isinstance(node.tag, str):
            continue
        nested = node.get("typeof") is not None and depth < MAX_ITEM_NESTING
        names = (node.get("property") or "").split()
        if names:
            value = _rdfa_properties(node, depth + 1) if nested else _rdfa_value(node)
            for name in names:
                properties.setdefault(_type_name(name), []).append(value)
        if not nested:
            stack.extend(reversed(node))
    return {name: values[0] if len(values) == 1 else values for name, values in properties.items()}


def _rdfa_value(node: HtmlElement) -> str:
    for attribute in RDFA_VALUE_ATTRIBUTES:
        value = node.get(attribute)
        if value is not None:
            return value
    return node.text_content()

"""Facts: what a page states about itself in machine-readable form, as `key = value` lines
for facts.kv.

Keys name their source, so `grep price facts.kv` tells JSON-LD from OpenGraph:

    title = Red Shirt – Shop                     <title>
    lang = en                                    <html lang>
    canonical = https://shop.test/p/red-shirt    <link rel=canonical>
    meta.description = A red shirt.              <meta name=…>
    og.title = Red Shirt                         OpenGraph (og:…, article:…, product:… <meta>)
    twitter.card = summary                       <meta name="twitter:…">
    dc.title = Red Shirt                         Dublin Core: <meta name="DC.title">,
    dcterms.replaces = https://shop.test/p/old   <link rel="DCTERMS.replaces">
    jsonld.Product.offers.price = 19.99          <script type="application/ld+json">
    microdata.Product.name = Red Shirt           itemscope/itemprop (compiler/microdata.py)
    rdfa.Person.name = Ada                       RDFa 1.1 (compiler/rdfa.py)
    microformats.h-card.name = Ada               mf2 classes (compiler/microformats.py)

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
import re
from collections import Counter
from collections.abc import Iterator
from typing import Any

import jstyleson
from lxml.html import HtmlElement

from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.dom import squash
from webshellfs.compiler.microdata import microdata_items
from webshellfs.compiler.microformats import microformat_items
from webshellfs.compiler.rdfa import rdfa_items

MAX_FACTS = 5_000
MAX_DEPTH = 12

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
# Dublin Core: the namespaces a `<link rel="schema.X">` may declare, and the prefixes read
# without one; keys are `dc.<element>` (elements 1.1) and `dcterms.<term>`.
DUBLIN_CORE_NAMESPACES = {
    "http://purl.org/dc/elements/1.1/": "dc",
    "http://purl.org/dc/terms/": "dcterms",
}
DUBLIN_CORE_PREFIXES = {"dc": "dc", "dcterms": "dcterms", "dct": "dcterms"}
_DUBLIN_CORE_NAME = re.compile(r"([A-Za-z]+)[.:](\S+)$")
JSONLD_TYPES = frozenset({"application/ld+json"})
# Keys that name or link a node rather than describe it.
NODE_KEYS = frozenset({"@context", "@id", "@type"})
_JSON_COMMENT_LINES = re.compile(r"^\s*(//.*|<!--.*-->)\s*$", re.MULTILINE)
_WRAPPERS = re.compile(r"^\s*(<!\[CDATA\[|<!--)?|(\]\]>|-->)?\s*;?\s*$")
# The comment-aware pass walks the text in Python: a longer invalid block is not worth it.
MAX_LENIENT_JSON_CHARS = 1_000_000


def extract_facts(root: HtmlElement, data: bytes | str, builder: PageBuilder) -> None:
    """Add the page's facts to the builder, in the order the module docstring shows."""
    facts = _Facts(builder)
    facts.add("title", _title(root))
    facts.add(
        "lang", root.get("lang") or root.get("{http://www.w3.org/XML/1998/namespace}lang") or ""
    )
    facts.add("canonical", _canonical(root, builder))
    named_links = _named_links(root)
    dublin_core = _dublin_core_prefixes(named_links)
    metas = list(root.iter("meta"))
    meta, open_graph, dublin_core_meta = _meta_facts(metas, dublin_core)
    facts.extend(meta)
    facts.extend(open_graph)
    facts.extend(dublin_core_meta)
    facts.extend(_dublin_core_links(named_links, builder, dublin_core))
    facts.extend(_typed("jsonld", _jsonld_items(root, builder)))
    if _mentions(data, "itemscope"):
        facts.extend(_typed("microdata", _microdata_items(root, builder)))
    facts.extend(_typed("rdfa", rdfa_items(root, data, builder.base_url, metas)))
    facts.extend(_typed("microformats", microformat_items(root, data, builder.resolve_url)))
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


Pairs = list[tuple[str, str]]


def _meta_facts(
    metas: list[HtmlElement], dublin_core: dict[str, str]
) -> tuple[Pairs, Pairs, Pairs]:
    """(`meta.*` facts, OpenGraph and Twitter facts, Dublin Core facts) of the page's <meta>
    elements, each in document order."""
    meta: Pairs = []
    open_graph: Pairs = []
    dublin_core_meta: Pairs = []
    for element in metas:
        content = element.get("content")
        if not content:
            continue
        written = (element.get("property") or element.get("name") or "").strip()
        name = written.lower()
        if not name:
            continue
        prefix = next((p for p in OPEN_GRAPH_PREFIXES if name.startswith(p)), None)
        dublin_core_key = _dublin_core_key(written, dublin_core) if element.get("name") else None
        if prefix is not None:
            rest = name[len(prefix) :].replace(":", ".")
            open_graph.append((OPEN_GRAPH_PREFIXES[prefix] + rest, content))
        elif dublin_core_key is not None:
            dublin_core_meta.append((dublin_core_key, content))
        elif element.get("name") and not name.startswith(META_NAMES_SKIPPED):
            meta.append((f"meta.{name}", content))
    return meta, open_graph, dublin_core_meta


def _named_links(root: HtmlElement) -> list[tuple[str, str]]:
    """(rel, href) of the <link>s whose rel is a prefixed name (`schema.DC`, `DCTERMS.x`)."""
    found = []
    for link in root.iter("link"):
        rel = (link.get("rel") or "").strip()
        if ("." in rel or ":" in rel) and link.get("href"):
            found.append((rel, link.get("href").strip()))
    return found


def _dublin_core_prefixes(named_links: list[tuple[str, str]]) -> dict[str, str]:
    """Prefix (lower case) → key group, the usual ones and those a `<link rel="schema.X">`
    declares for a Dublin Core namespace."""
    prefixes = dict(DUBLIN_CORE_PREFIXES)
    for rel, href in named_links:
        group = DUBLIN_CORE_NAMESPACES.get(href)
        if rel.lower().startswith("schema.") and group:
            prefixes[rel[len("schema.") :].lower()] = group
    return prefixes


def _dublin_core_key(name: str, prefixes: dict[str, str]) -> str | None:
    """`dc.title` for DC.title or dc:title, `dcterms.issued` for DCTERMS.issued; None for a
    name outside Dublin Core."""
    parts = _DUBLIN_CORE_NAME.match(name)
    group = prefixes.get(parts.group(1).lower()) if parts else None
    return f"{group}.{parts.group(2)}" if parts and group else None


def _dublin_core_links(
    named_links: list[tuple[str, str]], builder: PageBuilder, prefixes: dict[str, str]
) -> Pairs:
    """`<link rel="DCTERMS.replaces" href>`: Dublin Core whose value is a URL."""
    found = []
    for rel, href in named_links:
        key = _dublin_core_key(rel, prefixes)
        url = builder.resolve_url(href) if key is not None else None
        if key is not None and url:
            found.append((key, url))
    return found


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
    try:
        return json.loads(text, strict=False)
    except (ValueError, RecursionError):
        pass
    # Unwrapped only now: the two substitutions cost more than parsing a valid block.
    unwrapped = _WRAPPERS.sub("", _JSON_COMMENT_LINES.sub("", text))
    try:
        return json.loads(unwrapped, strict=False)
    except (ValueError, RecursionError):
        pass
    if len(unwrapped) > MAX_LENIENT_JSON_CHARS:
        return None
    try:  # comments after values, trailing commas: a comment-aware pass
        return jstyleson.loads(unwrapped, strict=False)
    except (ValueError, RecursionError, IndexError):
        return None


def _microdata_items(root: HtmlElement, builder: PageBuilder) -> list[tuple[str, Any]]:
    found = microdata_items(root, builder.base_url)
    return [(_type_name(item.get("type")), _microdata_body(item)) for item in found]


def _microdata_body(value: Any) -> Any:
    """{type, properties} items as plain nested dicts."""
    if isinstance(value, list):
        return [_microdata_body(v) for v in value]
    if isinstance(value, dict):
        if "properties" in value:
            return {k: _microdata_body(v) for k, v in value["properties"].items()}
        return value.get("value")
    return value

"""RDFa 1.1 as facts: the subjects a page describes in its attributes, with their types and
properties, for facts.kv (`rdfa.Person.name = Ada`, `rdfa.page.title = …`).

The processing follows RDFa Core 1.1 (section 7.5) with the HTML+RDFa rules: `vocab`, `prefix`
and `xmlns:` mappings (over the initial context's prefixes), `about`, `resource`, `href`/`src`,
`typeof`, `property`, `rel`/`rev` with hanging (incomplete) triples, chaining through parent
subjects and objects. Left out: lists (`inlist` is read as a plain property), XML literals
(read as text) and languages. `rel` and `rev` take CURIEs, IRIs, terms under a `vocab`, and the
initial context's own terms (license, describedby, role); the HTML link types (stylesheet, icon,
alternate, and absolute URLs as extension types) are markup, not statements. `<meta
property="og:…">` is OpenGraph, read as such by facts.py, not again here.

Work stays linear in the page and small on most: only elements carrying an RDFa attribute, their
ancestors, and the insides of a hanging `rel` are visited; the rest cannot change a statement.
A typed item nested in the properties of others more than MAX_ITEM_NESTING deep is read as its
text. Subjects are items in document order: a typed one is named by its type, the page itself
`page`, any other `Thing`; an item with an IRI of its own says it as `about`. A blank node
that is the value of a property is written inside it (`rdfa.Person.address.city`).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, field, replace
from typing import Any
from urllib.parse import urljoin

import lxml.etree
from lxml.html import HtmlElement

MAX_ITEM_NESTING = 6
# Blank nodes written one inside another, at most (facts.kv keys stop at 12 parts anyway).
MAX_NESTED_NODES = 12

# The RDFa 1.1 initial context (prefixes a page may use without declaring them).
INITIAL_PREFIXES = {
    "as": "https://www.w3.org/ns/activitystreams#",
    "cc": "http://creativecommons.org/ns#",
    "ctag": "http://commontag.org/ns#",
    "dc": "http://purl.org/dc/terms/",
    "dc11": "http://purl.org/dc/elements/1.1/",
    "dcat": "http://www.w3.org/ns/dcat#",
    "dcterms": "http://purl.org/dc/terms/",
    "foaf": "http://xmlns.com/foaf/0.1/",
    "gr": "http://purl.org/goodrelations/v1#",
    "ical": "http://www.w3.org/2002/12/cal/icaltzd#",
    "og": "http://ogp.me/ns#",
    "org": "http://www.w3.org/ns/org#",
    "owl": "http://www.w3.org/2002/07/owl#",
    "prov": "http://www.w3.org/ns/prov#",
    "rdf": "http://www.w3.org/1999/02/22-rdf-syntax-ns#",
    "rdfa": "http://www.w3.org/ns/rdfa#",
    "rdfs": "http://www.w3.org/2000/01/rdf-schema#",
    "rev": "http://purl.org/stuff/rev#",
    "schema": "http://schema.org/",
    "sioc": "http://rdfs.org/sioc/ns#",
    "skos": "http://www.w3.org/2004/02/skos/core#",
    "v": "http://rdf.data-vocabulary.org/#",
    "vcard": "http://www.w3.org/2006/vcard/ns#",
    "void": "http://rdfs.org/ns/void#",
    "xhv": "http://www.w3.org/1999/xhtml/vocab#",
    "xsd": "http://www.w3.org/2001/XMLSchema#",
}
INITIAL_TERMS = {
    "describedby": "http://www.w3.org/2007/05/powder-s#describedby",
    "license": "http://www.w3.org/1999/xhtml/vocab#license",
    "role": "http://www.w3.org/1999/xhtml/vocab#role",
}
# Elements whose subject is the parent object when they name none (HTML+RDFa).
PASS_THROUGH_TAGS = frozenset({"head", "body"})
# Where a property's literal comes from, after `content`, before the text (HTML+RDFa).
LITERAL_ATTRIBUTES = {"time": ("datetime",), "data": ("value",)}
# <meta property> names facts.py reads as OpenGraph or Twitter cards, or skips as settings.
META_READ_ELSEWHERE = ("og:", "article:", "product:", "book:", "profile:", "music:", "video:",
                       "twitter:", "fb:", "al:")

# Attributes that state something, as the raw page must spell them before any tree search;
# `prefix` and `xmlns:` only map names, read on the elements visited. A rel is a statement
# on a page using RDFa otherwise, or when it says license or describedby.
STATEMENT_ATTRIBUTES = ("property", "typeof", "about", "resource", "vocab", "rev")
# What comes before "license" when it is a word of a rel attribute.
_IN_REL = re.compile(r"""\srel\s*=\s*["']?(?:[^"'<>=]*\s)?$""")
# Occurrences of "license" looked at (inline scripts' @license comments come first).
MAX_LICENSE_MENTIONS = 50
_RDFA_REL = (
    "//@rel[contains(., ':')" + "".join(f" or contains(., '{t}')" for t in INITIAL_TERMS) + "]/.."
)
_UNDER_VOCAB = "//*[@vocab]//*[@rel]"
_finders: dict[tuple[str, ...], lxml.etree.XPath] = {}
_PREFIX_DECLARATION = re.compile(r"([\w.-]+):\s+(\S+)")
_IRI_SCHEME = re.compile(r"^[a-zA-Z][\w+.-]*://")


@dataclass(frozen=True)
class Node:
    """A resource named by an IRI, or a blank node (`_:b1`)."""

    name: str

    @property
    def blank(self) -> bool:
        return self.name.startswith("_:")


@dataclass
class _Context:
    base: str
    subject: Node
    object: Node | None
    prefixes: dict[str, str]
    vocab: str | None
    incomplete: list[tuple[str, bool]] = field(default_factory=list)
    nesting: int = 0


class _Graph:
    """Statements by subject, in the order subjects and properties first appear."""

    def __init__(self) -> None:
        self.properties: dict[Node, dict[str, list[Node | str]]] = {}
        self.types: dict[Node, list[str]] = {}
        self.blank_count = 0

    def blank(self) -> Node:
        self.blank_count += 1
        return Node(f"_:b{self.blank_count}")

    def add(self, subject: Node, predicate: str, value: Node | str) -> None:
        values = self.properties.setdefault(subject, {}).setdefault(predicate, [])
        if value not in values:
            values.append(value)

    def add_type(self, subject: Node, kind: str) -> None:
        self.properties.setdefault(subject, {})
        kinds = self.types.setdefault(subject, [])
        if kind not in kinds:
            kinds.append(kind)


def rdfa_items(
    root: HtmlElement, data: bytes | str, base: str, metas: list[HtmlElement] | None = None
) -> list[tuple[str, Any]]:
    """(type name, nested properties) for each subject the page's RDFa describes; `data` is
    the raw page, searched first so that a page without RDFa costs no walk; `metas`, the
    page's <meta> elements if the caller has them already."""
    marked = _marked(root, data, list(root.iter("meta")) if metas is None else metas)
    if not marked:
        return []
    wanted: set[HtmlElement] = set()
    for element in marked:
        wanted.add(element)
        for ancestor in element.iterancestors():
            if ancestor in wanted:
                break
            wanted.add(ancestor)
    graph = _Graph()
    page = Node(base)
    top = root.getroottree().getroot()
    context = _Context(base, page, page, dict(INITIAL_PREFIXES), None)
    stack: list[tuple[HtmlElement, _Context, bool]] = [(top, context, False)]
    while stack:
        element, context, everything = stack.pop()
        inner = _process(element, context, graph, is_root=element is top)
        if inner is None:
            continue
        everything = everything or bool(inner.incomplete)
        children = [
            child
            for child in element
            if isinstance(child.tag, str) and (everything or child in wanted)
        ]
        stack.extend((child, inner, everything) for child in reversed(children))
    return _items(graph, page)


def _marked(root: HtmlElement, data: bytes | str, metas: list[HtmlElement]) -> list[HtmlElement]:
    """The elements with an RDFa statement attribute, found by one XPath for the attributes
    the raw page mentions (a union of `//@name/..`, faster than one test per element). The
    common page, whose only ones are `<meta property>` (OpenGraph), is answered from its
    <meta> elements."""
    text = data.decode("utf-8", "replace") if isinstance(data, bytes) else data
    if "typeof=" not in text and not _license_link(text):
        # Without typeof or a license link only a property states anything (rev, obsolete in
        # HTML, is read on pages that have one of these).
        if "property=" not in text:
            return []
        stating = [meta for meta in metas if meta.get("property") is not None]
        if len(stating) == text.count("property="):
            return [meta for meta in stating if not _read_elsewhere(meta)]
    return _finder(tuple(name for name in STATEMENT_ATTRIBUTES if f"{name}=" in text))(root)


def _license_link(text: str) -> bool:
    """Whether the raw page has a rel="license" link (from each "license", a look back)."""
    start = text.find("license")
    for _ in range(MAX_LICENSE_MENTIONS):
        if start < 0:
            return False
        window = max(0, start - 100)
        # The look back only where `rel` is: a plain find is far cheaper than the regex.
        if text.find("rel", window, start) >= 0 and _IN_REL.search(text, window, start):
            return True
        start = text.find("license", start + 1)
    return False


def _read_elsewhere(element: HtmlElement) -> bool:
    return element.tag == "meta" and (
        element.get("property") or "").lower().startswith(META_READ_ELSEWHERE)


def _finder(names: tuple[str, ...]) -> lxml.etree.XPath:
    if names not in _finders:
        paths = [f"//@{name}/.." for name in names] + [_RDFA_REL]
        _finders[names] = lxml.etree.XPath(
            " | ".join(paths + ([_UNDER_VOCAB] if "vocab" in names else [])))
    return _finders[names]


def _process(
    element: HtmlElement, context: _Context, graph: _Graph, *, is_root: bool
) -> _Context | None:
    """Adds one element's statements; returns the context for its children (None: do not
    walk them)."""
    get = element.get
    prefixes, vocab = _mappings(element, context)
    base = context.base
    rel = _terms(get("rel"), prefixes, vocab, link=True)
    rev = _terms(get("rev"), prefixes, vocab, link=True)
    properties = _terms(get("property"), prefixes, vocab)
    if _read_elsewhere(element):
        properties = []
    types = _terms(get("typeof"), prefixes, vocab)
    if properties and get("rel") is not None and not any(":" in t for t in get("rel").split()):
        rel = []  # HTML+RDFa: beside a property, link types in rel are markup
    if properties and get("rev") is not None and not any(":" in t for t in get("rev").split()):
        rev = []
    about = _resource(get("about"), prefixes, base)
    resource = _resource(get("resource"), prefixes, base)
    linked = resource or _iri(get("href"), base) or _iri(get("src"), base)
    content = get("content")
    # A property whose value is the item the element types, a level down (RDFa Core 7.5.5.1).
    chained = bool(properties) and not rel and not rev and content is None and (
        get("datatype") is None)
    typed_value = chained and bool(types) and about is None
    if typed_value and context.nesting >= MAX_ITEM_NESTING:
        types = []  # deep enough: this item is read as its text, its inside not walked
    nesting = context.nesting + (1 if typed_value and types else 0)

    new_subject: Node | None = None
    current_object: Node | None = None
    typed: Node | None = None
    skip = False
    if not rel and not rev:
        if chained:
            new_subject = about or (Node(base) if is_root else None) or context.object
            if types:
                if about is not None or is_root:
                    typed = new_subject
                else:
                    typed = linked or graph.blank()
                    current_object = typed
        else:
            new_subject = about or linked
            if new_subject is None:
                if is_root:
                    new_subject = Node(base)
                elif types:
                    new_subject = graph.blank()
                elif element.tag in PASS_THROUGH_TAGS or context.object is not None:
                    new_subject = context.object
                    skip = not properties and element.tag not in PASS_THROUGH_TAGS
            if types:
                typed = new_subject
    else:
        new_subject = about
        if new_subject is None:
            new_subject = Node(base) if is_root else context.object
        elif types:
            typed = new_subject
        current_object = linked
        if types and about is None:
            current_object = current_object or graph.blank()
            typed = current_object

    if typed is not None:
        for kind in types:
            graph.add_type(typed, kind)
    incomplete: list[tuple[str, bool]] = []
    if new_subject is not None and current_object is not None:
        for predicate in rel:
            graph.add(new_subject, predicate, current_object)
        for predicate in rev:
            graph.add(current_object, predicate, new_subject)
    elif rel or rev:
        current_object = graph.blank()
        incomplete = [(p, True) for p in rel] + [(p, False) for p in rev]
    if properties and new_subject is not None:
        value = _literal_or_node(element, rel or rev, linked, typed if typed_value else None)
        for predicate in properties:
            graph.add(new_subject, predicate, value)
    if not skip and new_subject is not None:
        for predicate, forward in context.incomplete:
            if forward:
                graph.add(context.subject, predicate, new_subject)
            else:
                graph.add(new_subject, predicate, context.subject)
    if typed_value and not types:
        return None
    if skip:
        return replace(context, prefixes=prefixes, vocab=vocab)
    subject = new_subject or context.subject
    return _Context(base, subject, current_object or subject, prefixes, vocab, incomplete, nesting)


def _mappings(element: HtmlElement, context: _Context) -> tuple[dict[str, str], str | None]:
    """The prefixes and default vocabulary in force on an element."""
    vocab = context.vocab
    declared = element.get("vocab")
    if declared is not None:
        declared = declared.strip()
        absolute = _IRI_SCHEME.match(declared)
        vocab = (declared if absolute else urljoin(context.base, declared)) or None
    prefixes = context.prefixes
    namespaces = {k[6:].lower(): v for k, v in element.attrib.items() if k.startswith("xmlns:")}
    declarations = dict(
        (name.lower(), iri) for name, iri in _PREFIX_DECLARATION.findall(element.get("prefix", ""))
    )
    if namespaces or declarations:
        prefixes = {**prefixes, **namespaces, **declarations}
    return prefixes, vocab


def _terms(
    value: str | None, prefixes: dict[str, str], vocab: str | None, *, link: bool = False
) -> list[str]:
    """The IRIs a property, typeof, rel or rev attribute names; tokens that resolve to none
    are left out."""
    if not value:
        return []
    found = []
    for token in value.split():
        iri = _curie_or_iri(token, prefixes)
        if link and iri == token:
            continue  # an absolute URL in rel is an HTML extension link type (api.w.org)
        if iri is None and ":" not in token:
            iri = vocab + token if vocab else (INITIAL_TERMS.get(token.lower()) if link else None)
        if iri is not None:
            found.append(iri)
    return found


def _curie_or_iri(token: str, prefixes: dict[str, str]) -> str | None:
    prefix, colon, reference = token.partition(":")
    if not colon or prefix == "_":
        return None
    if prefix.lower() in prefixes and not reference.startswith("//"):
        return prefixes[prefix.lower()] + reference
    return token if _IRI_SCHEME.match(token) or prefix in ("mailto", "tel", "urn") else None


def _resource(value: str | None, prefixes: dict[str, str], base: str) -> Node | None:
    """about / resource: a [safe CURIE], a blank node, a CURIE, or an IRI relative to base."""
    if value is None:
        return None
    value = value.strip()
    if value.startswith("[") and value.endswith("]"):
        value = value[1:-1]
        iri = _curie_or_iri(value, prefixes)
        return Node(value) if value.startswith("_:") else (Node(iri) if iri else None)
    if value.startswith("_:"):
        return Node(value)
    prefix = value.partition(":")[0].lower()
    if ":" in value and prefix in prefixes and prefix not in ("http", "https"):
        return Node(prefixes[prefix] + value.partition(":")[2])
    return _iri(value, base)


def _iri(value: str | None, base: str) -> Node | None:
    if value is None:
        return None
    try:
        return Node(urljoin(base, value.strip()))
    except ValueError:
        return None


def _literal_or_node(
    element: HtmlElement, links: list[str], linked: Node | None, typed: Node | None
) -> Node | str:
    """A property's value: its content, a time's datetime or a data's value; with a datatype,
    its text; else the resource it links when it has no rel, else the item it types, else its
    text."""
    if element.get("content") is not None:
        return element.get("content")
    for attribute in LITERAL_ATTRIBUTES.get(element.tag, ()):
        if element.get(attribute) is not None:
            return element.get(attribute)
    if element.get("datatype") is None:
        if not links and linked is not None:
            return linked
        if typed is not None:
            return typed
    return element.text_content()


# --- statements → items ----------------------------------------------------------------------


def _items(graph: _Graph, page: Node) -> list[tuple[str, Any]]:
    referenced = {
        value
        for properties in graph.properties.values()
        for values in properties.values()
        for value in values
        if isinstance(value, Node) and value.blank
    }
    items = []
    for subject, properties in graph.properties.items():
        if subject.blank and subject in referenced:
            continue  # written inside the item that refers to it
        if not properties:
            continue
        body = _body(graph, subject, page, {subject})
        types = graph.types.get(subject)
        kind = _short_names(types) if types else ("page" if subject == page else "Thing")
        items.append((kind, body))
    return items


def _body(graph: _Graph, subject: Node, page: Node, path: set[Node]) -> dict[str, Any]:
    body: dict[str, Any] = {}
    if not subject.blank and subject != page:
        body["about"] = subject.name
    for predicate, values in graph.properties.get(subject, {}).items():
        rendered = list(_values(graph, values, page, path))
        if rendered:
            name = short_name(predicate)
            previous = body.get(name)
            merged = [] if previous is None else (
                previous if isinstance(previous, list) else [previous])
            merged += rendered
            body[name] = merged[0] if len(merged) == 1 else merged
    return body


def _values(graph: _Graph, values: list[Node | str], page: Node, path: set[Node]) -> Iterator[Any]:
    """Literals, IRIs, and the blank nodes written inside (none past MAX_NESTED_NODES: a
    chain of hanging rels can be as deep as the page)."""
    for value in values:
        if not isinstance(value, Node):
            yield value
        elif not value.blank:
            yield value.name
        elif value not in path and graph.properties.get(value) and len(path) < MAX_NESTED_NODES:
            body = _body(graph, value, page, path | {value})
            if body:  # empty when all it holds is past the limit
                yield body


def short_name(iri: str) -> str:
    """`name` from http://schema.org/name, `Person` from …/foaf/0.1/Person."""
    return re.split(r"[/#:]", iri.rstrip("/#:"))[-1] or iri


def _short_names(iris: list[str]) -> str:
    return ",".join(short_name(iri) for iri in iris)

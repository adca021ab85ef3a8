"""Bytes in, an lxml tree out: charset, decoding and parsing that never raise.

The charset comes from, in order: a byte-order mark, the Content-Type header, a <meta> charset
declaration near the top, valid UTF-8, and last a statistical guess (charset-normalizer).
Bytes the chosen charset cannot decode become U+FFFD. The tree is parsed with libxml2's HTML
parser in recover and huge-tree mode; what that parser still cuts is reported as a note rather
than lost silently: a stop (nesting beyond 2048 levels is one) from its error log, other drops by
comparing the text in the input with the text in the tree.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field

import charset_normalizer
import lxml.etree
import lxml.html
from lxml.html import HtmlElement

_BOMS = (
    (codecs.BOM_UTF8, "utf-8"),
    (codecs.BOM_UTF16_LE, "utf-16-le"),
    (codecs.BOM_UTF16_BE, "utf-16-be"),
)
_HEADER_CHARSET = re.compile(r"charset\s*=\s*[\"']?([^\s;\"']+)", re.IGNORECASE)
_META_CHARSET = re.compile(
    rb"<meta[^>]+charset\s*=\s*[\"']?\s*([a-zA-Z0-9_.:-]+)", re.IGNORECASE
)
# Every element is a plain HtmlElement: lxml.html's own lookup picks a class per tag
# (FormElement, InputElement …) in a Python callback each time an element is first touched,
# about 3% of a compile, and nothing here uses those classes. Comments, processing
# instructions and entities keep lxml.html's.
_ELEMENT_CLASSES = lxml.etree.ElementDefaultClassLookup(
    element=lxml.html.HtmlElement,
    comment=lxml.html.HtmlComment,
    pi=lxml.html.HtmlProcessingInstruction,
    entity=lxml.html.HtmlEntity,
)
_XML_DECLARATION = re.compile(r"\s*<\?xml[^>]*>")
_TAG = re.compile(r"<[^>]*>")
# How far into the document a <meta charset> is looked for.
META_PRESCAN_BYTES = 4096
# How much of the document charset detection reads.
DETECTION_SAMPLE_BYTES = 64 * 1024
# The tree serialized again is this close to the source's size on ordinary pages (measured
# 0.82-1.00 over the readability corpus); shorter, and its text is compared with the source's.
SERIALIZED_KEPT_FLOOR = 0.8
# The tree may hold less text than the input (entities, markup-like text in scripts); below
# this share of the input's text, the parser lost some.
TEXT_KEPT_FLOOR = 0.9

# WHATWG encoding labels that Python spells differently or that browsers read as another
# encoding (latin-1 labels mean windows-1252).
_LABEL_ALIASES = {
    "iso-8859-1": "cp1252", "iso8859-1": "cp1252", "latin1": "cp1252", "latin-1": "cp1252",
    "l1": "cp1252", "ascii": "cp1252", "us-ascii": "cp1252", "windows-1252": "cp1252",
    "x-sjis": "shift_jis", "x-gbk": "gbk", "gb2312": "gbk", "x-euc-jp": "euc_jp",
    "unicode": "utf-16", "x-user-defined": "cp1252", "utf8": "utf-8",
}
# A <meta> that says UTF-16 is read in an ASCII-compatible document, so it cannot be right:
# browsers take UTF-8 then (an HTTP header saying UTF-16 is believed).
_META_OVERRIDES = {"utf-16": "utf-8", "utf-16-le": "utf-8", "utf-16-be": "utf-8"}


@dataclass
class ParsedDocument:
    """The parsed tree and what parsing had to say about it (charset guesses, cuts)."""

    root: HtmlElement
    text: str
    encoding: str
    notes: list[str] = field(default_factory=list)


def _codec(label: str) -> str | None:
    """A Python codec name for a charset label, or None if unknown."""
    name = label.strip().strip("\"'").lower()
    name = _LABEL_ALIASES.get(name, name)
    try:
        return codecs.lookup(name).name
    except LookupError:
        return None


def _declared_charset(data: bytes, content_type: str) -> str | None:
    match = _HEADER_CHARSET.search(content_type or "")
    if match and (codec := _codec(match.group(1))):
        return codec
    match = _META_CHARSET.search(data[:META_PRESCAN_BYTES])
    if match and (codec := _codec(match.group(1).decode("ascii", "replace"))):
        return _META_OVERRIDES.get(codec, codec)
    return None


def decode(data: bytes, content_type: str = "") -> tuple[str, str, list[str]]:
    """Bytes → (text, codec name, notes). Never raises; undecodable bytes become U+FFFD.

    Bytes that are valid UTF-8 and not plain ASCII are read as UTF-8 whatever the page
    declares: multi-byte UTF-8 sequences do not happen by accident, and pages re-saved as UTF-8
    while keeping an old declaration are common."""
    notes: list[str] = []
    for bom, codec in _BOMS:
        if data.startswith(bom):
            return data[len(bom):].decode(codec, "replace"), codec, notes
    declared = _declared_charset(data, content_type)
    if not data.isascii():
        try:
            text = data.decode("utf-8")
        except UnicodeDecodeError:
            pass
        else:
            if declared not in (None, "utf-8"):
                notes.append(f"declared charset {declared}, but the bytes are UTF-8; read as UTF-8")
            return text, "utf-8", notes
    codec = declared
    if codec is None:
        if data.isascii():
            return data.decode("ascii"), "utf-8", notes
        best = charset_normalizer.from_bytes(data[:DETECTION_SAMPLE_BYTES]).best()
        codec = (_codec(best.encoding) if best is not None else None) or "cp1252"
        notes.append(f"charset not declared; decoded as {codec} (guessed)")
    try:
        return data.decode(codec), codec, notes
    except UnicodeDecodeError:
        notes.append(f"bytes that are not valid {codec} were replaced with U+FFFD")
        return data.decode(codec, "replace"), codec, notes


def _parser_input(text: str) -> bytes:
    """UTF-8 bytes lxml accepts: no encoding declaration (lxml refuses one in a str, and the
    bytes are UTF-8 whatever it said), lone surrogates replaced."""
    declaration = _XML_DECLARATION.match(text)
    if declaration:
        text = text[declaration.end():]
    return text.encode("utf-8", "replace")


def _visible_chars(text: str) -> int:
    """Characters other than ASCII whitespace (str.count is far faster than a regex here)."""
    return len(text) - sum(text.count(space) for space in " \n\t\r\f")


def _text_lost(source: bytes, root: HtmlElement) -> bool:
    """Whether the tree holds clearly less than the source, i.e. the parser dropped some.

    First the tree serialized again against the source (cheap; the two differ by a few percent
    on ordinary pages), and only when that is short, the text in both: the markup count alone
    can mislead (a page's spelling of attributes and entities), the text count alone too (a
    `>` inside an attribute value looks like the end of a tag)."""
    floor = SERIALIZED_KEPT_FLOOR * len(source)
    # UTF-8 first: cheaper to write, and never longer than the ASCII serialization, which
    # spells every other character as an entity; that one decides only below the floor.
    if len(lxml.etree.tostring(root, method="html", encoding="utf-8")) >= floor:
        return False
    if len(lxml.etree.tostring(root, method="html")) >= floor:
        return False
    source_chars = _visible_chars(_TAG.sub("", source.decode("utf-8", "replace")))
    if source_chars == 0:
        return False
    tree_chars = _visible_chars(lxml.etree.tostring(root, method="text", encoding="unicode"))
    return tree_chars < TEXT_KEPT_FLOOR * source_chars


def _empty_root() -> HtmlElement:
    return lxml.html.document_fromstring("<html><body></body></html>")


def parse(data: bytes | str, content_type: str = "") -> ParsedDocument:
    """Decode and parse a document; never raises. An empty or unparsable input gives an empty
    <html><body> tree."""
    if isinstance(data, str):
        text, encoding, notes = data, "utf-8", []
    else:
        text, encoding, notes = decode(data, content_type)
    parser = lxml.html.HTMLParser(huge_tree=True, recover=True, encoding="utf-8")
    parser.set_element_class_lookup(_ELEMENT_CLASSES)
    source = _parser_input(text)
    try:
        root = lxml.html.document_fromstring(source, parser=parser)
    except (lxml.etree.ParserError, ValueError, TypeError):
        root = None
    if root is None or not isinstance(root.tag, str):
        return ParsedDocument(_empty_root(), text, encoding, notes)
    stopped = [e.message for e in parser.error_log if e.level_name == "FATAL"]
    if stopped:
        notes.append(f"the HTML parser stopped early ({stopped[0].strip()}); text after that point is missing")
    elif _text_lost(source, root):
        notes.append("the HTML parser dropped part of the text (a malformed region); the rest is kept")
    return ParsedDocument(root, text, encoding, notes)

"""CSS selector lists parsed into cssselect's own objects (`cssselect.parse`), most of them
without cssselect's tokenizer.

The stylesheet pass (stylesheets.py) parses every selector list of a page's rules that may
match: hundreds on a big site, on which cssselect's tokenizer (Python calls per token) spent up
to 9 ms. The plain lists, 99 % of those met in the corpora, are built here from one regular
expression's pieces, as the same objects down to an attribute value's position; the rest is
cssselect's.
"""

from __future__ import annotations

import re

import cssselect
from cssselect.parser import (
    Attrib,
    Class,
    CombinedSelector,
    Element,
    Hash,
    Negation,
    Pseudo,
    Selector,
    Token,
    unescape_ident,
)

__all__ = ["parse_selectors"]

# Selector lists of the plain kinds (tags, classes, ids, attribute tests, pseudo-classes
# without arguments, :not() of one compound, a pseudo-element at the end) are built here, as the
# objects cssselect's parser would build, about four times faster; anything else (other
# functions, hexadecimal escapes, namespaces, attribute flags, comments, mistakes) is left to
# cssselect. Names are cssselect's: ASCII name characters, other escaped characters, and
# non-ASCII ones. (NUL and surrogates, which cssselect replaces first, go to cssselect.)
_NAME_CHARS = "_a-zA-Z0-9\\-\u0080-\ud7ff\ue000-\U0010ffff"
_ESCAPED = r"\\[^\n\r\f0-9a-fA-F\0\ud800-\udfff]"
_NAME_REST = rf"[{_NAME_CHARS}]*+(?:{_ESCAPED}[{_NAME_CHARS}]*+)*+"
_PLAIN_IDENT = rf"-?(?:[_a-zA-Z\u0080-\ud7ff\ue000-\U0010ffff]|{_ESCAPED}){_NAME_REST}"
_PLAIN_SPACE = "[ \t\r\n\f]*+"
_PLAIN_STRING = r""""[^"\\\n\r\f\0\ud800-\udfff]*+"|'[^'\\\n\r\f\0\ud800-\udfff]*+'"""
_PLAIN_PIECE = re.compile(
    rf"(?P<class>\.{_PLAIN_IDENT})|(?P<space>[ \t\r\n\f]+)|(?P<tag>{_PLAIN_IDENT}|\*)"
    rf"|(?P<combinator>[>+~])|(?P<comma>,)|(?P<id>#(?:[{_NAME_CHARS}]|{_ESCAPED}){_NAME_REST})"
    rf"|(?P<element>::{_PLAIN_IDENT})|(?P<negation>:[nN][oO][tT]\({_PLAIN_SPACE})"
    rf"|(?P<pseudo>:{_PLAIN_IDENT})"
    rf"|(?P<attribute>\[{_PLAIN_SPACE}(?P<attribute_name>{_PLAIN_IDENT}){_PLAIN_SPACE}"
    rf"(?:(?P<operator>[~|^$*!]?=){_PLAIN_SPACE}"
    rf"(?P<attribute_value>{_PLAIN_IDENT}|{_PLAIN_STRING}){_PLAIN_SPACE})?\])"
    rf"|(?P<other>.)", re.DOTALL)
# How many characters mark each kind of piece before its name.
_MARKS = {"class": 1, "id": 1, "pseudo": 1, "element": 2, "tag": 0}
# Pseudo-elements CSS 2.1 wrote with one colon; :scope, which cssselect checks for its place.
_OLD_PSEUDO_ELEMENTS = frozenset({"first-line", "first-letter", "before", "after"})
_PLACED_PSEUDO = "scope"


class _NotPlain(Exception):
    """A selector list the plain parser leaves to cssselect."""


def parse_selectors(text: str) -> list[Selector]:
    """cssselect.parse(text), the plain selector lists built directly."""
    try:
        return _parse_plain(text)
    except _NotPlain:
        return cssselect.parse(text)


def _parse_plain(text: str) -> list[Selector]:
    selectors: list[Selector] = []
    tree: object = None  # the selector so far
    compound: object = None  # the compound selector being read
    combinator = ""  # the one before `compound`, once seen ("" for none yet)
    pseudo_element: str | None = None
    position = 0
    while position < len(text):
        piece = _PLAIN_PIECE.match(text, position)
        position = piece.end()
        kind = piece.lastgroup
        if kind in ("space", "combinator", "comma"):
            if compound is not None:
                tree = compound if tree is None else CombinedSelector(tree, combinator, compound)
                compound, combinator = None, " "
            if kind == "combinator":
                if tree is None or combinator != " ":
                    raise _NotPlain  # a combinator without a selector before it, or two
                combinator = piece.group()
            elif kind == "comma":
                if tree is None or combinator != " ":
                    raise _NotPlain
                selectors.append(Selector(tree, pseudo_element))
                tree, combinator, pseudo_element = None, "", None
            continue
        if pseudo_element is not None or kind == "other":
            raise _NotPlain  # something after a pseudo-element, or not plain at all
        if kind == "negation":
            negated, position = _plain_negated(text, position)
            compound = Negation(Element(None, None) if compound is None else compound, negated)
            continue
        compound, pseudo_element = _plain_simple(compound, piece)
    if compound is not None:
        tree = compound if tree is None else CombinedSelector(tree, combinator, compound)
    elif tree is None or combinator != " ":
        raise _NotPlain  # empty, or ending in a combinator or a comma
    selectors.append(Selector(tree, pseudo_element))
    return selectors


def _plain_negated(text: str, position: int) -> tuple[object, int]:
    """The one compound of a `:not(` whose argument starts at `position`, and where the text
    after its `)` starts."""
    compound: object = None
    spaced = False  # spaces after the compound: only `)` may follow
    while position < len(text):
        piece = _PLAIN_PIECE.match(text, position)
        position = piece.end()
        kind = piece.lastgroup
        if kind == "other" and piece.group() == ")" and compound is not None:
            return compound, position
        if kind == "space" and compound is not None and not spaced:
            spaced = True
            continue
        if spaced or kind not in ("tag", "class", "id", "pseudo", "attribute"):
            break  # combinators, nesting, pseudo-elements: cssselect's
        compound, pseudo_element = _plain_simple(compound, piece)
        if pseudo_element is not None:
            break
    raise _NotPlain


def _plain_simple(compound: object, piece: re.Match) -> tuple[object, str | None]:
    """The compound with one more simple selector (a tag piece only starts one), or the
    compound and the pseudo-element a piece names."""
    kind = piece.lastgroup
    if kind == "attribute":
        return _plain_attribute(Element(None, None) if compound is None else compound,
                                piece), None
    name = piece.group(kind)[_MARKS[kind]:]
    if "\\" in name:
        name = unescape_ident(name)
    if kind == "tag":
        if compound is not None:
            raise _NotPlain  # a tag inside a compound
        return Element(None, None if name == "*" else name), None
    if compound is None:
        compound = Element(None, None)
    if kind == "class":
        return Class(compound, name), None
    if kind == "id":
        return Hash(compound, name), None
    if kind == "element" or name.lower() in _OLD_PSEUDO_ELEMENTS:
        return compound, name
    if name.lower() == _PLACED_PSEUDO:
        raise _NotPlain
    return Pseudo(compound, name), None


def _plain_attribute(compound: object, piece: re.Match) -> Attrib:
    name = piece.group("attribute_name")
    if "\\" in name:
        name = unescape_ident(name)
    operator = piece.group("operator")
    if operator is None:
        return Attrib(compound, None, name, "exists", None)
    value = piece.group("attribute_value")
    if value[0] in "\"'":
        token = Token("STRING", value[1:-1], piece.start("attribute_value"))
    else:
        token = Token("IDENT", unescape_ident(value) if "\\" in value else value,
                      piece.start("attribute_value"))
    return Attrib(compound, None, name, operator, token)

"""DOM helpers shared by the walker and the constructors: visibility and plain text."""

from __future__ import annotations

import functools
import re

from lxml.html import HtmlElement

# Control characters left once whitespace is squashed (C0, DEL, C1): never page text, and
# escape sequences must not reach a terminal that cats a file.
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")
_CONTROL_BUT_TAB = re.compile(r"[\x00-\x08\x0a-\x1f\x7f-\x9f]")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)
# Text under these is never shown as page text.
_UNRENDERED = frozenset({"script", "style", "template", "noscript"})


def squash(text: str) -> str:
    """Collapse runs of whitespace to one space, trim, and drop control characters."""
    text = " ".join(text.split())
    return text if text.isprintable() else _CONTROL.sub("", text)


def short_text(element: HtmlElement, limit: int) -> str | None:
    """squash(element.text_content()) if that is at most `limit` characters, else None, from
    only as much of the text as it takes to tell: asked of block after block, a big container's
    whole text made a page's cost grow with the square of its size."""
    pieces: list[str] = []
    size = 0
    check_at = limit
    for piece in element.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > check_at:
            if len(squash("".join(pieces))) > limit:
                return None  # squashing more text never shortens it
            check_at = 2 * size  # mostly spaces so far: look again when it has doubled
    text = squash("".join(pieces))
    return text if len(text) <= limit else None


def without_controls(line: str) -> str:
    """A preformatted line as is, minus control characters other than tab."""
    return line if line.isprintable() else _CONTROL_BUT_TAB.sub("", line)


def first_descendant(element: HtmlElement, tags: frozenset[str]) -> HtmlElement | None:
    """The first element below `element` whose tag is one of `tags`. A loop, not
    iterdescendants(*tags): lxml builds its tag matcher anew on every such call, which costs
    several times a short walk (it was a tenth of compiling a page of 2,000 clickable rows)."""
    for inner in element.iterdescendants():
        if inner.tag in tags:
            return inner
    return None


def is_hidden(element: HtmlElement) -> bool:
    """Hidden from people by the element itself: `hidden`, aria-hidden, inline display:none or
    visibility:hidden, `<input type=hidden>`, a closed `<dialog>`. Ancestors are the walker's
    business (it does not descend into them)."""
    if element.get("hidden") is not None:
        return True
    aria_hidden = element.get("aria-hidden")
    if aria_hidden and aria_hidden.strip().lower() == "true":
        return True
    style = element.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    tag = element.tag
    if tag == "input":
        return element.get("type", "").strip().lower() == "hidden"
    return tag == "dialog" and element.get("open") is None


def plain_text(element: HtmlElement, limit: int | None = None, *, seen_only: bool = False) -> str:
    """The element's visible text, squashed, without registering any object. With
    `seen_only`, also without visually hidden descendants (see visually_hidden): for a
    heading's name, which becomes a file name.

    Iterative (an explicit stack), so a document nested thousands of levels deep cannot hit
    Python's recursion limit. With `limit`, at most about that many characters are gathered
    (enough to tell that a would-be heading is too long), so asking about every level of a
    deep nest stays cheap."""
    parts: list[str] = []
    budget = limit if limit is not None else -1
    stack: list[HtmlElement | str] = [element]
    root = True
    while stack and budget != 0:
        item = stack.pop()
        if isinstance(item, str):
            text = item
        else:
            if not root and item.tail:
                stack.append(item.tail)
            root = False
            if not isinstance(item.tag, str) or item.tag in _UNRENDERED or is_hidden(item):
                continue
            if seen_only and item is not element and visually_hidden(item):
                continue
            stack.extend(item[::-1])  # a slice: faster than reversed() on an element
            text = item.text
            if not text:
                continue
        if budget > 0:
            text = text[:budget]
            budget -= len(text)
        parts.append(text)
    return squash(" ".join(parts))


# --- visually hidden: on the page for machines, not shown to people -------------------------

# Class words of the usual "screen-reader only" utilities (Bootstrap, WordPress, Drupal, HTML5
# Boilerplate…). Their `-focusable` variants appear on focus (skip links) and are not listed.
VISUALLY_HIDDEN_CLASSES = frozenset({
    "sr-only", "visually-hidden", "visuallyhidden", "screen-reader-text", "screen-reader-only",
    "screenreader-only", "sr-text", "element-invisible", "hidden-visually", "u-hidden-visually",
    "u-visually-hidden", "a11y-hidden", "offscreen", "off-screen",
})
# Class attribute values whose answer is remembered.
CLASS_CACHE_SIZE = 4096
# Set by the browser capture on elements its layout shows nowhere (scripts.py SNAPSHOT).
UNSEEN_ATTRIBUTE = "data-wsfs-unseen"
# Set by the browser capture on elements fixed to the window, with where they sit on it
# (top, bottom, side, over): they stay put while the page scrolls under them.
FIXED_ATTRIBUTE = "data-wsfs-fixed"
# Beyond this many pixels to the left or above, a box is off the page for good.
OFF_SCREEN_PX = -1000.0
_PX_PER_UNIT = {"px": 1.0, "": 1.0, "em": 16.0, "rem": 16.0, "pt": 4 / 3, "pc": 16.0,
                "in": 96.0, "cm": 96 / 2.54, "mm": 96 / 25.4, "vw": 10.0, "vh": 10.0}
_LENGTH = re.compile(r"^\s*(-?\d*\.?\d+)\s*([a-z%]*)\s*(?:!important)?\s*$")
_NUMBERS = re.compile(r"-?\d*\.?\d+")


def inline_style(element: HtmlElement) -> dict[str, str]:
    """The element's `style` attribute as property → value (lower case; the last one wins)."""
    declarations: dict[str, str] = {}
    for declaration in element.get("style", "").split(";"):
        name, sep, value = declaration.partition(":")
        if sep:
            declarations[name.strip().lower()] = value.strip().lower()
    return declarations


def _pixels(value: str) -> float | None:
    """A CSS length in (approximate) pixels; None if it is not a plain length."""
    match = _LENGTH.match(value)
    if match is None or match.group(2) not in _PX_PER_UNIT and match.group(2) != "%":
        return None
    number = float(match.group(1))
    return number if match.group(2) == "%" else number * _PX_PER_UNIT[match.group(2)]


def _is_zero(value: str | None) -> bool:
    return value is not None and _pixels(value) == 0.0


def _off_screen(style: dict[str, str]) -> bool:
    """Positioned far to the left or above (`left:-9999px`), or text pushed out by
    `text-indent:-9999px`."""
    indent = _pixels(style.get("text-indent", ""))
    if indent is not None and indent <= OFF_SCREEN_PX:
        return True
    if style.get("position") not in ("absolute", "fixed"):
        return False
    return any((px := _pixels(style.get(side, ""))) is not None and px <= OFF_SCREEN_PX
               for side in ("left", "top", "right", "margin-left", "margin-top"))


def _zero_font(element: HtmlElement, style: dict[str, str]) -> bool:
    """font-size 0, unless a descendant sets a size of its own (the inline-block whitespace
    trick: the parent's 0 only hides the spaces between its children)."""
    if not _is_zero(style.get("font-size")):
        return False
    return not any("font-size" in inline_style(child)
                   for child in element.iterdescendants() if child.get("style"))


def _zero_size(style: dict[str, str]) -> bool:
    """A box at most one pixel wide or high whose overflow is cut off."""
    cut = any(style.get(name, "") in ("hidden", "clip")
              for name in ("overflow", "overflow-x", "overflow-y"))
    tiny = any((px := _pixels(style.get(name, ""))) is not None and px <= 1
               for name in ("width", "height", "max-width", "max-height"))
    return cut and tiny


def _clipped(style: dict[str, str]) -> bool:
    """`clip: rect(0 0 0 0)` (or any rect of no area) and `clip-path: inset(50%)`."""
    clip = style.get("clip", "")
    if clip.startswith("rect("):
        numbers = [float(n) for n in _NUMBERS.findall(clip)]
        if len(numbers) == 4 and (numbers[0] >= numbers[2] or numbers[3] >= numbers[1]):
            return True
    clip_path = style.get("clip-path", "")
    if clip_path.startswith("inset("):
        numbers = [float(n) for n in _NUMBERS.findall(clip_path)]
        return bool(numbers) and "%" in clip_path and numbers[0] >= 50
    return False


_NOT_A_COLOUR = frozenset({"inherit", "initial", "unset", "revert", "currentcolor"})


def _invisible_ink(style: dict[str, str]) -> bool:
    """Transparent text, or text in the colour of its own background (white on white)."""
    colour = style.get("color")
    if colour is None or colour in _NOT_A_COLOUR:
        return False
    return colour == "transparent" or colour == style.get("background-color",
                                                          style.get("background"))


def _transparent(style: dict[str, str]) -> bool:
    """`opacity: 0` (or 0%): painted, but not visibly."""
    match = _LENGTH.match(style.get("opacity", ""))
    return match is not None and match.group(2) in ("", "%") and float(match.group(1)) <= 0


_VISUALLY_HIDDEN_STYLES = (_off_screen, _zero_size, _clipped, _invisible_ink, _transparent)


def hidden_by_style(style: dict[str, str]) -> bool:
    """Whether these (lower-case) declarations put an element out of sight: off-screen, no
    size, clipped away, invisible ink or no opacity. Not font-size (see _zero_font), display
    or visibility (the caller's business: inline they drop the element, see is_hidden)."""
    return any(rule(style) for rule in _VISUALLY_HIDDEN_STYLES)


def zero_font_size(style: dict[str, str]) -> bool:
    """`font-size: 0` (the caller checks whether descendants set a size of their own)."""
    return _is_zero(style.get("font-size"))


def is_assistive_math(element: HtmlElement) -> bool:
    """A formula's MathML kept out of sight beside the drawing of it (MathJax draws each symbol
    with a stylesheet glyph, elements without text, and clips the MathML away for screen
    readers): the text of what people see drawn, so it is read where it stands, not set aside
    as hidden. Only beside such a drawing: hidden MathML alone is hidden text like any."""
    children = [child for child in element if isinstance(child.tag, str)]
    if element.tag != "math" and not (
            len(children) == 1 and children[0].tag == "math"
            and not (element.text or "").strip() and not (children[0].tail or "").strip()):
        return False
    parent = element.getparent()
    return parent is not None and any(
        sibling is not element and isinstance(sibling.tag, str) and len(sibling)
        and not sibling.text_content().strip() for sibling in parent)


@functools.lru_cache(maxsize=CLASS_CACHE_SIZE)
def _screen_reader_only(classes: str) -> bool:
    """By class attribute value: pages repeat the same classes on many elements."""
    return not VISUALLY_HIDDEN_CLASSES.isdisjoint(classes.lower().split())


def visually_hidden(element: HtmlElement) -> bool:
    """On the page but not shown to people: a screen-reader-only class, an inline style that
    moves the element off-screen, shrinks it to nothing, clips it away, makes it fully
    transparent or paints text in its background colour, or the mark for what the browser's
    layout showed nowhere or the page's own stylesheet hides (stylesheets.py).
    Such text is for assistive technology at best and a hidden instruction at worst, so the
    walker keeps it out of content/ (boilerplate/hidden.md). Unlike `is_hidden` this does not
    drop the element: action labels still read it."""
    if element.get(UNSEEN_ATTRIBUTE) is not None:
        return True
    classes = element.get("class")
    if classes and _screen_reader_only(classes):
        return True
    if not element.get("style"):
        return False
    style = inline_style(element)
    return _zero_font(element, style) or hidden_by_style(style)

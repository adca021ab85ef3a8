"""DOM helpers shared by the walker and the constructors: visibility and plain text."""

from __future__ import annotations

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


def without_controls(line: str) -> str:
    """A preformatted line as is, minus control characters other than tab."""
    return line if line.isprintable() else _CONTROL_BUT_TAB.sub("", line)


def is_hidden(element: HtmlElement) -> bool:
    """Hidden from people by the element itself: `hidden`, aria-hidden, inline display:none or
    visibility:hidden, `<input type=hidden>`, a closed `<dialog>`. Ancestors are the walker's
    business (it does not descend into them)."""
    if element.get("hidden") is not None:
        return True
    if element.get("aria-hidden", "").strip().lower() == "true":
        return True
    style = element.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    tag = element.tag
    if tag == "input":
        return element.get("type", "").strip().lower() == "hidden"
    return tag == "dialog" and element.get("open") is None


def plain_text(element: HtmlElement, limit: int | None = None) -> str:
    """The element's visible text, squashed, without registering any object.

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
            stack.extend(reversed(item))
            text = item.text
            if not text:
                continue
        if budget > 0:
            text = text[:budget]
            budget -= len(text)
        parts.append(text)
    return squash(" ".join(parts))

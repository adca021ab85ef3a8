"""DOM helpers shared by the walker and the constructors: visibility and plain text."""

from __future__ import annotations

import re

from lxml.html import HtmlElement

_WHITESPACE = re.compile(r"\s+")
_HIDDEN_STYLE = re.compile(r"display\s*:\s*none|visibility\s*:\s*hidden", re.IGNORECASE)


def squash(text: str) -> str:
    """Collapse runs of whitespace to one space and trim."""
    return _WHITESPACE.sub(" ", text).strip()


def is_hidden(element: HtmlElement) -> bool:
    """Hidden from people by the element itself: `hidden`, aria-hidden, inline display:none,
    `<input type=hidden>`. Ancestors are the walker's business (it does not descend into them)."""
    if element.get("hidden") is not None:
        return True
    if element.get("aria-hidden", "").strip().lower() == "true":
        return True
    style = element.get("style")
    if style and _HIDDEN_STYLE.search(style):
        return True
    return element.tag == "input" and element.get("type", "").strip().lower() == "hidden"


def plain_text(element: HtmlElement) -> str:
    """The element's visible text, squashed, without registering any object."""
    parts: list[str] = []

    def visit(node: HtmlElement) -> None:
        if not isinstance(node.tag, str) or node.tag in ("script", "style", "template"):
            return
        if is_hidden(node):
            return
        if node.text:
            parts.append(node.text)
        for child in node:
            visit(child)
            if child.tail:
                parts.append(child.tail)

    visit(element)
    return squash(" ".join(parts))

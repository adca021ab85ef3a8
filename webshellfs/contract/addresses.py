"""Page and object addresses: `N0001`, `N0001/A0003`, `N0001/T02`.

Identifiers are assigned in document order by the compiler and never reused within a page;
page numbers are assigned by the store and never reused within a cache.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import NewType

PageId = NewType("PageId", str)

# Stands for the page the caller's last command named (its session's own); the engine resolves it.
LAST_PAGE = PageId("@")

PAGE_RE = re.compile(r"N(\d{4,})")
# Object identifiers by prefix: A actions, L links, I images, R resources, V long values use
# four digits; tables use two (T01) because a page rarely has more than a few dozen.
OBJECT_RE = re.compile(r"(?:[ALIRV]\d{4,}|T\d{2,})")

OBJECT_KINDS = {
    "A": "action",
    "L": "link",
    "I": "image",
    "R": "resource",
    "T": "table",
    "V": "long value",
}


@dataclass(frozen=True)
class ObjectAddress:
    """`N0001/A0003`: an object inside a stored page."""

    page: PageId
    object_id: str

    @property
    def kind(self) -> str:
        return OBJECT_KINDS[self.object_id[0]]

    def __str__(self) -> str:
        return f"{self.page}/{self.object_id}"


def format_page_id(number: int) -> PageId:
    return PageId(f"N{number:04d}")


def parse_page_id(text: str) -> PageId | None:
    """`N0001` (or `@`, LAST_PAGE) → PageId, anything else → None."""
    return PageId(text) if text == LAST_PAGE or PAGE_RE.fullmatch(text) else None


def format_object_id(prefix: str, number: int) -> str:
    width = 2 if prefix == "T" else 4
    return f"{prefix}{number:0{width}d}"


def is_object_id(text: str) -> bool:
    return OBJECT_RE.fullmatch(text) is not None


def parse_object_address(text: str) -> ObjectAddress | None:
    """`N0001/A0003` → ObjectAddress, anything else → None."""
    page, sep, obj = text.partition("/")
    page_id = parse_page_id(page)
    if not sep or page_id is None or not is_object_id(obj):
        return None
    return ObjectAddress(page_id, obj)

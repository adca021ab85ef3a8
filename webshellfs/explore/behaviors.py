"""What a control did when it was tried, in one phrase for behaviors.tsv and the map:
`navigates → URL`, `opens menu: Careers, Press` (what it reveals in the chrome), `opens dialog
"Size guide"`, `shows: Five stars …` (what it reveals in the main text: a tab's panel, a
disclosure), `changes: content/01-shoe.md`, `nothing`.

It is read from what the engine's live execute path reports (a new page, a new state and its
changed files, or nothing changed; the lines that appeared) and from the page as compiled
before the click: the text the compiler marked `[hidden until A0004 …]` is what that control
reveals. A menu is read from the lines that appeared in the navigation files (menus.py), so a
mega menu's columns keep their headings: `opens menu: Footwear: Trail shoes, Boots · Gear: Tent`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webshellfs.contract.records import CompiledPage
from webshellfs.explore.menus import Menu, menu_of

__all__ = ["Tried", "effect_of", "menu_phrase", "revealed_by"]

ITEMS_SHOWN = 8
COLUMN_ITEMS_SHOWN = 4
ITEM_CHARS = 40
FILES_SHOWN = 4
POPUP_REGIONS = frozenset({"popup"})
_MODAL = re.compile(r'a modal dialog is open \("([^"]*)"\)')
_MARK = re.compile(r"\[hidden until [^\]]*\]")
_REF = re.compile(r"\[[LIT]\d+\]|\[A\d{4} [^\]]*\]")


@dataclass(frozen=True)
class Tried:
    """What the engine reports after one control was clicked on a freshly loaded page.

    how: page (another URL), state (the page changed), earlier (changed to a state seen
    before), unchanged, or failed (`note` says why); page/url: where the tab ended; changed:
    the files that changed, were added or removed; dialogs: what a JavaScript dialog said
    (dismissed); new_tabs: tabs it opened (closed again); map_text: the result's _map.md;
    appeared: the lines of the result's files that the page before lacked, as (file, line,
    the URL of its link or ""); reloaded: the page was loaded again to be tried (it had no
    tab, or its tab had been closed)."""

    how: str
    page: str = ""
    url: str = ""
    changed: tuple[str, ...] = ()
    dialogs: tuple[str, ...] = ()
    new_tabs: int = 0
    map_text: str = ""
    note: str = ""
    appeared: tuple[tuple[str, str, str], ...] = ()
    reloaded: bool = False


def revealed_by(page: CompiledPage, action_id: str) -> tuple[str, list[str]]:
    """The region (or "content") and the items of the text the control reveals."""
    mark = f"[hidden until {action_id} "
    region, items = "", []
    for section in page.sections:
        for line in section.lines:
            if mark not in line:
                continue
            region = region or (section.name if section.kind == "boilerplate" else "content")
            text = " ".join(_REF.sub("", _MARK.sub("", line)).split()).lstrip("-*+ ").strip()
            if text and text not in items:
                items.append(text[:ITEM_CHARS])
    return region, items


def _listed(items: list[str], shown: int = ITEMS_SHOWN) -> str:
    more = f" … {len(items) - shown} more" if len(items) > shown else ""
    return ", ".join(items[:shown]) + more


def menu_phrase(menu: Menu) -> str:
    """`Careers, Press`, or a mega menu's columns: `Footwear: Trail shoes, Boots · Gear: Tent`."""
    if not menu.headed:
        return _listed([words for words, _ in menu.items])
    return " · ".join(
        (f"{heading}: " if heading else "")
        + _listed([words for words, _ in items], COLUMN_ITEMS_SHOWN)
        for heading, items in menu.columns)


def effect_of(page: CompiledPage, control_id: str, tried: Tried, label: str = "") -> str:
    """One phrase for what trying a control (its id on page, "" for words; its label) did."""
    if tried.how == "failed":
        return f"not tried: {tried.note}"
    said = "".join(f'; raised a dialog "{d[:ITEM_CHARS]}" (dismissed)' for d in tried.dialogs)
    if tried.new_tabs:
        return f"opens a new tab ({tried.new_tabs}, closed again){said}"
    if tried.how == "page":
        return f"navigates → {tried.url}{said}"
    modal = _MODAL.search(tried.map_text)
    if modal:
        return f'opens dialog "{modal.group(1)}"{said}'
    if tried.how == "unchanged":
        return f"nothing{said}"
    region, items = revealed_by(page, control_id) if control_id else ("", [])
    if region in POPUP_REGIONS and items:
        return f'opens dialog "{items[0]}"{said}'
    if items and region == "content":  # a tab's panel, a disclosure's text
        return f"shows: {_listed(items)}{said}"
    menu = menu_of(tried.appeared, label)
    if menu.items:
        return f"opens menu: {menu_phrase(menu)}{said}"
    if items:
        return f"opens menu: {_listed(items)}{said}"
    changed = tried.changed
    more = f" … {len(changed) - FILES_SHOWN} more" if len(changed) > FILES_SHOWN else ""
    return f"changes: {', '.join(changed[:FILES_SHOWN])}{more}{said} (→ {tried.page})"

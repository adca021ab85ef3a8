"""Menus a person opens by pointing at them: which items of a page's top navigation are
hovered, and what a try made appear, read as a menu (a mega menu's columns by their headings).

A dropdown shown by a stylesheet's `:hover`, or by a script's mouseenter on the list item
around a link, has its items out of the page's files until the pointer rests on it; a live
capture makes the item a `hover target` (`- [A0003 hover target "Company"] Company`), a page
compiled without a browser says nothing of it. So the exploration points at every top-level
item of the navigation regions, as a person sweeps a menu bar, and reads what appeared; items
of a small menu it opened are pointed at in turn (a nested menu). Controls the compiler marked
as answering to hover (a `hover target`, or `on: hover` in their context) are pointed at too,
wherever they are.

The lines a try made appear come from the engine (`Tried.appeared`: file, line, the URL of
the line's link): in a navigation file, a line without a link or control that is not a list
item is a column's heading (`Footwear`, or `### Footwear`), the list items under it its items.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from webshellfs.contract.layout import HOVER_CONTROL
from webshellfs.contract.records import CompiledPage

__all__ = ["HOVERS_PER_SITE", "Menu", "Pointed", "hover_candidates", "menu_of", "pointed_in"]

HOVER_REGIONS = frozenset({"nav", "header"})
HOVERS_PER_PAGE = 10
# A region with more top-level items than this is a list of links (a documentation site's
# sidebar), not a menu bar: a person reads it rather than sweeping it.
MENU_BAR_ITEMS = 12
# Hovers for a whole site: the menu bar is the site's chrome, met on its first pages.
HOVERS_PER_SITE = 40
# A menu of at most this many items has each pointed at, for a submenu (a mega menu's
# columns of links are read, not swept).
NESTED_ITEMS = 8
NAVIGATION_PREFIX = "boilerplate/"
ITEM_CHARS = 40
_LINK = re.compile(r"\[(L\d{4})\]")
_ACTION = re.compile(r'\[(A\d{4}) [^"\]]*"((?:[^"\\]|\\.)*)"[^\]]*\]')
_REF = re.compile(r"\[[LIT]\d+\]|\[A\d{4} [^\]]*\]")
HIDDEN_MARK = "[hidden until"
_MARK = re.compile(r"\[hidden until [^\]]*\]\s*")
_HOVER_CONTEXT = re.compile(r"\bon: [^;]*\bhover\b")
_HOVER_TARGET = re.compile(r'\[(A\d{4}) hover target "((?:[^"\\]|\\.)*)"')


@dataclass(frozen=True)
class Pointed:
    """Something to point at: its id on the page (a link or an action; "" where only words
    show it, `Company` over a CSS dropdown), and its words."""

    object_id: str
    words: str
    control: str = ""  # link, or the action's control ("" for words alone)

    @property
    def title(self) -> str:
        """`L0003 link "Products"`, `A0004 "Help"` (a hover target: `hover A0004 "Help"` needs no
        second word for what it is), or `"Company"`."""
        quoted = f'"{self.words}"'
        if not self.object_id:
            return quoted
        kind = "" if self.control == HOVER_CONTROL else f"{self.control} "
        return f"{self.object_id} {kind}{quoted}"


@dataclass(frozen=True)
class Menu:
    """What a try opened: columns of (heading or "", items as (words, URL or ""))."""

    columns: tuple[tuple[str, tuple[tuple[str, str], ...]], ...]
    pointable: tuple[Pointed, ...]  # its items with their ids on the state it opened

    @property
    def items(self) -> list[tuple[str, str]]:
        return [item for _, items in self.columns for item in items]

    @property
    def headed(self) -> bool:
        return any(heading for heading, _ in self.columns)


def _words(line: str) -> str:
    text = _MARK.sub("", line)
    actions = [m.group(2) for m in _ACTION.finditer(text)]
    text = " ".join(_REF.sub("", text).split()).lstrip("#-*+ ").strip()
    return (text or " ".join(actions))[:ITEM_CHARS]


def _pointed(line: str) -> Pointed | None:
    """A list item to point at: the hover target it is (`- [A0003 hover target "Company"]
    Company`), one link (`- Guides [L0002]`) or words alone (`- Company`)."""
    text = _MARK.sub("", line).strip()
    target = _HOVER_TARGET.match(text.removeprefix("- "))
    if text.startswith("- ") and target:
        return Pointed(target.group(1), target.group(2), "hover target")
    if not text.startswith("- ") or _ACTION.search(text):
        return None
    links = _LINK.findall(text)
    words = _words(text)
    if not words or len(links) > 1:
        return None
    return Pointed(links[0], words, "link") if links else Pointed("", words)


def hover_candidates(page: CompiledPage) -> list[Pointed]:
    """The items of the page's menu bars (navigation regions of a few top-level items) at
    their top level, then the controls that answer to hover wherever they are, in page order
    (at most HOVERS_PER_PAGE)."""
    found: list[Pointed] = []
    for section in page.sections:
        if section.kind != "boilerplate" or section.name not in HOVER_REGIONS:
            continue
        items = [pointed for line in section.lines
                 if not line[:1].isspace() and not line.startswith(HIDDEN_MARK)
                 and (pointed := _pointed(line)) is not None]
        if len(items) <= MENU_BAR_ITEMS:
            found += [pointed for pointed in items if pointed not in found]
    for action in page.actions:
        pointed = Pointed(action.id, action.label, action.control)
        if (action.kind == "hover" or _HOVER_CONTEXT.search(action.context)) and (
                pointed not in found):
            found.append(pointed)
    return found[:HOVERS_PER_PAGE]


def menu_of(appeared: tuple[tuple[str, str, str], ...], control: str = "") -> Menu:
    """The menu in the lines a try made appear in the page's navigation files; control: the
    label of what was tried (its own line, now `expanded`, is no item)."""
    columns: list[tuple[str, list[tuple[str, str]]]] = []
    pointable: list[Pointed] = []
    for path, line, url in appeared:
        if not path.startswith(NAVIGATION_PREFIX) or line.lstrip().startswith(HIDDEN_MARK):
            continue  # elsewhere, or still closed: a submenu of the one that opened
        bare = _MARK.sub("", line).strip()
        words = _words(bare)
        own = [m.group(2) for m in _ACTION.finditer(bare)]
        if not words or (control and (words == control[:ITEM_CHARS] or control in own)):
            continue  # the control's own line, changed (`collapsed` → `expanded`)
        is_item = bare.startswith(("- ", "* ", "+ ")) or _LINK.search(bare) or _ACTION.search(
            bare)
        if not is_item:
            columns.append((words, []))
            continue
        if not columns:
            columns.append(("", []))
        columns[-1][1].append((words, url))
        pointed = _pointed(bare)
        if pointed is not None:
            pointable.append(pointed)
    kept = tuple((heading, tuple(items)) for heading, items in columns if items)
    return Menu(kept, tuple(pointable))


def pointed_in(menu: Menu) -> list[Pointed]:
    """The items of an opened menu to point at for a submenu: all of a small plain menu's,
    none of a mega menu's (its columns are read as they are)."""
    if menu.headed or len(menu.items) > NESTED_ITEMS:
        return []
    return list(menu.pointable)

"""Text the page keeps but shows only after an action: other tab panels, collapsed sections,
closed menus. It stays greppable, each line marked with what reveals it:

    [hidden until A0007 link "Team"] Team costs 25 EUR a month for ten seats.

A hidden element is revealable when it is the content of a closed `<details>` (its summary
shows it) or a control names it: `aria-controls` (tabs, disclosures,
menu buttons), `aria-owns` (a tree item's subtree), a tab panel's `aria-labelledby` tab, a link
to `#its-id`, a `data-*` attribute holding its id or `#id` (Bootstrap's `data-bs-target`, a
script's `data-panel="team"`), or it follows a control that says it opens something
(`aria-haspopup`, `aria-expanded`) and names nothing (a menu item's submenu), or it is a list,
menu or dialog right after an element the live page made clickable that names nothing (a
script's folder before its collapsed list, a "more" icon before its closed menu), or it lies
inside or right after an element the live page said answers to hover (a hover menu's list, a
note shown beside its words). When the naming control holds a nameless operable
element of its own (a tree item's expand arrow), that is what reveals it. Other hidden text stays out, as
before: nothing says it ever shows.
Text hidden to mislead people (off-screen, zero-size, transparent) is not this: it goes to
boilerplate/hidden.md.
"""

from __future__ import annotations

from lxml.html import HtmlElement

from webshellfs.compiler.builder import OPERABLE_ATTRIBUTE
from webshellfs.compiler.dom import squash

# Elements whose attributes may name the panel they show (a control, not any element).
# Elements with an attribute are found by its attribute nodes (`//@role/..`): about twice as
# fast as testing every element (`//*[@role]`).
_CONTROL_XPATH = (
    "//@aria-controls/.. | //@aria-owns/.. | //a[starts-with(@href, '#')] | //button"
    " | //@role/.. | //summary"
    " | //@data-wsfs-op/.. | //@onclick/.."
)
# Attributes that never name a panel.
_NOT_NAMING = frozenset({"id", "class", "style", "href", "aria-controls", "aria-owns",
                         "data-wsfs-id", "data-wsfs-op", "role", "type", "name", "value", "title"})


class Revealers:
    """For a hidden element, the control that shows it (None when nothing names it). Built
    once per page, on the first hidden element with an id."""

    def __init__(self, root: HtmlElement) -> None:
        self.root = root
        self._by_id: dict[str, HtmlElement] | None = None

    def of(self, element: HtmlElement) -> HtmlElement | None:
        element_id = (element.get("id") or "").strip()
        if element_id:
            found = self._index().get(element_id)
            if found is not None:
                return _toggle_within(found)
        parent = element.getparent()
        if parent is not None and parent.tag == "details" and element.tag != "summary":
            return next(parent.iterchildren("summary"), None)  # a closed <details>
        labelled = (element.get("aria-labelledby") or "").split()
        if element.get("role") == "tabpanel" and labelled:
            return self._element_with_id(labelled[0])
        previous = element.getprevious()
        if previous is not None and (
                _opens_the_next(previous) or _clicked_open(previous, element)):
            return _toggle_within(previous)  # a menu item's submenu right after it
        # What shows under the pointer: a hover menu's list inside its item, a note after
        # the words that show it (the live page said they answer to hover).
        return next((near for near in (parent, previous)
                     if near is not None and _answers_hover(near)), None)

    def _element_with_id(self, element_id: str) -> HtmlElement | None:
        found = self.root.xpath("//@id[. = $id]/..", id=element_id)
        return found[0] if found else None

    def _index(self) -> dict[str, HtmlElement]:
        if self._by_id is None:
            self._by_id = {}
            for control in self.root.xpath(_CONTROL_XPATH):
                for target in _named_targets(control):
                    self._by_id.setdefault(target, control)
        return self._by_id


def _opens_the_next(control: HtmlElement) -> bool:
    """A control that says it opens something (aria-haspopup, aria-expanded) and names
    nothing: what it opens is the element right after it."""
    if control.get("aria-controls") or control.get("aria-owns"):
        return False
    popup = (control.get("aria-haspopup") or "").strip().lower()
    return popup not in ("", "false") or control.get("aria-expanded") is not None


# Words of the live discovery (browser/discovery.py) that say a click on the element does
# something.
_CLICK_WORDS = frozenset({"click", "pointer", "item"})
# The word for an element a person opens something under by pointing at it.
HOVER_WORD = "hover"


# What a click shows when it lies hidden right after the clicked element: a list, a menu, a
# dialog. Not any hidden sibling (a to-do a filter hides after the one shown, a button shown
# only once something is ticked): nothing says the element before it would show it.
PANEL_TAGS = frozenset({"ul", "ol", "menu", "dl", "dialog"})
PANEL_ROLES = frozenset({"menu", "listbox", "tree", "group", "dialog"})


def _clicked_open(control: HtmlElement, hidden: HtmlElement) -> bool:
    """An element the live page made clickable, naming nothing, right before a hidden list,
    menu or dialog of another kind than itself: a script's folder name before its collapsed
    list, a "more" icon before its closed menu, a button before its closed dialog."""
    if control.get("aria-controls") or control.get("aria-owns") or control.tag == hidden.tag:
        return False
    if hidden.tag not in PANEL_TAGS and (hidden.get("role") or "") not in PANEL_ROLES:
        return False
    return bool(_CLICK_WORDS & set((control.get(OPERABLE_ATTRIBUTE) or "").split()))


def _answers_hover(element: HtmlElement) -> bool:
    return HOVER_WORD in (element.get(OPERABLE_ATTRIBUTE) or "").split()


def _toggle_within(control: HtmlElement) -> HtmlElement:
    """The element to act on to show what control names: a nameless operable element inside
    it (an expand arrow, which the page listens to, where the item itself is a link)."""
    for inner in control.iterdescendants():
        if isinstance(inner.tag, str) and inner.get(OPERABLE_ATTRIBUTE) and not squash(
            inner.text_content()
        ):
            return inner
    return control


def _named_targets(control: HtmlElement) -> list[str]:
    """The ids a control names as what it shows."""
    targets = (control.get("aria-controls") or "").split()
    targets += (control.get("aria-owns") or "").split()
    href = control.get("href") or ""
    if control.tag == "a" and href.startswith("#") and len(href) > 1:
        targets.append(href[1:])
    for name, value in control.attrib.items():
        if name.startswith("data-") and name not in _NOT_NAMING:
            value = value.strip()
            if value and " " not in value:
                targets.append(value.removeprefix("#"))
    return targets

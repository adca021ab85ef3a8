"""Controls the live page showed operable without declaring them: elements with listeners a
person triggers, a pointer cursor, keyboard focus by tabindex, or draggable — as the browser
marked them in the capture (`data-wsfs-op`, browser/discovery.py). Static HTML has no such
marks, so a page compiled offline keeps only its declared controls.

Each such element is one `click` action (`hover` when hovering is all it listens to), named
like any control, with the other gestures it listens for in its context (`on: dblclick
rightclick`), so an agent knows a double-click or a right-click does something there. A wrapper
whose content already holds a control (a link, a button, another found element) is not a
second action: the inner one is what a person clicks — unless the wrapper answers to a gesture
none of its inner controls takes (a to-do item's double-click beside its checkbox), or is
clickable with words of its own beside them (an inbox row's sender and subject beside its star
and trash icons): then a person clicks the wrapper too, and it is an action as well. One that
answers to hover (a menu's item over the dropdown its stylesheet or script shows) is always
an action, named by its words before its controls, else by its first control's (the link the
item holds), never by what the hover shows; a list item's mention starts its line.
"""

from __future__ import annotations

from dataclasses import replace

from lxml import etree
from lxml.html import HtmlElement

from webshellfs.compiler.actions.index import page_index
from webshellfs.compiler.actions.labels import (
    aria_name,
    clip,
    heading_name,
    operable_words,
    text_leaving_out,
)
from webshellfs.compiler.actions.rules import (
    NATIVE_CONTROLS,
    NOT_CLICKABLE_TAGS,
    ROLE_RULES,
    ControlRule,
    role_of,
)
from webshellfs.compiler.actions.widgets import register_widget
from webshellfs.compiler.builder import OPERABLE_ATTRIBUTE, Emitted, PageBuilder
from webshellfs.compiler.dom import first_descendant, is_hidden, plain_text, squash

# The first word an element has decides what it is, in this order.
ROW_RULE = ControlRule("click", "row")
FOUND_RULES: tuple[tuple[str, ControlRule], ...] = (
    ("click", ControlRule("click", "clickable")),
    ("item", ControlRule("click", "clickable")),
    ("pointer", ControlRule("click", "clickable")),
    ("dblclick", ControlRule("click", "clickable")),
    ("rightclick", ControlRule("click", "clickable")),
    ("drag", ControlRule("click", "draggable")),
    ("drop", ControlRule("click", "drop target")),
    ("press", ControlRule("click", "focusable")),
    ("focusable", ControlRule("click", "focusable")),
    ("hover", ControlRule("hover", "hover target")),
)
# Elements that make a line of their own: a clickable row, card or list item reads as one.
BLOCK_TAGS = frozenset(
    {"div", "li", "tr", "p", "section", "article", "dd", "dt", "h1", "h2", "h3", "h4", "h5", "h6"}
)
# Words that only say an element takes keyboard focus.
FOCUS_ONLY = frozenset({"focusable"})
# Elements that stand for a control elsewhere (an option of a select): not actions.
STAND_INS = frozenset({"option", "optgroup"})
# Words that say no more than "clicking it does something": on a label that names a control,
# that something is the control's own action.
CLICK_WORDS = frozenset({"click", "pointer", "item"})
# Words a tab group's frame has: its listeners for clicks and keys serve its tabs.
FRAME_WORDS = frozenset({"click", "press", "pointer", "item", "focusable"})
# Words that say only that the element shows a pointer cursor.
POINTER_ONLY = frozenset({"pointer"})
# How far inside a control with a role a pointer-only box may sit and still be part of it.
WIDGET_PART_DEPTH = 3
# Words that say the element itself listens for clicks or shows it takes them ("item" is a
# guess from its container's listener: for an item holding controls, they are the targets).
OWN_CLICK_WORDS = frozenset({"click", "pointer"})
# Gestures a wrapper may answer to for itself, when none of its inner controls does.
OWN_GESTURES = frozenset({"dblclick", "rightclick", "hover", "drag", "drop"})
# A clickable wrapper with at most this much text outside its inner controls is a thing a
# person clicks (a row, a card); one with more is a region (a panel or page that closes its
# menus on any click), not a control.
WRAPPER_TEXT_CHARS = 300


def _names_a_control(label: HtmlElement) -> bool:
    return label.get("for") is not None or first_descendant(label, NATIVE_CONTROLS) is not None


def _part_of_widget(element: HtmlElement, words: tuple[str, ...]) -> bool:
    """An element that only shows a pointer, just inside a control that has a role (a web
    component's tab, drawn by a box in its shadow root that sets the cursor): clicking it is
    clicking the control, not another one."""
    if set(words) != POINTER_ONLY:
        return False
    for depth, ancestor in enumerate(element.iterancestors()):
        if depth >= WIDGET_PART_DEPTH:
            return False
        if role_of(ancestor) in ROLE_RULES:
            return True
    return False


def _words_before(element: HtmlElement, stop: HtmlElement) -> str:
    """The element's shown words before `stop`, one of its descendants."""
    parts: list[str] = []
    walk = etree.iterwalk(element, events=("start", "end"))
    for event, node in walk:
        if node is stop:
            break
        if event == "end":
            if node is not element and node.tail:
                parts.append(node.tail)
        elif not isinstance(node.tag, str) or is_hidden(node):
            walk.skip_subtree()
        elif node.text:
            parts.append(node.text)
    return squash(" ".join(parts))


def _frames_tabs(element: HtmlElement) -> bool:
    """Whether the element holds a tab list: its click and key listeners are the tab group's,
    serving its tabs (each an action of its own), and the words beside them are its panels'."""
    return any(role_of(inner) == "tablist" for inner in element.iterdescendants()
               if isinstance(inner.tag, str))


def _inner_controls(element: HtmlElement) -> list[HtmlElement]:
    """The outermost controls inside: native ones, links, found ones, and those a role makes
    controls (a component's options and tabs, whose listener is often the host's)."""
    found: list[HtmlElement] = []
    stack = element[::-1]
    while stack:
        inner = stack.pop()
        if not isinstance(inner.tag, str):
            continue
        if (inner.tag in NATIVE_CONTROLS or inner.get(OPERABLE_ATTRIBUTE)
                or (inner.tag == "a" and inner.get("href") is not None)
                or role_of(inner) in ROLE_RULES):
            found.append(inner)
        else:
            stack.extend(inner[::-1])
    return found


def _text_outside(element: HtmlElement, inner: list[HtmlElement]) -> str:
    """The element's text without its inner controls' own (a label naming one is its)."""
    skipped = set(map(id, inner))
    return text_leaving_out(element, lambda node: id(node) in skipped or (
        node.tag == "label" and _names_a_control(node)))


def acts_for_itself(element: HtmlElement, words: tuple[str, ...], inner: list[HtmlElement]) -> bool:
    """Whether a person operates the element itself though the controls `inner` sit inside
    it (see the module's docstring)."""
    inner_words = {"click"}.union(*(operable_words(control) for control in inner))
    own_text = len(_text_outside(element, inner))
    if own_text > WRAPPER_TEXT_CHARS:
        return False
    if (set(words) & OWN_GESTURES) - inner_words:
        return True
    if not set(words) & OWN_CLICK_WORDS or (element.tag == "label" and _names_a_control(element)):
        return False  # a label's words are its control's name: a click on them is the control's
    return own_text > 0


def found_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """The action for an element the capture marked operable; None for a wrapper or a stand-in."""
    words = operable_words(element)
    if not words or element.tag in NOT_CLICKABLE_TAGS or element.tag in STAND_INS:
        return None
    page = page_index(builder, element)
    if CLICK_WORDS.issuperset(words) and (
            (element.tag == "label" and _names_a_control(element)) or page.names_a_control(element)
            or _part_of_widget(element, words)):
        return None
    if FRAME_WORDS.issuperset(words) and _frames_tabs(element):
        return None
    rule = next((r for word, r in FOUND_RULES if word in words), None)
    if rule is None:
        return None
    inner = _inner_controls(element)
    # An element that shows more on hover (a menu's item over its dropdown) is pointed at for
    # itself, whatever it holds: the hover targets inside it are its submenu's items.
    shows_on_hover = rule.kind == "hover"
    if inner and not (shows_on_hover or acts_for_itself(element, words, inner)):
        return None
    if set(words) <= FOCUS_ONLY and not plain_text(element) and not element.get("aria-label"):
        return None  # an empty focus stop (a dialog's focus-trap sentinel): nothing to operate
    # A row holding controls is named by its title or its own words, not theirs (its ×
    # button's, which would also rename the row whenever hovering shows the button); one that
    # shows more on hover by its words before its first control (`Company` over its
    # dropdown), else by that control's (the link a menu item holds): never by what hovering
    # shows (a mega menu's column headings), so its name holds while its dropdown is open.
    if not inner:
        name = ""
    elif shows_on_hover:
        name = (aria_name(element, page) or clip(_words_before(element, inner[0]))
                or clip(plain_text(inner[0])))
    else:
        name = (aria_name(element, page) or clip(heading_name(element))
                or clip(_text_outside(element, inner)))
    emitted = register_widget(
        element, builder, page, rule, container=bool(inner), block=element.tag in BLOCK_TAGS,
        name=name,
    )
    # A list item's mention starts the item's line, beside the link or words it holds, as a
    # person reads a menu bar.
    return replace(emitted, block=False) if shows_on_hover and element.tag == "li" else emitted


def row_action(row: HtmlElement, builder: PageBuilder) -> str:
    """The action id of a table row the page made operable (a clickable inbox line, an
    expandable tree-grid row), "" for none. Unlike other wrappers, a row is an action even with
    a link inside: what its listener serves is the row; each cell's line carries its id."""
    words = operable_words(row)
    expandable = row.get("aria-expanded") in ("true", "false")
    rule = next((r for word, r in FOUND_RULES if word in words), None)
    if rule is None and expandable:
        rule = ROW_RULE
    if rule is None:
        return ""
    return register_widget(row, builder, page_index(builder, row), rule).action_id

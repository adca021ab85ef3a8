"""Labels and states: the name a person reads on a control, and the state it is in.

Labels come from aria-labelledby, aria-label, <label for>, a wrapping <label>, the control's
own text or value, an image's alt, placeholder, then title.
"""

from __future__ import annotations

from collections.abc import Callable

from lxml.html import HtmlElement

from webshellfs.compiler.actions.index import PageIndex
from webshellfs.compiler.actions.rules import (
    CLASS_HINT_WORDS,
    HEADING_TAGS,
    LABEL_SKIP,
    MAX_LABEL_CHARS,
    NATIVE_CONTROLS,
    input_type,
    role_of,
)
from webshellfs.compiler.builder import DRAWN_ATTRIBUTE, OPERABLE_ATTRIBUTE
from webshellfs.compiler.dom import first_descendant, is_hidden, plain_text, squash
from webshellfs.contract.layout import quoted

# Gestures of a control worth telling beyond a click (browser/discovery.py's words).
TOLD_WORDS = ("dblclick", "rightclick", "press", "hover", "drag", "drop")

# --- labels ----------------------------------------------------------------------------------


def clip(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def aria_name(element: HtmlElement, page: PageIndex) -> str:
    ids = element.get("aria-labelledby")
    if ids:
        named = (page.by_id(i) for i in ids.split())
        text = squash(" ".join(plain_text(n) for n in named if n is not None))
        if text:
            return text
    return squash(element.get("aria-label", ""))


def label_of(element: HtmlElement, page: PageIndex) -> str:
    """The control's human name, from the first source that has one."""
    text = aria_name(element, page)
    if not text and element.tag in NATIVE_CONTROLS:
        text = label_element_text(element, page) or combobox_name(element, page)
    if not text:
        text = own_text(element)
    if text and not any(ch.isalnum() for ch in text):
        text = squash(element.get("title", "")) or text  # "×" with title="Delete buy milk"
    if not text:
        text = squash(element.get("placeholder", "") or element.get("title", ""))
    if not text and element.tag in NATIVE_CONTROLS:
        text = drawn_glyph(element) or neighbour_text(element) or _label_glyph(element, page)
    return clip(text)


def drawn_glyph(element: HtmlElement) -> str:
    """What the stylesheet draws on the element itself (❯ on a toggle, × on a button)."""
    return squash(element.get(DRAWN_ATTRIBUTE, ""))


def _label_glyph(control: HtmlElement, page: PageIndex) -> str:
    """A glyph drawn on the control's label: only when nothing else names it (a label that
    draws ✓ once its box is checked must not rename the box)."""
    label = page.label_for(control.get("id"))
    return drawn_glyph(label) if label is not None else ""


# Checkboxes and radios are read with the text after them ("[x] checkbox 1"); other fields
# with the text before them ("Username [____]").
TEXT_AFTER_FIRST = frozenset({"checkbox", "radio"})
MAX_NEIGHBOUR_CHARS = 80


def neighbour_text(control: HtmlElement) -> str:
    """For a control nothing names: the text right next to it, as a person reads the form —
    a sibling <label> without for=, the words after a checkbox, the words before a field."""
    after = _text_after(control)
    before = _text_before(control)
    kind = input_type(control) if control.tag == "input" else control.tag
    for text in (after, before) if kind in TEXT_AFTER_FIRST else (before, after):
        if text and len(text) <= MAX_NEIGHBOUR_CHARS:
            return text
    return ""


# Elements whose words, right beside a control, may be its label (a div of a layout's
# "label" cell before or after the field's own).
NEIGHBOUR_TAGS = frozenset({"label", "span", "b", "strong", "div", "p"})
# How many wrappers holding only the control (a layout's input cell) are looked out of.
MAX_WRAPPERS = 2


def _wrapper_of(control: HtmlElement) -> HtmlElement:
    """The outermost of at most MAX_WRAPPERS elements around the control that hold nothing
    else: the field as the layout places it beside its words."""
    outer = control
    for _ in range(MAX_WRAPPERS):
        parent = outer.getparent()
        if parent is None or len(parent) != 1 or squash(parent.text or "") or squash(
                outer.tail or ""):
            break
        outer = parent
    return outer


def _beside(element: HtmlElement | None) -> str:
    if element is None or element.tag not in NEIGHBOUR_TAGS or not _names_nothing(element):
        return ""
    if first_descendant(element, NATIVE_CONTROLS) is not None:
        return ""
    return plain_text(element)


def _text_after(control: HtmlElement) -> str:
    tail = squash(control.tail or "")
    if tail:
        return tail
    outer = _wrapper_of(control)
    after = outer.getnext()
    if _is_drawn_box(after, control):  # the words after the box its label draws
        outer, after = after, after.getnext()
    return squash(outer.tail or "") or _beside(after)


def _is_drawn_box(element: HtmlElement | None, control: HtmlElement) -> bool:
    """The control's own label with no words: a box the stylesheet draws in its place."""
    return (element is not None and element.tag == "label" and bool(control.get("id"))
            and element.get("for") == control.get("id") and not plain_text(element))


def _names_nothing(element: HtmlElement) -> bool:
    """A shown neighbour that is not already another control's label (a `for=` naming an
    element, or one wrapping its own control), so its words may name the control beside it."""
    if is_hidden(element):
        return False
    if element.tag != "label":
        return True
    if first_descendant(element, NATIVE_CONTROLS) is not None:
        return False
    target = element.get("for")
    return target is None or not element.getroottree().xpath("//@id[. = $id]/..", id=target)


def _text_before(control: HtmlElement) -> str:
    outer = _wrapper_of(control)
    previous = outer.getprevious()
    if previous is not None:
        return squash(previous.tail or "") or _beside(previous)
    parent = outer.getparent()
    return squash(parent.text or "") if parent is not None else ""


def combobox_name(control: HtmlElement, page: PageIndex) -> str:
    """The name of the role=combobox wrapping an input (the ARIA 1.1 pattern)."""
    wrapper = next((a for a in control.iterancestors() if role_of(a) == "combobox"), None)
    return aria_name(wrapper, page) if wrapper is not None else ""


def label_element_text(control: HtmlElement, page: PageIndex) -> str:
    label = page.label_for(control.get("id"))
    if label is None:
        label = next(control.iterancestors("label"), None)
    return text_without(label, control) if label is not None else ""


def text_without(label: HtmlElement, control: HtmlElement) -> str:
    """A label's text, leaving out the control inside it and any other control's options."""
    return text_leaving_out(label, lambda node: node is control)


def text_leaving_out(root: HtmlElement, left_out: Callable[[HtmlElement], bool]) -> str:
    """root's visible text without the elements left_out says, nor any control's options;
    root itself may be hidden (a `<label for>` the page hides still names its control, as in
    the browser's accessible name). Iterative, like dom.plain_text, so no nesting depth
    reaches the recursion limit."""
    parts: list[str] = []
    stack: list[HtmlElement | str] = [root]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            parts.append(node)
            continue
        if node is not root and node.tail:
            stack.append(node.tail)
        if not isinstance(node.tag, str) or node.tag in LABEL_SKIP or left_out(node):
            continue
        if node is not root and is_hidden(node):
            continue
        parts.append(node.text or "")
        stack.extend(node[::-1])
    return squash(" ".join(parts))


DEFAULT_BUTTON_TEXT = {"submit": "Submit", "image": "Submit", "reset": "Reset"}
# An expanded tree item or menu item holds the list it opened; those items are not its name.
GROUP_OWNERS = frozenset({"treeitem", "menuitem"})
OWNED_GROUPS = frozenset({"group", "menu", "tree"})


def own_text(element: HtmlElement) -> str:
    """What a button-like element says itself: its text, value, or an image's alt."""
    if element.tag == "input":
        kind = input_type(element)
        if kind in ("submit", "reset", "button", "image"):
            return squash(
                element.get("value", "") or element.get("alt", "")
            ) or DEFAULT_BUTTON_TEXT.get(kind, "")
        return ""
    if element.tag in ("select", "textarea"):
        return ""
    if element.tag == "img":  # an image made a control itself (`<img role=link alt=…>`)
        return squash(element.get("alt", ""))
    text = heading_name(element) or (
        text_leaving_out(element, lambda node: role_of(node) in OWNED_GROUPS)
        if role_of(element) in GROUP_OWNERS else plain_text(element))
    return text or icon_name(element) or drawn_glyph(element)


def heading_name(element: HtmlElement) -> str:
    """A clickable card's or panel's title: the text of its first heading, "" for none."""
    heading = first_descendant(element, HEADING_TAGS)
    return plain_text(heading) if heading is not None else ""


def icon_name(element: HtmlElement) -> str:
    """An icon-only button's name: an inner image's alt, an inner label or title, an SVG <title>."""
    for inner in element.iterdescendants("img", "svg", "title", "span", "i"):
        name = squash(
            (inner.get("alt") or "" if inner.tag == "img" else "")
            or inner.get("aria-label", "")
            or inner.get("title", "")
            or (inner.text or "" if inner.tag == "title" else "")
        )
        if name:
            return name
    return ""


# Controls an unnamed operable element inside them belongs to (a tree item's expand arrow, a
# row's icon), and how far up they are looked for.
ITEM_ROLES = frozenset({"treeitem", "menuitem", "option", "tab", "row", "gridcell", "listitem"})
OWNER_LEVELS = 3


def owner_item(element: HtmlElement) -> HtmlElement | None:
    """The link or item an unnamed control sits in: a person reads its name for both."""
    for level, ancestor in enumerate(element.iterancestors()):
        if level >= OWNER_LEVELS:
            break
        if role_of(ancestor) in ITEM_ROLES or (
            ancestor.tag == "a" and ancestor.get("href") is not None
        ) or ancestor.tag == "li":
            return ancestor
    return None


def class_hint(element: HtmlElement) -> str:
    """For a control with no name at all: its class words (`(class: fb_icon shareBtn)`), else
    its id (`(id: send-reply)`), which usually say what an icon is. Marked as a hint so nobody
    mistakes it for a label."""
    words: list[str] = []
    for node in element.iter():
        if isinstance(node.tag, str):
            words += [w for w in (node.get("class") or "").split() if len(w) > 2 and w not in words]
        if len(words) >= CLASS_HINT_WORDS:
            break
    if words:
        return f"(class: {' '.join(words[:CLASS_HINT_WORDS])})"
    element_id = squash(element.get("id") or "")
    return f"(id: {element_id})" if element_id else ""


def states_of(element: HtmlElement) -> str:
    """The state a control is in, for actions.tsv: checked, selected, expanded… and the
    gestures it answers to besides a click."""
    return ", ".join(declared_states(element) + [w for w in [gestures_context(element)] if w])


# A column header's aria-sort, as a control in it (a sort button) or the header itself tells it.
SORT_STATES = {"ascending": "sorted ascending", "descending": "sorted descending"}
HEADER_CELL_ROLES = frozenset({"columnheader", "rowheader"})
# How far up a control may sit in the header cell that holds its sort (a span in a button).
SORT_CELL_LEVELS = 3


def _sort_state(element: HtmlElement) -> str:
    """`sorted descending` for a header cell the page says is sorted, or a control inside one."""
    for level, node in enumerate((element, *element.iterancestors())):
        if node.tag == "th" or role_of(node) in HEADER_CELL_ROLES:
            return SORT_STATES.get((node.get("aria-sort") or "").strip(), "")
        if level >= SORT_CELL_LEVELS or node.tag in ("td", "tr", "table"):
            return ""
    return ""


def declared_states(element: HtmlElement) -> list[str]:
    """checked, selected, expanded, pressed, current, sorted, disabled: as the page declares
    them, for actions.tsv and the control's mention."""
    states: list[str] = []
    if element.get("checked") is not None or element.get("aria-checked") == "true":
        states.append("checked")
    elif element.get("aria-checked") == "false":
        states.append("unchecked")
    if element.get("aria-selected") == "true":
        states.append("selected")
    expanded = element.get("aria-expanded")
    if expanded in ("true", "false"):
        states.append("expanded" if expanded == "true" else "collapsed")
    if element.get("aria-pressed") == "true":
        states.append("pressed")
    if element.get("aria-current") not in (None, "", "false"):
        states.append("current")
    sort = _sort_state(element)
    if sort:
        states.append(sort)
    if element.get("disabled") is not None or element.get("aria-disabled") == "true":
        states.append("disabled")
    return states


def legend_of(container: HtmlElement) -> str:
    fieldset = container if container.tag == "fieldset" else next(container.iter("fieldset"), None)
    legend = next(fieldset.iterchildren("legend"), None) if fieldset is not None else None
    return plain_text(legend) if legend is not None else ""


def operable_words(element: HtmlElement) -> tuple[str, ...]:
    """The gestures the live capture found on the element (none for static HTML)."""
    return tuple((element.get(OPERABLE_ATTRIBUTE) or "").split())


def gestures_context(element: HtmlElement) -> str:
    """`on: dblclick rightclick`: what the element listens for besides a click ("" for nothing)."""
    words = operable_words(element)
    told = [word for word in TOLD_WORDS if word in words]
    return "on: " + " ".join(told) if told else ""


# How much of a field's value its mention in the text shows (actions.tsv has it whole).
NOTE_VALUE_CHARS = 60
# Field types whose value is never shown in the text.
UNSHOWN_TYPES = frozenset({"password", "file", "hidden", "submit", "button", "reset", "image"})
READ_ONLY_NOTE = "read-only"


def tooltip_note(control: HtmlElement, page: PageIndex) -> str:
    """`tooltip "Tooltip on right"`: the tooltip the control shows now (an element of role
    tooltip its aria-describedby names, not hidden), told where the control stands, as a
    person sees it beside the control; "" for none. A page adds it on hover or focus, at the
    end of the document, and takes it away after."""
    for element_id in (control.get("aria-describedby") or "").split():
        tip = page.by_id(element_id)
        if tip is not None and role_of(tip) == "tooltip" and not is_hidden(tip):
            text = clip(squash(tip.text_content()), NOTE_VALUE_CHARS)
            if text:
                return f"tooltip {quoted(text)}"
    return ""


def state_note(control: HtmlElement, label: str = "") -> str:
    """The state a native control is in, for its mention where it stands in the text:
    `checked`, `= "Medium"` (a select's chosen option), `= "buy milk"` (a field's value, exactly
    as the page holds it, escaped like actions.tsv's); an empty field named otherwise (a label
    only screen readers get) shows the placeholder a person reads in it:
    `placeholder "What needs to be done?"`."""
    if control.tag == "select":
        chosen = [o for o in control.iter("option") if o.get("selected") is not None]
        if not chosen and control.get("multiple") is None:
            chosen = [next(control.iter("option"), None)] if len(control) else []
        labels = [squash(o.get("label") or o.text_content()) for o in chosen if o is not None]
        return f"= {quoted(clip(', '.join(labels), NOTE_VALUE_CHARS))}" if any(labels) else ""
    if control.tag == "textarea":
        text = control.text_content()
        return f"= {quoted(clip(text, NOTE_VALUE_CHARS))}" if text else _placeholder(control, label)
    kind = input_type(control)
    if kind in ("checkbox", "radio"):
        return "checked" if control.get("checked") is not None else ""
    value = control.get("value") or ""
    if kind in UNSHOWN_TYPES - {"password"}:
        return ""
    # A read-only field takes no typing: the page sets it (a date picker opens on a click).
    shown = READ_ONLY_NOTE if control.get("readonly") is not None else ""
    if value and kind != "password":
        shown = f"{shown} = {quoted(clip(value, NOTE_VALUE_CHARS))}".lstrip()
    return shown or _placeholder(control, label)


def _placeholder(control: HtmlElement, label: str) -> str:
    hint = clip(squash(control.get("placeholder") or ""), NOTE_VALUE_CHARS)
    return f"placeholder {quoted(hint)}" if hint and hint != label else ""

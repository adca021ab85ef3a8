"""Actions: what a person can operate on a page becomes an `Action` record, and leaves a
short mention in the text where it stands.

`match_action` is asked about every visible element before the walker's own rules; it returns
None for anything that is not a control. One module per kind of control, so each rule is found
by its file name:

    rules.py     the tables: input type, button type, element and ARIA role → kind of control
    forms.py     declared controls: inputs, buttons, selects, textareas, and whole forms
    fields.py    the inputs an action takes, radio groups, select options
    widgets.py   scripted links, <summary>, ARIA widgets, contenteditable, onclick
    found.py     elements the live page showed operable (listeners, pointer cursor, tabindex,
                 draggable), as the browser marked them in the capture
    labels.py    labels a person reads, and states (checked, expanded, selected …)
    index.py     per-page indexes the others share

Mentions left in the text, always `[ID …]` with the id of the action to execute:

    [A0004 form "Search" q(text) → GET /search]    a form (block; its text is still walked)
    [A0004 q: text "Search terms"]                 field q of action A0004
    [A0004 size=m: radio "Medium"]                 one choice: pass size=m to A0004
    [A0004 submit "Search"]                        the form's submit button
    [A0003 button "Add to cart"]                   a control that is its own action
    [A0007 size: select "Size"]                    a standalone control taking input `size`
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import replace

from lxml.html import HtmlElement

from webshellfs.compiler.actions.forms import form_action, native_control
from webshellfs.compiler.actions.found import found_action
from webshellfs.compiler.actions.index import page_index
from webshellfs.compiler.actions.labels import tooltip_note
from webshellfs.compiler.actions.rules import GAUGE_ROLES, MAX_CHOICES, input_type, role_of
from webshellfs.compiler.actions.widgets import (
    anchor_action,
    gauge_value,
    summary_action,
    widget_action,
)
from webshellfs.compiler.builder import (
    FOCUS_ATTRIBUTE,
    OPERABLE_ATTRIBUTE,
    Emitted,
    PageBuilder,
)
from webshellfs.compiler.dom import is_hidden

__all__ = ["MAX_CHOICES", "match_action", "shown_through_label"]

# A checkbox or radio the page hides (display: none) behind a label it draws as the box: a
# person clicks the label, so the box is an action all the same (operated through it).
LABELLED_BOXES = frozenset({"checkbox", "radio"})


def shown_through_label(element: HtmlElement, builder: PageBuilder) -> bool:
    """Whether a hidden element is a box whose label is shown (its own, or one wrapping it:
    the walk is inside that one)."""
    if element.tag != "input" or input_type(element) not in LABELLED_BOXES:
        return False
    label = page_index(builder, element).label_for(element.get("id"))
    if label is None:
        return next(element.iterancestors("label"), None) is not None
    return not any(is_hidden(node) for node in (label, *label.iterancestors()))


def match_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """The action an element is, registered and mentioned; None when it is not a control.
    The mention of the control that has keyboard focus in a live capture is the page's focus."""
    emitted = _matched(element, builder)
    if emitted is not None and emitted.inline.endswith("]") and element.get("aria-describedby"):
        tip = tooltip_note(element, page_index(builder, element))
        if tip:  # `[A0003 button "Tooltip on end"]` → `[… "Tooltip on end" tooltip "…"]`
            emitted = replace(emitted, inline=f"{emitted.inline[:-1]} {tip}]")
    if emitted is not None and emitted.inline and element.get(FOCUS_ATTRIBUTE) is not None:
        builder.focus = emitted.inline
    return emitted


def _matched(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    tag = element.tag
    if not isinstance(tag, str):
        return None
    if tag == "input" and element.get("readonly") is not None and role_of(element) == "combobox":
        return widget_action(element, builder)  # a select drawn as a read-only field
    handler = TAG_HANDLERS.get(tag)
    if handler is not None:
        return handler(element, builder)
    role = element.get("role")
    if role and role_of(element) in GAUGE_ROLES:
        return gauge_value(element, builder)
    if (
        role
        or element.get("onclick") is not None
        or element.get("contenteditable") is not None
    ):
        emitted = widget_action(element, builder)
        if emitted is not None:
            return emitted
    if element.get(OPERABLE_ATTRIBUTE):
        return found_action(element, builder)
    return None


TAG_HANDLERS: dict[str, Callable[[HtmlElement, PageBuilder], Emitted | None]] = {
    "input": native_control,
    "select": native_control,
    "textarea": native_control,
    "button": native_control,
    "form": form_action,
    "a": anchor_action,
    "summary": summary_action,
    "meter": gauge_value,
    "progress": gauge_value,
}

"""The rule tables of actions: which element or role is which kind of control.

`INPUT_RULES` (input type → kind, control, part), `BUTTON_RULES` (button types),
`ELEMENT_RULES` (select, textarea) and `ROLE_RULES` (ARIA role), with the limits every
constructor keeps to.
"""

from __future__ import annotations

from dataclasses import dataclass

from lxml.html import HtmlElement

FIELD = "field"  # one input of its form
SUBMIT = "submit"  # submits its form
BUTTON = "button"  # its own action, even inside a form


@dataclass(frozen=True)
class ControlRule:
    """kind: the action kind when the control stands alone; control: its name in the text and
    actions.tsv; part: FIELD, SUBMIT or BUTTON (what it is to a form)."""

    kind: str
    control: str
    part: str = BUTTON


TEXT_RULE = ControlRule("fill", "text", FIELD)
# HTML treats an unknown input type as text.
INPUT_RULES: dict[str, ControlRule] = {
    "text": TEXT_RULE,
    **{
        kind: ControlRule("fill", kind, FIELD)
        for kind in (
            "search",
            "email",
            "url",
            "tel",
            "password",
            "number",
            "date",
            "datetime-local",
            "month",
            "week",
            "time",
            "color",
            "range",
            "file",
        )
    },
    "checkbox": ControlRule("check", "checkbox", FIELD),
    "radio": ControlRule("select", "radio", FIELD),
    "submit": ControlRule("click", "submit", SUBMIT),
    "image": ControlRule("click", "submit", SUBMIT),
    "reset": ControlRule("click", "reset", BUTTON),
    "button": ControlRule("click", "button", BUTTON),
}
# <button type=…>; a missing or unknown type submits.
BUTTON_RULES: dict[str, ControlRule] = {
    "submit": ControlRule("click", "submit", SUBMIT),
    "button": ControlRule("click", "button", BUTTON),
    "reset": ControlRule("click", "reset", BUTTON),
}
ELEMENT_RULES: dict[str, ControlRule] = {
    "select": ControlRule("select", "select", FIELD),
    "textarea": ControlRule("fill", "textarea", FIELD),
}
ROLE_RULES: dict[str, ControlRule] = {
    "button": ControlRule("click", "button"),
    "link": ControlRule("navigate", "link"),
    "checkbox": ControlRule("check", "checkbox"),
    "switch": ControlRule("toggle", "switch"),
    "radio": ControlRule("check", "radio"),
    "tab": ControlRule("click", "tab"),
    "menuitem": ControlRule("click", "menu item"),
    "menuitemcheckbox": ControlRule("check", "menu item"),
    "menuitemradio": ControlRule("check", "menu item"),
    "treeitem": ControlRule("click", "tree item"),
    "option": ControlRule("select", "option"),
    "listbox": ControlRule("select", "listbox"),
    "combobox": ControlRule("fill", "combobox"),
    "textbox": ControlRule("fill", "textbox"),
    "searchbox": ControlRule("fill", "searchbox"),
    "slider": ControlRule("fill", "slider"),
    "spinbutton": ControlRule("fill", "spinbutton"),
}
# ARIA widgets that take a typed value, and the field name they take it under.
VALUE_ROLES = frozenset({"combobox", "textbox", "searchbox", "slider", "spinbutton"})
# Gauges a person reads but does not operate: their value is written where they stand.
GAUGE_ROLES = frozenset({"meter", "progressbar"})
GAUGE_TAGS = {"meter": "meter", "progress": "progressbar"}
CLICK_RULE = ControlRule("click", "clickable")
LINK_RULE = ControlRule("click", "link")
# aria-expanded values that say a control opens and closes something (not "undefined").
EXPANDED_VALUES = frozenset({"true", "false"})
EDITOR_RULE = ControlRule("edit", "editor")
DETAILS_RULE = ControlRule("toggle", "details")

NATIVE_CONTROLS = frozenset({"input", "select", "textarea", "button"})
# Controls that share a name to offer one choice among several.
GROUPED_CONTROLS = frozenset({"radio", "checkbox"})
HEADING_TAGS = frozenset({"h1", "h2", "h3", "h4", "h5", "h6"})
# Descendants that make a clickable element a container the walker must still walk.
CONTAINER_CONTENT = frozenset((
    "a",
    "button",
    "input",
    "select",
    "textarea",
    "img",
    "p",
    "div",
    "ul",
    "ol",
    "table",
    "h1",
    "h2",
    "h3",
    "h4",
    "h5",
    "h6",
    "section",
    "article",
))
# Never rendered when scripts run (the captured page comes from a browser).
INERT_TAGS = frozenset({"template", "noscript"})
LABEL_SKIP = frozenset({"script", "style", "template", "select", "textarea", "option", "datalist"})
# Text entry controls whose value is worth showing; passwords never are.
SECRET_TYPES = frozenset({"password"})
EDITABLE_VALUES = frozenset({"", "true", "plaintext-only"})
NOT_CLICKABLE_TAGS = frozenset({"html", "body"})


MAX_LABEL_CHARS = 120
MAX_VALUE_CHARS = 100_000  # a field's value is kept whole up to this (long ones go to long-values/)
MAX_FORM_FIELDS = 100
MAX_CHOICES = 500
MENTION_FIELDS = 6
CLASS_HINT_WORDS = 3


def input_type(element: HtmlElement) -> str:
    return element.get("type", "text").strip().lower()


def role_of(element: HtmlElement) -> str:
    """The element's first ARIA role, lowercased ("" for none)."""
    role = element.get("role") or ""
    return role.split()[0].lower() if role.strip() else ""

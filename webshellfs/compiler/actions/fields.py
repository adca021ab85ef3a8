"""The inputs an action takes: one Field per control, radio groups and select options."""

from __future__ import annotations

from lxml.html import HtmlElement

from webshellfs.compiler.actions.index import PageIndex
from webshellfs.compiler.actions.labels import (
    aria_name,
    clip,
    label_of,
    legend_of,
)
from webshellfs.compiler.actions.rules import (
    MAX_CHOICES,
    MAX_VALUE_CHARS,
    SECRET_TYPES,
    ControlRule,
)
from webshellfs.compiler.dom import squash
from webshellfs.contract.records import Choice, Field

# --- fields ----------------------------------------------------------------------------------


def field_name(control: HtmlElement, position: int = 0) -> str:
    """The name the page submits it under; unnamed script-driven fields fall back to their id,
    then to `value` (a control of its own) or `field3` (the third input of a form)."""
    return squash(control.get("name") or control.get("id") or "") or (
        f"field{position}" if position else "value"
    )


def is_required(control: HtmlElement) -> bool:
    return (
        control.get("required") is not None
        or control.get("aria-required", "").strip().lower() == "true"
    )


def field_of(control: HtmlElement, rule: ControlRule, page: PageIndex, position: int = 0) -> Field:
    name = field_name(control, position)
    label = label_of(control, page)
    locator = page.locator(control)
    if control.tag == "select":
        kind = "select-multiple" if control.get("multiple") is not None else "select"
        return Field(name, kind, label, is_required(control), choices=options_of(control, page),
                     locator=locator)
    if rule.control == "checkbox":
        choice = Choice(checkbox_value(control), label, selected=control.get("checked") is not None)
        return Field(name, "checkbox", label, is_required(control), choices=(choice,),
                     locator=locator)
    value = "" if rule.control in SECRET_TYPES else field_value(control)
    return Field(
        name, rule.control, label, is_required(control), value=value, limits=limits_of(control),
        locator=locator,
    )


def field_value(control: HtmlElement) -> str:
    """The value exactly as the page holds it (a textarea's text, an input's value): never
    trimmed or squashed, so spaces, tabs and newlines survive (the record formats escape them)."""
    raw = control.text_content() if control.tag == "textarea" else control.get("value", "")
    return clip(raw, MAX_VALUE_CHARS)


# The bounds a typed field declares, by input type; and the forms a date-like field takes
# (browser/values.py turns them into the field's own).
BOUNDED_TYPES = frozenset({"number", "range", "date", "month", "week", "time", "datetime-local"})
VALUE_FORMATS = {
    "date": "YYYY-MM-DD|MM/DD/YYYY|DD.MM.YYYY",
    "month": "YYYY-MM|MM/YYYY",
    "time": "HH:MM|H:MMPM",
    "datetime-local": "YYYY-MM-DDTHH:MM",
}


def limits_of(control: HtmlElement) -> tuple[tuple[str, str], ...]:
    """`min`, `max`, `step` and the accepted `format` of a typed input, as the page declares
    them (none for other controls)."""
    kind = control.get("type", "").strip().lower() if control.tag == "input" else ""
    if kind not in BOUNDED_TYPES:
        return ()
    limits = [
        (bound, squash(control.get(bound) or ""))
        for bound in ("min", "max", "step")
        if squash(control.get(bound) or "")
    ]
    if kind in VALUE_FORMATS:
        limits.append(("format", VALUE_FORMATS[kind]))
    return tuple(limits)


def checkbox_value(control: HtmlElement) -> str:
    value = control.get("value")
    return "on" if value is None else value


def group_field(group: list[HtmlElement], kind: str, page: PageIndex, name: str) -> Field:
    """Radios (or same-name checkboxes) as one field whose choices are its buttons."""
    choices = tuple(
        Choice(
            choice_value(control, label_of(control, page)),
            label_of(control, page),
            selected=control.get("checked") is not None,
        )
        for control in group
    )
    # A lone checkbox is named by its one choice.
    label = "" if kind == "checkbox" and len(group) == 1 else group_label(group[0], page) or name
    return Field(name, kind, label, any(is_required(c) for c in group), choices=choices,
                 locator=page.locator(group[0]))


def choice_value(control: HtmlElement, label: str) -> str:
    """What to pass to choose a radio: its value; a radio the page gave no value (every one
    of them would read `on`) is chosen by its label, as the browser finds it (`size=Medium`)."""
    value = control.get("value")
    if value is not None:
        return value
    if control.get("type", "").strip().lower() == "radio" and label:
        return label
    return "on"


def group_label(first: HtmlElement, page: PageIndex) -> str:
    for ancestor in first.iterancestors():
        if ancestor.tag == "fieldset":
            legend = legend_of(ancestor)
            if legend:
                return legend
        if ancestor.get("role") == "radiogroup":
            name = aria_name(ancestor, page)
            if name:
                return name
        if ancestor.tag == "form":
            break
    return ""


def options_of(select: HtmlElement, page: PageIndex) -> tuple[Choice, ...]:
    """A select's choices; with nothing selected, a single select shows its first option."""
    choices: list[Choice] = []
    explicit = False
    for position, option in enumerate(select.iter("option")):
        if position >= MAX_CHOICES:
            page.note(f"a select ({field_name(select)}): kept its first {MAX_CHOICES} options")
            break
        selected = option.get("selected") is not None
        explicit = explicit or selected
        parent = option.getparent()
        in_group = parent is not None and parent.tag == "optgroup"
        if option.get("disabled") is not None or (in_group and parent.get("disabled") is not None):
            continue
        text = squash(option.text_content())
        value = option.get("value")
        choices.append(
            Choice(
                text if value is None else value,
                squash(option.get("label") or "") or text,
                selected,
                squash(parent.get("label", "")) if in_group else "",
            )
        )
    if not explicit and choices and select.get("multiple") is None:
        first = next(select.iter("option"), None)
        if first is not None and first.get("disabled") is None and choices[0].value:
            choices[0] = Choice(choices[0].value, choices[0].label, True, choices[0].group)
    return tuple(choices)

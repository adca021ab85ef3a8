"""Declared controls: native inputs, buttons, selects and textareas, and whole forms.

A form is ONE action (kind submit): its fields are its controls (radio buttons and same-name
checkboxes grouped into one field with choices), its submit is its first submit button, and its
context is `GET https://site/search` or `POST https://site/login`. Buttons that do not submit
stay actions of their own, with context `form A0004 "Sign in"`. Outside forms each control is
its own action; a radio group is one action, numbered at its first radio.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import replace
from urllib.parse import urlsplit

from lxml.html import HtmlElement

from webshellfs.compiler.actions.fields import (
    checkbox_value,
    field_name,
    field_of,
    group_field,
)
from webshellfs.compiler.actions.index import FormEntry, PageIndex, page_index
from webshellfs.compiler.actions.labels import (
    aria_name,
    class_hint,
    clip,
    declared_states,
    label_of,
    legend_of,
    state_note,
    states_of,
)
from webshellfs.compiler.actions.rules import (
    BUTTON,
    BUTTON_RULES,
    ELEMENT_RULES,
    FIELD,
    GROUPED_CONTROLS,
    INERT_TAGS,
    INPUT_RULES,
    MAX_FORM_FIELDS,
    MENTION_FIELDS,
    NATIVE_CONTROLS,
    SUBMIT,
    TEXT_RULE,
    ControlRule,
    input_type,
)
from webshellfs.compiler.builder import Emitted, PageBuilder
from webshellfs.compiler.dom import is_hidden, squash
from webshellfs.contract.records import Field

# --- native controls -------------------------------------------------------------------------


def rule_of(element: HtmlElement) -> ControlRule:
    if element.tag == "input":
        return INPUT_RULES.get(input_type(element), TEXT_RULE)
    if element.tag == "button":
        return BUTTON_RULES.get(
            element.get("type", "submit").strip().lower(), BUTTON_RULES["submit"]
        )
    return ELEMENT_RULES[element.tag]


def native_control(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    if element.tag == "input" and input_type(element) == "hidden":
        return None
    page = page_index(builder, element)
    rule = rule_of(element)
    owner = page.form_of(element)
    form = register_form(owner, builder, page) if owner is not None else None
    if form is not None and rule.part != BUTTON:
        mention = page.mentions.get(element)
        if mention is None:  # not submitted: disabled, or past the field limit
            mention = mention_text(
                form.action_id, rule, label_of(element, page), field_name(element), "disabled"
            )
        return Emitted(inline=mention)
    context = f'form {form.action_id} "{form.label}"' if form is not None else ""
    if rule.part == FIELD and rule.control == "radio":
        return Emitted(inline=loose_radio(element, builder, page))
    label = label_of(element, page) or (class_hint(element) if rule.part != FIELD else "")
    fields: tuple[Field, ...] = ()
    if rule.part == FIELD:  # the action's label already names its one field
        fields = (replace(field_of(element, rule, page), label=""),)
    if rule.part == SUBMIT:  # a submit button with no form to submit is a plain button
        rule = BUTTON_RULES["button"]
    action_id = builder.add_action(
        rule.kind,
        rule.control,
        label,
        context="; ".join(p for p in (context, states_of(element)) if p),
        fields=fields,
        locator=builder.locator(element),
    )
    if fields:
        return Emitted(inline=choice_mention(action_id, rule, fields[0], element, label))
    # the states stand in the mention, as a widget's do: `[A0011 button "Dropend" expanded]`
    states = " ".join(declared_states(element))
    return Emitted(inline=mention_text(action_id, rule, label, note=states))


def loose_radio(radio: HtmlElement, builder: PageBuilder, page: PageIndex) -> str:
    """A radio outside any form: its group is one action, numbered at its first radio."""
    name = radio.get("name") or ""
    group = page.loose_radios(name) if name else []
    if radio not in group:  # unnamed, or owned by a form that is no action
        group, name = [radio], ""
    key = name or builder.locator(radio)
    if key not in page.loose_groups:
        rule = INPUT_RULES["radio"]
        grouped = group_field(group, "radio", page, name or "choice")
        page.loose_groups[key] = builder.add_action(
            rule.kind,
            "radio group",
            grouped.label,
            fields=(grouped,),
            locator=builder.locator(group[0]),
        )
        for member, choice in zip(group, grouped.choices):
            page.mentions[member] = mention_text(
                page.loose_groups[key], rule, choice.label, f"{grouped.name}={choice.value}"
            )
    return page.mentions.get(radio) or f'[{page.loose_groups[key]} radio "{label_of(radio, page)}"]'


def choice_mention(
    action_id: str, rule: ControlRule, fld: Field, element: HtmlElement, label: str
) -> str:
    name = f"{fld.name}={checkbox_value(element)}" if rule.control == "checkbox" else fld.name
    return mention_text(action_id, rule, label, name, state_note(element, label))


def mention_text(
    action_id: str, rule: ControlRule, label: str, name: str = "", note: str = ""
) -> str:
    """`[A0003 button "Go"]`, `[A0004 q: text "Search"]`, `[A0004 size=m: radio "M" disabled]`."""
    head = f"{action_id} {name}: " if name else f"{action_id} "
    tail = f" {note}" if note else ""
    return f'[{head}{rule.control} "{label}"{tail}]'


# --- forms -----------------------------------------------------------------------------------


def form_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    form = register_form(element, builder, page_index(builder, element))
    if form is None:
        return None
    action = builder.action(form.action_id)
    shown = " ".join(f"{f.name}({f.type})" for f in action.fields[:MENTION_FIELDS])
    if len(action.fields) > MENTION_FIELDS:
        shown += " …"
    method, _, url = action.context.partition(" ")
    where = f" → {method} {short_url(url, builder.url)}" if url else ""
    inline = f'[{form.action_id} form "{form.label}"{" " + shown if shown else ""}{where}]'
    return Emitted(inline=inline, block=True, descend=True)


def register_form(form: HtmlElement, builder: PageBuilder, page: PageIndex) -> FormEntry | None:
    """Register a form once (at its start tag, or at a control reaching it by form=ID first)."""
    if form in page.forms:
        return page.forms[form]
    controls = list(form_controls(form, page))
    submits = [c for c in controls if rule_of(c).part == SUBMIT]
    inputs = [c for c in controls if rule_of(c).part == FIELD and c.get("disabled") is None]
    if not inputs and not submits:
        page.forms[form] = None
        return None
    if len(inputs) > MAX_FORM_FIELDS:
        builder.note(f"a form with {len(inputs)} fields: kept the first {MAX_FORM_FIELDS}")
        inputs = inputs[:MAX_FORM_FIELDS]
    fields, members = form_fields(inputs, page)
    submit = submits[0] if submits else None
    label = form_label(form, submit, fields, page)
    method, url = form_target(form, submit, builder)
    context = f"{method} {url}" + (
        " (new tab)" if form.get("target", "").strip() == "_blank" else ""
    )
    action_id = builder.add_action(
        "submit",
        "form",
        label,
        context=context,
        fields=tuple(fields),
        target=url if method == "GET" else "",
        locator=builder.locator(form),
    )
    page.forms[form] = FormEntry(action_id, label)
    for control, (rule, control_label, name) in members.items():
        page.mentions[control] = mention_text(
            action_id, rule, control_label, name, state_note(control, control_label)
        )
    submit_rule = ControlRule("click", "submit", SUBMIT)
    for button in submits:
        page.mentions[button] = mention_text(action_id, submit_rule, label_of(button, page))
    return page.forms[form]


def form_controls(form: HtmlElement, page: PageIndex) -> Iterator[HtmlElement]:
    """A form's visible controls: its own descendants, then those joining it by form=ID."""
    for control in form.iterdescendants(*NATIVE_CONTROLS):
        if page.form_of(control) is form and shown_within(control, form):
            yield control
    form_id = form.get("id")
    if form_id:
        for control in page.owned_elsewhere(form_id):
            if not is_hidden(control) and not any(a is form for a in control.iterancestors()):
                yield control


def shown_within(control: HtmlElement, container: HtmlElement) -> bool:
    if is_hidden(control):
        return False
    for ancestor in control.iterancestors():
        if ancestor is container:
            return True
        if ancestor.tag in INERT_TAGS or is_hidden(ancestor):
            return False
    return True


def form_fields(
    inputs: list[HtmlElement], page: PageIndex
) -> tuple[list[Field], dict[HtmlElement, tuple[ControlRule, str, str]]]:
    """One Field per input, radios and same-name checkboxes grouped into one field with
    choices; and for each control, what its mention says (rule, label, `name` or `name=value`)."""
    groups: dict[tuple[str, str], list[HtmlElement]] = {}
    order: list[HtmlElement | tuple[str, str]] = []  # a control, or its group's key, in order
    for control in inputs:
        kind, name = rule_of(control).control, control.get("name")
        if kind in GROUPED_CONTROLS and name:
            if (kind, name) not in groups:
                groups[(kind, name)] = []
                order.append((kind, name))
            groups[(kind, name)].append(control)
        else:
            order.append(control)
    fields: list[Field] = []
    members: dict[HtmlElement, tuple[ControlRule, str, str]] = {}
    for position, entry in enumerate(order, start=1):
        if isinstance(entry, tuple):
            group = groups[entry]
            grouped = group_field(group, entry[0], page, entry[1])
            fields.append(grouped)
            for member, choice in zip(group, grouped.choices):
                members[member] = (rule_of(member), choice.label, f"{entry[1]}={choice.value}")
            continue
        rule = rule_of(entry)
        single = field_of(entry, rule, page, position)
        fields.append(single)
        if rule.control == "checkbox":
            members[entry] = (rule, single.label, f"{single.name}={checkbox_value(entry)}")
        else:
            members[entry] = (rule, single.label, single.name)
    return fields, members


def form_label(
    form: HtmlElement, submit: HtmlElement | None, fields: list[Field], page: PageIndex
) -> str:
    candidates: list[Callable[[], str]] = [
        lambda: aria_name(form, page),
        lambda: label_of(submit, page) if submit is not None else "",
        lambda: legend_of(form),
        lambda: squash(form.get("title", "")),
        lambda: "Search" if form.get("role") == "search" else "",
        lambda: fields[0].label if fields else "",
        lambda: squash(form.get("name", "") or form.get("id", "")),  # often a machine name: last
    ]
    for candidate in candidates:
        text = candidate()
        if text:
            return clip(text)
    return ""


def form_target(
    form: HtmlElement, submit: HtmlElement | None, builder: PageBuilder
) -> tuple[str, str]:
    """(METHOD, absolute URL); the submit button's formaction/formmethod win, as in browsers."""
    method = (
        (submit.get("formmethod") if submit is not None else None) or form.get("method") or "get"
    )
    method = method.strip().upper()
    if method not in ("GET", "POST", "DIALOG"):
        method = "GET"
    href = (submit.get("formaction") if submit is not None else None) or form.get("action")
    return method, builder.resolve_url(href) or builder.url


def short_url(url: str, page_url: str) -> str:
    """Same-site URLs are shown by path, others in full."""
    target, page = urlsplit(url), urlsplit(page_url)
    if (target.scheme, target.netloc) != (page.scheme, page.netloc):
        return url
    return (target.path or "/") + (f"?{target.query}" if target.query else "")

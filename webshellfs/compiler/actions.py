"""Actions: the controls a page offers (buttons, fields, selects, whole forms, ARIA widgets,
click handlers) become `Action` records, and leave a short mention in the text.

`match_action` is asked about every visible element before the walker's own rules; it returns
None for anything that is not a control. Rules are tables: `INPUT_RULES` (input type → kind,
control, part), `ELEMENT_RULES` (select, textarea, button types) and `ROLE_RULES` (ARIA role).

A form is ONE action (kind submit): its fields are its controls (radio buttons and same-name
checkboxes grouped into one field with choices), its submit is its first submit button, and its
context is `GET https://site/search` or `POST https://site/login` (a GET form also records the
URL in `target`). Buttons that do not submit (type=button, reset) stay actions of their own,
with context `form A0004 "Sign in"`. Outside forms each control is its own action; a radio
group is one action, numbered at its first radio.

Mentions left in the text, always `[ID …]` with the id of the action to execute:

    [A0004 form "Search" q(text) → GET /search]    a form (block; its text is still walked)
    [A0004 q: text "Search terms"]                 field q of action A0004
    [A0004 size=m: radio "Medium"]                 one choice: pass size=m to A0004
    [A0004 submit "Search"]                        the form's submit button
    [A0003 button "Add to cart"]                   a control that is its own action
    [A0007 size: select "Size"]                    a standalone control taking input `size`

Labels come from aria-labelledby, aria-label, <label for>, a wrapping <label>, the control's
own text or value, an image's alt, placeholder, then title; a radio or checkbox group takes its
fieldset's legend.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from urllib.parse import urlsplit

import lxml.etree
from lxml.html import HtmlElement

from webshellfs.compiler.builder import Emitted, PageBuilder
from webshellfs.compiler.dom import is_hidden, plain_text, squash
from webshellfs.contract.records import Choice, Field

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
CLICK_RULE = ControlRule("click", "clickable")
LINK_RULE = ControlRule("click", "link")
EDITOR_RULE = ControlRule("edit", "editor")
DETAILS_RULE = ControlRule("toggle", "details")

NATIVE_CONTROLS = ("input", "select", "textarea", "button")
# Controls that share a name to offer one choice among several.
GROUPED_CONTROLS = frozenset({"radio", "checkbox"})
HEADING_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6")
# Descendants that make a clickable element a container the walker must still walk.
CONTAINER_CONTENT = (
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
)
# Never rendered when scripts run (the captured page comes from a browser).
INERT_TAGS = frozenset({"template", "noscript"})
LABEL_SKIP = frozenset({"script", "style", "template", "select", "textarea", "option", "datalist"})
# Text entry controls whose value is worth showing; passwords never are.
SECRET_TYPES = frozenset({"password"})
EDITABLE_VALUES = frozenset({"", "true", "plaintext-only"})
NOT_CLICKABLE_TAGS = frozenset({"html", "body"})

_WITH_ID = lxml.etree.XPath("//*[@id]")

MAX_LABEL_CHARS = 120
MAX_VALUE_CHARS = 200
MAX_FORM_FIELDS = 100
MAX_CHOICES = 500
MENTION_FIELDS = 6
CLASS_HINT_WORDS = 3


@dataclass
class _Form:
    action_id: str
    label: str


@dataclass
class _Page:
    """Per-page indexes, built once on first need (never one document search per element)."""

    root: HtmlElement
    note: Callable[[str], None]  # the builder's: says in _map.md what was cut
    forms: dict[HtmlElement, _Form | None] = field(default_factory=dict)
    mentions: dict[HtmlElement, str] = field(default_factory=dict)
    loose_groups: dict[str, str] = field(default_factory=dict)
    _ids: dict[str, HtmlElement] | None = None
    _labels: dict[str, HtmlElement] | None = None
    _owned: dict[str, list[HtmlElement]] | None = None
    _loose_radios: dict[str, list[HtmlElement]] | None = None

    def by_id(self, element_id: str) -> HtmlElement | None:
        if self._ids is None:
            self._ids = {}
            for element in _WITH_ID(self.root):
                self._ids.setdefault(element.get("id").strip(), element)
        return self._ids.get(element_id.strip())

    def label_for(self, element_id: str | None) -> HtmlElement | None:
        if self._labels is None:
            self._labels = {}
            for label in self.root.iter("label"):
                target = label.get("for")
                if target:
                    self._labels.setdefault(target.strip(), label)
        return self._labels.get(element_id.strip()) if element_id else None

    def form_of(self, control: HtmlElement) -> HtmlElement | None:
        """The form owning a control: its form= attribute, else its nearest <form> ancestor."""
        owner_id = control.get("form")
        if owner_id is not None:
            owner = self.by_id(owner_id)
            return owner if owner is not None and owner.tag == "form" else None
        return next(control.iterancestors("form"), None)

    def owned_elsewhere(self, form_id: str) -> list[HtmlElement]:
        """Controls outside a form that join it with form=ID."""
        if self._owned is None:
            self._owned = {}
            for control in self.root.iter(*NATIVE_CONTROLS):
                owner = control.get("form")
                if owner:
                    self._owned.setdefault(owner.strip(), []).append(control)
        return self._owned.get(form_id.strip(), [])

    def loose_radios(self, name: str) -> list[HtmlElement]:
        """The radio buttons named `name` that belong to no form, in document order."""
        if self._loose_radios is None:
            self._loose_radios = {}
            for radio in self.root.iter("input"):
                if (
                    _input_type(radio) == "radio"
                    and radio.get("name")
                    and self.form_of(radio) is None
                ):
                    self._loose_radios.setdefault(radio.get("name"), []).append(radio)
        return self._loose_radios.get(name, [])


def match_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """The action an element is, registered and mentioned; None when it is not a control."""
    tag = element.tag
    if not isinstance(tag, str):
        return None
    handler = TAG_HANDLERS.get(tag)
    if handler is not None:
        return handler(element, builder)
    if (
        element.get("role")
        or element.get("onclick") is not None
        or element.get("contenteditable") is not None
    ):
        return _widget(element, builder)
    return None


def _page(builder: PageBuilder, element: HtmlElement) -> _Page:
    """The page's indexes, made at the first control (the builder compiles one document)."""
    page = builder.caches.get("actions")
    if not isinstance(page, _Page):
        page = _Page(element.getroottree().getroot(), builder.note)
        builder.caches["actions"] = page
    return page


# --- native controls -------------------------------------------------------------------------


def _input_type(element: HtmlElement) -> str:
    return element.get("type", "text").strip().lower()


def _rule(element: HtmlElement) -> ControlRule:
    if element.tag == "input":
        return INPUT_RULES.get(_input_type(element), TEXT_RULE)
    if element.tag == "button":
        return BUTTON_RULES.get(
            element.get("type", "submit").strip().lower(), BUTTON_RULES["submit"]
        )
    return ELEMENT_RULES[element.tag]


def _control(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    if element.tag == "input" and _input_type(element) == "hidden":
        return None
    page = _page(builder, element)
    rule = _rule(element)
    owner = page.form_of(element)
    form = _register_form(owner, builder, page) if owner is not None else None
    if form is not None and rule.part != BUTTON:
        mention = page.mentions.get(element)
        if mention is None:  # not submitted: disabled, or past the field limit
            mention = _mention(
                form.action_id, rule, _label(element, page), _field_name(element), "disabled"
            )
        return Emitted(inline=mention)
    context = f'form {form.action_id} "{form.label}"' if form is not None else ""
    if rule.part == FIELD and rule.control == "radio":
        return Emitted(inline=_loose_radio(element, builder, page))
    label = _label(element, page) or (_class_hint(element) if rule.part != FIELD else "")
    fields: tuple[Field, ...] = ()
    if rule.part == FIELD:  # the action's label already names its one field
        fields = (replace(_field(element, rule, page), label=""),)
    if rule.part == SUBMIT:  # a submit button with no form to submit is a plain button
        rule = BUTTON_RULES["button"]
    action_id = builder.add_action(
        rule.kind,
        rule.control,
        label,
        context="; ".join(p for p in (context, _states(element)) if p),
        fields=fields,
        locator=builder.locator(element),
    )
    if fields:
        return Emitted(inline=_choice_mention(action_id, rule, fields[0], element, label))
    return Emitted(inline=_mention(action_id, rule, label))


def _loose_radio(radio: HtmlElement, builder: PageBuilder, page: _Page) -> str:
    """A radio outside any form: its group is one action, numbered at its first radio."""
    name = radio.get("name") or ""
    group = page.loose_radios(name) if name else []
    if radio not in group:  # unnamed, or owned by a form that is no action
        group, name = [radio], ""
    key = name or builder.locator(radio)
    if key not in page.loose_groups:
        rule = INPUT_RULES["radio"]
        group_field = _group_field(group, "radio", page, name or "choice")
        page.loose_groups[key] = builder.add_action(
            rule.kind,
            "radio group",
            group_field.label,
            fields=(group_field,),
            locator=builder.locator(group[0]),
        )
        for member, choice in zip(group, group_field.choices):
            page.mentions[member] = _mention(
                page.loose_groups[key], rule, choice.label, f"{group_field.name}={choice.value}"
            )
    return page.mentions.get(radio) or f'[{page.loose_groups[key]} radio "{_label(radio, page)}"]'


def _choice_mention(
    action_id: str, rule: ControlRule, fld: Field, element: HtmlElement, label: str
) -> str:
    if rule.control == "checkbox":
        return _mention(action_id, rule, label, f"{fld.name}={_checkbox_value(element)}")
    return _mention(action_id, rule, label, fld.name)


def _mention(action_id: str, rule: ControlRule, label: str, name: str = "", note: str = "") -> str:
    """`[A0003 button "Go"]`, `[A0004 q: text "Search"]`, `[A0004 size=m: radio "M" disabled]`."""
    head = f"{action_id} {name}: " if name else f"{action_id} "
    tail = f" {note}" if note else ""
    return f'[{head}{rule.control} "{label}"{tail}]'


# --- forms -----------------------------------------------------------------------------------


def _form(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    form = _register_form(element, builder, _page(builder, element))
    if form is None:
        return None
    action = builder.actions[int(form.action_id[1:]) - 1]
    shown = " ".join(f"{f.name}({f.type})" for f in action.fields[:MENTION_FIELDS])
    if len(action.fields) > MENTION_FIELDS:
        shown += " …"
    method, _, url = action.context.partition(" ")
    where = f" → {method} {_short_url(url, builder.url)}" if url else ""
    inline = f'[{form.action_id} form "{form.label}"{" " + shown if shown else ""}{where}]'
    return Emitted(inline=inline, block=True, descend=True)


def _register_form(form: HtmlElement, builder: PageBuilder, page: _Page) -> _Form | None:
    """Register a form once (at its start tag, or at a control reaching it by form=ID first)."""
    if form in page.forms:
        return page.forms[form]
    controls = list(_form_controls(form, page))
    submits = [c for c in controls if _rule(c).part == SUBMIT]
    inputs = [c for c in controls if _rule(c).part == FIELD and c.get("disabled") is None]
    if not inputs and not submits:
        page.forms[form] = None
        return None
    if len(inputs) > MAX_FORM_FIELDS:
        builder.note(f"a form with {len(inputs)} fields: kept the first {MAX_FORM_FIELDS}")
        inputs = inputs[:MAX_FORM_FIELDS]
    fields, members = _form_fields(inputs, page)
    submit = submits[0] if submits else None
    label = _form_label(form, submit, fields, page)
    method, url = _form_target(form, submit, builder)
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
    page.forms[form] = _Form(action_id, label)
    for control, (rule, control_label, name) in members.items():
        page.mentions[control] = _mention(action_id, rule, control_label, name)
    submit_rule = ControlRule("click", "submit", SUBMIT)
    for button in submits:
        page.mentions[button] = _mention(action_id, submit_rule, _label(button, page))
    return page.forms[form]


def _form_controls(form: HtmlElement, page: _Page) -> Iterator[HtmlElement]:
    """A form's visible controls: its own descendants, then those joining it by form=ID."""
    for control in form.iterdescendants(*NATIVE_CONTROLS):
        if page.form_of(control) is form and _shown_within(control, form):
            yield control
    form_id = form.get("id")
    if form_id:
        for control in page.owned_elsewhere(form_id):
            if not is_hidden(control) and not any(a is form for a in control.iterancestors()):
                yield control


def _shown_within(control: HtmlElement, container: HtmlElement) -> bool:
    if is_hidden(control):
        return False
    for ancestor in control.iterancestors():
        if ancestor is container:
            return True
        if ancestor.tag in INERT_TAGS or is_hidden(ancestor):
            return False
    return True


def _form_fields(
    inputs: list[HtmlElement], page: _Page
) -> tuple[list[Field], dict[HtmlElement, tuple[ControlRule, str, str]]]:
    """One Field per input, radios and same-name checkboxes grouped into one field with
    choices; and for each control, what its mention says (rule, label, `name` or `name=value`)."""
    groups: dict[tuple[str, str], list[HtmlElement]] = {}
    order: list[HtmlElement | tuple[str, str]] = []  # a control, or its group's key, in order
    for control in inputs:
        kind, name = _rule(control).control, control.get("name")
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
            group_field = _group_field(group, entry[0], page, entry[1])
            fields.append(group_field)
            for member, choice in zip(group, group_field.choices):
                members[member] = (_rule(member), choice.label, f"{entry[1]}={choice.value}")
            continue
        rule = _rule(entry)
        single = _field(entry, rule, page, position)
        fields.append(single)
        if rule.control == "checkbox":
            members[entry] = (rule, single.label, f"{single.name}={_checkbox_value(entry)}")
        else:
            members[entry] = (rule, single.label, single.name)
    return fields, members


def _form_label(
    form: HtmlElement, submit: HtmlElement | None, fields: list[Field], page: _Page
) -> str:
    candidates: list[Callable[[], str]] = [
        lambda: _aria_name(form, page),
        lambda: _label(submit, page) if submit is not None else "",
        lambda: _legend(form),
        lambda: squash(form.get("title", "")),
        lambda: "Search" if form.get("role") == "search" else "",
        lambda: fields[0].label if fields else "",
        lambda: squash(form.get("name", "") or form.get("id", "")),  # often a machine name: last
    ]
    for candidate in candidates:
        text = candidate()
        if text:
            return _clip(text)
    return ""


def _legend(container: HtmlElement) -> str:
    fieldset = container if container.tag == "fieldset" else next(container.iter("fieldset"), None)
    legend = next(fieldset.iterchildren("legend"), None) if fieldset is not None else None
    return plain_text(legend) if legend is not None else ""


def _form_target(
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


def _short_url(url: str, page_url: str) -> str:
    """Same-site URLs are shown by path, others in full."""
    target, page = urlsplit(url), urlsplit(page_url)
    if (target.scheme, target.netloc) != (page.scheme, page.netloc):
        return url
    return (target.path or "/") + (f"?{target.query}" if target.query else "")


# --- fields ----------------------------------------------------------------------------------


def _field_name(control: HtmlElement, position: int = 0) -> str:
    """The name the page submits it under; unnamed script-driven fields fall back to their id,
    then to `value` (a control of its own) or `field3` (the third input of a form)."""
    return squash(control.get("name") or control.get("id") or "") or (
        f"field{position}" if position else "value"
    )


def _required(control: HtmlElement) -> bool:
    return (
        control.get("required") is not None
        or control.get("aria-required", "").strip().lower() == "true"
    )


def _field(control: HtmlElement, rule: ControlRule, page: _Page, position: int = 0) -> Field:
    name = _field_name(control, position)
    label = _label(control, page)
    if control.tag == "select":
        kind = "select-multiple" if control.get("multiple") is not None else "select"
        return Field(name, kind, label, _required(control), choices=_options(control, page))
    if rule.control == "checkbox":
        choice = Choice(
            _checkbox_value(control), label, selected=control.get("checked") is not None
        )
        return Field(name, "checkbox", label, _required(control), choices=(choice,))
    if control.tag == "textarea":
        value = _clip(squash(control.text_content()), MAX_VALUE_CHARS)
    elif rule.control in SECRET_TYPES:
        value = ""
    else:
        value = _clip(squash(control.get("value", "")), MAX_VALUE_CHARS)
    return Field(name, rule.control, label, _required(control), value=value)


def _checkbox_value(control: HtmlElement) -> str:
    value = control.get("value")
    return "on" if value is None else value


def _group_field(group: list[HtmlElement], kind: str, page: _Page, name: str) -> Field:
    """Radios (or same-name checkboxes) as one field whose choices are its buttons."""
    choices = tuple(
        Choice(
            control.get("value", "on"),
            _label(control, page),
            selected=control.get("checked") is not None,
        )
        for control in group
    )
    # A lone checkbox is named by its one choice.
    label = "" if kind == "checkbox" and len(group) == 1 else _group_label(group[0], page) or name
    return Field(name, kind, label, any(_required(c) for c in group), choices=choices)


def _group_label(first: HtmlElement, page: _Page) -> str:
    for ancestor in first.iterancestors():
        if ancestor.tag == "fieldset":
            legend = _legend(ancestor)
            if legend:
                return legend
        if ancestor.get("role") == "radiogroup":
            name = _aria_name(ancestor, page)
            if name:
                return name
        if ancestor.tag == "form":
            break
    return ""


def _options(select: HtmlElement, page: _Page) -> tuple[Choice, ...]:
    """A select's choices; with nothing selected, a single select shows its first option."""
    choices: list[Choice] = []
    explicit = False
    for position, option in enumerate(select.iter("option")):
        if position >= MAX_CHOICES:
            page.note(f"a select ({_field_name(select)}): kept its first {MAX_CHOICES} options")
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


# --- labels ----------------------------------------------------------------------------------


def _clip(text: str, limit: int = MAX_LABEL_CHARS) -> str:
    return text if len(text) <= limit else text[: limit - 1].rstrip() + "…"


def _aria_name(element: HtmlElement, page: _Page) -> str:
    ids = element.get("aria-labelledby")
    if ids:
        named = (page.by_id(i) for i in ids.split())
        text = squash(" ".join(plain_text(n) for n in named if n is not None))
        if text:
            return text
    return squash(element.get("aria-label", ""))


def _label(element: HtmlElement, page: _Page) -> str:
    """The control's human name, from the first source that has one."""
    text = _aria_name(element, page)
    if not text and element.tag in NATIVE_CONTROLS:
        text = _label_element_text(element, page) or _combobox_name(element, page)
    if not text:
        text = _own_text(element)
    if not text:
        text = squash(element.get("placeholder", "") or element.get("title", ""))
    return _clip(text)


def _combobox_name(control: HtmlElement, page: _Page) -> str:
    """The name of the role=combobox wrapping an input (the ARIA 1.1 pattern)."""
    wrapper = next((a for a in control.iterancestors() if _role(a) == "combobox"), None)
    return _aria_name(wrapper, page) if wrapper is not None else ""


def _label_element_text(control: HtmlElement, page: _Page) -> str:
    label = page.label_for(control.get("id"))
    if label is None:
        label = next(control.iterancestors("label"), None)
    return _text_without(label, control) if label is not None else ""


def _text_without(label: HtmlElement, control: HtmlElement) -> str:
    """A label's text, leaving out the control inside it and any other control's options.
    Iterative, like dom.plain_text, so no nesting depth reaches the recursion limit."""
    parts: list[str] = []
    stack: list[HtmlElement | str] = [label]
    while stack:
        node = stack.pop()
        if isinstance(node, str):
            parts.append(node)
            continue
        if node is not label and node.tail:
            stack.append(node.tail)
        if node is control or not isinstance(node.tag, str) or node.tag in LABEL_SKIP:
            continue
        if is_hidden(node):
            continue
        parts.append(node.text or "")
        stack.extend(reversed(node))
    return squash(" ".join(parts))


DEFAULT_BUTTON_TEXT = {"submit": "Submit", "image": "Submit", "reset": "Reset"}


def _own_text(element: HtmlElement) -> str:
    """What a button-like element says itself: its text, value, or an image's alt."""
    if element.tag == "input":
        kind = _input_type(element)
        if kind in ("submit", "reset", "button", "image"):
            return squash(
                element.get("value", "") or element.get("alt", "")
            ) or DEFAULT_BUTTON_TEXT.get(kind, "")
        return ""
    if element.tag in ("select", "textarea"):
        return ""
    heading = next(element.iterdescendants(*HEADING_TAGS), None)
    text = plain_text(heading if heading is not None else element)  # a clickable card: its title
    if text:
        return text
    return _icon_name(element)


def _icon_name(element: HtmlElement) -> str:
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


def _class_hint(element: HtmlElement) -> str:
    """For a control with no name at all: its class words (`(class: fb_icon shareBtn)`), which
    usually say what an icon is. Marked as a hint so nobody mistakes it for a label."""
    words: list[str] = []
    for node in element.iter():
        if isinstance(node.tag, str):
            words += [w for w in (node.get("class") or "").split() if len(w) > 2 and w not in words]
        if len(words) >= CLASS_HINT_WORDS:
            break
    return f"(class: {' '.join(words[:CLASS_HINT_WORDS])})" if words else ""


def _states(element: HtmlElement) -> str:
    """The state a control is in, as the page declares it: checked, selected, expanded…"""
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
    if element.get("disabled") is not None or element.get("aria-disabled") == "true":
        states.append("disabled")
    return ", ".join(states)


# --- links, details, widgets -----------------------------------------------------------------


def _anchor(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """`<a href="javascript:…">` (or an empty/# href with a handler) is a control, not a link."""
    href = (element.get("href") or "").strip()
    scripted = href[:11].lower() == "javascript:"
    if href and href != "#" and not scripted:  # an ordinary link, by far the most common case
        return None
    if not scripted and element.get("onclick") is None and not element.get("role"):
        return None
    rule = ROLE_RULES.get(_role(element)) or LINK_RULE
    if rule.control == "link":
        rule = LINK_RULE
    return _register_widget(element, builder, _page(builder, element), rule)


def _summary(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    details = element.getparent()
    if details is None or details.tag != "details":
        return None
    page = _page(builder, element)
    label = _label(element, page)
    action_id = builder.add_action(
        DETAILS_RULE.kind,
        DETAILS_RULE.control,
        label,
        context="open" if details.get("open") is not None else "closed",
        locator=builder.locator(element),
    )
    return Emitted(inline=f'[{action_id} {DETAILS_RULE.control} "{label}"]')


def _role(element: HtmlElement) -> str:
    role = element.get("role") or ""
    return role.split()[0].lower() if role.strip() else ""


def _widget(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """Non-native controls: ARIA roles, contenteditable, click handlers."""
    page = _page(builder, element)
    editable = element.get("contenteditable")
    if editable is not None and editable.strip().lower() in EDITABLE_VALUES:
        return _register_widget(element, builder, page, EDITOR_RULE, container=True)
    rule = ROLE_RULES.get(_role(element))
    if rule is None and (element.get("onclick") is None or element.tag in NOT_CLICKABLE_TAGS):
        return None
    if _holds_control(element):
        return None  # a wrapper (menu item, tab, card): the link or control inside is the action
    return _register_widget(element, builder, page, rule or CLICK_RULE)


def _holds_control(element: HtmlElement) -> bool:
    return any(
        inner.tag != "a" or inner.get("href") is not None
        for inner in element.iterdescendants("a", *NATIVE_CONTROLS)
    )


def _register_widget(
    element: HtmlElement,
    builder: PageBuilder,
    page: _Page,
    rule: ControlRule,
    *,
    container: bool = False,
) -> Emitted:
    role = _role(element)
    label = _editor_label(element, page) if rule is EDITOR_RULE else _label(element, page)
    label = label or _class_hint(element)
    fields: tuple[Field, ...] = ()
    if role == "listbox":
        fields = (Field("value", "listbox", choices=_aria_options(element, page)),)
    elif role in VALUE_ROLES:
        value = element.get("aria-valuenow") or plain_text(element)
        fields = (
            Field(
                "value", rule.control, "", _required(element), value=_clip(value, MAX_VALUE_CHARS)
            ),
        )
    elif rule is EDITOR_RULE:
        fields = (Field("text", "text"),)
    action_id = builder.add_action(
        rule.kind,
        rule.control,
        label,
        context=_states(element),
        fields=fields,
        locator=builder.locator(element),
    )
    descend = container or (
        role != "listbox" and next(element.iterdescendants(*CONTAINER_CONTENT), None) is not None
    )
    return Emitted(inline=f'[{action_id} {rule.control} "{label}"]', block=descend, descend=descend)


def _editor_label(element: HtmlElement, page: _Page) -> str:
    """An editor's name never comes from its own text: that is the content being edited."""
    hint = (
        element.get("placeholder") or element.get("data-placeholder") or element.get("title") or ""
    )
    return _clip(_aria_name(element, page) or squash(hint))


def _aria_options(listbox: HtmlElement, page: _Page) -> tuple[Choice, ...]:
    options = (
        e for e in listbox.iterdescendants() if isinstance(e.tag, str) and _role(e) == "option"
    )
    choices = []
    for option in options:
        text = plain_text(option)
        choices.append(
            Choice(option.get("data-value") or text, text, option.get("aria-selected") == "true")
        )
        if len(choices) >= MAX_CHOICES:
            page.note(f"a listbox: kept its first {MAX_CHOICES} options")
            break
    return tuple(choices)


TAG_HANDLERS: dict[str, Callable[[HtmlElement, PageBuilder], Emitted | None]] = {
    "input": _control,
    "select": _control,
    "textarea": _control,
    "button": _control,
    "form": _form,
    "a": _anchor,
    "summary": _summary,
}

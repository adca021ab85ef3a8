"""Non-native controls the HTML declares: scripted links, <summary>, ARIA widgets,
contenteditable and onclick elements."""

from __future__ import annotations

from lxml.html import HtmlElement

from webshellfs.compiler.actions.fields import is_required
from webshellfs.compiler.actions.index import PageIndex, page_index
from webshellfs.compiler.actions.labels import (
    aria_name,
    class_hint,
    clip,
    declared_states,
    gestures_context,
    label_of,
    operable_words,
    owner_item,
)
from webshellfs.compiler.actions.rules import (
    CLICK_RULE,
    CONTAINER_CONTENT,
    DETAILS_RULE,
    EDITABLE_VALUES,
    EDITOR_RULE,
    EXPANDED_VALUES,
    GAUGE_TAGS,
    LINK_RULE,
    MAX_CHOICES,
    MAX_VALUE_CHARS,
    NATIVE_CONTROLS,
    NOT_CLICKABLE_TAGS,
    ROLE_RULES,
    VALUE_ROLES,
    ControlRule,
    role_of,
)
from webshellfs.compiler.builder import Emitted, PageBuilder

# Elements a combobox may be that take typed text.
TYPED_TAGS = frozenset({"input", "textarea"})
from webshellfs.compiler.dom import first_descendant, plain_text, squash
from webshellfs.contract.records import Choice, Field

# --- links, details, widgets -----------------------------------------------------------------


def anchor_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """`<a href="javascript:…">` (or an empty/# href with a handler) is a control, not a link;
    so is a link into the page that says it opens and closes something and names no other
    role (`href="#collapseTwo" aria-expanded="false"`: an accordion's header), whose state is
    then told. A tree item's link (`role=treeitem`) goes to its page; its arrow opens it."""
    href = (element.get("href") or "").strip()
    scripted = href[:11].lower() == "javascript:"
    toggles = (href[:1] == "#" and element.get("aria-expanded") in EXPANDED_VALUES
               and not element.get("role"))
    if href and href != "#" and not scripted and not toggles:
        return None  # an ordinary link, by far the most common case
    handled = element.get("onclick") is not None or operable_words(element) or toggles
    if not scripted and not handled and not element.get("role"):
        return None
    rule = ROLE_RULES.get(role_of(element)) or LINK_RULE
    if rule.control == "link":
        rule = LINK_RULE
    return register_widget(element, builder, page_index(builder, element), rule)


def summary_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    details = element.getparent()
    if details is None or details.tag != "details":
        return None
    page = page_index(builder, element)
    label = label_of(element, page)
    action_id = builder.add_action(
        DETAILS_RULE.kind,
        DETAILS_RULE.control,
        label,
        context="open" if details.get("open") is not None else "closed",
        locator=builder.locator(element),
    )
    return Emitted(inline=f'[{action_id} {DETAILS_RULE.control} "{label}"]')


def gauge_value(element: HtmlElement, builder: PageBuilder) -> Emitted:
    """A meter or progress bar (no control: nothing to act on) written as what it shows,
    `CPU usage: 45% (meter, 0 to 100)`, since its value is in attributes, not text."""
    kind = GAUGE_TAGS.get(element.tag) or role_of(element)
    native = element.tag in GAUGE_TAGS
    now = element.get("value" if native else "aria-valuenow") or ""
    low = element.get("min" if native else "aria-valuemin") or ("0" if native else "")
    high = element.get("max" if native else "aria-valuemax") or ("1" if native else "")
    shown = squash(element.get("aria-valuetext") or "") or now or plain_text(element)
    name = aria_name(element, page_index(builder, element)) or squash(element.get("title") or "")
    bounds = f", {low} to {high}" if low and high else ""
    text = f"{name}: {shown}" if name else shown
    return Emitted(inline=f"{text} ({kind}{bounds})" if shown else "", descend=False)


def widget_action(element: HtmlElement, builder: PageBuilder) -> Emitted | None:
    """Non-native controls: ARIA roles, contenteditable, click handlers."""
    page = page_index(builder, element)
    editable = element.get("contenteditable")
    if editable is not None and editable.strip().lower() in EDITABLE_VALUES:
        return register_widget(element, builder, page, EDITOR_RULE, container=True)
    rule = ROLE_RULES.get(role_of(element))
    if rule is None and (element.get("onclick") is None or element.tag in NOT_CLICKABLE_TAGS):
        return None
    if role_of(element) == "listbox" and _select_popup(element, page):
        return Emitted()  # its options are its combobox's choices: not a second control
    if holds_control(element):
        return None  # a wrapper (menu item, tab, card): the link or control inside is the action
    return register_widget(element, builder, page, rule or CLICK_RULE)


def holds_control(element: HtmlElement) -> bool:
    """Whether a native control or a link is inside: that is the action, not the wrapper."""
    return any(
        inner.tag in NATIVE_CONTROLS or (inner.tag == "a" and inner.get("href") is not None)
        for inner in element.iterdescendants()
    )


def register_widget(
    element: HtmlElement,
    builder: PageBuilder,
    page: PageIndex,
    rule: ControlRule,
    *,
    container: bool = False,
    block: bool = False,
    name: str = "",
) -> Emitted:
    """Register a non-native control; `block`: its mention stands on a line of its own (a
    clickable row or card) even with no content to walk inside; `name`: its label when the
    caller knows it better (a row's words outside the controls it holds)."""
    role = role_of(element)
    label = name or (
        editor_label(element, page) if rule is EDITOR_RULE else label_of(element, page))
    # Nameless (an arrow, an icon): it is part of the item it sits in, named and in the
    # state (expanded, collapsed) that item is.
    owner = None if label else owner_item(element)
    label = label or (label_of(owner, page) if owner is not None else "") or class_hint(element)
    states = declared_states(element) or (declared_states(owner) if owner is not None else [])
    fields: tuple[Field, ...] = ()
    if role == "listbox":
        fields = (Field("value", "listbox", choices=aria_options(element, page)),)
    elif role in VALUE_ROLES:
        value = element.get("aria-valuenow") or plain_text(element)
        fields = (
            Field(
                "value", rule.control, "", is_required(element), value=clip(value, MAX_VALUE_CHARS),
                choices=popup_options(element, page) if role == "combobox" else (),
            ),
        )
    elif rule is EDITOR_RULE:
        fields = (Field("text", "text"),)
    gestures = gestures_context(element)
    action_id = builder.add_action(
        rule.kind,
        rule.control,
        label,
        context=", ".join(states + [gestures] if gestures else states),
        fields=fields,
        locator=builder.locator(element),
    )
    descend = container or (
        role != "listbox" and first_descendant(element, CONTAINER_CONTENT) is not None
    )
    shown = "".join(f" {state}" for state in states)
    inline = f'[{action_id} {rule.control} "{label}"{shown}]'
    return Emitted(inline=inline, block=block or descend, descend=descend, action_id=action_id)


def editor_label(element: HtmlElement, page: PageIndex) -> str:
    """An editor's name never comes from its own text: that is the content being edited."""
    hint = (
        element.get("placeholder") or element.get("data-placeholder") or element.get("title") or ""
    )
    return clip(aria_name(element, page) or squash(hint))


def _select_popup(listbox: HtmlElement, page: PageIndex) -> bool:
    owner = page.popup_owner(listbox)
    return owner is not None and _select_only(owner)


def _select_only(combobox: HtmlElement) -> bool:
    typed = combobox.tag in TYPED_TAGS and combobox.get("readonly") is None
    return not typed and combobox.get("contenteditable") is None


def popup_options(combobox: HtmlElement, page: PageIndex) -> tuple[Choice, ...]:
    """The options a select-only combobox (one that takes no typing: a web component's
    select, drawn by a read-only field or a box) pops up, when the page already holds them in the list it names (aria-controls,
    aria-owns): its choices before it is opened. A combobox one types into offers
    suggestions, not choices, and takes any text."""
    if not _select_only(combobox):
        return ()
    for popup_id in (combobox.get("aria-controls") or combobox.get("aria-owns") or "").split():
        popup = page.by_id(popup_id)
        if popup is not None and role_of(popup) == "listbox":
            return aria_options(popup, page)
    return ()


def aria_options(listbox: HtmlElement, page: PageIndex) -> tuple[Choice, ...]:
    options = (
        e for e in listbox.iterdescendants() if isinstance(e.tag, str) and role_of(e) == "option"
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

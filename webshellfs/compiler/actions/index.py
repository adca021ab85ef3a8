"""Per-page indexes the action constructors share: ids, labels, form owners, loose radios."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

import lxml.etree
from lxml.html import HtmlElement

from webshellfs.compiler.actions.rules import NATIVE_CONTROLS, ROLE_RULES, input_type, role_of
from webshellfs.compiler.builder import PageBuilder

# By the attribute nodes: faster than testing every element (`//*[@id]`).
_WITH_ID = lxml.etree.XPath("//@id/..")
_LABELLED_BY = lxml.etree.XPath("//@aria-labelledby")
_COMBOBOXES = lxml.etree.XPath("//*[@role='combobox']")


@dataclass
class FormEntry:
    action_id: str
    label: str


@dataclass
class PageIndex:
    """Per-page indexes, built once on first need (never one document search per element)."""

    root: HtmlElement
    note: Callable[[str], None]  # the builder's: says in _map.md what was cut
    locator: Callable[[HtmlElement], str]  # the builder's: how the browser finds an element
    forms: dict[HtmlElement, FormEntry | None] = field(default_factory=dict)
    mentions: dict[HtmlElement, str] = field(default_factory=dict)
    loose_groups: dict[str, str] = field(default_factory=dict)
    _ids: dict[str, HtmlElement] | None = None
    _labels: dict[str, HtmlElement] | None = None
    _owned: dict[str, list[HtmlElement]] | None = None
    _loose_radios: dict[str, list[HtmlElement]] | None = None
    _naming_ids: frozenset[str] | None = None
    _popup_owners: dict[str, HtmlElement] | None = None

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

    def names_a_control(self, element: HtmlElement) -> bool:
        """Whether the element's id is in a control's aria-labelledby: it is that control's
        name (a web component's label, tied by id rather than by `for`)."""
        element_id = (element.get("id") or "").strip()
        if not element_id:
            return False
        if self._naming_ids is None:
            self._naming_ids = frozenset(
                named for value in _LABELLED_BY(self.root) if _is_control(value.getparent())
                for named in str(value).split())
        return element_id in self._naming_ids

    def popup_owner(self, element: HtmlElement) -> HtmlElement | None:
        """The combobox whose aria-controls or aria-owns names the element (its popup)."""
        if self._popup_owners is None:
            self._popup_owners = {}
            for combobox in _COMBOBOXES(self.root):
                named = combobox.get("aria-controls") or combobox.get("aria-owns") or ""
                for popup_id in named.split():
                    self._popup_owners.setdefault(popup_id, combobox)
        return self._popup_owners.get((element.get("id") or "").strip())

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
                    input_type(radio) == "radio"
                    and radio.get("name")
                    and self.form_of(radio) is None
                ):
                    self._loose_radios.setdefault(radio.get("name"), []).append(radio)
        return self._loose_radios.get(name, [])


# Roles of a group a label names as a whole (a radio group's "Finish").
GROUP_ROLES = frozenset({"radiogroup", "group"})


def _is_control(element: HtmlElement) -> bool:
    role = role_of(element)
    return element.tag in NATIVE_CONTROLS or role in ROLE_RULES or role in GROUP_ROLES


def page_index(builder: PageBuilder, element: HtmlElement) -> PageIndex:
    """The page's indexes, made at the first control (the builder compiles one document)."""
    page = builder.caches.get("actions")
    if not isinstance(page, PageIndex):
        page = PageIndex(element.getroottree().getroot(), builder.note, builder.locator)
        builder.caches["actions"] = page
    return page

"""Action and link ids kept across the states of one page.

An agent that remembers `A0002` from one state and acts on it in the next must reach the same
control. So a state compiled after an action on the same URL is given the actions of the state
before (`PriorActions`): a control of the same kind and label keeps its id (the same element
in the live tab first, then the others in document order); any other control gets a number
never used on that page's states (`next_number` counts across them all), so an id never names
two different controls. Links likewise, by address and text: a menu that opens above a list
adds its links without renumbering the list's, so a state's changes are only what changed.
"""

from __future__ import annotations

from collections import defaultdict, deque
from dataclasses import dataclass

from webshellfs.contract.addresses import format_object_id


@dataclass(frozen=True)
class KnownAction:
    """An action of the state before: its id and what makes it the same control."""

    id: str
    kind: str
    control: str
    label: str
    locator: str = ""


@dataclass(frozen=True)
class KnownLink:
    """A link of the state before: its id and what makes it the same link."""

    id: str
    url: str
    text: str
    locator: str = ""


@dataclass(frozen=True)
class PriorActions:
    """The state before's actions and links, and the next action and link numbers no state of
    the page used."""

    actions: tuple[KnownAction, ...] = ()
    next_number: int = 1
    links: tuple[KnownLink, ...] = ()
    next_link: int = 1


class ActionIds:
    """Hands out action ids for one compile: a kept id for a known control, else a new one."""

    def __init__(self, prior: PriorActions | None = None) -> None:
        prior = prior or PriorActions()
        self.next_number = prior.next_number
        self._by_locator: dict[str, KnownAction] = {}
        self._by_identity: dict[tuple[str, str, str], deque[KnownAction]] = defaultdict(deque)
        for known in prior.actions:
            if known.locator:
                self._by_locator[known.locator] = known
            self._by_identity[(known.kind, known.control, known.label)].append(known)
        self._claimed: set[str] = set()

    def claim(self, kind: str, control: str, label: str, locator: str) -> str:
        """The id for a control found now (called in document order)."""
        identity = (kind, control, label)
        known = self._by_locator.get(locator)
        if known is None or not _same_control(known, identity) or known.id in self._claimed:
            candidates = self._by_identity.get(identity, deque())
            while candidates and candidates[0].id in self._claimed:
                candidates.popleft()
            known = candidates.popleft() if candidates else None
        if known is not None:
            self._claimed.add(known.id)
            return known.id
        action_id = format_object_id("A", self.next_number)
        self.next_number += 1
        return action_id


# A nameless control is labelled by a hint of its class words or id (labels.class_hint): not
# a name, and the class words change with its state (`star` → `star active`).
HINT_PREFIXES = ("(class: ", "(id: ")


def _same_control(known: KnownAction, identity: tuple[str, str, str]) -> bool:
    """Whether the element that had `known` is still that control: the same kind and label,
    or the same kind and both labels only hints of its classes (a state class came or went)."""
    kind, control, label = identity
    if (known.kind, known.control) != (kind, control):
        return False
    return known.label == label or (label.startswith(HINT_PREFIXES)
                                    and known.label.startswith(HINT_PREFIXES))


class LinkIds:
    """Hands out link ids for one compile: a kept id for a known link (the same element with
    the same address and text, else the next such link in document order), else a new one."""

    def __init__(self, prior: PriorActions | None = None) -> None:
        prior = prior or PriorActions()
        self.next_number = prior.next_link
        self._by_locator = {known.locator: known for known in prior.links if known.locator}
        self._by_identity: dict[tuple[str, str], deque[KnownLink]] = defaultdict(deque)
        for known in prior.links:
            self._by_identity[(known.url, known.text)].append(known)
        self._claimed: set[str] = set()

    def claim(self, url: str, text: str, locator: str) -> str:
        """The id for a link found now (called in document order)."""
        known = self._by_locator.get(locator)
        if known is None or (known.url, known.text) != (url, text) or known.id in self._claimed:
            candidates = self._by_identity.get((url, text), deque())
            while candidates and candidates[0].id in self._claimed:
                candidates.popleft()
            known = candidates.popleft() if candidates else None
        if known is not None:
            self._claimed.add(known.id)
            return known.id
        link_id = format_object_id("L", self.next_number)
        self.next_number += 1
        return link_id

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
from typing import Generic, TypeVar

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


Known = TypeVar("Known", KnownAction, KnownLink)


class _Ids(Generic[Known]):
    """Hands out one kind's ids for one compile: a kept id for a known object (the same element
    while it is still that object, else the next one with its identity in document order),
    else a number no state of the page used."""

    def __init__(self, prefix: str, known: tuple[Known, ...], next_number: int) -> None:
        self.prefix, self.next_number = prefix, next_number
        self._by_locator = {k.locator: k for k in known if k.locator}
        self._by_identity: dict[tuple[str, ...], deque[Known]] = defaultdict(deque)
        for k in known:
            self._by_identity[self.identity_of(k)].append(k)
        self._claimed: set[str] = set()

    def identity_of(self, known: Known) -> tuple[str, ...]:
        raise NotImplementedError

    def still(self, known: Known, identity: tuple[str, ...]) -> bool:
        """Whether the element that had `known` is still that object."""
        return self.identity_of(known) == identity

    def claim_for(self, identity: tuple[str, ...], locator: str) -> str:
        known = self._by_locator.get(locator)
        if known is None or not self.still(known, identity) or known.id in self._claimed:
            candidates = self._by_identity.get(identity, deque())
            while candidates and candidates[0].id in self._claimed:
                candidates.popleft()
            known = candidates.popleft() if candidates else None
        if known is not None:
            self._claimed.add(known.id)
            return known.id
        self.next_number += 1
        return format_object_id(self.prefix, self.next_number - 1)


class ActionIds(_Ids[KnownAction]):
    """Action ids: the same control is the same kind and label."""

    def __init__(self, prior: PriorActions | None = None) -> None:
        prior = prior or PriorActions()
        super().__init__("A", prior.actions, prior.next_number)

    def identity_of(self, known: KnownAction) -> tuple[str, ...]:
        return (known.kind, known.control, known.label)

    def still(self, known: KnownAction, identity: tuple[str, ...]) -> bool:
        return _same_control(known, identity)

    def claim(self, kind: str, control: str, label: str, locator: str) -> str:
        """The id for a control found now (called in document order)."""
        return self.claim_for((kind, control, label), locator)


class LinkIds(_Ids[KnownLink]):
    """Link ids: the same link has the same address and text."""

    def __init__(self, prior: PriorActions | None = None) -> None:
        prior = prior or PriorActions()
        super().__init__("L", prior.links, prior.next_link)

    def identity_of(self, known: KnownLink) -> tuple[str, ...]:
        return (known.url, known.text)

    def claim(self, url: str, text: str, locator: str) -> str:
        """The id for a link found now (called in document order)."""
        return self.claim_for((url, text), locator)


# A nameless control is labelled by a hint of its class words or id (labels.class_hint): not
# a name, and the class words change with its state (`star` → `star active`).
HINT_PREFIXES = ("(class: ", "(id: ")


def _same_control(known: KnownAction, identity: tuple[str, ...]) -> bool:
    """Whether the element that had `known` is still that control: the same kind and label,
    or the same kind and both labels only hints of its classes (a state class came or went)."""
    kind, control, label = identity
    if (known.kind, known.control) != (kind, control):
        return False
    return known.label == label or (label.startswith(HINT_PREFIXES)
                                    and known.label.startswith(HINT_PREFIXES))


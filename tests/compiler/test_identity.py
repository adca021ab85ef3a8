"""Action ids across the states of one page (compiler/identity.py)."""

from webshellfs.compiler.identity import ActionIds, KnownAction, PriorActions


def prior(*actions: KnownAction) -> PriorActions:
    return PriorActions(actions=actions, next_number=len(actions) + 1)


def test_a_control_keeps_its_id_by_kind_and_label_wherever_it_is_now() -> None:
    ids = ActionIds(prior(KnownAction("A0001", "click", "button", "Save", "w1")))
    assert ids.claim("click", "button", "Save", "w9") == "A0001"


def test_a_renamed_element_is_a_new_control() -> None:
    """A list that reuses its elements for other items: the id must not follow the element."""
    ids = ActionIds(prior(KnownAction("A0001", "click", "clickable", "buy milk", "w1")))
    assert ids.claim("click", "clickable", "walk the dog", "w1") == "A0002"


def test_a_nameless_control_keeps_its_id_when_its_state_class_changes() -> None:
    ids = ActionIds(prior(KnownAction("A0001", "click", "clickable", "(class: star)", "w4")))
    assert ids.claim("click", "clickable", "(class: star active)", "w4") == "A0001"
    again = ActionIds(prior(KnownAction("A0001", "click", "clickable", "(class: star)", "w4")))
    assert again.claim("click", "clickable", "(class: star active)", "w5") == "A0002"

"""Action and link ids across the states of one page (compiler/identity.py)."""

from webshellfs.compiler import compile_page
from webshellfs.compiler.identity import ActionIds, KnownAction, KnownLink, LinkIds, PriorActions


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


def test_a_link_keeps_its_id_by_address_and_text_and_a_new_one_takes_a_number_never_used(
) -> None:
    before = PriorActions(links=(KnownLink("L0001", "https://x/a", "A", "w1"),
                                 KnownLink("L0002", "https://x/b", "B", "w2")), next_link=5)
    ids = LinkIds(before)
    assert ids.claim("https://x/new", "New", "w0") == "L0005"  # above the others now
    assert ids.claim("https://x/a", "A", "w7") == "L0001"
    assert ids.claim("https://x/b", "Bee", "w2") == "L0006"  # the element, other words
    assert LinkIds().claim("https://x/a", "A", "") == "L0001"  # a first capture counts up


def test_a_menu_opened_above_a_list_leaves_the_list_links_ids_as_they_were() -> None:
    menu = '<nav><a href="/about">About us</a><a href="/jobs">Jobs</a></nav>'
    shut = compile_page('<nav></nav><ul><li><a href="/ridge">Ridge</a></li></ul>', "https://x/")
    known = tuple(KnownLink(link.id, link.url, link.text) for link in shut.links)
    opened = compile_page(f'{menu}<ul><li><a href="/ridge">Ridge</a></li></ul>', "https://x/",
                          prior=PriorActions(links=known, next_link=shut.next_link))
    assert [(link.id, link.text) for link in opened.links] == [
        ("L0002", "About us"), ("L0003", "Jobs"), ("L0001", "Ridge")]

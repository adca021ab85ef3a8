"""execute's inputs checked against the stored action before the browser is asked: a number
or range outside the field's min..max is refused with the range, and nothing is done."""

from __future__ import annotations

import pytest

from webshellfs.compiler import compile_page
from webshellfs.engine.inputs import check_inputs, find_by_label
from webshellfs.engine.queries import page_meta
from webshellfs.errors import NotFoundError, UsageError
from webshellfs.fetch import Capture

PAGE = (b"<p><input type=range name=volume min=0 max=10 value=3 aria-label=Volume></p>"
        b"<form><input type=number name=qty min=1 max=5 value=1 aria-label=Qty>"
        b"<button>Add</button></form>")


def actions() -> dict[str, dict[str, object]]:
    url = "https://example.org/"
    page = compile_page(PAGE, url)
    meta = page_meta(page, Capture(url, url, 200, "text/html", PAGE, ()))
    return meta["actions"]


def test_values_within_the_range_pass() -> None:
    found = actions()
    assert check_inputs("A0001", found["A0001"], (("volume", "7"),)) == {"volume": "7"}
    assert check_inputs("A0002", found["A0002"], (("qty", "5"),)) == {"qty": "5"}


@pytest.mark.parametrize(
    ("action", "inputs", "message"),
    [
        ("A0001", (("volume", "11"),), "11 is outside the range of volume: 0..10"),
        ("A0001", (("value", "-1"),), "-1 is outside the range of volume: 0..10"),
        ("A0002", (("qty", "9"),), "9 is outside the range of qty: 1..5"),
        ("A0002", (("qty", "many"),), "qty takes a number, not 'many'"),
    ],
)
def test_values_outside_the_range_are_refused_with_it(
    action: str, inputs: tuple[tuple[str, str], ...], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        check_inputs(action, actions()[action], inputs)


FORM = (b"<form><table><tr><td><input type=checkbox name=ids value=101 aria-label=101>"
        b"<td><input type=checkbox name=ids value=0 aria-label=Zero></table>"
        b"<select name=owner required><option value=''>---</option>"
        b"<option value=7 selected>Katherine</option></select>"
        b"<select name=action required><option value=''>---</option>"
        b"<option value=ship>Ship</option></select>"
        b"<label><input type=checkbox name=notify required> Notify</label>"
        b"<button>Go</button></form>")


def form_action() -> dict[str, object]:
    url = "https://example.org/"
    page = compile_page(FORM, url)
    return page_meta(page, Capture(url, url, 200, "text/html", FORM, ()))["actions"]["A0001"]


def test_a_required_field_that_holds_a_value_is_not_missing() -> None:
    # owner holds current=7; action holds the empty choice and notify is unticked: missing.
    given = (("action", "ship"), ("notify", "on"))
    assert check_inputs("A0001", form_action(), given) == dict(given)
    with pytest.raises(UsageError, match="missing required input 'action'"):
        check_inputs("A0001", form_action(), (("notify", "on"),))
    with pytest.raises(UsageError, match="missing required input 'notify'"):
        check_inputs("A0001", form_action(), (("action", "ship"),))


@pytest.mark.parametrize("ids", ["101|0", "101", "Zero", "off", ""])
def test_boxes_sharing_a_name_take_the_ones_to_tick_or_off(ids: str) -> None:
    given = (("ids", ids), ("action", "ship"), ("notify", "off"))
    assert check_inputs("A0001", form_action(), given, submitting=False) == dict(given)


def test_a_box_the_field_lacks_is_refused_with_the_boxes() -> None:
    with pytest.raises(UsageError, match=r"no choice '102' for ids; choices: 101 \| 0=Zero "
                                         r"\(off unticks them all\)"):
        check_inputs("A0001", form_action(), (("ids", "101|102"),), submitting=False)


# Controls and fields named as a person reads them ----------------------------------------------

PEOPLE = (b'<nav><a href="/people">People</a> <a href="/people/new">Add person</a></nav>'
          b'<form method=post action=/people/new><label>First name <input name=first></label>'
          b'<label>Department <select name=dept><option value=1>Sales<option value=2>Marketing'
          b'</select></label><button>Add person</button></form>'
          b'<button>Delete Carl</button><button>Delete Dana</button>')


def people() -> dict[str, object]:
    url = "https://example.org/people/new"
    page = compile_page(PEOPLE, url)
    return page_meta(page, Capture(url, url, 200, "text/html", PEOPLE, ()))


def test_a_control_is_found_by_its_label_an_action_before_a_link() -> None:
    meta = people()
    form = next(i for i, a in meta["actions"].items() if a["kind"] == "submit")
    assert find_by_label(meta, "add  PERSON", "N0003") == form  # not the nav link of that name
    assert find_by_label(meta, "People", "N0003").startswith("L")
    assert find_by_label(meta, "delete car", "N0003") == find_by_label(meta, "Delete Carl", "N0003")


def test_a_label_that_fits_several_or_none_is_refused_naming_them() -> None:
    meta = people()
    with pytest.raises(UsageError, match=r"2 controls on N0003 are labelled 'Delete': .*"
                                         r'button "Delete Carl"; .*button "Delete Dana"; '
                                         "name one by its id"):
        find_by_label(meta, "Delete", "N0003")
    with pytest.raises(NotFoundError, match="no control on N0003 is labelled 'Archive'"):
        find_by_label(meta, "Archive", "N0003")


def test_inputs_may_be_given_by_their_labels() -> None:
    meta = people()
    form = next(i for i, a in meta["actions"].items() if a["kind"] == "submit")
    given = (("First name", "Ada"), ("department", "Marketing"))
    assert check_inputs(form, meta["actions"][form], given) == {"first": "Ada", "dept": "Marketing"}


def test_links_so_labelled_to_one_url_are_one_way_to_go() -> None:
    """A nav and a page's text both offering "Configuration reference" to the same URL: the
    first is taken; links so labelled to two URLs are still refused, named."""
    html = (b'<nav><a href="/docs/config">Configuration reference</a> <a href="/a">Guide</a></nav>'
            b'<main><p><a href="/docs/config">Configuration reference</a></p>'
            b'<p><a href="/b">Guide</a></p></main>')
    url = "https://example.org/docs/"
    meta = page_meta(compile_page(html, url), Capture(url, url, 200, "text/html", html, ()))
    first = find_by_label(meta, "Configuration reference", "N0002")
    assert meta["links"][first] == "https://example.org/docs/config"
    assert first == min(i for i, u in meta["links"].items() if u.endswith("/config"))
    with pytest.raises(UsageError, match="2 controls on N0002 are labelled 'Guide'"):
        find_by_label(meta, "Guide", "N0002")


def test_a_lone_checkbox_is_named_by_its_own_label() -> None:
    html = (b"<form method=post action=/p><label>Name <input name=name></label>"
            b"<label><input type=checkbox name=active value=yes checked> Active</label>"
            b"<button>Save</button></form>")
    url = "https://example.org/p"
    meta = page_meta(compile_page(html, url), Capture(url, url, 200, "text/html", html, ()))
    form, action = next(iter(meta["actions"].items()))
    given = (("Name", "Bob"), ("Active", "off"))
    assert check_inputs(form, action, given) == {"name": "Bob", "active": "off"}


TAGS = (b'<form method=post action=/people/7><label>Name <input name=name value="Erin Walsh">'
        b'</label><fieldset><legend>Tags</legend>'
        b'<label><input type=checkbox name=tags value=remote checked> Remote</label>'
        b'<label><input type=checkbox name=tags value=mentor> Mentor</label>'
        b'<label><input type=checkbox name=tags value=on-call> On call</label></fieldset>'
        b'<button>Save</button></form>')


def test_a_box_of_a_group_is_ticked_or_unticked_by_its_own_label_keeping_the_others() -> None:
    url = "https://example.org/people/7"
    meta = page_meta(compile_page(TAGS, url), Capture(url, url, 200, "text/html", TAGS, ()))
    form = next(i for i, a in meta["actions"].items() if a["kind"] == "submit")
    action = meta["actions"][form]
    assert check_inputs(form, action, (("On call", "on"), ("Remote", "off"))) == {
        "tags": "on-call"}
    assert check_inputs(form, action, (("mentor", "on"),)) == {"tags": "remote|mentor"}
    assert check_inputs(form, action, (("Remote", "off"),)) == {"tags": "off"}
    # Given with the group's own value too, a box changes what the command gives.
    assert check_inputs(form, action, (("tags", "mentor"), ("On call", "on"))) == {
        "tags": "mentor|on-call"}

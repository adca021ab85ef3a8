"""Gestures a person makes that an action id alone cannot name, through a real mount: acting
on the words a page shows (its listener on the document, so the words have no address),
selecting text by a mouse drag, dragging by a distance (a resize corner, a slider with no
keys), a jQuery UI sortable list, a page that a gesture freezes, and menus a stylesheet opens
on hover. The pages are fixtures/site/live/scripted/errands.html, highlight.html, resize.html,
sortable.html, css-menu.html and fixtures/site/live/freeze.html."""

from __future__ import annotations

import errno
import re
from collections.abc import Iterator

import pytest

from tests.browser.live_site import LiveSite
from tests.fs.conftest import Mount, browser_mount, sh
from tests.fs.test_interaction import CTL_TIMEOUT, act, address, ctl, grep, landed, opened, refused
from webshellfs import ctl as grammar
from webshellfs.browser import BrowserOptions
from webshellfs.ctl import Execute
from webshellfs.errors import CommandSyntaxError


@pytest.fixture(scope="module")
def mount(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mount]:
    with browser_mount(tmp_path_factory.mktemp("gestures")) as m:
        yield m


# The grammar ---------------------------------------------------------------------------------

@pytest.mark.parametrize(
    ("line", "command"),
    [
        ('dblclick N0003 "buy milk"', Execute("N0003", "", gesture="dblclick", text="buy milk")),
        ("click N0003 buy milk", Execute("N0003", "", gesture="click", text="buy milk")),
        ('hover N0003 "milk  and  honey"', Execute("N0003", "", gesture="hover", text="milk and honey")),
        ("rightclick N0003 A0004", Execute("N0003", "A0004", gesture="rightclick")),
        ('highlight N0003 "the quick"', Execute("N0003", "", gesture="highlight", text="the quick")),
        ("drag N0003 A0002 --by 120,0", Execute("N0003", "A0002", gesture="drag", by=(120, 0))),
        ("drag N0003 A0002 --by -40,25", Execute("N0003", "A0002", gesture="drag", by=(-40, 25))),
    ],
)
def test_words_and_distances_parse(line: str, command: Execute) -> None:
    assert grammar.parse(line) == command


@pytest.mark.parametrize(
    ("line", "message"),
    [
        ("click N0003", "needs a page and an id or the words to act on"),
        ('click N0003 " "', "the words to act on are empty"),
        ("dblclick N0003 A0002 milk", "takes a page and one id, not 'milk'"),
        ("drag N0003 A0002 --by 120", "--by takes pixels right,down"),
        ("drag N0003 A0002 --by right,down", "--by takes pixels right,down"),
        ("drag N0003 A0002 A0004 --by 1,2", "not both"),
        ("highlight N0003 T01", "is not an action or link id"),
    ],
)
def test_malformed_words_and_distances_are_refused(line: str, message: str) -> None:
    with pytest.raises(CommandSyntaxError, match=re.escape(message)):
        grammar.parse(line)


def test_help_lists_the_new_gestures() -> None:
    shown = grammar.help_text()
    for usage in ("click <page> <id-or-words>", "highlight <page> <id-or-words>", "--by DX,DY"):
        assert usage in shown


# Through the mount ---------------------------------------------------------------------------

def test_words_a_document_listener_serves(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live, "/scripted/errands.html")
    # The rows carry nothing a capture sees: no action names them.
    assert "buy milk" not in sh(f"cat {mount.path}/{page}/actions.tsv").stdout
    # The whole text "buy milk" beats "buy milk chocolate", and the hidden copy is not shown.
    lines = ctl(mount, f'dblclick {page} "buy milk"')
    assert f'double-clicked "buy milk" on {page}' in lines
    edited = landed(lines)
    assert grep(mount, edited, "Editing: buy milk")
    menu = act(mount, f'rightclick {edited} "walk the dog"')
    assert grep(mount, menu, "Menu for: walk the dog")
    pointed = act(mount, f'hover {menu} "buy milk chocolate"')
    assert grep(mount, pointed, "Pointing at: buy milk chocolate")
    # A word inside a wide paragraph is clicked where it is drawn, not at the paragraph's centre.
    clicked = act(mount, f'click {pointed} "quick"')
    assert grep(mount, clicked, "Clicked word: quick")
    assert "_state.md" in sh(f"ls {mount.path}/{clicked}").stdout
    assert 'click "quick"' in sh(f"cat {mount.path}/{clicked}/_state.md").stdout


def test_words_that_name_no_one_element_are_refused(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live, "/scripted/errands.html")
    several = refused(mount, f'dblclick {page} "milk"')
    assert "2 shown elements hold the words 'milk' equally well" in several
    # Each candidate with the line of content/ that shows it.
    assert re.search(rf"{page}/content/\S+\.md:\d+: 'buy milk'", several), several
    assert re.search(rf"{page}/content/\S+\.md:\d+: 'buy milk chocolate'", several), several
    nowhere = refused(mount, f'click {page} "purple elephant"')
    assert "no shown element on the tab holds the words 'purple elephant'" in nowhere
    assert f"the page is still {page}" in nowhere
    # The hidden template's words are in the document, not shown.
    assert "(they are in its text, but hidden)" in refused(mount, f'click {page} "milk template"')
    # Nothing was done, and the tab still acts.
    edited = act(mount, f'dblclick {page} "walk the dog"')
    assert grep(mount, edited, "Editing: walk the dog")


def test_text_selected_by_a_drag_as_a_page_reads_it(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live, "/scripted/highlight.html")
    words = "Second paragraph: the quick brown fox."
    lines = ctl(mount, f'highlight {page} "{words}"')
    assert f'selected: "{words}"' in lines
    chosen = landed(lines)
    assert grep(mount, chosen, f"Selected: {words}")
    # The selection is still there when a button is clicked, as MiniWoB++'s check reads it.
    submitted = act(mount, f"execute {chosen} {address(mount, chosen, 'Submit')}")
    assert grep(mount, submitted, f"Submitted: {words}")
    # Part of a paragraph, and an element's whole text by its id.
    part = act(mount, f'highlight {submitted} "dolor sit"')
    assert grep(mount, part, "Selected: dolor sit")
    note = address(mount, part, "Note: press here to begin.")
    whole = ctl(mount, f"highlight {part} {note}")
    assert f"selected: the whole text of {note}" in whole
    assert grep(mount, landed(whole), "Selected: Note: press here to begin.")


def test_highlight_on_an_element_with_no_text_is_refused(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live, "/scripted/highlight.html")
    clear = address(mount, page, "Clear")
    assert "shows no text to highlight" in refused(mount, f"highlight {page} {clear}")
    chosen = act(mount, f'highlight {page} "lorem ipsum"')
    assert grep(mount, chosen, "Selected: lorem ipsum")


def test_drag_by_a_distance_resizes_by_the_corner_and_moves_a_slider(
    mount: Mount, live: LiveSite
) -> None:
    page = opened(mount, live, "/scripted/resize.html")
    notes = address(mount, page, "Notes")
    lines = ctl(mount, f"drag {page} {notes} --by 120,30")
    assert any(line.startswith(f"dragged {notes}") and "by 120,30 px" in line for line in lines)
    page = landed(lines)
    assert grep(mount, page, "Size: 320 x 90")
    # jQuery UI's resizable: the corner handle it draws in a wrapper round the box.
    memo = address(mount, page, "Memo")
    page = act(mount, f"drag {page} {memo} --by 40,-20")
    assert grep(mount, page, "Memo size: 190 x 30")
    knob = re.search(r"\[(A\d{4}) [^\]]*\(id: knob\)", sh(f"cat {mount.path}/{page}/content/*").stdout)
    assert knob, sh(f"cat {mount.path}/{page}/content/*").stdout
    slid = act(mount, f"drag {page} {knob.group(1)} --by 140,0")
    assert grep(mount, slid, "Level: 50")
    assert "--by takes pixels right,down" in refused(mount, f"drag {slid} {knob.group(1)} --by 140")
    back = act(mount, f"drag {slid} {knob.group(1)} --by -70,0")
    assert grep(mount, back, "Level: 25")


def _queue(mount: Mount, page: str) -> dict[str, str]:
    """The queue's names and their ids, from the lines of content/ that show them."""
    shown = sh(f"cat {mount.path}/{page}/content/*").stdout
    return {name: ident for ident, name in re.findall(r'\[(A\d{4}) clickable "(\w+)"\]', shown)}


def test_a_jquery_ui_sortable_list_takes_drags_both_ways(mount: Mount, live: LiveSite) -> None:
    page = opened(mount, live, "/scripted/sortable.html")
    names = _queue(mount, page)
    assert set(names) >= {"Ada", "Brook", "Cyril", "Dana", "Emil"}, names
    # Down by one: the drop crosses the next item's half line.
    page = act(mount, f"drag {page} {names['Brook']} {names['Cyril']}")
    assert grep(mount, page, "Order: Ada, Cyril, Brook, Dana, Emil")
    names = _queue(mount, page)
    page = act(mount, f"drag {page} {names['Ada']} {names['Emil']}")
    assert grep(mount, page, "Order: Cyril, Brook, Dana, Emil, Ada")
    names = _queue(mount, page)
    page = act(mount, f"drag {page} {names['Dana']} {names['Cyril']}")
    assert grep(mount, page, "Order: Dana, Cyril, Brook, Emil, Ada")


def test_a_gesture_that_freezes_the_page_fails_at_the_action_timeout(
    mount: Mount, live: LiveSite
) -> None:
    """freeze.html's button loops forever on click. A double click on its words is raw mouse
    input, which has no timeout of its own: the command fails at the action timeout, not the
    call's whole deadline, and the daemon goes on serving."""
    page = opened(mount, live, "/freeze.html")
    result = mount.ctl(f'dblclick {page} "Freeze the page"', timeout=CTL_TIMEOUT)
    mount.assert_failed(result, errno.ETIMEDOUT)
    assert ("the page stopped responding (a double click on 'Freeze the page' did not finish "
            f"within {BrowserOptions.action_timeout:g} s)") in result.stdout, result.stdout
    assert "was closed" in result.stdout, result.stdout
    again = opened(mount, live, "/scripted/errands.html")
    assert grep(mount, again, "buy milk")


def test_a_menu_the_stylesheet_opens_on_hover(mount: Mount, live: LiveSite) -> None:
    """fixtures/site/live/scripted/css-menu.html: menus shown by `:hover` rules alone. Their
    items are hover targets an agent greps for; hovering one answers with the links it
    showed, and the submenu's item inside is a hover target in turn."""
    page = opened(mount, live, "/scripted/css-menu.html")
    nav = sh(f"cat {mount.path}/{page}/boilerplate/nav.md").stdout
    about = re.search(r'\[(A\d{4}) hover target "About"\]', nav)
    assert about, nav
    lines = ctl(mount, f"hover {page} {about.group(1)}")
    assert f'hovered over {about.group(1)} hover target "About" on {page}' in lines, lines
    shown = "\n".join(lines)
    people = re.search(r'\+ boilerplate/nav\.md:\d+: - \[(A\d{4}) hover target "Our people"\] '
                       r"Our people \[L\d{4}\]", shown)
    assert people, shown
    assert re.search(r"\+ boilerplate/nav\.md:\d+: - History \[L\d{4}\]", shown), shown
    submenu = ctl(mount, f"hover {landed(lines)} {people.group(1)}")
    shown = "\n".join(submenu)
    for words in ("Booksellers", "Binders"):
        assert re.search(rf"\+ boilerplate/nav\.md:\d+: +- {words} \[L\d{{4}}\]", shown), shown
    # The shop's colours (`a:hover { color: red }`, `.notice:hover span { color: blue }`) and
    # a rule for print make nothing a hover target: the page's actions are its two menus and
    # the words whose note shows beside them.
    actions = sh(f"cat {mount.path}/{page}/actions.tsv").stdout.splitlines()[1:]
    assert [row.split("\t")[1:3] for row in actions] == [
        ["hover", "Fiction"], ["hover", "About"], ["hover", "Gift wrapping"]]

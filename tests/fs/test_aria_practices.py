"""The W3C ARIA Authoring Practices examples driven through a real mount, as an agent does it:
grep the compiled files for what a person looks for, take the address on that line, act with a
`.ctl` command, grep the new state for the widget's end state.

The pages are the upstream examples (tests/corpora/aria-practices/, copied from the shared
corpus with their scripts and stylesheets; W3C Software and Document License), served on
127.0.0.1; the stylesheets some of them link from the internet simply fail to load. Their
widgets are built by script, so every test depends on live discovery and on acting as a person
does. docs/benchmarks.md lists every example with its status."""

from __future__ import annotations

import functools
import re
import threading
import time
from collections.abc import Iterator
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from tests.fs.conftest import Mount, browser_mount, sh

EXAMPLES = Path(__file__).resolve().parents[1] / "corpora" / "aria-practices"
CTL_TIMEOUT = 120
FEED_PAGE = 10  # articles the feed example loads at a time
FEED_SCROLLS = 24
FEED_WAIT = 0.5  # seconds between looks while the feed loads its first articles


class _QuietHandler(SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        return


@pytest.fixture(scope="module")
def examples() -> Iterator[str]:
    """The examples' folder over HTTP on loopback: the base URL of content/patterns/."""
    handler = functools.partial(_QuietHandler, directory=str(EXAMPLES))
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}/content/patterns"
    server.shutdown()
    server.server_close()


@pytest.fixture(scope="module")
def mount(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Mount]:
    with browser_mount(tmp_path_factory.mktemp("aria")) as mounted:
        yield mounted


def ctl(mount: Mount, command: str) -> list[str]:
    """Run a command that must succeed; its response lines."""
    result = mount.ctl(command, timeout=CTL_TIMEOUT)
    assert result.returncode == 0, result.stdout + result.stderr
    return result.stdout.splitlines()


def opened(mount: Mount, examples: str, example: str) -> str:
    """Open content/patterns/<example>.html; its page address."""
    return ctl(mount, f"open {examples}/{example}.html")[1].split()[0]


def act(mount: Mount, command: str) -> str:
    """Run an acting command; the page it led to (the page itself when nothing changed)."""
    lines = ctl(mount, command)
    for line in lines:
        found = re.match(r"→ (?:unchanged: )?(N\d{4})", line)
        if found:
            return found.group(1)
    raise AssertionError(f"no resulting page in {lines}")


def grep(mount: Mount, page: str, text: str, where: str = "content/") -> str:
    """`grep -rnF TEXT PAGE/WHERE`: the matching lines, leaving out the example's own HTML
    source, which the page lists under "HTML Source Code" (it holds every hidden text)."""
    quoted = text.replace("'", "'\\''")
    return sh(f"grep -rnF --exclude='*-source-code.md' -- '{quoted}' "
              f"{mount.path}/{page}/{where}").stdout


def shown(mount: Mount, page: str, text: str) -> list[str]:
    """The content lines showing text, leaving out those marked `[hidden until A…]` (text the
    page keeps but shows only after that action)."""
    return [line for line in grep(mount, page, text).splitlines() if "[hidden until " not in line]


def address(mount: Mount, page: str, label: str, where: str = "") -> str:
    """The id of the control shown as `[A0007 … "label"]` (anywhere in the page, or where)."""
    for line in grep(mount, page, f'"{label}', where).splitlines():
        found = re.search(r"\[(A\d{4})\b[^\]]*\"" + re.escape(label), line)
        if found:
            return found.group(1)
    raise AssertionError(f"no control shows {label!r} in {page}:\n" + actions(mount, page))


def link(mount: Mount, page: str, text: str) -> str:
    """The id of the link whose text is `text` (links.tsv's third column; a link into the page
    goes on with ` → ` and the file it leads to)."""
    rows = [row.split("\t") for row in actions(mount, page, "links.tsv").splitlines()]
    found = [row[0] for row in rows if len(row) > 2 and row[2].split(" → ")[0] == text]
    assert found, f"no link {text!r} in {page}"
    return found[0]


def actions(mount: Mount, page: str, name: str = "actions.tsv") -> str:
    return (mount.path / page / name).read_text()


def action_row(mount: Mount, page: str, action: str) -> list[str]:
    """An action's actions.tsv row: id, kind, label, context, inputs, section."""
    for line in actions(mount, page).splitlines():
        if line.startswith(action + "\t"):
            return line.split("\t")
    raise AssertionError(f"no {action} in {page}")


def column(mount: Mount, page: str, table: str, index: int) -> list[str]:
    """A table's column (0-based) from tables/T…tsv, header line left out."""
    lines = (mount.path / page / "tables" / f"{table}.tsv").read_text().splitlines()[1:]
    return [line.split("\t")[index] for line in lines]


def table_with(mount: Mount, page: str, header: str) -> str:
    """The table whose header line holds `header`."""
    for path in sorted((mount.path / page / "tables").glob("T*.tsv")):
        if header in path.read_text().splitlines()[0]:
            return path.stem
    raise AssertionError(f"no table with {header!r} in its header in {page}")


def taking(mount: Mount, page: str, control: str, label: str = "") -> str:
    """The page's one action whose inputs say `(<control>:` or `(<control>,` (a list box, a
    combobox), labelled `label` if given: actions.tsv read with awk, as an agent would."""
    rows = [line.split("\t") for line in actions(mount, page).splitlines()[1:]]
    found = [row[0] for row in rows if re.search(rf"\({control}[:,]", row[4])
             and (not label or row[2] == label)]
    assert len(found) == 1, actions(mount, page)
    return found[0]


# --- combobox ------------------------------------------------------------------------------


def test_combobox_list_autocomplete_choose_alabama(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "combobox/examples/combobox-autocomplete-list")
    state = address(mount, page, "State")
    typed = act(mount, f"execute {page} {state} value=Ala")
    suggestions = taking(mount, typed, "listbox")
    assert "listbox: Alabama|Alaska)" in action_row(mount, typed, suggestions)[4]
    chosen = act(mount, f"execute {typed} {suggestions} value=Alabama")
    assert "current=Alabama" in action_row(mount, chosen, state)[4]


def test_combobox_both_autocomplete_completes_inline(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "combobox/examples/combobox-autocomplete-both")
    state = address(mount, page, "State")
    chosen = act(mount, f"execute {page} {state} value=Ala --press Enter")
    assert "current=Alabama" in action_row(mount, chosen, state)[4]


def test_combobox_without_autocomplete_picks_a_previous_search(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "combobox/examples/combobox-autocomplete-none")
    search = address(mount, page, "Search")
    listed = act(mount, f"execute {page} {address(mount, page, 'Previous Searches')}")
    choices = taking(mount, listed, "listbox")
    assert "dictionary" in action_row(mount, listed, choices)[4]
    chosen = act(mount, f"execute {listed} {choices} value=dictionary")
    assert "current=dictionary" in action_row(mount, chosen, search)[4]


def test_select_only_combobox_chooses_a_fruit(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "combobox/examples/combobox-select-only")
    box = taking(mount, page, "combobox", "Favorite Fruit")  # its label is clickable too
    chosen = act(mount, f"execute {page} {box} value=Banana")
    assert "current=Banana" in action_row(mount, chosen, box)[4]


def test_date_picker_combobox_typed_date_shows_in_the_calendar(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "combobox/examples/combobox-datepicker")
    date = address(mount, page, "Date")
    typed = act(mount, f"execute {page} {date} value=01/26/2025")
    shown = act(mount, f"execute {typed} {address(mount, typed, 'Choose Date')}")
    assert grep(mount, shown, "January 2025", where="boilerplate/popup.md")
    later = act(mount, f"execute {shown} {address(mount, shown, 'next month')}")
    assert grep(mount, later, "February 2025", where="boilerplate/popup.md")
    done = act(mount, f"execute {later} {address(mount, later, 'Cancel')}")
    assert "current=01/26/2025" in action_row(mount, done, date)[4]


def test_date_picker_combobox_day_chosen_in_the_calendar(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "combobox/examples/combobox-datepicker")
    date = address(mount, page, "Date")
    typed = act(mount, f"execute {page} {date} value=01/26/2025")
    shown = act(mount, f"execute {typed} {address(mount, typed, 'Choose Date')}")
    calendar = table_with(mount, shown, "Su")
    day = [line for line in (mount.path / shown / "tables" / f"{calendar}.cells").read_text()
           .splitlines() if line.split("\t")[4:5] == ["15"]]
    assert day and re.search(r"A\d{4}", day[0].split("\t")[5]), day
    picked = act(mount, f"execute {shown} {day[0].split(chr(9))[5]}")
    # A click on a day chooses it and closes the dialog; were it still open, OK confirms.
    still_open = [line for line in grep(mount, picked, '"OK"').splitlines()
                  if "[hidden until" not in line]
    done = act(mount, f"execute {picked} {address(mount, picked, 'OK')}") if still_open else picked
    assert "current=1/15/2025" in action_row(mount, done, date)[4]  # as the page writes it


# --- disclosure and dialogs ----------------------------------------------------------------


def test_accordion_opens_the_billing_section(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "accordion/examples/accordion")
    billing = address(mount, page, "Billing Address")
    assert "collapsed" in action_row(mount, page, billing)[3]
    assert not shown(mount, page, "Zip Code:")
    opened_up = act(mount, f"execute {page} {billing}")
    assert "expanded" in action_row(mount, opened_up, billing)[3]
    zip_code = address(mount, opened_up, "Zip Code:")
    filled = act(mount, f"execute {opened_up} {zip_code} value=02134")
    assert "current=02134" in action_row(mount, filled, zip_code)[4]


def test_disclosure_shows_an_answer(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "disclosure/examples/disclosure-faq")
    question = address(mount, page, "Is there free parking on holidays?")
    answered = act(mount, f"execute {page} {question}")
    assert "expanded" in action_row(mount, answered, question)[3]
    assert grep(mount, answered, "No exceptions are made for any holiday")


def test_disclosure_navigation_link_updates_the_sample_page(mount: Mount, examples: str) -> None:
    """The menu's links change the heading of a sample page (`div.disclosure-page-content
    role=region`), which is the page's content: a class word `disclosure` once filed it as an
    affiliate disclosure in ads.md, where the new heading was out of an agent's sight."""
    page = opened(mount, examples, "disclosure/examples/disclosure-navigation")
    menu = act(mount, f"execute {page} {address(mount, page, 'Admissions')}")
    tuition = act(mount, f"execute {menu} {link(mount, menu, 'Tuition')}")
    headings = [line for line in grep(mount, tuition, "Tuition").splitlines() if ":# " in line]
    assert any(line.endswith("> Tuition") or line.endswith("# Tuition") for line in headings), (
        grep(mount, tuition, "#"))


def test_modal_dialog_filled_and_verified(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "dialog-modal/examples/dialog")
    dialog = act(mount, f"execute {page} {address(mount, page, 'Add Delivery Address')}")
    street = address(mount, dialog, "Street:", where="boilerplate/popup.md")
    filled = act(mount, f'execute {dialog} {street} value="12 Main St"')
    verified = act(mount, f"execute {filled} {address(mount, filled, 'Verify Address')}")
    assert grep(mount, verified, "Verification Result", where="boilerplate/")
    assert 'current="12 Main St"' in action_row(mount, verified, street)[4]


# --- lists, menus and trees ----------------------------------------------------------------


def test_scrollable_listbox_selects_curium(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "listbox/examples/listbox-scrollable")
    elements = address(mount, page, "Transuranium elements:")
    chosen = act(mount, f"execute {page} {elements} value=Curium")
    assert "current=Curium" in action_row(mount, chosen, elements)[4]


def test_menu_button_runs_action_three(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "menu-button/examples/menu-button-actions")
    menu = act(mount, f"execute {page} {address(mount, page, 'Actions')}")
    done = act(mount, f"execute {menu} {address(mount, menu, 'Action 3')}")
    assert 'current="Action 3"' in action_row(mount, done, address(mount, done, "Last Action:"))[4]


def test_menubar_navigates_to_a_page_two_menus_deep(mount: Mount, examples: str) -> None:
    """Its menu items are links. Over an open menu, pointing at "Facts" opens its submenu
    (a click there would toggle it shut again, for a person as for us)."""
    page = opened(mount, examples, "menubar/examples/menubar-navigation")
    about = act(mount, f"execute {page} {link(mount, page, 'About')}")
    facts = act(mount, f"hover {about} {link(mount, about, 'Facts')}")
    history = act(mount, f"execute {facts} {link(mount, facts, 'History')}")
    assert grep(mount, history, "# History")
    # The menus closed again: their items are text they show once opened, marked with that.
    closed = grep(mount, history, "History [L", where="boilerplate/nav.md").splitlines()
    assert closed and all('[hidden until "Facts"]' in line for line in closed), closed


def test_treeview_expands_a_folder_and_selects_a_file(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "treeview/examples/treeview-1b")
    assert "\tproject-1.docx\t" not in actions(mount, page)  # no action until its folder opens
    projects = address(mount, page, "Projects")
    expanded = act(mount, f"execute {page} {projects}")
    assert "expanded" in action_row(mount, expanded, projects)[3]
    chosen = act(mount, f"execute {expanded} {address(mount, expanded, 'project-1.docx')}")
    selected = address(mount, chosen, "File or Folder Selected:")
    assert "current=project-1.docx" in action_row(mount, chosen, selected)[4]


def test_treegrid_expands_a_thread(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "treegrid/examples/treegrid-1")
    assert not grep(mount, page, "Cool, we've been needing an example", where="")
    # A row is an action; each of its cells' lines in tables/ carries the row's id.
    cells = grep(mount, page, "They are great for showing a lot of data", where="tables/")
    row = re.search(r"\t(A\d{4})\b", cells)
    assert row, cells
    expanded = act(mount, f"dblclick {page} {row.group(1)}")
    assert grep(mount, expanded, "Cool, we've been needing an example", where="")


def test_feed_loads_more_articles_when_scrolled(mount: Mount, examples: str) -> None:
    """The feed (in an iframe) shows its first ten articles one by one, then loads ten more
    each time it is scrolled near its end: scrolled over its last article until it does."""
    page = opened(mount, examples, "feed/examples/feed")
    seen = 0
    for _ in range(FEED_SCROLLS):
        bookmarks = re.findall(r"\[(A\d{4}) button \"Bookmark\"\]", grep(mount, page, "Bookmark"))
        if len(bookmarks) > FEED_PAGE:
            break
        # The feed adds its articles one by one on timers: while none came since the last
        # look, give it a moment (a loaded machine runs them late), then scroll or look again.
        if len(bookmarks) == seen:
            time.sleep(FEED_WAIT)
        seen = len(bookmarks)
        page = act(mount, f"scroll {page} {bookmarks[-1]} down" if bookmarks else f"focus {page}")
    assert len(bookmarks) > FEED_PAGE, sh(f"cat {mount.path}/{page}/_map.md").stdout
    assert len(grep(mount, page, "Tito's Tacos").splitlines()) >= 2  # the list starts again


# --- tables and grids ----------------------------------------------------------------------


def test_sortable_table_sorted_by_last_name(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "table/examples/sortable-table")
    table = table_with(mount, page, "Last Name")
    sorted_page = act(mount, f"execute {page} {address(mount, page, 'Last Name')}")
    names = column(mount, sorted_page, table, 1)
    assert names == sorted(names, reverse=True) and names != column(mount, page, table, 1)


def test_data_grid_sorted_by_amount(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "grid/examples/data-grids")
    amount = address(mount, page, "Amount")
    table = table_with(mount, page, f'[{amount} button "Amount"]')
    sorted_page = act(mount, f"execute {page} {amount}")
    amounts = [float(a.strip("$").replace(",", "")) for a in column(mount, sorted_page, table, 4)]
    assert amounts == sorted(amounts) and amounts[0] == 9.0


# --- choices and values --------------------------------------------------------------------


def test_checkbox_checks_lettuce(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "checkbox/examples/checkbox")
    lettuce = address(mount, page, "Lettuce")
    checked = act(mount, f"execute {page} {lettuce}")
    assert action_row(mount, checked, lettuce)[3].startswith("checked")


def test_radio_group_chooses_deep_dish(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "radio/examples/radio")
    deep = address(mount, page, "Deep dish")
    chosen = act(mount, f"execute {page} {deep}")
    assert action_row(mount, chosen, deep)[3].startswith("checked")
    thin = address(mount, chosen, "Thin crust")
    assert action_row(mount, chosen, thin)[3].startswith("unchecked")


def test_switch_turns_notifications_on(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "switch/examples/switch")
    switch = address(mount, page, "Notifications")
    on = act(mount, f"execute {page} {switch}")
    assert action_row(mount, on, switch)[3].startswith("checked")


def test_slider_set_to_a_value(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "slider/examples/slider-color-viewer")
    red = address(mount, page, "Red")
    set_page = act(mount, f"execute {page} {red} value=200")
    assert "current=200" in action_row(mount, set_page, red)[4]
    rgb = address(mount, set_page, "Color (RGB):")
    assert 'current="200, 128, 128"' in action_row(mount, set_page, rgb)[4]


def test_spin_button_counts_guests(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "spinbutton/examples/quantity-spinbutton")
    added = act(mount, f"execute {page} {address(mount, page, 'Add kid')}")
    added = act(mount, f"execute {added} {address(mount, added, 'Add kid')}")
    assert "current=2" in action_row(mount, added, address(mount, added, "Kids"))[4]
    adults = address(mount, added, "Adults")
    typed = act(mount, f"execute {added} {adults} value=4")
    assert "current=4" in action_row(mount, typed, adults)[4]


def test_tabs_open_the_third_tab(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "tabs/examples/tabs-automatic")
    third = address(mount, page, "Ida da Fonseca")
    assert not shown(mount, page, "Danish opera singer")
    opened_tab = act(mount, f"execute {page} {third}")
    assert "selected" in action_row(mount, opened_tab, third)[3]
    assert shown(mount, opened_tab, "was a Danish opera singer and composer")


def test_toolbar_bold_and_night_mode(mount: Mount, examples: str) -> None:
    page = opened(mount, examples, "toolbar/examples/toolbar")
    bold = address(mount, page, "Bold")
    pressed = act(mount, f"execute {page} {bold}")
    assert "pressed" in action_row(mount, pressed, bold)[3]
    night = address(mount, pressed, "Night Mode")
    dark = act(mount, f"execute {pressed} {night}")
    assert action_row(mount, dark, night)[3].startswith("checked")

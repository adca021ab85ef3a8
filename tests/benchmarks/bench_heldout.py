"""Held-out interaction: the ARIA Authoring Practices examples no one here tuned against,
driven by the scripted agent of bench_interaction.py through a real mount.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_heldout.py [--rounds 1] [--tasks WORD]

The shared corpus (`$WEBSHELL_CORPORA/aria-practices/`, default ../shared/corpora) holds 76
example pages; the ones copied to tests/corpora/aria-practices/ are the dev set
(tests/fs/test_aria_practices.py), the others are held out. The corpus is served on 127.0.0.1
(the handler of test_aria_practices.py; the stylesheets and pages on the internet fail to load)
and one webshellfs mount with the local Chromium opens each held-out example.

For each example with a widget a person can drive, one task as a person would state it from
the page ("rate it four stars", "open the third slide", "choose Serif in the Font menu"). The
agent (bench_interaction's Agent) finds each address by grepping for the text a person would
look for, acts with a `.ctl` command, and the end state is checked by grepping the compiled
files of the page it led to: an action's row in actions.tsv (checked, pressed, selected,
expanded, current=…) or text shown in content/ (not marked `[hidden until …]`). The example's
own source listings (the sections under "HTML Source Code", which the page keeps in step with
its live DOM) are never read as proof. Examples with nothing to drive are "read only": their text must be
greppable. The script prints each task's success and the characters the agent read, then the
steps and the compiled files of each failure.
"""

from __future__ import annotations

import argparse
import functools
import itertools
import os
import re
import shlex
import statistics
import sys
import tempfile
import threading
from collections.abc import Callable
from dataclasses import dataclass
from http.server import ThreadingHTTPServer
from pathlib import Path

import lxml.html

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_interaction import (  # noqa: E402
    Agent,
    Daemon,
    TaskFailed,
    TaskResult,
    attempt,
)
from tests.fs.test_aria_practices import EXAMPLES as DEV_EXAMPLES  # noqa: E402
from tests.fs.test_aria_practices import _QuietHandler  # noqa: E402

CORPUS = Path(os.environ.get("WEBSHELL_CORPORA", ROOT.parent / "shared" / "corpora")) / "aria-practices"
PATTERNS = "content/patterns"
# The example's own HTML and script listings hold every text of the page, shown or not: the
# sections under a "… Source Code" heading (one file, or one per example beside it).
SOURCE_HEADING = "Source Code"
# How many times the agent presses a carousel's Next before it gives up looking for a slide.
MAX_NEXTS = 6
# Words of a read-only page's first paragraph that must be greppable.
READ_WORDS = 6


class Corpus:
    """A corpus folder over HTTP on loopback; `url(path)` as LiveSite gives it. `handler`: the
    request handler class (a quiet static one unless a benchmark serves its pages changed)."""

    def __init__(self, folder: Path, handler_class: type = _QuietHandler) -> None:
        handler = functools.partial(handler_class, directory=str(folder))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


def example_path(example: str) -> str:
    """`radio/radio-rating` → the URL path of content/patterns/radio/examples/radio-rating.html."""
    pattern, name = example.split("/")
    return f"/{PATTERNS}/{pattern}/examples/{name}.html"


def examples_in(folder: Path) -> set[str]:
    return {f"{page.parents[1].name}/{page.stem}"
            for page in (folder / PATTERNS).glob("*/examples/*.html")}


# What the agent reads --------------------------------------------------------------------------

QUOTED_REF = re.compile(r"\[([AL]\d{4})\b[^\]\"]*\"([^\"]*)\"")


def control(agent: Agent, page: str, label: str, want: str = "") -> str:
    """The address of the control a person knows by `label`: on the lines that show the label,
    a reference whose quoted label is exactly it, else one whose label holds it (content/
    first, then the whole page); else what Agent.find takes (a reference next to the text)."""
    for where in ("content/", ""):
        lines = agent.grep(page, f'"{label}', where) + agent.grep(page, label, where)
        refs = [(m.group(1), m.group(2)) for line in lines for m in QUOTED_REF.finditer(line)]
        ranked = [i for i, text in refs if text == label] + [i for i, text in refs if label in text]
        for ident in dict.fromkeys(ranked):
            if not want or _wanted(agent.row(page, ident), want):
                agent.transcript.append(f"# {label!r} is {ident}")
                return ident
    return agent.find(page, label, want)


def _wanted(columns: list[str], want: str) -> bool:
    return len(columns) > 3 and (columns[1] == want or bool(
        re.search(rf"\bon: [^\t]*\b{want}\b", columns[3])))


def page_lines(agent: Agent, page: str, text: str, where: str = "content/*.md") -> list[str]:
    """`file:line` of the lines holding `text`, leaving out the source listings (files whose
    heading path holds SOURCE_HEADING)."""
    script = ("FNR == 1 { listing = index($0, heading) > 0 } "
              "!listing && index($0, text) { print FILENAME \":\" FNR \":\" $0 }")
    return agent.shell(f"awk -v heading={shlex.quote(SOURCE_HEADING)} -v text={shlex.quote(text)} "
                       f"{shlex.quote(script)} {page}/{where}").splitlines()


def shown(agent: Agent, page: str, text: str) -> list[str]:
    """Lines of content/ and boilerplate/ (not hidden.md) showing `text`, leaving out the
    source listings and text marked `[hidden until …]`."""
    lines = page_lines(agent, page, text, "{content,boilerplate}/*.md")
    return [line for line in lines if "[hidden until " not in line and "/hidden.md:" not in line]


def require_shown(agent: Agent, page: str, text: str, present: bool = True) -> None:
    if bool(shown(agent, page, text)) != present:
        holding = page_lines(agent, page, text, "{content,boilerplate}/*.md")
        raise TaskFailed(f"{text!r} {'not shown in' if present else 'still shown in'} {page}; "
                         f"lines holding it:\n" + "\n".join(line[:300] for line in holding))


def require_heading(agent: Agent, page: str, title: str) -> None:
    """A content/ file whose heading path ends with `title` (a page region retitled by script)."""
    headings = agent.shell(f"grep -h -m1 '^# ' {page}/content/*.md").splitlines()
    if not any(line.rstrip().endswith(f"> {title}") or line.rstrip() == f"# {title}"
               for line in headings):
        raise TaskFailed(f"no heading {title!r} in {page}/content/; headings:\n"
                         + "\n".join(headings))


def require_row(agent: Agent, page: str, ident: str, pattern: str, column: int) -> None:
    """The id's actions.tsv row matches `pattern` in its context (3) or inputs (4) column."""
    columns = agent.row(page, ident)
    if len(columns) <= column or not re.search(pattern, columns[column]):
        raise TaskFailed(f"{page}/{ident}'s row does not match {pattern!r}: {columns}")


def require_state(agent: Agent, page: str, ident: str, state: str) -> None:
    """checked, pressed, selected, expanded … at the start of the context, as a word."""
    require_row(agent, page, ident, rf"^(?:[^,]*, )*{state}\b", 3)


def require_current(agent: Agent, page: str, ident: str, value: str) -> None:
    require_row(agent, page, ident, rf"current=\"?{re.escape(value)}(?:\"|[,)]|$)", 4)


def require_action(agent: Agent, page: str, label: str) -> None:
    """Some action of the page is labelled with `label` (a button that renamed itself)."""
    rows = agent.shell(f"cut -f3 {page}/actions.tsv").splitlines()
    if not any(label in row for row in rows):
        raise TaskFailed(f"no action labelled {label!r} in {page}/actions.tsv:\n"
                         + agent.shell(f"cut -f1-5 {page}/actions.tsv | cut -c1-200"))


def revealed(agent: Agent, before: str, after: str, ident: str) -> None:
    """What `before` marked `[hidden until IDENT …]` is shown in `after` (its first words)."""
    marked = page_lines(agent, before, f"[hidden until {ident} ")
    pieces = [piece.strip() for line in marked
              for piece in re.split(r"\[[^\]]*\]", line.split(":", 2)[-1])]
    for text in [piece for piece in pieces if len(piece) >= 12][:1]:
        require_shown(agent, after, text[:40])


def table_cell(agent: Agent, page: str, value: str) -> str:
    """The reference in the table cell whose value is `value` (a day in a calendar grid)."""
    for line in agent.shell(f"cat {page}/tables/*.cells").splitlines():
        cells = line.split("\t")
        refs = re.findall(r"\b[AL]\d{4}\b", cells[5]) if len(cells) > 5 else []
        if cells[4:5] == [value] and refs:
            agent.transcript.append(f"# cell {value!r} is {refs[0]}: {line}")
            return refs[0]
    raise TaskFailed(f"no table cell {value!r} with an address in {page}:\n"
                     + agent.shell(f"head -50 {page}/tables/*.cells"))


def press(agent: Agent, page: str, label: str, want: str = "") -> str:
    """Click the control labelled `label`, or, when it is an option of a list box that is one
    action (`value(listbox: …|Curium|…)`), choose it there; the page it led to."""
    try:
        return agent.act(f"execute {page} {control(agent, page, label, want)}")
    except TaskFailed:
        offering = option_list(agent, page, label)
        if offering is None:
            raise
        return agent.act(f"execute {page} {offering} "
                         f"{agent.input_name(page, offering)}={shlex.quote(label)}")


def option_list(agent: Agent, page: str, option: str) -> str | None:
    """The action whose inputs offer `option` among their choices, as actions.tsv shows them."""
    for line in agent.shell(f"grep -F -- {shlex.quote(option)} {page}/actions.tsv").splitlines():
        columns = line.split("\t")
        choices = re.search(r"\((?:listbox|select|combobox|menu)[^:]*: ([^;)]*)", columns[4]
                            if len(columns) > 4 else "")
        if choices and option in choices.group(1).split("|"):
            agent.transcript.append(f"# {option!r} is a choice of {columns[0]}")
            return columns[0]
    return None


def set_value(agent: Agent, page: str, label: str, value: str, extra: str = "") -> tuple[str, str]:
    """Give the field (slider, spin button, list box …) labelled `label` a value."""
    ident = control(agent, page, label)
    name = agent.input_name(page, ident)
    led = agent.act(f"execute {page} {ident} {name}={shlex.quote(value)}{extra}")
    return led, ident


def follows(agent: Agent, page: str, label: str, host: str) -> None:
    """Click a link-like control that leaves for `host`: the answer names where it went."""
    ident = control(agent, page, label)
    answer = agent.daemon.ctl(f"execute {page} {ident}")
    agent.read += len(answer.text)
    agent.transcript.append(f"$ execute {page} {ident}")
    led = [line for line in answer.text.splitlines() if line.startswith("→")]
    if not led or host not in led[0]:
        raise TaskFailed(f"`execute {page} {ident}` did not go to {host}:\n{answer.text}")


# Tasks: one per drivable held-out example -----------------------------------------------------

def alert(agent: Agent) -> None:
    page = press(agent, agent.open(example_path("alert/alert")), "Trigger Alert")
    require_shown(agent, page, "Hello")


def alertdialog(agent: Agent) -> None:
    page = agent.open(example_path("alertdialog/alertdialog"))
    notes = control(agent, page, "Notes")
    page = press(agent, page, "Discard")
    page = press(agent, page, "Yes")
    require_row(agent, page, notes, r"^notes\(textarea(?!.*example text box)", 4)


def _mute(example: str) -> Callable[[Agent], None]:
    def task(agent: Agent) -> None:
        page = agent.open(example_path(example))
        mute = control(agent, page, "Mute")
        page = agent.act(f"execute {page} {mute}")
        require_state(agent, page, mute, "pressed")
    return task


def carousel_next(agent: Agent) -> None:
    page = agent.open(example_path("carousel/carousel-1-prev-next"))
    page = press(agent, page, "Stop automatic slide show")
    wanted = "Great Children's Programming on Public TV"
    for _ in range(MAX_NEXTS):
        if shown(agent, page, wanted):
            return
        page = press(agent, page, "Next Slide")
    require_shown(agent, page, wanted)


def carousel_tab(agent: Agent) -> None:
    page = agent.open(example_path("carousel/carousel-2-tablist"))
    third = control(agent, page, "Slide 3")
    led = agent.act(f"execute {page} {third}")
    require_state(agent, led, third, "selected")
    require_shown(agent, led, "Great Children's Programming on Public TV")


def checkbox_mixed(agent: Agent) -> None:
    page = agent.open(example_path("checkbox/checkbox-mixed"))
    page = press(agent, page, "All condiments")
    for condiment in ("Lettuce", "Tomato", "Mustard", "Sprouts"):
        require_state(agent, page, control(agent, page, condiment), "checked")


def grid_combo(agent: Agent) -> None:
    page = agent.open(example_path("combobox/grid-combo"))
    page, field_id = set_value(agent, page, "Fruits and vegetables", "Ap")
    page = press(agent, page, "Apple")
    require_current(agent, page, field_id, "Apple")


def datepicker_dialog(agent: Agent) -> None:
    page = agent.open(example_path("dialog-modal/datepicker-dialog"))
    date = control(agent, page, "Date")
    page = press(agent, page, "Choose Date")
    page = agent.act(f"execute {page} {table_cell(agent, page, '15')}")
    if shown(agent, page, '"OK"'):
        page = press(agent, page, "OK")
    require_row(agent, page, date, r"current=\"?\d+/15/\d{4}", 4)


def disclosure_card(agent: Agent) -> None:
    page = agent.open(example_path("disclosure/disclosure-card"))
    details = control(agent, page, "Folk Futures: Tradition in the Classroom Details")
    led = agent.act(f"execute {page} {details}")
    require_state(agent, led, details, "expanded")
    revealed(agent, page, led, details)


def disclosure_image(agent: Agent) -> None:
    page = agent.open(example_path("disclosure/disclosure-image-description"))
    table = control(agent, page, "Data Table for Minard's Chart")
    led = agent.act(f"execute {page} {table}")
    require_state(agent, led, table, "expanded")
    revealed(agent, page, led, table)


def _tuition(example: str, menu: str) -> Callable[[Agent], None]:
    def task(agent: Agent) -> None:
        page = press(agent, agent.open(example_path(example)), menu)
        page = press(agent, page, "Tuition")
        require_heading(agent, page, "Tuition")
    return task


def layout_grid(agent: Agent) -> None:
    page = agent.open(example_path("grid/layout-grids"))
    page = press(agent, page, "Recipient Name 1")
    require_shown(agent, page, "Recipient Name 1", present=False)


def link(agent: Agent) -> None:
    follows(agent, agent.open(example_path("link/link")), "W3C website", "www.w3.org")


def listbox_favorite(agent: Agent) -> None:
    page = agent.open(example_path("listbox/listbox-actions"))
    page = press(agent, page, "Climb Everest")
    favorite = control(agent, page, "favorite")
    led = agent.act(f"execute {page} {favorite}")
    require_shown(agent, led, "Climb Everest")
    require_state(agent, led, favorite, "pressed")


def listbox_collapsible(agent: Agent) -> None:
    page = press(agent, agent.open(example_path("listbox/listbox-collapsible")), "Choose an element")
    page = press(agent, page, "Curium")
    require_action(agent, page, "Choose an element: Curium")


def listbox_grouped(agent: Agent) -> None:
    page = agent.open(example_path("listbox/listbox-grouped"))
    page, box = set_value(agent, page, "Choose your animal sidekick", "Dolphin")
    require_current(agent, page, box, "Dolphin")


def listbox_rearrangeable(agent: Agent) -> None:
    feature = "Proximity of public K-12 schools"
    page = agent.open(example_path("listbox/listbox-rearrangeable"))
    page, _ = set_value(agent, page, "Important Features:", feature)
    page = press(agent, page, "Not Important")
    require_row(agent, page, control(agent, page, "Unimportant Features:"),
                re.escape(feature), 4)


def menu_button_active_descendant(agent: Agent) -> None:
    page = agent.open(example_path("menu-button/menu-button-actions-active-descendant"))
    page = press(agent, press(agent, page, "Actions"), "Action 3")
    require_current(agent, page, control(agent, page, "Last Action:"), "Action 3")


def menu_button_links(agent: Agent) -> None:
    page = press(agent, agent.open(example_path("menu-button/menu-button-links")),
                 "WAI-ARIA Quick Links")
    follows(agent, page, "W3C Home Page", "www.w3.org")


def menubar_editor(agent: Agent) -> None:
    """Serif is checked in the Font menu, opened again to see it (the choice closes it)."""
    page = press(agent, press(agent, agent.open(example_path("menubar/menubar-editor")), "Font"),
                 "Serif")
    if not shown(agent, page, '"Serif"'):
        page = press(agent, page, "Font")
    require_state(agent, page, control(agent, page, "Serif"), "checked")


def meter(agent: Agent) -> None:
    """The button becomes "Start Updates", and the usage it froze can be read by its label."""
    page = press(agent, agent.open(example_path("meter/meter")), "Pause Updates")
    require_action(agent, page, "Start Updates")
    usage = "Central Processing Unit (CPU) Usage"
    if not any(re.search(re.escape(usage) + r"\D*\d", line) for line in shown(agent, page, usage)):
        raise TaskFailed(f"no value beside {usage!r} in {page}:\n"
                         + "\n".join(shown(agent, page, usage)))


def radio_active_descendant(agent: Agent) -> None:
    page = agent.open(example_path("radio/radio-activedescendant"))
    thin = control(agent, page, "Thin crust")
    page = agent.act(f"execute {page} {thin}")
    require_state(agent, page, thin, "checked")


def radio_rating(agent: Agent) -> None:
    page = agent.open(example_path("radio/radio-rating"))
    four = control(agent, page, "four stars")
    page = agent.act(f"execute {page} {four}")
    require_state(agent, page, four, "checked")


def _slider(example: str, label: str, value: str) -> Callable[[Agent], None]:
    def task(agent: Agent) -> None:
        page, slider = set_value(agent, agent.open(example_path(example)), label, value)
        require_row(agent, page, slider, rf"current={re.escape(value)}(?:\.0+)?[,)]", 4)
    return task


def switch_button(agent: Agent) -> None:
    page = agent.open(example_path("switch/switch-button"))
    lights = control(agent, page, "Living Room Lights")
    page = agent.act(f"execute {page} {lights}")
    require_state(agent, page, lights, "checked")


def switch_checkbox(agent: Agent) -> None:
    page = agent.open(example_path("switch/switch-checkbox"))
    captions = control(agent, page, "Show captions")
    page = agent.act(f"execute {page} {captions}")
    require_state(agent, page, captions, "checked")


def _tab(example: str, label: str) -> Callable[[Agent], None]:
    def task(agent: Agent) -> None:
        page = agent.open(example_path(example))
        tab = control(agent, page, label)
        led = agent.act(f"execute {page} {tab}")
        require_state(agent, led, tab, "selected")
        revealed(agent, page, led, tab)
    return task


def treeview_file(agent: Agent) -> None:
    page = agent.open(example_path("treeview/treeview-1a"))
    for item in ("Reports", "report-2", "report-2B.docx"):
        page = press(agent, page, item)
    require_current(agent, page, control(agent, page, "File or Folder Selected:"), "report-2B.docx")


def treeview_navigation(agent: Agent) -> None:
    page = agent.open(example_path("treeview/treeview-navigation"))
    for item in ("About", "Facts", "History"):
        page = press(agent, page, item)
    require_heading(agent, page, "History")


TASKS: dict[str, tuple[str, Callable[[Agent], None]]] = {
    "alert/alert": ("trigger the alert: it says Hello", alert),
    "alertdialog/alertdialog": ("discard the notes, confirm Yes: the box is empty", alertdialog),
    "button/button": ("press Mute", _mute("button/button")),
    "button/button_idl": ("press Mute", _mute("button/button_idl")),
    "carousel/carousel-1-prev-next": ("stop the show, Next until \"Great Children's "
                                      "Programming\" shows", carousel_next),
    "carousel/carousel-2-tablist": ("open the third slide", carousel_tab),
    "checkbox/checkbox-mixed": ("check All condiments: all four checked", checkbox_mixed),
    "combobox/grid-combo": ("type Ap, choose Apple", grid_combo),
    "dialog-modal/datepicker-dialog": ("open the calendar, choose the 15th", datepicker_dialog),
    "disclosure/disclosure-card": ("show the details of \"Folk Futures\"", disclosure_card),
    "disclosure/disclosure-image-description": ("show the data table for Minard's chart",
                                                disclosure_image),
    "disclosure/disclosure-navigation": ("Admissions, then Tuition: the page shows Tuition",
                                         _tuition("disclosure/disclosure-navigation", "Admissions")),
    "disclosure/disclosure-navigation-hybrid": (
        "More Admissions pages, then Tuition", _tuition("disclosure/disclosure-navigation-hybrid",
                                                        "More Admissions pages")),
    "grid/layout-grids": ("remove \"Recipient Name 1\"", layout_grid),
    "link/link": ("follow \"W3C website\"", link),
    "listbox/listbox-actions": ("choose \"Climb Everest\", mark it favorite", listbox_favorite),
    "listbox/listbox-collapsible": ("choose Curium", listbox_collapsible),
    "listbox/listbox-grouped": ("choose Dolphin as the sidekick", listbox_grouped),
    "listbox/listbox-rearrangeable": ("move \"Proximity of public K-12 schools\" to the "
                                      "unimportant list", listbox_rearrangeable),
    "menu-button/menu-button-actions-active-descendant": ("Actions, then Action 3",
                                                          menu_button_active_descendant),
    "menu-button/menu-button-links": ("WAI-ARIA Quick Links, then W3C Home Page",
                                      menu_button_links),
    "menubar/menubar-editor": ("choose Serif in the Font menu", menubar_editor),
    "meter/meter": ("pause the updates, read the CPU usage", meter),
    "radio/radio-activedescendant": ("choose Thin crust", radio_active_descendant),
    "radio/radio-rating": ("rate it four stars", radio_rating),
    "slider-multithumb/slider-multithumb": ("set the maximum price to 300", _slider(
        "slider-multithumb/slider-multithumb", "Hotel Maximum Price in US dollars", "300")),
    "slider/slider-rating": ("rate the service 4", _slider(
        "slider/slider-rating", "Rate your satisfaction with the service you received", "4")),
    "slider/slider-seek": ("seek to 2:00 (120 s)", _slider("slider/slider-seek", "Seek", "120")),
    "slider/slider-temperature": ("set the temperature to 30", _slider(
        "slider/slider-temperature", "Temperature", "30")),
    "spinbutton/datepicker-spinbuttons": ("set the day to 15", _slider(
        "spinbutton/datepicker-spinbuttons", "Day", "15")),
    "switch/switch-button": ("turn on the Living Room Lights", switch_button),
    "switch/switch-checkbox": ("turn on Show captions", switch_checkbox),
    "tabs/tabs-actions": ("open the Whale shark tab", _tab("tabs/tabs-actions", "Whale shark")),
    "tabs/tabs-manual": ("open the Carl Andersen tab", _tab("tabs/tabs-manual", "Carl Andersen")),
    "treeview/treeview-1a": ("open Reports, report-2, select report-2B.docx", treeview_file),
    "treeview/treeview-navigation": ("About, Facts, History: the page shows History",
                                     treeview_navigation),
}


def first_words(example: str) -> str:
    """The first words of the first paragraph of plain text in the example's main region (its
    own words, read from the HTML, so no phrase is chosen by hand)."""
    root = lxml.html.parse(str(CORPUS / example_path(example).lstrip("/"))).getroot()
    for scope in [*root.xpath("//main | //*[@role='main']"), root]:
        for paragraph in scope.iter("p", "li", "td"):
            words = (paragraph.text or "").split()
            if len(words) >= READ_WORDS and not paragraph.xpath("ancestor::details"):
                return " ".join(words[:READ_WORDS])
    raise TaskFailed(f"{example} has no paragraph of {READ_WORDS} words")


def read_only(example: str) -> Callable[[Agent], None]:
    def task(agent: Agent) -> None:
        require_shown(agent, agent.open(example_path(example)), first_words(example))
    return task


def table_lookup(agent: Agent) -> None:
    """The table example: one grep of a first name gives the row with its column labels."""
    page = agent.open(example_path("table/table"))
    found = agent.shell(f"grep -hF Ralph {page}/tables/*.cells")
    if "First Name" not in found or "Jefferson" not in found:
        raise TaskFailed(f"grep Ralph in {page}/tables/ gave:\n{found}")


# Running --------------------------------------------------------------------------------------

@dataclass
class Result(TaskResult):
    task: str = ""


def plan(held_out: list[str]) -> dict[str, tuple[str, Callable[[Agent], None]]]:
    """Every held-out example: its task, or a read-only check."""
    planned: dict[str, tuple[str, Callable[[Agent], None]]] = {}
    for example in held_out:
        if example in TASKS:
            planned[example] = TASKS[example]
        elif example == "table/table":
            planned[example] = ("read only: grep a student, get the row", table_lookup)
        else:
            planned[example] = ("read only: its text is greppable", read_only(example))
    return planned


def run(daemon: Daemon, corpus: Corpus, planned: dict[str, tuple[str, Callable[[Agent], None]]],
        rounds: int) -> dict[str, Result]:
    results: dict[str, Result] = {}
    runs = itertools.count(1)
    for example, (task_name, task) in planned.items():
        result = results.setdefault(example, Result(task=task_name))
        for _ in range(rounds):
            attempt(daemon, corpus, next(runs), task, result)  # type: ignore[arg-type]
            print(f"{'ok  ' if result.failures == [] else 'FAIL'} {example}", file=sys.stderr,
                  flush=True)
    return results


def report(results: dict[str, Result]) -> None:
    print(f"\n{'example':<52} {'task':<62} {'success':>8} {'chars read':>11}")
    totals = {"driven": [0, 0], "read only": [0, 0]}
    for example, result in results.items():
        kind = "read only" if result.task.startswith("read only") else "driven"
        totals[kind][0] += result.passed
        totals[kind][1] += result.runs
        print(f"{example:<52} {result.task[:62]:<62} {result.passed:>3}/{result.runs:<4} "
              f"{statistics.median(result.read):>11,.0f}")
    for kind, (passed, runs) in totals.items():
        if runs:
            print(f"{kind + ' overall':<115} {passed:>3}/{runs:<4} ({passed / runs:.0%})")
    driven = [r for r in results.values() if not r.task.startswith("read only")]
    if driven:
        print(f"median characters read per driven task: "
              f"{statistics.median(n for r in driven for n in r.read):,.0f}")
    for example, result in results.items():
        for failure in dict.fromkeys(result.failures):
            print(f"\nFAILED {example} ({result.task}):\n  " + failure.replace("\n", "\n  "))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=1, help="runs of each task")
    parser.add_argument("--tasks", default="", help="only the examples whose name holds this "
                        "(several separated by commas)")
    args = parser.parse_args()
    if not (CORPUS / PATTERNS).is_dir():
        raise SystemExit(f"no corpus at {CORPUS} (set WEBSHELL_CORPORA)")
    held_out = sorted(examples_in(CORPUS) - examples_in(DEV_EXAMPLES))
    wanted = [word for word in args.tasks.split(",") if word]
    held_out = [e for e in held_out if not wanted or any(word in e for word in wanted)]

    drive(CORPUS, plan(held_out), args.rounds,
          f"held-out interaction: {len(held_out)} examples "
          f"({len(examples_in(DEV_EXAMPLES))} dev examples left out)")


def drive(folder: Path, planned: dict[str, tuple[str, Callable[[Agent], None]]], rounds: int,
          heading: str) -> None:
    """Serve `folder` on loopback, run the planned tasks through one mount, print the table."""
    corpus = Corpus(folder)
    with tempfile.TemporaryDirectory(prefix="bench-heldout-") as temp:
        base = Path(temp)
        (base / "uploads").mkdir()
        daemon = Daemon(base, "mount", base / "uploads")
        try:
            print(f"{heading}, {os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
            report(run(daemon, corpus, planned, rounds))
            print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
        finally:
            daemon.stop()
            corpus.close()


if __name__ == "__main__":
    main()

"""Held-out task pages: MiniWoB++, driven by the scripted agent of bench_interaction.py through
a real mount.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_miniwob.py [--miniwob DIR] [--rounds 3]
        [--tasks WORD,WORD]

MiniWoB++ (Farama Foundation, MIT licence) is a set of 130 web task pages that agents are
measured on; no rule here was written or tuned on them. DIR is the `miniwob/html` folder of its
public repository at commit 3f461ff (`--miniwob`, else `$WEBSHELL_MINIWOB`; docs/benchmarks.md
says how to get it). It is served on 127.0.0.1 as it is, but for one script the server adds
after `core/core.js` in every page: it pins `core.EPISODE_MAX_TIME` to five minutes (the pages
set 7–30 s), since an agent working through files is slower than that and speed is not what is
measured here. Nothing else of a page is changed.

Each page starts behind a START cover; clicking it draws a random problem and its instruction
("Click on the "ok" button."), and the page's own check of the answer ends the episode: the
panel then shows "Last reward: 1.00" (the reward falls with the time taken; -1.00 for a wrong
answer) and the cover comes back. For each task, a scripted agent (bench_interaction's Agent)
does what a person does: it greps content/ for the instruction, clicks START by its address,
finds every address by grepping the compiled files for the text a person would look for,
acts with `.ctl` commands only, and is judged by the reward the state it led to shows ("Last
reward" greater than 0). It never reads the page's HTML, never drives the browser itself, and
no id is written in the script. Each task runs `--rounds` episodes on a fresh `open` (a new
random problem each); the script prints the success rate per task and the characters read,
then each failure's steps. Tasks that need the picture itself (shapes, colours, positions
drawn in SVG or canvas) are listed as "needs vision" with the reason, not attempted.
"""

from __future__ import annotations

import argparse
import functools
import io
import itertools
import os
import re
import shlex
import sys
import tempfile
import time
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_interaction import (  # noqa: E402
    Agent,
    Daemon,
    TaskFailed,
    TaskResult,
    attempt,
    print_failures,
    print_success,
)
from tests.benchmarks.bench_heldout import Corpus, control, option_list  # noqa: E402

CORE_SCRIPT = b'<script src="../core/core.js"></script>'
# Five minutes a episode, whatever the page sets after core.js: the property ignores writes.
LONGER_EPISODES = (b"<script>Object.defineProperty(core, 'EPISODE_MAX_TIME', "
                   b"{get: function () { return 300000; }, set: function () {}});</script>")


class _MiniWobHandler(SimpleHTTPRequestHandler):
    """The folder's files as they are, but each task page with LONGER_EPISODES after core.js."""

    def log_message(self, format: str, *args: object) -> None:
        return

    def send_head(self):  # type: ignore[no-untyped-def]
        path = Path(self.translate_path(self.path))
        if path.suffix != ".html" or not path.is_file():
            return super().send_head()
        body = path.read_bytes().replace(CORE_SCRIPT, CORE_SCRIPT + LONGER_EPISODES, 1)
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        return io.BytesIO(body)


def serve_miniwob(folder: Path) -> Corpus:
    """The MiniWoB++ html folder over HTTP on loopback, its episodes lengthened."""
    return Corpus(folder, _MiniWobHandler)


# What the agent reads ------------------------------------------------------------------------

REWARD = re.compile(r"Last reward: (-?[0-9.]+)")
ORDINAL = r"(\d+)(?:st|nd|rd|th)"
# The login button of login-user-popup, as the page labels it.
LOGIN_BUTTON = "OK"
# What the popup of login-user-popup asks.
POPUP_QUESTION = "Exit to home page?"
MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August",
          "September", "October", "November", "December"]
MONTH_YEAR = re.compile(rf"({'|'.join(MONTHS)}) ([0-9]{{4}})")
# How far the agent pages a calendar, or steps a slider, before it gives up.
MAX_MONTHS = 24
MAX_STEPS = 6
MAX_DEPTH = 3
MAX_TRIES = 10
MAX_PAGES = 12
# How long the agent watches a changing value (stock-market's price) before it gives up: time,
# not a count of looks, which a fast machine would spend before the price moves.
WATCH_SECONDS = 30.0
MAX_ITEMS = 10
FIELD_KINDS = ("text", "password", "textarea", "date", "time", "number", "email", "search")


def begin(agent: Agent, task: str, instruction: str) -> tuple[str, re.Match[str]]:
    """Open the task page, click START, read the instruction: the line of content/ that
    matches `instruction` (a regular expression of the task's wording); the state and the
    match."""
    page = agent.open(f"/miniwob/{task}.html")
    page = agent.act(f"execute {page} {control(agent, page, 'START')}")
    return page, instruction_of(agent, page, instruction)


def instruction_of(agent: Agent, page: str, instruction: str) -> re.Match[str]:
    lines = agent.shell(f"grep -rhP -- {shlex.quote(instruction)} {page}/content/").splitlines()
    for line in lines:
        found = re.search(instruction, line)
        if found:
            agent.transcript.append(f"# instruction: {line.strip()}")
            return found
    raise TaskFailed(f"no instruction like {instruction!r} in {page}/content/:\n"
                     + agent.shell(f"head -5 {page}/content/*"))


def judge(agent: Agent, page: str) -> None:
    """The episode's reward as the page shows it ("Last reward: 0.93"): above 0 passes. A
    reward that has not landed yet is looked for again after a `focus`."""
    for _ in range(2):
        shown = agent.shell(f"grep -rh 'Last reward' {page}/content/ {page}/boilerplate/")
        reward = REWARD.search(shown)
        if reward:
            break
        page = agent.act(f"focus {page}")
    agent.transcript.append(f"# {page}: {shown.strip()}")
    if reward is None or float(reward.group(1)) <= 0:
        raise TaskFailed(f"the episode ended with {shown.strip()!r} in {page}")


def press(agent: Agent, page: str, label: str, want: str = "") -> str:
    """Click the control a person knows by `label`; the page it led to."""
    return agent.act(f"execute {page} {control(agent, page, label, want)}")


def fields(agent: Agent, page: str) -> list[str]:
    """The text fields in the order the page shows them (its content/ files in order, else
    every file of the page), for an instruction that names none by its label ("the text
    field", "the 3rd textbox")."""
    kinds = "|".join(FIELD_KINDS)
    for where in ("content/*.md", "*/*.md"):
        refs = agent.shell(f"cat {page}/{where} | grep -oP '\\[A\\d{{4}} [^\\]]*'").splitlines()
        found = [ref[1:6] for ref in refs if re.search(rf": (?:{kinds})\b", ref)]
        if found:
            return list(dict.fromkeys(found))
    raise TaskFailed(f"no text field in {page}:\n" + agent.shell(f"cat {page}/content/*"))


def fill(agent: Agent, page: str, ident: str, value: str, extra: str = "") -> str:
    """Type `value` into the field `ident` (by the input name actions.tsv gives it)."""
    return agent.act(f"execute {page} {ident} {agent.input_name(page, ident)}="
                     f"{shlex.quote(value)}{extra}")


def choose(agent: Agent, page: str, option: str) -> str:
    """Choose `option` where it is offered: a select or radio group that is one action
    (`radio(radio: a|b|c)`), else the control that shows it."""
    offering = option_list(agent, page, option) or _radio_group(agent, page, option)
    if offering is None:
        return press(agent, page, option)
    return agent.act(f"execute {page} {offering} "
                     f"{agent.input_name(page, offering)}={shlex.quote(option)}")


def _radio_group(agent: Agent, page: str, option: str) -> str | None:
    for line in agent.shell(f"grep -F -- {shlex.quote(option)} {page}/actions.tsv").splitlines():
        columns = line.split("\t")
        choices = re.search(r"\(radio: ([^;)]*)", columns[4] if len(columns) > 4 else "")
        if choices and option in choices.group(1).split("|"):
            return columns[0]
    return None


# Tasks ----------------------------------------------------------------------------------------

def click_button(agent: Agent) -> None:
    page, asked = begin(agent, "click-button", r'Click on the "(.+)" button\.')
    judge(agent, press(agent, page, asked.group(1)))


def click_button_sequence(agent: Agent) -> None:
    page, asked = begin(agent, "click-button-sequence",
                        r"Click button (\S+), then click button (\S+)\.")
    page = press(agent, page, asked.group(1))
    judge(agent, press(agent, page, asked.group(2)))


def click_link(agent: Agent) -> None:
    page, asked = begin(agent, "click-link", r'Click on the link "(.+)"\.')
    judge(agent, press(agent, page, asked.group(1)))


def _click_checkboxes(task: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r"Select (.*) and click Submit\.")
        wanted = [] if asked.group(1) == "nothing" else asked.group(1).split(", ")
        for label in wanted:
            box = control(agent, page, label, "check")
            page = agent.act(f"execute {page} {box} {agent.input_name(page, box)}=on")
        judge(agent, press(agent, page, "Submit"))
    return run


def click_option(agent: Agent) -> None:
    page, asked = begin(agent, "click-option", r"Select (.+) and click Submit\.")
    judge(agent, press(agent, choose(agent, page, asked.group(1)), "Submit"))


def choose_list(agent: Agent) -> None:
    page, asked = begin(agent, "choose-list", r"Select (.+) from the list and click Submit\.")
    judge(agent, press(agent, choose(agent, page, asked.group(1)), "Submit"))


def _enter_text(task: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r'Enter "(.*)" into the text field and press Submit\.')
        page = fill(agent, page, fields(agent, page)[0], asked.group(1))
        judge(agent, press(agent, page, "Submit"))
    return run


def enter_password(agent: Agent) -> None:
    page, asked = begin(agent, "enter-password",
                        r'Enter the password "(.*)" into both text fields and press submit\.')
    for label in ("Password", "Verify password"):
        page = fill(agent, page, control(agent, page, label, "fill"), asked.group(1))
    judge(agent, press(agent, page, "Submit"))


def _login_user(task: str, button: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r'Enter the username "(.*)" and the password "(.*)" '
                            r"into the text fields and press login\.")
        page = fill(agent, page, control(agent, page, "Username", "fill"), asked.group(1))
        page = fill(agent, page, control(agent, page, "Password", "fill"), asked.group(2))
        judge(agent, press(agent, page, button))
    return run


def login_user_popup(agent: Agent) -> None:
    """A popup may come up when a field is focused (and the page disables the fields): the
    agent reads the page after each field, and cancels the popup before typing again."""
    page, asked = begin(agent, "login-user-popup", r'Enter the username "(.*)" and the password '
                        r'"(.*)" into the text fields and press login\.')
    for label, value in (("Username", asked.group(1)), ("Password", asked.group(2))):
        for _ in range(2):
            field = control(agent, page, label, "fill")
            try:
                page = fill(agent, page, field, value)
            except TaskFailed:
                page = agent.act(f"focus {page}")
            if not agent.grep(page, POPUP_QUESTION):
                break
            page = press(agent, page, "Cancel")
    judge(agent, press(agent, page, LOGIN_BUTTON))


def focus_text(agent: Agent) -> None:
    page, _ = begin(agent, "focus-text", r"Focus into the textbox\.")
    judge(agent, agent.act(f"focus {page} {fields(agent, page)[0]}"))


def focus_text_2(agent: Agent) -> None:
    page, asked = begin(agent, "focus-text-2", rf"Focus into the {ORDINAL} input textbox\.")
    judge(agent, agent.act(f"focus {page} {fields(agent, page)[int(asked.group(1)) - 1]}"))


def _enter_value(task: str, instruction: str) -> Callable[[Agent], None]:
    """Type the value the instruction gives into the page's one field, then Submit."""
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, instruction)
        page = fill(agent, page, fields(agent, page)[0], asked.group(1))
        judge(agent, press(agent, page, "Submit"))
    return run


def enter_text_2(agent: Agent) -> None:
    page, asked = begin(agent, "enter-text-2", r'Type "(.*)" in all (lower|upper) case letters '
                        r"in the text input and press Submit\.")
    typed = asked.group(1).lower() if asked.group(2) == "lower" else asked.group(1).upper()
    page = fill(agent, page, fields(agent, page)[0], typed)
    judge(agent, press(agent, page, "Submit"))


def current_value(agent: Agent, page: str, ident: str) -> str:
    """The value actions.tsv shows for the field (`current=…`)."""
    found = re.search(r'current="?([^",)]*)', (agent.row(page, ident) + [""] * 5)[4])
    if found is None:
        raise TaskFailed(f"{page}/{ident} shows no current value: {agent.row(page, ident)}")
    return found.group(1)


def use_spinner(agent: Agent) -> None:
    """The page takes no typing in the field (it drops every key but the arrows), so the
    agent steps it with ArrowUp and ArrowDown, as a person uses the spinner's arrows."""
    page, asked = begin(agent, "use-spinner", r"Select (-?\d+) with the spinner and hit Submit\.")
    spinner = control(agent, page, "Select a value:", "fill")
    steps = int(asked.group(1)) - int(current_value(agent, page, spinner))
    if steps:
        key = "ArrowUp" if steps > 0 else "ArrowDown"
        page = agent.act(f"press {page} {spinner} {' '.join([key] * abs(steps))}")
    judge(agent, press(agent, page, "Submit"))


def click_dialog(agent: Agent) -> None:
    page, _ = begin(agent, "click-dialog", r'Close the dialog box by clicking the "x"\.')
    judge(agent, press(agent, page, "Close"))


def click_dialog_2(agent: Agent) -> None:
    """The dialog's "x" is its close button, which the page names Close."""
    page, asked = begin(agent, "click-dialog-2", r'Click the button in the dialog box labeled '
                        r'"(.+)"\.')
    judge(agent, press(agent, page, "Close" if asked.group(1) == "x" else asked.group(1)))


def click_tab(agent: Agent) -> None:
    page, asked = begin(agent, "click-tab", r"Click on (Tab #\d+)\.")
    judge(agent, press(agent, page, asked.group(1)))


def revealers(agent: Agent, page: str, text: str) -> list[str]:
    """The controls that reveal `text`, one per line showing it marked `[hidden until A0007 …]`
    or `[hidden until "Tab #2"]` (then the control or link of exactly that label)."""
    found = []
    for line in agent.grep(page, text):
        mark = re.search(r'\[hidden until (?:(A\d{4})|"([^"]+)")', line)
        if mark:
            found.append(mark.group(1) or labelled(agent, page, mark.group(2)))
    return list(dict.fromkeys(found))


def revealer(agent: Agent, page: str, text: str) -> str | None:
    found = revealers(agent, page, text)
    return found[0] if found else None


def labelled(agent: Agent, page: str, label: str) -> str:
    """The action or link whose label is exactly `label` (actions.tsv, links.tsv)."""
    for table, column in (("actions.tsv", 2), ("links.tsv", 2)):
        for line in agent.shell(f"grep -F -- {shlex.quote(label)} {page}/{table}").splitlines():
            columns = line.split("\t")
            if len(columns) > column and columns[column].split(" → ")[0] == label:
                agent.transcript.append(f"# {label!r} is {columns[0]}")
                return columns[0]
    return control(agent, page, label)


def shown_control(agent: Agent, page: str, label: str) -> bool:
    """A control labelled exactly `label` is shown (on a line not marked hidden)."""
    return any("[hidden until " not in line for line in agent.grep(page, f'"{label}"]'))


def _link_behind(task: str, instruction: str) -> Callable[[Agent], None]:
    """Find the link the instruction names; while it is not shown, open in turn what reveals a
    line holding its word (a tab, a section), as a person looks through them."""
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, instruction)
        word = asked.group(1)
        tried: set[str] = set()
        while not shown_control(agent, page, word):
            untried = [ident for ident in revealers(agent, page, word) if ident not in tried]
            if not untried:
                break
            tried.add(untried[0])
            page = agent.act(f"execute {page} {untried[0]}")
        judge(agent, press(agent, page, word))
    return run


def click_collapsible(task: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, _ = begin(agent, task, r"Expand the section below and click submit\.")
        opener = revealer(agent, page, "[hidden until ")
        if opener is None:
            raise TaskFailed(f"no collapsed section in {page}")
        page = agent.act(f"execute {page} {opener}")
        judge(agent, press(agent, page, "Submit"))
    return run


def click_menu_2(agent: Agent) -> None:
    """Open the menu; an item in a submenu is shown by hovering the item that reveals it. Half
    the episodes name the item by its icon alone, a picture: that needs vision."""
    page, asked = begin(agent, "click-menu-2", r'Click the "(.+)" button, and then find and click '
                        r'on the item (?:labeled "(.+)"|with the\s+icon)\.')
    if asked.group(2) is None:
        raise TaskFailed("the item is asked for by its icon, a picture (needs vision)")
    page = press(agent, page, asked.group(1))
    opener = None if shown_control(agent, page, asked.group(2)) else revealer(
        agent, page, f"- {asked.group(2)}")
    if opener:
        page = agent.act(f"hover {page} {opener}")
    judge(agent, press(agent, page, asked.group(2)))


def click_menu(agent: Agent) -> None:
    """Hover each menu on the path, then click the last item."""
    page, asked = begin(agent, "click-menu", r"Select (\S+(?:>\S+)*)")
    *menus, item = asked.group(1).split(">")
    for menu in menus:
        page = agent.act(f"hover {page} {control(agent, page, menu)}")
    judge(agent, press(agent, page, item))


def use_autocomplete(task: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r'Enter an item that starts with "([^"]+)"'
                            r'(?: and ends with "([^"]+)")?\.')
        start, end = asked.group(1), asked.group(2) or ""
        page = fill(agent, page, control(agent, page, "Tags:", "fill"), start)
        refs = re.findall(r'\[(A\d{4})[^\]"]*"([^"]*)"\]', agent.shell(f"cat {page}/content/*"))
        for ident, label in refs:
            if label.startswith(start) and label.endswith(end) and label != "Tags:":
                agent.transcript.append(f"# suggestion {label!r} is {ident}")
                page = agent.act(f"execute {page} {ident}")
                break
        else:
            raise TaskFailed(f"no suggestion starting {start!r}, ending {end!r} in {page}:\n"
                             + agent.shell(f"cat {page}/content/*"))
        judge(agent, press(agent, page, "Submit"))
    return run


def pick_date(agent: Agent, page: str, field: str, month: int, day: int, year: int) -> str:
    """A date picker that takes no typing: focus its field, go to the month with Prev/Next,
    click the day's cell; the page it led to."""
    page = agent.act(f"focus {page} {field}")
    for _ in range(MAX_MONTHS):
        shown = MONTH_YEAR.search(agent.shell(f"grep -rhE '{MONTH_YEAR.pattern}' {page}/content/ "
                                              f"{page}/boilerplate/"))
        if shown is None:
            raise TaskFailed(f"no month shown in {page}:\n" + agent.shell(f"cat {page}/content/*"))
        ahead = year * 12 + month - int(shown.group(2)) * 12 - MONTHS.index(shown.group(1)) - 1
        if ahead == 0:
            break
        page = press(agent, page, "Next" if ahead > 0 else "Prev")
    return agent.act(f"execute {page} {day_cell(agent, page, str(day))}")


def day_cell(agent: Agent, page: str, day: str) -> str:
    """The reference in the table cell that shows `day`: its value is the day, or the
    reference showing it (`[A0015 link "10"]`)."""
    for line in agent.shell(f"cat {page}/tables/*.cells").splitlines():
        cells = line.split("\t")
        refs = re.findall(r"\b[AL]\d{4}\b", cells[5]) if len(cells) > 5 else []
        if len(cells) > 4 and cells[4] == day and refs:
            agent.transcript.append(f"# the day {day} is {refs[0]}: {line}")
            return refs[0]
    raise TaskFailed(f"no table cell showing {day!r} with an address in {page}:\n"
                     + agent.shell(f"head -50 {page}/tables/*.cells"))


def _choose_date(task: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r"Select (\d+)/(\d+)/(\d{4}) as the date and hit "
                            r"submit\.")
        month, day, year = (int(part) for part in asked.groups())
        page = pick_date(agent, page, control(agent, page, "Date:", "fill"), month, day, year)
        judge(agent, press(agent, page, "Submit"))
    return run


def autocomplete(agent: Agent, page: str, field: str, typed: str, choice: str) -> str:
    """Type into the field, then click the suggestion that starts with `choice` (a city) or
    names it in brackets (an airport's code, "(BPT)")."""
    page = fill(agent, page, field, typed)
    for ident, label in re.findall(r'\[(A\d{4}) clickable "([^"]*)"\]',
                                   agent.shell(f"cat {page}/content/*.md")):
        if label.startswith(choice) or f"({choice})" in label:
            agent.transcript.append(f"# suggestion {label!r} is {ident}")
            return agent.act(f"execute {page} {ident}")
    raise TaskFailed(f"no suggestion starting {choice!r} in {page}:\n"
                     + agent.shell(f"cat {page}/content/*"))


def _book_flight(task: str) -> Callable[[Agent], None]:
    """Fill From and To by their suggestions, pick the date, search, book the flight asked."""
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r"Book the (cheapest|shortest) one-way flight from: (.+) "
                            r"to: (.+) on (\d+)/(\d+)/(\d{4})\.")
        for label, city in (("From:", asked.group(2)), ("To:", asked.group(3))):
            page = autocomplete(agent, page, control(agent, page, label, "fill"),
                                city.split(",")[0], city)
        month, day, year = (int(part) for part in asked.groups()[3:])
        page = pick_date(agent, page, fields(agent, page)[2], month, day, year)
        page = press(agent, page, "Search")
        flights = _flights(agent, page)
        agent.transcript.append(f"# flights (button, price, minutes): {flights}")
        key = (lambda f: f[1]) if asked.group(1) == "cheapest" else (lambda f: f[2])
        judge(agent, agent.act(f"execute {page} {min(flights, key=key)[0]}"))
    return run


def _flights(agent: Agent, page: str) -> list[tuple[str, int, int]]:
    """Each result's Book button with its price and duration in minutes, read from the lines
    of its result (a duration "2h 21m", a price "$1,330", then the button)."""
    flights, minutes, price = [], None, None
    for line in agent.shell(f"cat {page}/content/*.md").splitlines():
        duration = re.search(r"(\d+)h (\d+)m", line)
        if duration:
            minutes = int(duration.group(1)) * 60 + int(duration.group(2))
        cost = re.search(r"\$([\d,]+)", line)
        if cost:
            price = int(cost.group(1).replace(",", ""))
        book = re.search(r'\[(A\d{4}) button "Book', line)
        if book and minutes is not None and price is not None:
            flights.append((book.group(1), price, minutes))
            minutes = price = None
    if not flights:
        raise TaskFailed(f"no flights in {page}:\n"
                         + agent.shell(f"cat {page}/content/* | head -60"))
    return flights


def textarea_text(agent: Agent, page: str, ident: str) -> str:
    """A text area's whole text, from its `current="…"` in actions.tsv."""
    found = re.search(r'current="(.*)"\)', (agent.row(page, ident) + [""] * 5)[4])
    if found is None:
        raise TaskFailed(f"{page}/{ident} shows no text: {agent.row(page, ident)}")
    return found.group(1).replace("\\n", "\n")


def _kind_ids(agent: Agent, page: str, kind: str) -> list[str]:
    return [ref for ref in fields(agent, page) if f" {kind}" in agent.row(page, ref)[4]
            or f"({kind}" in agent.row(page, ref)[4]]


def scroll_text(agent: Agent) -> None:
    page, _ = begin(agent, "scroll-text", r"Find the last word in the text area, enter it into "
                    r"the text field and hit Submit\.")
    area = _kind_ids(agent, page, "textarea")[0]
    last = re.findall(r"[\w'-]+", textarea_text(agent, page, area))[-1]
    answer = [ref for ref in fields(agent, page) if ref != area][0]
    judge(agent, press(agent, fill(agent, page, answer, last), "Submit"))


def scroll_text_2(agent: Agent) -> None:
    page, asked = begin(agent, "scroll-text-2", r"Scroll the textarea to the (top|bottom) of the "
                        r"text hit submit\.")
    area = _kind_ids(agent, page, "textarea")[0]
    page = agent.act(f"scroll {page} {area} {asked.group(1)}")
    judge(agent, press(agent, page, "Submit"))


def sign_agreement(agent: Agent) -> None:
    page, asked = begin(agent, "sign-agreement", r'(?:Scroll to the bottom of the textarea, enter '
                        r'the name "(.+)" then press "(.+)"|Click the cancel button\.)')
    if asked.group(1) is None:
        judge(agent, press(agent, page, "Cancel"))
        return
    area = _kind_ids(agent, page, "textarea")[0]
    page = agent.act(f"scroll {page} {area} bottom")
    page = fill(agent, page, control(agent, page, "Name", "fill"), asked.group(1))
    judge(agent, press(agent, page, asked.group(2)))


def _copy_paste(task: str, instruction: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, instruction)
        areas = _kind_ids(agent, page, "textarea")
        source = areas[int(asked.group(1)) - 1 if asked.groups() else 0]
        answer = [ref for ref in fields(agent, page) if ref not in areas][0]
        page = fill(agent, page, answer, textarea_text(agent, page, source))
        judge(agent, press(agent, page, "Submit"))
    return run


def text_transform(agent: Agent) -> None:
    """The text to type is the line after the instruction (drawn distorted for a person)."""
    page, _ = begin(agent, "text-transform", r"Type the text below into the text field and press "
                    r"Submit\.")
    shown = agent.shell(f"grep -rh -A1 'Type the text below' {page}/content/").splitlines()
    page = fill(agent, page, fields(agent, page)[0], shown[1].strip())
    judge(agent, press(agent, page, "Submit"))


def find_word(agent: Agent) -> None:
    page, asked = begin(agent, "find-word", rf"Find the {ORDINAL} word in the paragraph, type "
                        r'that into the textbox and press "Submit"\.')
    shown = agent.shell(f"grep -rh -A1 'Find the ' {page}/content/").splitlines()
    word = re.findall(r"[\w'-]+", shown[1])[int(asked.group(1)) - 1]
    judge(agent, press(agent, fill(agent, page, fields(agent, page)[0], word), "Submit"))


def read_table(agent: Agent) -> None:
    page, asked = begin(agent, "read-table", r"Enter the value of (.+) into the text field and "
                        r"press Submit\.")
    value = table_value(agent, page, asked.group(1))
    judge(agent, press(agent, fill(agent, page, fields(agent, page)[0], value), "Submit"))


def table_value(agent: Agent, page: str, label: str) -> str:
    """The value beside `label` in the page's tables (a two-column table of labels, values)."""
    for line in agent.shell(f"grep -hF -- {shlex.quote(label)} {page}/tables/*.cells").splitlines():
        cells = line.split("\t")
        if len(cells) > 4 and label in (cells[2], cells[3]) and cells[4] != label:
            agent.transcript.append(f"# {label!r} is {cells[4]!r}: {line}")
            return cells[4]
    raise TaskFailed(f"no value for {label!r} in {page}/tables/:\n"
                     + agent.shell(f"cat {page}/tables/*.cells"))


def read_table_2(agent: Agent) -> None:
    page, _ = begin(agent, "read-table-2", r"Enter the value that corresponds with each label "
                    r"into the form and submit when done\.")
    for ident in fields(agent, page):
        label = agent.row(page, ident)[2].rstrip(":")
        page = fill(agent, page, ident, table_value(agent, page, label))
    judge(agent, press(agent, page, "Submit"))


def _sliders(agent: Agent, page: str) -> list[str]:
    refs = re.findall(r"\[(A\d{4}) [^\]]*slider", agent.shell(f"cat {page}/content/*"))
    if not refs:
        raise TaskFailed(f"no slider in {page}:\n" + agent.shell(f"cat {page}/content/*"))
    return refs


def set_slider(agent: Agent, page: str, handle: str, value: int) -> str:
    """Step the slider with the arrow keys until the number shown after it is `value`."""
    for _ in range(MAX_STEPS):
        shown = agent.shell(f"grep -rh -A1 '\\[{handle} ' {page}/content/").splitlines()
        number = re.fullmatch(r"\s*(-?\d+)\s*", shown[1] if len(shown) > 1 else "")
        if number is None:
            raise TaskFailed(f"no value shown after the slider {handle}: {shown}")
        ahead = value - int(number.group(1))
        if ahead == 0:
            return page
        key = "ArrowRight" if ahead > 0 else "ArrowLeft"
        page = agent.act(f"press {page} {handle} {' '.join([key] * abs(ahead))}")
    raise TaskFailed(f"the slider {handle} did not reach {value}")


def use_slider(agent: Agent) -> None:
    page, asked = begin(agent, "use-slider", r"Select (-?\d+) with the slider and hit Submit\.")
    page = set_slider(agent, page, _sliders(agent, page)[0], int(asked.group(1)))
    judge(agent, press(agent, page, "Submit"))


def use_slider_2(agent: Agent) -> None:
    page, asked = begin(agent, "use-slider-2", r"Set the sliders to the combination \[([-\d,]+)\] "
                        r"and submit\.")
    for handle, value in zip(_sliders(agent, page), asked.group(1).split(",")):
        page = set_slider(agent, page, handle, int(value))
    judge(agent, press(agent, page, "Submit"))


def form_sequence(agent: Agent) -> None:
    page, asked = begin(agent, "form-sequence", rf"Select (-?\d+) with the slider, click the "
                        rf"{ORDINAL} checkbox, then hit Submit\.")
    page = set_slider(agent, page, _sliders(agent, page)[0], int(asked.group(1)))
    boxes = re.findall(r"\[(A\d{4}) [^\]]*: checkbox", agent.shell(f"cat {page}/content/*"))
    box = boxes[int(asked.group(2)) - 1]
    page = agent.act(f"execute {page} {box} {agent.input_name(page, box)}=on")
    judge(agent, press(agent, page, "Submit"))


def form_sequence_2(agent: Agent) -> None:
    page, asked = begin(agent, "form-sequence-2", rf"Check the {ORDINAL} radio button and enter "
                        rf'the number "(.+)" into the {ORDINAL} textbox\.')
    group = re.search(r"\[(A\d{4}) [^\]]*: radio", agent.shell(f"cat {page}/content/*"))
    if group is None:
        raise TaskFailed(f"no radio buttons in {page}")
    choices = re.search(r"\(radio: ([^;)]*)", agent.row(page, group.group(1))[4])
    choice = choices.group(1).split("|")[int(asked.group(1)) - 1] if choices else ""
    page = agent.act(f"execute {page} {group.group(1)} "
                     f"{agent.input_name(page, group.group(1))}={shlex.quote(choice)}")
    page = fill(agent, page, fields(agent, page)[int(asked.group(3)) - 1], asked.group(2))
    judge(agent, press(agent, page, "Submit"))


def _scroll_list(agent: Agent) -> None:
    page, asked = begin(agent, "click-scroll-list", r"Select (.+) from the scroll list and click "
                        r"Submit\.")
    wanted = asked.group(1).split(", ")
    offering = option_list(agent, page, wanted[0])
    if offering is None:
        raise TaskFailed(f"no list offers {wanted[0]!r} in {page}")
    page = agent.act(f"execute {page} {offering} {agent.input_name(page, offering)}="
                     f"{shlex.quote('|'.join(wanted))}")
    judge(agent, press(agent, page, "Submit"))


def _post_icons(agent: Agent, page: str, user: str, icon: str) -> list[str]:
    """The `icon` control (reply, retweet, like, more) of each post by `user`: the posts as the
    page shows them, each an author line (`Birgitta @agustina 7h ago`) and the lines under it."""
    found, author = [], ""
    for line in agent.shell(f"cat {page}/content/*.md").splitlines():
        by = re.match(r"\S+ (@\S+)(?: \d+\w ago)?$", line.strip())
        if by:
            author = by.group(1)
        elif author == user:
            found += re.findall(rf"\[(A\d{{4}}) [^\]]*\b{icon}\b", line)
    if not found:
        raise TaskFailed(f"no {icon} control under a post by {user} in {page}")
    agent.transcript.append(f"# the {icon} controls of {user}'s posts: {', '.join(found)}")
    return list(dict.fromkeys(found))


def _social_some(task: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r'Click the "(\w+)" button on (all|\d+) posts? by '
                            r"(@\S+) and then click Submit\.")
        icons = _post_icons(agent, page, asked.group(3), asked.group(1).lower())
        if asked.group(2) != "all":
            icons = icons[:int(asked.group(2))]
        for icon in icons:
            page = agent.act(f"execute {page} {icon}")
        judge(agent, press(agent, page, "Submit"))
    return run


def social_media(agent: Agent) -> None:
    page, asked = begin(agent, "social-media", r'For the user (@\S+), click on the "(.+)" button\.')
    icon = {"Reply": "reply", "Retweet": "retweet", "Like": "like"}.get(asked.group(2))
    if icon:
        post_icon = _post_icons(agent, page, asked.group(1), icon)[0]
        judge(agent, agent.act(f"execute {page} {post_icon}"))
        return
    page = agent.act(f"execute {page} {_post_icons(agent, page, asked.group(1), 'more')[0]}")
    judge(agent, press(agent, page, asked.group(2)))


def terminal(agent: Agent) -> None:
    """List the files, delete the one the instruction names by its kind."""
    page, asked = begin(agent, "terminal", r"Use the terminal below to delete a file (?:that has "
                        r"no file extension\.|ending with the extension (\.[\w.]*\w))")
    ending = asked.group(1)
    prompt = fields(agent, page)[0]
    page = fill(agent, page, prompt, "ls", " --press Enter")
    listing = agent.shell(f"grep -rh -A3 '^user\\$ ls' {page}/content/").splitlines()
    names = [word for line in listing[1:] for word in line.split() if "$" not in word]
    bare = [name for name in names if (name.endswith(ending) if ending else "." not in name)]
    if not bare:
        raise TaskFailed(f"no file {f'ending {ending}' if ending else 'without an extension'} "
                         f"in {listing}")
    page = fill(agent, page, prompt, f"rm {bare[0]}", " --press Enter")
    judge(agent, page)


def buy_ticket(agent: Agent) -> None:
    page, asked = begin(agent, "buy-ticket", r"Buy the ticket with the (most expensive|cheapest|"
                        r"shortest|longest) (?:cost|duration)\.")
    text = agent.shell(f"cat {page}/content/*")
    offers = re.findall(r"(\d+)h (\d+)m\n\[(A\d{4}) button \"Book for \$(\d+)\"", text)
    if not offers:
        raise TaskFailed(f"no tickets in {page}:\n{text}")
    keys = {"most expensive": lambda o: -int(o[3]), "cheapest": lambda o: int(o[3]),
            "shortest": lambda o: int(o[0]) * 60 + int(o[1]),
            "longest": lambda o: -(int(o[0]) * 60 + int(o[1]))}
    judge(agent, agent.act(f"execute {page} {min(offers, key=keys[asked.group(1)])[2]}"))


def _click_test(task: str, instruction: str) -> Callable[[Agent], None]:
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, instruction)
        judge(agent, press(agent, page, asked.group(1) if asked.groups() else "Click Me!"))
    return run


def button_delay(agent: Agent) -> None:
    page, asked = begin(agent, "button-delay", r"Click button (\S+), wait (\d+) seconds?, then "
                        r"click button (\S+)\.")
    page = press(agent, page, asked.group(1))
    time.sleep(int(asked.group(2)))
    judge(agent, press(agent, page, asked.group(3)))


def navigate_tree(agent: Agent) -> None:
    """Open the folders that hide the name (as the page marks them), then click it."""
    page, asked = begin(agent, "navigate-tree", r'Find and click on the folder or file named '
                        r'"(.+)"\.')
    for _ in range(MAX_DEPTH):
        if shown_control(agent, page, asked.group(1)):
            break
        opener = revealer(agent, page, f"- {asked.group(1)}")
        if opener is None:
            break
        page = agent.act(f"execute {page} {opener}")
    judge(agent, press(agent, page, asked.group(1)))


def _row_icon(agent: Agent, page: str, sender: str, icon: str) -> str:
    """The `icon` control (trash, star) of the inbox row whose sender line is `sender`."""
    lines = agent.shell(f"cat {page}/content/*.md").splitlines()
    for index, line in enumerate(lines):
        if line.strip() != sender:
            continue
        for below in lines[index + 1:index + 5]:
            ref = re.search(rf"\[(A\d{{4}}) [^\]]*\b{icon}\b", below)
            if ref:
                agent.transcript.append(f"# the {icon} of {sender}'s email is {ref.group(1)}")
                return ref.group(1)
    raise TaskFailed(f"no {icon} control under the email of {sender} in {page}")


def _email_inbox(task: str) -> Callable[[Agent], None]:
    """Star or delete by the row's icon; reply or forward by opening the email (its row)."""
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r"Find the email by (\S+) and (?:click the (star|trash) "
                            r'icon|reply to them with the text "(.*)"|forward that email to '
                            r"([^.\s]+))")
        sender, icon, reply, to = asked.groups()
        if icon:
            judge(agent, agent.act(f"execute {page} {_row_icon(agent, page, sender, icon)}"))
            return
        page = agent.act(f"execute {page} {agent.find(page, sender)}")
        page = press(agent, page, "Reply" if reply is not None else "Forward")
        if reply is not None:
            page = fill(agent, page, _kind_ids(agent, page, "textarea")[0], reply)
        else:
            page = fill(agent, page, fields(agent, page)[0], to)
        judge(agent, press(agent, page, "send"))
    return run


def line_after(agent: Agent, page: str, text: str) -> str:
    """The line of content/ after the one holding `text` (the problem under an instruction)."""
    shown = agent.shell(f"grep -rh -A1 -F -- {shlex.quote(text)} {page}/content/").splitlines()
    if len(shown) < 2:
        raise TaskFailed(f"nothing after {text!r} in {page}")
    return shown[1].strip()


def simple_arithmetic(agent: Agent) -> None:
    page, _ = begin(agent, "simple-arithmetic", r"Solve the math problem and type your answer "
                    r"into the textbox\. Press submit when done\.")
    problem = re.fullmatch(r"(-?\d+) ([-+x]) (-?\d+) =", line_after(agent, page, "Solve the math"))
    if problem is None:
        raise TaskFailed(f"no problem under the instruction in {page}")
    left, operator, right = int(problem.group(1)), problem.group(2), int(problem.group(3))
    answer = {"+": left + right, "-": left - right, "x": left * right}[operator]
    judge(agent, press(agent, fill(agent, page, fields(agent, page)[0], str(answer)), "Submit"))


def simple_algebra(agent: Agent) -> None:
    """The equation under the instruction, solved by trying each whole number."""
    page, _ = begin(agent, "simple-algebra", r"Solve for x and type your answer into the textbox\.")
    equation = line_after(agent, page, "Solve for x")
    sides = re.fullmatch(r"([-+x\d ]+)=([-+x\d ]+)", equation)
    if sides is None:
        raise TaskFailed(f"no equation under the instruction in {page}: {equation!r}")

    def value(side: str, x: int) -> int:
        return sum((-1 if sign == "-" else 1) * (x if term == "x" else int(term))
                   for sign, term in re.findall(r"([-+]?)\s*(x|\d+)", side.replace(" ", "")))
    answers = [x for x in range(-1000, 1001)
               if value(sides.group(1), x) == value(sides.group(2), x)]
    if not answers:
        raise TaskFailed(f"no whole number solves {equation!r}")
    judge(agent, press(agent, fill(agent, page, fields(agent, page)[0], str(answers[0])), "Submit"))


def odd_or_even(agent: Agent) -> None:
    """Each number stands between its Odd and Even buttons."""
    page, _ = begin(agent, "odd-or-even", r"Mark the numbers below as odd or even")
    lines = agent.shell(f"cat {page}/content/*.md").splitlines()
    for index, line in enumerate(lines):
        if re.fullmatch(r"-?\d+", line.strip()) and 0 < index < len(lines) - 1:
            odd = re.search(r'\[(A\d{4}) button "Odd"\]', lines[index - 1])
            even = re.search(r'\[(A\d{4}) button "Even"\]', lines[index + 1])
            chosen = odd if int(line) % 2 else even
            if chosen:
                page = agent.act(f"execute {page} {chosen.group(1)}")
    judge(agent, press(agent, page, "Submit"))


def _numbered(agent: Agent, page: str) -> list[tuple[int, str]]:
    """The controls labelled with a number, as (number, id)."""
    refs = re.findall(r'\[(A\d{4}) clickable "(-?\d+)"\]', agent.shell(f"cat {page}/content/*.md"))
    return [(int(number), ident) for ident, number in refs]


def find_greatest(agent: Agent) -> None:
    page, _ = begin(agent, "find-greatest", r"Find and pick the card with the greatest number")
    cards = _numbered(agent, page)
    if not cards:
        raise TaskFailed(f"no numbered cards in {page}")
    page = agent.act(f"execute {page} {max(cards)[1]}")
    judge(agent, press(agent, page, "Submit"))


def generate_number(agent: Agent) -> None:
    """Generate until the number shown under the instruction is the kind asked."""
    page, asked = begin(agent, "generate-number", r"Generate (?:a number (greater|less) than "
                        r"(-?\d+)|an? (odd|even) number), then press submit\.")
    wanted = {"greater": lambda n: n > int(asked.group(2)),
              "less": lambda n: n < int(asked.group(2)),
              "odd": lambda n: n % 2 == 1, "even": lambda n: n % 2 == 0}[
                  asked.group(1) or asked.group(3)]
    for _ in range(MAX_TRIES):
        page = press(agent, page, "Generate")
        shown = line_after(agent, page, "Generate a")
        if re.fullmatch(r"-?\d+", shown) and wanted(int(shown)):
            break
    judge(agent, press(agent, page, "Submit"))


def click_widget(agent: Agent) -> None:
    """The first control of the kind asked, by what its reference says it is."""
    page, asked = begin(agent, "click-widget", r'Click on a "(\w+)" widget\.')
    kinds = {"textarea": "textarea", "text": "text", "checkbox": "checkbox", "radio": "radio",
             "button": "button"}
    kind = kinds.get(asked.group(1), asked.group(1))
    ref = re.search(rf'\[(A\d{{4}}) [^\]]*\b{kind}\b "', agent.shell(f"cat {page}/content/*.md"))
    if ref is None:
        raise TaskFailed(f"no {kind} in {page}")
    ident = ref.group(1)
    if kind == "radio":
        choice = re.search(r"\(radio: ([^|;)]*)", agent.row(page, ident)[4])
        judge(agent, agent.act(f"execute {page} {ident} {agent.input_name(page, ident)}="
                               f"{shlex.quote(choice.group(1) if choice else '')}"))
    elif kind == "checkbox":
        judge(agent, agent.act(f"execute {page} {ident} {agent.input_name(page, ident)}=on"))
    else:
        judge(agent, agent.act(f"execute {page} {ident}"))


def phone_book(agent: Agent) -> None:
    """Page with ">" until the contact's heading shows, then click the value after its label."""
    page, asked = begin(agent, "phone-book", r"Find (.+) in the contact book and click on their "
                        r"(phone number|email|address)\.")
    name, wanted = asked.groups()
    for _ in range(MAX_PAGES):
        if agent.shell(f"grep -rlx -F -- {shlex.quote('# ' + name)} {page}/content/"):
            break
        page = agent.act(f"execute {page} {agent.find(page, '>')}")
    label = {"phone number": "Phone:", "email": "Email:", "address": "Address:"}[wanted]
    section = agent.shell(f"grep -rlx -F -- {shlex.quote('# ' + name)} {page}/content/").split()
    line = agent.shell(f"grep -h -F -- {shlex.quote(label)} {section[0]}") if section else ""
    ref = re.search(r"\[(A\d{4})", line)
    if ref is None:
        raise TaskFailed(f"no {label} of {name} in {page}")
    judge(agent, agent.act(f"execute {page} {ref.group(1)}"))


def _results(agent: Agent, page: str) -> list[str]:
    """The search results shown: each a link followed by its address line."""
    lines = agent.shell(f"cat {page}/content/*.md").splitlines()
    return [ref.group(1) for line, after in zip(lines, lines[1:])
            if (ref := re.match(r'\[(A\d{4}) link "', line)) and re.match(r"https?://", after)]


def search_engine(agent: Agent) -> None:
    """Search, then go to the results page holding the n-th result (the pager's number)."""
    page, asked = begin(agent, "search-engine", r'Use the textbox to enter "(.+)" and press '
                        rf'"Search", then find and click the {ORDINAL} search result\.')
    page = fill(agent, page, fields(agent, page)[0], asked.group(1))
    page = press(agent, page, "Search")
    per_page = len(_results(agent, page))
    if not per_page:
        raise TaskFailed(f"no results in {page}:\n" + agent.shell(f"cat {page}/content/*"))
    wanted = int(asked.group(2)) - 1
    if wanted >= per_page:
        page = agent.act(f"execute {page} {labelled(agent, page, str(wanted // per_page + 1))}")
    judge(agent, agent.act(f"execute {page} {_results(agent, page)[wanted % per_page]}"))


# The movie search form's fields, by the words of their labels in the layouts a page draws.
MOVIE_FIELDS = {"genre": ("genre",), "director": ("director", "name"), "year": ("year", "date")}


def _movie_search(task: str) -> Callable[[Agent], None]:
    """Fill each field by the word of its label (actions.tsv, else its row's label in a table
    of the form), then the search button."""
    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, r"Search for (.+) movies directed by (.+) from year "
                            r"(\d{4})\.")
        values = dict(zip(MOVIE_FIELDS, asked.groups()))
        for ident in _form_fields(agent, page):
            label = (agent.row(page, ident)[2] or _row_label(agent, page, ident)).lower()
            kind = next((name for name, words in MOVIE_FIELDS.items()
                         if any(word in label for word in words)), None)
            if kind is None:
                raise TaskFailed(f"{page}/{ident} has no label telling which field it is: "
                                 f"{agent.row(page, ident)}\n"
                                 + agent.shell(f"cat {page}/content/*"))
            page = fill(agent, page, ident, values[kind])
        buttons = re.findall(r'\[(A\d{4}) (?:button|clickable) "[^"]*"\]',
                             agent.shell(f"cat {page}/content/*.md"))
        judge(agent, agent.act(f"execute {page} {buttons[-1]}"))
    return run


def _form_fields(agent: Agent, page: str) -> list[str]:
    """The fill actions of actions.tsv, in its order."""
    return [line.split("\t")[0] for line in
            agent.shell(f"grep -P '^A\\d{{4}}\\tfill\\t' {page}/actions.tsv").splitlines()]


def _row_label(agent: Agent, page: str, ident: str) -> str:
    """The row label of the table cell that holds the field (a form laid out as a table)."""
    for line in agent.shell(f"grep -h -w {ident} {page}/tables/*.cells").splitlines():
        cells = line.split("\t")
        if len(cells) > 5 and ident in cells[5]:
            return cells[2]
    return ""


def form_sequence_3(agent: Agent) -> None:
    """The dropdown is a styled one: open it by its arrow, click the choice, then the button."""
    page, asked = begin(agent, "form-sequence-3", r'Choose (.+) from the dropdown, then click the '
                        r'button labeled "(.+)"\.')
    page = press(agent, page, "▾")
    page = press(agent, page, asked.group(1))
    judge(agent, press(agent, page, asked.group(2)))


def _list_items(agent: Agent, page: str) -> list[tuple[str, str]]:
    """The items of a list that can be dragged, in order: (id, label)."""
    return re.findall(r'^\[(A\d{4}) clickable "([^"]*)"\]$',
                      agent.shell(f"cat {page}/content/*.md"), re.M)


def drag_items(agent: Agent) -> None:
    """Drag the item onto the one at the position asked (jQuery UI sortable)."""
    page, asked = begin(agent, "drag-items", r"Drag (\S+) (to the top|to the bottom|down by one "
                        rf"position|up by one position|to the {ORDINAL} position)\.")
    items = _list_items(agent, page)
    names = [label for _, label in items]
    if asked.group(1) not in names:
        raise TaskFailed(f"no item {asked.group(1)!r} in {page}: {names}")
    now = names.index(asked.group(1))
    target = {"to the top": 0, "to the bottom": len(items) - 1, "down by one position": now + 1,
              "up by one position": now - 1}.get(asked.group(2))
    target = int(asked.group(3)) - 1 if target is None else target
    page = agent.act(f"drag {page} {items[now][0]} {items[target][0]}")
    judge(agent, page)


def order_food(agent: Agent) -> None:
    """"+" under each item named (or under items showing the kind asked), then Order!."""
    page, asked = begin(agent, "order-food", r"Order (?:one of each item: (.+)|(\d+) items that "
                        r"are (\S+))$")
    lines = agent.shell(f"cat {page}/content/*.md").splitlines()

    def plus_after(index: int) -> str | None:
        for below in lines[index + 1:index + 4]:
            found = re.search(r'\[(A\d{4}) clickable "\+"\]', below)
            if found:
                return found.group(1)
        return None
    if asked.group(1):
        wanted = [plus_after(lines.index(name)) if name in lines else None
                  for name in asked.group(1).split(", ")]
    else:
        kinds = [index for index, line in enumerate(lines)
                 if re.search(rf"\bimage: {re.escape(asked.group(3))}\]", line)]
        wanted = [plus_after(kinds[0] - 1) if kinds else None] * int(asked.group(2))
    if None in wanted:
        raise TaskFailed(f"no + for every item asked in {page}")
    for plus in wanted:
        page = agent.act(f"execute {page} {plus}")
    judge(agent, press(agent, page, "Order!"))


def stock_market(agent: Agent) -> None:
    """Watch the price (a `focus` captures it again) and buy once it is under the mark."""
    page, asked = begin(agent, "stock-market", r"Buy (\S+) stock when the price is less than "
                        r"\$([\d.]+)\.")
    deadline = time.monotonic() + WATCH_SECONDS
    while time.monotonic() < deadline:
        price = re.search(r"Stock price: \$([\d.]+)", agent.shell(f"cat {page}/content/*.md"))
        if price and float(price.group(1)) < float(asked.group(2)):
            break
        page = agent.act(f"focus {page}")
    judge(agent, press(agent, page, "Buy"))


# The toolbar button of each style text-editor asks for, by the word in its class.
EDITOR_STYLES = {"bold": "ql-bold", "italics": "ql-italic", "underlined": "ql-underline"}


def text_editor(agent: Agent) -> None:
    """Select the words with the keyboard (all, or from the word's offset in the editor's
    text), then the toolbar button of the style. Colours are swatches: not attempted."""
    page, asked = begin(agent, "text-editor", r"Using the text editor, (?:give the text (.+?)|give "
                        r"everything|make everything) the (style|color) (\S+?)(?: and press "
                        r"Submit)?\.")
    word, kind, style = asked.groups()
    if kind == "color":
        raise TaskFailed(f"the colour {style!r} is a swatch of the picker (needs vision)")
    editor = control(agent, page, "(class: ql-editor)")
    if word is None:
        page = agent.act(f"press {page} {editor} Control+a")
    else:
        text = line_after(agent, page, f"[{editor} ")
        offset = text.find(word)
        if offset < 0:
            raise TaskFailed(f"{word!r} is not in the editor's text {text!r}")
        keys = ["Control+Home", *["ArrowRight"] * offset, *["Shift+ArrowRight"] * len(word)]
        page = agent.act(f"press {page} {editor} {' '.join(keys)}")
    button = re.search(rf'\[(A\d{{4}}) button "\(class: {EDITOR_STYLES[style]}\b',
                       agent.shell(f"cat {page}/content/*.md"))
    if button is None:
        raise TaskFailed(f"no {style} button in {page}")
    page = agent.act(f"execute {page} {button.group(1)}")
    judge(agent, press(agent, page, "Submit"))


LINES_OF_THREE = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8),
                  (2, 4, 6)]


def _board(agent: Agent, page: str) -> list[tuple[str, str]]:
    """The nine squares in reading order: (id, mark), the mark "x", "o" or "" as each
    square's reference names it (`(class: mark-o)`)."""
    squares = re.findall(r'\[(A\d{4}) clickable "(?:\(class: mark-(\w))?[^"]*"\]',
                         agent.shell(f"cat {page}/content/*.md"))
    if len(squares) < 9:
        raise TaskFailed(f"no board of nine squares in {page}")
    return squares[:9]


def _winner(board: tuple[str, ...]) -> str:
    for a, b, c in LINES_OF_THREE:
        if board[a] and board[a] == board[b] == board[c]:
            return board[a]
    return ""


def _free(board: tuple[str, ...]) -> list[int]:
    return [i for i, mark in enumerate(board) if not mark]


def _after(board: tuple[str, ...], square: int, player: str) -> tuple[str, ...]:
    return board[:square] + (player,) + board[square + 1:]


@functools.cache
def _worst(board: tuple[str, ...], player: str) -> int:
    """The game's end if both play their best: 1 x wins, 0 a draw, -1 o wins."""
    winner = _winner(board)
    if winner or all(board):
        return {"x": 1, "o": -1}.get(winner, 0)
    results = [_worst(_after(board, square, player), "o" if player == "x" else "x")
               for square in _free(board)]
    return max(results) if player == "x" else min(results)


@functools.cache
def _chance(board: tuple[str, ...], player: str) -> float:
    """How often x wins playing its best if o answers on any free square alike."""
    winner = _winner(board)
    if winner or all(board):
        return 1.0 if winner == "x" else 0.0
    results = [_chance(_after(board, square, player), "o" if player == "x" else "x")
               for square in _free(board)]
    return max(results) if player == "x" else sum(results) / len(results)


def _best_move(marks: list[str]) -> int:
    """Minimax for x, o to play after; among the moves that lose nothing, the one that wins
    most often if o may answer anywhere (a person plays for the win: a perfect o draws)."""
    board = tuple(marks)
    return max(_free(board), key=lambda square: (_worst(_after(board, square, "x"), "o"),
                                                _chance(_after(board, square, "x"), "o")))


def tic_tac_toe(agent: Agent) -> None:
    page, _ = begin(agent, "tic-tac-toe", r"Playing as 'X', win a game of tic-tac-toe\.")
    for _ in range(5):
        if REWARD.search(agent.shell(f"grep -rh 'Last reward' {page}/content/")):
            break
        squares = _board(agent, page)
        page = agent.act(f"execute {page} {squares[_best_move([m for _, m in squares])][0]}")
    judge(agent, page)


def guess_number(agent: Agent) -> None:
    """Halve the range by the page's feedback ("The number is lower than 5.")."""
    page, asked = begin(agent, "guess-number", r"Guess the number between (\d+)-(\d+) and press "
                        r"Submit\.")
    low, high = int(asked.group(1)), int(asked.group(2))
    form = fields(agent, page)[0]
    for _ in range(MAX_TRIES):
        guess = (low + high) // 2
        page = fill(agent, page, form, str(guess))
        if REWARD.search(agent.shell(f"grep -rh 'Last reward' {page}/content/")):
            break
        told = re.search(r"The number is (lower|higher) than",
                         agent.shell(f"cat {page}/content/*.md"))
        if told is None:
            break
        low, high = (low, guess - 1) if told.group(1) == "lower" else (guess + 1, high)
    judge(agent, page)


def drag_sort_numbers(agent: Agent) -> None:
    """Selection sort by drags: the smallest left, onto the item at the first place not yet
    sorted, reading the list again after each drag."""
    page, asked = begin(agent, "drag-sort-numbers", r"Sort the numbers in (increasing|decreasing) "
                        r"order")
    for place in range(MAX_ITEMS):
        items = [(int(label), ident) for ident, label in _list_items(agent, page)]
        if place >= len(items) - 1:
            break
        rest = items[place:]
        pick = (min if asked.group(1) == "increasing" else max)(rest)
        if pick[1] != items[place][1]:
            page = agent.act(f"drag {page} {pick[1]} {items[place][1]}")
    judge(agent, press(agent, page, "Submit"))


def _half_hour(clock: str) -> int:
    """"4PM" → 32: the index of the half hour it starts, from midnight."""
    hour, noon = int(clock[:-2]), clock[-2:].upper() == "PM"
    return ((hour % 12) + (12 if noon else 0)) * 2


def daily_calendar(agent: Agent) -> None:
    """Drag over the half hours at the start of the window asked (the slots, in order under
    the hour lines), name the event, Create. Where the page's own events sit is not in the
    files, so an overlap with one of them cannot be avoided."""
    page, asked = begin(agent, "daily-calendar", r'Create a ([\d.]+) (hours?|mins) event named '
                        r'"(.+)", between (\d+[AP]M) and (\d+[AP]M)\.')
    amount, unit, name, start, _ = asked.groups()
    slots = max(1, round(float(amount) * (2 if unit.startswith("hour") else 1 / 30)))
    half_hours = re.findall(r'\[(A\d{4}) clickable "\(class: half-hour\)"\]',
                            agent.shell(f"cat {page}/content/*.md"))
    first = _half_hour(start)
    if len(half_hours) < first + slots:
        raise TaskFailed(f"{len(half_hours)} half hours in {page}, not a whole day")
    page = agent.act(f"drag {page} {half_hours[first]} {half_hours[first + slots - 1]}")
    page = fill(agent, page, control(agent, page, "Event name", "fill"), name)
    judge(agent, press(agent, page, "Create"))


def _text_lines_after(agent: Agent, page: str, text: str) -> list[str]:
    """The lines of plain text (no reference, heading or reward panel) after the line of
    content/ holding `text`: the paragraphs under an instruction."""
    shown = agent.shell(f"grep -rh -A40 -F -- {shlex.quote(text)} {page}/content/").splitlines()
    return [line.strip() for line in shown[1:]
            if line.strip() and not re.match(r"\s*(\[|#|-\s*\[)", line)
            and not re.search(r"Last reward|Last 10 average|Time left|Episodes done", line)]


def _highlight(task: str, instruction: str) -> Callable[[Agent], None]:
    """Select the paragraph asked (its words, as a line of content/ shows them) by a drag
    over it, then Submit: the page compares the selection with the paragraph."""

    def run(agent: Agent) -> None:
        page, asked = begin(agent, task, instruction)
        paragraphs = _text_lines_after(agent, page, asked.group(0))
        place = int(asked.group(1)) - 1 if asked.groups() else 0
        if len(paragraphs) <= place:
            raise TaskFailed(f"no paragraph {place + 1} in {page}: {paragraphs}")
        page = agent.act(f"highlight {page} {shlex.quote(paragraphs[place])}")
        judge(agent, press(agent, page, "Submit"))

    return run


# How far resize-textarea's corner is dragged, in pixels (the box starts 50 to 100 wide).
RESIZE_PX = 30


def resize_textarea(agent: Agent) -> None:
    """Drag the text area's corner out or in along the dimension asked, then Submit."""
    page, asked = begin(agent, "resize-textarea", r"Resize the textarea so that the (width|height) "
                        r"is (larger|smaller) than its initial size")
    dimension, direction = asked.groups()
    step = RESIZE_PX if direction == "larger" else -RESIZE_PX
    by = f"{step},0" if dimension == "width" else f"0,{step}"
    area = _kind_ids(agent, page, "textarea")
    if not area:
        raise TaskFailed(f"no text area in {page}:\n" + agent.shell(f"cat {page}/actions.tsv"))
    page = agent.act(f"drag {page} {area[0]} --by {by}")
    judge(agent, press(agent, page, "Submit"))


TASKS: dict[str, Callable[[Agent], None]] = {
    "click-button": click_button,
    "click-button-sequence": click_button_sequence,
    "click-link": click_link,
    "click-checkboxes": _click_checkboxes("click-checkboxes"),
    "click-checkboxes-large": _click_checkboxes("click-checkboxes-large"),
    "click-checkboxes-transfer": _click_checkboxes("click-checkboxes-transfer"),
    "click-option": click_option,
    "choose-list": choose_list,
    "enter-text": _enter_text("enter-text"),
    "enter-text-dynamic": _enter_text("enter-text-dynamic"),
    "enter-text-2": enter_text_2,
    "enter-password": enter_password,
    "login-user": _login_user("login-user", "Login"),
    "focus-text": focus_text,
    "focus-text-2": focus_text_2,
    "enter-date": _enter_value("enter-date", r"Enter (\S+) as the date and hit submit\."),
    "enter-time": _enter_value("enter-time", r"Enter (.+) as the time and press submit\."),
    "use-spinner": use_spinner,
    "click-dialog": click_dialog,
    "click-dialog-2": click_dialog_2,
    "click-tab": click_tab,
    "click-tab-2": _link_behind("click-tab-2", r'Switch between the tabs to find and click on the '
                                r'link "(.+)"\.'),
    "click-tab-2-easy": _link_behind("click-tab-2-easy", r'Switch between the tabs to find and '
                                     r'click on the link "(.+)"\.'),
    "click-tab-2-medium": _link_behind("click-tab-2-medium", r'Switch between the tabs to find '
                                       r'and click on the link "(.+)"\.'),
    "click-tab-2-hard": _link_behind("click-tab-2-hard", r'Switch between the tabs to find and '
                                     r'click on the link "(.+)"\.'),
    "click-collapsible": click_collapsible("click-collapsible"),
    "click-collapsible-nodelay": click_collapsible("click-collapsible-nodelay"),
    "click-collapsible-2": _link_behind("click-collapsible-2", r"Expand the sections below, to "
                                        r'find and click on the link "(.+)"\.'),
    "click-collapsible-2-nodelay": _link_behind("click-collapsible-2-nodelay", r"Expand the "
                                                r'sections below, to find and click on the link '
                                                r'"(.+)"\.'),
    "click-menu": click_menu,
    "click-menu-2": click_menu_2,
    "use-autocomplete": use_autocomplete("use-autocomplete"),
    "use-autocomplete-nodelay": use_autocomplete("use-autocomplete-nodelay"),
    "choose-date": _choose_date("choose-date"),
    "choose-date-easy": _choose_date("choose-date-easy"),
    "choose-date-medium": _choose_date("choose-date-medium"),
    "choose-date-nodelay": _choose_date("choose-date-nodelay"),
    "scroll-text": scroll_text,
    "scroll-text-2": scroll_text_2,
    "sign-agreement": sign_agreement,
    "copy-paste": _copy_paste("copy-paste", r"Copy the text in the textarea below, paste it into "
                              r"the textbox and press Submit\."),
    "copy-paste-2": _copy_paste("copy-paste-2", rf"Copy the text from the {ORDINAL} text area "
                                r"below and paste it into the text input, then press Submit\."),
    "text-transform": text_transform,
    "find-word": find_word,
    "read-table": read_table,
    "read-table-2": read_table_2,
    "use-slider": use_slider,
    "use-slider-2": use_slider_2,
    "form-sequence": form_sequence,
    "form-sequence-2": form_sequence_2,
    "click-scroll-list": _scroll_list,
    "social-media": social_media,
    "social-media-all": _social_some("social-media-all"),
    "social-media-some": _social_some("social-media-some"),
    "terminal": terminal,
    "buy-ticket": buy_ticket,
    "click-test": _click_test("click-test", r"Click the button\."),
    "click-test-2": _click_test("click-test-2", r"Click button (\S+)\."),
    "click-test-transfer": _click_test("click-test-transfer", r"Click button (\S+)\."),
    "button-delay": button_delay,
    "login-user-popup": login_user_popup,
    "navigate-tree": navigate_tree,
    "email-inbox": _email_inbox("email-inbox"),
    "email-inbox-delete": _email_inbox("email-inbox-delete"),
    "email-inbox-important": _email_inbox("email-inbox-important"),
    "email-inbox-noscroll": _email_inbox("email-inbox-noscroll"),
    "email-inbox-reply": _email_inbox("email-inbox-reply"),
    "simple-arithmetic": simple_arithmetic,
    "simple-algebra": simple_algebra,
    "odd-or-even": odd_or_even,
    "find-greatest": find_greatest,
    "generate-number": generate_number,
    "click-widget": click_widget,
    "phone-book": phone_book,
    "daily-calendar": daily_calendar,
    "drag-sort-numbers": drag_sort_numbers,
    "guess-number": guess_number,
    "tic-tac-toe": tic_tac_toe,
    "text-editor": text_editor,
    "drag-items": drag_items,
    "order-food": order_food,
    "stock-market": stock_market,
    "multi-layouts": _movie_search("multi-layouts"),
    "multi-orderings": _movie_search("multi-orderings"),
    "form-sequence-3": form_sequence_3,
    "book-flight": _book_flight("book-flight"),
    "book-flight-nodelay": _book_flight("book-flight-nodelay"),
    "search-engine": search_engine,
    "email-inbox-forward": _email_inbox("email-inbox-forward"),
    "email-inbox-star-reply": _email_inbox("email-inbox-star-reply"),
    "unicode-test": _click_test("unicode-test", r'Click on the "(.+)" button\.'),
    "highlight-text": _highlight("highlight-text", r"Highlight the text in the paragraph below "
                                 r"and click submit\."),
    "highlight-text-2": _highlight("highlight-text-2", rf"Highlight the text in the {ORDINAL} "
                                   r"paragraph and click submit\."),
    "resize-textarea": resize_textarea,
}

# Tasks whose answer is in the picture, not in any text or control a reader can find.
NEEDS_VISION: dict[str, str] = {
    "bisect-angle": "an angle drawn in SVG",
    "chase-circle": "a moving circle drawn in SVG",
    "circle-center": "a circle drawn in SVG",
    "click-color": "colour swatches",
    "click-pie": "a pie drawn in SVG",
    "click-pie-nodelay": "a pie drawn in SVG",
    "click-shades": "shades of colour",
    "click-shape": "shapes drawn in SVG",
    "count-shape": "shapes drawn in SVG",
    "count-sides": "a polygon drawn in SVG",
    "drag-box": "boxes placed by position",
    "drag-circle": "a circle drawn in SVG",
    "drag-cube": "a cube drawn in SVG",
    "drag-shapes": "shapes drawn in SVG",
    "drag-shapes-2": "shapes drawn in SVG",
    "drag-single-shape": "a shape drawn in SVG",
    "draw-circle": "drawing on a canvas",
    "draw-line": "drawing on a canvas",
    "find-midpoint": "points drawn in SVG",
    "grid-coordinate": "positions on a drawn grid",
    "hot-cold": "found by moving the pointer over an area and reading a colour",
    "drag-items-grid": "positions in a grid (top left, center right …)",
    "simon-says": "buttons that light up in turn",
    "number-checkboxes": "the digit to copy is a picture",
    "hover-shape": "a shape drawn in SVG",
    "identify-shape": "shapes drawn in SVG",
    "moving-items": "moving shapes",
    "right-angle": "an angle drawn in SVG",
    "use-colorwheel": "a colour wheel",
    "use-colorwheel-2": "a colour wheel",
    "visual-addition": "counting drawn blocks",
    "ascending-numbers": "the numbers vanish after the first click; the squares differ only by "
                         "where they are drawn",
}


# Running --------------------------------------------------------------------------------------

def run(daemon: Daemon, site: Corpus, tasks: list[str], rounds: int) -> dict[str, TaskResult]:
    results: dict[str, TaskResult] = {}
    runs = itertools.count(1)
    for name in tasks:
        result = results.setdefault(name, TaskResult())
        for _ in range(rounds):
            attempt(daemon, site, next(runs), TASKS[name], result)  # type: ignore[arg-type]
        print(f"{result.passed}/{result.runs} {name}", file=sys.stderr, flush=True)
    return results


def report(results: dict[str, TaskResult], every: list[str]) -> None:
    print_success(results, width=34)
    for name in every:
        if name in NEEDS_VISION:
            print(f"{name:<34} needs vision: {NEEDS_VISION[name]}")
    left = [name for name in every if name not in TASKS and name not in NEEDS_VISION]
    if left:
        print(f"not attempted yet ({len(left)}): {', '.join(left)}")
    print_failures(results)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--miniwob", type=Path, default=os.environ.get("WEBSHELL_MINIWOB"),
                        help="the miniwob/html folder (default: $WEBSHELL_MINIWOB)")
    parser.add_argument("--rounds", type=int, default=3, help="episodes of each task")
    parser.add_argument("--tasks", default="", help="only the tasks whose name holds this "
                        "(several separated by commas)")
    args = parser.parse_args()
    if args.miniwob is None or not (args.miniwob / "miniwob").is_dir():
        raise SystemExit("give the MiniWoB++ html folder (--miniwob DIR or $WEBSHELL_MINIWOB): "
                         "see docs/benchmarks.md")
    every = sorted(page.stem for page in (args.miniwob / "miniwob").glob("*.html"))
    wanted = [word for word in args.tasks.split(",") if word]
    chosen = [name for name in every if name in TASKS
              and (not wanted or any(word in name for word in wanted))]

    site = serve_miniwob(args.miniwob)
    with tempfile.TemporaryDirectory(prefix="bench-miniwob-") as temp:
        base = Path(temp)
        (base / "uploads").mkdir()
        daemon = Daemon(base, "mount", base / "uploads")
        try:
            print(f"MiniWoB++: {len(chosen)} of {len(every)} tasks, {args.rounds} episodes each, "
                  f"{os.cpu_count()} cores, load average {os.getloadavg()[0]:.1f}")
            report(run(daemon, site, chosen, args.rounds), every)
            print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
        finally:
            daemon.stop()
            site.close()


if __name__ == "__main__":
    main()

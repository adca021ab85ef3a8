"""Interaction: a scripted agent does tasks on script-driven pages through a real mount, and
what finding the pages' operable elements costs.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_interaction.py [--rounds 3] [--open-rounds 10]
        [--execute-rounds 40] [--tasks WORD] [--no-cost] [--no-tasks]

It serves the live fixture site (tests/browser/live_site.py) on 127.0.0.1 and mounts a real
webshellfs with the local Chromium and an uploads directory, then:

1. Tasks. The agent knows only what a person would look for ("Mark all as complete", "Older",
   "Fruit bin") and the grammar (`help`). It finds an address by grepping content/ (then the
   whole page) for that text and taking the reference on the matching line (a gesture or kind
   it wants, such as dblclick or drop, is read from that id's actions.tsv row); it acts with a
   `.ctl` command and greps the state the response names for the text that proves the end
   state. No id is written in the script. Each task runs `--rounds` times on a fresh `open`,
   and the script prints its success rate and the characters the agent read (responses, grep
   and cat output) per task, then the reason of every failure: the step, the command and its
   answer, what the compiled files showed.
2. Cost of `open`. A second mount runs with live discovery turned off (the listener log not
   installed, the snapshot marking nothing operable: browser/discovery.py), on its own
   Chromium; both open the same fixture pages round by round in alternating order, and the
   script prints each one's median and the ratio. Target: at most +20 %.
3. Cost of `execute` on a warm tab. The browser room (`Browser.execute` clicking a delegated
   folder item found by discovery: act, settle, snapshot) against bare Playwright clicking the
   same item and taking `content()`, as bench_browser.py compares a select; and the whole
   command through the mount for reference. Target: at most 1.5x bare Playwright.
"""

from __future__ import annotations

import argparse
import itertools
import os
import re
import shlex
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import lxml.html
import trio
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.browser.live_site import LiveSite  # noqa: E402
from webshellfs.browser import Browser, BrowserOptions  # noqa: E402
from webshellfs.browser.options import CHROMIUM_ARGS  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
MOUNT_WAIT = 60.0
CTL_TIMEOUT = 180.0
UPLOAD_NAME = "notes.txt"
UPLOAD_TEXT = b"quarterly figures\n"
# A page's table of contents should stay this small (docs/contract.md), rows or not.
MAX_MAP_CHARS = 2048
# How many times the agent scrolls an infinite list looking for an item before giving up.
MAX_SCROLLS = 8
# The draft page draws its toolbar anew this many seconds after loading.
REDRAWN_AFTER = 3.5
# Pages whose `open` is timed: the script-driven ones and other live fixtures (menus, a
# combobox, a dialog, a list loaded by script, a rendered page).
OPEN_PAGES = ("/scripted/orders.html", "/scripted/todo.html", "/scripted/inbox.html", "/scripted/widgets.html",
              "/scripted/tabs.html", "/scripted/feed.html", "/product.html", "/jslist.html",
              "/menu.html", "/combobox.html", "/modal.html", "/rendered.html", "/tabs.html")

# The daemon with live discovery turned off: the same code with the listener log replaced by
# an empty script and the snapshot's per-element discovery step by "nothing operable" (as the
# snapshot was before discovery), so the compiler finds only declared controls.
DISCOVERY_CALL = "const [ops, pointer, style] = gestures(el, shown, parentPointer);"
# Without discovery the snapshot still reads each shown element's style, for its unseen check.
NO_DISCOVERY = ("const [ops, pointer, style] = ['', false, shown && el.ownerDocument.defaultView"
                " ? el.ownerDocument.defaultView.getComputedStyle(el) : null];")
WITHOUT_DISCOVERY = f"""
import sys
from webshellfs.browser import loading, session
assert {DISCOVERY_CALL!r} in loading.SNAPSHOT, "the snapshot changed: update the benchmark"
loading.SNAPSHOT = loading.SNAPSHOT.replace({DISCOVERY_CALL!r}, {NO_DISCOVERY!r})
session.LISTENER_LOG = ';'
from webshellfs.cli import main
sys.exit(main(sys.argv[1:]))
"""


class TaskFailed(Exception):
    """A step of a task did not reach what it expected; the message says what was seen."""


@dataclass
class Answer:
    ok: bool
    text: str
    seconds: float


class Daemon:
    """One webshellfs mount (FUSE, local Chromium) in a temp dir, driven through .ctl."""

    def __init__(self, base: Path, name: str, uploads: Path, discovery: bool = True) -> None:
        self.path = base / name
        self.path.mkdir()
        self.cache = base / f"{name}.sqlite"
        self.stderr = base / f"{name}.stderr"
        launcher = ["-m", "webshellfs"] if discovery else ["-c", WITHOUT_DISCOVERY]
        command = [sys.executable, *launcher, str(self.path), "--foreground",
                   "--cache", str(self.cache), "--allow-private", "--browser", "local",
                   "--chromium", CHROMIUM, "--uploads", str(uploads)]
        with open(self.stderr, "wb") as stderr:
            self.process = subprocess.Popen(command, stdin=subprocess.DEVNULL,
                                            stdout=subprocess.DEVNULL, stderr=stderr, cwd=ROOT)
        deadline = time.monotonic() + MOUNT_WAIT
        while not os.path.ismount(self.path):
            if self.process.poll() is not None or time.monotonic() > deadline:
                self.stop()
                raise SystemExit(f"{name} did not mount:\n" + self.stderr.read_text())
            time.sleep(0.05)

    def ctl(self, command: str) -> Answer:
        """Write one command to .ctl (the write blocks until it is done), read the answer."""
        ctl = self.path / ".ctl"
        started = time.perf_counter()
        # One unbuffered write: a buffered file whose flush failed keeps its buffer and sends
        # the command a second time when it is collected.
        descriptor = os.open(ctl, os.O_WRONLY | os.O_TRUNC)
        try:
            os.write(descriptor, (command + "\n").encode("utf-8"))
            ok = True
        except OSError:
            ok = False
        finally:
            os.close(descriptor)
        seconds = time.perf_counter() - started
        return Answer(ok, ctl.read_text(encoding="utf-8"), seconds)

    def stop(self) -> None:
        if self.process.poll() is None:
            subprocess.run(["fusermount3", "-u", str(self.path)], capture_output=True,
                           check=False)
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()


REF = re.compile(r"\[([AL]\d{4})\b([^\]]*)\]")
# A tables/*.cells line: cell, row, row_label, col_label, value, refs (the ids of what the cell
# holds, bare).
CELL_COLUMNS = 6
CELL_REF = re.compile(r"\b([AL]\d{4})\b")


class Agent:
    """What an agent with a shell does: commands through .ctl, grep and cat of the compiled
    files. Everything it reads is counted in `read` (characters)."""

    def __init__(self, daemon: Daemon, site: LiveSite, run: int) -> None:
        self.daemon = daemon
        self.site = site
        self.run_number = run
        self.read = 0
        self.pages: list[str] = []
        # Each command with the line naming where it led, each address with the line it was on.
        self.transcript: list[str] = []
        self.answer = ""  # the last command's answer

    # reading ------------------------------------------------------------------------------

    def shell(self, script: str) -> str:
        output = subprocess.run(["bash", "-c", script], capture_output=True, text=True,
                                check=False, cwd=self.daemon.path,
                                env={**os.environ, "LC_ALL": "C.UTF-8"}).stdout
        self.read += len(output)
        return output

    def grep(self, page: str, text: str, where: str = "content/") -> list[str]:
        """`grep -rnF TEXT PAGE/WHERE`: the matching lines."""
        return self.shell(f"grep -rnF -- {shlex.quote(text)} {page}/{where}").splitlines()

    def row(self, page: str, ident: str) -> list[str]:
        """The id's row of actions.tsv or links.tsv, split into its columns."""
        table = "links.tsv" if ident.startswith("L") else "actions.tsv"
        found = self.shell(f"grep -m1 '^{ident}\t' {page}/{table}")
        return found.rstrip("\n").split("\t") if found else []

    # acting -------------------------------------------------------------------------------

    def run(self, command: str) -> str:
        answer = self.daemon.ctl(command)
        self.read += len(answer.text)
        self.answer = answer.text
        led = [line for line in answer.text.splitlines() if line.startswith("→")]
        self.transcript.append(f"$ {command}  {led[0] if led else ''}".rstrip())
        if not answer.ok:
            raise TaskFailed(f"`{command}` failed:\n{answer.text.strip()}")
        return answer.text

    def open(self, path: str) -> str:
        """Open the page at a URL of this run's own (`?run=N`): a state another run reached
        would otherwise be handed out again (`the same as an earlier state, reused`), and the
        tasks would depend on their order."""
        answer = self.run(f"open {self.site.url(path)}?run={self.run_number}")
        page = re.search(r"^(N\d{4})\b", answer, re.M)
        if page is None:
            raise TaskFailed(f"`open {path}` named no page:\n{answer}")
        self.pages.append(page.group(1))
        return page.group(1)

    def act(self, command: str) -> str:
        """Run an acting command; the page it led to (a new state, or the same page when
        nothing changed). A capture taken while the page was busy is taken again by focus."""
        answer = self.run(command)
        page = re.search(r"^→ (?:unchanged: )?(N\d{4})", answer, re.M)
        if page is None:
            raise TaskFailed(f"`{command}` named no resulting page:\n{answer}")
        if "still busy" in answer:
            return self.act(f"focus {page.group(1)}")
        self.pages.append(page.group(1))
        return page.group(1)

    # finding ------------------------------------------------------------------------------

    def find(self, page: str, text: str, want: str = "") -> str:
        """The address of what shows `text`: grep content/, else the whole page; on each
        matching line the reference whose label holds the text (`[A0012 clickable "Older"]`)
        or that follows it (`Active [L0002]`). With `want` (a kind such as check or fill, or a
        gesture the control listens for: dblclick, drop …), the one whose actions.tsv row
        says so."""
        for where in ("content/", ""):
            lines = self.grep(page, text, where)
            candidates = [ident for line in lines for ident in _refs_showing(line, text)]
            if not candidates:
                continue
            for ident in dict.fromkeys(candidates):
                columns = self.row(page, ident) if want else []
                if not want or columns and (columns[1] == want or re.search(
                        rf"\bon: [^\t]*\b{want}\b", columns[3] if len(columns) > 3 else "")):
                    shown = next(line for line in lines if ident in line)
                    self.transcript.append(f"# {text!r} is {ident}: {shown}")
                    return ident
        raise TaskFailed(f"no address for {text!r}{f' ({want})' if want else ''} in {page}; "
                         f"its content/:\n" + self.shell(f"cat {page}/content/*"))

    def input_name(self, page: str, ident: str) -> str:
        """The name of the action's first input, as actions.tsv shows it: `volume(range…)`."""
        columns = self.row(page, ident)
        name = re.match(r"([^(\s]+)\(", columns[4] if len(columns) > 4 else "")
        if name is None:
            raise TaskFailed(f"{page}/{ident} shows no input in actions.tsv: {columns}")
        return name.group(1)

    def expect(self, page: str, text: str, present: bool = True) -> None:
        lines = self.grep(page, text)
        if bool(lines) != present:
            raise TaskFailed(f"{text!r} {'missing from' if present else 'still in'} "
                             f"{page}/content/:\n" + self.shell(f"cat {page}/content/*"))


def _refs_showing(line: str, text: str) -> list[str]:
    """References on a grep line that belong to `text`: a table cell's own (the refs column of
    a tables/*.cells line whose value holds the text), labels holding it, then links right
    after it, then any reference on the line."""
    body = line.split(":", 2)[-1]
    columns = body.split("\t")
    cell = (CELL_REF.findall(columns[-1]) if "/tables/" in line and len(columns) == CELL_COLUMNS
            and text in columns[-2] else [])
    labelled = [m.group(1) for m in REF.finditer(body) if text in m.group(2)]
    following = [m.group(1) for m in REF.finditer(body)
                 if body[:m.start()].rstrip().endswith(text)]
    return cell + labelled + following + [m.group(1) for m in REF.finditer(body)]


# Tasks --------------------------------------------------------------------------------------

def _todos(agent: Agent, *titles: str) -> str:
    page = agent.open("/scripted/todo.html")
    field = agent.find(page, "What needs to be done?")
    for title in titles:
        page = agent.act(f"execute {page} {field} {agent.input_name(page, field)}="
                         f"{shlex.quote(title)} --press Enter")
    return page


def todo_add(agent: Agent) -> None:
    page = _todos(agent, "buy milk", "walk the dog")
    agent.expect(page, "walk the dog")
    agent.expect(page, "2 items left")


def todo_edit(agent: Agent) -> None:
    page = _todos(agent, "buy milk")
    page = agent.act(f"dblclick {page} {agent.find(page, 'buy milk', 'dblclick')}")
    editor = agent.find(page, "Edit buy milk")
    page = agent.act(f"execute {page} {editor} {agent.input_name(page, editor)}="
                     "'buy oat milk' --press Enter")
    agent.expect(page, "buy oat milk")


def todo_escape(agent: Agent) -> None:
    page = _todos(agent, "buy milk")
    page = agent.act(f"dblclick {page} {agent.find(page, 'buy milk', 'dblclick')}")
    editor = agent.find(page, "Edit buy milk")
    page = agent.act(f"execute {page} {editor} {agent.input_name(page, editor)}=nothing "
                     "--press Escape")
    agent.expect(page, "buy milk")
    agent.expect(page, "nothing", present=False)


def todo_mark_all(agent: Agent) -> None:
    page = _todos(agent, "buy milk", "walk the dog")
    page = agent.act(f"execute {page} {agent.find(page, 'Mark all as complete')}")
    agent.expect(page, "0 items left")


def todo_tick(agent: Agent) -> None:
    page = _todos(agent, "buy milk", "walk the dog")
    page = agent.act(f"execute {page} {agent.find(page, 'buy milk', 'check')}")
    agent.expect(page, "1 item left")


def todo_filter(agent: Agent) -> None:
    page = _todos(agent, "buy milk", "walk the dog")
    page = agent.act(f"execute {page} {agent.find(page, 'Mark all as complete')}")
    page = agent.act(f"execute {page} {agent.find(page, 'Active')}")
    agent.expect(page, "buy milk", present=False)
    page = agent.act(f"execute {page} {agent.find(page, 'Completed')}")
    agent.expect(page, "walk the dog")


def todo_back(agent: Agent) -> None:
    page = _todos(agent, "buy milk", "walk the dog")
    page = agent.act(f"execute {page} {agent.find(page, 'Mark all as complete')}")
    page = agent.act(f"execute {page} {agent.find(page, 'Active')}")
    agent.expect(page, "walk the dog", present=False)
    page = agent.act(f"back {page}")
    agent.expect(page, "walk the dog")


def todo_again(agent: Agent) -> None:
    """The same to-dos typed again in a new tab reach states stored before: the agent goes
    on from the reused address."""
    page = _todos(agent, "buy milk", "walk the dog")
    agent.run(f"close {page}")
    page = _todos(agent, "buy milk", "walk the dog")
    page = agent.act(f"execute {page} {agent.find(page, 'Delete buy milk')}")
    agent.expect(page, "1 item left")


def inbox_open_row(agent: Agent) -> None:
    page = agent.open("/scripted/inbox.html")
    page = agent.act(f"execute {page} {agent.find(page, 'Dolores')}")
    agent.expect(page, "Shall we meet at noon?")


def inbox_pager(agent: Agent) -> None:
    page = agent.open("/scripted/inbox.html")
    page = agent.act(f"execute {page} {agent.find(page, 'Older')}")
    agent.expect(page, "Farida")
    agent.expect(page, "Catarina", present=False)


def context_menu(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"rightclick {page} {agent.find(page, 'Right-click this note', 'rightclick')}")
    page = agent.act(f"execute {page} {agent.find(page, 'Rename')}")
    agent.expect(page, "Note: renamed")


def drag_and_drop(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    apple = agent.find(page, "Apple", "drag")
    page = agent.act(f"drag {page} {apple} {agent.find(page, 'Fruit bin', 'drop')}")
    agent.expect(page, "Bin: Apple")


def slider(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    volume = agent.find(page, "Volume", "fill")
    page = agent.act(f"execute {page} {volume} {agent.input_name(page, volume)}=7")
    agent.expect(page, "Volume: 7")


def hover(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"hover {page} {agent.find(page, 'Hover for a hint')}")
    agent.expect(page, "Tip: the bin takes fruit only")


def confirm_cancelled(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    command = f"execute {page} {agent.find(page, 'Delete everything')} --dismiss"
    answer = agent.run(command)
    if "dismissed" not in answer:
        raise TaskFailed(f"`{command}` did not say the confirm was dismissed:\n{answer}")
    page = agent.act(f"focus {page}")
    agent.expect(page, "Everything is kept")


def prompt_answered(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"execute {page} {agent.find(page, 'Say hello')} --answer Ada")
    agent.expect(page, "Hello, Ada")


def delayed_result(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"execute {page} {agent.find(page, 'Fetch the forecast')}")
    agent.expect(page, "Forecast: sunny, 21 degrees")


def upload(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"upload {page} {agent.find(page, 'Attachment')} {UPLOAD_NAME}")
    agent.expect(page, f"Attached {UPLOAD_NAME} ({len(UPLOAD_TEXT)} bytes)")


def delegated_items(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"execute {page} {agent.find(page, 'Spam')}")
    agent.expect(page, "Folder: Spam")


def keys(agent: Agent) -> None:
    page = agent.open("/scripted/widgets.html")
    page = agent.act(f"press {page} x")
    agent.expect(page, "Pressed x")


def hash_tabs(agent: Agent) -> None:
    page = agent.open("/scripted/tabs.html")
    page = agent.act(f"execute {page} {agent.find(page, 'Team')}")
    agent.expect(page, "Team costs 25 EUR a month")


def div_autocomplete(agent: Agent) -> None:
    page = agent.open("/scripted/tabs.html")
    city = agent.find(page, "City", "fill")
    page = agent.act(f"execute {page} {city} {agent.input_name(page, city)}=Li")
    page = agent.act(f"execute {page} {agent.find(page, 'Lisbon')}")
    agent.expect(page, "Chosen: Lisbon")


def many_rows(agent: Agent) -> None:
    page = agent.open("/scripted/orders.html")
    size = len(agent.shell(f"cat {page}/_map.md"))
    if size > MAX_MAP_CHARS:
        raise TaskFailed(f"{page}/_map.md is {size} characters (aim: under {MAX_MAP_CHARS})")
    page = agent.act(f"execute {page} {agent.find(page, 'Order 11501')}")
    agent.expect(page, "Order 11501: 2 items, shipped")


def frameset(agent: Agent) -> None:
    page = agent.open("/scripted/frames.html")
    agent.expect(page, "Welcome to the city library")
    page = agent.act(f"execute {page} {agent.find(page, 'Opening hours')}")
    agent.expect(page, "Open Monday to Saturday, 9:00 to 18:00")


def infinite_scroll(agent: Agent) -> None:
    page = agent.open("/scripted/feed.html")
    for _ in range(MAX_SCROLLS):
        if agent.grep(page, "Item 27"):
            return
        page = agent.act(f"scroll {page} down")
    agent.expect(page, "Item 27")


def scroll_past_the_end(agent: Agent) -> None:
    page = agent.open("/scripted/feed.html")
    for _ in range(MAX_SCROLLS):
        if agent.grep(page, "items shown"):
            break
        page = agent.act(f"scroll {page} down")
    agent.expect(page, "items shown")
    answer = agent.run(f"scroll {page} down")
    if f"→ unchanged: {page}" not in answer:
        raise TaskFailed(f"a scroll that loads nothing made a change:\n{answer}")


def _profile_form(agent: Agent) -> tuple[str, str, str]:
    """The settings page, its profile form (the radio "Medium" is one of its choices) and
    the name actions.tsv gives the field labelled Nickname (the page gave it none)."""
    page = agent.open("/scripted/settings.html")
    form = agent.find(page, "Medium")
    nickname = re.search(r'(\S+)\(text "Nickname"', agent.row(page, form)[4])
    if nickname is None:
        raise TaskFailed(f"no Nickname field in {page}/{form}: {agent.row(page, form)}")
    return page, form, nickname.group(1)


def fill_then_save(agent: Agent) -> None:
    page, form, nickname = _profile_form(agent)
    filled = agent.act(f"fill {page} {form} size=Large {nickname}=Zed")
    agent.expect(filled, "Nothing saved yet.")
    saved = agent.act(f"execute {filled} {form}")
    agent.expect(saved, "Saved: Large, Zed")


def checkbox_alone(agent: Agent) -> None:
    page = agent.open("/scripted/settings.html")
    box = agent.find(page, "Dark mode", "submit")
    themed = agent.act(f"execute {page} {box} {agent.input_name(page, box)}=on")
    agent.expect(themed, "Theme: dark")


def drawn_anew(agent: Agent) -> None:
    page = agent.open("/scripted/draft.html")
    save = agent.find(page, "Save draft")
    time.sleep(REDRAWN_AFTER)
    saved = agent.act(f"execute {page} {save}")
    agent.expect(saved, "Saved after sync 1")


TASKS: dict[str, Callable[[Agent], None]] = {
    "todo: add two (type + Enter)": todo_add,
    "todo: edit by double-click": todo_edit,
    "todo: Escape cancels an edit": todo_escape,
    "todo: mark all (label over hidden box)": todo_mark_all,
    "todo: tick one": todo_tick,
    "todo: filter Active, Completed": todo_filter,
    "todo: filter, then back": todo_back,
    "todo: same to-dos again in a new tab": todo_again,
    "inbox: open a row": inbox_open_row,
    "inbox: scripted pager": inbox_pager,
    "workbench: context menu": context_menu,
    "workbench: drag and drop": drag_and_drop,
    "workbench: slider": slider,
    "workbench: hover": hover,
    "workbench: confirm cancelled": confirm_cancelled,
    "workbench: prompt answered": prompt_answered,
    "workbench: result 2 s later": delayed_result,
    "workbench: upload": upload,
    "workbench: delegated folder items": delegated_items,
    "workbench: key on the page": keys,
    "plans: href=\"#\" tabs": hash_tabs,
    "plans: plain-div autocomplete": div_autocomplete,
    "orders: one of 2,000 clickable rows": many_rows,
    "library: frameset": frameset,
    "feed: infinite scroll": infinite_scroll,
    "feed: a scroll past the end is unchanged": scroll_past_the_end,
    "settings: fill without saving, then save": fill_then_save,
    "settings: a checkbox in a form without a button": checkbox_alone,
    "draft: a toolbar drawn anew by a timer": drawn_anew,
}


@dataclass
class TaskResult:
    passed: int = 0
    runs: int = 0
    read: list[int] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def attempt(daemon: Daemon, site: LiveSite, run: int, task: Callable[[Agent], None],
            result: TaskResult) -> None:
    """One run of a task by a fresh agent, counted in result (a failure with its steps);
    its tab is closed after."""
    agent = Agent(daemon, site, run)
    try:
        task(agent)
        result.passed += 1
    except TaskFailed as failure:
        steps = "\n".join(f"  {step}" for step in agent.transcript)
        result.failures.append(f"{failure}\nsteps:\n{steps}")
    result.runs += 1
    result.read.append(agent.read)
    for page in dict.fromkeys(reversed(agent.pages)):
        if daemon.ctl(f"close {page}").ok:
            break  # the tab is closed; the other pages were its earlier states


def run_tasks(daemon: Daemon, site: LiveSite, rounds: int, only: str) -> dict[str, TaskResult]:
    results: dict[str, TaskResult] = {}
    runs = itertools.count(1)
    for name, task in TASKS.items():
        if only and only not in name:
            continue
        result = results.setdefault(name, TaskResult())
        for _ in range(rounds):
            attempt(daemon, site, next(runs), task, result)
    return results


def print_success(results: dict[str, TaskResult], width: int = 42) -> None:
    """Each task's success and the characters read, then the overall figures."""
    print(f"\n{'task':<{width}} {'success':>8} {'chars read':>11}")
    passed = runs = 0
    for name, result in results.items():
        passed += result.passed
        runs += result.runs
        print(f"{name:<{width}} {result.passed:>3}/{result.runs:<4} "
              f"{statistics.median(result.read):>11,.0f}")
    tasks_all = sum(1 for r in results.values() if r.passed == r.runs)
    print(f"{'overall':<{width}} {passed:>3}/{runs:<4} ({passed / max(1, runs):.0%} of runs; "
          f"{tasks_all}/{len(results)} tasks every time)")


def print_failures(results: dict[str, TaskResult]) -> None:
    for name, result in results.items():
        for failure in dict.fromkeys(result.failures):
            print(f"\nFAILED {name}:\n  " + failure.replace("\n", "\n  "))


def print_tasks(results: dict[str, TaskResult]) -> None:
    print_success(results)
    print_failures(results)


# Cost ---------------------------------------------------------------------------------------

def open_cost(with_discovery: Daemon, without: Daemon, site: LiveSite, rounds: int) -> None:
    daemons = {"with": with_discovery, "without": without}
    times: dict[str, dict[str, list[float]]] = {name: {} for name in daemons}
    actions: dict[str, dict[str, str]] = {name: {} for name in daemons}
    for index in range(rounds + 1):  # the first round warms both browsers up
        for offset, path in enumerate(OPEN_PAGES):
            order = list(daemons) if (index + offset) % 2 == 0 else list(reversed(daemons))
            for name in order:
                answer = daemons[name].ctl(f"open {site.url(path)}")
                if not answer.ok:
                    raise SystemExit(f"{name} discovery: open {path} failed:\n{answer.text}")
                page = re.search(r"^(N\d{4})\b", answer.text, re.M)
                if page:
                    daemons[name].ctl(f"close {page.group(1)}")
                counted = re.search(r"(\d+) actions?\b", answer.text)
                actions[name][path] = counted.group(1) if counted else "?"
                if index:
                    times[name].setdefault(path, []).append(answer.seconds * 1000)
    print(f"\nopen through the mount, with live discovery and without: {rounds} rounds of "
          f"{len(OPEN_PAGES)} pages, alternating which mount goes first")
    print(f"{'page':<24} {'actions':>9} {'with ms':>8} {'without ms':>11} {'ratio':>6}")
    for path in OPEN_PAGES:
        on = statistics.median(times["with"][path])
        off = statistics.median(times["without"][path])
        found = f"{actions['with'][path]}/{actions['without'][path]}"
        print(f"{path:<24} {found:>9} {on:>8.0f} {off:>11.0f} {on / off:>6.2f}")
    on = statistics.median([ms for values in times["with"].values() for ms in values])
    off = statistics.median([ms for values in times["without"].values() for ms in values])
    print(f"{'median of all opens':<34} {on:>8.0f} {off:>11.0f} {on / off:>6.2f}  "
          "(target <= 1.20)")


def _timed(call: Callable[[], object]) -> float:
    started = time.perf_counter()
    call()
    return (time.perf_counter() - started) * 1000


def execute_cost(daemon: Daemon, site: LiveSite, rounds: int, warmup: int = 3) -> None:
    url = site.url("/scripted/widgets.html")
    folders = ("Drafts", "Sent")
    figures: dict[str, list[float]] = {"bare click+content": [], "execute (browser room)": [],
                                       "execute (whole command)": []}
    ours = Browser(BrowserOptions(chromium=CHROMIUM, allow_private=True))
    agent = Agent(daemon, site, 0)
    page = agent.open("/scripted/widgets.html")
    through_mount = {name: agent.find(page, name) for name in folders}

    with sync_playwright() as playwright:
        extra = ["--no-sandbox"] if os.geteuid() == 0 else []
        bare_browser = playwright.chromium.launch(executable_path=CHROMIUM, headless=True,
                                                  args=[*CHROMIUM_ARGS, *extra])
        bare_page = bare_browser.new_context().new_page()
        bare_page.goto(url)

        async def rounds_run() -> None:
            nonlocal page
            opened = await ours.open(url)
            root = lxml.html.document_fromstring(opened.capture.body)
            locators = {name: root.xpath(f"//ul[@class='folders']/li[normalize-space()="
                                         f"'{name}']")[0].get("data-wsfs-id")
                        for name in folders}
            for index in range(warmup + rounds):
                name = folders[index % 2]
                nth = folders.index(name) + 1
                bare = _timed(lambda nth=nth: (bare_page.click(f".folders li:nth-child({nth})"),
                                               bare_page.content()))
                started = time.perf_counter()
                await ours.execute(opened.tab_id, locators[name], "click")
                room = (time.perf_counter() - started) * 1000
                whole = daemon.ctl(f"execute {page} {through_mount[name]}")
                landed = re.search(r"^→ (?:unchanged: )?(N\d{4})", whole.text, re.M)
                if not whole.ok or landed is None:
                    raise SystemExit(f"execute through the mount failed:\n{whole.text}")
                page = landed.group(1)  # the state the tab shows now, as an agent goes on
                if index >= warmup:
                    figures["bare click+content"].append(bare)
                    figures["execute (browser room)"].append(room)
                    figures["execute (whole command)"].append(whole.seconds * 1000)

        try:
            trio.run(rounds_run)
        finally:
            bare_browser.close()
            ours.close_blocking()

    print(f"\nexecute on a warm tab: click a delegated folder item of /scripted/widgets.html, "
          f"{rounds} rounds (+{warmup} warm-up)")
    print(f"{'measure':<26} {'median ms':>10} {'p95 ms':>8}")
    for name, values in figures.items():
        ordered = sorted(values)
        p95 = ordered[min(len(ordered) - 1, round(0.95 * (len(ordered) - 1)))]
        print(f"{name:<26} {statistics.median(values):>10.1f} {p95:>8.1f}")
    bare = statistics.median(figures["bare click+content"])
    for name in ("execute (browser room)", "execute (whole command)"):
        print(f"{name} over bare click+content: "
              f"{statistics.median(figures[name]) / bare:.2f}x")
    print("target: execute (browser room) <= 1.5x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=3, help="runs of each task")
    parser.add_argument("--open-rounds", type=int, default=10)
    parser.add_argument("--execute-rounds", type=int, default=40)
    parser.add_argument("--tasks", default="", help="only the tasks whose name holds this")
    parser.add_argument("--no-cost", action="store_true", help="tasks only")
    parser.add_argument("--no-tasks", action="store_true", help="cost only")
    args = parser.parse_args()

    site = LiveSite()
    with tempfile.TemporaryDirectory(prefix="bench-interaction-") as temp:
        base = Path(temp)
        uploads = base / "uploads"
        uploads.mkdir()
        (uploads / UPLOAD_NAME).write_bytes(UPLOAD_TEXT)
        daemons = [Daemon(base, "with", uploads)]
        try:
            print(f"interaction benchmark: {os.cpu_count()} cores, "
                  f"load average {os.getloadavg()[0]:.1f}")
            grammar = daemons[0].ctl("help").text
            print(f"the agent reads `help` once: {len(grammar):,} characters")
            if not args.no_tasks:
                print_tasks(run_tasks(daemons[0], site, args.rounds, args.tasks))
            if not args.no_cost:
                daemons.append(Daemon(base, "without", uploads, discovery=False))
                open_cost(daemons[0], daemons[1], site, args.open_rounds)
                execute_cost(daemons[0], site, args.execute_rounds)
            print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
        finally:
            for daemon in daemons:
                daemon.stop()
            site.close()


if __name__ == "__main__":
    main()

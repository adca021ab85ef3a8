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
import statistics
import sys
import tempfile
import threading
from collections.abc import Callable
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_interaction import (  # noqa: E402
    Agent,
    Daemon,
    TaskFailed,
    TaskResult,
    attempt,
)
from tests.benchmarks.bench_heldout import control, option_list  # noqa: E402

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


class MiniWob:
    """The MiniWoB++ html folder over HTTP on loopback; `url(path)` as LiveSite gives it."""

    def __init__(self, folder: Path) -> None:
        handler = functools.partial(_MiniWobHandler, directory=str(folder))
        self._server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        threading.Thread(target=self._server.serve_forever, daemon=True).start()
        self.base = f"http://127.0.0.1:{self._server.server_address[1]}"

    def url(self, path: str) -> str:
        return self.base + path

    def close(self) -> None:
        self._server.shutdown()
        self._server.server_close()


# What the agent reads ------------------------------------------------------------------------

REWARD = re.compile(r"Last reward: (-?[0-9.]+)")
ORDINAL = r"(\d+)(?:st|nd|rd|th)"
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
    """The text fields in the order the page shows them (its content/ files in order), for an
    instruction that names none by its label ("the text field", "the 3rd textbox")."""
    refs = agent.shell(f"cat {page}/content/*.md | grep -oP '\\[A\\d{{4}} [^\\]]*'").splitlines()
    kinds = "|".join(FIELD_KINDS)
    found = [ref[1:6] for ref in refs if re.search(rf": (?:{kinds})\b", ref)]
    if not found:
        raise TaskFailed(f"no text field in {page}/content/:\n" + agent.shell(f"cat {page}/content/*"))
    return list(dict.fromkeys(found))


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


def enter_text_2(agent: Agent) -> None:
    page, asked = begin(agent, "enter-text-2",
                        r'Type "(.*)" in all lower case letters in the text input and press '
                        r"Submit\.")
    page = fill(agent, page, fields(agent, page)[0], asked.group(1).lower())
    judge(agent, press(agent, page, "Submit"))


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
    "use-spinner": _enter_value("use-spinner", r"Select (-?\d+) with the spinner and hit Submit\."),
}

# Tasks whose answer is in the picture, not in any text or control a reader can find.
NEEDS_VISION: dict[str, str] = {}


# Running --------------------------------------------------------------------------------------

def run(daemon: Daemon, site: MiniWob, tasks: list[str], rounds: int) -> dict[str, TaskResult]:
    results: dict[str, TaskResult] = {}
    runs = itertools.count(1)
    for name in tasks:
        result = results.setdefault(name, TaskResult())
        for _ in range(rounds):
            attempt(daemon, site, next(runs), TASKS[name], result)  # type: ignore[arg-type]
        print(f"{result.passed}/{result.runs} {name}", file=sys.stderr, flush=True)
    return results


def report(results: dict[str, TaskResult], every: list[str]) -> None:
    print(f"\n{'task':<34} {'success':>8} {'chars read':>11}")
    passed = runs = 0
    for name, result in results.items():
        passed += result.passed
        runs += result.runs
        print(f"{name:<34} {result.passed:>3}/{result.runs:<4} "
              f"{statistics.median(result.read):>11,.0f}")
    every_time = sum(1 for r in results.values() if r.passed == r.runs)
    print(f"{'overall':<34} {passed:>3}/{runs:<4} ({passed / max(1, runs):.0%} of runs; "
          f"{every_time}/{len(results)} tasks every time)")
    for name in every:
        if name in NEEDS_VISION:
            print(f"{name:<34} needs vision: {NEEDS_VISION[name]}")
    left = [name for name in every if name not in TASKS and name not in NEEDS_VISION]
    if left:
        print(f"not attempted yet ({len(left)}): {', '.join(left)}")
    for name, result in results.items():
        for failure in dict.fromkeys(result.failures):
            print(f"\nFAILED {name}:\n  " + failure.replace("\n", "\n  "))


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

    site = MiniWob(args.miniwob)
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

"""Held-out apps: the TodoMVC implementations (tastejs/todomvc, MIT licence), the same to-do
app written in many frameworks, driven by the scripted agent of bench_interaction.py through
a real mount. No one here wrote or tuned against them.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_todomvc.py [--todomvc DIR] [--rounds 1]
        [--apps WORD,WORD] [--tasks WORD]

DIR (else `$WEBSHELL_TODOMVC`) is a checkout of the public repository, or its `examples/`
folder extracted with `git archive HEAD examples`; docs/benchmarks.md says how to get it. DIR
is served on 127.0.0.1 and one webshellfs mount with the local Chromium opens each example
that runs from static files (its built `dist/index.html`, else its `index.html`; APPS below).

For each app the same tasks, stated as a person would (TASKS below): add three to-dos, tick
one, show only the active ones, edit one by double-click, cancel an edit with Escape, delete
one (the delete button shows on hover), toggle all, clear the completed ones, read the
counter. The agent (bench_interaction's Agent) finds each address by grepping the compiled
files, case-insensitively, for the text a person would look for (the field's "What needs to
be done?", the to-do's own words, "Active", "Clear completed", "Mark all as complete"), acts
only with `.ctl` commands, and checks the end state by grepping content/ of the state its
last command led to. It never reads the app's source and no id is written here.

The apps keep their to-dos in localStorage, which belongs to the origin (scheme, host and
port). A mount's browser keeps one context for all its tabs, so storage outlives a tab (and,
with `--profile`, the mount); a fresh URL on the same origin would find the to-dos of the run
before. So every run is served on a port of its own: a new origin, whose storage is empty.

The script prints success per app and task and the characters the agent read, then the steps
and the compiled text of each failure.
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
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_heldout import Corpus  # noqa: E402
from tests.benchmarks.bench_interaction import (  # noqa: E402
    Agent,
    Daemon,
    TaskFailed,
    TaskResult,
    attempt,
)

# Where an example's app starts when it is not `dist/index.html` or `index.html`.
ENTRIES = {
    "angular": "dist/browser/index.html",
    "angular-dart": "web/index.html",
    "duel": "www/index.html",
    # Its router reads the path under its root URL: index.html would be an unknown route.
    "emberjs": "todomvc/dist/",
}
# Examples that do not run from the repository's files alone, and why.
NOT_RUNNABLE = {
    "cujo": "needs bower_components/, which is not in the repository (a bower install)",
    "emberjs_require": "no app: its index.html redirects to its readme",
}
# Tasks an app gives a person no way to do, as its page shows (printed as "—", not counted).
NOT_OFFERED = {
    ("angular-dart", "show Active"): "no filter links (All / Active / Completed)",
    ("knockoutjs_require", "show Active"): "no filter links (All / Active / Completed)",
    ("dijon", "show Active"): "no filter links (All / Active / Completed)",
    # Its ❯ label names an id no element has, and the app listens to neither: bare Chromium
    # clicking the label leaves the to-dos as they were, and the 1-pixel box takes no click.
    ("react", "Escape cancels"): "Escape leaves the editor open with the typed words, which a "
                                 "blur then saves (in Chromium, no mount)",
    ("js_of_ocaml", "toggle all"): "a click on its ❯ does nothing (in Chromium, no mount)",
    # Its ❯ label names an id no element has; the invisible checkbox it does not name is the
    # one the app listens to. Its editor listens for Enter and blur only.
    ("elm", "toggle all"): "a click on its ❯ does nothing (in Chromium, no mount)",
    ("elm", "Escape cancels"): "Escape leaves the editor open with the typed words, which a "
                               "blur then saves (in Chromium, no mount)",
}

TODOS = ("buy milk", "walk the dog", "water the plants")
EDITED = "buy oat milk"
CANCELLED = "sell the cow"
# What a person calls the controls, in the words the apps' pages show (any of them).
NEW_TODO = ("What needs to be done?",)
TOGGLE_ALL = ("Mark all as complete", "Toggle all", "Mark all", "❯")
# A field to type into: a field alone, or a form of one field.
FIELD = "fill|submit"
REF = re.compile(r"\[([AL]\d{4})\b([^\]]*)\]")
DELETE_WORDS = re.compile(r"delete|remove|destroy|×|✕|✖", re.I)


# Finding -----------------------------------------------------------------------------------

def locate(agent: Agent, page: str, phrases: tuple[str, ...], want: str = "") -> str:
    """The address of what shows one of `phrases` (case-insensitive): on the lines of content/
    (then of the whole page) that hold it, a reference whose label holds it, then one right
    after it, then any reference on the line; with `want`, the first whose actions.tsv row has
    that kind or gesture (`on: dblclick`)."""
    for phrase in phrases:
        for where in ("content/", ""):
            lines = agent.shell(f"grep -rniF -- {shlex.quote(phrase)} {page}/{where}").splitlines()
            for ident in dict.fromkeys(i for line in lines for i in refs_showing(line, phrase)):
                if not want or wants(agent.row(page, ident), want):
                    shown = next(line for line in lines if f"[{ident}" in line)
                    agent.transcript.append(f"# {phrase!r} is {ident}: {shown}")
                    return ident
    raise TaskFailed(f"no address for {' / '.join(map(repr, phrases))}"
                     f"{f' ({want})' if want else ''} in {page}; its content/:\n"
                     + agent.shell(f"cat {page}/content/*"))


def refs_showing(line: str, phrase: str) -> list[str]:
    body = line.split(":", 2)[-1]
    lower = phrase.lower()
    found = list(REF.finditer(body))
    labelled = [m.group(1) for m in found if lower in m.group(2).lower()]
    following = [m.group(1) for m in found if body[:m.start()].rstrip().lower().endswith(lower)]
    return labelled + following + [m.group(1) for m in found]


def wants(columns: list[str], want: str) -> bool:
    """The row has one of the kinds in `want` (`fill|submit`), or answers to that gesture."""
    return len(columns) > 3 and (columns[1] in want.split("|") or bool(
        re.search(rf"\bon: [^\t]*\b(?:{want})\b", columns[3])))


def type_into(agent: Agent, page: str, field: str, text: str, key: str) -> str:
    """Type `text` into the field and press `key` there, as a person does. A field that is a
    form (kind submit) is submitted by `execute` pressing Enter in it; another key is pressed
    on the form after `fill`."""
    name = agent.input_name(page, field)
    if agent.row(page, field)[1] != "submit":
        return agent.act(f"execute {page} {field} {name}={shlex.quote(text)} --press {key}")
    if key == "Enter":
        return agent.act(f"execute {page} {field} {name}={shlex.quote(text)}")
    page = agent.act(f"fill {page} {field} {name}={shlex.quote(text)}")
    return agent.act(f"press {page} {field} {key}")


def shown(agent: Agent, page: str, text: str) -> list[str]:
    """Lines of content/ holding `text` (case-insensitive), but for text the page keeps and
    does not show (marked `[hidden until …]`)."""
    return agent.shell(f"grep -rniF -- {shlex.quote(text)} {page}/content/ "
                       f"| grep -vF '[hidden until '").splitlines()


def expect(agent: Agent, page: str, text: str, present: bool = True) -> None:
    if bool(shown(agent, page, text)) != present:
        raise TaskFailed(f"{text!r} {'missing from' if present else 'still in'} "
                         f"{page}/content/:\n" + agent.shell(f"cat {page}/content/*"))


def counter(agent: Agent, page: str, left: int) -> None:
    """The counter says `left` items left (`1 item left`, `2 items left!`, `**2** items left`);
    where the app shows no words with the number (angular-dart's "3" with an empty
    `<ng-pluralize>`, in Chromium without the mount too), the number a person sees is a line
    of content/ that is a number alone."""
    text = agent.shell(f"grep -rhiE 'items? left' {page}/content/ {page}/boilerplate/ "
                       f"| grep -vF '[hidden until '")
    said = re.findall(r"(\d+)\W*items? left", text, re.I)
    if not said:
        text = agent.shell(f"grep -rhxE '[0-9]+' {page}/content/")
        said = text.split()
    if said != [str(left)]:
        raise TaskFailed(f"the counter of {page} should say {left}; it says: {text.strip()!r}")


# Tasks ---------------------------------------------------------------------------------------

def added(agent: Agent, entry: str, count: int = 3) -> str:
    """The app opened, the first `count` to-dos typed into its field, each with Enter."""
    page = agent.open(entry)
    for todo in TODOS[:count]:
        # Looked up each time: an app whose form reloads the page makes a new page, new ids.
        page = type_into(agent, page, locate(agent, page, NEW_TODO, FIELD), todo, "Enter")
    return page


def tick(agent: Agent, page: str, todo: str) -> str:
    return agent.act(f"execute {page} {locate(agent, page, (todo,), 'check')}")


def add_three(agent: Agent, entry: str) -> None:
    page = added(agent, entry)
    for todo in TODOS:
        expect(agent, page, todo)
    counter(agent, page, 3)


def complete_one(agent: Agent, entry: str) -> None:
    page = tick(agent, added(agent, entry), TODOS[1])
    counter(agent, page, 2)
    if not any(re.search(r" checked\]", line) for line in shown(agent, page, TODOS[1])):
        raise TaskFailed(f"{TODOS[1]!r} is not shown checked in {page}:\n"
                         + agent.shell(f"cat {page}/content/*"))


def show_active(agent: Agent, entry: str) -> None:
    page = tick(agent, added(agent, entry), TODOS[1])
    page = agent.act(f"execute {page} {locate(agent, page, ('Active',))}")
    pattern = "|".join(TODOS)
    matches = agent.shell(f"grep -rhiE {shlex.quote(pattern)} {page}/content/ | grep -vF "
                          f"'[hidden until ' | grep -oiE {shlex.quote(pattern)}").lower()
    seen = set(matches.splitlines())
    if seen != {TODOS[0], TODOS[2]}:
        raise TaskFailed(f"Active in {page} should show {TODOS[0]!r} and {TODOS[2]!r} only; "
                         f"`grep -E '{pattern}'` shows {sorted(seen)}:\n"
                         + agent.shell(f"cat {page}/content/*"))


def words(agent: Agent, page: str, todo: str) -> str:
    """What a person double-clicks to edit ("Double-click to edit a todo"): the reference of the
    to-do's words alone that answers to a double-click, else the one that is clickable (the
    double-click reaches a listener on the list around it, as a person's does; a reference of
    the whole list would be double-clicked at its centre, on another to-do), else the words
    themselves (`dblclick N "buy milk"`), for a page whose listener on the document gives them
    no address."""
    for want in ("dblclick", "click"):
        ident = own_reference(agent, page, todo, want)
        if ident:
            return ident
    agent.transcript.append(f"# {todo!r} has no reference of its own: the words are the target")
    return shlex.quote(todo)


def own_reference(agent: Agent, page: str, todo: str, want: str) -> str | None:
    """On the shown lines holding `todo`, the reference labelled with just those words whose
    actions.tsv row has the kind or gesture `want`."""
    for line in shown(agent, page, todo):
        for ref in REF.finditer(line.split(":", 2)[-1]):
            label = re.search(r'"([^"]*)"', ref.group(2))
            if label and label.group(1).lower() == todo.lower() \
                    and wants(agent.row(page, ref.group(1)), want):
                agent.transcript.append(f"# {todo!r} is {ref.group(1)}: {line}")
                return ref.group(1)
    return None


def edited(agent: Agent, entry: str, text: str, key: str) -> str:
    page = added(agent, entry)
    page = agent.act(f"dblclick {page} {words(agent, page, TODOS[0])}")
    return type_into(agent, page, locate(agent, page, (TODOS[0],), FIELD), text, key)


def edit(agent: Agent, entry: str) -> None:
    page = edited(agent, entry, EDITED, "Enter")
    expect(agent, page, EDITED)
    expect(agent, page, TODOS[0], present=False)


def escape(agent: Agent, entry: str) -> None:
    page = edited(agent, entry, CANCELLED, "Escape")
    expect(agent, page, TODOS[0])
    expect(agent, page, CANCELLED, present=False)


def delete(agent: Agent, entry: str) -> None:
    """Hover the to-do; the button that shows on its line (a × a person sees) deletes it."""
    page = added(agent, entry)
    before = {m.group(1) for line in shown(agent, page, TODOS[1]) for m in REF.finditer(line)}
    page = agent.act(f"hover {page} {locate(agent, page, (TODOS[1],))}")
    buttons = [(m.group(1), m.group(2)) for line in shown(agent, page, TODOS[1])
               for m in REF.finditer(line.split(":", 2)[-1])
               if wants(agent.row(page, m.group(1)), "click")]
    ranked = [i for i, label in buttons if DELETE_WORDS.search(label)] + \
             [i for i, _ in buttons if i not in before]
    if not ranked:
        raise TaskFailed(f"no button shows beside {TODOS[1]!r} on hover in {page}:\n"
                         + agent.shell(f"cat {page}/content/*"))
    agent.transcript.append(f"# the button beside {TODOS[1]!r} is {ranked[0]}")
    page = agent.act(f"execute {page} {ranked[0]}")
    expect(agent, page, TODOS[1], present=False)
    counter(agent, page, 2)


def toggle_all(agent: Agent, entry: str) -> None:
    page = added(agent, entry)
    page = agent.act(f"execute {page} {locate(agent, page, TOGGLE_ALL)}")
    counter(agent, page, 0)


def clear_completed(agent: Agent, entry: str) -> None:
    page = tick(agent, added(agent, entry), TODOS[1])
    page = agent.act(f"execute {page} {locate(agent, page, ('Clear completed',))}")
    expect(agent, page, TODOS[1], present=False)
    expect(agent, page, TODOS[0])
    counter(agent, page, 2)


def counts(agent: Agent, entry: str) -> None:
    """3 items left, then 2, then 1 item left (the singular)."""
    page = added(agent, entry)
    counter(agent, page, 3)
    page = tick(agent, page, TODOS[0])
    counter(agent, page, 2)
    page = tick(agent, page, TODOS[2])
    counter(agent, page, 1)


TASKS: dict[str, Callable[[Agent, str], None]] = {
    "add three": add_three,
    "complete one": complete_one,
    "show Active": show_active,
    "edit (dblclick, Enter)": edit,
    "Escape cancels": escape,
    "delete (hover)": delete,
    "toggle all": toggle_all,
    "clear completed": clear_completed,
    "counter": counts,
}


# Running -------------------------------------------------------------------------------------

def apps_in(folder: Path) -> tuple[dict[str, str], dict[str, str]]:
    """Each example's entry URL path, and the ones that cannot run here with the reason."""
    examples = folder / "examples"
    runnable: dict[str, str] = {}
    skipped: dict[str, str] = {}
    for example in sorted(p.name for p in examples.iterdir() if p.is_dir()):
        if example in NOT_RUNNABLE:
            skipped[example] = NOT_RUNNABLE[example]
            continue
        candidates = [ENTRIES[example]] if example in ENTRIES else ["dist/index.html", "index.html"]
        entry = next((c for c in candidates if (examples / example / c).exists()), None)
        if entry is None:
            skipped[example] = "no built page: it needs a build first"
        else:
            runnable[example] = f"/examples/{example}/{entry}"
    return runnable, skipped


def revision(folder: Path, git_dir: Path | None) -> str:
    where = ["--git-dir", str(git_dir)] if git_dir else ["-C", str(folder)]
    found = subprocess.run(["git", *where, "log", "-1", "--format=%h"],
                           capture_output=True, text=True, check=False)
    return found.stdout.strip() or "(not a git checkout)"


def run(daemon: Daemon, folder: Path, apps: dict[str, str], tasks: dict[str, Callable],
        rounds: int) -> dict[tuple[str, str], TaskResult]:
    results: dict[tuple[str, str], TaskResult] = {}
    runs = itertools.count(1)
    for app, entry in apps.items():
        for name, task in tasks.items():
            if (app, name) in NOT_OFFERED:
                continue
            result = results.setdefault((app, name), TaskResult())
            for _ in range(rounds):
                site = Corpus(folder)  # a port, so an origin and a localStorage, of its own
                try:
                    attempt(daemon, site, next(runs),  # type: ignore[arg-type]
                            lambda agent, task=task: task(agent, entry), result)
                finally:
                    site.close()
            print(f"{'ok  ' if result.passed == result.runs else 'FAIL'} {app}: {name}",
                  file=sys.stderr, flush=True)
    return results


def report(results: dict[tuple[str, str], TaskResult], apps: dict[str, str],
           tasks: dict[str, Callable]) -> None:
    width = max(map(len, apps), default=4)
    short = [name.split(" (")[0] for name in tasks]
    print(f"\n{'app':<{width}} " + " ".join(f"{s[:9]:>9}" for s in short) + "  chars read")
    for app in apps:
        cells = [results.get((app, name)) for name in tasks]
        read = statistics.median(n for cell in cells if cell for n in cell.read)
        print(f"{app:<{width}} " + " ".join(f"{f'{c.passed}/{c.runs}' if c else '—':>9}"
                                            for c in cells) + f"  {read:>10,.0f}")
    column = {name: [r for (_, n), r in results.items() if n == name] for name in tasks}
    print(f"{'all':<{width}} " + " ".join(
        f"{sum(r.passed for r in column[n])}/{sum(r.runs for r in column[n])}".rjust(9)
        for n in tasks))
    passed = sum(r.passed for r in results.values())
    runs = sum(r.runs for r in results.values())
    whole = sum(all(r.passed == r.runs for (a, _), r in results.items() if a == app)
                for app in apps)
    print(f"overall {passed}/{runs} ({passed / max(1, runs):.0%}); {whole}/{len(apps)} apps "
          f"did every task they offer; median characters read per run "
          f"{statistics.median(n for r in results.values() for n in r.read):,.0f}")
    for (app, name), why in NOT_OFFERED.items():
        if app in apps and name in tasks:
            print(f"— {app}: {name}: the app offers none: {why}")
    for (app, name), result in results.items():
        for failure in dict.fromkeys(result.failures):
            print(f"\nFAILED {app}: {name}:\n  " + failure.replace("\n", "\n  "))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--todomvc", type=Path, default=os.environ.get("WEBSHELL_TODOMVC"),
                        help="the tastejs/todomvc checkout (else $WEBSHELL_TODOMVC)")
    parser.add_argument("--git-dir", type=Path, help="the repository DIR was extracted from "
                        "(for its commit, when DIR is not a checkout)")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each app and task")
    parser.add_argument("--apps", default="", help="only these apps (names, comma-separated)")
    parser.add_argument("--tasks", default="", help="only the tasks whose name holds this")
    args = parser.parse_args()
    if args.todomvc is None or not (args.todomvc / "examples").is_dir():
        raise SystemExit("give the TodoMVC checkout with --todomvc DIR or $WEBSHELL_TODOMVC "
                         "(a folder holding examples/; docs/benchmarks.md says how to get it)")
    folder = args.todomvc.resolve()
    apps, skipped = apps_in(folder)
    wanted = [word for word in args.apps.split(",") if word]
    apps = {app: entry for app, entry in apps.items() if not wanted or app in wanted}
    tasks = {name: task for name, task in TASKS.items() if args.tasks in name}

    with tempfile.TemporaryDirectory(prefix="bench-todomvc-") as temp:
        base = Path(temp)
        (base / "uploads").mkdir()
        daemon = Daemon(base, "mount", base / "uploads")
        try:
            print(f"TodoMVC apps at {revision(folder, args.git_dir)}: {len(apps)} apps x "
                  f"{len(tasks)} tasks, {os.cpu_count()} cores, "
                  f"load average {os.getloadavg()[0]:.1f}")
            for app, why in skipped.items():
                print(f"not runnable here: {app}: {why}")
            report(run(daemon, folder, apps, tasks, args.rounds), apps, tasks)
            print(f"\nload average at the end {os.getloadavg()[0]:.1f}")
        finally:
            daemon.stop()


if __name__ == "__main__":
    main()

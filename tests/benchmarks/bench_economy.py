"""Agent economy against playwright-cli: the same tasks done by a scripted agent through a real
webshellfs mount and by one using Microsoft's Playwright CLI, counting the commands each
typed, the bytes those commands printed, and whether the task was done.

A script, not a test (pytest does not collect it). From the project root:

    .venv/bin/python tests/benchmarks/bench_economy.py [--tasks WORD] [--only ours|peer]
        [--peer-dir DIR] [--by-ids] [--transcripts] [--list]

Setup of the peer (once; outside the repository; its own browser download does not work here,
so it runs Debian's Chromium):

    mkdir -p ~/.cache/webshellfs-bench && cd ~/.cache/webshellfs-bench
    npm install @playwright/cli
    mkdir -p .playwright && echo '{"browser":{"browserName":"chromium","launchOptions":
      {"executablePath":"/usr/bin/chromium","chromiumSandbox":false}}}' \
      > .playwright/cli.config.json

(`--peer-dir` or $WEBSHELL_PEER_DIR names another directory set up so.) Without it the script
stops and says what is missing.

The tasks are data (fixtures/apps/tasks.py) over the task apps of fixtures/apps/ served on
127.0.0.1: a staff admin (sign in, filter a list, add and edit records with selects and
checkboxes, bulk actions with a confirmation page, validation messages) and a documentation
site with a search box. Each task is one plan of steps in a person's words ("fill Department
with Marketing, untick Active, press Save; it says Saved Bob Stone."). Each agent turns a step
into the commands a competent user of its tool types, learning every address or element ref
from what it has read, and chaining into one command whatever it can know before running it:

- ours (LabelAgent, when the mount's README tells of controls named by their labels): each
  step written as the plan words it, on `@` (`execute @ "Save" Department=Marketing
  Active=off`), and every write it need not read between chained into one line, ended by what
  it must read next: `echo 'open URL' > .ctl && echo 'execute @ "Sign in" Username=… ' > .ctl
  && grep -rnF -e 'Showing' @/content @/tables || cat .ctl` (a grep of @ for the answer, the
  rows to tick and the bulk form's row in actions.tsv, or the message that shows an action
  worked; `cat .ctl` shows a refusal, which it fixes as the reason says and runs the rest
  again, each try a command). With --by-ids, the agent of before (MountAgent): a grep of the
  page's content/, boilerplate/ and tables/ for the ids of the next step's controls, chained
  after the action on `@`, then `echo 'execute N0002 A0001 name=… ' > .ctl; cat .ctl`.
- the peer: `playwright-cli open URL && playwright-cli find --regex 'LABEL|…'` (the find runs
  on the page the command before it led to), `playwright-cli fill e8 … && playwright-cli click
  e12 && playwright-cli find 'Saved'`, and a grep of its saved snapshot file when `find`'s
  context is too short.

What each agent reads from an answer is in MountReading and PeerReading, one place each, to
adapt when the answers change. Before each run the admin's records are put back and its
sessions forgotten; after it the tab or browser is closed (not counted). The script prints
one line per task and tool, the totals and the ratios ours/peer (target: commands <= 0.6, bytes
<= 0.5, success >= the peer's), and with --transcripts every command and its size.
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import subprocess
import sys
import tempfile
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass, field, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from fixtures.apps.server import AppsServer  # noqa: E402
from fixtures.apps.tasks import TASKS, Click, Fill, Open, Read, Task, Tick  # noqa: E402
from tests.benchmarks.bench_interaction import Daemon  # noqa: E402

PEER_DIR = Path(os.environ.get("WEBSHELL_PEER_DIR",
                               Path.home() / ".cache" / "webshellfs-bench"))
PEER_CONFIG = Path(".playwright") / "cli.config.json"
PEER_BIN = Path("node_modules") / ".bin"
COMMAND_TIMEOUT = 180.0


class TaskFailed(Exception):
    """A step could not be done; the message says what the agent saw."""


# Why the agent typed a command: to act, to find the controls of its next step, to see that an
# action worked, to find the rows to tick, to read the answer; `act+find` is both in one line.
PURPOSES = ("act", "find", "check", "rows", "read")


@dataclass
class Command:
    script: str
    printed: int  # bytes of stdout and stderr
    why: str = "act"


@dataclass
class Run:
    """One task done by one agent."""
    tool: str
    task: str
    commands: list[Command] = field(default_factory=list)
    answer: str = ""
    failure: str = ""

    @property
    def ok(self) -> bool:
        return not self.failure

    @property
    def printed(self) -> int:
        return sum(command.printed for command in self.commands)


class Shell:
    """Runs what the agent types, one bash command line at a time, in its working directory,
    and counts it."""

    def __init__(self, cwd: Path, run: Run, env: dict[str, str] | None = None) -> None:
        self.cwd = cwd
        self.run = run
        self.env = {**os.environ, "LC_ALL": "C.UTF-8", **(env or {})}

    def __call__(self, script: str, why: str = "act") -> str:
        done = subprocess.run(["bash", "-c", script], capture_output=True, cwd=self.cwd,
                              env=self.env, timeout=COMMAND_TIMEOUT, check=False)
        printed = done.stdout + done.stderr
        self.run.commands.append(Command(script, len(printed), why))
        return printed.decode("utf-8", "replace")


def _answer_after(text: str, phrase: str, pattern: str) -> str:
    """The pattern's first group at or after the first place the phrase is shown ('' if none),
    in text as the agent reads it (each tool's reading takes its markup off first)."""
    start = text.lower().find(phrase.lower())
    found = re.search(pattern, text[start:]) if start >= 0 else None
    return found.group(1) if found else ""


# ours: reading the mount's answers and files ---------------------------------------------------

@dataclass
class Control:
    ident: str         # A0003, L0012
    kind: str = ""     # text, select, checkbox, submit, link …
    name: str = ""     # the form field's name
    value: str = ""    # a checkbox's value
    checked: bool = False


class MountReading:
    """What the scripted agent reads in the mount's answers and files: the one place to adapt
    when they change."""

    # A command's answer: `N0001  Title` (open), `→ N0002 new page: …`, `→ unchanged: N0002`.
    OPENED = re.compile(r"^(N\d{4})\s", re.M)
    LED_TO = re.compile(r"^→ (?:unchanged: )?(N\d{4})", re.M)
    MENTION = re.compile(r"\[(A\d{4}) ((?:[^\]\"]|\"(?:[^\"\\]|\\.)*\")*)\]")
    FIELD = re.compile(r"^(?P<name>[^\s:=]+)(?:=(?P<value>[^:\s]*))?: (?P<kind>[\w-]+) "
                       r"\"(?P<label>(?:[^\"\\]|\\.)*)\"(?P<rest>.*)$")
    CONTROL = re.compile(r"^(?P<kind>[\w-]+) \"(?P<label>(?:[^\"\\]|\\.)*)\"")
    LINK = re.compile(r"\[(L\d{4})\]")
    # An actions.tsv input with choices: `ids(checkbox: 1=Select A|2=Select B; current=…)`,
    # `action(select "With selected": ""=Choose…|activate=Activate; current=)`.
    CHOICES = re.compile(r"(?P<name>[^\s(]+)\((?P<kind>checkbox|select|radio)"
                         r"(?: \"(?P<label>[^\"]*)\")?: (?P<choices>[^;)]*)"
                         r"(?:; current=(?P<current>[^)]*))?")
    # Where the agent greps for a page's fields (their mentions stand in the text), and for
    # what else it shows (a link may be in a table's cell): the files people read.
    FIELDS = ("content", "boilerplate")
    SHOWN = ("content", "boilerplate", "tables")
    # The mount's name for the caller's last page, when it has one.
    LAST_PAGE = "@"

    def page_led_to(self, answer: str) -> str:
        """The page a command's answer names: where an action led, or the page opened."""
        found = self.LED_TO.search(answer) or self.OPENED.search(answer)
        if not found:
            raise TaskFailed(f"the answer named no page:\n{answer}")
        return found.group(1)

    def controls(self, lines: str, label: str) -> list[Control]:
        """The controls that show `label` on grep lines: a field or choice so labelled, a
        button or link mention, a link right after the words, a table cell's link."""
        found: list[Control] = []
        for line in lines.splitlines():
            if self.REMOVED.match(line):
                continue
            body = line.split(":", 2)[-1] if ".cells:" not in line else line
            for mention in self.MENTION.finditer(body):
                field_ = self.FIELD.match(mention.group(2))
                if field_ and _unquote(field_["label"]) == label:
                    found.append(Control(mention.group(1), field_["kind"], field_["name"],
                                         field_["value"] or "", " checked" in field_["rest"]))
                control = self.CONTROL.match(mention.group(2))
                if control and not field_ and _unquote(control["label"]) == label:
                    found.append(Control(mention.group(1), control["kind"]))
            for link in self.LINK.finditer(body):
                before = re.sub(r"\[[^\]]*\]", "", body[:link.start()]).rstrip()
                if before.endswith(label):
                    found.append(Control(link.group(1), "link"))
            columns = line.split("\t")
            if ".cells:" in line and len(columns) >= 6 and columns[4] == label:
                found.extend(Control(ref, "link") for ref in re.findall(r"\b[AL]\d{4}\b",
                                                                         columns[5]))
        return found

    def group(self, lines: str, name: str) -> list[Control]:
        """Every choice of the checkbox group `name` shown on the lines."""
        return [c for label in re.findall(r"\"((?:[^\"\\]|\\.)*)\"", lines)
                for c in self.controls(lines, _unquote(label))
                if c.name == name and c.kind == "checkbox"]

    def rows_holding(self, lines: str, word: str) -> list[str]:
        """The row labels of tables/*.cells lines whose value is `word`."""
        return [columns[2] for columns in (line.split("\t") for line in lines.splitlines()
                                           if ".cells:" in line)
                if len(columns) >= 6 and columns[4] == word]

    def form_row(self, row: str) -> tuple[str, dict[str, dict[str, str]], dict[str, str]]:
        """An actions.tsv row: its id, each input's choices (label → value) and each input's
        name by its label."""
        columns = row.split("\t")
        choices: dict[str, dict[str, str]] = {}
        names: dict[str, str] = {}
        for found in self.CHOICES.finditer(columns[4] if len(columns) > 4 else ""):
            pairs = {}
            for choice in found["choices"].split("|"):
                value, _, label = choice.rpartition("=")
                pairs[label] = value.strip('"') if _ else label
            choices[found["name"]] = pairs
            if found["label"]:
                names[found["label"]] = found["name"]
        return columns[0].split(":")[-1], choices, names

    def shows(self, text: str, wanted: str) -> bool:
        return wanted in text

    # A refused command's answer: `R0016 invalid: execute @ "X"` over its reason, which names
    # several controls that fit, or none, or an input the control does not take.
    REFUSED = re.compile(r"^R\d{4} (?:invalid|failed): (?P<command>.*)\n(?P<reason>(?:.|\n)*)",
                         re.M)
    SEVERAL = re.compile(r"^\d+ controls on N\d{4} are labelled ")
    NONE = re.compile(r"^no control on N\d{4} is labelled ")
    UNKNOWN = re.compile(r"^unknown input '[^']*' for .*; valid inputs: ")
    NAMED = re.compile(r"\b([AL]\d{4}) [\w-]+ \"([^\"]*)\"")

    def refused(self, output: str) -> tuple[str, str] | None:
        """(the command, its reason) when the answer read is a refusal."""
        found = self.REFUSED.search(output)
        return (found["command"], found["reason"]) if found else None

    def named_controls(self, reason: str) -> list[tuple[str, str]]:
        """(id, label) of each control a refusal names."""
        return self.NAMED.findall(reason)

    def grouped(self, inputs: list[tuple[str, str]], reason: str) -> list[tuple[str, str]]:
        """Inputs refused as unknown that are boxes of a group the refusal lists (`tags(checkbox:
        remote=Remote|mentor=Mentor; current=remote)`): written as that group's ticked values,
        the ones ticked now kept unless unticked."""
        groups = {}
        for found in self.CHOICES.finditer(reason.split("valid inputs: ", 1)[-1]):
            pairs = [choice.rpartition("=")[::2] for choice in found["choices"].split("|")]
            if found["kind"] == "checkbox" and len(pairs) > 1:
                groups[found["name"]] = (pairs, (found["current"] or "").split("|"))
        kept, ticks = [], {}
        for name, value in inputs:
            group = next((g for g, (pairs, _) in groups.items()
                          for v, label in pairs if label.casefold() == name.casefold()), None)
            if group is None:
                kept.append((name, value))
                continue
            pairs, current = groups[group]
            box = next(v for v, label in pairs if label.casefold() == name.casefold())
            ticks.setdefault(group, set(current)).discard(box)
            if value == "on":
                ticks[group].add(box)
        for group, ticked in ticks.items():
            order = [v for v, _ in groups[group][0]]
            kept.append((group, "|".join(v for v in order if v in ticked) or "off"))
        return kept

    def offers_last_page(self, readme: str) -> bool:
        """Whether the mount's README.md tells of `@` in paths (`grep … @/content`)."""
        return f"{self.LAST_PAGE}/" in readme

    def offers_labels(self, readme: str) -> bool:
        """Whether the mount's README.md tells of controls named by their labels (`execute @
        "Add person"`)."""
        return f'execute {self.LAST_PAGE} "' in readme

    # A line an action's answer shows as gone from the page (`  - content/01-x.md:3: …`).
    REMOVED = re.compile(r"^\s+- \S+:\d+: ")
    # A line grep printed from a page's file: `N0003/content/01-x.md:4:` (or `-4-` around it).
    GREPPED = re.compile(r"^(?:N\d{4}|@)/\S+?[:-]\d+[:-]")

    def text(self, output: str) -> str:
        """The page's words among a command's output: the lines grep printed from the page's
        files, without the `file:line:` before each (not the answer of a command before)."""
        return "\n".join(self.GREPPED.sub("", line) for line in output.splitlines()
                         if self.GREPPED.match(line))


def _unquote(label: str) -> str:
    return re.sub(r"\\(.)", r"\1", label)


def _value(value: str) -> str:
    """name=value as the .ctl grammar takes it: one word as is, else in double quotes."""
    return value if re.fullmatch(r"[\w@.|+-]+", value) else '"' + value.replace('"', '\\"') + '"'


class MountAgent:
    """The scripted agent on the mount: .ctl commands, grep of the compiled files."""

    tool = "webshellfs"

    def __init__(self, daemon: Daemon, apps: AppsServer, run: Run, number: int,
                 chained: bool) -> None:
        self.sh = Shell(daemon.path, run)
        self.apps = apps
        self.number = number
        self.read = MountReading()
        self.page = ""
        self.pages: list[str] = []
        self.chained = chained  # the mount has `@`: a lookup can follow an action in one line
        self.pending = ""  # an action whose page the next lookup reads (chained with `@`)

    # commands -----------------------------------------------------------------------------

    def ctl(self, command: str) -> str:
        return self.sh(f"echo {shlex.quote(command)} > .ctl; cat .ctl")

    def act(self, command: str) -> str:
        """Run a command that leads to a page (open, execute …); with `@`, leave it to be
        chained before the next lookup, which reads the page it leads to."""
        if self.chained:
            self.pending = command
            return ""
        answer = self.ctl(command)
        self._went(self.read.page_led_to(answer))
        return answer

    def _went(self, page: str) -> None:
        self.page = page
        self.pages.append(page)

    def look(self, script: Callable[[str], str], why: str) -> str:
        """Run a reading command on the current page (`script(page)`), after the pending
        command in the same line when there is one, on `@`."""
        if not self.pending:
            return self.sh(script(self.page), why)
        output = self.sh(f"echo {shlex.quote(self.pending)} > .ctl; cat .ctl; "
                         + script(self.read.LAST_PAGE), f"act+{why}")
        self.pending = ""
        self._went(self.read.page_led_to(output))
        return output

    def grep(self, words: Iterable[str], where: Iterable[str] = MountReading.SHOWN,
             options: str = "", why: str = "find") -> str:
        """grep the current page's files for any of the words."""
        patterns = " ".join([*options.split(), *(f"-e {shlex.quote(word)}" for word in words)])
        return self.look(lambda page: f"grep -rnF {patterns} "
                         + " ".join(f"{page}/{place}" for place in where), why)

    def flush(self) -> str:
        """Run the pending action alone; its answer."""
        if not self.pending:
            return ""
        answer = self.ctl(self.pending)
        self.pending = ""
        self._went(self.read.page_led_to(answer))
        return answer

    # steps --------------------------------------------------------------------------------

    def open(self, step: Open) -> None:
        self.act(f"open {self.apps.url(step.path)}?run={self.number}")

    def fill(self, step: Fill) -> None:
        lines = self.grep(step.fields, self.read.FIELDS)
        answer = self.act(self._form_command(lines, dict(step.fields)))
        if not step.expect:
            return
        refusal, fixes = step.retry or ("", {})
        seen = self._effect(answer, step.expect, [refusal, *fixes] if refusal else [])
        if refusal and not self.read.shows(seen, step.expect) and self.read.shows(seen, refusal):
            answer = self.act(self._form_command(seen, dict(fixes)))
            seen = self._effect(answer, step.expect)
        if not self.read.shows(seen, step.expect):
            raise TaskFailed(f"{step.expect!r} not shown after the form:\n{seen}")

    def _form_command(self, lines: str, fields: dict[str, str | bool]) -> str:
        form = ""
        inputs: dict[str, str] = {}
        for label, wanted in fields.items():
            found = [c for c in self.read.controls(lines, label) if c.name]
            if not found:
                raise TaskFailed(f"no field {label!r} on {self.page}:\n{lines}")
            control = found[0]
            form = control.ident
            if control.kind != "checkbox":
                inputs[control.name] = str(wanted)
                continue
            group = self.read.group(lines, control.name)
            if len(group) <= 1:
                inputs[control.name] = control.value if wanted else "off"
                continue
            ticked = [c.value for c in group if c.checked]
            chosen = inputs.get(control.name, "|".join(ticked)).split("|")
            chosen = [v for v in chosen if v and v != control.value]
            if wanted:
                chosen.append(control.value)
            order = [c.value for c in group]
            inputs[control.name] = "|".join(sorted(chosen, key=order.index)) or "off"
        return f"execute {self.page} {form} " + " ".join(
            f"{name}={_value(value)}" for name, value in inputs.items())

    def _effect(self, answer: str, expect: str, also: Iterable[str] = ()) -> str:
        """What shows whether the action worked: its answer when it says so (an action left
        pending is run alone to read it), else a grep of the page it led to for the message
        (and for what a refusal would show)."""
        answer = answer or self.flush()
        also = [word for word in also if word]
        if self.read.shows(answer, expect) or also and all(self.read.shows(answer, word)
                                                           for word in also):
            return answer
        return self.grep([expect, *also], why="check")

    def click(self, step: Click) -> None:
        lines = self.grep([step.text])
        found = self.read.controls(lines, step.text)
        if not found:
            raise TaskFailed(f"nothing shows {step.text!r} on {self.page}:\n{lines}")
        answer = self.act(f"execute {self.page} {found[0].ident}")
        if step.expect:
            seen = self._effect(answer, step.expect)
            if not self.read.shows(seen, step.expect):
                raise TaskFailed(f"{step.expect!r} not shown after {step.text!r}:\n{seen}")

    def tick(self, step: Tick) -> None:
        rows = list(step.rows)
        if step.rows_holding:
            rows = self.read.rows_holding(self.grep([step.rows_holding], ["tables"], why="rows"),
                                          step.rows_holding)
        labels = [f"Select {row}" for row in rows]
        patterns = " ".join(f"-e {shlex.quote(label)}" for label in labels)
        row = self.look(lambda page: f"grep -F {patterns} {page}/actions.tsv", "find")
        row = "\n".join(line for line in row.splitlines() if re.match(r"A\d{4}\t", line))
        if not row.strip():
            raise TaskFailed(f"no form on {self.page} ticks {labels}")
        ident, choices, names = self.read.form_row(row.splitlines()[0])
        inputs = {}
        for name, pairs in choices.items():
            ticked = [pairs[label] for label in labels if label in pairs]
            if ticked:
                inputs[name] = "|".join(ticked)
        for label, wanted in step.fields.items():
            name = names.get(label)
            if name is None:
                raise TaskFailed(f"{ident} on {self.page} has no input {label!r}: {row}")
            inputs[name] = choices[name].get(str(wanted), str(wanted))
        answer = self.act(f"execute {self.page} {ident} " + " ".join(
            f"{name}={_value(value)}" for name, value in inputs.items()))
        if step.expect:
            seen = self._effect(answer, step.expect)
            if not self.read.shows(seen, step.expect):
                raise TaskFailed(f"{step.expect!r} not shown after ticking {rows}:\n{seen}")

    def answer(self, step: Read) -> str:
        for phrase in step.phrases:
            lines = self.read.text(self.grep([phrase], ["content", "tables"], why="read"))
            if not self.read.shows(lines, phrase):
                continue
            found = _answer_after(lines, phrase, step.pattern)
            if not found:
                more = self.grep([phrase], ["content", "tables"], "-A3", "read")
                found = _answer_after(self.read.text(more), phrase, step.pattern)
            return found
        raise TaskFailed(f"none of {step.phrases} shown on {self.page}")

    def close(self, daemon: Daemon) -> None:
        if self.pages:
            daemon.ctl(f"close {self.pages[-1]}")


@dataclass
class Write:
    """A command for .ctl on `@`: a control by its label (or, once read, its id), its inputs
    by their labels as the plan names them (a box by on/off)."""
    control: str
    inputs: list[tuple[str, str]] = field(default_factory=list)
    verb: str = "execute"

    def text(self) -> str:
        target = self.control if re.fullmatch(r"[AL]\d{4}", self.control) else (
            '"' + self.control.replace('"', '\\"') + '"')
        return " ".join([self.verb, "@", target,
                         *(f"{_value(name)}={_value(value)}" for name, value in self.inputs)])


class LabelAgent(MountAgent):
    """The scripted agent on a mount that takes controls and fields by their labels: it writes
    each step as the plan words it (`execute @ "Save" Department=Marketing Active=off`) and
    chains every write it need not read between into one line (`echo A > .ctl && echo B >
    .ctl; cat .ctl`, or `… && grep … @/content || cat .ctl` when the next thing it needs is
    a lookup). A refused write is read in .ctl and fixed as its reason says."""

    RECOVERIES = 3

    def __init__(self, daemon: Daemon, apps: AppsServer, run: Run, number: int,
                 chained: bool) -> None:
        super().__init__(daemon, apps, run, number, chained)
        self.writes: list[Write | str] = []  # to run in one line, in order

    def _line(self, reader: str) -> str:
        writes = " && ".join(f"echo {shlex.quote(w if isinstance(w, str) else w.text())} > .ctl"
                             for w in self.writes)
        if not writes:
            return reader or "cat .ctl"
        return f"{writes} && {reader} || cat .ctl" if reader else f"{writes}; cat .ctl"

    def run(self, reader: str = "", why: str = "") -> str:
        """The pending writes chained, then the reader (else `cat .ctl`); a refused write is
        fixed and the rest run again, each try a command."""
        for _ in range(self.RECOVERIES):
            purpose = (f"act+{why}" if why else "act") if self.writes else why or "read"
            output = self.sh(self._line(reader), purpose)
            refused = self.read.refused(output)
            if not refused or not self.writes:
                self.writes = []
                return output
            command, reason = refused
            texts = [w if isinstance(w, str) else w.text() for w in self.writes]
            if command not in texts:
                raise TaskFailed(f"refused, but not a command the agent wrote:\n{output}")
            at = texts.index(command)
            write = self.writes[at]
            if isinstance(write, str):
                raise TaskFailed(f"refused:\n{output}")
            fixed = self._fixed(write, reason)
            if fixed == write:
                raise TaskFailed(f"refused, and the reason tells no other way:\n{output}")
            self.writes = [fixed, *self.writes[at + 1:]]
        raise TaskFailed(f"still refused after {self.RECOVERIES} tries:\n{output}")

    def _fixed(self, write: Write, reason: str) -> Write:
        """The refused write as its reason tells to write it (a recovery a reader makes)."""
        several = self.read.SEVERAL.search(reason)
        if several:
            named = self.read.named_controls(reason)
            exact = [ident for ident, label in named if label.casefold()
                     == write.control.casefold()]
            return replace(write, control=(exact or [i for i, _ in named])[0])
        if self.read.NONE.search(reason):
            lines = self.sh(f"grep -rnF -e {shlex.quote(write.control)} "
                            + " ".join(f"@/{place}" for place in MountReading.SHOWN), "find")
            found = self.read.controls(lines, write.control)
            if not found:
                raise TaskFailed(f"nothing shows {write.control!r}:\n{lines}")
            return replace(write, control=found[0].ident)
        if self.read.UNKNOWN.search(reason):
            return replace(write, inputs=self.read.grouped(write.inputs, reason))
        raise TaskFailed(f"refused: {reason}")

    # steps --------------------------------------------------------------------------------

    def open(self, step: Open) -> None:
        self.writes.append(f"open {self.apps.url(step.path)}?run={self.number}")

    def fill(self, step: Fill) -> None:
        self.writes.append(Write(step.submit, _by_labels(step.fields)))
        if not step.expect:
            return
        refusal, fixes = step.retry or ("", {})
        seen = self._check(step.expect, [refusal] if refusal else [])
        if refusal and not self.read.shows(seen, step.expect) and self.read.shows(seen, refusal):
            self.writes.append(Write(step.submit, _by_labels(fixes)))
            seen = self._check(step.expect)
        if not self.read.shows(seen, step.expect):
            raise TaskFailed(f"{step.expect!r} not shown after the form:\n{seen}")

    def _check(self, expect: str, also: Iterable[str] = ()) -> str:
        """The pending writes, then a grep of @ for the message that shows they worked (and
        for what a refusal would show): its lines, else the last answer (`|| cat .ctl`)."""
        words = " ".join(f"-e {shlex.quote(word)}" for word in (expect, *also) if word)
        return self.run(f"grep -rnF {words} "
                        + " ".join(f"@/{place}" for place in MountReading.SHOWN), "check")

    def click(self, step: Click) -> None:
        self.writes.append(Write(step.text))
        if step.expect:
            seen = self._check(step.expect)
            if not self.read.shows(seen, step.expect):
                raise TaskFailed(f"{step.expect!r} not shown after {step.text!r}:\n{seen}")

    def tick(self, step: Tick) -> None:
        """The rows' boxes and the form's names are in actions.tsv, which the agent greps for
        the fields' labels (with the list's cells holding the word, when the rows are those),
        then acts on the form by the id it read."""
        form = "grep -F " + " ".join(f"-e {shlex.quote(label)}" for label in step.fields) \
            + " @/actions.tsv"
        rows = list(step.rows)
        if step.rows_holding:
            output = self.run(f"grep -rnF -e {shlex.quote(step.rows_holding)} @/tables && {form}",
                              "rows")
            rows = self.read.rows_holding(output, step.rows_holding)
        else:
            output = self.run(form, "find")
        found = [line for line in output.splitlines() if re.match(r"A\d{4}\t", line)]
        if not found or not rows:
            raise TaskFailed(f"no form on @ with {list(step.fields)} or no rows:\n{output}")
        ident, choices, names = self.read.form_row(found[0])
        labels = [f"Select {row}" for row in rows]
        inputs = [(name, "|".join(pairs[label] for label in labels if label in pairs))
                  for name, pairs in choices.items() if any(label in pairs for label in labels)]
        for label, wanted in step.fields.items():
            name = names.get(label, label)
            inputs.append((name, choices.get(name, {}).get(str(wanted), str(wanted))))
        self.writes.append(Write(ident, inputs))
        if step.expect:
            seen = self._check(step.expect)
            if not self.read.shows(seen, step.expect):
                raise TaskFailed(f"{step.expect!r} not shown after ticking {rows}:\n{seen}")

    def answer(self, step: Read) -> str:
        for phrase in step.phrases:
            lines = self.read.text(self.run(f"grep -rnF -e {shlex.quote(phrase)} @/content "
                                            "@/tables", "read"))
            if not self.read.shows(lines, phrase):
                continue
            found = _answer_after(lines, phrase, step.pattern)
            if not found:
                more = self.sh(f"grep -rnF -A3 -e {shlex.quote(phrase)} @/content @/tables",
                               "read")
                found = _answer_after(self.read.text(more), phrase, step.pattern)
            return found
        raise TaskFailed(f"none of {step.phrases} shown on @")

    def flush(self) -> str:
        return self.run() if self.writes else ""

    def close(self, daemon: Daemon) -> None:
        daemon.ctl("close @")


def _by_labels(fields: Mapping[str, str | bool]) -> list[tuple[str, str]]:
    """A plan's fields as inputs named by their labels: a box ticked by on, unticked by off."""
    return [(label, ("on" if wanted else "off") if isinstance(wanted, bool) else wanted)
            for label, wanted in fields.items()]


# the peer: reading playwright-cli's output -------------------------------------------------------

class PeerReading:
    """What the scripted agent reads in playwright-cli's output: the one place to adapt."""

    NODE = re.compile(r"- (?P<role>[\w-]+) \"(?P<name>(?:[^\"\\]|\\.)*)\"(?P<attrs>[^\n]*?)"
                      r"\[ref=(?P<ref>[\w-]+)\]")
    SNAPSHOT = re.compile(r"\((\.playwright-cli/page-[^)]+\.yml)\)")
    # A snapshot line, maybe after a grep's `12:` or `12-`: `- role "name" [attrs]: text`.
    LINE = re.compile(r"^\s*(?:\d+[:-])?\s*- [\w-]+(?: \"((?:[^\"\\]|\\.)*)\")?"
                      r"(?: \[[^\]]*\])*:?\s?(.*)$")
    FIELD_ROLES = {"textbox": "fill", "searchbox": "fill", "combobox": "select",
                   "checkbox": "check", "radio": "check"}

    def refs(self, output: str, label: str) -> list[tuple[str, str, str]]:
        """(role, ref, attributes) of the nodes named exactly `label`."""
        return [(m["role"], m["ref"], m["attrs"]) for m in self.NODE.finditer(output)
                if _unquote(m["name"]) == label]

    def field(self, output: str, label: str) -> tuple[str, str, str]:
        found = [r for r in self.refs(output, label) if r[0] in self.FIELD_ROLES]
        if not found:
            raise TaskFailed(f"no field {label!r} in:\n{output}")
        return found[0]

    def clickable(self, output: str, label: str) -> str:
        found = [r for r in self.refs(output, label) if r[0] in ("link", "button")]
        if not found:
            raise TaskFailed(f"no link or button {label!r} in:\n{output}")
        return found[0][1]

    def row_names(self, output: str) -> list[str]:
        """The name (a row's link) in each block of a find's results."""
        names = []
        for block in output.split("----"):
            link = re.search(r"- link \"((?:[^\"\\]|\\.)*)\"", block)
            if link:
                names.append(_unquote(link.group(1)))
        return names

    def snapshot_file(self, output: str) -> str:
        found = self.SNAPSHOT.findall(output)
        return found[-1] if found else ""

    def shows(self, text: str, wanted: str) -> bool:
        return wanted.lower() in text.lower()

    def text(self, output: str) -> str:
        """The page's words in a snapshot (or a grep of one): each node's name and text,
        without the grep's line numbers, roles and refs, nor the lines about the command
        (`Found 1 match for …`, the code it ran)."""
        nodes = (self.LINE.match(line) for line in output.splitlines())
        return "\n".join(" ".join(part for part in node.groups() if part)
                         for node in nodes if node)


class PeerAgent:
    """The scripted agent on playwright-cli: refs from `find`, actions chained with &&."""

    tool = "playwright-cli"

    def __init__(self, peer_dir: Path, apps: AppsServer, run: Run, number: int) -> None:
        self.sh = Shell(peer_dir, run, {"PATH": f"{peer_dir / PEER_BIN}:{os.environ['PATH']}"})
        self.apps = apps
        self.number = number
        self.read = PeerReading()
        self.pending: list[str] = []
        self.snapshot = ""

    def _run(self, commands: list[str], why: str) -> str:
        output = self.sh(" && ".join(commands), why)
        self.snapshot = self.read.snapshot_file(output) or self.snapshot
        return output

    def find(self, words: Iterable[str], why: str = "find") -> str:
        """The nodes showing any of the words, after the actions not yet run."""
        regex = "|".join(re.sub(r"([.*+?^${}()|\[\]\\/])", r"\\\1", word)
                         for word in dict.fromkeys(words))
        output = self._run([*self.pending, f"playwright-cli find --regex={shlex.quote(regex)}"],
                           f"act+{why}" if self.pending else why)
        self.pending = []
        return output

    def flush(self) -> None:
        if self.pending:
            self._run(self.pending, "act")
            self.pending = []

    def open(self, step: Open) -> None:
        self.pending.append(f"playwright-cli open {self.apps.url(step.path)}?run={self.number}")

    def _fill_commands(self, output: str, fields: dict[str, str | bool], submit: str) -> list[str]:
        commands = []
        for label, wanted in fields.items():
            role, ref, attrs = self.read.field(output, label)
            verb = self.read.FIELD_ROLES[role]
            if verb == "fill":
                commands.append(f"playwright-cli fill {ref} {shlex.quote(str(wanted))}")
            elif verb == "select":
                commands.append(f"playwright-cli select {ref} {shlex.quote(str(wanted))}")
            elif wanted != ("[checked]" in attrs):
                commands.append(f"playwright-cli {'check' if wanted else 'uncheck'} {ref}")
        return [*commands, f"playwright-cli click {self.read.clickable(output, submit)}"]

    def fill(self, step: Fill) -> None:
        output = self.find([*step.fields, step.submit])
        self.pending = self._fill_commands(output, dict(step.fields), step.submit)
        if not step.expect:
            return
        refusal, fixes = step.retry or ("", {})
        extra = [refusal, *fixes, step.submit] if refusal else []
        seen = self.find([step.expect, *extra], "check")
        if refusal and not self.read.shows(seen, step.expect) and self.read.shows(seen, refusal):
            self.pending = self._fill_commands(seen, dict(fixes), step.submit)
            seen = self.find([step.expect], "check")
        if not self.read.shows(seen, step.expect):
            raise TaskFailed(f"{step.expect!r} not shown after the form:\n{seen}")

    def click(self, step: Click) -> None:
        output = self.find([step.text])
        self.pending = [f"playwright-cli click {self.read.clickable(output, step.text)}"]
        if step.expect:
            seen = self.find([step.expect], "check")
            if not self.read.shows(seen, step.expect):
                raise TaskFailed(f"{step.expect!r} not shown after {step.text!r}:\n{seen}")

    def tick(self, step: Tick) -> None:
        rows = list(step.rows)
        if step.rows_holding:
            rows = self.read.row_names(self.find([step.rows_holding], "rows"))
        labels = [f"Select {row}" for row in rows]
        output = self.find([*labels, *step.fields, step.submit])
        commands = []
        for label in labels:
            _, ref, attrs = self.read.field(output, label)
            if "[checked]" not in attrs:
                commands.append(f"playwright-cli check {ref}")
        self.pending = commands + self._fill_commands(output, dict(step.fields), step.submit)
        if step.expect:
            seen = self.find([step.expect], "check")
            if not self.read.shows(seen, step.expect):
                raise TaskFailed(f"{step.expect!r} not shown after ticking {rows}:\n{seen}")

    def answer(self, step: Read) -> str:
        for phrase in step.phrases:
            output = self.find([phrase], "read")
            if "No matches found" in output or not self.read.shows(output, phrase):
                continue
            found = _answer_after(self.read.text(output), phrase, step.pattern)
            if not found and self.snapshot:
                more = self.sh(f"grep -n -A8 -F -- {shlex.quote(phrase)} {self.snapshot}",
                               "read")
                found = _answer_after(self.read.text(more), phrase, step.pattern)
            return found
        raise TaskFailed(f"none of {step.phrases} shown")

    def close(self, daemon: object) -> None:
        subprocess.run(["bash", "-c", "playwright-cli close"], cwd=self.sh.cwd, env=self.sh.env,
                       capture_output=True, check=False, timeout=COMMAND_TIMEOUT)


# running -------------------------------------------------------------------------------------

Agent = MountAgent | PeerAgent


def perform(agent: Agent, task: Task, apps: AppsServer, run: Run) -> None:
    """Do the task's steps with the agent, then check its end condition on the server."""
    handlers = {Open: agent.open, Fill: agent.fill, Click: agent.click, Tick: agent.tick}
    try:
        for step in task.steps:
            if isinstance(step, Read):
                run.answer = agent.answer(step)
            else:
                handlers[type(step)](step)
        agent.flush()
        run.failure = task.failure(apps.admin, run.answer)
    except (TaskFailed, subprocess.TimeoutExpired) as failure:
        records = task.failure(apps.admin, run.answer) if not task.answer else ""
        run.failure = f"{failure}" + (f"\n(the records: {records})" if records else "")


def check_peer(peer_dir: Path) -> None:
    cli = peer_dir / PEER_BIN / "playwright-cli"
    missing = [str(path) for path in (cli, peer_dir / PEER_CONFIG) if not path.exists()]
    if missing:
        raise SystemExit("playwright-cli is not set up: missing " + ", ".join(missing)
                         + "\n(see the setup in this script's docstring: npm install "
                         "@playwright/cli in that directory, and its .playwright/"
                         "cli.config.json naming /usr/bin/chromium)")


def run_all(tasks: list[Task], tools: list[str], peer_dir: Path,
            once: dict[str, int], by_ids: bool = False) -> list[Run]:
    """Each task by each tool, in turn; `once` gets the size of the mount's README.md. Ours
    acts by labels when the README tells of them, unless `by_ids`."""
    apps = AppsServer().start()
    runs: list[Run] = []
    with tempfile.TemporaryDirectory(prefix="bench-economy-") as temp:
        base = Path(temp)
        (base / "uploads").mkdir()
        daemon = Daemon(base, "mount", base / "uploads") if "ours" in tools else None
        chained = labels = False
        if daemon:
            readme = (daemon.path / "README.md").read_text(encoding="utf-8")
            once["webshellfs"] = len(readme.encode())
            chained = MountReading().offers_last_page(readme)
            labels = chained and not by_ids and MountReading().offers_labels(readme)
        ours = LabelAgent if labels else MountAgent
        try:
            for number, task in enumerate(tasks, start=1):
                for tool in tools:
                    apps.reset()
                    run = Run(MountAgent.tool if tool == "ours" else PeerAgent.tool, task.name)
                    agent: Agent = (ours(daemon, apps, run, number, chained)
                                    if tool == "ours"
                                    else PeerAgent(peer_dir, apps, run, number))
                    perform(agent, task, apps, run)
                    agent.close(daemon)
                    runs.append(run)
                    print(f"{'ok  ' if run.ok else 'FAIL'} {run.tool:<15} {task.name}",
                          file=sys.stderr, flush=True)
        finally:
            if daemon:
                daemon.stop()
            apps.stop()
    return runs


def peer_guide(peer_dir: Path) -> int:
    """The bytes the peer's agent reads once to learn its tool: `playwright-cli --help`."""
    env = {**os.environ, "PATH": f"{peer_dir / PEER_BIN}:{os.environ['PATH']}"}
    done = subprocess.run(["bash", "-c", "playwright-cli --help"], cwd=peer_dir, env=env,
                          capture_output=True, check=False)
    return len(done.stdout + done.stderr)


def report(runs: list[Run], tasks: list[Task], once: dict[str, int], transcripts: bool) -> None:
    by = {(run.tool, run.task): run for run in runs}
    width = max(len(task.name) for task in tasks)
    print(f"\n{'task':<{width}}  {'ours':>5} {'peer':>5}  {'cmds ours/peer':>14}  "
          f"{'bytes ours':>10} {'bytes peer':>10} {'ratio':>6}")
    totals = {"webshellfs": [0, 0, 0], "playwright-cli": [0, 0, 0]}
    for task in tasks:
        ours, peer = by.get(("webshellfs", task.name)), by.get(("playwright-cli", task.name))
        for run in (ours, peer):
            if run:
                totals[run.tool][0] += run.ok
                totals[run.tool][1] += len(run.commands)
                totals[run.tool][2] += run.printed
        print(f"{task.name:<{width}}  {_mark(ours):>5} {_mark(peer):>5}  "
              f"{_pair(ours and len(ours.commands), peer and len(peer.commands)):>14}  "
              f"{_bytes(ours):>10} {_bytes(peer):>10} "
              f"{_ratio(ours and ours.printed, peer and peer.printed):>6}")
    (ok, commands, printed), (peer_ok, peer_commands, peer_printed) = totals.values()
    print(f"{'all ' + str(len(tasks)) + ' tasks':<{width}}  {ok:>5} {peer_ok:>5}  "
          f"{_pair(commands, peer_commands):>14}  {printed:>10,} {peer_printed:>10,} "
          f"{_ratio(printed, peer_printed):>6}")
    if len(once) == 2:
        ours_once, peer_once = once.get("webshellfs", 0), once.get("playwright-cli", 0)
        ours_all, peer_all = printed + ours_once, peer_printed + peer_once
        print(f"{'+ reading the guide once':<{width}}  {'':>5} {'':>5}  "
              f"{_pair(commands + 1, peer_commands + 1):>14}  {ours_all:>10,} "
              f"{peer_all:>10,} {_ratio(ours_all, peer_all):>6}")
        print(f"(the guide: the mount's README.md {ours_once:,} bytes, "
              f"`playwright-cli --help` {peer_once:,} bytes)")
    print("target: success >= the peer's, commands <= 0.6 and bytes <= 0.5 of the peer's")
    print_purposes(runs)
    for run in runs:
        if not run.ok:
            print(f"\nFAILED {run.tool} {run.task}: {run.failure[:3000]}")
            _transcript(run)
        elif transcripts:
            print(f"\n{run.tool} {run.task}: answer {run.answer!r}" if run.answer
                  else f"\n{run.tool} {run.task}:")
            _transcript(run)


def print_purposes(runs: list[Run]) -> None:
    """Where each tool's commands and bytes went, by why they were typed (PURPOSES)."""
    tools = list(dict.fromkeys(run.tool for run in runs))
    whys = [why for why in (*PURPOSES, *(f"act+{p}" for p in PURPOSES[1:]))
            if any(c.why == why for run in runs for c in run.commands)]
    print(f"\n{'commands typed to':<18}" + "".join(f"{tool:>26}" for tool in tools))
    for why in whys:
        cells = []
        for tool in tools:
            typed = [c for run in runs if run.tool == tool for c in run.commands if c.why == why]
            cells.append(f"{len(typed):>8} cmds {sum(c.printed for c in typed):>9,} B")
        print(f"{why:<18}" + "".join(f"{cell:>26}" for cell in cells))


def _transcript(run: Run) -> None:
    for command in run.commands:
        print(f"  $ {command.script}   [{command.why}: {command.printed:,} B]")


def _bytes(run: Run | None) -> str:
    return "-" if run is None else f"{run.printed:,}"


def _mark(run: Run | None) -> str:
    return "-" if run is None else "ok" if run.ok else "FAIL"


def _pair(ours: int | None, peer: int | None) -> str:
    if not ours or not peer:
        return f"{ours or '-'}/{peer or '-'}"
    return f"{ours}/{peer} {ours / peer:.2f}"


def _ratio(ours: int | None, peer: int | None) -> str:
    return f"{ours / peer:.2f}" if ours and peer else "-"


def list_tasks(tasks: list[Task]) -> None:
    for task in tasks:
        print(f"{task.name}\n  {task.wording}\n  done when: "
              + (f"the answer is {task.answer}" if task.answer else "the records hold it"))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tasks", default="", help="only the tasks whose name holds this")
    parser.add_argument("--only", choices=("ours", "peer"), help="run one side only")
    parser.add_argument("--peer-dir", type=Path, default=PEER_DIR,
                        help="where @playwright/cli is installed and configured")
    parser.add_argument("--transcripts", action="store_true",
                        help="print every run's commands, not only the failed ones'")
    parser.add_argument("--list", action="store_true", help="print the tasks' wordings")
    parser.add_argument("--by-ids", action="store_true",
                        help="ours greps for ids before acting, as before controls were "
                        "taken by their labels")
    args = parser.parse_args()
    tasks = [task for task in TASKS if args.tasks in task.name]
    if args.list:
        list_tasks(tasks)
        return
    tools = [args.only] if args.only else ["ours", "peer"]
    if "peer" in tools:
        check_peer(args.peer_dir)
    print(f"agent economy: {len(tasks)} tasks, {os.cpu_count()} cores, "
          f"load average {os.getloadavg()[0]:.1f}")
    once = {"playwright-cli": peer_guide(args.peer_dir)} if "peer" in tools else {}
    runs = run_all(tasks, tools, args.peer_dir, once, args.by_ids)
    report(runs, tasks, once, args.transcripts)


if __name__ == "__main__":
    main()

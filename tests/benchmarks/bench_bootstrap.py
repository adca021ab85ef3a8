"""Held-out interaction, second set: Bootstrap 5's own visual test pages (js/tests/visual/ of
the twbs/bootstrap repository), driven by the scripted agent of bench_interaction.py through a
real mount, as bench_heldout.py drives the ARIA Practices examples. No one on the project
wrote or tuned against these pages; no file of Bootstrap is in this repository.

A script, not a test (pytest does not collect it). From the project root:

    WEBSHELL_BOOTSTRAP=/work/bootstrap-visual \
        .venv/bin/python tests/benchmarks/bench_bootstrap.py [--pages DIR] [--rounds 1] \
        [--tasks WORD]

The pages folder (`--pages DIR`, else `$WEBSHELL_BOOTSTRAP`) is Bootstrap's own layout, so the
pages' relative links (`../../../dist/css/bootstrap.min.css`,
`../../../dist/js/bootstrap.bundle.js`) resolve when it is served as it is:

    DIR/dist/css/…, DIR/dist/js/…        the `dist/` folder of the npm package bootstrap@5.3.3
    DIR/js/tests/visual/NAME.html        the visual test pages, from the twbs/bootstrap repository

Rebuilding it (outside any git repository of the project):

    mkdir -p /tmp/bsnpm && cd /tmp/bsnpm && npm pack bootstrap@5.3.3   # from the npm registry
    tar xzf bootstrap-5.3.3.tgz
    mkdir -p /work/bootstrap-visual/js/tests/visual
    cp -r package/dist /work/bootstrap-visual/dist
    # then, in a clone of twbs/bootstrap, each page as the repository holds it at a commit:
    #   git show COMMIT:js/tests/visual/NAME.html > /work/bootstrap-visual/js/tests/visual/NAME.html
    #   dropdown.html  f428a685bd5cfc35fc86a9383b7958baf5978637   9986 bytes
    #   modal.html     6f6d40fa056551bc1649c2fdd4036ca0af109216  15667 bytes
    #   toast.html     204eea8a97da9ff8f1d017edd585266e8667c4fc   2580 bytes
    #   tooltip.html   204eea8a97da9ff8f1d017edd585266e8667c4fc   6309 bytes
    # (their git blob ids, for `git cat-file -p`: dropdown 4e422db597bee1438a303df43cc9bf407ae98f4e,
    # modal b738d9e81b149db4ac05b9aea4b6cf76fb6aee09, toast f86926d019613a22fc8242e594bf2fc2260c8e28
    # and tooltip 1a3b9f21dbe5ebe927526d02075609608980d2dd); then check the folder's sha256:
    #   e4239e5f7522c7b576c9c3fd490d3dcd1f3bbae32baf23ef5608159dbbd8813f  dropdown.html
    #   89d36fc3d1a64836c06d545552eb852410a51baf0bc9c2c1d9b2484411ea3be5  modal.html
    #   38df69cbdea9b72017f15a64bbdcebca0b365a4c728aea0297d62d57f3c95844  toast.html
    #   9a472e8bb25f252ff03cb7f959675331486b29584e7482919138174584560cd5  tooltip.html
    #   9a4a11a15db88d5fab08f59c1c34796b03f1f15bb3cc928dd226e1c59f7f59a3  bootstrap.bundle.js
    #   3c8f27e6009ccfd710a905e6dcf12d0ee3c6f2ac7da05b0572d3e0d12e736fc8  bootstrap.min.css
    cd /work/bootstrap-visual && sha256sum js/tests/visual/*.html dist/js/bootstrap.bundle.js \
        dist/css/bootstrap.min.css

The four pages are v5.3-line versions (after Nov 2022: `data-bs-*`, the bundle, `.fs-4` modal
titles), which all load `dist/js/bootstrap.bundle.js` and `dist/css/bootstrap.min.css`; 5.3.3's
dist drives them. The other visual pages (alert, button, carousel, collapse, popover, scrollspy,
tab …) were not to be had at a v5 commit where these were read, and have no tasks here yet;
a task whose page is missing from the folder is skipped.

The folder is served on 127.0.0.1 (bench_heldout's Corpus) and one mount with the local
Chromium opens each page. For each page, tasks as a person would state them ("choose Another
action in the menu 'Dropdown menu without Popper'", "open the demo modal, then close it", "show
the tooltip of 'Tooltip on end'", "show the toast"). The agent (bench_interaction's Agent) finds
each address by grepping the compiled files for the words a person would look for, never the
raw HTML, acts with the `.ctl` commands of docs/contract.md (execute, hover, press, focus) and
checks the end state on the compiled files of the page it led to: an action's row in
actions.tsv (expanded, collapsed, current=…), the `focus:` line of _map.md, text shown in
content/ or boilerplate/ (not marked `[hidden until …]`, not hidden.md), or text marked hidden
again. It prints each task's success and the characters the agent read, then the steps and the
compiled files of each failure (bench_heldout's table and failure dump).
"""

from __future__ import annotations

import argparse
import os
import re
import shlex
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT))

from tests.benchmarks.bench_heldout import (  # noqa: E402
    QUOTED_REF,
    control,
    drive,
    page_lines,
    require_current,
    require_shown,
    require_state,
)
from tests.benchmarks.bench_interaction import REF, Agent, TaskFailed  # noqa: E402

PAGES_ENV = "WEBSHELL_BOOTSTRAP"
VISUAL = "js/tests/visual"
# The toast that hides itself does so 2 s after it has shown (data-bs-delay="2000").
AUTOHIDE_WAIT = 3.0
HIDDEN_MARK = "[hidden until "


def page_path(name: str) -> str:
    return f"/{VISUAL}/{name}.html"


# What the agent reads --------------------------------------------------------------------------

def _body(line: str) -> str:
    """A grep line's text, after `file:line:`."""
    return line.split(":", 2)[-1]


def visible(agent: Agent, page: str, label: str, nth: int = 0) -> str:
    """The address of the control labelled `label` on a line a person sees: as control(), but
    lines marked `[hidden until …]` (a closed menu's items, another dialog's buttons) are passed
    over, as a person passes over what is not on the screen. `nth`: the nth such control (the
    second of two buttons with the same words)."""
    for where in ("content/", "boilerplate/", ""):
        lines = [line for line in agent.grep(page, label, where)
                 if HIDDEN_MARK not in line and "/hidden.md:" not in line]
        quoted = [m.group(1) for line in lines for m in QUOTED_REF.finditer(_body(line))
                  if m.group(2) == label]
        following = [m.group(1) for line in lines for m in REF.finditer(_body(line))
                     if _body(line)[:m.start()].rstrip().endswith(label)]
        found = list(dict.fromkeys(quoted + following))
        if len(found) > nth:
            agent.transcript.append(f"# shown {label!r} is {found[nth]}")
            return found[nth]
    raise TaskFailed(f"no shown control {label!r} (#{nth + 1}) in {page}; lines holding it:\n"
                     + "\n".join(line[:300] for line in agent.grep(page, label, "")))


def field_under(agent: Agent, page: str, ident: str) -> str:
    """The text field on the lines right under the control `ident` (a field in its menu): the
    first reference there whose actions.tsv row is a fill."""
    after = agent.shell(f"grep -h -A3 -F -- {shlex.quote(f'[{ident} ')} "
                        f"{page}/content/*.md {page}/boilerplate/*.md")
    for match in REF.finditer(after):
        columns = agent.row(page, match.group(1))
        if match.group(1) != ident and len(columns) > 1 and columns[1] == "fill":
            agent.transcript.append(f"# the field under {ident} is {match.group(1)}")
            return match.group(1)
    raise TaskFailed(f"no field under {ident} in {page}:\n{after}")


def require_hidden(agent: Agent, page: str, text: str) -> None:
    """`text` is still in the page's files but every line holding it is marked hidden (a closed
    dialog's text keeps its `[hidden until …]` mark; gone altogether is not what the contract
    promises)."""
    holding = page_lines(agent, page, text, "{content,boilerplate}/*.md")
    if not holding:
        raise TaskFailed(f"{text!r} is nowhere in {page}'s content/ or boilerplate/")
    require_shown(agent, page, text, present=False)


def require_marked(agent: Agent, page: str, ident: str, present: bool = True) -> None:
    """Some line is (or no line is) marked `[hidden until IDENT …]`: the panel IDENT opens."""
    marked = page_lines(agent, page, f"{HIDDEN_MARK}{ident} ", "{content,boilerplate}/*.md")
    if bool(marked) != present:
        raise TaskFailed(f"{page}: {'no' if present else 'still a'} line marked "
                         f"'{HIDDEN_MARK}{ident} …':\n" + "\n".join(m[:300] for m in marked))


def require_focus(agent: Agent, page: str, *labels: str) -> None:
    """The focus (where keys go) is on a control labelled one of `labels`: as the last answer
    says it (`focus now:`, for a page reached again), else as _map.md's `focus:` line does."""
    now = re.search(r"^focus now: .*$", agent.answer, re.M)
    line = now.group() if now else agent.shell(f"grep -m1 '^focus:' {page}/_map.md").strip()
    named = QUOTED_REF.search(line)
    if named is None or named.group(2) not in labels:
        raise TaskFailed(f"{page}/_map.md says {line or 'no focus line'!r}; "
                         f"expected the focus on {' or '.join(map(repr, labels))}")


def hover_shows(agent: Agent, name: str, label: str, tip: str, nth: int = 0) -> None:
    """Hover the control `label` (the nth of that name): its tooltip `tip` is shown after, not
    before."""
    page = agent.open(page_path(name))
    require_shown(agent, page, tip, present=False)
    target = visible(agent, page, label, nth)
    led = agent.act(f"hover {page} {target}")
    require_shown(agent, led, tip)


# Tasks: dropdown.html --------------------------------------------------------------------------

def _choose(agent: Agent, menu_label: str, item: str) -> tuple[str, str]:
    """Open the menu `menu_label`, click its item `item`: (the page reached, the menu's id),
    the menu open in between and closed after."""
    page = agent.open(page_path("dropdown"))
    menu = control(agent, page, menu_label)
    opened = agent.act(f"execute {page} {menu}")
    require_state(agent, opened, menu, "expanded")
    chosen = agent.act(f"execute {opened} {visible(agent, opened, item)}")
    require_state(agent, chosen, menu, "collapsed")
    return chosen, menu


def dropdown_choose(agent: Agent) -> None:
    """Its items are marked hidden again once the menu closed."""
    chosen, menu = _choose(agent, "Dropdown menu without Popper", "Another action")
    require_marked(agent, chosen, menu)


def dropdown_end_aligned(agent: Agent) -> None:
    _choose(agent, "This dropdown's menu is end-aligned", "Something else here")


def dropdown_field(agent: Agent) -> None:
    """The menu of the plain "Dropdown" button holds a text field: typing in it keeps it open."""
    page = agent.open(page_path("dropdown"))
    toggle = control(agent, page, "Dropdown")
    opened = agent.act(f"execute {page} {toggle}")
    require_state(agent, opened, toggle, "expanded")
    field = field_under(agent, opened, toggle)
    typed = agent.act(f"execute {opened} {field} {agent.input_name(opened, field)}=hello")
    require_current(agent, typed, field, "hello")
    require_state(agent, typed, toggle, "expanded")


def dropdown_keys(agent: Agent) -> None:
    """Keyboard only: ArrowDown on "Dropend" opens it on its first item, ArrowDown moves to the
    second, Escape closes the menu."""
    page = agent.open(page_path("dropdown"))
    toggle = control(agent, page, "Dropend")
    opened = agent.act(f"press {page} {toggle} ArrowDown")
    require_state(agent, opened, toggle, "expanded")
    require_focus(agent, opened, "Action")
    moved = agent.act(f"press {opened} ArrowDown")
    require_focus(agent, moved, "Another action")
    closed = agent.act(f"press {moved} Escape")
    require_state(agent, closed, toggle, "collapsed")


def dropdown_navbar(agent: Agent) -> None:
    """The Dropdown of the navbar (the nav links Home, Link, Link, Dropdown): Another action."""
    page = agent.open(page_path("dropdown"))
    navbar = [m.group(1) for line in agent.grep(page, '"Dropdown"', "boilerplate/nav.md")
              for m in QUOTED_REF.finditer(_body(line)) if m.group(2) == "Dropdown"]
    if not navbar:
        raise TaskFailed(f"no Dropdown in {page}/boilerplate/nav.md")
    opened = agent.act(f"execute {page} {navbar[0]}")
    require_state(agent, opened, navbar[0], "expanded")
    chosen = agent.act(f"execute {opened} {visible(agent, opened, 'Another action')}")
    require_state(agent, chosen, navbar[0], "collapsed")


def dropdown_click_outside(agent: Agent) -> None:
    """An open menu closes when the person clicks elsewhere (the page's heading)."""
    page = agent.open(page_path("dropdown"))
    toggle = control(agent, page, "Dropend")
    opened = agent.act(f"execute {page} {toggle}")
    require_state(agent, opened, toggle, "expanded")
    closed = agent.act(f'click {opened} "Bootstrap Visual Test"')
    require_state(agent, closed, toggle, "collapsed")


def dropdown_one_open(agent: Agent) -> None:
    """Opening Dropstart closes Dropend."""
    page = agent.open(page_path("dropdown"))
    dropend, dropstart = control(agent, page, "Dropend"), control(agent, page, "Dropstart")
    opened = agent.act(f"execute {page} {dropend}")
    other = agent.act(f"execute {opened} {dropstart}")
    require_state(agent, other, dropstart, "expanded")
    require_state(agent, other, dropend, "collapsed")


def dropdown_mention(agent: Agent) -> None:
    """The text says what actions.tsv says: the line mentioning Dropend reads expanded once it
    is open (docs/contract.md: `expanded`/`collapsed` stand in the mention)."""
    page = agent.open(page_path("dropdown"))
    toggle = control(agent, page, "Dropend")
    opened = agent.act(f"execute {page} {toggle}")
    require_state(agent, opened, toggle, "expanded")
    mentions = agent.shell(f"grep -rho -- '\\[{toggle} [^]]*\\]' {opened}/content "
                           f"{opened}/boilerplate").splitlines()
    if not any(re.search(r"\bexpanded\]$", mention) for mention in mentions):
        raise TaskFailed(f"{opened}: its text mentions {toggle} as {mentions} while actions.tsv "
                         "says expanded")


# Tasks: modal.html -----------------------------------------------------------------------------

DEMO_TEXT = "Duis mollis, est non commodo luctus"
SLOW_TEXT = "Cum sociis natoque penatibus"


def _demo_modal(agent: Agent) -> str:
    page = agent.open(page_path("modal"))
    require_hidden(agent, page, DEMO_TEXT)
    opened = agent.act(f"execute {page} {control(agent, page, 'Launch demo modal')}")
    require_shown(agent, opened, DEMO_TEXT)
    return opened


def modal_open_close(agent: Agent) -> None:
    opened = _demo_modal(agent)
    closed = agent.act(f"execute {opened} {visible(agent, opened, 'Close')}")
    require_hidden(agent, closed, DEMO_TEXT)


def modal_escape(agent: Agent) -> None:
    opened = _demo_modal(agent)
    closed = agent.act(f"press {opened} Escape")
    require_hidden(agent, closed, DEMO_TEXT)


def modal_popover(agent: Agent) -> None:
    opened = _demo_modal(agent)
    require_shown(agent, opened, "And here's some amazing content", present=False)
    led = agent.act(f"execute {opened} {visible(agent, opened, 'button')}")
    require_shown(agent, led, "And here's some amazing content")


def modal_tooltip(agent: Agent) -> None:
    opened = _demo_modal(agent)
    require_shown(agent, opened, "Tooltip on bottom", present=False)
    led = agent.act(f"hover {opened} {visible(agent, opened, 'that link')}")
    require_shown(agent, led, "Tooltip on bottom")


def modal_accordion(agent: Agent) -> None:
    """Item #2's panel opens and, the accordion keeping one open, item #1's closes."""
    opened = _demo_modal(agent)
    first = control(agent, opened, "Collapsible Group Item #1")
    second = control(agent, opened, "Collapsible Group Item #2")
    require_marked(agent, opened, second)
    led = agent.act(f"execute {opened} {second}")
    require_marked(agent, led, second, present=False)
    require_shown(agent, led, "Anim pariatur cliche reprehenderit")
    require_marked(agent, led, first)


def modal_tab_trap(agent: Agent) -> None:
    """Tab in the open modal moves the focus to a control of the modal, not of the page under
    it."""
    opened = _demo_modal(agent)
    led = agent.act(f"press {opened} Tab")
    require_focus(agent, led, "Close", "button", "This link", "Save changes")


def modal_slow(agent: Agent) -> None:
    """A modal with a 5 s transition each way: shown once it has come in, hidden once gone."""
    page = agent.open(page_path("modal"))
    launch = control(agent, page, "Launch modal with slow transition")
    opened = agent.act(f"execute {page} {launch}")
    require_shown(agent, opened, SLOW_TEXT)
    closed = agent.act(f"execute {opened} {visible(agent, opened, 'Close')}")
    require_hidden(agent, closed, SLOW_TEXT)


def modal_tall(agent: Agent) -> None:
    page = agent.open(page_path("modal"))
    require_shown(agent, page, "Tall body content", present=False)
    led = agent.act(f"execute {page} {control(agent, page, 'Toggle tall <body> content')}")
    require_shown(agent, led, "Tall body content to force the page to have a scrollbar")


def modal_navbar(agent: Agent) -> None:
    page = agent.open(page_path("modal"))
    toggle = control(agent, page, "Toggle navigation")
    require_hidden(agent, page, "This shouldn't jump!")
    led = agent.act(f"execute {page} {toggle}")
    require_state(agent, led, toggle, "expanded")
    require_shown(agent, led, "This shouldn't jump!")


# Tasks: tooltip.html and toast.html ------------------------------------------------------------

def toast_show(agent: Agent) -> None:
    page = agent.open(page_path("toast"))
    require_shown(agent, page, "Heads up, toasts will stack automatically", present=False)
    led = agent.act(f"execute {page} {control(agent, page, 'Show toast')}")
    require_shown(agent, led, "Heads up, toasts will stack automatically")
    require_shown(agent, led, "Hello, world! This is a toast message")


def toast_autohide(agent: Agent) -> None:
    """Two seconds after showing, the autohide toast is gone on a fresh look; the other stays."""
    page = agent.open(page_path("toast"))
    led = agent.act(f"execute {page} {control(agent, page, 'Show toast')}")
    time.sleep(AUTOHIDE_WAIT)
    later = agent.act(f"focus {led}")
    require_shown(agent, later, "Hello, world! This is a toast message", present=False)
    require_shown(agent, later, "Heads up, toasts will stack automatically")


def _toast_gone_by(button: str) -> Callable[[Agent], None]:
    """Show the toasts, then click `button` (its Close, the page's Hide toast): the stacked one
    is no longer shown."""
    def task(agent: Agent) -> None:
        page = agent.open(page_path("toast"))
        led = agent.act(f"execute {page} {control(agent, page, 'Show toast')}")
        gone = agent.act(f"execute {led} {visible(agent, led, button)}")
        require_shown(agent, gone, "Heads up, toasts will stack automatically", present=False)
    return task


def tooltip_focus(agent: Agent) -> None:
    """Bootstrap's tooltips show on keyboard focus too."""
    page = agent.open(page_path("tooltip"))
    led = agent.act(f"focus {page} {visible(agent, page, 'Tooltip on start')}")
    require_shown(agent, led, "Tooltip on left")


def tooltip_hover_away(agent: Agent) -> None:
    """Hovering another button hides the first tooltip and shows the second."""
    page = agent.open(page_path("tooltip"))
    first = agent.act(f"hover {page} {visible(agent, page, 'Tooltip on end')}")
    require_shown(agent, first, "Tooltip on right")
    second = agent.act(f"hover {first} {visible(agent, first, 'Tooltip on start')}")
    require_shown(agent, second, "Tooltip on left")
    require_shown(agent, second, "Tooltip on right", present=False)


def tooltip_duplicated(agent: Agent) -> None:
    """Buttons the page copies by script get the delegated tooltip too."""
    page = agent.open(page_path("tooltip"))
    copied = agent.act(f"execute {page} {visible(agent, page, 'Duplicate above two buttons')}")
    led = agent.act(f"hover {copied} {visible(agent, copied, 'Using title', 1)}")
    require_shown(agent, led, "random title")


def _hover(name: str, label: str, tip: str, nth: int = 0) -> Callable[[Agent], None]:
    return lambda agent: hover_shows(agent, name, label, tip, nth)


TASKS: dict[str, tuple[str, str, Callable[[Agent], None]]] = {
    "dropdown/choose": ("dropdown", "open 'Dropdown menu without Popper', choose Another action",
                        dropdown_choose),
    "dropdown/end-aligned": ("dropdown", "open the end-aligned menu, choose Something else here",
                             dropdown_end_aligned),
    "dropdown/field": ("dropdown", "open 'Dropdown', type hello in its field: it stays open",
                       dropdown_field),
    "dropdown/keys": ("dropdown", "keys: ArrowDown opens Dropend, ArrowDown, Escape closes",
                      dropdown_keys),
    "dropdown/mention": ("dropdown", "open Dropend: the text mentioning it says expanded",
                         dropdown_mention),
    "dropdown/navbar": ("dropdown", "open the navbar's Dropdown, choose Another action",
                        dropdown_navbar),
    "dropdown/click-outside": ("dropdown", "open Dropend, click the heading: it closes",
                               dropdown_click_outside),
    "dropdown/one-open": ("dropdown", "open Dropend, then Dropstart: Dropend closes",
                          dropdown_one_open),
    "modal/open-close": ("modal", "open the demo modal, then close it", modal_open_close),
    "modal/escape": ("modal", "open the demo modal, press Escape: it closes", modal_escape),
    "modal/popover": ("modal", "in the demo modal, open the popover of 'button'", modal_popover),
    "modal/tooltip": ("modal", "in the demo modal, show the tooltip of 'that link'",
                      modal_tooltip),
    "modal/accordion": ("modal", "in the demo modal, expand Collapsible Group Item #2",
                        modal_accordion),
    "modal/tab-trap": ("modal", "in the open demo modal, press Tab: focus stays in it",
                       modal_tab_trap),
    "modal/slow": ("modal", "open the modal with slow transition, then close it", modal_slow),
    "modal/tall": ("modal", "toggle the tall body content: its text shows", modal_tall),
    "modal/navbar": ("modal", "open the navigation (Toggle navigation): its brand shows",
                     modal_navbar),
    "tooltip/button": ("tooltip", "show the tooltip of 'Tooltip on end' (hover)",
                       _hover("tooltip", "Tooltip on end", "Tooltip on right")),
    "tooltip/link": ("tooltip", "show the tooltip of the link 'have a' (hover)",
                     _hover("tooltip", "have a", "Another tooltip")),
    "tooltip/delegated": ("tooltip", "show the tooltip of 'Using bs-title' (hover)",
                          _hover("tooltip", "Using bs-title", "random title")),
    "tooltip/shadow-dom": ("tooltip", "show the tooltip of the 2nd shadow-DOM button (hover)",
                           _hover("tooltip", "Tooltip on top in a shadow dom",
                                  "Tooltip on top in a shadow dom with container option", 1)),
    "tooltip/focus": ("tooltip", "show the tooltip of 'Tooltip on start' by keyboard focus",
                      tooltip_focus),
    "tooltip/hover-away": ("tooltip", "hover 'Tooltip on end', then 'Tooltip on start'",
                           tooltip_hover_away),
    "tooltip/duplicated": ("tooltip", "duplicate the buttons, hover the 2nd 'Using title'",
                           tooltip_duplicated),
    "toast/show": ("toast", "show the toast", toast_show),
    "toast/autohide": ("toast", "show the toasts, wait 3 s: the autohide one is gone",
                       toast_autohide),
    "toast/close": ("toast", "show the toasts, close the one with a Close button",
                    _toast_gone_by("Close")),
    "toast/hide": ("toast", "show the toasts, then Hide toast: none shows",
                   _toast_gone_by("Hide toast")),
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--pages", default=os.environ.get(PAGES_ENV, ""),
                        help=f"the pages folder (default ${PAGES_ENV})")
    parser.add_argument("--rounds", type=int, default=1, help="runs of each task")
    parser.add_argument("--tasks", default="", help="only the tasks whose name holds this "
                        "(several separated by commas)")
    args = parser.parse_args()
    folder = Path(args.pages) if args.pages else None
    if folder is None or not (folder / VISUAL).is_dir():
        raise SystemExit(f"no pages folder with {VISUAL}/ (give --pages DIR or set {PAGES_ENV}; "
                         "the docstring says how to build it)")
    wanted = [word for word in args.tasks.split(",") if word]
    planned = {name: (task_name, task) for name, (page, task_name, task) in TASKS.items()
               if (folder / VISUAL / f"{page}.html").is_file()
               and (not wanted or any(word in name for word in wanted))}
    missing = sorted({page for page, _, _ in TASKS.values()
                      if not (folder / VISUAL / f"{page}.html").is_file()})

    drive(folder, planned, args.rounds, f"Bootstrap visual pages: {len(planned)} tasks"
          f"{f' (pages missing: {missing})' if missing else ''}")


if __name__ == "__main__":
    main()

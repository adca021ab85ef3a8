"""What an action changed, told as lines an agent reads in the answer instead of looking again.

Between two states of a page: the lines added to and removed from the text a person reads
(content/, boilerplate/, a table's grid), each as `+ path:line: text` or `- path:line: text`
(grep's own form, the line number in the state that holds it), then the controls that came
or went. Messages (an error, a saved notice, a toast) come first: they say what the action did.
The answer shows the first lines; the state's `_state.md` keeps them all.

And what an answer shows of a page it stored (`page_outline`): a short page whole, else its
outline with the lines at its top that read as a message; its few actions with their inputs.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Callable, Iterable
from urllib.parse import urldefrag

from webshellfs.contract.layout import (
    HIDDEN_FILE,
    FileDiff,
    clean_field,
    format_choice,
    format_field,
    hidden_links,
    map_outline,
    section_files,
)
from webshellfs.contract.records import Action, CompiledPage, Field

__all__ = ["ANSWER_BYTES", "ANSWER_LINES", "bounded", "effect_lines", "page_outline"]

ANSWER_LINES = 25
ANSWER_BYTES = 2048
LINE_CHARS = 200  # of one changed line, in the answer and in _state.md alike
STATE_LINES = 400  # _state.md's list; past it the files themselves tell the rest
FORMS_SHOWN = 4
ACTIONS_SHOWN = 8  # a page with this many actions or fewer lists them all in its answer
CHOICES_SHOWN = 4  # of a field's choices in that list; actions.tsv has them all
# Controls that came in one file are told one by one up to this many; more (a calendar's days)
# on one line with the first few labels.
CONTROLS_APART = 4
GROUPED_LABELS = 6
# Where a longer page's answer looks for the lines that say what an action did.
TOP_LINES = 12
MESSAGES_SHOWN = 3
# A page whose main text is this short is shown whole in the answer, not outlined.
SHORT_PAGE_LINES = 16
SHORT_PAGE_CHARS = 1200
NAV_LINKS_SHOWN = 10  # of a page's navigation in its answer: the way on to the rest of the site
SHORT_LABEL_CHARS = 40  # of a label in a line that lists several

# The files whose lines a person reads: their changes are the effect. actions.tsv is told as
# controls; the rest (links.tsv, facts.kv, tables/*.cells …) repeat what these show.
_READ_AS_TEXT = re.compile(r"(content|boilerplate)/[^/]+\.md|tables/T\d+\.tsv")
# Words of a message that tells what an action did: shown before the other changed lines.
_MESSAGE_WORDS = re.compile(
    r"\b(error|errors|invalid|required|must|cannot|can't|failed|fail|not allowed|denied|"
    r"incorrect|wrong|warning|success|successfully|saved|updated|created|added|deleted|"
    r"removed|changed|sent|submitted|thank|thanks|welcome|done|marked|selected|please)\b",
    re.IGNORECASE,
)

Read = Callable[[str], bytes | None]


def _lines_of(data: bytes | None) -> list[str]:
    return [] if data is None else data.decode("utf-8", "replace").splitlines()


def _shown(text: str) -> str:
    text = clean_field(text)
    return text if len(text) <= LINE_CHARS else text[: LINE_CHARS - 1] + "…"


def _text_changes(path: str, before: list[str], after: list[str]) -> list[str]:
    """As a diff reads: for each changed stretch, `- path:n: line` for the lines it removed,
    then `+ path:n: line` for those it added (blank lines left out)."""
    out: list[str] = []
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    for tag, b1, b2, a1, a2 in matcher.get_opcodes():
        if tag in ("replace", "delete"):
            out += [f"- {path}:{n + 1}: {_shown(before[n])}" for n in range(b1, b2)
                    if before[n].strip()]
        if tag in ("replace", "insert"):
            out += [f"+ {path}:{n + 1}: {_shown(after[n])}" for n in range(a1, a2)
                    if after[n].strip()]
    return out


def _rows(data: bytes | None) -> list[list[str]]:
    """actions.tsv's rows under its header."""
    rows = csv.reader(io.StringIO(data.decode("utf-8", "replace") if data else ""),
                      delimiter="\t", quoting=csv.QUOTE_NONE)
    next(rows, None)
    return [row for row in rows if len(row) >= 3]


def _controls(data: bytes | None) -> dict[str, str]:
    """actions.tsv → id → `A0004 checkbox "buy milk"`."""
    return {row[0]: f'{row[0]} {row[1]} "{_shown(row[2])}"' for row in _rows(data)}


def _states(data: bytes | None) -> dict[str, str]:
    """actions.tsv → id → its context column (`checked`, `sorted descending, on: hover`); a
    form's (its method and URL) is not a state."""
    return {row[0]: row[3] if len(row) > 3 else "" for row in _rows(data) if row[1] != "submit"}


def _is_message(line: str) -> bool:
    return line.startswith("+ ") and _MESSAGE_WORDS.search(line.split(": ", 1)[-1]) is not None


def _mentioned(control: str, lines: list[str]) -> bool:
    """Whether a changed line already shows the control (`[A0004 …`) where it is."""
    mention = "[" + control.split(" ", 1)[0] + " "
    return any(mention in line for line in lines)


def _came(was: dict[str, str], now: dict[str, str], rows: list[list[str]], changes: list[str]
          ) -> list[str]:
    """`+ control A0007 button "Undo"` for each control that came where no changed line shows
    it; more than CONTROLS_APART in one file (a calendar's days, in a table) as one line:
    `+ 33 controls in boilerplate/popup.md, A0012…A0044: "1", "2", … "31"`."""
    by_file: dict[str, list[list[str]]] = {}
    for row in rows:
        if row[0] not in was and not _mentioned(row[0], changes):
            by_file.setdefault(row[5] if len(row) > 5 else "", []).append(row)
    lines: list[str] = []
    for path, came in by_file.items():
        if len(came) <= CONTROLS_APART:
            lines += [f"+ control {now[row[0]]}" for row in came]
            continue
        labels = [f'"{_shown(row[2])[:SHORT_LABEL_CHARS]}"' for row in came[:GROUPED_LABELS]]
        if len(came) > GROUPED_LABELS:
            labels.append(f'… "{_shown(came[-1][2])[:SHORT_LABEL_CHARS]}"')
        lines.append(f"+ {len(came)} controls in {path or 'the page'}, {came[0][0]}…"
                     f"{came[-1][0]}: {', '.join(labels)} (each in actions.tsv)")
    return lines


def effect_lines(diff: FileDiff, before: Read, after: Read) -> list[str]:
    """Every line of what changed from one state to the next, most telling first: added lines
    that read as messages, then the changed lines as a diff reads, then the controls that came
    or went or changed state and no changed line shows. before/after read a file of each state
    by its path (None where it has none)."""
    changes: list[str] = []
    for path in (*diff.changed, *diff.added, *diff.removed):
        if path != HIDDEN_FILE and _READ_AS_TEXT.fullmatch(path):
            changes += _text_changes(path, _lines_of(before(path)), _lines_of(after(path)))
    out = [line for line in changes if _is_message(line)]
    out += [line for line in changes if not _is_message(line)]
    if "actions.tsv" in diff.changed:
        was, now = _controls(before("actions.tsv")), _controls(after("actions.tsv"))
        out += _came(was, now, _rows(after("actions.tsv")), changes)
        out += [f"- control {was[i]}" for i in was if i not in now and not _mentioned(i, changes)]
        # A control whose state changed where no changed line shows it (a sort button in a
        # table's header): the state is what the action did to it.
        had, has = _states(before("actions.tsv")), _states(after("actions.tsv"))
        out += [f"~ control {now[i]}: {has[i] or 'no state'} (was: {had[i] or 'no state'})"
                for i in now if i in had and i in has and had[i] != has[i]
                and not _mentioned(i, changes)]
    return out[:STATE_LINES]


def bounded(lines: Iterable[str], more: str) -> list[str]:
    """The first lines of an effect, at most ANSWER_LINES and ANSWER_BYTES, indented for the
    answer; then `… N more: <more>` when some were left out."""
    lines = list(lines)
    shown: list[str] = []
    size = 0
    for line in lines:
        size += len(line.encode("utf-8", "replace")) + 3
        if len(shown) == ANSWER_LINES or size > ANSWER_BYTES:
            break
        shown.append("  " + line)
    left = len(lines) - len(shown)
    return shown + ([f"  … {left} more: {more}"] if left else [])


def _plural(count: int, noun: str) -> str:
    return f"{count} {noun}{'' if count == 1 else 's'}"


def _short_text(page: CompiledPage) -> list[str]:
    """A short page's whole main text, each file's path over its lines (none when the page is
    longer than SHORT_PAGE_LINES or SHORT_PAGE_CHARS: then its outline stands in)."""
    lines: list[str] = []
    size = 0
    for path, section in zip(section_files(page), page.sections):
        if section.kind == "content" and section.lines:
            lines.append(f"{path}:")
            lines += ["  " + line for line in section.lines]
            size += sum(len(line) for line in section.lines)
        if len(lines) > SHORT_PAGE_LINES or size > SHORT_PAGE_CHARS:
            return []
    return lines


def _top_messages(page: CompiledPage) -> list[str]:
    """Lines near the top of the main text that read as a message (`Added Ada Lovelace.`, `3
    errors`): a page reached by acting often says there what the action did."""
    top = [line for section in page.sections if section.kind == "content"
           for line in section.lines][:TOP_LINES]
    return [_shown(line) for line in top
            if _MESSAGE_WORDS.search(line) and len(line) <= LINE_CHARS][:MESSAGES_SHOWN]


def _field_shown(field: Field) -> str:
    """A field as actions.tsv shows it, a long choice list cut to its first few: every field of
    a form stays in sight (a list's row boxes must not hide its action select)."""
    if len(field.choices) <= CHOICES_SHOWN:
        return format_field(field)
    first = "|".join(format_choice(c) for c in field.choices[:CHOICES_SHOWN])
    return format_field(field, f"{first}|… {len(field.choices) - CHOICES_SHOWN} more")


def _action_line(action: Action) -> str:
    """`  A0001 form "Search" q(text) year(select: 2008|2009)`, long choice lists cut."""
    label = _shown(action.label)[:60]
    kind = "form" if action.kind == "submit" else action.control or action.kind
    inputs = " ".join(_field_shown(f) for f in action.fields)
    return "  " + clean_field(f'{action.id} {kind} "{label}" {inputs}'.rstrip())


def _nav_line(page: CompiledPage) -> list[str]:
    """`nav: Home [L0001] · Products [L0002] … (boilerplate/nav.md)`: the links to other pages
    the page's first navigation shows (those of a closed menu and a contents list's links into
    the page left out), the way on to the rest of the site, which its content rarely gives."""
    hidden = hidden_links(page)
    here = urldefrag(page.url).url
    for index, (path, section) in enumerate(zip(section_files(page), page.sections)):
        if section.kind != "boilerplate" or section.name != "nav":
            continue
        shown = [link for link in page.links
                 if link.section == index and link.id not in hidden and link.text.strip()
                 and urldefrag(link.url).url != here]  # a contents list's `#section` links
        if not shown:
            continue
        words = " · ".join(f"{_shown(link.text)[:SHORT_LABEL_CHARS]} [{link.id}]"
                           for link in shown[:NAV_LINKS_SHOWN])
        more = f" … {len(shown) - NAV_LINKS_SHOWN} more" if len(shown) > NAV_LINKS_SHOWN else ""
        return [clean_field(f"nav: {words}{more} ({path})")]
    return []


def page_outline(
    page_id: str, page: CompiledPage, map_md: bytes, navigation: bool = False
) -> list[str]:
    """What an answer shows of a page it stored: its sections and tables (from its _map.md),
    with navigation its navigation's links (open's answer: the pages a link leads to on from
    there share them, and would repeat them), its actions with their inputs when they are few
    (else its forms), how many links, actions and facts it has, and what to do next (a grep of
    its text and tables): often enough to act without reading more."""
    text = _short_text(page)
    if text:
        lines = text + map_outline(map_md, parts=("## tables/",))
    else:
        lines = [f"says: {line}" for line in _top_messages(page)] + map_outline(map_md)
    if navigation:
        lines += _nav_line(page)
    few = len(page.actions) <= ACTIONS_SHOWN
    listed = page.actions if few else [a for a in page.actions if a.kind == "submit"]
    if listed:
        lines.append("actions:" if few else f"forms ({len(listed)}):")
        lines += [_action_line(a) for a in listed[:FORMS_SHOWN if not few else ACTIONS_SHOWN]]
        if len(listed) > FORMS_SHOWN and not few:
            more = len(listed) - FORMS_SHOWN
            lines.append(f"  … {more} more: grep submit {page_id}/actions.tsv")
    counts = ((len(page.links), "link"), (len(page.actions), "action"), (len(page.facts), "fact"))
    lines.append(" · ".join(_plural(n, noun) for n, noun in counts))
    if text:  # nothing of the main text is left to look for
        rest = "" if few else f"; every action: cat {page_id}/actions.tsv"
        lines.append(f"all of {page_id}/content/ is above{rest}")
    else:
        where = f"{page_id}/content/" + (f" {page_id}/tables/" if page.tables else "")
        lines.append(f"next: grep -rn WORD {where}   or cat {page_id}/actions.tsv")
    return lines

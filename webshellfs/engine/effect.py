"""What an action changed, told as lines an agent reads in the answer instead of looking again.

Between two states of a page: the lines added to and removed from the text a person reads
(content/, boilerplate/, a table's grid), each as `+ path:line: text` or `- path:line: text`
(grep's own form, the line number in the state that holds it), then the controls that came
or went. Messages (an error, a saved notice, a toast) come first: they say what the action did.
The answer shows the first lines; the state's `_state.md` keeps them all.
"""

from __future__ import annotations

import csv
import difflib
import io
import re
from collections.abc import Callable, Iterable

from webshellfs.contract.layout import HIDDEN_FILE, FileDiff, clean_field, map_outline
from webshellfs.contract.records import CompiledPage

__all__ = ["ANSWER_BYTES", "ANSWER_LINES", "bounded", "effect_lines", "page_outline"]

ANSWER_LINES = 25
ANSWER_BYTES = 2048
LINE_CHARS = 200  # of one changed line, in the answer and in _state.md alike
STATE_LINES = 400  # _state.md's list; past it the files themselves tell the rest
FORMS_SHOWN = 4

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


def _controls(data: bytes | None) -> dict[str, str]:
    """actions.tsv → id → `A0004 checkbox "buy milk"`."""
    rows = csv.reader(io.StringIO(data.decode("utf-8", "replace") if data else ""),
                      delimiter="\t", quoting=csv.QUOTE_NONE)
    next(rows, None)
    return {row[0]: f'{row[0]} {row[1]} "{_shown(row[2])}"' for row in rows if len(row) >= 3}


def _is_message(line: str) -> bool:
    return line.startswith("+ ") and _MESSAGE_WORDS.search(line.split(": ", 1)[-1]) is not None


def _mentioned(control: str, lines: list[str]) -> bool:
    """Whether a changed line already shows the control (`[A0004 …`) where it is."""
    mention = "[" + control.split(" ", 1)[0] + " "
    return any(mention in line for line in lines)


def effect_lines(diff: FileDiff, before: Read, after: Read) -> list[str]:
    """Every line of what changed from one state to the next, most telling first: added lines
    that read as messages, then the changed lines as a diff reads, then the controls that came
    or went and no changed line shows. before/after read a file of each state by its path
    (None where it has none)."""
    changes: list[str] = []
    for path in (*diff.changed, *diff.added, *diff.removed):
        if path != HIDDEN_FILE and _READ_AS_TEXT.fullmatch(path):
            changes += _text_changes(path, _lines_of(before(path)), _lines_of(after(path)))
    out = [line for line in changes if _is_message(line)]
    out += [line for line in changes if not _is_message(line)]
    if "actions.tsv" in diff.changed:
        was, now = _controls(before("actions.tsv")), _controls(after("actions.tsv"))
        out += [f"+ control {now[i]}" for i in now if i not in was and not _mentioned(i, changes)]
        out += [f"- control {was[i]}" for i in was if i not in now and not _mentioned(i, changes)]
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


def page_outline(page_id: str, page: CompiledPage, map_md: bytes) -> list[str]:
    """What an answer shows of a page it stored: its sections and tables (from its _map.md),
    its forms, how many links, actions and facts it has, and what to do next."""
    lines = map_outline(map_md)
    forms = [a for a in page.actions if a.kind == "submit"]
    if forms:
        shown = "; ".join(f'{a.id} "{_shown(a.label)[:40]}"' for a in forms[:FORMS_SHOWN])
        more = f" … {len(forms) - FORMS_SHOWN} more" if len(forms) > FORMS_SHOWN else ""
        lines.append(f"forms: {shown}{more}")
    counts = ((len(page.links), "link"), (len(page.actions), "action"), (len(page.facts), "fact"))
    lines.append(" · ".join(_plural(n, noun) for n, noun in counts))
    lines.append(f"next: grep -rn WORD {page_id}/content/   or cat {page_id}/actions.tsv")
    return lines

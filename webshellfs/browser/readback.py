"""What a control shows after a value was set in it, against what was asked.

Setting a value is not proof that the page took it: a web component may draw its select anew
from its own state, a list box may mark another option, a field may drop what it cannot keep.
Each operation that sets a value hands back read-backs; the session runs them once the page
has settled, and each answers "" when the control shows what was asked, else a line naming
both (`asked Poster; the field shows A3 landscape`). A control that is gone, or that marks no
choice at all (a list box that only closes), is not read: nothing is claimed about it; nor is
a field whose page takes each key itself and empties it as they come (a terminal). Keys
pressed after the value (`--press Enter`) act on it (a to-do list takes the item and empties
its field): the read-back is then made before them.
"""

from __future__ import annotations

import re
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from playwright.async_api import Locator

from webshellfs.browser.values import FORMS, field_value
from webshellfs.errors import UsageError

ReadBack = Callable[[], Awaitable[str]]
ReadBacks = tuple[ReadBack, ...]

# What an element shows now, by what it is: {kind: select|box|radio|text|number|choices|label}.
# A select's chosen options, a box's tick, a radio group's checked radio, a field's value, an
# ARIA slider's value, an ARIA list box's (or radio group's) marked options; null when the
# element is gone or shows no value of its own.
_SHOWS = """
(found) => {
  const el = found[0];
  if (!el) return null;
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const role = el.getAttribute('role') || '';
  const labelOf = (i) => norm(i.labels && i.labels.length ? i.labels[0].textContent
                                                          : i.textContent);
  if (el.localName === 'select') {
    const chosen = Array.from(el.selectedOptions).map((o) => [o.value, norm(o.label || o.text)]);
    return { kind: 'select', multiple: el.multiple, chosen };
  }
  if (el.localName === 'input' && el.type === 'radio') {
    const scope = el.form || el.getRootNode();
    const checked = Array.from(scope.querySelectorAll('input[type=radio]'))
      .filter((r) => r.name === el.name && r.checked && (el.name || r === el));
    return { kind: 'radio', chosen: checked.map((r) => [r.value, labelOf(r)]) };
  }
  if (el.localName === 'input' && el.type === 'checkbox') {
    // A box with no label of its own beside a label whose for= names nothing: the page
    // listens to that label (a "toggle all"), and the box's tick is not what it shows.
    const next = el.nextElementSibling;
    const orphan = !(el.labels && el.labels.length) && next && next.localName === 'label'
      && next.htmlFor && !next.control;
    return orphan ? null : { kind: 'box', on: el.checked };
  }
  if (el.localName === 'input' || el.localName === 'textarea') {
    const completes = role === 'combobox' || el.hasAttribute('aria-autocomplete') || !!el.list;
    const log = window.__wsfsListeners;
    const keys = !!log && log.types(el).some((type) => type.startsWith('key'));
    return { kind: 'text', value: el.value, type: (el.type || '').toLowerCase(), completes,
             keys };
  }
  if (el.hasAttribute('aria-valuenow')) {
    return { kind: 'number', value: el.getAttribute('aria-valuenow'),
             text: el.getAttribute('aria-valuetext') || '' };
  }
  if (['checkbox', 'switch', 'menuitemcheckbox', 'radio', 'menuitemradio', 'option']
      .includes(role)) {
    const state = el.getAttribute('aria-checked') || el.getAttribute('aria-selected')
      || el.getAttribute('aria-pressed');
    return state === null ? null : { kind: 'box', on: state === 'true' };
  }
  const items = Array.from(
    el.querySelectorAll('[role=option], [role=radio], [role=menuitemradio]'));
  if (items.length) {
    const marked = (i) => i.getAttribute('aria-selected') === 'true'
      || i.getAttribute('aria-checked') === 'true';
    const marks = items.some((i) => i.hasAttribute('aria-selected')
      || i.hasAttribute('aria-checked'));
    return marks ? { kind: 'choices', chosen: items.filter(marked)
      .map((i) => [i.getAttribute('data-value') || norm(i.textContent), norm(i.textContent)]) }
      : null;
  }
  if (role === 'combobox') return { kind: 'label', value: norm(el.textContent) };
  if (el.isContentEditable) return { kind: 'text', value: el.innerText, type: '' };
  return null;
}
"""

CHOICE_SEPARATOR = "|"


def _squashed(text: str) -> str:
    return " ".join(text.split()).casefold()


def _same_choice(asked: str, value: str, label: str) -> bool:
    return asked == value or _squashed(asked) == _squashed(label)


def _choices_differ(asked: Sequence[str], chosen: Sequence[Sequence[str]]) -> bool:
    """Whether the chosen options are not exactly those asked (by value or label)."""
    if len(asked) != len(chosen):
        return True
    return not all(any(_same_choice(a, v, lab) for v, lab in chosen) for a in asked)


def _labels(chosen: Sequence[Sequence[str]]) -> str:
    return CHOICE_SEPARATOR.join(label or value for value, label in chosen) or "nothing chosen"


# Characters a field may add or drop as it formats what was typed (`555 1234` → `555-1234`).
_FORMATTING = re.compile(r"[\W_]+")


def _text_differs(asked: str, shown: str, kind: str) -> bool:
    """Whether a field shows another value than the one typed: the same in the field's own
    form (a date typed as 01/26/2010 shows 2010-01-26), or the same number, or the same words
    and digits once spacing, case and punctuation a field formats with are set aside."""
    if shown == asked:
        return False
    if kind in FORMS:
        try:
            return shown != field_value(kind, asked)
        except UsageError:
            return True
    try:
        return float(shown) != float(asked)
    except ValueError:
        pass
    return _FORMATTING.sub("", shown).casefold() != _FORMATTING.sub("", asked).casefold()


def _shown_text(value: str) -> str:
    return repr(value) if value.strip() != value or not value else value


Shows = dict[str, Any]


def _box(shows: Shows, asked: str, tick: bool | None) -> str:
    wanted = True if tick is None else tick
    if bool(shows["on"]) == wanted:
        return ""
    return f"asked {asked or 'on'}; the box is {'ticked' if shows['on'] else 'not ticked'}"


def _chosen(shows: Shows, asked: str, tick: bool | None) -> str:
    several = shows.get("multiple")
    parts = [p for p in asked.split(CHOICE_SEPARATOR) if p] if several else [asked]
    if not _choices_differ(parts, shows["chosen"]):
        return ""
    return f"asked {asked}; the field shows {_labels(shows['chosen'])}"


def _number(shows: Shows, asked: str, tick: bool | None) -> str:
    try:
        if float(shows["value"]) == float(asked):
            return ""
    except ValueError:
        pass
    return f"asked {asked}; the control shows {shows['text'] or shows['value']}"


def _label(shows: Shows, asked: str, tick: bool | None) -> str:
    """A select-only combobox: it shows its choice, maybe among other words."""
    if not shows["value"] or _squashed(asked) in _squashed(shows["value"]):
        return ""
    return f"asked {asked}; the field shows {shows['value']}"


def _typed(shows: Shows, asked: str, tick: bool | None) -> str:
    shown = str(shows["value"])
    if shows.get("completes") and _squashed(shown).startswith(_squashed(asked)):
        return ""  # an autocomplete finished the word typed (Ala → Alabama)
    if shows.get("keys") and len(shown) < len(asked) and asked.endswith(shown):
        return ""  # the page takes each key itself and empties the field (a terminal)
    if not _text_differs(asked, shown, str(shows.get("type") or "")):
        return ""
    return f"asked {_shown_text(asked)}; the field shows {_shown_text(shown)}"


# How each kind of control (see _SHOWS) is compared with what was asked.
COMPARE: dict[str, Callable[[Shows, str, bool | None], str]] = {
    "box": _box,
    "select": _chosen,
    "radio": _chosen,
    "choices": _chosen,
    "number": _number,
    "label": _label,
    "text": _typed,
}


def mismatch(shows: Shows | None, asked: str, tick: bool | None = None) -> str:
    """"" when the control shows what was asked, else `asked X; the field shows Y`. tick: for
    a box, whether it was to be ticked (asked is then the word given)."""
    return "" if shows is None else COMPARE[shows["kind"]](shows, asked, tick)


async def shows(element: Locator) -> dict[str, Any] | None:
    """What the element shows now (see _SHOWS); None when it is gone or shows no value."""
    found = await element.evaluate_all(_SHOWS)
    return dict(found) if found is not None else None


def reading(element: Locator, asked: str, tick: bool | None = None, name: str = "") -> ReadBack:
    """The read-back of one control: "" when it shows what was asked, else the difference
    (after `name: ` for a form's field)."""

    async def read() -> str:
        differs = mismatch(await shows(element), asked, tick)
        return f"{name}: {differs}" if differs and name else differs

    return read


def said(text: str) -> ReadBack:
    """A read-back already made (a form checks its fields before it is submitted)."""

    async def read() -> str:
        return text

    return read


async def unmet(checks: ReadBacks) -> tuple[str, ...]:
    """What each read-back found amiss, in order."""
    found = [await check() for check in checks]
    return tuple(line for line in found if line)

"""execute's inputs checked against the stored action record, before anything is done.

The record is what `page_meta` kept for the action (kind, control, label, fields). A wrong name,
a missing required input or a value that is not one of the choices raises UsageError naming the
valid ones, so the browser is only asked to act on inputs the page can take.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from webshellfs.contract.layout import EMPTY_VALUE, UNTICK, unticks
from webshellfs.errors import NotFoundError, UsageError

__all__ = ["TYPED_KINDS", "action_title", "check_inputs", "find_by_label"]

# Kinds that act on one control: its value may be given under the field's name or as value=….
SINGLE_VALUE_NAME = "value"
# Kinds whose single control needs a value to do anything.
NEEDS_VALUE = frozenset({"select"})
# Kinds a value is typed into: `fill` needs one; `execute` with none clicks into the field, as
# a person does (the page may listen for that click).
TYPED_KINDS = frozenset({"fill", "edit"})
# Field types whose value is a yes/no, never one of the listed choices.
TOGGLES = frozenset({"checkbox"})


def action_title(object_id: str, action: Mapping[str, Any]) -> str:
    """`A0003 button "Add to cart"`, `L0002 link "Tuition" → https://…/tuition`: how
    responses name an action or a link."""
    label = str(action.get("label", "")).replace('"', "'")
    title = f'{object_id} {action.get("control") or action.get("kind")} "{label}"'
    url = str(action.get("url") or "")
    return f"{title} → {url}" if url and url != action.get("label") else title


def _valid(fields: Sequence[Mapping[str, Any]]) -> str:
    return " ".join(str(f["shown"]) for f in fields)


# Field types that take several choices at once, joined as actions.tsv lists them.
SEVERAL_CHOICES = frozenset({"select-multiple"})
CHOICE_SEPARATOR = "|"


def _check_choice(field: Mapping[str, Any], value: str) -> None:
    choices = field.get("choices") or []
    if not choices:
        return
    if field.get("type") in TOGGLES:
        # One box takes on/off (or its own value); boxes sharing a name take the ones to tick.
        if len(choices) > 1 and not unticks(value, (str(c[0]) for c in choices)):
            for part in value.split(CHOICE_SEPARATOR):
                _check_one_choice(field, choices, part, " (off unticks them all)")
        return
    several = field.get("type") in SEVERAL_CHOICES
    for part in value.split(CHOICE_SEPARATOR) if several else (value,):
        _check_one_choice(field, choices, part)


def _check_one_choice(
    field: Mapping[str, Any], choices: Sequence[Any], value: str, more: str = ""
) -> None:
    wanted = value.casefold()
    for choice_value, choice_label in choices:
        if value == choice_value or wanted == str(choice_label).casefold():
            return
    listed = " | ".join(
        f"{v or EMPTY_VALUE}={lab}" if lab and lab != v else v for v, lab in choices
    )
    raise UsageError(f"no choice {value!r} for {field['name']}; choices: {listed}{more}")


def _holds_value(field: Mapping[str, Any]) -> bool:
    """Whether the field holds something now: a typed value, or a choice that is not empty (a
    select's `current=7`, a ticked box); a required one that does is not missing."""
    return bool(field.get("value")) or any(field.get("selected") or ())


# Field types whose value is a number the page bounds with min and max.
NUMERIC = frozenset({"number", "range"})


def _check_range(field: Mapping[str, Any], value: str) -> None:
    """A number or range field's value: a number within its min..max, or UsageError saying
    the range (so nothing is typed that the page would refuse or clamp in silence)."""
    if field.get("type") not in NUMERIC:
        return
    limits = field.get("limits") or {}
    low, high = limits.get("min", ""), limits.get("max", "")
    try:
        number = float(value)
    except ValueError:
        raise UsageError(f"{field['name']} takes a number, not {value!r}") from None
    try:
        outside = (low and number < float(low)) or (high and number > float(high))
    except ValueError:
        return  # a bound the page wrote that is no number: the browser decides
    if outside:
        raise UsageError(
            f"{value} is outside the range of {field['name']}: {low or '…'}..{high or '…'}"
        )


def _field_label(field: Mapping[str, Any]) -> str:
    """The words a person reads for a field: its label, else a lone checkbox's own label
    (`<label><input type=checkbox name=active> Active</label>`: Active=off)."""
    choices = field.get("choices") or []
    if field.get("label") or field.get("type") not in TOGGLES or len(choices) != 1:
        return str(field.get("label") or "")
    return str(choices[0][1])


def _folded(words: str) -> str:
    return " ".join(words.split()).casefold()


def _by_names(values: dict[str, str], fields: Sequence[Mapping[str, Any]]) -> dict[str, str]:
    """Inputs given by a field's label as a person reads it (`Nickname=Ziggy`, `"First
    name"=Ada`) put under the field's own name (`field2`); a box of a group by its own label
    (`Remote=on`, `"Select Carl Moss"=on`) ticked or unticked in what the group holds now (or
    in what the command gives the group); the others as given."""
    names = {str(f.get("name")) for f in fields} | {SINGLE_VALUE_NAME}
    by_label = {_folded(_field_label(f)): str(f["name"])
                for f in fields if _field_label(f) and f.get("name")}
    boxes = {_folded(str(label)): (field, str(value)) for field in fields
             if field.get("type") in TOGGLES and len(field.get("choices") or []) > 1
             for value, label in field["choices"]}
    named: dict[str, str] = {}
    toggled: dict[str, tuple[Mapping[str, Any], list[tuple[str, bool]]]] = {}
    for name, value in values.items():
        if name in names or _folded(name) in by_label or _folded(name) not in boxes:
            named[name if name in names else by_label.get(_folded(name), name)] = value
            continue
        field, box = boxes[_folded(name)]
        choices = [str(v) for v, _ in field["choices"]]
        toggled.setdefault(str(field["name"]), (field, []))[1].append(
            (box, not unticks(value, choices)))
    for group, (field, changes) in toggled.items():
        choices = [str(v) for v, _ in field["choices"]]
        given = named.get(group)
        ticked = set(field.get("selected") or ()) if given is None else (
            set() if unticks(given, choices) else set(given.split(CHOICE_SEPARATOR)))
        for box, tick in changes:
            ticked = ticked | {box} if tick else ticked - {box}
        named[group] = CHOICE_SEPARATOR.join(c for c in choices if c in ticked) or UNTICK
    return named


def check_inputs(
    object_id: str, action: Mapping[str, Any], inputs: Sequence[tuple[str, str]],
    submitting: bool = True,
) -> dict[str, str]:
    """The name=value inputs as the browser takes them; UsageError (nothing done) if they do
    not fit the action. A form filled and left unsubmitted (`fill`) needs no required input."""
    fields: list[Mapping[str, Any]] = list(action.get("fields") or [])
    title = action_title(object_id, action)
    if len(dict(inputs)) != len(inputs):
        raise UsageError(f"an input is given twice; {title} takes: {_valid(fields) or 'no inputs'}")
    values = _by_names(dict(inputs), fields)
    if not fields:
        if values:
            raise UsageError(f"{title} takes no inputs; run it as: execute … {object_id}")
        return values
    by_name = {str(f["name"]): f for f in fields if f.get("name")}
    single = action.get("kind") != "submit" and len(fields) == 1
    if single:
        field = fields[0]
        allowed = {str(field.get("name") or SINGLE_VALUE_NAME), SINGLE_VALUE_NAME}
        unknown = sorted(set(values) - allowed)
        if unknown:
            raise UsageError(
                f"unknown input {unknown[0]!r} for {title}; valid inputs: {_valid(fields)}"
            )
        kind = action.get("kind")
        if not values and (kind in NEEDS_VALUE or (kind in TYPED_KINDS and not submitting)):
            raise UsageError(f"{title} needs a value; valid inputs: {_valid(fields)}")
        for value in values.values():
            _check_choice(field, value)
            _check_range(field, value)
        return values
    unknown = sorted(set(values) - set(by_name))
    if unknown:
        raise UsageError(
            f"unknown input {unknown[0]!r} for {title}; valid inputs: {_valid(fields)}"
        )
    missing = [
        name
        for name, f in by_name.items()
        if submitting and f.get("required") and name not in values and not _holds_value(f)
    ]
    if missing:
        raise UsageError(
            f"missing required input {missing[0]!r} for {title}; valid inputs: {_valid(fields)}"
        )
    for name, value in values.items():
        _check_choice(by_name[name], value)
        _check_range(by_name[name], value)
    return values


# How a label given for a control is matched to the labels the page shows, most exact first.
_LABEL_MATCHES: tuple[Callable[[str, str], bool], ...] = (
    lambda shown, wanted: shown == wanted,
    lambda shown, wanted: shown.startswith(wanted),
    lambda shown, wanted: wanted in shown,
)
LABELS_LISTED = 8


def _labelled(meta: Mapping[str, Any]) -> tuple[list[tuple[str, str]], list[tuple[str, str]]]:
    """(id, how an answer names it) of every action, then of every link, with its label."""
    actions = [(object_id, action_title(object_id, action))
               for object_id, action in (meta.get("actions") or {}).items()]
    links = [(link_id, f'{link_id} link "{text}"')
             for link_id, text in (meta.get("link_texts") or {}).items()]
    return actions, links


def _label_of(title: str) -> str:
    """The label inside `A0003 button "Add person"` (or `… → URL`), folded for matching."""
    return " ".join(title.split('"', 1)[1].rsplit('"', 1)[0].split()).casefold()


def _one_per_destination(
    found: list[tuple[str, str]], meta: Mapping[str, Any]
) -> list[tuple[str, str]]:
    """The fitting controls, a link going where an earlier one so labelled goes left out: a
    page's nav and its text both offering "Add person" to one URL are one way to go."""
    urls = meta.get("links") or {}
    seen: set[tuple[str, str]] = set()
    kept = []
    for object_id, title in found:
        url = urls.get(object_id) if object_id.startswith("L") else None
        if url and (url, _label_of(title)) in seen:
            continue
        if url:
            seen.add((url, _label_of(title)))
        kept.append((object_id, title))
    return kept


def find_by_label(meta: Mapping[str, Any], label: str, page: str) -> str:
    """The id of the one control (an action before a link) whose label is label: the same
    words first, then a label beginning with them, then one holding them. NotFoundError when
    none is, UsageError naming them when several are equally near."""
    wanted = " ".join(label.split()).casefold()
    for matches in _LABEL_MATCHES:
        for group in _labelled(meta):
            found = _one_per_destination(
                [(i, title) for i, title in group if matches(_label_of(title), wanted)], meta)
            if len(found) == 1:
                return found[0][0]
            if found:
                listed = "; ".join(title for _, title in found[:LABELS_LISTED])
                left = len(found) - LABELS_LISTED
                more = f" … {left} more" if left > 0 else ""
                raise UsageError(f"{len(found)} controls on {page} are labelled {label!r}: "
                                 f"{listed}{more}; name one by its id")
    raise NotFoundError(f"no control on {page} is labelled {label!r}; see {page}/actions.tsv "
                        "and links.tsv")

"""`search` and `choose`: which control of a stored page a shortcut uses, read from the page's
record of its actions and links (the engine's page meta), by tables of rules.

    search_control(meta)       the search box: a form with a search field, else a lone field
                               that reads as one
    named(meta, words)         the control whose label is those words (exactly, then as a
                               start, then anywhere in it; case and spacing do not count)
    results_url(action, words) a GET search form's results address, for a mount with no browser
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode, urlsplit, urlunsplit

__all__ = ["Found", "is_search_form", "named", "results_url", "search_control", "suggestion"]

# Field names and words that say a field takes a search.
SEARCH_NAMES = frozenset({"q", "query", "search", "s", "keywords", "keyword", "term", "k", "text",
                          "suche", "buscar", "recherche", "szukaj", "cerca", "pesquisa", "zoeken"})
SEARCH_WORDS = ("search", "suche", "buscar", "recherche", "szukaj", "cerca", "pesquisa",
                "zoeken", "find")
SEARCH_TYPES = frozenset({"search"})
TEXT_TYPES = frozenset({"search", "text", ""})
LONE_FIELD_CONTROLS = frozenset({"searchbox", "combobox", "search", "text", "textbox"})
# Field types a form sends as they are (not typed by the search).
KEPT_TYPES = frozenset({"hidden", "select", "radio", "checkbox"})


@dataclass(frozen=True)
class Found:
    """A control of the page: its id, its record, and for a form the field the words go in."""

    object_id: str
    record: Mapping[str, Any]
    field: str = ""


def _squash(text: str) -> str:
    return " ".join(str(text).split()).casefold()


def _reads_search(*texts: str) -> bool:
    return any(word in _squash(text) for text in texts for word in SEARCH_WORDS)


def _search_field(action: Mapping[str, Any]) -> str:
    """The name of the field of a form that takes the search words, or ""."""
    fields = [f for f in action.get("fields") or [] if f.get("name")]
    ranked = (
        [f for f in fields if f.get("type") in SEARCH_TYPES],
        [f for f in fields if str(f["name"]).casefold() in SEARCH_NAMES
         and f.get("type") in TEXT_TYPES],
        [f for f in fields if f.get("type") in TEXT_TYPES and _reads_search(
            str(f.get("label", "")), str(action.get("label", "")))],
    )
    for found in ranked:
        if found:
            return str(found[0]["name"])
    return ""


def is_search_form(label: str, fields: list[tuple[str, str, str]]) -> bool:
    """Whether a form (its label; its fields' names, types and labels) is a search box."""
    action = {"label": label, "fields": [{"name": n, "type": t, "label": lb}
                                         for n, t, lb in fields]}
    return bool(_search_field(action))


def search_control(meta: Mapping[str, Any]) -> Found | None:
    """The page's search box: a form with a search field (a GET one first), else a lone
    field labelled as a search."""
    actions = (meta.get("actions") or {}).items()
    forms = [(action_id, a, _search_field(a)) for action_id, a in actions
             if a.get("kind") == "submit"]
    forms = [form for form in forms if form[2]]
    forms.sort(key=lambda form: not str(form[1].get("target") or "").startswith("http")
               or "POST" in str(form[1].get("context", "")))
    if forms:
        action_id, action, field = forms[0]
        return Found(action_id, action, field)
    for action_id, action in actions:
        if action.get("kind") == "fill" and action.get("control") in LONE_FIELD_CONTROLS and (
                action.get("control") == "searchbox" or _reads_search(str(action.get("label")))):
            return Found(action_id, action)
    return None


def named(meta: Mapping[str, Any], words: str, *, links: bool = True,
          exact: bool = False) -> Found | None:
    """The action (or link) labelled words: an exact label first, then (unless exact) one
    starting with them, then one holding them; the first in page order at each step."""
    wanted = _squash(words)
    candidates = [(action_id, a, str(a.get("label", "")))
                  for action_id, a in (meta.get("actions") or {}).items()]
    if links:
        candidates += [(link_id, {"kind": "navigate", "control": "link", "label": text},
                        str(text)) for link_id, text in (meta.get("link_texts") or {}).items()]
    for test in (str.__eq__,) if exact else (str.__eq__, str.startswith, str.__contains__):
        for object_id, record, label in candidates:
            if wanted and test(_squash(label), wanted):
                return Found(object_id, record)
    return None


def suggestion(offered: Mapping[str, Mapping[str, Any]], words: str) -> Found | None:
    """Among the controls typing made appear, the suggestion that reads exactly the words: an
    option or menu item of its own (`field` ""), or a choice of a list box (`field` is the
    choice's label, given as its value)."""
    own = named({"actions": offered}, words, links=False, exact=True)
    if own is not None:
        return own
    wanted = _squash(words)
    for action_id, action in offered.items():
        if action.get("kind") != "select":
            continue
        for field in action.get("fields") or []:
            for _value, label in field.get("choices") or []:
                if _squash(label) == wanted:
                    return Found(action_id, action, str(label))
    return None


def results_url(action: Mapping[str, Any], field: str, words: str) -> str:
    """The address a GET search form sends its words to, its other fields as they are."""
    pairs = [(str(f["name"]), words if f["name"] == field else str(f.get("value") or ""))
             for f in action.get("fields") or []
             if f.get("name") and (f["name"] == field or f.get("type") in KEPT_TYPES)]
    parts = urlsplit(str(action.get("target") or ""))
    return urlunsplit(parts._replace(query=urlencode(pairs), fragment=""))

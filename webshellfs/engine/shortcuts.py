"""`search` and `choose`: one command where a person's way takes two or three, made of the
engine's own `open` and `execute` (so their answers are the usual ones, after a line saying
what the shortcut did). Which control to use is decided by webshellfs/explore/shortcuts.py;
an explored site's map gives `search` its search page and `choose` what a menu was seen to do:
whether it opens on a click or on pointing at it (a hover menu, a mega menu), and which item
of a nested menu holds the one asked for. Without a map the live page decides: a control by
that label is clicked, anything else by those words (a link, a heading over a CSS dropdown) is
pointed at.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import trio

from webshellfs import ctl
from webshellfs.browser.records import WordsNotShown
from webshellfs.contract.addresses import PageId
from webshellfs.contract.layout import clean_field
from webshellfs.engine.inputs import action_title
from webshellfs.errors import NotFoundError, UsageError
from webshellfs.explore import Behavior, map_address, site_of
from webshellfs.explore.shortcuts import (
    Found,
    named,
    results_url,
    search_control,
    suggestion,
)

if TYPE_CHECKING:
    from webshellfs.engine import Engine

__all__ = ["run_choose", "run_search"]

LABELS_SHOWN = 12
HOVER = "hover "  # how behaviors.tsv begins a control pointed at rather than clicked
NESTED = " > "  # between a menu and its item that opened a submenu, in behaviors.tsv
_IDS = re.compile(r"\b[LA]\d{4} ")


async def _search_page(engine: Engine, url: str, lines: list[str]) -> str:
    """The page whose search box serves the site of url: the one its map names, else url
    opened now."""
    state = await trio.to_thread.run_sync(engine.explorer.saved, site_of(url))
    forms = [form for form in (state.forms if state is not None else []) if form.search]
    if forms:
        lines.append(f"search box of {site_of(url)}: {forms[0].page} {forms[0].action} "
                     f"(from {map_address(site_of(url))}/map.md)")
        return forms[0].page
    opened = await engine.command_open(url)
    lines.append(opened.rstrip("\n"))
    return opened.split()[0]


async def run_search(engine: Engine, command: ctl.Search) -> str:
    lines: list[str] = []
    page = command.page or await _search_page(engine, command.url, lines)
    head = "".join(f"{line}\n" for line in lines)
    engine.require_page(page)
    meta = await trio.to_thread.run_sync(engine.store.page_meta, page)
    found = search_control(meta)
    if found is None:
        raise NotFoundError(f"{page} has no search box (no form with a search field, no field "
                            f"labelled as a search); see {page}/actions.tsv")
    title = action_title(found.object_id, found.record)
    words = command.words
    if engine.live is None:
        target = str(found.record.get("target") or "")
        if not (found.field and target.startswith(("http:", "https:"))
                and "POST" not in str(found.record.get("context", ""))):
            raise UsageError(f"{title} on {page} is not a GET form, and this mount has no "
                             "browser to type into it")
        said = (f"searched with {title} on {page}: {found.field}={words!r}, its results "
                "address opened (no live browser)\n")
        return head + said + await engine.command_open(
            results_url(found.record, found.field, words))
    if engine.live.moved_on_from(page):
        # Acting on a page its tab has left acts where the tab is now, which may hold no such
        # box: a search names the page whose box it means, so that page is opened again.
        opened = await engine.command_open(engine.require_page(page).url)
        head += f"{page} is in no tab now: its URL opened again\n{opened}"
        page = PageId(opened.split()[0])
        found = search_control(await trio.to_thread.run_sync(engine.store.page_meta, page))
        if found is None:
            raise NotFoundError(f"{page}, {command.page} opened again, has no search box now")
    return head + await _type_and_go(engine, page, found, words)


async def _type_and_go(engine: Engine, page: PageId, found: Found, words: str) -> str:
    """Type the words as a person does (key by key where the field listens), take the
    suggestion that reads exactly them if one appeared, else submit (the form's button, or
    Enter in a lone field)."""
    live = engine.require_live("search")
    record = engine.require_page(page)
    title = action_title(found.object_id, found.record)
    name = found.field or "value"
    typed = await live.outcome_of(
        ctl.Execute(page, found.object_id, ((name, words),), submit=False), record)
    state = typed.record.page_id
    if typed.how == "page":  # the page went on by itself while the words were typed
        return (f"typed {words!r} into {title} on {page}: it led to {state} "
                f"{typed.record.url}\nnext: cat {state}/_map.md\n")
    before = {(a.get("kind"), a.get("label")) for a in (await _meta(engine, page)).values()}
    after = await _meta(engine, state)
    offered = {k: a for k, a in after.items() if (a.get("kind"), a.get("label")) not in before}
    pick = suggestion(offered, words)
    if pick is not None:
        line = (f"typed {words!r} into {title} on {page} → {state}; took the suggestion "
                f"{pick.field or pick.record.get('label')!r} "
                f"({action_title(pick.object_id, pick.record)})")
        take = (ctl.Execute(state, pick.object_id, (("value", pick.field),)) if pick.field
                else ctl.Execute(state, pick.object_id, gesture="click"))
        return line + "\n" + await engine.command_execute(take)
    if found.field:
        line = (f"searched with {title} on {page}: typed {found.field}={words!r} → {state}, "
                "then submitted there")
        go = ctl.Execute(state, found.object_id, ((found.field, words),))
    else:
        line = f"searched with {title} on {page}: typed {words!r} → {state}, then Enter there"
        go = ctl.Execute(state, found.object_id, gesture="press", keys=("Enter",))
    return line + "\n" + await engine.command_execute(go)


async def _meta(engine: Engine, page: str) -> dict[str, dict[str, Any]]:
    meta = await trio.to_thread.run_sync(engine.store.page_meta, page)
    return dict(meta.get("actions") or {})


def _labels(meta: dict) -> str:  # type: ignore[type-arg]
    labels = [clean_field(str(a.get("label", ""))) for a in (meta.get("actions") or {}).values()]
    labels += [clean_field(str(t)) for t in (meta.get("link_texts") or {}).values()]
    shown = ", ".join(repr(label) for label in labels[:LABELS_SHOWN] if label)
    return shown + (f" … {len(labels) - LABELS_SHOWN} more" if len(labels) > LABELS_SHOWN else "")


async def _recorded(engine: Engine, url: str) -> list[Behavior]:
    """What the site's map says its controls did, if it was explored."""
    state = await trio.to_thread.run_sync(engine.explorer.saved, site_of(url))
    return list(state.behaviors) if state is not None else []


def _label(control: str) -> str:
    """The label of the last control in a behaviour's `hover "Company" > L0004 link "About"`."""
    return control.rpartition(NESTED)[2].rstrip('"').rpartition('"')[2]


def _said(behavior: Behavior) -> str:
    return (f"the map says {_IDS.sub('', behavior.control)} {behavior.effect} "
            f"(explored on {behavior.page})")


def _under(behaviors: list[Behavior], top: Behavior, item: str) -> str:
    """The item of top's menu whose submenu holds item, as the map recorded it; "" if none."""
    wanted = " ".join(item.split()).casefold()
    for behavior in behaviors:
        if behavior.control.startswith(top.control + NESTED) and any(
                " ".join(words.split()).casefold() == wanted
                for _, items in behavior.menu for words, _ in items):
            return _label(behavior.control)
    return ""


async def _open(engine: Engine, page: PageId, words: str, meta: dict[str, Any], hover: bool,
                used: set[str]) -> tuple[str, Any]:
    """Open what reads `words` on page: a click on the control, or the pointer on the control,
    link or words. Returns the line saying so and the outcome."""
    live = engine.require_live("choose")
    found = named(_without(meta, used), words, links=hover)
    if found is None and not hover:
        raise NotFoundError(f"no control on {page} is labelled {words!r}; its controls and "
                            f"links: {_labels(meta)}")
    if found is not None:
        used.add(found.object_id)
        what = action_title(found.object_id, found.record)
        execute = ctl.Execute(page, found.object_id, gesture="hover" if hover else "")
    else:
        what = f'"{words}"'
        execute = ctl.Execute(page, "", gesture="hover", text=words)
    try:
        outcome = await live.outcome_of(execute, engine.require_page(page))
    except WordsNotShown as error:
        raise NotFoundError(f"nothing on {page} reads {words!r} to point at ({error}); its "
                            f"controls and links: {_labels(meta)}") from None
    verb = "pointed at" if hover else "opened"
    unchanged = " (unchanged)" if outcome.how == "unchanged" else ""
    return f"{verb} {what} on {page} → {outcome.record.page_id}{unchanged}", outcome


async def run_choose(engine: Engine, command: ctl.Choose) -> str:
    page = command.page
    record = engine.require_page(page)
    meta = await trio.to_thread.run_sync(engine.store.page_meta, page)
    menu = named(meta, command.menu, links=False)
    if menu is not None and menu.record.get("kind") == "select":  # shows its options already
        execute = ctl.Execute(page, menu.object_id, (("value", command.item),))
        title = action_title(menu.object_id, menu.record)
        return f"chose {command.item!r} in {title} on {page}\n" + await engine.command_execute(
            execute)
    engine.require_live("choose")
    behaviors = await _recorded(engine, record.url)
    wanted = " ".join(command.menu.split()).casefold()
    top = next((b for b in behaviors if NESTED not in b.control
                and _label(b.control).casefold() == wanted), None)
    # Pointed at when the map saw it open so, or when no control has that label.
    hover = top.control.startswith(HOVER) if top is not None else (
        menu is None or menu.record.get("kind") == "hover")
    lines = [_said(top)] if top is not None else []
    used: set[str] = set()
    line, outcome = await _open(engine, page, command.menu, meta, hover, used)
    lines.append(line)
    opened = outcome.record.page_id
    if outcome.how == "page":
        return "\n".join([*lines, f"it led to another page, {opened} {outcome.record.url}; "
                          "nothing chosen"]) + "\n"
    # `Shoes > Trail shoe`: each step but the last opens a nested menu; the map may know
    # which item's submenu holds the one asked for.
    *steps, last = [step.strip() for step in command.item.split(NESTED)]
    state_meta = await trio.to_thread.run_sync(engine.store.page_meta, opened)
    if not steps and top is not None and named(_without(state_meta, used), last) is None:
        holder = _under(behaviors, top, last)
        steps = [holder] if holder else []
    for step in steps:
        line, outcome = await _open(engine, opened, step, state_meta, hover, used)
        lines.append(line)
        opened = outcome.record.page_id
        state_meta = await trio.to_thread.run_sync(engine.store.page_meta, opened)
    item = named(_without(state_meta, used), last)
    if item is None:
        raise NotFoundError("\n".join(lines) + f"\nno item reads {last!r} on {opened}; "
                            f"its controls and links: {_labels(state_meta)}")
    lines.append(f"picked {action_title(item.object_id, item.record)}")
    return "\n".join(lines) + "\n" + await engine.command_execute(
        ctl.Execute(opened, item.object_id))


def _without(meta: dict[str, Any], used: set[str]) -> dict[str, Any]:
    """A page's meta without the controls a shortcut already opened, nor the links of a menu
    still closed (a person cannot pick them until it opens)."""
    actions = {k: v for k, v in (meta.get("actions") or {}).items() if k not in used}
    closed = set(meta.get("closed_links") or ())
    texts = {k: v for k, v in (meta.get("link_texts") or {}).items() if k not in closed}
    return {**meta, "actions": actions, "link_texts": texts}

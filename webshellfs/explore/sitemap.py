"""The map of an explored site as files, `_sites/<site>/`: map.md (the first read: small, with
the details one file away), pages.tsv, templates.tsv, behaviors.tsv, menus.tsv (every item
of every menu opened, with its address) and paths.tsv.

Pure rendering from the state; the store keeps the files with the state in one write.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Sequence
from datetime import UTC, datetime
from urllib.parse import urlsplit

from webshellfs.contract.layout import clean_field
from webshellfs.explore.state import PageEntry, SiteState, Visit
from webshellfs.explore.templates import address_pattern

__all__ = ["SITES_TOP", "map_address", "render_files", "site_directory"]

SITES_TOP = "_sites"
MAP_FILE = "map.md"
# How much map.md shows of each list before pointing to the file with all of it.
NAVIGATION_SHOWN = 15
SECTIONS_SHOWN = 12
SECTION_TITLES = 3
TEMPLATES_SHOWN = 12
FORMS_SHOWN = 8
BEHAVIORS_SHOWN = 15
MENUS_SHOWN = 10
SKIPS_SHOWN = 6
TITLE_CHARS = 50


def site_directory(site: str) -> str:
    """A site's directory name: ASCII (an international host in its punycode form), its port
    after `-` (`127.0.0.1-8080`)."""
    host, _, port = site.partition(":")
    ascii_host = host.encode("idna").decode("ascii") if not host.isascii() else host
    return ascii_host + (f"-{port}" if port else "")


def map_address(site: str) -> str:
    return f"{SITES_TOP}/{site_directory(site)}"


def _tsv(columns: Sequence[str], rows: Iterable[Sequence[object]]) -> bytes:
    lines = ["\t".join(columns)]
    lines += ["\t".join(clean_field(str(value)) for value in row) for row in rows]
    return ("\n".join(lines) + "\n").encode("utf-8")


def _path_of(url: str) -> str:
    parts = urlsplit(url)
    return parts.path + (f"?{parts.query}" if parts.query else "")


def written_at(ns: int) -> str:
    return datetime.fromtimestamp(ns / 1e9, UTC).strftime("%Y-%m-%d %H:%M UTC")


def _cut(text: str) -> str:
    return text if len(text) <= TITLE_CHARS else text[: TITLE_CHARS - 1] + "…"


def _more(total: int, shown: int, where: str) -> list[str]:
    return [f"- … {total - shown} more in {where}"] if total > shown else []


def _navigation(state: SiteState) -> list[str]:
    never = {s.what.rpartition(" → ")[2] for s in state.skipped}
    lines = ["## Top navigation (the start page's header and menus)"]
    for region, text, url in state.navigation[:NAVIGATION_SHOWN]:
        entry = state.pages.get(url.partition("#")[0])
        if entry is not None and entry.page:
            where = f" ({entry.page}, {entry.template})"
        elif entry is not None:
            where = f" ({entry.status})"
        else:
            where = " (never followed: see Skipped)" if url in never else ""
        lines.append(f"- {_cut(text) or '(no text)'} → {_path_of(url)}{where}  [{region}]")
    if not state.navigation:
        start = state.pages.get(state.start.partition("#")[0])
        contents = f"{start.page}/links.tsv" if start is not None and start.page else "its links"
        lines.append(f"- none: the start page has no header or nav region; {contents} are the "
                     "site's contents (the pages of depth 1 in pages.tsv)")
    lines += _more(len(state.navigation), NAVIGATION_SHOWN, "pages.tsv")
    return lines


def _directory(item: PageEntry | Visit) -> str:
    parts = _path_of(item.url).lstrip("/").split("/")
    return f"/{parts[0]}/" if len(parts) > 1 else "/ (top level)"


def _sections(state: SiteState) -> list[str]:
    """Pages stored or listed, grouped by the first part of their path."""
    groups: dict[str, list[str]] = {}
    for item in (*state.stored(), *state.later.pending()):
        label = (f"{item.page} {_cut(item.title)}" if isinstance(item, PageEntry)
                 else _path_of(item.url))
        groups.setdefault(_directory(item), []).append(label)
    lines = ["## Sections (pages by the first part of their path)"]
    for name, labels in list(groups.items())[:SECTIONS_SHOWN]:
        more = f" … {len(labels) - SECTION_TITLES} more" if len(labels) > SECTION_TITLES else ""
        lines.append(f"- {name} {len(labels)} pages: {'; '.join(labels[:SECTION_TITLES])}{more}")
    lines += _more(len(groups), SECTIONS_SHOWN, "pages.tsv")
    return lines


def _addresses(state: SiteState) -> dict[str, str]:
    """Each template's address pattern (`/product/{n}.html`) over its pages stored and listed."""
    urls: dict[str, list[str]] = {}
    for entry in state.stored():
        urls.setdefault(entry.template, []).append(entry.url)
    for visit in state.later.pending():
        urls.setdefault(visit.like, []).append(visit.url)
    return {template: address_pattern(found) for template, found in urls.items()}


def _templates(state: SiteState, counts: Counter[str], listed: Counter[str],
               addresses: dict[str, str]) -> list[str]:
    lines = ["## Templates (pages with one structure; their controls were tried on the first two)"]
    for template in state.templates[:TEMPLATES_SHOWN]:
        more = listed[template.id]
        extra = f", {more} more listed by their address" if more else ""
        lines.append(f"- {template.id} {addresses.get(template.id, '')}: {counts[template.id]} "
                     f"stored{extra}; e.g. {_path_of(template.example)}: "
                     f"{_cut(template.outline) or '(no headings)'}")
    lines += _more(len(state.templates), TEMPLATES_SHOWN, "templates.tsv")
    return lines


def _forms(state: SiteState) -> list[str]:
    lines = ["## Search box and forms (never submitted by the exploration)"]
    ordered = sorted(state.forms, key=lambda f: not f.search)
    for form in ordered[:FORMS_SHOWN]:
        kind = "search" if form.search else "form"
        lines.append(f"- {kind}: {form.page} {form.action} → {form.address}  "
                     f"inputs: {form.inputs}")
    if not state.forms:
        lines.append("- none found")
    lines += _more(len(state.forms), FORMS_SHOWN, "behaviors.tsv")
    return lines


def _menus(state: SiteState) -> list[str]:
    """What each menu holds, a mega menu's columns by heading (cut; all of it in menus.tsv)."""
    menus = [b for b in state.behaviors if b.menu]
    if not menus:
        return []
    lines = ["## Menus (what each opens: hover = on pointing, else on a click; every item "
             "with its address in menus.tsv)"]
    for behavior in menus[:MENUS_SHOWN]:
        lines.append(f"- {behavior.page} {behavior.control} [{behavior.where}]: "
                     f"{behavior.effect}")
    lines += _more(len(menus), MENUS_SHOWN, "menus.tsv")
    return lines


def _behaviors(state: SiteState) -> list[str]:
    lines = ["## Controls (each tried once; where: the chrome region or a template)"]
    others = [b for b in state.behaviors if not b.menu]
    for behavior in others[:BEHAVIORS_SHOWN]:
        where = behavior.where if behavior.where != "content" else behavior.template
        lines.append(f"- {behavior.page} {behavior.control} [{where}]: {behavior.effect}")
    if not state.behaviors:
        lines.append("- none tried (no live browser, or no menus, tabs or disclosures)")
    elif not others:
        lines.append("- none but the menus above")
    lines += _more(len(others), BEHAVIORS_SHOWN, "behaviors.tsv")
    return lines


def _skips(state: SiteState) -> list[str]:
    lines = [f"## Skipped for safety ({len(state.skipped)}: never pressed, followed or sent)"]
    lines += [f"- {s.page} {s.what}: {s.why}" for s in state.skipped[:SKIPS_SHOWN]]
    lines += _more(len(state.skipped), SKIPS_SHOWN, "behaviors.tsv")
    return lines


def render_map(state: SiteState) -> str:
    stored = state.stored()
    counts = Counter(p.template for p in stored)
    listed = Counter(v.like for v in state.later.pending())
    status = "finished" if state.finished else "not finished (`explore --resume` continues)"
    head = [
        f"# Site map: {state.site}",
        f"explored: {written_at(state.started_ns)} from {state.start}; map written "
        f"{written_at(state.updated_ns or state.started_ns)}; {status}",
        f"{len(stored)} pages stored, {sum(listed.values())} listed, {len(state.templates)} "
        f"templates, {len(state.behaviors)} behaviours, {state.requests} requests in "
        f"{state.seconds:.0f} s",
        "bounds: " + (" · ".join(state.stopped) if state.stopped else
                      f"none hit (--pages {state.bounds.pages}, --depth {state.bounds.depth})")
        + (f" · depth: {len(state.too_deep)} addresses deeper than --depth "
           f"{state.bounds.depth} not followed" if state.too_deep else ""),
        "files here: pages.tsv (every address, its page and template), templates.tsv, "
        "behaviors.tsv (what each control did, what was skipped), menus.tsv (what each menu "
        "holds), paths.tsv (the clicks to each page)",
        f"find a page: grep -i 'WORDS' {map_address(state.site)}/pages.tsv (by title), or "
        "grep -rli 'WORDS' N*/content/ (by its text: every page stored is there)",
    ]
    parts = [head, _navigation(state), _sections(state),
             _templates(state, counts, listed, _addresses(state)), _forms(state),
             _menus(state), _behaviors(state), _skips(state)]
    return "\n\n".join("\n".join(part) for part in parts if part) + "\n"


def _not_visited(state: SiteState) -> list[tuple[Visit, str]]:
    """The addresses known and not visited, with why: a list's items not reached (`listed`),
    the queue when a bound stopped the walk, the links past the depth bound."""
    return ([(v, "listed") for v in state.later.pending()]
            + [(v, "not visited yet") for v in state.queue.pending()]
            + [(v, f"past --depth {state.bounds.depth}") for v in state.too_deep])


def render_files(state: SiteState) -> dict[str, bytes]:
    """Every file of `_sites/<site>/`, by name."""
    counts = Counter(p.template for p in state.stored())
    listed = Counter(v.like for v in state.later.pending())
    addresses = _addresses(state)
    waiting = _not_visited(state)
    pages = _tsv(("url", "title", "template", "depth", "page", "status"),
                 [(p.url, p.title, p.template, p.depth, p.page, p.status)
                  for p in state.pages.values()]
                 + [(v.url, "", v.like, v.depth, "", why) for v, why in waiting])
    templates = _tsv(("template", "pages", "listed", "addresses", "example", "outline",
                      "structure"),
                     ((t.id, counts[t.id], listed[t.id], addresses.get(t.id, ""), t.example,
                       t.outline, t.signature) for t in state.templates))
    behaviors = _tsv(("page", "template", "control", "effect"),
                     [(b.page, b.where if b.where != "content" else b.template, b.control,
                       b.effect) for b in state.behaviors]
                     + [(f.page, "form", f.action, f"never submitted: {f.address} {f.inputs}")
                        for f in state.forms]
                     + [(s.page, "skipped", s.what, f"never used: {s.why}")
                        for s in state.skipped])
    paths = _tsv(("url", "page", "steps"),
                 [(p.url, p.page, " > ".join(p.path)) for p in state.pages.values()
                  if p.status == "stored" or p.status.startswith("redirects")]
                 + [(v.url, "", " > ".join(v.path)) for v, why in waiting if why == "listed"])
    menus = _tsv(("page", "menu", "column", "item", "url"),
                 ((b.page, b.control, heading, words, url) for b in state.behaviors
                  for heading, items in b.menu for words, url in items))
    return {MAP_FILE: render_map(state).encode("utf-8"), "pages.tsv": pages,
            "templates.tsv": templates, "behaviors.tsv": behaviors, "menus.tsv": menus,
            "paths.tsv": paths}

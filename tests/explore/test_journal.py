"""An exploration's checkpoints: a step writes what the walk added since the last one, and a
snapshot with its steps replayed is the state the walk had; a walk whose journal is folded into
snapshots at every chance ends as one that never folds it."""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.explore.test_resume import BOUNDS, START, ShopDriver, walk
from webshellfs.explore import crawl
from webshellfs.explore.state import Behavior, Journal, PageEntry, SiteState, Template, Visit
from webshellfs.store import Store


def grown(state: SiteState, n: int) -> None:
    """What one page's visit adds: an entry, links queued, a template's representative …"""
    url = f"http://shop.example/p/{n}.html"
    state.pages[url] = PageEntry(url, 1, "stored", f"N{n:04d}", f"Page {n}", "T01", ("open x",))
    state.queue.add(Visit(f"http://shop.example/p/{n + 1}.html", 2, ("open x", f'"{n}"')))
    state.queue.head += 1
    state.later.add(Visit(f"http://shop.example/item/{n}.html", 2, (), like="T01"))
    state.too_deep.append(Visit(f"http://shop.example/deep/{n}.html", 5))
    state.behaviors.append(Behavior(f"N{n:04d}", "T01", 'A0001 button "More"', "nothing",
                                    "content"))
    state.tried.append(f"T01\tbutton\tMore {n}")
    if len(state.templates[0].representatives) < 2:
        state.templates[0].representatives.append(f"N{n:04d}")
    state.requests += 1
    state.trying = f"N{n:04d}" if n % 2 else ""


def test_a_snapshot_and_its_steps_make_the_state_again() -> None:
    state = crawl.Explorer.new_state(START, BOUNDS)
    state.templates.append(Template("T01", "h1 | nav", "Shop", START))
    snapshot = state.to_json()
    journal = Journal(state)
    steps = []
    for n in range(1, 6):
        grown(state, n)
        if n == 3:
            state.navigation = [("nav", "Products", "http://shop.example/products.html")]
        steps.append(journal.step(state))
    assert SiteState.load(snapshot, steps).to_json() == state.to_json()
    # A step holds what was added, not the whole state: the last is as small as the first.
    assert len(steps[-1]) < len(steps[0]) + 20
    assert '"pages"' not in journal.step(state)  # nothing added since


def test_folding_the_journal_at_every_step_changes_nothing(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with Store(tmp_path / "steps.sqlite") as store:
        stepped = walk(store, ShopDriver()).saved("shop.example")
    monkeypatch.setattr(crawl, "JOURNAL_SLACK", -10**9)  # a snapshot every time
    with Store(tmp_path / "folded.sqlite") as store:
        folded = walk(store, ShopDriver()).saved("shop.example")
    assert stepped is not None and folded is not None
    for state in (stepped, folded):
        state.updated_ns = state.started_ns = 0
        state.seconds = 0.0
    assert stepped.to_json() == folded.to_json()
    assert len(stepped.stored()) == 19 and stepped.finished


def test_a_state_kept_before_the_journal_is_read(tmp_path: Path) -> None:
    old = ('{"site": "shop.example", "start": "http://shop.example/", "bounds": {"pages": 100, '
           '"depth": 1, "seconds": 60.0}, "started_ns": 1, "updated_ns": 2, "finished": false, '
           '"stopped": [], "frontier": [{"url": "http://shop.example/a", "depth": 1, "path": '
           '["open http://shop.example/"]}], "pages": {"http://shop.example/p/3": {"url": '
           '"http://shop.example/p/3", "depth": 1, "status": "listed", "page": "", "title": "", '
           '"template": "T02", "path": [], "section": ""}}, "templates": [], "behaviors": [], '
           '"forms": [], "skipped": [], "tried": [], "navigation": [], "trying": "", '
           '"requests": 1, "seconds": 1.0, "too_deep": ["http://shop.example/deep"], '
           '"version": 1}')
    state = SiteState.load(old, [])
    assert [v.url for v in state.frontier()] == ["http://shop.example/a", "http://shop.example/p/3"]
    assert state.later.pending()[0].like == "T02" and not state.pages
    assert state.too_deep == [Visit("http://shop.example/deep", 2)]

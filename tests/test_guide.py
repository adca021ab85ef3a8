"""The mount's README.md is the first screen an agent reads: short, the whole loop, and where the
rest is; `help` and `help TOPIC` carry the rest, one screen each."""

from __future__ import annotations

import re

import pytest

from webshellfs import ctl
from webshellfs.explore import DEFAULT_BOUNDS
from webshellfs.guide import TOPICS, guide_text, help_index, topic_text

FIRST_SCREEN_BYTES = 2560
SCREEN_LINES = 40


@pytest.mark.parametrize("directory", [False, True])
def test_the_readme_fits_on_a_first_screen(directory: bool) -> None:
    guide = guide_text(directory=directory)
    assert len(guide.encode()) <= FIRST_SCREEN_BYTES
    for step in ("open https://", "retrieve -k 5", "grep -rn", "_map.md", "execute @ A0003"):
        assert step in guide, step
    assert ", ".join(TOPICS) in guide  # where the rest is


def test_the_directory_readme_says_webshell_instead_of_ctl() -> None:
    guide = guide_text(directory=True)
    assert ".ctl" not in guide
    assert "    webshell open https://example.org/shop" in guide
    assert "`webshell help` lists" in guide


def test_help_lists_every_command_and_every_topic() -> None:
    shown = help_index()
    for spec in ctl.COMMANDS.values():
        assert f"  {spec.usage}" in shown
    for name, (about, _) in TOPICS.items():
        assert re.search(rf"^  help {name} +{re.escape(about)}$", shown, re.MULTILINE), name


@pytest.mark.parametrize("name", list(TOPICS))
def test_each_topic_is_one_screen(name: str) -> None:
    text = topic_text(name)
    assert text is not None and text.startswith(f"# help {name}\n\n")
    assert len(text.splitlines()) <= SCREEN_LINES
    assert topic_text(name.upper()) == text


def test_no_topic_is_none() -> None:
    assert topic_text("nonsense") is None


def test_the_sites_topic_states_the_bounds_explore_takes_by_default() -> None:
    bounds = DEFAULT_BOUNDS
    assert (f"Bounds default to {bounds.pages} pages, depth {bounds.depth} and "
            f"{bounds.seconds:g} s") in " ".join(topic_text("sites").split())

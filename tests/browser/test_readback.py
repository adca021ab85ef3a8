"""readback.mismatch: what a control shows against what was asked — a difference named, and no
difference claimed where the page only wrote the same value its own way."""

from __future__ import annotations

from typing import Any

import pytest

from webshellfs.browser.readback import mismatch


def select(*chosen: tuple[str, str], multiple: bool = False) -> dict[str, Any]:
    return {"kind": "select", "multiple": multiple, "chosen": [list(c) for c in chosen]}


@pytest.mark.parametrize(
    ("shows", "asked"),
    [
        (select(("m", "Medium")), "m"),
        (select(("m", "Medium")), "medium"),
        (select(("b", "Breakfast"), ("c", "Late  checkout"), multiple=True),
         "Late checkout|b"),
        ({"kind": "radio", "chosen": [["on", "Medium"]]}, "Medium"),
        ({"kind": "choices", "chosen": [["matte", "Matte"]]}, "matte"),
        ({"kind": "box", "on": True}, "on"),
        ({"kind": "text", "value": "2010-01-26", "type": "date"}, "01/26/2010"),
        ({"kind": "text", "value": "555-1234", "type": "tel"}, "555 1234"),
        ({"kind": "text", "value": "7", "type": "number"}, "7.0"),
        ({"kind": "number", "value": "40", "text": "40 %"}, "40"),
        ({"kind": "label", "value": "Colour: Red"}, "red"),
        ({"kind": "text", "value": "Alabama", "type": "text", "completes": True}, "Ala"),
        ({"kind": "text", "value": "s", "type": "text", "keys": True}, "ls"),
        (None, "anything"),  # gone, or shows no value of its own: nothing claimed
    ],
)
def test_the_same_value_written_the_page_s_way_is_no_difference(
    shows: dict[str, Any] | None, asked: str
) -> None:
    assert mismatch(shows, asked) == ""


@pytest.mark.parametrize(
    ("shows", "asked", "tick", "said"),
    [
        (select(("a3", "A3 landscape")), "Poster", None,
         "asked Poster; the field shows A3 landscape"),
        (select(("b", "Breakfast"), multiple=True), "b|c", None,
         "asked b|c; the field shows Breakfast"),
        (select(multiple=True), "b", None, "asked b; the field shows nothing chosen"),
        ({"kind": "choices", "chosen": [["gloss", "Gloss"]]}, "Satin", None,
         "asked Satin; the field shows Gloss"),
        ({"kind": "box", "on": False}, "", True, "asked on; the box is not ticked"),
        ({"kind": "box", "on": True}, "off", False, "asked off; the box is ticked"),
        ({"kind": "text", "value": "", "type": "text"}, "buy milk", None,
         "asked buy milk; the field shows ''"),
        ({"kind": "text", "value": "Paris, France", "type": "text"}, "Par", None,
         "asked Par; the field shows Paris, France"),
        ({"kind": "number", "value": "16", "text": ""}, "12", None,
         "asked 12; the control shows 16"),
    ],
)
def test_a_difference_names_what_was_asked_and_what_is_shown(
    shows: dict[str, Any], asked: str, tick: bool | None, said: str
) -> None:
    assert mismatch(shows, asked, tick) == said

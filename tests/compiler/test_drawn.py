"""drawn.py: SVG drawings and canvases described where they stand (kind, colour, size,
position, text), operable shapes as actions, big drawings bounded; colours.py: plain names."""

from __future__ import annotations

import pytest

from webshellfs.compiler import compile_page
from webshellfs.compiler.colours import colour_name, hex_of
from webshellfs.compiler.drawn import MAX_DESCRIBED_SHAPES, MAX_SHAPE_ACTIONS
from webshellfs.contract.layout import render_page

URL = "https://drawn.example.test/plan"


def content(html: str) -> list[str]:
    files = render_page(compile_page(html.encode(), URL))
    return [line for name in sorted(files) if name.startswith("content/")
            for line in files[name].decode().splitlines() if not line.startswith("#")]


def page(body: str) -> str:
    return f"<html><head><title>Plan</title></head><body><h1>Plan</h1>{body}</body></html>"


@pytest.mark.parametrize(("value", "name"), [
    ("red", "red"), ("#e53935", "red"), ("rgb(229, 57, 53)", "red"), ("#1f77b4", "blue"),
    ("steelblue", "blue"), ("darkred", "red"), ("gray", "grey"), ("#7f7f7f", "grey"),
    ("rgb(44, 160, 44)", "green"), ("#ff7f0e", "orange"), ("#9467bd", "purple"),
    ("#8c564b", "brown"), ("#e377c2", "pink"), ("#fff", "white"), ("#000000", "black"),
    ("rgb(255 255 0 / 50%)", "yellow"), ("none", ""), ("rgba(0, 0, 0, 0)", ""),
    ("url(#gradient)", ""), ("currentColor", ""),
])
def test_a_colour_is_named_by_the_nearest_plain_colour(value: str, name: str) -> None:
    assert colour_name(value) == name


def test_hex_of_a_colour_given_as_rgb_or_short_hex() -> None:
    assert hex_of("rgb(229, 57, 53)") == "#e53935"
    assert hex_of("#0f0") == "#00ff00"
    assert hex_of("red") == ""


SEATS = page("""
<p>Click a seat.</p>
<svg width="320" height="200" aria-label="Seating plan">
  <rect x="0" y="180" width="320" height="20" fill="#ccc"/>
  <circle cx="40" cy="80" r="12" fill="#1f77b4" onclick="pick(1)"/>
  <circle cx="100" cy="80" r="12" style="fill: rgb(229, 57, 53)" onclick="pick(2)"/>
  <g transform="translate(200, 40)"><g fill="orange">
    <rect width="60" height="40"/><text x="8" y="24">Table 2</text>
  </g></g>
  <path d="M0 0 L320 0" stroke="black"/>
  <circle cx="300" cy="20" r="6" fill="none"/>
  <defs><circle id="hidden-pattern" r="99" fill="red"/></defs>
  <text x="10" y="195">Stage</text>
</svg>
<p>After the plan.</p>
""")


def test_a_drawing_reads_shape_by_shape_from_its_attributes() -> None:
    assert content(SEATS) == [
        "Click a seat.",
        "[drawing 320×200 \"Seating plan\": 5 shapes; 4 described below, the rest counted: "
        "1 path black]",
        "[rect grey 320×20 at 160,190]",
        "[A0001 circle blue r=12 at 40,80]",
        "[A0002 circle red r=12 at 100,80]",
        "[rect \"Table 2\" orange 60×40 at 230,60]",
        "Stage",
        "After the plan.",
    ]


def test_an_operable_shape_is_a_click_action_named_by_colour_and_kind() -> None:
    actions = compile_page(SEATS.encode(), URL).actions
    assert [(a.id, a.kind, a.control, a.label, a.context) for a in actions] == [
        ("A0001", "click", "circle", "blue circle", "blue #1f77b4, r=12, at 40,80"),
        ("A0002", "click", "circle", "red circle", "red #e53935, r=12, at 100,80"),
    ]


LIVE_SEATS = page("""
<svg width="320" height="200" viewBox="0 0 160 100" data-wsfs-box="8 60 320 200">
  <circle cx="20" cy="40" r="6" fill="red" data-wsfs-id="w1" data-wsfs-op="click pointer"
    data-wsfs-box="28 68 24 24" data-wsfs-fill="rgb(31, 119, 180)" data-wsfs-stroke="none"/>
  <g data-wsfs-id="w2" data-wsfs-op="click dblclick"><title>Table 2</title>
    <rect width="30" height="20" data-wsfs-box="200 40 60 40" data-wsfs-fill="rgb(255, 165, 0)"
      data-wsfs-stroke="none"/>
    <circle r="2" data-wsfs-box="210 50 4 4" data-wsfs-fill="rgb(0, 0, 0)" data-wsfs-stroke="none"/>
  </g>
  <rect width="9" height="9" data-wsfs-box="0 0 18 18" data-wsfs-fill="none"
    data-wsfs-stroke="rgb(0, 0, 255)"/>
</svg>
""")


def test_a_live_capture_s_boxes_and_computed_paint_win_over_the_attributes() -> None:
    compiled = compile_page(LIVE_SEATS.encode(), URL)
    assert content(LIVE_SEATS) == [
        "[drawing 320×200: 3 shapes]",
        "[A0001 circle blue r=12 at 40,80]",
        "[A0002 rect \"Table 2\" orange 60×40 at 230,60]",
        "[rect blue outline 18×18 at 9,9]",
    ]
    group = compiled.actions[1]
    assert (group.label, group.locator, group.context) == (
        "Table 2", "w2", "orange #ffa500, 60×40, at 230,60; on: dblclick")


def test_a_big_chart_is_counted_not_listed_and_says_so() -> None:
    paths = "".join(f'<path d="M{i} 0 L{i} 9" fill="#888"/>' for i in range(5000))
    bars = "".join(f'<rect x="{i}" y="0" width="2" height="{i}" fill="steelblue"/>'
                   for i in range(100))
    html = page(f'<svg width="600" height="400" data-wsfs-box="0 0 600 400">{paths}{bars}</svg>')
    lines = content(html)
    assert lines[0] == (
        f"[drawing 600×400: 5,100 shapes; {MAX_DESCRIBED_SHAPES} described below, the rest "
        "counted: 5,000 paths grey, 60 rects blue; see screenshot.png]")
    assert lines[1] == "[rect blue 2×0 at 1,0]"
    assert len(lines) == 1 + MAX_DESCRIBED_SHAPES
    assert sum(map(len, lines)) < 4000


def test_clickable_shapes_past_the_cap_are_counted_with_a_note() -> None:
    circles = "".join(f'<circle cx="{i}" cy="5" r="2" fill="red" onclick="go({i})"/>'
                      for i in range(MAX_SHAPE_ACTIONS + 50))
    compiled = compile_page(page(f'<svg width="900" height="100">{circles}</svg>').encode(), URL)
    assert len(compiled.actions) == MAX_SHAPE_ACTIONS
    assert any(f"the first {MAX_SHAPE_ACTIONS} are actions, 50 more are only counted" in note
               for note in compiled.notes)


def test_an_icon_in_a_button_is_left_to_name_its_button() -> None:
    html = page('<button><svg width="16" height="16"><title>Close</title>'
                '<path d="M0 0 L16 16" stroke="black"/></svg></button>'
                '<svg width="24" height="24"><circle r="4" fill="red"/></svg>')
    assert content(html) == ['[A0001 button "Close"]']


def test_a_big_svg_with_nothing_drawn_is_no_drawing() -> None:
    assert content(page('<svg width="400" height="300"><text x="1" y="9">Only words</text></svg>'
                        '<svg width="400" height="300"><use href="#logo"/></svg>')) == [
        "Only words"]


def test_a_drawing_s_link_is_a_link_with_its_shape() -> None:
    html = page('<svg width="200" height="100"><a href="/paris"><circle cx="50" cy="50" r="10" '
                'fill="green"/><text>Paris</text></a></svg>')
    compiled = compile_page(html.encode(), URL)
    assert content(html) == ["[drawing 200×100: 1 shape]",
                             '[circle "Paris" green r=10 at 50,50] [L0001]']
    assert (compiled.links[0].url, compiled.links[0].text) == ("https://drawn.example.test/paris",
                                                               "Paris")


@pytest.mark.parametrize(("markup", "line"), [
    ('<canvas width="600" height="400"></canvas>', "[canvas 600×400: a picture]"),
    ('<canvas aria-label="Sales by month"></canvas>',
     '[canvas 300×150 "Sales by month": a picture]'),
    ('<canvas width="600" height="400" data-wsfs-box="8 90 300 200"></canvas>',
     "[canvas 300×200: a picture; see screenshot.png]"),
    ('<canvas width="600" height="400" data-wsfs-id="w1" data-wsfs-op="click" '
     'data-wsfs-box="8 90 300 200">Fallback words</canvas>',
     "[A0001 canvas 300×200: a picture; see screenshot.png]"),
])
def test_a_canvas_says_it_is_a_picture(markup: str, line: str) -> None:
    assert content(page(f"<p>Before.</p>{markup}<p>After.</p>")) == ["Before.", line, "After."]


@pytest.mark.parametrize("markup", [
    "<canvas></canvas>",
    '<canvas width="1" height="1"></canvas>',
    '<canvas width="600" height="400" hidden></canvas>',
])
def test_a_canvas_that_shows_nothing_is_not_mentioned(markup: str) -> None:
    assert content(page(f"<p>Before.</p>{markup}")) == ["Before."]


def test_a_drawing_s_title_does_not_title_the_page() -> None:
    html = ('<html><body><svg width="200" height="100"><title>Logo</title>'
            '<rect width="9" height="9"/></svg><h1>Real title</h1></body></html>')
    assert compile_page(html.encode(), URL).title == "Real title"

"""What a page draws rather than writes: SVG drawings and canvases, described where they stand
so an agent reading text can find and click "the red circle".

An SVG drawing (an `<svg>` at least MIN_DRAWING_PX on each side, or one holding shapes the
page lets people operate) becomes a line saying what it is, then a line per shape in document
order, each by kind, colour, size and position, with its text:

    [drawing 300×200 "Seating plan": 4 shapes]
    [A0012 circle red r=12 at 40,80]               a shape the page lets people click
    [A0013 rect "Table 2" blue 40×30 at 120,65]    a group of one shape and its text
    [rect grey 300×2 at 150,190]                   a shape that only shows
    Legend: free taken                             the drawing's other text

Positions are the centre of a shape's box from the drawing's top-left corner. A live capture
measured them (browser/scripts.py writes BOX_ATTRIBUTE, FILL_ATTRIBUTE and STROKE_ATTRIBUTE in
CSS pixels and computed colours); a page compiled without a browser is read from the SVG's
own attributes (in the drawing's units, `translate` transforms applied, others not; a path has
no position then). Drawings are bounded: at most MAX_SHAPE_ACTIONS operable shapes become
actions and MAX_DESCRIBED_SHAPES others are described, the rest counted on the first line by
kind and colour. An SVG icon (small, or inside a control) is left to the walk as before.

A `<canvas>` is a picture the page paints by script: `[canvas 600×400: a picture; see
screenshot.png]` (an action when the page listens to it).
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from lxml.html import HtmlElement

from webshellfs.compiler.actions.index import page_index
from webshellfs.compiler.actions.labels import aria_name, clip, gestures_context, operable_words
from webshellfs.compiler.actions.rules import ROLE_RULES, role_of
from webshellfs.compiler.builder import LOCATOR_ATTRIBUTE, Emitted, PageBuilder
from webshellfs.compiler.colours import NO_PAINT, colour_name, hex_of
from webshellfs.compiler.dom import is_hidden, squash

# Attributes a live capture writes on SVG shapes, drawings and canvases (browser/scripts.py):
# the box `x y width height` in CSS pixels (a shape's from its drawing's top-left corner, a
# drawing's or canvas's from the page's), and a shape's computed fill and stroke (no stroke
# attribute: none).
BOX_ATTRIBUTE = "data-wsfs-box"
FILL_ATTRIBUTE = "data-wsfs-fill"
STROKE_ATTRIBUTE = "data-wsfs-stroke"

# The SVG elements that draw a shape (SVGGeometryElement), by the word a person reads.
SHAPE_TAGS = frozenset({"circle", "ellipse", "rect", "line", "polyline", "polygon", "path"})
# SVG elements whose content is not drawn where it stands (definitions, paint servers,
# metadata); the parser lowercases their names.
UNDRAWN_TAGS = frozenset({
    "defs", "clippath", "mask", "symbol", "marker", "pattern", "lineargradient",
    "radialgradient", "filter", "title", "desc", "metadata", "style", "script",
})
# Elements around an icon: an SVG inside them names or decorates the control.
CONTROL_ANCESTORS = frozenset({"a", "button", "label", "select", "summary"})
# An SVG smaller than this on a side is an icon or an avatar, not a drawing.
MIN_DRAWING_PX = 80
# A canvas smaller than this on a side shows nothing to look at (a script's scratch pad).
MIN_CANVAS_PX = 16
# HTML's size of a canvas without width or height.
DEFAULT_CANVAS = (300.0, 150.0)
MAX_SHAPE_ACTIONS = 200
MAX_DESCRIBED_SHAPES = 40
# How many kinds and colours the first line names for the shapes only counted.
MAX_COUNTED_GROUPS = 6
# Operable words that say only "takes keyboard focus": not a thing to click.
FOCUS_ONLY = frozenset({"focusable"})
SCREENSHOT_HINT = "see screenshot.png"

_NUMBER = re.compile(r"-?\d*\.?\d+(?:e-?\d+)?")
_TRANSLATE = re.compile(r"translate\(\s*(-?[\d.]+)(?:[\s,]+(-?[\d.]+))?\s*\)")
_STYLE_PAINT = re.compile(r"(?:^|;)\s*(fill|stroke)\s*:\s*([^;!]+)")


@dataclass(frozen=True)
class Box:
    x: float
    y: float
    width: float
    height: float


@dataclass
class _Drawing:
    """The lines of one drawing as they are made, and what was only counted."""

    builder: PageBuilder
    live: bool
    lines: list[str] = field(default_factory=list)
    running: list[str] = field(default_factory=list)
    shapes: int = 0  # drawn shapes seen
    listed: int = 0  # of them, those with a line of their own
    actions: int = 0
    described: int = 0  # shapes no one operates, with a line of their own
    counted: Counter[tuple[str, str]] = field(default_factory=Counter)
    operable_counted: int = 0

    def text(self, words: str) -> None:
        if words:
            self.running.append(words)

    def line(self, text: str) -> None:
        if self.running:
            self.lines.append(" ".join(self.running))
            self.running.clear()
        self.lines.append(text)


def _numbers(value: str | None) -> list[float]:
    return [float(n) for n in _NUMBER.findall(value or "")]


def _length(value: str | None) -> float | None:
    """A length in pixels as an attribute gives it ("120", "120px"); None for others (50%)."""
    text = (value or "").strip().lower().removesuffix("px")
    try:
        return float(text)
    except ValueError:
        return None


def measured_box(element: HtmlElement) -> Box | None:
    """The box the live capture measured, else what the element's own attributes say."""
    measured = _numbers(element.get(BOX_ATTRIBUTE))
    if len(measured) == 4:
        return Box(*measured)
    geometry = _GEOMETRY.get(element.tag)
    box = geometry(element) if geometry is not None else None
    if box is None:
        return None
    dx, dy = _translation(element)
    return Box(box.x + dx, box.y + dy, box.width, box.height)


def _translation(element: HtmlElement) -> tuple[float, float]:
    """The sum of the `translate(…)` transforms on the element and its ancestors in the drawing."""
    dx = dy = 0.0
    for node in (element, *element.iterancestors()):
        for match in _TRANSLATE.finditer(node.get("transform") or ""):
            dx += float(match.group(1))
            dy += float(match.group(2) or 0)
        if node.tag == "svg":
            break
    return dx, dy


def _attribute_numbers(element: HtmlElement, *names: str) -> list[float]:
    return [_length(element.get(name)) or 0.0 for name in names]


def _circle(element: HtmlElement) -> Box:
    cx, cy, r = _attribute_numbers(element, "cx", "cy", "r")
    return Box(cx - r, cy - r, 2 * r, 2 * r)


def _ellipse(element: HtmlElement) -> Box:
    cx, cy, rx, ry = _attribute_numbers(element, "cx", "cy", "rx", "ry")
    return Box(cx - rx, cy - ry, 2 * rx, 2 * ry)


def _rect(element: HtmlElement) -> Box:
    return Box(*_attribute_numbers(element, "x", "y", "width", "height"))


def _line(element: HtmlElement) -> Box:
    x1, y1, x2, y2 = _attribute_numbers(element, "x1", "y1", "x2", "y2")
    return Box(min(x1, x2), min(y1, y2), abs(x2 - x1), abs(y2 - y1))


def _points(element: HtmlElement) -> Box | None:
    numbers = _numbers(element.get("points"))
    xs, ys = numbers[0::2], numbers[1::2]
    if not xs or not ys:
        return None
    return Box(min(xs), min(ys), max(xs) - min(xs), max(ys) - min(ys))


# How a shape's box is read from its attributes (a path's data is not read: it has none).
_GEOMETRY = {
    "circle": _circle, "ellipse": _ellipse, "rect": _rect, "line": _line,
    "polyline": _points, "polygon": _points,
}


def _own_paint(element: HtmlElement, which: str) -> str | None:
    style = element.get("style") or ""
    for match in _STYLE_PAINT.finditer(style):
        if match.group(1) == which:
            return match.group(2).strip()
    return element.get(which)


def paint(element: HtmlElement) -> tuple[str, str]:
    """(fill, stroke) as drawn: the live capture's computed values, else the attributes or
    inline style of the element or the nearest ancestor that sets them (SVG paint is
    inherited), else SVG's defaults (black fill, no stroke)."""
    if element.get(FILL_ATTRIBUTE) is not None:
        return element.get(FILL_ATTRIBUTE) or "", element.get(STROKE_ATTRIBUTE) or "none"
    found: dict[str, str] = {}
    for node in (element, *element.iterancestors()):
        for which in ("fill", "stroke"):
            value = _own_paint(node, which)
            if which not in found and value:
                found[which] = value
        if len(found) == 2:
            break
    return found.get("fill", "black"), found.get("stroke", "none")


def colour_words(element: HtmlElement) -> tuple[str, str]:
    """(plain colour words, hex) for a shape: its fill's name, else its stroke's with
    "outline"; ("", "") for one painted with neither (an invisible hit area) or in a colour
    not told (a gradient)."""
    fill, stroke = paint(element)
    if fill.strip().lower() not in NO_PAINT:
        return colour_name(fill), hex_of(fill)
    if stroke.strip().lower() not in NO_PAINT:
        name = colour_name(stroke)
        return (f"{name} outline" if name else "outline"), hex_of(stroke)
    return "", ""


def _whole(value: float) -> str:
    return str(round(value))


def shape_words(kind: str, element: HtmlElement, name: str = "") -> tuple[str, str]:
    """(`circle "name" red r=12 at 40,80`, `red #e53935, r=12, at 40,80`): how the shape reads
    in the text, and its context in actions.tsv."""
    colour, code = colour_words(element) if element.tag in SHAPE_TAGS else ("", "")
    box = measured_box(element)
    size = place = ""
    if box is not None:
        if kind == "circle":
            size = f"r={_whole(box.width / 2)}"
        else:
            size = f"{_whole(box.width)}×{_whole(box.height)}"
        place = f"at {_whole(box.x + box.width / 2)},{_whole(box.y + box.height / 2)}"
    named = f'"{name}"' if name else ""
    words = " ".join(part for part in (kind, named, colour, size, place) if part)
    context = ", ".join(part for part in (" ".join(p for p in (colour, code) if p), size, place)
                        if part)
    return words, context


def _operable(element: HtmlElement) -> bool:
    """Whether a person can operate the element: the live page listens to it or shows it
    clickable, or its markup says so (onclick, a role, a link)."""
    words = set(operable_words(element)) - FOCUS_ONLY
    return bool(words or element.get("onclick") is not None or role_of(element) in ROLE_RULES
                or _link_target(element))


def _link_target(element: HtmlElement) -> str:
    if element.tag != "a":
        return ""
    return (element.get("href") or element.get("xlink:href") or "").strip()


def _texts(element: HtmlElement) -> str:
    """The words of the SVG `<text>` elements inside (or the element's own, being one)."""
    found = [element] if element.tag == "text" else element.iterdescendants("text")
    return squash(" ".join("".join(node.itertext()) for node in found if not is_hidden(node)))


def _title(element: HtmlElement) -> str:
    """An SVG element's name: aria-label, else its own `<title>` child."""
    label = squash(element.get("aria-label") or "")
    if label:
        return label
    title = next((child for child in element if child.tag == "title"), None)
    return squash(title.text_content()) if title is not None else ""


def _drawn_children(element: HtmlElement) -> list[HtmlElement]:
    return [child for child in element if isinstance(child.tag, str)
            and child.tag not in UNDRAWN_TAGS and not is_hidden(child)]


def _shapes_in(element: HtmlElement, limit: int) -> list[HtmlElement]:
    """Up to `limit` drawn shapes inside the element (the element itself when it is one)."""
    if element.tag in SHAPE_TAGS:
        return [element]
    found: list[HtmlElement] = []
    stack = _drawn_children(element)[::-1]
    while stack and len(found) < limit:
        node = stack.pop()
        if node.tag in SHAPE_TAGS:
            found.append(node)
        else:
            stack.extend(_drawn_children(node)[::-1])
    return found


def _main_shape(element: HtmlElement) -> HtmlElement | None:
    """The shape that stands for a group: the largest of the first few inside."""
    shapes = _shapes_in(element, MAX_DESCRIBED_SHAPES)
    if not shapes:
        return None
    return max(shapes, key=lambda shape: _area(measured_box(shape)))


def _area(box: Box | None) -> float:
    return box.width * box.height if box is not None else 0.0


def _drawing_size(svg: HtmlElement) -> tuple[float, float] | None:
    measured = _numbers(svg.get(BOX_ATTRIBUTE))
    if len(measured) == 4:
        return measured[2], measured[3]
    width, height = _length(svg.get("width")), _length(svg.get("height"))
    view = _numbers(svg.get("viewbox"))
    if (width is None or height is None) and len(view) == 4:
        if width is None and height is None:
            return view[2], view[3]
        scale = (width / view[2] if width is not None and view[2]
                 else height / view[3] if height is not None and view[3] else 1.0)
        return width or view[2] * scale, height or view[3] * scale
    if width is None or height is None:
        return None
    return width, height


def _in_control(element: HtmlElement) -> bool:
    return any(node.tag in CONTROL_ANCESTORS or role_of(node) in ROLE_RULES
               or set(operable_words(node)) - FOCUS_ONLY for node in element.iterancestors())


def _holds_operable(svg: HtmlElement) -> bool:
    return any(_operable(node) for node in svg.iterdescendants() if isinstance(node.tag, str))


def is_drawing(svg: HtmlElement) -> bool:
    """An SVG worth describing shape by shape: one holding shapes people operate, or one big
    enough to be a picture and not part of a control (an icon is named by its control)."""
    if _holds_operable(svg):
        return True
    size = _drawing_size(svg)
    if size is None or min(size) < MIN_DRAWING_PX or _in_control(svg):
        return False
    return bool(_shapes_in(svg, 1))


def describe_drawing(svg: HtmlElement, builder: PageBuilder) -> list[str]:
    """The lines of a drawing (is_drawing), registering its actions and links in document
    order."""
    drawing = _Drawing(builder, live=svg.get(BOX_ATTRIBUTE) is not None)
    stack = _drawn_children(svg)[::-1]
    while stack:
        node = stack.pop()
        if node.tag == "foreignobject":
            drawing.text(builder.text_of(node))
        elif _operable(node):
            _operable_unit(node, drawing)
        elif node.tag in SHAPE_TAGS:
            _shape_unit(node, _title(node), drawing)
        elif node.tag == "text":
            drawing.text(_texts(node))
        elif _texts(node) and len(_shapes_in(node, 2)) == 1 and not _holds_operable(node):
            # A group of one shape and its words: a bar and its label, a pin and its name.
            _shape_unit(_shapes_in(node, 1)[0], _title(node) or _texts(node), drawing)
        else:
            stack.extend(_drawn_children(node)[::-1])
    if drawing.running:
        drawing.lines.append(" ".join(drawing.running))
    if not drawing.shapes:
        return drawing.lines  # only words and controls without a shape: no picture to name
    return [_heading(svg, drawing), *drawing.lines]


def _shape_unit(shape: HtmlElement, name: str, drawing: _Drawing) -> None:
    colour, _ = colour_words(shape)
    box = measured_box(shape)
    if (not colour and not name) or (box is not None and box.width == box.height == 0):
        return  # painted with nothing, or nothing big: not seen
    drawing.shapes += 1
    # A path with no words of its own is a logo's or a chart's stroke: its kind and colour say
    # as much counted as described, and a path has no box offline.
    if drawing.described >= MAX_DESCRIBED_SHAPES or (shape.tag == "path" and not name):
        drawing.counted[shape.tag, colour] += 1
        return
    drawing.described += 1
    drawing.listed += 1
    drawing.line(f"[{shape_words(shape.tag, shape, clip(name))[0]}]")


def _operable_unit(unit: HtmlElement, drawing: _Drawing) -> None:
    shape = _main_shape(unit)
    name = clip(_title(unit) or _texts(unit))
    if shape is None and not name:
        return
    target = _link_target(unit)
    if drawing.actions >= MAX_SHAPE_ACTIONS and not target:
        drawing.operable_counted += 1
        if shape is not None:
            _shape_unit(shape, name, drawing)
        return
    kind = shape.tag if shape is not None else "clickable"
    words, context = shape_words(kind, shape if shape is not None else unit, name)
    if shape is not None:
        drawing.shapes += 1
        drawing.listed += 1
    builder = drawing.builder
    if target:
        url = builder.resolve_url(target)
        if url is not None:
            link_id = builder.add_link(url, name or words, locator=unit.get(LOCATOR_ATTRIBUTE) or "")
            drawing.line(f"[{words}] [{link_id}]")
        return
    drawing.actions += 1
    label = name or " ".join(part for part in (colour_words(shape)[0] if shape is not None
                                               else "", kind) if part)
    gestures = gestures_context(unit)
    action_id = builder.add_action(
        "click", kind, label,
        context="; ".join(part for part in (context, gestures) if part),
        locator=builder.locator(unit),
    )
    drawing.line(f"[{action_id} {words}]")


def _heading(svg: HtmlElement, drawing: _Drawing) -> str:
    size = _drawing_size(svg)
    dimensions = f" {_whole(size[0])}×{_whole(size[1])}" if size is not None else ""
    name = clip(aria_name(svg, page_index(drawing.builder, svg)) or _title(svg))
    named = f' "{name}"' if name else ""
    shapes = f"{drawing.shapes:,} shape" + ("" if drawing.shapes == 1 else "s")
    if not drawing.counted:
        return f"[drawing{dimensions}{named}: {shapes}]"
    groups = drawing.counted.most_common(MAX_COUNTED_GROUPS)
    listed = ", ".join(f"{count:,} {kind}{'' if count == 1 else 's'}{' ' + colour if colour else ''}"
                       for (kind, colour), count in groups)
    more = ", …" if len(drawing.counted) > MAX_COUNTED_GROUPS else ""
    described = f"{drawing.listed:,} described below, the rest " if drawing.listed else ""
    hint = f"; {SCREENSHOT_HINT}" if drawing.live else ""
    if drawing.operable_counted:
        drawing.builder.note(
            f"a drawing holds more than {MAX_SHAPE_ACTIONS} shapes people can click: the first "
            f"{MAX_SHAPE_ACTIONS} are actions, {drawing.operable_counted:,} more are only counted")
    return f"[drawing{dimensions}{named}: {shapes}; {described}counted: {listed}{more}{hint}]"


def canvas_mention(canvas: HtmlElement, builder: PageBuilder, *, operable: bool) -> Emitted | None:
    """`[canvas 600×400: a picture; see screenshot.png]` (an action when the page listens to
    it); None for a canvas too small to show anything."""
    measured = _numbers(canvas.get(BOX_ATTRIBUTE))
    name = clip(aria_name(canvas, page_index(builder, canvas)) or squash(canvas.get("title") or ""))
    if len(measured) == 4:
        width, height = measured[2], measured[3]
    elif canvas.get("width") is None and canvas.get("height") is None and not name:
        return None  # unsized and unnamed, and no browser drew it: a script's surface, if any
    else:
        width = _length(canvas.get("width")) or DEFAULT_CANVAS[0]
        height = _length(canvas.get("height")) or DEFAULT_CANVAS[1]
    if min(width, height) < MIN_CANVAS_PX:
        return None
    size = f"{_whole(width)}×{_whole(height)}"
    named = f' "{name}"' if name else ""
    hint = f"; {SCREENSHOT_HINT}" if len(measured) == 4 else ""
    words = f"canvas {size}{named}: a picture{hint}"
    if not operable or not set(operable_words(canvas)) - FOCUS_ONLY:
        return Emitted(inline=f"[{words}]", block=True)
    action_id = builder.add_action(
        "click", "canvas", name or f"{size} picture", context=gestures_context(canvas),
        locator=builder.locator(canvas))
    return Emitted(inline=f"[{action_id} {words}]", block=True, action_id=action_id)


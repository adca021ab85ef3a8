"""Colours as a person names them: a CSS colour (`rgb(229, 57, 53)`, `#e53935`, `steelblue`)
becomes one plain word (red) by the nearest of a few reference colours, so an agent reading
text can find "the red circle" with grep.

The reference table holds several shades per name (a dark red and a light one are both red);
nearness is the "redmean" distance, a cheap weighting of RGB that follows the eye better than
plain Euclidean distance.
"""

from __future__ import annotations

import re

RGB = tuple[int, int, int]

# Plain name → the shades it stands for.
REFERENCE_COLOURS: dict[str, tuple[RGB, ...]] = {
    "black": ((0, 0, 0), (30, 30, 30)),
    "grey": ((64, 64, 64), (128, 128, 128), (169, 169, 169), (200, 200, 200)),
    "white": ((255, 255, 255), (240, 240, 240)),
    "red": ((255, 0, 0), (214, 39, 40), (178, 34, 34), (139, 0, 0), (220, 20, 60)),
    "orange": ((255, 165, 0), (255, 127, 14), (255, 140, 0), (255, 99, 71)),
    "yellow": ((255, 255, 0), (255, 215, 0), (240, 228, 66), (255, 255, 150)),
    "green": ((0, 128, 0), (0, 255, 0), (44, 160, 44), (34, 139, 34), (144, 238, 144),
              (0, 100, 0), (107, 142, 35), (188, 189, 34)),
    "cyan": ((0, 255, 255), (23, 190, 207), (0, 128, 128), (64, 224, 208)),
    "blue": ((0, 0, 255), (31, 119, 180), (30, 144, 255), (0, 0, 139), (70, 130, 180),
             (135, 206, 235), (0, 0, 128), (65, 105, 225)),
    "purple": ((128, 0, 128), (148, 103, 189), (148, 0, 211), (75, 0, 130), (186, 85, 211),
               (238, 130, 238)),
    "pink": ((255, 192, 203), (255, 105, 180), (227, 119, 194), (255, 0, 255), (250, 128, 114)),
    "brown": ((139, 69, 19), (140, 86, 75), (165, 42, 42), (210, 105, 30), (128, 0, 0)),
}
# CSS colour keywords a page may write offline (`fill="steelblue"`), by the plain name they
# read as; a keyword holding a plain name (darkred, lightgreen) reads as that name.
CSS_KEYWORDS: dict[str, str] = {
    "gray": "grey", "silver": "grey", "gainsboro": "grey", "navy": "blue", "teal": "cyan",
    "aqua": "cyan", "turquoise": "cyan", "maroon": "brown", "olive": "green", "lime": "green",
    "gold": "yellow", "khaki": "yellow", "crimson": "red", "tomato": "orange", "coral": "orange",
    "salmon": "pink", "fuchsia": "pink", "magenta": "pink", "indigo": "purple",
    "violet": "purple", "orchid": "purple", "plum": "purple", "chocolate": "brown",
    "sienna": "brown", "tan": "brown", "ivory": "white", "snow": "white",
}
# Paint that shows nothing.
NO_PAINT = frozenset({"none", "transparent", ""})

_HEX = re.compile(r"#([0-9a-f]{3,8})")
_FUNCTION = re.compile(r"rgba?\(([^)]*)\)")
_NUMBER = re.compile(r"-?[\d.]+%?")


def parse_colour(value: str) -> RGB | None:
    """The RGB of a CSS colour written as hex or rgb()/rgba(); None for anything else
    (a keyword, a gradient, a transparent one)."""
    text = value.strip().lower()
    match = _HEX.fullmatch(text)
    if match:
        digits = match.group(1)
        if len(digits) in (3, 4):
            digits = "".join(d * 2 for d in digits)
        if len(digits) not in (6, 8) or digits[6:8] == "00":
            return None
        return int(digits[0:2], 16), int(digits[2:4], 16), int(digits[4:6], 16)
    match = _FUNCTION.fullmatch(text)
    if match is None:
        return None
    parts = _NUMBER.findall(match.group(1))
    if len(parts) < 3 or (len(parts) > 3 and _fraction(parts[3]) == 0):
        return None
    red, green, blue = (_channel(part) for part in parts[:3])
    return red, green, blue


def _fraction(part: str) -> float:
    return float(part[:-1]) / 100 if part.endswith("%") else float(part)


def _channel(part: str) -> int:
    value = float(part[:-1]) * 2.55 if part.endswith("%") else float(part)
    return max(0, min(255, round(value)))


def _distance(one: RGB, other: RGB) -> float:
    mean_red = (one[0] + other[0]) / 2
    dr, dg, db = one[0] - other[0], one[1] - other[1], one[2] - other[2]
    return (2 + mean_red / 256) * dr * dr + 4 * dg * dg + (2 + (255 - mean_red) / 256) * db * db


def nearest_name(rgb: RGB) -> str:
    """The plain name of the reference shade nearest to rgb."""
    return min(((name, shade) for name, shades in REFERENCE_COLOURS.items() for shade in shades),
               key=lambda pair: _distance(rgb, pair[1]))[0]


def colour_name(value: str) -> str:
    """A CSS colour's plain name ("" for no paint or a colour not told: a gradient,
    currentColor)."""
    text = value.strip().lower()
    if text in NO_PAINT:
        return ""
    if text in REFERENCE_COLOURS:
        return text
    if text in CSS_KEYWORDS:
        return CSS_KEYWORDS[text]
    if text.isalpha():
        return next((name for name in REFERENCE_COLOURS if text.endswith(name)), "")
    rgb = parse_colour(text)
    return nearest_name(rgb) if rgb is not None else ""


def hex_of(value: str) -> str:
    """`#rrggbb` for a colour given as hex or rgb() ("" otherwise)."""
    rgb = parse_colour(value)
    return "#{:02x}{:02x}{:02x}".format(*rgb) if rgb is not None else ""

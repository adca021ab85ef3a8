"""Safe file names made from page text.

Every name under the mount is generated here, never taken raw from a page: ASCII letters,
digits and `-` only, never starting with `-` or `.`, bounded in bytes, so `rm *`, `ls | while
read` and terminals are never surprised.
"""

from __future__ import annotations

import re
import unicodedata

MAX_SLUG_BYTES = 48
_UNSAFE = re.compile(r"[^a-z0-9]+")
# Letters that NFKD does not split into an ASCII base letter plus accents.
_TRANSLITERATE = str.maketrans(
    {"ß": "ss", "æ": "ae", "Æ": "AE", "ø": "o", "Ø": "O", "œ": "oe", "Œ": "OE",
     "đ": "d", "Đ": "D", "ł": "l", "Ł": "L", "þ": "th", "Þ": "TH", "ı": "i"}
)


def slugify(text: str, fallback: str = "section", max_bytes: int = MAX_SLUG_BYTES) -> str:
    """`"Größe & Preis (EUR)"` → `"grosse-preis-eur"`; empty results become `fallback`."""
    ascii_text = unicodedata.normalize("NFKD", text.translate(_TRANSLITERATE)).encode("ascii", "ignore").decode("ascii")
    slug = _UNSAFE.sub("-", ascii_text.lower()).strip("-")
    slug = slug[:max_bytes].rstrip("-")
    return slug or fallback

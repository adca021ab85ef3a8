"""What a retrieve query may be: plain text, not empty, not too long."""

from __future__ import annotations

import re

from webshellfs.errors import CommandSyntaxError

MAX_QUERY_CHARS = 400

# C0, DEL and C1 (U+0080–U+009F, e.g. NEL, which str.split takes for whitespace).
_CONTROL = re.compile(r"[\x00-\x1f\x7f-\x9f]")


def validate_query(query: str) -> str:
    """The query with its whitespace squashed, or CommandSyntaxError (a malformed command, so
    EINVAL) saying why it cannot be searched."""
    if _CONTROL.search(query.replace("\t", " ")):
        raise CommandSyntaxError("the query contains control characters; write it as plain text")
    squashed = " ".join(query.split())
    if not squashed:
        raise CommandSyntaxError("retrieve needs a query: retrieve [-k N] [--refresh] <query…>")
    if len(squashed) > MAX_QUERY_CHARS:
        raise CommandSyntaxError(
            f"the query is {len(squashed)} characters; the limit is {MAX_QUERY_CHARS}"
        )
    return squashed

"""What a retrieve query may be."""

from __future__ import annotations

import pytest

from webshellfs.errors import CommandSyntaxError
from webshellfs.search import validate_query


def test_whitespace_is_squashed() -> None:
    assert validate_query("  rain\t gardens\u00a0 ") == "rain gardens"


@pytest.mark.parametrize(
    ("query", "message"),
    [
        ("", "retrieve needs a query: retrieve [-k N] [--refresh] <query…>"),
        ("   ", "retrieve needs a query: retrieve [-k N] [--refresh] <query…>"),
        ("rain\x00gardens", "the query contains control characters; write it as plain text"),
        ("rain\ngardens", "the query contains control characters; write it as plain text"),
        ("rain\x85gardens", "the query contains control characters; write it as plain text"),
        ("x" * 401, "the query is 401 characters; the limit is 400"),
    ],
)
def test_bad_queries_are_refused_with_the_reason(query: str, message: str) -> None:
    with pytest.raises(CommandSyntaxError) as raised:
        validate_query(query)
    assert str(raised.value) == message

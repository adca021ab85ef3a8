"""execute's inputs checked against the stored action before the browser is asked: a number
or range outside the field's min..max is refused with the range, and nothing is done."""

from __future__ import annotations

import pytest

from webshellfs.compiler import compile_page
from webshellfs.engine.inputs import check_inputs
from webshellfs.engine.queries import page_meta
from webshellfs.errors import UsageError
from webshellfs.fetch import Capture

PAGE = (b"<p><input type=range name=volume min=0 max=10 value=3 aria-label=Volume></p>"
        b"<form><input type=number name=qty min=1 max=5 value=1 aria-label=Qty>"
        b"<button>Add</button></form>")


def actions() -> dict[str, dict[str, object]]:
    url = "https://example.org/"
    page = compile_page(PAGE, url)
    meta = page_meta(page, Capture(url, url, 200, "text/html", PAGE, ()))
    return meta["actions"]


def test_values_within_the_range_pass() -> None:
    found = actions()
    assert check_inputs("A0001", found["A0001"], (("volume", "7"),)) == {"volume": "7"}
    assert check_inputs("A0002", found["A0002"], (("qty", "5"),)) == {"qty": "5"}


@pytest.mark.parametrize(
    ("action", "inputs", "message"),
    [
        ("A0001", (("volume", "11"),), "11 is outside the range of volume: 0..10"),
        ("A0001", (("value", "-1"),), "-1 is outside the range of volume: 0..10"),
        ("A0002", (("qty", "9"),), "9 is outside the range of qty: 1..5"),
        ("A0002", (("qty", "many"),), "qty takes a number, not 'many'"),
    ],
)
def test_values_outside_the_range_are_refused_with_it(
    action: str, inputs: tuple[tuple[str, str], ...], message: str
) -> None:
    with pytest.raises(UsageError, match=message):
        check_inputs(action, actions()[action], inputs)

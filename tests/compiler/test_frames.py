"""Frames whose documents a capture does not hold are named, never dropped unsaid."""

from __future__ import annotations

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import render_page

PAGE = "https://shop.example/checkout"


def compiled(html: str) -> dict[str, str]:
    page = compile_page(html.encode(), PAGE, content_type="text/html")
    return {path: data.decode() for path, data in render_page(page).items()
            if path.endswith((".md", ".tsv"))}


def test_a_frame_from_another_site_is_a_link_and_a_note() -> None:
    files = compiled("<h1>Checkout</h1><p>Pay below.</p>"
                     "<iframe src='https://pay.example/widget' title='Card payment'></iframe>")
    assert "L0001\thttps://pay.example/widget\tframe: Card payment\t" in files["links.tsv"]
    assert ("- not included: 1 frame(s) whose pages are not in this capture (another site's, "
            "or compiled without a browser): L0001 in links.tsv") in files["_map.md"]
    assert "pay.example" not in "".join(v for k, v in files.items() if k.startswith("content/"))


def test_hidden_and_blank_frames_say_nothing() -> None:
    files = compiled("<h1>Checkout</h1><iframe src='https://ads.example/x' hidden></iframe>"
                     "<iframe src='about:blank'></iframe><iframe></iframe>")
    assert "not included" not in files["_map.md"]
    assert files["links.tsv"].count("\n") == 1  # the header only


def test_many_frames_are_counted_and_the_first_named() -> None:
    frames = "".join(f"<iframe src='https://ads.example/{n}'></iframe>" for n in range(8))
    files = compiled(f"<h1>News</h1>{frames}")
    assert "8 frame(s)" in files["_map.md"]
    assert "L0001, L0002, L0003, L0004, L0005 … 3 more in links.tsv" in files["_map.md"]

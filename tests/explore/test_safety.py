"""The safety rules of an exploration, as tables: what is never followed or pressed."""

from __future__ import annotations

import pytest

from webshellfs.contract.records import Action, Link
from webshellfs.explore.safety import (
    control_refusal,
    is_candidate,
    link_refusal,
    same_site,
    site_of,
)

SITE = "shop.example"


def link(url: str, text: str = "More") -> Link:
    return Link("L0001", url, text, 0)


def button(label: str, control: str = "button", kind: str = "click", context: str = "") -> Action:
    return Action("A0001", kind, control, label, context, (), 0)


def test_a_site_is_its_host_without_www_and_with_its_port() -> None:
    assert site_of("https://www.shop.example/a") == SITE
    assert site_of("http://127.0.0.1:8080/") == "127.0.0.1:8080"
    assert same_site("http://www.shop.example/x", SITE)
    assert not same_site("https://docs.shop.example/x", SITE)
    assert not same_site("ftp://shop.example/x", SITE)


@pytest.mark.parametrize(("url", "text", "why"), [
    ("mailto:a@shop.example", "Write", "not a web page (mailto scheme)"),
    ("tel:+49301", "Call", "not a web page (tel scheme)"),
    ("javascript:void(0)", "Open", "not a web page (javascript scheme)"),
    ("https://other.example/", "Partner", "another site"),
    ("https://shop.example/files/list.ZIP", "Catalogue", "a download (.zip)"),
    ("https://shop.example/account/logout", "Leave", 'its address reads "logout"'),
    ("https://shop.example/item?action=delete&id=3", "Item 3", 'its address reads "delete"'),
    ("https://shop.example/bye", "Sign out", 'leaves: reads "sign out"'),
    ("https://shop.example/bye", "Abmelden", 'leaves: reads "abmelden"'),
    ("https://shop.example/bye", "Wyloguj się", 'leaves: reads "wyloguj się"'),
    ("https://shop.example/cart", "Buy now", 'buys: reads "buy now"'),
    ("https://shop.example/x", "Télécharger le PDF", 'takes a file: reads "télécharger"'),
])
def test_links_that_leave_the_site_or_change_something_are_never_followed(
    url: str, text: str, why: str
) -> None:
    assert link_refusal(link(url, text), SITE) == why


@pytest.mark.parametrize("text", ["Orders", "Products", "Post office hours", "Blog posts",
                                  "Print", "Printer-friendly version"])
def test_ordinary_links_are_followed(text: str) -> None:
    assert link_refusal(link("https://www.shop.example/page", text), SITE) == ""


@pytest.mark.parametrize(("label", "why"), [
    ("Delete account", 'destroys: reads "delete"'),
    ("Log out", 'leaves: reads "log out"'),
    ("Unsubscribe from the newsletter", 'leaves: reads "unsubscribe"'),
    ("Add to cart", 'buys: reads "add to cart"'),
    ("Jetzt kaufen", 'buys: reads "jetzt kaufen"'),
    ("Supprimer", 'destroys: reads "supprimer"'),
    ("Send", 'commits: reads "send"'),
    ("Publicar comentario", 'commits: reads "publicar"'),
    ("Opslaan", 'commits: reads "opslaan"'),
    ("Print this page", 'prints: reads "print"'),
])
def test_destructive_and_committing_controls_are_never_pressed(label: str, why: str) -> None:
    assert control_refusal(button(label)) == why


def test_forms_and_what_is_inside_them_are_never_pressed() -> None:
    assert control_refusal(button("Search", "form", "submit")) == "submits a form"
    assert control_refusal(button("Go", "submit")) == "submits a form"
    assert control_refusal(button("Show password", context='form A0004 "Sign in"')) == (
        "inside a form")


def test_menus_tabs_and_disclosures_are_tried() -> None:
    for control in ("button", "tab", "menu item", "details", "clickable"):
        assert is_candidate(button("More", control))
        assert control_refusal(button("More", control)) == ""
    assert not is_candidate(button("Size", "select", "select"))
    assert not is_candidate(button("Name", "text", "fill"))

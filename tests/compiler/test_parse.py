"""Charset decisions and parser cuts: never an exception, never a silent loss."""

from __future__ import annotations

import codecs

from webshellfs.compiler import compile_page
from webshellfs.compiler.parse import decode, parse

CAFE = "<p>café – déjà vu</p>"


def test_bom_wins_over_every_declaration() -> None:
    data = codecs.BOM_UTF16_LE + '<meta charset="latin1"><p>ü</p>'.encode("utf-16-le")
    assert decode(data, "text/html; charset=shift_jis")[:2] == ('<meta charset="latin1"><p>ü</p>', "utf-16-le")


def test_header_charset_then_meta_charset() -> None:
    latin = CAFE.encode("cp1252")
    assert decode(latin, "text/html; charset=windows-1252") == (CAFE, "cp1252", [])
    assert decode(b'<meta charset="iso-8859-1">' + latin)[1] == "cp1252"
    http_equiv = b'<meta http-equiv="Content-Type" content="text/html; charset=koi8-r">'
    assert decode(http_equiv + "<p>привет</p>".encode("koi8-r"))[0].endswith("<p>привет</p>")


def test_valid_utf8_wins_over_a_wrong_declaration_and_says_so() -> None:
    text, codec, notes = decode(b'<meta charset="gb2312">' + CAFE.encode("utf-8"))
    assert (text.endswith(CAFE), codec) == (True, "utf-8")
    assert notes == ["declared charset gbk, but the bytes are UTF-8; read as UTF-8"]


def test_undeclared_non_utf8_is_guessed_and_noted() -> None:
    text, codec, notes = decode(("<p>" + "Größe und Gewicht für Männer. " * 20 + "</p>").encode("cp1252"))
    assert "Größe" in text
    assert notes == [f"charset not declared; decoded as {codec} (guessed)"]


def test_bytes_the_declared_charset_cannot_decode_become_replacement_characters() -> None:
    text, codec, notes = decode(b"<p>ok \x81\x82 \xff</p>", "text/html; charset=shift_jis")
    assert codec == "shift_jis" and text.startswith("<p>ok ") and "\ufffd" in text
    assert notes == ["bytes that are not valid shift_jis were replaced with U+FFFD"]


def test_unknown_charset_label_is_ignored() -> None:
    assert decode(b"<p>plain</p>", "text/html; charset=no-such-thing")[:2] == ("<p>plain</p>", "utf-8")


def test_empty_and_declaration_only_documents_parse_to_an_empty_body() -> None:
    for data in (b"", "", "   ", "<!-- only -->", '<?xml version="1.0" encoding="utf-8"?>'):
        root = parse(data).root
        assert root.find("body") is not None


def test_a_text_node_over_10_mb_survives() -> None:
    page = compile_page(b"<p>" + b"x " * 5_500_000 + b"end</p><p>after</p>", "https://t.test/")
    lines = [line for section in page.sections for line in section.lines]
    assert lines[-1] == "after"
    assert " ".join(lines[:-1]).endswith("x x end") and all(len(line) <= 4000 for line in lines)
    assert page.notes == ()


def test_nesting_beyond_the_parser_limit_is_noted() -> None:
    page = compile_page("<div>" * 3000 + "deep" + "</div>" * 3000 + "<p>after</p>", "https://t.test/")
    assert page.notes == (
        (
            "the HTML parser stopped early (Excessive depth in document: 2048, use XML_PARSE_HUGE "
            "option); text after that point is missing"
        ),
    )


def test_text_the_parser_drops_is_noted() -> None:
    page = compile_page("<table><colgroup></html>" + "lost words " * 10, "https://t.test/")
    assert page.notes == ("the HTML parser dropped part of the text (a malformed region); the rest is kept",)


def test_markup_inside_attribute_values_is_not_mistaken_for_lost_text() -> None:
    payload = '{"caption":"<p>' + "words " * 2000 + '</p>"}'
    page = compile_page(f"<div data-json='{payload}'><p>Shown.</p></div>", "https://t.test/")
    assert page.notes == ()


def test_utf16_is_believed_from_the_header_but_not_from_a_meta() -> None:
    data = "<p>héllo</p>".encode("utf-16-le")
    assert decode(data, "text/html; charset=utf-16le")[:2] == ("<p>héllo</p>", "utf-16-le")
    assert decode(b'<meta charset="utf-16"><p>kept</p>')[1] == "utf-8"

from webshellfs.contract.layout import LONG_VALUE_CHARS, format_field, render_page, section_files
from webshellfs.contract.names import slugify
from webshellfs.contract.records import Choice, CompiledPage, Field, Link, Section


def page_with(sections: tuple[Section, ...], links: tuple[Link, ...] = ()) -> CompiledPage:
    return CompiledPage(url="http://example.test/", title="T", sections=sections, links=links)


def test_section_files_number_headings_from_01_and_keep_00_for_intro() -> None:
    page = page_with(
        (
            Section("content", "", (), ("intro",)),
            Section("content", "Specs", ("Specs",), ()),
            Section("boilerplate", "nav", (), ("Home",)),
            Section("content", "Size", ("Specs", "Size"), ()),
        )
    )
    assert section_files(page) == [
        "content/00-intro.md",
        "content/01-specs.md",
        "boilerplate/nav.md",
        "content/02-size.md",
    ]


def test_nested_heading_keeps_its_path_in_the_first_line() -> None:
    page = page_with((Section("content", "Size", ("Specs", "Size"), ("M is 96 cm",)),))
    files = render_page(page)
    assert files["content/01-size.md"] == b"# Specs > Size\nM is 96 cm\n"


def test_the_hidden_region_is_there_even_when_nothing_is_hidden() -> None:
    files = render_page(page_with((Section("content", "", (), ("x",)),)))
    assert files["boilerplate/hidden.md"] == b"# (hidden)\n"
    hiding = page_with((Section("boilerplate", "hidden", (), ("psst",)),))
    assert render_page(hiding)["boilerplate/hidden.md"] == b"# (hidden)\npsst\n"


def test_tsv_fields_never_carry_tabs_or_newlines() -> None:
    page = page_with(
        (Section("content", "", (), ("x",)),),
        (Link("L0001", "http://e.test/a", "two\tlines\nhere", 0),),
    )
    links = render_page(page)["links.tsv"].decode()
    assert links.splitlines()[1] == "L0001\thttp://e.test/a\ttwo lines here\tcontent/00-intro.md"


def test_long_values_move_to_their_own_file() -> None:
    long_text = "x" * (LONG_VALUE_CHARS + 1)
    page = page_with(
        (Section("content", "", (), ("x",)),), (Link("L0001", "http://e.test/", long_text, 0),)
    )
    files = render_page(page)
    assert files["long-values/V0001.txt"] == (long_text + "\n").encode()
    assert f"→ long-values/V0001.txt ({LONG_VALUE_CHARS + 1} chars)" in files["links.tsv"].decode()


def test_select_field_format_matches_the_contract() -> None:
    field = Field(
        "size",
        "select",
        choices=(Choice("s", "Small"), Choice("m", "Medium", selected=True), Choice("l", "Large")),
    )
    assert format_field(field) == "size(select: s=Small|m=Medium|l=Large; current=m)"
    assert format_field(Field("q", "text", required=True)) == "q(text,required)"


def test_slugs_are_safe_ascii() -> None:
    assert slugify("Größe & Preis (EUR)") == "grosse-preis-eur"
    assert slugify("../../etc/passwd") == "etc-passwd"
    assert slugify("-\x00\u202e") == "section"
    assert len(slugify("é" * 500).encode()) <= 48

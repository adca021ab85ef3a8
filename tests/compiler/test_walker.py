"""The document walk: exact lines produced for each text rule."""

from __future__ import annotations

from webshellfs.compiler import compile_page
from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.walker import UrlResolver
from webshellfs.contract.layout import render_page

URL = "https://site.test/dir/page.html"


def files(html: str, url: str = URL) -> dict[str, str]:
    return {path: data.decode("utf-8") for path, data in render_page(compile_page(html, url)).items()}


def text(html: str, path: str = "content/00-intro.md", url: str = URL) -> list[str]:
    """The lines of one section file, without its `# …` heading line."""
    return files(html, url)[path].splitlines()[1:]


def rows(html: str, name: str) -> list[list[str]]:
    return [line.split("\t") for line in files(html)[name].splitlines()[1:]]


# --- paragraphs and inline text ----------------------------------------------------------------


def test_one_paragraph_is_one_line_with_inline_formatting_merged() -> None:
    html = "<p>A <b>bold</b>\n   and <i>slanted</i>\tclaim,<span> spread</span> over lines.</p><p>Next.</p>"
    assert text(html) == ["A bold and slanted claim, spread over lines.", "Next."]


def test_br_breaks_the_line_and_divs_are_blocks() -> None:
    assert text("<div>one<br>two<div>three</div>four</div>") == ["one", "two", "three", "four"]


def test_scripts_styles_templates_and_noscript_are_dropped() -> None:
    html = ("<p>kept</p><script>var x</script><style>p{}</style><template><p>t</p></template>"
            "<noscript>enable js</noscript>")
    assert text(html) == ["kept"]


def test_hidden_content_stays_out() -> None:
    html = ('<p>a<span hidden>h1</span> b<span aria-hidden="true">h2</span> c'
            '<span style="display : none">h3</span><span style="visibility:hidden">h4</span></p>'
            '<input type="hidden" name="token" value="h5"><dialog><p>h6</p></dialog>')
    assert text(html) == ["a b c"]


def test_inline_code_reads_as_the_page_shows_it_and_control_characters_are_dropped() -> None:
    assert text("<p>Run <code>ls  -l</code> now\x1b[31m.</p>") == ["Run ls -l now[31m."]
    # A phrase copied from the page is found by grep: no marks inside it.
    assert text("<p><code>shared_buffers</code> (<code>integer</code>)</p>") == [
        "shared_buffers (integer)"]


# --- sections ----------------------------------------------------------------------------------


def test_headings_open_sections_that_keep_their_path() -> None:
    html = ("<p>intro</p><h1>Shirt</h1><p>a</p><h2>Specs</h2><h3>Size</h3><p>b</p>"
            "<h2>Care</h2><p>c</p>")
    out = files(html)
    assert out["content/00-intro.md"] == "# (before the first heading)\nintro\n"
    assert out["content/01-shirt.md"] == "# Shirt\na\n"
    assert out["content/02-specs.md"] == "# Shirt > Specs\n"
    assert out["content/03-size.md"] == "# Shirt > Specs > Size\nb\n"
    assert out["content/04-care.md"] == "# Shirt > Care\nc\n"


def test_aria_headings_count_and_empty_headings_do_not() -> None:
    html = ('<div role="heading" aria-level="2">Two</div><p>a</p><h3> </h3><p>b</p>'
            '<span role="heading">Default level</span><p>c</p>')
    out = files(html)
    assert out["content/01-two.md"] == "# Two\na\nb\n"
    assert out["content/02-default-level.md"] == "# Default level\nc\n"


def test_a_heading_with_a_link_keeps_the_link_on_its_first_line() -> None:
    out = files('<h2><a href="/x">Linked</a> title</h2><p>body</p>')
    assert out["content/01-linked-title.md"] == "# Linked title\nLinked [L0001] title\nbody\n"


# --- lists, definitions, quotes, code ------------------------------------------------------------


def test_lists_nest_by_two_spaces_and_ordered_lists_count_from_start() -> None:
    html = ('<ul><li>a<ul><li>a1</li><li>a2<ol><li>x</li></ol></li></ul></li><li>b</li></ul>'
            '<ol start="7"><li>seven</li><li value="10">ten</li><li>eleven</li></ol>')
    assert text(html) == ["- a", "  - a1", "  - a2", "    1. x", "- b", "7. seven", "10. ten", "11. eleven"]


def test_list_item_with_paragraphs_continues_under_its_marker() -> None:
    assert text("<ul><li><p>one</p><p>two</p></li></ul>") == ["- one", "  two"]


def test_definition_lists_are_term_colon_definition() -> None:
    html = "<dl><dt>Weight</dt><dd>2 kg</dd><dt>A</dt><dt>B</dt><dd>both</dd><dd>again</dd><dt>Lone</dt></dl>"
    assert text(html) == ["Weight: 2 kg", "A, B: both", "A, B: again", "Lone"]


def test_blockquote_lines_are_prefixed() -> None:
    html = "<blockquote><p>one</p><p>two</p><blockquote>inner</blockquote></blockquote>"
    assert text(html) == ["> one", "> two", "> > inner"]


def test_preformatted_text_keeps_its_line_breaks_in_a_fence() -> None:
    html = "<pre>\nfirst\n  indented\n\nlast\n</pre><pre>has ``` inside</pre>"
    assert text(html) == ["```", "first", "  indented", "", "last", "```",
                          "````", "has ``` inside", "````"]


# --- links ---------------------------------------------------------------------------------------


def test_links_are_numbered_inline_and_resolved() -> None:
    html = '<p>See <a href="other.html">the other page</a>, <a href="https://x.test/a">x</a>.</p>'
    assert text(html) == ["See the other page [L0001], x [L0002]."]
    assert rows(html, "links.tsv") == [
        ["L0001", "https://site.test/dir/other.html", "the other page", "content/00-intro.md"],
        ["L0002", "https://x.test/a", "x", "content/00-intro.md"],
    ]


def test_base_href_is_used_for_resolution() -> None:
    html = '<head><base href="https://cdn.test/root/"></head><p><a href="a.html">a</a></p>'
    assert rows(html, "links.tsv")[0][1] == "https://cdn.test/root/a.html"


def test_fragment_links_point_at_the_section_of_their_target() -> None:
    html = ('<p><a href="#care">care</a> <a href="page.html#specs">specs</a> <a href="#nowhere">x</a></p>'
            '<section id="specs"><h2>Specs</h2><p>s</p></section><h2 id="care">Care</h2><p>c</p>')
    assert [row[2] for row in rows(html, "links.tsv")] == [
        "care → content/02-care.md", "specs → content/01-specs.md", "x"]


def test_a_link_around_blocks_puts_its_ref_on_its_last_line() -> None:
    html = '<a href="/card"><h3>Card title</h3><p>Card text.</p></a>'
    assert files(html)["content/01-card-title.md"] == "# Card title\nCard text. [L0001]\n"
    assert rows(html, "links.tsv")[0][2] == "Card title Card text."


def test_a_link_without_text_is_named_by_its_label() -> None:
    html = '<p>Chat: <a href="/chat" aria-label="Open chat"><svg></svg></a></p>'
    assert text(html) == ["Chat: Open chat [L0001]"]


def test_script_links_are_not_links() -> None:
    assert rows('<p><a href="javascript:go()">go</a></p>', "links.tsv") == []


# --- images --------------------------------------------------------------------------------------


def test_images_are_inline_with_their_description() -> None:
    html = ('<p>Chart <img src="c.png" alt="Sales  by month"> here.</p>'
            '<figure><img src="f.png"><figcaption>The caption</figcaption></figure>'
            '<img src="t.png" title="Titled">')
    assert text(html) == ["Chart [I0001 image: Sales by month] here.", "[I0002 image]",
                          "The caption", "[I0003 image: Titled]"]
    assert [row[1:3] for row in rows(html, "images.tsv")] == [
        ["https://site.test/dir/c.png", "Sales by month"],
        ["https://site.test/dir/f.png", "The caption"],
        ["https://site.test/dir/t.png", "Titled"],
    ]


def test_image_source_is_the_largest_srcset_candidate_or_the_lazy_one() -> None:
    html = ('<img src="s.png" srcset="m.png 800w, l.png 1600w, s.png 400w" alt="w">'
            '<img srcset="a.png, b.png 2x, c.png 1.5x" alt="x">'
            '<img src="data:image/gif;base64,R0lG" data-src="/real.png" alt="lazy">'
            '<img src="/pixel.gif" width="1" height="1">')
    assert [row[1] for row in rows(html, "images.tsv")] == [
        "https://site.test/dir/l.png", "https://site.test/dir/b.png", "https://site.test/real.png"]


# --- page facts ----------------------------------------------------------------------------------


def test_title_and_language() -> None:
    page = compile_page('<html lang="de"><head><title> Ein  Titel </title></head><p>x</p></html>', URL)
    assert (page.title, page.lang) == ("Ein Titel", "de")
    assert compile_page('<html xml:lang="fr"><p>x</p></html>', URL).lang == "fr"
    assert compile_page("<h1>From the heading</h1>", URL).title == "From the heading"
    og = '<head><meta property="og:title" content="From OG"></head><h1>h</h1>'
    assert compile_page(og, URL).title == "From OG"


def test_element_ids_are_anchors_of_the_section_holding_their_content() -> None:
    page = compile_page('<p id="top">t</p><div id="wrap"><h2 id="h">Head</h2><p id="in">x</p></div>', URL)
    assert dict(page.anchors) == {"top": 0, "wrap": 1, "h": 1, "in": 1}


def test_long_paragraphs_are_wrapped_at_spaces_not_cut() -> None:
    words = " ".join(f"w{i}" for i in range(2000))
    lines = text(f"<p>{words}</p>")
    assert len(lines) > 1 and all(len(line) <= 4000 for line in lines)
    assert " ".join(lines) == words


def test_compile_is_deterministic_and_never_raises_on_garbage() -> None:
    for data in (b"", b"\xff\xfe\x00", "<" * 1000, b"<html><body>" + b"<div>" * 5000):
        first = render_page(compile_page(data, URL))
        assert render_page(compile_page(data, URL)) == first


def test_edit_links_in_brackets_are_not_part_of_a_section_name() -> None:
    out = files('<h2>History<span>[<a href="/edit">edit</a>]</span></h2><p>x</p>')
    assert out["content/01-history.md"] == "# History\nHistory[edit [L0001] ]\nx\n"


def test_a_very_long_section_continues_in_parts() -> None:
    paragraph = "<p>" + "word " * 9_000 + "</p>"  # 45,000 characters
    out = files("<p>intro</p><h2>Long</h2>" + paragraph * 5 + "<h2>Next</h2><p>n</p>")
    assert [(path, data.count("\n")) for path, data in out.items() if path.startswith("content/")] == [
        ("content/00-intro.md", 2),
        ("content/01-long.md", 28),
        ("content/02-long-part-2.md", 28),
        ("content/03-long-part-3.md", 7),
        ("content/04-next.md", 2),
    ]
    assert out["content/02-long-part-2.md"].startswith("# Long (part 2)\n")


def test_a_heading_group_opens_one_section_with_kicker_and_subtitle_as_lines() -> None:
    html = ("<article><header><h4>Science</h4><h1>The title</h1><h2>The subtitle.</h2></header>"
            "<p>Body.</p><h2>Later</h2><p>x</p></article>")
    out = files(html)
    assert out["content/01-the-title.md"] == "# The title\nScience\nThe subtitle.\nBody.\n"
    assert out["content/02-later.md"] == "# The title > Later\nx\n"


def test_permalink_marks_are_not_part_of_a_section_name() -> None:
    out = files('<h2>Usage ¶</h2><p>u</p><h2>Install <a href="#install">#</a></h2><p>i</p>')
    assert out["content/01-usage.md"] == "# Usage\nu\n"
    assert out["content/02-install.md"] == "# Install\nInstall # [L0001]\ni\n"


def test_line_breaks_inside_preformatted_text_survive_highlighting_and_controls_do_not() -> None:
    html = "<pre><code><span>// a</span><br><b>x</b>\t= 1;<script>no</script>\n<i>y\x1b</i></code></pre>"
    assert text(html) == ["```", "// a", "x\t= 1;", "y", "```"]


def test_highlighted_inline_code_is_one_run_unless_it_holds_a_link() -> None:
    html = ('<p>Call <code><span>f</span>(<b>x</b>)</code> or '
            '<code><a href="/api#g">g</a>()</code>.</p>')
    assert text(html) == ["Call f(x) or g [L0001] ()."]


def test_deep_nesting_is_shown_at_a_bounded_depth() -> None:
    lines = text("<blockquote>" * 100 + "<p>deep</p>" * 3)
    assert lines == ["> " * 24 + "deep"] * 3


def test_the_url_shortcuts_agree_with_the_builders_resolution() -> None:
    hrefs = ["https://a.test/b?c", "https://a.test/b?", "https://a.test/b#", "/root?q#f", "/a/../b",
             "//cdn.test/x", "#frag", "#", "rel/x", "/a b", "mailto:x@y.test", "/a?#", "HTTP://A.test/"]
    for base in ("https://site.test/dir/page.html#top", "https://u@site.test:8080", "file:///tmp/x.html"):
        builder = PageBuilder(base)
        resolver = UrlResolver(builder)
        assert [resolver.resolve(h) for h in hrefs] == [builder.resolve_url(h) for h in hrefs]


def test_a_shown_modal_dialog_is_noted_and_a_hidden_one_is_not() -> None:
    shown = files('<h1>Shop</h1><button>Buy</button><div role="dialog" aria-modal="true" '
                  'aria-labelledby="t"><h5 id="t">Confirm the order</h5><button>OK</button></div>')
    assert ('- a modal dialog is open ("Confirm the order"): only its controls can be used until '
            "it is closed; the page under it takes no clicks") in shown["_map.md"].splitlines()
    hidden = files('<h1>Shop</h1><div role="dialog" aria-modal="true" hidden><h5>Confirm</h5>'
                   "</div>")
    assert "modal dialog" not in hidden["_map.md"]


def test_what_follows_a_hidden_part_stays_under_the_heading_it_follows() -> None:
    """A closed dialog's headings hold its own lines; the page's text after it is under the
    heading before it, where a person reads it."""
    out = files('<h1>Modal</h1><p>Intro.</p><button aria-controls="m">Launch demo modal</button>'
                '<div id="m" hidden><h5>Modal title</h5><p>Inside the modal.</p></div>'
                "<p>After the modal, on the page.</p><h2>Next</h2><p>Next text.</p>")
    assert out["content/01-modal.md"].splitlines()[1:] == [
        "Intro.", '[A0001 button "Launch demo modal"]', "After the modal, on the page."]
    assert out["content/02-modal-title.md"].splitlines()[1:] == [
        '[hidden until A0001 button "Launch demo modal"] Inside the modal.']
    assert out["content/03-next.md"].splitlines() == ["# Modal > Next", "Next text."]


def test_a_long_section_continues_in_parts_and_each_object_is_filed_where_it_is_mentioned() -> None:
    rows = "".join(f'<li><a href="/o/{n}">Order {n:05d} {"x" * 60}</a></li>' for n in range(2000))
    out = files(f"<h1>Orders</h1><ul>{rows}</ul>")
    parts = sorted(path for path in out if path.startswith("content/"))
    assert len(parts) >= 2 and "(part 2)" in out[parts[1]].splitlines()[0]
    for line in out["links.tsv"].splitlines()[1:]:
        link_id, section = line.split("\t")[0], line.split("\t")[-1]
        assert f"[{link_id}]" in out[section], (link_id, section)

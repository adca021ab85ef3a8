"""Which regions go to boilerplate/, and that main text never does."""

from __future__ import annotations

import lxml.html

from webshellfs.compiler import compile_page
from webshellfs.compiler.boilerplate import TextWeights, class_words, find_main_container
from webshellfs.contract.layout import HIDDEN_FILE, render_page

URL = "https://site.test/a.html"
ARTICLE = "".join(
    f"<p>Paragraph {n} of the story, long enough to be the main text of this page by far.</p>"
    for n in range(8)
)


def regions(html: str) -> dict[str, list[str]]:
    """Each section file → its lines (heading line dropped); the hidden region only when the
    page hides something (it is there, empty, in every page)."""
    files = render_page(compile_page(html, URL))
    return {
        path: data.decode().splitlines()[1:]
        for path, data in files.items()
        if path.startswith(("content/", "boilerplate/"))
        and (path != HIDDEN_FILE or data.count(b"\n") > 1)
    }


def test_landmark_elements_and_roles_go_to_their_region() -> None:
    html = ('<nav><a href="/">Home</a></nav><div role="search"><p>Find</p></div>'
            '<div role="banner">Brand</div><main><p>Body</p></main>'
            '<aside>Aside</aside><div role="contentinfo">Legal</div>')
    assert regions(html) == {
        "boilerplate/nav.md": ["Home [L0001]"],
        "boilerplate/search.md": ["Find"],
        "boilerplate/header.md": ["Brand"],
        "content/00-intro.md": ["Body"],
        "boilerplate/aside.md": ["Aside"],
        "boilerplate/footer.md": ["Legal"],
    }


def test_an_articles_own_header_and_footer_stay_in_content() -> None:
    html = ("<header>Site</header><article><header><h1>Title</h1><p>Byline</p></header>"
            "<p>Text</p><footer>Tags</footer></article><footer>Legal</footer>")
    assert regions(html) == {
        "boilerplate/header.md": ["Site"],
        "content/01-title.md": ["Byline", "Text", "Tags"],
        "boilerplate/footer.md": ["Legal"],
    }


def test_a_nav_inside_the_header_is_the_nav() -> None:
    html = '<header><p>Brand</p><nav><a href="/x">X</a></nav><p>Tagline</p></header>'
    assert regions(html) == {
        "boilerplate/header.md": ["Brand", "Tagline"],
        "boilerplate/nav.md": ["X [L0001]"],
    }


def test_unmarked_chrome_outside_the_main_text_is_recognised() -> None:
    html = ('<div id="cookie-notice">We use cookies.</div>'
            '<div class="menu"><a href="/1">One</a><a href="/2">Two</a></div>'
            '<ul><li><a href="/a">Alpha</a></li><li><a href="/b">Beta</a></li><li><a href="/c">Gamma</a></li></ul>'
            f'<div class="post">{ARTICLE}</div>'
            '<div class="sidebarWidget"><p>About the author.</p></div>')
    out = regions(html)
    assert out["boilerplate/consent.md"] == ["We use cookies."]
    assert out["boilerplate/nav.md"] == ["One [L0001] Two [L0002]", "- Alpha [L0003]", "- Beta [L0004]",
                                         "- Gamma [L0005]"]
    assert out["boilerplate/aside.md"] == ["About the author."]
    assert len(out["content/00-intro.md"]) == 8


def test_annotated_link_lists_and_chrome_words_inside_the_main_text_stay() -> None:
    html = (f'<div class="post">{ARTICLE}<ul><li><a href="/r1">Reference one</a>, the study the story is about</li>'
            '<li><a href="/r2">Reference two</a>, where its figures come from</li>'
            '<li><a href="/r3">Reference three</a>, an interview with its author</li></ul>'
            '<p class="footer-note">A note at the end of the story.</p></div>')
    out = regions(html)
    assert list(out) == ["content/00-intro.md"]
    assert out["content/00-intro.md"][-4:] == [
        "- Reference one [L0001], the study the story is about",
        "- Reference two [L0002], where its figures come from",
        "- Reference three [L0003], an interview with its author", "A note at the end of the story."]


def test_a_bare_list_of_links_inside_the_main_text_is_related() -> None:
    html = (f'<div class="post">{ARTICLE}<ul><li><a href="/r1">Another story</a></li>'
            '<li><a href="/r2">A second story</a></li><li><a href="/r3">A third story</a></li></ul></div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == ["- Another story [L0001]", "- A second story [L0002]",
                                             "- A third story [L0003]"]
    assert len(out["content/00-intro.md"]) == 8


def test_a_small_share_bar_inside_the_main_text_is_moved_but_a_big_block_is_not() -> None:
    html = (f'<div class="post">{ARTICLE}<div class="share-buttons"><a href="/s">Share</a></div>'
            f'<div class="related-work">{ARTICLE}</div></div>')
    out = regions(html)
    assert out["boilerplate/share.md"] == ["Share [L0001]"]
    assert len(out["content/00-intro.md"]) == 16


def test_a_block_holding_the_h1_is_never_moved() -> None:
    html = f'<div class="header"><h1>The title</h1></div><div class="post">{ARTICLE}</div>'
    assert "content/01-the-title.md" in regions(html)


def test_skip_links_go_to_nav() -> None:
    html = '<a href="#main">Skip to main content</a><p id="main">Text</p>'
    assert regions(html)["boilerplate/nav.md"] == ["Skip to main content [L0001]"]


def test_main_container_is_the_smallest_element_holding_most_text() -> None:
    body = lxml.html.document_fromstring(
        f'<body><div id="page"><div id="menu"><a href="/">{"menu " * 200}</a></div>'
        f'<div id="story"><div id="text">{ARTICLE}</div><p>{"x" * 100}</p></div></div></body>'
    ).find("body")
    main = find_main_container(body, TextWeights(body).prose)
    assert main is not None and main.get("id") == "text"
    assert find_main_container(body, TextWeights(body).prose) is main


def test_class_words_split_names_and_camel_case() -> None:
    element = lxml.html.fragment_fromstring('<div class="siteHeader  main_nav" id="top-Bar"></div>')
    assert class_words(element) == ["siteheader", "site", "header", "main_nav", "main", "nav",
                                    "top-bar", "top", "bar"]


def test_the_main_article_wins_over_comments_and_related_posts_beside_it() -> None:
    html = (f'<main><article><h1>Story</h1>{ARTICLE}</article>'
            '<div id="comments"><p>First comment, quite long and chatty about the story.</p></div>'
            '<article><p>A much shorter related post.</p></article></main>')
    out = regions(html)
    assert out["boilerplate/comments.md"] == ["First comment, quite long and chatty about the story."]
    assert out["content/01-story.md"][-1] == "A much shorter related post."


def test_a_table_of_contents_inside_the_main_text_goes_to_nav() -> None:
    html = (f'<div class="post"><div id="toc"><ul><li><a href="#a">A</a></li></ul></div>{ARTICLE}</div>')
    assert regions(html)["boilerplate/nav.md"] == ["- A [L0001]"]


def test_a_list_of_spelled_out_urls_outside_the_main_text_is_not_a_menu() -> None:
    urls = "".join(f'<li><a href="https://ref.test/{n}">https://ref.test/{n}</a></li>' for n in range(3))
    out = regions(f'<div class="post">{ARTICLE}</div><div><ul>{urls}</ul></div>')
    assert list(out) == ["content/00-intro.md"]


def test_a_gallery_outweighing_its_story_widens_the_main_text_to_the_article() -> None:
    captions = "".join(f"<li>Slide {n}: a long caption describing this picture in detail.</li>" for n in range(20))
    html = (f'<article><p>The story itself.</p><div class="widget">A caption inside the story.</div>'
            f'<ul>{captions}</ul></article>')
    assert list(regions(html)) == ["content/00-intro.md"]


def test_a_landmark_holding_the_main_text_stays_in_content() -> None:
    html = f'<nav><a href="/">Home</a></nav><aside class="content-column">{ARTICLE}</aside>'
    out = regions(html)
    assert out["boilerplate/nav.md"] == ["Home [L0001]"]
    assert len(out["content/00-intro.md"]) == 8


def test_text_weights_count_prose_link_text_and_links_per_subtree() -> None:
    body = lxml.html.document_fromstring(
        '<body><div id="d"><p>four <a href="/x">link</a> five</p>'
        '<a href="/u">https://u.test</a><script>ignored()</script></div></body>'
    ).find("body")
    weights = TextWeights(body)
    div = body.get_element_by_id("d")
    assert (weights.prose[div], weights.text[div], weights.links[div], weights.url_links[div]) == (
        8, 26, 2, 1)


def test_dialogs_are_popups() -> None:
    html = (f'<div role="dialog"><p>Sign in to continue.</p></div><div class="post">{ARTICLE}</div>'
            '<dialog open><p>Accept cookies?</p></dialog><dialog><p>Closed, so hidden.</p></dialog>')
    assert regions(html)["boilerplate/popup.md"] == ["Sign in to continue.", "Accept cookies?"]

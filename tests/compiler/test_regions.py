"""The boilerplate kinds of an article page besides its chrome: each goes to a file named for
what it is (compiler/regions.py), and main text stays in content/."""

from __future__ import annotations

from webshellfs.compiler import compile_page
from webshellfs.contract.layout import HIDDEN_FILE, render_page

URL = "https://site.test/story.html"
PARAGRAPHS = [
    f"<p>Paragraph {n} of the story, long enough to be the main text of this page by far, "
    "with a sentence more so that the article clearly outweighs everything around it.</p>"
    for n in range(8)
]
STORY = "".join(PARAGRAPHS)


def regions(html: str) -> dict[str, list[str]]:
    """Each section file → its lines (heading line dropped), the empty hidden region left out."""
    files = render_page(compile_page(html, URL))
    return {
        path: data.decode().splitlines()[1:]
        for path, data in files.items()
        if path.startswith(("content/", "boilerplate/"))
        and (path != HIDDEN_FILE or data.count(b"\n") > 1)
    }


def content_lines(out: dict[str, list[str]]) -> list[str]:
    return [line for path, lines in out.items() if path.startswith("content/") for line in lines]


def test_a_related_articles_list_after_the_story_goes_to_related() -> None:
    html = (f'<article><h1>The story</h1>{STORY}'
            '<div class="box"><h2>Mehr zum Thema</h2><ul>'
            '<li><a href="/a">Another story about the same thing</a></li>'
            '<li><a href="/b">A second story</a></li></ul></div></article>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Mehr zum Thema", "- Another story about the same thing [L0001]",
        "- A second story [L0002]"]
    assert len(content_lines(out)) == 8


def test_a_comment_thread_longer_than_the_story_goes_to_comments() -> None:
    remark = "a reader has a lot to say about this story. " * 6
    comments = "".join(f"<li><p>Comment {n}: {remark}</p></li>" for n in range(12))
    html = (f'<main><article><h1>The story</h1>{STORY}</article>'
            '<section id="comments"><h2>12 Comments</h2>'
            f'<ol class="commentlist">{comments}</ol></section></main>')
    out = regions(html)
    assert out["boilerplate/comments.md"][0] == "12 Comments"
    assert len(out["boilerplate/comments.md"]) == 13
    assert all(line.startswith("Paragraph") for line in content_lines(out))
    assert len(content_lines(out)) == 8


def test_comments_named_only_by_their_heading_go_to_comments() -> None:
    html = (f'<div class="post">{STORY}<div><h3>Kommentare</h3>'
            '<p>Erster Kommentar zum Artikel.</p><p>Zweiter Kommentar.</p></div></div>')
    out = regions(html)
    assert out["boilerplate/comments.md"] == [
        "Kommentare", "Erster Kommentar zum Artikel.", "Zweiter Kommentar."]


def test_a_newsletter_box_inside_the_story_goes_to_promo() -> None:
    html = (f'<div class="entry-content">{"".join(PARAGRAPHS[:4])}'
            '<div class="newsletter-signup"><p>Get the best stories every morning.</p>'
            '<form><input name="email"><button>Subscribe</button></form></div>'
            f'{"".join(PARAGRAPHS[4:])}</div>')
    out = regions(html)
    assert out["boilerplate/promo.md"][0] == "Get the best stories every morning."
    assert len(content_lines(out)) == 8


def test_share_bar_author_bio_tags_and_credits_each_have_their_file() -> None:
    html = (f'<article><h1>The story</h1>'
            '<figure><img src="/p.jpg" alt="A lighthouse"><figcaption>The lighthouse at dawn. '
            'Foto: Jane Doe</figcaption></figure>'
            f'{STORY}<p>Bild: Agentur Beispiel</p>'
            '<div class="sharebar"><a href="/s">Share</a> <a href="/t">Tweet</a></div>'
            '<div class="author-box"><p>Jane Doe writes about coasts and ships.</p></div>'
            '<div class="post-tags"><span>Tags</span> <a href="/t/sea">sea</a> '
            '<a href="/t/light">light</a></div>'
            '</article>')
    out = regions(html)
    assert out["boilerplate/credits.md"] == ["Bild: Agentur Beispiel"]
    assert out["boilerplate/share.md"] == ["Share [L0001] Tweet [L0002]"]
    assert out["boilerplate/bio.md"] == ["Jane Doe writes about coasts and ships."]
    assert out["boilerplate/tags.md"] == ["Tags sea [L0003] light [L0004]"]
    assert content_lines(out)[:2] == ["[I0001 image: A lighthouse]",
                                      "The lighthouse at dawn. Foto: Jane Doe"]
    assert len(content_lines(out)) == 10  # the image, its caption and the story


def test_a_box_after_the_main_text_goes_to_aside_but_prose_after_it_stays() -> None:
    html = (f'<div id="page"><div class="story">{STORY}</div>'
            '<div><h4>Sie lesen gern unsere Seite?</h4><a href="/spenden">Jetzt spenden</a></div>'
            '<div>A closing remark the author added below the story.</div></div>')
    out = regions(html)
    assert out["boilerplate/aside.md"] == ["Sie lesen gern unsere Seite?", "Jetzt spenden [L0001]"]
    assert content_lines(out)[-1] == "A closing remark the author added below the story."


def test_a_home_page_keeps_its_listings_as_content() -> None:
    cards = "".join(
        f'<li><h2><a href="/story-{n}">Headline of story number {n} on the front page</a></h2>'
        f'<p>Teaser {n}.</p></li>' for n in range(20))
    html = ('<header><a href="/">Site</a></header>'
            f'<main><h1>Front page</h1><h2>Most read</h2><ul>{cards}</ul></main>')
    out = regions(html)
    assert "boilerplate/related.md" not in out
    assert sum("Headline of story number" in line for line in content_lines(out)) == 20


def test_a_table_of_links_in_the_story_stays_content() -> None:
    rows = "".join(f'<tr><td><a href="/p/{n}">Person {n}</a></td>'
                   f'<td><a href="/c/{n}">City {n}</a></td></tr>' for n in range(5))
    html = (f'<div class="post">{STORY}'
            f'<table><tr><th>Name</th><th>Town</th></tr>{rows}</table></div>')
    page = compile_page(html, URL)
    assert [page.sections[table.section].kind for table in page.tables] == ["content"]


def test_an_unnamed_list_of_links_into_the_page_is_a_table_of_contents() -> None:
    html = (f'<div class="post"><ul><li><a href="#one">One</a></li><li><a href="#two">Two</a></li>'
            f'<li><a href="#three">Three</a></li></ul>{STORY}</div>')
    assert regions(html)["boilerplate/nav.md"] == [
        "- One [L0001]", "- Two [L0002]", "- Three [L0003]"]


def test_a_section_a_heading_names_goes_to_that_kind_up_to_the_next_heading() -> None:
    html = (f'<div class="post"><h1>The story</h1>{STORY}'
            '<h2>Mehr zum Thema</h2><p><a href="/a">Another story about the same thing</a></p>'
            '<ul><li><a href="/b">A second story</a> (video)</li></ul>'
            '<h2>Ein Nachtrag</h2><p>The author added a line after the story.</p></div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Mehr zum Thema", "Another story about the same thing [L0001]",
        "- A second story [L0002] (video)"]
    assert content_lines(out)[-1] == "The author added a line after the story."
    assert len(content_lines(out)) == 9


def test_a_comments_heading_takes_the_unnamed_paragraphs_after_it() -> None:
    html = (f'<div class="entry">{STORY}<h3>Comments</h3><p>Great piece, thanks.</p>'
            '<p>I disagree with the second paragraph.</p></div>')
    out = regions(html)
    assert out["boilerplate/comments.md"] == [
        "Comments", "Great piece, thanks.", "I disagree with the second paragraph."]
    assert len(content_lines(out)) == 8


def test_a_page_whose_text_sits_under_such_a_heading_keeps_it() -> None:
    html = f'<article><h1>Reader letters</h1><h2>Kommentare</h2>{STORY}</article>'
    out = regions(html)
    assert out.get("boilerplate/comments.md", ["Kommentare"]) == ["Kommentare"]
    assert sum(line.startswith("Paragraph") for line in content_lines(out)) == 8


def test_a_related_heading_over_prose_is_not_a_list_of_other_articles() -> None:
    html = (f'<div class="post">{STORY}<h2>Read more</h2>'
            '<p>Some closing thoughts of the author, in prose, not a list of links.</p></div>')
    out = regions(html)
    assert out.get("boilerplate/related.md", ["Read more"]) == ["Read more"]
    assert content_lines(out)[-1].startswith("Some closing thoughts")


def test_a_later_h1_heading_a_box_does_not_keep_it_but_the_title_stays() -> None:
    html = (f'<h1>The story</h1><div class="story">{STORY}</div>'
            '<div class="teasers"><h1>Meist gelesen</h1><ul><li><a href="/a">Most read one</a></li>'
            '<li><a href="/b">Most read two</a></li></ul></div>')
    out = regions(html)
    assert out["boilerplate/related.md"][0] == "Meist gelesen"
    assert any(path.startswith("content/") and "the-story" in path for path in out)


def test_an_advertisement_label_and_the_words_of_donation_and_action_bars_are_named() -> None:
    html = (f'<div class="post">{"".join(PARAGRAPHS[:4])}'
            '<div><p>Anzeige</p><a href="/shop">Buy the thing now</a></div>'
            '<div id="blog_spenden"><p>Unterstützen Sie unsere Arbeit.</p></div>'
            '<div class="tip-action-bar"><span>Tipp drucken</span> <span>Merken</span></div>'
            f'{"".join(PARAGRAPHS[4:])}</div>')
    out = regions(html)
    assert out["boilerplate/ads.md"] == ["Anzeige", "Buy the thing now [L0001]"]
    assert out["boilerplate/promo.md"] == ["Unterstützen Sie unsere Arbeit."]
    assert out["boilerplate/share.md"] == ["Tipp drucken Merken"]
    assert len(content_lines(out)) == 8


def test_a_weitere_heading_heads_other_pages_but_a_mehr_subheading_of_prose_stays() -> None:
    html = (f'<div class="post">{"".join(PARAGRAPHS[:4])}'
            '<h3>Mehr Sicherheit</h3><p>The story goes on with a paragraph of its own here.</p>'
            f'{"".join(PARAGRAPHS[4:])}'
            '<h3>Weitere Tourentipps in Schweden</h3><div><a href="/a">Kayaking the lakes</a></div>'
            '<div><a href="/b">Hiking the coast</a></div></div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Weitere Tourentipps in Schweden", "Kayaking the lakes [L0001]", "Hiking the coast [L0002]"]
    assert "The story goes on with a paragraph of its own here." in content_lines(out)
    assert any(path.startswith("content/") and "mehr-sicherheit" in path for path in out)


def test_an_h1_naming_a_kind_heads_its_section_and_the_title_stays() -> None:
    html = (f'<div class="entry"><h2>The story</h2>{STORY}<h1>Redaktionstipp</h1>'
            '<p><a href="/other">Lesen Sie hier einen weiteren Beitrag</a></p></div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Redaktionstipp", "Lesen Sie hier einen weiteren Beitrag [L0001]"]
    assert len(content_lines(out)) == 8


def test_a_sidebar_inside_the_main_container_does_not_make_the_article_a_listing() -> None:
    links = "".join(f'<li><a href="/post-{n}">A recent post of this blog, number {n}</a></li>'
                    for n in range(30))
    html = (f'<div class="inside">{"".join(PARAGRAPHS[:5])}'
            '<h2>Neueste Beiträge</h2><ul><li><a href="/x">The newest post</a></li>'
            '<li><a href="/y">The one before</a></li></ul>'
            f'<div id="sidebar"><ul>{links}</ul></div></div>')
    out = regions(html)
    assert out["boilerplate/related.md"][0] == "Neueste Beiträge"
    assert sum(line.startswith("Paragraph") for line in content_lines(out)) == 5


def test_a_captions_source_line_named_as_such_goes_to_credits_its_description_stays() -> None:
    html = (f'<div class="news">{"".join(PARAGRAPHS[:4])}<div class="media">'
            '<img src="/p.jpg" alt=""><p class="media__caption--description">Protesters in the '
            'square in summer.</p><p class="media__caption--source">Jane Doe, Main Street.</p>'
            f'</div>{"".join(PARAGRAPHS[4:])}</div>')
    out = regions(html)
    assert out["boilerplate/credits.md"] == ["Jane Doe, Main Street."]
    assert "Protesters in the square in summer." in content_lines(out)


def test_a_figure_labelled_as_an_advertisement_goes_to_ads() -> None:
    html = (f'<article><h1>The story</h1>{"".join(PARAGRAPHS[:4])}'
            '<figure><a href="https://shop.test/"><img src="/ad.jpg" alt="Reklama"></a>'
            '<figcaption>Reklama</figcaption></figure>'
            '<figure><img src="/p.jpg" alt="A lighthouse"><figcaption>The lighthouse at dawn.'
            f'</figcaption></figure>{"".join(PARAGRAPHS[4:])}</article>')
    out = regions(html)
    assert out["boilerplate/ads.md"][-1] == "Reklama"
    assert "The lighthouse at dawn." in content_lines(out)


def test_a_byline_and_a_publication_date_go_to_byline_the_title_stays() -> None:
    html = ('<article><header><h1>The story</h1><div class="article__byline-wrap">'
            '<span>By</span> <a href="/staff/jane">Jane Doe</a></div>'
            '<time class="entry-timestamp" datetime="2026-11-30">Nov. 30, 2026 8:03 am ET</time>'
            f'<p class="post-meta">Published 30 November 2026</p></header>{STORY}</article>')
    out = regions(html)
    assert out["boilerplate/byline.md"] == [
        "By Jane Doe [L0001]", "Nov. 30, 2026 8:03 am ET", "Published 30 November 2026"]
    assert content_lines(out) == [p[3:-4] for p in PARAGRAPHS]
    assert any(path.startswith("content/") and "the-story" in path for path in out)


def test_a_listings_dates_and_authors_stay_with_its_items() -> None:
    cards = "".join(
        f'<li><h2><a href="/story-{n}">Headline of story number {n} on the front page</a></h2>'
        f'<span class="date">30 November 2026</span><p>Teaser {n}.</p></li>' for n in range(20))
    out = regions(f'<main><h1>Front page</h1><ul>{cards}</ul></main>')
    assert "boilerplate/byline.md" not in out
    assert sum(line.strip() == "30 November 2026" for line in content_lines(out)) == 20


def test_a_galleries_lightbox_inside_the_story_is_a_popup_its_captions_stay() -> None:
    html = (f'<article><h1>The story</h1>{"".join(PARAGRAPHS[:4])}'
            '<figure><img src="/p.jpg" alt=""><figcaption>The harbour at dawn.</figcaption>'
            '</figure><div class="gallery-overlay-outer"><div>The story</div>'
            '<div>The harbour at dawn.</div><div>Back to Gallery</div></div>'
            f'{"".join(PARAGRAPHS[4:])}</article>')
    out = regions(html)
    assert out["boilerplate/popup.md"] == ["The story", "The harbour at dawn.", "Back to Gallery"]
    assert content_lines(out).count("The harbour at dawn.") == 1


def test_english_box_headings_name_other_stories_and_sponsored_links() -> None:
    html = (f'<div class="post">{STORY}'
            "<h3>Don't miss</h3><ul><li><a href=\"/a\">Another story of the site</a></li>"
            '<li><a href="/b">And one more</a></li></ul>'
            '<h3>Sponsored links</h3><div><a href="https://shop.test/">Buy the thing</a></div>'
            '</div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Don't miss", "- Another story of the site [L0001]", "- And one more [L0002]"]
    assert out["boilerplate/ads.md"] == ["Sponsored links", "Buy the thing [L0003]"]


def test_reading_time_category_links_and_an_affiliate_disclosure_have_their_files() -> None:
    html = (f'<article><h1>The story</h1><p class="estimated-read-time">Reading time: 2 minutes'
            '</p><span class="cat-links"><a href="/category/travel">Travel</a></span>'
            '<div class="vl_disclosure">We may earn a commission if you buy through links.</div>'
            f'{STORY}</article>')
    out = regions(html)
    assert out["boilerplate/byline.md"] == ["Reading time: 2 minutes"]
    assert out["boilerplate/tags.md"] == ["Travel [L0001]"]
    assert out["boilerplate/ads.md"] == ["We may earn a commission if you buy through links."]
    assert content_lines(out) == [p[3:-4] for p in PARAGRAPHS]


def test_a_navbar_inside_a_main_container_that_wraps_the_page_goes_to_nav() -> None:
    html = ('<div id="page"><div class="navbar navbar-default"><ul>'
            '<li><a href="/a">Services</a></li><li><a href="/b">News</a></li></ul></div>'
            f'{STORY}</div>')
    out = regions(html)
    assert out["boilerplate/nav.md"] == ["- Services [L0001]", "- News [L0002]"]
    assert len(content_lines(out)) == 8


def test_a_label_before_a_colon_names_a_related_link_line_a_sentence_with_one_stays() -> None:
    html = (f'<div class="post">{"".join(PARAGRAPHS[:4])}'
            '<p>Related: <a href="/other">Seven signs of an allergic reaction</a></p>'
            '<p><strong>SEE MORE:</strong> <a href="/more">Students under siege in the '
            'university, day three of the protests</a></p>'
            '<p>Related: the council <a href="/c">voted</a> on the plan in a long and heated '
            f'session on Tuesday evening.</p>{"".join(PARAGRAPHS[4:])}</div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Related: Seven signs of an allergic reaction [L0001]",
        "SEE MORE: Students under siege in the university, day three of the protests [L0002]"]
    assert any(line.startswith("Related: the council") for line in content_lines(out))


def test_a_post_meta_line_and_article_tools_have_their_files() -> None:
    html = (f'<article><h1>The story</h1><p class="meta">By Jane Doe, 30 November 2026</p>'
            '<ul class="js-article-tools"><li><a href="/reprints">Order Reprints</a></li>'
            f'<li><a href="/print">Print Article</a></li></ul>{STORY}'
            '<div class="submitted">Submitted by jane on Mon, 30/11/2026</div></article>')
    out = regions(html)
    assert out["boilerplate/byline.md"] == [
        "By Jane Doe, 30 November 2026", "Submitted by jane on Mon, 30/11/2026"]
    assert out["boilerplate/share.md"] == ["- Order Reprints [L0001]", "- Print Article [L0002]"]
    assert content_lines(out) == [p[3:-4] for p in PARAGRAPHS]


def test_a_field_labelled_by_a_kind_and_a_post_s_own_share_icon_stay_in_content() -> None:
    """A block holding a field is a form ("Tags: [____]" is the field's label, not a tag
    cloud), and an element a script made a control (a post's share icon, data-wsfs-op from a
    live capture) is the post's, not a share bar."""
    html = (f'<article><h1>The story</h1>{STORY}'
            '<div class="entry"><label for="tags">Tags: </label><input id="tags"></div>'
            '<p>Reply to the story <span class="share" data-wsfs-op="click"></span></p>'
            '</article>')
    out = regions(html)
    lines = content_lines(out)
    assert any("Tags:" in line and "text" in line for line in lines), out
    assert any("(class: share)" in line for line in lines), out
    assert "boilerplate/tags.md" not in out and "boilerplate/share.md" not in out, out


def test_a_site_menu_inside_a_container_that_wraps_the_page_goes_to_nav_however_long() -> None:
    """An archive menu of a page whose main container is the whole page: named as
    navigation, all links, longer than a share bar may be: nav.md; a short list of links the
    story names stays."""
    months = "".join(f'<li><a href="/archive/{n}">Month {2000 + n}-11</a> ({100 + n})</li>'
                     for n in range(150))
    html = (f'<div class="page"><div class="story"><h1>The story</h1>{STORY}'
            '<ul><li><a href="/report">The report</a> the story is about, in full</li></ul></div>'
            f'<div class="well"><ul class="nav tree">{months}</ul></div></div>')
    out = regions(html)
    assert out["boilerplate/nav.md"][0] == "- Month 2000-11 [L0002] (100)"
    assert len(out["boilerplate/nav.md"]) == 150
    assert any(line.startswith("- The report") for line in content_lines(out))


def test_a_login_wall_goes_to_promo() -> None:
    html = (f'<article><h1>The story</h1>{STORY}<div class="wsj-snippet-login">'
            '<span>To Read the Full Story</span> <a href="/subscribe">Subscribe</a></div></article>')
    out = regions(html)
    assert out["boilerplate/promo.md"] == ["To Read the Full Story Subscribe [L0001]"]


def test_teasers_that_link_elsewhere_go_to_related_a_lead_named_teaser_stays() -> None:
    html = (f'<article><h1>The story</h1><p class="teaser-text">The lead of this story, what it '
            f'tells in one sentence.</p>{STORY}<div class="teaser-box"><p>Another story, '
            'with some words on what it tells</p><a href="/other">Read it</a></div></article>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Another story, with some words on what it tells", "Read it [L0001]"]
    assert content_lines(out)[0].startswith("The lead of this story")


def test_credit_lines_by_source_word_attribution_class_or_picture_agency_go_to_credits() -> None:
    html = (f'<article><h1>The story</h1><figure><img src="/a.jpg" alt="A field">'
            '<figcaption>The field in spring</figcaption>'
            '<figcaption class="attribution">Image via a photographer</figcaption></figure>'
            f'<p>TebNad/Shutterstock.com</p>{STORY}<p>Quelle: jorisvo / Fotolia.com</p>'
            '<p>Shutterstock raised its prices, the agency said on Monday, for every customer of '
            'its picture library.</p></article>')
    out = regions(html)
    assert out["boilerplate/credits.md"] == [
        "Image via a photographer", "TebNad/Shutterstock.com", "Quelle: jorisvo / Fotolia.com"]
    lines = content_lines(out)
    assert any(line.endswith("The field in spring") for line in lines), lines
    assert lines[-1].startswith("Shutterstock raised its prices")


def test_a_slideshow_s_control_panel_repeating_its_caption_goes_to_popup() -> None:
    caption = "The minister, left, shakes hands with his guest before their meeting on Tuesday."
    html = (f'<article><h1>The story</h1><div class="gallery"><ul><li><img src="/1.jpg" alt="">'
            f'<div class="caption">{caption}</div></li></ul><div class="control-panel">'
            f'<div class="slide-count">Image 1 of 8</div><div class="caption">{caption}</div>'
            f'</div></div>{STORY}</article>')
    out = regions(html)
    assert out["boilerplate/popup.md"] == ["Image 1 of 8", caption]
    assert sum(caption in line for line in content_lines(out)) == 1


def test_a_styled_title_of_other_stories_heads_the_teasers_after_it_an_ad_label_does_not() -> None:
    teasers = "".join(f'<div class="card"><a href="/s{n}">Story {n} of the site</a>'
                      f'<div>One line on story {n}.</div></div>' for n in range(3))
    html = (f'<article><h1>The story</h1>{PARAGRAPHS[0]}<div class="label">Advertisement</div>'
            f'{"".join(PARAGRAPHS[1:])}<div class="box-title"><b>Top stories</b></div>{teasers}'
            '</article>')
    out = regions(html)
    assert out["boilerplate/related.md"][:3] == [
        "Top stories", "Story 0 of the site [L0001]", "One line on story 0."]
    assert len(out["boilerplate/related.md"]) == 7
    assert [line for line in content_lines(out) if line.startswith("Paragraph")] == [
        p[3:-4] for p in PARAGRAPHS]


def test_a_short_article_is_no_listing_its_box_of_further_links_goes_to_related() -> None:
    html = ('<div class="detail"><h1>The story</h1><p>A short news item of two sentences, '
            'which says what happened on Monday. The rest is in the report.</p>'
            '<p>The council meets again in spring, and will decide then on the plan for the '
            'harbour and its quays, the mayor said.</p>'
            '<div class="box"><div class="box-head">Weiterführender Link</div>'
            '<a href="/report">The council report on the harbour plan</a></div></div>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "Weiterführender Link", "The council report on the harbour plan [L0001]"]


def test_a_contact_line_a_call_to_share_or_to_sign_up_have_their_files() -> None:
    html = (f'<article><h1>The story</h1>{STORY}<p>Write to Jane Doe at jane@paper.test</p>'
            '<p>Like this story? Share it with a friend!</p>'
            '<p>Get breaking news in your browser. Click here to turn on notifications.</p>'
            '<p>Write to the council before Friday, the mayor asked residents who want a say '
            'in the plan for the harbour and its quays.</p></article>')
    out = regions(html)
    assert out["boilerplate/bio.md"] == ["Write to Jane Doe at jane@paper.test"]
    assert out["boilerplate/share.md"] == ["Like this story? Share it with a friend!"]
    assert out["boilerplate/promo.md"] == [
        "Get breaking news in your browser. Click here to turn on notifications."]
    assert content_lines(out)[-1].startswith("Write to the council before Friday")


def test_a_call_for_comments_heads_the_comments_section() -> None:
    html = (f'<article><h1>The story</h1>{STORY}<h3>Tell us what YOU think...</h3>'
            '<p>Jane wrote: a fine review, I bought the book.</p></article>')
    out = regions(html)
    assert out["boilerplate/comments.md"] == [
        "Tell us what YOU think...", "Jane wrote: a fine review, I bought the book."]



def test_a_call_to_subscribe_sign_up_or_give_goes_to_promo_a_sentence_about_it_stays() -> None:
    html = (f'<article><h1>The story</h1>{STORY}'
            '<p>Start your day with the morning letter. <a href="/join">Sign up</a> for the free '
            'daily newsletter.</p>'
            '<div><h2>Unterstütze RosaMag</h2></div>'
            '<p>Wesprzyj nas: <a href="/wesprzyj">przekaż darowiznę</a></p>'
            '<p>The company continued to sign up subscribers through the week, and readers could '
            'log in to every site with one password, the report said.</p></article>')
    out = regions(html)
    assert out["boilerplate/promo.md"] == [
        "Start your day with the morning letter. Sign up [L0001] for the free daily newsletter.",
        "Unterstütze RosaMag",
        "Wesprzyj nas: przekaż darowiznę [L0002]"]
    assert content_lines(out)[-1].startswith("The company continued to sign up subscribers")


def test_a_heading_naming_other_stories_heads_their_links_a_heading_of_ways_does_not() -> None:
    html = (f'<article><h1>The story</h1>{STORY}'
            '<h3>More ways to customize</h3><ul><li>Pick a theme from the <a href="/themes">'
            'gallery</a> and set its colours and fonts to your own taste</li>'
            '<li>Add a toolbar button for the tools you use most often</li></ul>'
            '<div class="heading-h3">More Great WIRED Stories</div>'
            '<ul><li><a href="/a">YouTubers must unionize</a></li>'
            '<li><a href="/b">WIRED25: stories of people racing to save us</a></li></ul>'
            '</article>')
    out = regions(html)
    assert out["boilerplate/related.md"] == [
        "More Great WIRED Stories", "- YouTubers must unionize [L0002]",
        "- WIRED25: stories of people racing to save us [L0003]"]
    assert "- Add a toolbar button for the tools you use most often" in content_lines(out)


def test_what_the_browser_showed_fixed_to_the_window_goes_by_where_it_sat() -> None:
    """data-wsfs-fixed (the capture's mark for an element that stays put while the page
    scrolls): a bar across the top is a header, one along the bottom a footer, a panel down a
    side an aside, a box over the page a popup; class words that name a kind come first, and
    the element holding the main text stays whatever the mark says."""
    html = ('<body><div class="css-1q2w" data-wsfs-fixed="top">Coastline Weekly</div>'
            '<div data-wsfs-fixed="side">Tide stations on this coast</div>'
            f'<div data-wsfs-fixed="over"><article><h1>The story</h1>{STORY}</article></div>'
            '<div data-wsfs-fixed="over"><p>Chat with a harbour master</p></div>'
            '<div class="cookie-banner" data-wsfs-fixed="bottom">We use cookies</div>'
            '<div data-wsfs-fixed="bottom">Free shipping this week</div></body>')
    out = regions(html)
    assert out["boilerplate/header.md"] == ["Coastline Weekly"]
    assert out["boilerplate/aside.md"] == ["Tide stations on this coast"]
    assert out["boilerplate/popup.md"] == ["Chat with a harbour master"]
    assert out["boilerplate/consent.md"] == ["We use cookies"]
    assert out["boilerplate/footer.md"] == ["Free shipping this week"]
    assert "content/01-the-story.md" in out
    assert sum("Paragraph" in line for line in content_lines(out)) == 8


def test_class_words_do_not_rename_a_region_the_page_declares() -> None:
    """A disclosure widget's panel classed `disclosure-page-content` (the ARIA Practices'
    navigation example) is a region the page names, not an affiliate disclosure (ads.md)."""
    html = (f'<main><h1>The story</h1>{STORY}'
            '<div class="disclosure-page-content" role="region" aria-label="Sample page">'
            '<h3>Mythical University</h3><p>Sample content section.</p></div>'
            '<div class="disclosure"><p>We may earn a commission from links.</p></div></main>')
    out = regions(html)
    assert "Sample content section." in content_lines(out)
    assert out["boilerplate/ads.md"] == ["We may earn a commission from links."]


def test_a_block_named_header_inside_an_article_is_the_articles_own() -> None:
    html = ('<div class="site-header"><p>Example Daily, the news of the day</p></div>'
            '<article><h1>The story</h1><div class="article-header">'
            '<p>The lead: what happened, told in one sentence before the story.</p>'
            '<span class="byline">By Ann Author</span></div>'
            f'<div class="article-body">{STORY}</div></article>')
    out = regions(html)
    assert out["boilerplate/header.md"] == ["Example Daily, the news of the day"]
    assert "The lead: what happened, told in one sentence before the story." in content_lines(out)
    assert out["boilerplate/byline.md"] == ["By Ann Author"]


def test_a_share_heading_takes_its_bar_but_not_the_authors_prose_under_it() -> None:
    appeal = ("I would really love to get this out to more people, so if you can take a moment "
              "to pass it on to a friend who runs a business like yours, I would appreciate it. "
              "Nobody else seems to be talking about how this grows a business.")
    html = (f'<article><h1>The story</h1>{STORY}{STORY}'
            f'<h3>Share this information, please?</h3><p>{appeal}</p>'
            '<h3>Share this</h3><ul><li><a href="/s">Facebook</a></li>'
            '<li><a href="/t">Twitter</a></li></ul></article>')
    out = regions(html)
    assert appeal in content_lines(out)
    assert out["boilerplate/share.md"][-3:] == ["Share this", "- Facebook [L0001]",
                                                "- Twitter [L0002]"]

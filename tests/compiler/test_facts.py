"""facts.py: structured data and page metadata as `key = value` lines naming their source."""

from __future__ import annotations

from pathlib import Path

import lxml.html

from webshellfs.compiler import compile_page
from webshellfs.compiler.builder import PageBuilder
from webshellfs.compiler.facts import MAX_FACTS, extract_facts
from webshellfs.contract.layout import render_page

PAGES = Path(__file__).resolve().parents[2] / "fixtures" / "pages"


def facts_kv(name: str, url: str) -> list[str]:
    page = compile_page((PAGES / name).read_bytes(), url)
    return render_page(page)["facts.kv"].decode().splitlines()


def extracted(html: str) -> PageBuilder:
    builder = PageBuilder("https://example.test/a")
    extract_facts(lxml.html.document_fromstring(html), html, builder)
    return builder


def test_product_page_facts() -> None:
    assert facts_kv("facts-product.html", "https://shop.example.test/p/oxford?ref=mail") == [
        "title = Oxford shirt – Example Shop",
        "lang = en-GB",
        "canonical = https://shop.example.test/p/oxford-shirt",
        "meta.description = A cotton Oxford shirt, in white or blue.",
        "meta.author = Example Shop",
        "og.title = Oxford shirt",
        "og.type = product",
        "og.image = https://shop.example.test/img/oxford.jpg",
        "og.image.width = 1200",
        "og.product.price.amount = 39.00",
        "twitter.card = summary_large_image",
        "jsonld.Product.name = Oxford shirt",
        "jsonld.Product.sku = OX-1",
        "jsonld.Product.image = https://shop.example.test/img/oxford.jpg",
        "jsonld.Product.image = https://shop.example.test/img/oxford-back.jpg",
        "jsonld.Product.brand.name = Example",
        "jsonld.Product.offers[0].price = 39.0",
        "jsonld.Product.offers[0].priceCurrency = GBP",
        "jsonld.Product.offers[0].availability = https://schema.org/InStock",
        "jsonld.Product.offers[1].price = 44.50",
        "jsonld.Product.offers[1].priceCurrency = GBP",
        "jsonld.Product.offers[1].availability = https://schema.org/PreOrder",
        "jsonld.Product.aggregateRating.ratingValue = 4.6",
        "jsonld.Product.aggregateRating.reviewCount = 128",
        "jsonld.BreadcrumbList.itemListElement[0].position = 1",
        "jsonld.BreadcrumbList.itemListElement[0].name = Men",
        "jsonld.BreadcrumbList.itemListElement[1].position = 2",
        "jsonld.BreadcrumbList.itemListElement[1].name = Shirts",
        "jsonld.WebSite.name = Example Shop",
        "jsonld.WebSite.url = https://shop.example.test/",
        "microdata.Review.name = Great fit",
        "microdata.Review.author.name = Sam",
        "microdata.Review.datePublished = 2026-03-01",
        "microdata.Review.reviewRating.ratingValue = 5",
        "rdfa.Organization.name = Example Shop Ltd",
        "rdfa.Organization.url = https://shop.example.test/about",
    ]


def test_malformed_json_ld_is_repaired_or_noted_never_raised() -> None:
    page = compile_page(
        (PAGES / "facts-malformed.html").read_bytes(), "https://news.example.test/a"
    )
    assert render_page(page)["facts.kv"].decode().splitlines() == [
        "title = Broken data",
        "jsonld.Article.headline = Kept despite a trailing comma",
        "jsonld.Event.name = Wrapped in a comment",
        "jsonld.Event,SportsEvent.name = Final",
        "jsonld.Event,SportsEvent.isAccessibleForFree = true",
    ]
    assert "facts.kv: 1 JSON-LD block(s) skipped: not valid JSON" in page.notes


def test_repeated_types_are_numbered() -> None:
    builder = extracted(
        '<script type="application/ld+json">[{"@type": "Person", "name": "A"},'
        ' {"@type": "Person", "name": "B"}, {"@type": "Place", "name": "C"}]</script>'
    )
    assert [(f.key, f.value) for f in builder.facts] == [
        ("jsonld.Person[0].name", "A"),
        ("jsonld.Person[1].name", "B"),
        ("jsonld.Place.name", "C"),
    ]


def test_hostile_json_ld_never_raises() -> None:
    deep = "[" * 100_000 + "]" * 100_000
    builder = extracted(
        f'<script type="application/ld+json">{deep}</script>'
        '<script type="application/ld+json">"just a string"</script>'
        '<script type="application/ld+json"></script>'
    )
    assert builder.facts == []
    assert builder.notes == ["facts.kv: 2 JSON-LD block(s) skipped: not valid JSON"]


def test_facts_are_deterministic_and_added_once() -> None:
    html = (PAGES / "facts-product.html").read_text(encoding="utf-8")
    root = lxml.html.document_fromstring(html)
    builder = PageBuilder("https://shop.example.test/p/oxford")
    extract_facts(root, html, builder)
    first = list(builder.facts)
    extract_facts(root, html, builder)
    assert builder.facts == first
    assert extracted(html).facts == extracted(html).facts


def test_rendering_meta_and_mediawiki_markup_are_not_facts() -> None:
    builder = extracted(
        '<html><head><meta name="viewport" content="width=device-width">'
        '<meta name="robots" content="noindex"><meta charset="utf-8"></head>'
        '<body><figure typeof="mw:File"><img src="a.png"></figure></body></html>'
    )
    assert builder.facts == []


def test_fact_count_is_capped_with_a_note() -> None:
    items = ", ".join(f'{{"@type": "T", "n": {i}}}' for i in range(MAX_FACTS + 10))
    builder = extracted(f'<script type="application/ld+json">[{items}]</script>')
    assert len(builder.facts) == MAX_FACTS
    assert builder.notes == [f"facts.kv: kept the first {MAX_FACTS} facts, 10 more were cut"]


def test_deep_nesting_stops_at_the_depth_limit() -> None:
    nested = "[" * 900 + '{"@type": "T", "n": 1}' + "]" * 900
    builder = extracted(f'<script type="application/ld+json">{nested}</script>')
    assert builder.facts == []
    typed = '<div property="p" typeof="B">' * 200 + "x" + "</div>" * 200
    builder = extracted(f'<div vocab="https://schema.org/" typeof="A">{typed}</div>')
    assert [(f.key, f.value) for f in builder.facts] == [("rdfa.A" + ".p" * 7, "x")]


# --- extruct's own samples (tests/corpora/extruct-samples, BSD-3-Clause) ----------------------

EXTRUCT_SAMPLES = Path(__file__).resolve().parents[2] / "tests/corpora/extruct-samples/samples"


def sample_facts(path: str) -> list[str]:
    page = compile_page((EXTRUCT_SAMPLES / path).read_bytes(), "http://www.example.com/")
    return render_page(page)["facts.kv"].decode().splitlines()


def test_jsonld_with_comments_after_values_is_read_as_browsers_read_it() -> None:
    facts = sample_facts("custom.invalid/JSONLD_with_JS_comment.html")
    assert "jsonld.NewsArticle.articleSection = 商情" in facts
    assert "jsonld.NewsArticle.headline = 讓AI挑出感興趣 SparkAmplify精準行銷當紅" in facts


def test_jsonld_after_an_html_comment_line_and_with_markup_in_a_string() -> None:
    facts = sample_facts("custom.invalid/JoinAction.001.html")
    assert "jsonld.JoinAction.agent.name = John" in facts
    assert "jsonld.JoinAction.rendered_html = <!-- John joined the festival. --><b>some text</b>" in facts


def test_jsonld_with_raw_control_characters_and_a_trailing_comma() -> None:
    builder = extracted(
        '<script type="application/ld+json">{"@type": "Thing", "name": "a\tb", /* c */'
        ' "alternateName": ["x", "y",],}</script>'
    )
    assert [(f.key, f.value) for f in builder.facts] == [
        ("jsonld.Thing.name", "a b"),
        ("jsonld.Thing.alternateName", "x"),
        ("jsonld.Thing.alternateName", "y"),
    ]


# --- RDFa 1.1, Dublin Core, microformats ------------------------------------------------------


def test_rdfa_subjects_chaining_and_hanging_rels() -> None:
    facts = sample_facts("wikipedia/xhtml+rdfa.html")
    assert [line for line in facts if line.startswith("rdfa.")] == [
        "rdfa.page.primaryTopic = http://www.example.com/metadata/foaf.rdf",
        "rdfa.page.name = Jerry Smith",
        "rdfa.page.seeAlso = http://www.example.com/about.htm",
        "rdfa.page.address.seeAlso = http://dbpedia.org/resource/Adelaide",
        "rdfa.page.address.city = Adelaide",
        "rdfa.page.phone = tel:+6112345678",
    ]
    assert sample_facts("w3crdfa/w3c.rdf11primer.example014.html")[:5] == [
        "rdfa.Person.about = http://example.org/bob#me",
        "rdfa.Person.knows = http://example.org/alice#me",
        "rdfa.Person.birthDate = 1990-07-04",
        "rdfa.Person.topic_interest = http://www.wikidata.org/entity/Q12418",
        "rdfa.Thing[0].about = http://www.wikidata.org/entity/Q12418",
    ]


def test_rdfa_vocab_switches_and_rel_terms() -> None:
    assert sample_facts("w3crdfa/w3c.rdfaprimer.example009.html") == [
        "rdfa.page.title = The Trouble with Bob",
        "rdfa.page.created = 2011-09-10",
        "rdfa.page.license = http://creativecommons.org/licenses/by/3.0/",
    ]
    builder = extracted(
        '<html prefix="og: http://ogp.me/ns# fb: http://ogp.me/ns/fb#"><head>'
        '<meta property="og:title" content="Shown once, as og.title">'
        '<meta property="fb:app_id" content="123">'
        '<link rel="stylesheet" href="/s.css"><link rel="https://api.w.org/" href="/wp-json/">'
        '</head><body><ul rel="foaf:knows"><li><a href="/bob">Bob</a></li>'
        '<li><a href="/eve">Eve</a></li></ul>'
        '<a rel="license" href="/cc-by">CC BY</a></body></html>'
    )
    assert [(f.key, f.value) for f in builder.facts] == [
        ("og.title", "Shown once, as og.title"),
        ("rdfa.page.knows", "https://example.test/bob"),
        ("rdfa.page.knows", "https://example.test/eve"),
        ("rdfa.page.license", "https://example.test/cc-by"),
    ]


def test_a_page_without_rdfa_attributes_is_not_walked() -> None:
    builder = extracted('<html><head><meta property="og:type" content="article"></head>'
                        '<body><p about="x">' + "<div>x</div>" * 10 + "</p></body></html>")
    assert [(f.key, f.value) for f in builder.facts] == [("og.type", "article")]


def test_dublin_core_meta_and_link_elements() -> None:
    facts = sample_facts("misc/dublincore_test.html")
    assert facts[1:4] == [
        "dc.title = Expressing Dublin Core in HTML/XHTML meta and link elements",
        "dc.creator = Andy Powell, UKOLN, University of Bath",
        "dcterms.issued = 2003-11-01",
    ]
    assert facts[-1] == "dcterms.replaces = http://dublincore.org/documents/2000/08/15/dcq-html/"
    builder = extracted('<link rel="schema.EL" href="http://purl.org/dc/elements/1.1/">'
                        '<meta name="EL.subject" content="Maps"><meta name="DC:title" content="T">')
    assert [(f.key, f.value) for f in builder.facts] == [("dc.subject", "Maps"), ("dc.title", "T")]


def test_microformats_items_with_nested_and_implied_properties() -> None:
    facts = sample_facts("misc/microformat_test.html")
    assert [line for line in facts if line.startswith("microformats.")] == [
        "microformats.h-entry.name = Microformats are amazing",
        "microformats.h-entry.author.name = W. Developer",
        "microformats.h-entry.author.url = http://example.com",
        "microformats.h-entry.published = 2013-06-13 12:00:00",
        "microformats.h-entry.summary = In which I extoll the virtues of using microformats.",
        "microformats.h-entry.content = Blah blah blah",
    ]
    builder = extracted(
        '<div class="h-100 h-screen"><a class="h-card" href="/ada"><img src="/a.png" alt="">'
        " Ada</a><div class='h-event'><time class='dt-start' datetime='2026-05-01'>May</time>"
        "<span class='p-name'>Launch</span></div></div>"
    )
    assert [(f.key, f.value) for f in builder.facts] == [
        ("microformats.h-card.name", "Ada"),
        ("microformats.h-card.photo", "https://example.test/a.png"),
        ("microformats.h-card.url", "https://example.test/ada"),
        ("microformats.h-event.start", "2026-05-01"),
        ("microformats.h-event.name", "Launch"),
    ]


def test_microdata_nested_past_the_limit_is_read_as_text() -> None:
    nested = '<div itemprop="p" itemscope>' * 200 + "x" + "</div>" * 200
    builder = extracted(f'<div itemscope itemtype="https://schema.org/A">{nested}</div>')
    (fact,) = builder.facts
    assert fact.key.startswith("microdata.A.p.p.p") and fact.value == "x"


def test_rdfa_and_microformats_nested_as_deep_as_the_parser_allows_never_raise() -> None:
    def chain(depth: int) -> str:
        return ('<div rel="dc:relation">' * depth + '<span property="dc:title">x</span>'
                + "</div>" * depth)

    def cards(depth: int) -> str:
        return ('<div class="h-card">' + '<span class="p-org h-card">' * depth + "Org"
                + "</span>" * depth + "</div>")

    html = chain(2_000) + chain(3) + cards(2_000)
    page = compile_page(f"<html><body>{html}</body></html>", "https://example.test/")
    facts = render_page(page)["facts.kv"].decode().splitlines()
    assert "rdfa.page.relation.relation.relation.title = x" in facts
    assert [line for line in facts if line.startswith("microformats.")] == [
        "microformats.h-card.org" + ".org" * 10 + " = Org"]

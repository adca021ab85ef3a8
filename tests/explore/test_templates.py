"""Templates are read from the compiled page: the shop's product pages share one, its list
pages another, and the home page has its own, whatever their URLs."""

from __future__ import annotations

from webshellfs.compiler import compile_page
from webshellfs.explore.templates import address_pattern, address_shape, outline, signature
from tests.explore.shop_site import page_for

BASE = "http://shop.example"


def compiled(path: str):  # noqa: ANN201 - a CompiledPage
    body = page_for(path, {})
    assert body is not None
    return compile_page(body, BASE + path, content_type="text/html")


def test_pages_of_one_template_share_a_signature_and_others_do_not() -> None:
    product, other_product = compiled("/product/1.html"), compiled("/product/8.html")
    products, articles = compiled("/products.html"), compiled("/articles.html")
    home, article = compiled("/index.html"), compiled("/article/2.html")
    assert signature(product) == signature(other_product)
    assert signature(products) == signature(articles)  # both list pages
    assert len({signature(p) for p in (product, products, home, article)}) == 4
    assert signature(product) == (
        "h1[button] h2[form] | footer[link] header nav[button] popup search[form]")


def test_a_run_of_sections_of_one_shape_counts_once() -> None:
    ten = compile_page("<h1>News</h1>" + "".join(f"<h2>Story {n}</h2><p>Text {n}.</p>"
                                                  for n in range(10)), BASE + "/news")
    three = compile_page("<h1>News</h1>" + "".join(f"<h2>Story {n}</h2><p>Text {n}.</p>"
                                                    for n in range(3)), BASE + "/news?page=2")
    assert signature(ten) == signature(three) == "h1 h2+ | (no chrome)"
    assert outline(three) == "News · Story 0 · Story 1 · Story 2"


def test_the_address_shape_generalises_numbers_and_slugs_in_a_folder() -> None:
    assert address_shape("http://x/product/12.html") == "/product/{slug}.html"
    assert address_shape("http://x/product/trail-shoe.html") == "/product/{slug}.html"
    assert address_shape("http://x/2024/05/long-walks") == "/{n}/{n}/{slug}"
    assert address_shape("http://x/node12.html") == "/node{n}.html"  # no folder: no slug
    assert address_shape("http://x/about.html") == "/about.html"
    assert address_shape("http://x/guide/") == "/guide/"
    assert address_shape("http://x/list?page=3&sort=a") == "/list?page={n}&sort=a"


def test_a_templates_address_pattern_generalises_numbers_then_slugs() -> None:
    products = [f"{BASE}/product/{n}.html" for n in (1, 8, 12)]
    assert address_pattern(products) == "/product/{n}.html"
    nodes = [f"{BASE}/node{n}.html" for n in range(1, 10)] + [f"{BASE}/index.html"]
    assert address_pattern(nodes) == "/node{n}.html"  # most of them: the odd one is no slug
    guides = [f"{BASE}/guide/{slug}.html" for slug in ("intro", "install")]
    assert address_pattern(guides) == "/guide/{slug}.html"
    assert address_pattern([f"{BASE}/p/trail-shoe", f"{BASE}/p/rain-jacket"]) == "/p/{slug}"
    assert address_pattern([f"{BASE}/about.html"]) == "/about.html"

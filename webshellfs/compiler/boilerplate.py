"""Which parts of a page are chrome (boilerplate/) rather than its main text (content/).

Two kinds of evidence, both deterministic:
- what the page says: nav/aside elements, ARIA landmarks, page-level header/footer;
- what the page shows, for pages that mark nothing: blocks named like chrome (class/id words
  such as `sidebar`, `share`, `cookie`), skip links, and link-dense menus.
The second kind is applied outside the main text container (the smallest element holding
most of the page's text outside links, or the article the page marks), and inside it only for
small blocks named like share bars, related links or a table of contents, so main text never
leaves content/. tests/benchmarks/bench_boilerplate.py measures that on real pages.
"""

from __future__ import annotations

import functools
import re

import lxml.etree
from lxml.html import HtmlElement

from webshellfs.compiler.dom import squash
from webshellfs.compiler.rules import (
    ARTICLE_LEAD,
    ARTICLE_MIN_SHARE,
    BOILERPLATE_STEMS,
    BOILERPLATE_TOKENS,
    INSIDE_MAIN_MAX_SHARE,
    INSIDE_MAIN_STEMS,
    INSIDE_MAIN_TAGS,
    INSIDE_MAIN_TOKENS,
    LANDMARK_ROLES,
    LANDMARK_TAGS,
    LINK_DENSE_MIN_LINKS,
    LINK_DENSE_MIN_SHARE,
    LINK_DENSE_TAGS,
    LISTING_TAGS,
    MAIN_TEXT_MIN_CHARS,
    MAIN_TEXT_SHARE,
    PAGE_LEVEL_ROLES,
    PAGE_LEVEL_TAGS,
    PARAGRAPH_TAGS,
    SKIP_LINK_WORDS,
    SPELLED_URL_PREFIXES,
    UNCOUNTED_TAGS,
)

NAMES_CACHE_SIZE = 4096
_ARTICLE_ROLE = lxml.etree.XPath(".//*[@role='article']")
_WORD_BREAK = re.compile(r"[^a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")


def class_words(element: HtmlElement) -> list[str]:
    """The words of an element's class and id: whole names and their parts
    (`siteHeader-inner` → `siteheader-inner`, `site`, `header`, `inner`)."""
    return list(_names_words(element.get("class") or "", element.get("id") or ""))


@functools.lru_cache(maxsize=NAMES_CACHE_SIZE)
def _names_words(class_value: str, id_value: str) -> tuple[str, ...]:
    """class_words by attribute values: pages repeat the same class names on many elements."""
    words: list[str] = []
    for value in (class_value, id_value):
        for name in value.split():
            lowered = _CAMEL.sub("-", name).lower()
            words.append(name.lower())
            words.extend(w for w in _WORD_BREAK.split(lowered) if w)
    return tuple(words)


class TextWeights:
    """Per element, counted over its subtree in one pass (children before parents):
    `prose`, characters of text outside links (menus are links); `text`, all characters;
    `links` and `url_links`, links and links whose text is a spelled-out URL. Scripts, styles
    and form controls count for nothing. Elements with nothing to count are absent."""

    def __init__(self, body: HtmlElement) -> None:
        self.prose: dict[HtmlElement, int] = {}
        self.text: dict[HtmlElement, int] = {}
        self.links: dict[HtmlElement, int] = {}
        self.url_links: dict[HtmlElement, int] = {}
        prose, text, links, url_links = self.prose, self.text, self.links, self.url_links
        for element in reversed(list(body.iter())):
            tag = element.tag
            if isinstance(tag, str) and tag not in UNCOUNTED_TAGS:
                own = len(element.text.strip()) if element.text else 0
                size = text.get(element, 0) + own
                if size:
                    text[element] = size
                if tag == "a":
                    prose_size = 0
                    prose.pop(element, None)
                    if element.get("href") is not None:
                        links[element] = links.get(element, 0) + 1
                        first = (element.text or "").lstrip()
                        if first.startswith(SPELLED_URL_PREFIXES):
                            url_links[element] = url_links.get(element, 0) + 1
                else:
                    prose_size = prose.get(element, 0) + own
                    if prose_size:
                        prose[element] = prose_size
            else:
                size = prose_size = 0
                for table in (prose, text, links, url_links):
                    table.pop(element, None)
            if element is body:
                break
            tail = len(element.tail.strip()) if element.tail else 0
            parent = element.getparent()
            if size + tail:
                text[parent] = text.get(parent, 0) + size + tail
            if prose_size + tail:
                prose[parent] = prose.get(parent, 0) + prose_size + tail
            if element in links:
                links[parent] = links.get(parent, 0) + links[element]
                if element in url_links:
                    url_links[parent] = url_links.get(parent, 0) + url_links[element]

    def is_link_dense(self, element: HtmlElement) -> bool:
        """A menu: enough links, making up most of the text, and not a list of spelled-out
        URLs (that is a reference list, which may be main text)."""
        links = self.links.get(element, 0)
        if links < LINK_DENSE_MIN_LINKS or 2 * self.url_links.get(element, 0) >= links:
            return False
        total = self.text.get(element, 0)
        link_chars = total - self.prose.get(element, 0)
        return total == 0 or link_chars >= LINK_DENSE_MIN_SHARE * total


class RegionNames:
    """Class/id words → region: whole words of a token table, then word parts (stems, found
    with one regex)."""

    def __init__(self, tokens: dict[str, str], stems: tuple[tuple[str, str], ...]) -> None:
        self.tokens = tokens
        self.stems = dict(stems)
        self.stem_pattern = re.compile("|".join(re.escape(stem) for stem, _ in stems))
        # Pages repeat the same class names on many elements: answers by attribute values.
        self._seen: dict[tuple[str, str], str | None] = {}

    def region(self, element: HtmlElement) -> str | None:
        class_value = element.get("class")
        id_value = element.get("id")
        if not class_value and not id_value:
            return None
        key = (class_value or "", id_value or "")
        if key not in self._seen:
            if len(self._seen) >= NAMES_CACHE_SIZE:
                self._seen.clear()
            self._seen[key] = self._lookup(*key)
        return self._seen[key]

    def _lookup(self, class_value: str, id_value: str) -> str | None:
        for word in _names_words(class_value, id_value):
            region = self.tokens.get(word)
            if region is not None:
                return region
            match = self.stem_pattern.search(word)
            if match:
                return self.stems[match.group()]
        return None


CHROME_NAMES = RegionNames(BOILERPLATE_TOKENS, BOILERPLATE_STEMS)
INSIDE_MAIN_NAMES = RegionNames(INSIDE_MAIN_TOKENS, INSIDE_MAIN_STEMS)


def named_region(element: HtmlElement) -> str | None:
    """The region an element's class/id words name (`sidebar`, `relatedposts`, `sharebar`…)."""
    return CHROME_NAMES.region(element)


def find_main_container(body: HtmlElement, held: dict[HtmlElement, int]) -> HtmlElement | None:
    """The smallest element holding most of the page's text (`held`: TextWeights.prose): from
    <body>, step into the child that holds at least MAIN_TEXT_SHARE of the text, for as long as
    one does, never into a single paragraph. None when the page has too little text to tell."""
    if held.get(body, 0) < MAIN_TEXT_MIN_CHARS:
        return None
    container = body
    while True:
        child = max(
            (c for c in container if isinstance(c.tag, str)),
            key=lambda c: held.get(c, 0),
            default=None,
        )
        if (
            child is None
            or child.tag in PARAGRAPH_TAGS
            or held.get(child, 0) < MAIN_TEXT_SHARE * held.get(container, 0)
        ):
            return _article_of(container, held)
        container = child


def _article_of(container: HtmlElement, held: dict[HtmlElement, int]) -> HtmlElement:
    """Widen or narrow the container to the article the page marks: for a list (a gallery's
    captions can outweigh the story around them) the <article> it sits in, else the main
    article inside it."""
    if container.tag in LISTING_TAGS:
        enclosing = next(
            (a for a in container.iterancestors() if a.tag == "article" or a.get("role") == "article"),
            None,
        )
        if enclosing is not None:
            return enclosing
    article = _the_article_in(container, held)
    return container if article is None else article


def _the_article_in(container: HtmlElement, held: dict[HtmlElement, int]) -> HtmlElement | None:
    """The main <article> (or role=article) inside the container, when the page marks one: the
    largest, if it holds a fair share of the container's text and clearly more than any other
    article (then the rest of the container is comments, related posts…)."""
    articles = [e for e in container.iter("article") if e is not container]
    articles += [e for e in _ARTICLE_ROLE(container) if e.tag != "article"]
    if not articles:
        return None
    sizes = sorted(((held.get(a, 0), index) for index, a in enumerate(articles)), reverse=True)
    largest, index = sizes[0]
    runner_up = sizes[1][0] if len(sizes) > 1 else 0
    if largest < ARTICLE_MIN_SHARE * held.get(container, 0) or largest < ARTICLE_LEAD * runner_up:
        return None
    return articles[index]


def landmark_region(element: HtmlElement, page_level: bool) -> str | None:
    """The region an element declares itself to be, or None. `page_level`: not inside an
    article, section or the main text, where header/footer belong to that piece of text."""
    role = (element.get("role") or "").strip().lower()
    if role in LANDMARK_ROLES and (page_level or role not in PAGE_LEVEL_ROLES):
        return LANDMARK_ROLES[role]
    tag = element.tag
    if tag in LANDMARK_TAGS:
        return LANDMARK_TAGS[tag]
    if page_level and tag in PAGE_LEVEL_TAGS:
        return PAGE_LEVEL_TAGS[tag]
    return None


def is_skip_link(element: HtmlElement) -> bool:
    """`<a href="#main">Skip to content</a>`."""
    if not (element.get("href") or "").startswith("#"):
        return False
    text = squash(element.text_content()).lower()
    return any(text.startswith(words) for words in SKIP_LINK_WORDS)


def peripheral_region(element: HtmlElement, weights: TextWeights) -> str | None:
    """For an element outside the main text: the region its class/id words or its link density
    put it in, or None. Never a block that holds an <h1> (the page title stays in content/)."""
    region = named_region(element)
    if region is None and element.tag in LINK_DENSE_TAGS and weights.is_link_dense(element):
        region = "nav"
    if region is not None and element.find(".//h1") is not None:
        return None
    return region


def minor_region(element: HtmlElement, held: dict[HtmlElement, int], main: HtmlElement) -> str | None:
    """For an element inside the main text: the region its class/id words put it in, only for
    the kinds that sit inside articles (share bars, related links, a table of contents…) and
    only when it holds a small part of the main text."""
    if element.tag not in INSIDE_MAIN_TAGS:
        return None
    region = INSIDE_MAIN_NAMES.region(element)
    if region is None:
        return None
    if held.get(element, 0) > INSIDE_MAIN_MAX_SHARE * held.get(main, 0):
        return None
    return region

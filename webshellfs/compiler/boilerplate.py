"""Which parts of a page are not its main text (boilerplate/) rather than content/.

Two kinds of evidence, both deterministic:
- what the page says: nav/aside elements, ARIA landmarks, page-level header/footer, dialogs;
- what the page shows, for pages that mark nothing: blocks named by their class/id words
  (`sidebar`, `relatedposts`, `commentlist`, `author-box`), by the heading they open with
  ("Mehr zum Thema", "Comments") or sit under (heading_sections), credit lines, skip links,
  link-dense menus, and short boxes after the main text; on a page the browser rendered, also
  what it showed fixed to the window (placed_region). The tables are in regions.py; each
  kind is a file of its own.
The second kind is applied outside the main text container (the smallest element holding
most of the page's text outside links, or the article the page marks), and inside it only to
blocks holding a small share of it (share bars, related links, comments, a table of
contents…), so main text stays in content/; a listing page keeps its lists.
tests/benchmarks/bench_maintext.py and bench_boilerplate.py measure that on real pages.
"""

from __future__ import annotations

import functools
import re

import lxml.etree
from lxml.html import HtmlElement

from webshellfs.compiler.builder import OPERABLE_ATTRIBUTE
from webshellfs.compiler.dom import FIXED_ATTRIBUTE, short_text, squash
from webshellfs.compiler.regions import (
    AFTER_MAIN_MAX_PROSE,
    AFTER_MAIN_TAGS,
    ARTICLE_MIN_PROSE,
    BOX_TAGS,
    CALL_OPENERS,
    CALL_TAGS,
    CALLS_TO_ACTION,
    CREDIT_PREFIXES,
    CREDIT_TAGS,
    FIXED_REGIONS,
    GUESSED_REGIONS,
    HEADING_BLOCK_TAGS,
    HEADING_PARAGRAPH_TAGS,
    HEADING_REGIONS,
    INLINE_KINDS,
    INSIDE_MAIN_EXTRA_TOKENS,
    INSIDE_MAIN_INLINE_TAGS,
    INSIDE_MAIN_MAX_SHARE,
    INSIDE_MAIN_ONLY_WORDS,
    INSIDE_MAIN_TAGS,
    LINE_PREFIXES,
    LINKED_KINDS,
    LINKS_INSIDE_MAIN_TAGS,
    LISTING_KEEPS,
    LISTING_LINK_SHARE,
    MAX_AGENCY_LINE_CHARS,
    MAX_CALL_CHARS,
    MAX_CREDIT_CHARS,
    MAX_HEADING_CHARS,
    MAX_PREFIXED_LINE_CHARS,
    MORE_OF_MAX_WORDS,
    MORE_OF_REGIONS,
    OTHER_PAGES_MARKERS,
    OTHER_PAGES_MAX_WORDS,
    OTHER_PAGES_NOUNS,
    PICTURE_AGENCIES,
    REGION_STEMS,
    REGION_TOKENS,
    RELATED_MIN_LINK_SHARE,
    SECTION_HEADING_TAGS,
    SHARE_SECTION_MAX_PROSE,
    SHORT_LISTING_LINK_SHARE,
    SITE_MENU_MIN_LINKS,
    TEASER_MIN_LINK_SHARE,
    TEASER_MIN_LINKS,
    TITLE_BLOCK_KINDS,
    TITLE_BLOCK_TAGS,
)
from webshellfs.compiler.rules import (
    ARTICLE_LEAD,
    ARTICLE_MIN_SHARE,
    BLOCK_TAGS,
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
# The role of a part the page declares a region of its content, which its class words do not
# rename.
DECLARED_REGION_ROLE = "region"
# The chrome kind a class/id word names that, inside an <article>, is the article's own part.
ARTICLE_OWNS = "header"
# Found through the role attributes (about twice as fast as testing every element's role);
# descendants only, not the element itself.
_ARTICLE_ROLE = lxml.etree.XPath("descendant::*/@role[. = 'article']/..")
_NAVIGATION_ROLE = lxml.etree.XPath("descendant::*/@role[. = 'navigation']/..")
_WORD_BREAK = re.compile(r"[^a-z0-9]+")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")
_NOT_WORDS = re.compile(r"[\W\d_]+")
# A call to action where a sentence starts (CALLS_TO_ACTION), whole words, and a word after
# it: "Sign in" alone is a form's title or a button's label, "Sign up for …" a call.
_CALL = re.compile(
    r"(?:^|[.!?:]\s+|\b(?:" + "|".join(CALL_OPENERS) + r")\s+)(?:"
    + "|".join(re.escape(call) for call in sorted(CALLS_TO_ACTION, key=len, reverse=True))
    + r")\W+\w")
# Heading phrases by their words; a one-word phrase names a kind only as the whole heading
# ("Tags"), a longer one also opening a longer heading ("Read more: Looted colonial art").
_HEADING_PHRASES = {
    phrase: region for region, phrases in HEADING_REGIONS.items() for phrase in phrases
}
_LONGEST_PHRASE = max(len(phrase.split()) for phrase in _HEADING_PHRASES)


def class_words(element: HtmlElement) -> list[str]:
    """The words of an element's class and id: whole names and their parts
    (`siteHeader-inner` → `siteheader-inner`, `site`, `header`, `inner`)."""
    return [*_value_words(element.get("class") or ""), *_value_words(element.get("id") or "")]


@functools.lru_cache(maxsize=NAMES_CACHE_SIZE)
def _value_words(value: str) -> tuple[str, ...]:
    """class_words of one attribute value: pages repeat the same class names on many
    elements."""
    words: list[str] = []
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
        # Pages repeat the same class names on many elements: answers by attribute value,
        # class and id apart (ids are mostly unique, so a pair of them would rarely repeat).
        self._seen: dict[str, str | None] = {}

    def region(self, element: HtmlElement) -> str | None:
        """The region of the element's class words, else of its id words; none for a part the
        page declares a region of its content (role=region: a disclosure widget's panel
        classed `disclosure-page-content` is not an affiliate disclosure)."""
        if element.get("role") == DECLARED_REGION_ROLE:
            return None
        class_value = element.get("class")
        region = self._value_region(class_value) if class_value else None
        if region is None:
            id_value = element.get("id")
            if id_value:
                region = self._value_region(id_value)
        return region

    def _value_region(self, value: str) -> str | None:
        if value not in self._seen:
            if len(self._seen) >= NAMES_CACHE_SIZE:
                self._seen.clear()
            self._seen[value] = self._lookup(value)
        return self._seen[value]

    def _lookup(self, value: str) -> str | None:
        for word in _value_words(value):
            region = self.tokens.get(word)
            if region is not None:
                return region
            match = self.stem_pattern.search(word)
            if match:
                return self.stems[match.group()]
        return None


CHROME_NAMES = RegionNames(REGION_TOKENS, REGION_STEMS)
# Inside the main text: the kinds that sit inside articles (INSIDE_MAIN_MAX_SHARE), some only
# by a few of their words (INSIDE_MAIN_ONLY_WORDS).
INSIDE_MAIN_NAMES = RegionNames(
    {**{w: r for w, r in REGION_TOKENS.items()
        if r in INSIDE_MAIN_MAX_SHARE and w in INSIDE_MAIN_ONLY_WORDS.get(r, (w,))},
     **INSIDE_MAIN_EXTRA_TOKENS},
    tuple((s, r) for s, r in REGION_STEMS
          if r in INSIDE_MAIN_MAX_SHARE and s in INSIDE_MAIN_ONLY_WORDS.get(r, (s,))
          or r in LINKED_KINDS),
)


def named_region(element: HtmlElement, weights: TextWeights) -> str | None:
    """The region an element's class/id words name (`sidebar`, `relatedposts`, `sharebar`…)."""
    return linked_kind(CHROME_NAMES.region(element), element, weights)


def linked_kind(region: str | None, element: HtmlElement, weights: TextWeights) -> str | None:
    """A kind named only for a block that links elsewhere (LINKED_KINDS) resolved: its region
    when the block holds a link, else none."""
    if region not in LINKED_KINDS:
        return region
    return LINKED_KINDS[region] if weights.links.get(element, 0) else None


def find_main_container(body: HtmlElement, held: dict[HtmlElement, int]) -> HtmlElement | None:
    """The smallest element holding most of the page's text (`held`: TextWeights.prose): from
    <body>, step into the child that holds at least MAIN_TEXT_SHARE of the text, for as long as
    one does, never into a single paragraph. None when the page has too little text to tell."""
    if held.get(body, 0) < MAIN_TEXT_MIN_CHARS:
        return None
    container = body
    while True:
        child = max(
            (c for c in container if isinstance(c.tag, str) and not _is_comment_thread(c)),
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


def _is_comment_thread(element: HtmlElement) -> bool:
    """A block named as comments: a long thread can outweigh the article it follows, so the
    main text is never looked for inside it."""
    return (element.get("class") is not None or element.get("id") is not None) and (
        CHROME_NAMES.region(element) == "comments")


def _article_of(container: HtmlElement, held: dict[HtmlElement, int]) -> HtmlElement:
    """Widen or narrow the container to the article the page marks: for a list (a gallery's
    captions can outweigh the story around them) the <article> it sits in, else the main
    article inside it."""
    if container.tag in LISTING_TAGS:
        enclosing = _enclosing_article(container)
        if enclosing is not None:
            return enclosing
    article = _the_article_in(container, held)
    return container if article is None else article


def _enclosing_article(element: HtmlElement) -> HtmlElement | None:
    """The nearest <article> (or role=article) the element sits in."""
    return next((a for a in element.iterancestors()
                 if a.tag == "article" or a.get("role") == "article"), None)


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


def placed_region(element: HtmlElement, weights: TextWeights, found: str | None) -> str | None:
    """The region the rules `found` for an element (or None), weighed against where the browser
    showed it fixed to the window (it stays put while the page scrolls under it, so it is not
    the page's text): a kind the rules named stands; a guess by shape alone (GUESSED_REGIONS),
    or nothing, gives way to the kind its class/id words name, else to the one its place names
    (FIXED_REGIONS). Never for a block that holds the page's title."""
    place = element.get(FIXED_ATTRIBUTE)
    if place is None or found is not None and found not in GUESSED_REGIONS:
        return found
    region = named_region(element, weights) or FIXED_REGIONS.get(place)
    if region is None or holds_title(element, weights):
        return found
    return region


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


def is_listing(main: HtmlElement, weights: TextWeights) -> bool:
    """A main text that is a listing (a home page, a search page): mostly links, or little
    prose with a fair share of links, not counting a sidebar the main text container holds
    (its link lists say nothing about the article beside them). Its lists of other articles
    are its content, so they stay."""
    prose = weights.prose.get(main, 0)
    total = weights.text.get(main, 0)
    for sidebar in _sidebars_in(main):
        prose -= weights.prose.get(sidebar, 0)
        total -= weights.text.get(sidebar, 0)
    return (prose < ARTICLE_MIN_PROSE and total - prose > SHORT_LISTING_LINK_SHARE * total
            or total - prose > LISTING_LINK_SHARE * total)


def _sidebars_in(main: HtmlElement) -> list[HtmlElement]:
    """The outermost blocks inside the main text named as a sidebar (INSIDE_MAIN_NAMES)."""
    sidebars: list[HtmlElement] = []
    for element in main.iterdescendants(*INSIDE_MAIN_TAGS):
        if INSIDE_MAIN_NAMES.region(element) == "aside" and not any(
                s in element.iterancestors() for s in sidebars):
            sidebars.append(element)
    return sidebars


def _is_box(element: HtmlElement, weights: TextWeights) -> bool:
    """A block that is a box of its own, not plain text going on: it has links, a heading, an
    image or a form control (BOX_TAGS), and is not a list of spelled-out URLs (references)."""
    links = weights.links.get(element, 0)
    if links and 2 * weights.url_links.get(element, 0) >= links:
        return False
    if next(element.iter("table"), None) is not None:
        return False  # a table is data, whatever is around it
    return links > 0 or next(element.iter(*BOX_TAGS), None) is not None


def _holds_navigation(element: HtmlElement) -> bool:
    """A block holding a nav: its links are the nav's (which goes to nav.md by itself), so
    they say nothing about the text beside it (a disclosure menu and the region it opens)."""
    return next(element.iter("nav"), None) is not None or bool(_NAVIGATION_ROLE(element))


def _is_table_of_contents(element: HtmlElement) -> bool:
    """A list of links into the page itself (`#fragment`s): a table of contents, nav.md."""
    hrefs = [(a.get("href") or "") for a in element.iter("a") if a.get("href") is not None]
    return bool(hrefs) and all(href.startswith("#") for href in hrefs)


def _is_site_menu(element: HtmlElement, weights: TextWeights) -> bool:
    """A menu of the site inside the main text container (one that wraps the whole page): named
    as navigation, mostly links, and long (an archive's months, a category tree), whatever
    share of the container it holds."""
    return (weights.links.get(element, 0) >= SITE_MENU_MIN_LINKS
            and CHROME_NAMES.region(element) == "nav" and weights.is_link_dense(element))


def _is_teaser_block(element: HtmlElement, weights: TextWeights) -> bool:
    """Cards of other articles: a few links that carry most of the block's text."""
    return (weights.links.get(element, 0) >= TEASER_MIN_LINKS
            and link_share(element, weights) >= TEASER_MIN_LINK_SHARE)


def link_share(element: HtmlElement, weights: TextWeights) -> float:
    total = weights.text.get(element, 0)
    return (total - weights.prose.get(element, 0)) / total if total else 0.0


def leading_text(element: HtmlElement) -> str | None:
    """The block's first short text, its heading as people see it: the first text in it,
    widened through the inline elements around it (`<h2><span>Mehr</span> zum Thema</h2>`) up
    to the first block, inside the block, while it stays short. None when that text is a long
    paragraph."""
    first = next(
        (node for node in element.iter()
         if isinstance(node.tag, str) and node.tag not in UNCOUNTED_TAGS
         and node.text and node.text.strip()),
        None,
    )
    if first is None or len(first.text.strip()) > MAX_HEADING_CHARS:
        return None
    owner = first
    while owner is not element and owner.tag not in BLOCK_TAGS:
        parent = owner.getparent()
        if parent is None or short_text(parent, MAX_HEADING_CHARS) is None:
            break
        owner = parent
    return short_text(owner, MAX_HEADING_CHARS)


def heading_region(element: HtmlElement, weights: TextWeights) -> str | None:
    """The region a block's heading names ("Related articles", "Kommentare", "Zobacz także"),
    or None; a label before a colon names it too ("Related: …"). A paragraph or heading
    element is that kind when it is the heading alone, and "related" when it goes on with
    mostly links ("Read more: <a>…</a>")."""
    tag = element.tag
    if tag not in HEADING_BLOCK_TAGS:
        return None
    heading = leading_text(element)
    if not heading or ":" in heading and _holds_field(element):
        return None  # "Tags: [____]": a field's label, not a block of tags
    region = _phrase_region(heading)
    label, colon, _ = heading.partition(":")
    if region is None and colon:
        region = _phrase_region(label)  # "Related: <a>…</a>", "SEE MORE: <a>…</a>"
    if region is None or tag not in HEADING_PARAGRAPH_TAGS:
        return region
    if short_text(element, len(heading)) is not None:
        return region
    mostly_links = link_share(element, weights) >= RELATED_MIN_LINK_SHARE
    return "related" if region == "related" and mostly_links else None


# Fields a person fills in: a block holding one is a form, whatever its label says.
FIELD_TAGS = ("input", "select", "textarea")


def _holds_field(element: HtmlElement) -> bool:
    return any(field.get("type", "").lower() != "hidden"
               for field in element.iterdescendants(*FIELD_TAGS))


def _phrase_region(text: str) -> str | None:
    """The kind a heading's words name: the whole of them, or a phrase of two words or more
    they open with (HEADING_REGIONS)."""
    words = _NOT_WORDS.sub(" ", text.lower()).split()
    region = _HEADING_PHRASES.get(" ".join(words)) if words else None
    for length in range(min(len(words) - 1, _LONGEST_PHRASE), 1, -1):
        if region is not None:
            break
        region = _HEADING_PHRASES.get(" ".join(words[:length]))
    return region


def holds_title(element: HtmlElement, weights: TextWeights) -> bool:
    """Whether the element is or holds the page's title, which stays in content/: its first
    <h1> that does not name a kind (a later one, or one reading "Meist gelesen" or
    "Redaktionstipp", heads a box of its own)."""
    if element.tag != "h1" and element.find(".//h1") is None:
        return False
    title = next((h1 for h1 in element.getroottree().getroot().iter("h1")
                  if heading_region(h1, weights) is None), None)
    return title is not None and (title is element or element in title.iterancestors())


def line_region(element: HtmlElement, weights: TextWeights) -> str | None:
    """"credits" for a short credit line ("Foto: …", "Bild via …", "© …", a picture agency's
    name), or the kind a short line's opening names (LINE_PREFIXES: "Write to … at …" is
    "bio"), else None. An image's caption itself stays where it is: it describes the
    article's picture."""
    size = weights.text.get(element, 0)
    if element.tag not in CREDIT_TAGS or not 0 < size <= MAX_CREDIT_CHARS:
        return None
    text = squash(element.text_content()).lower()
    if text.startswith(CREDIT_PREFIXES) or size <= MAX_AGENCY_LINE_CHARS and any(
            agency in text for agency in PICTURE_AGENCIES):
        return "credits"
    if size > MAX_PREFIXED_LINE_CHARS:
        return None
    return next((kind for kind, prefixes in LINE_PREFIXES.items() if text.startswith(prefixes)),
                None)


def call_region(element: HtmlElement, weights: TextWeights) -> str | None:
    """"promo" for a short block that opens a sentence with a call to subscribe, sign up, log
    in, give or support (CALLS_TO_ACTION), else None. Not a block holding a field: a sign-in
    form is something to fill in, as a person sees it."""
    if element.tag not in CALL_TAGS or not 0 < weights.text.get(element, 0) <= MAX_CALL_CHARS:
        return None
    if not _CALL.search(squash(element.text_content()).lower()):
        return None
    return None if _holds_field(element) else "promo"


def peripheral_region(element: HtmlElement, weights: TextWeights, listing: bool,
                      after_main: bool = False) -> str | None:
    """For an element outside the main text: the region its class/id words, its heading or its
    link density put it in, or None; after the main text (`after_main`) also a block with
    little prose of its own (a box, a teaser, a byline strip), as "aside". Never a block that
    holds the page's title (holds_title)."""
    region = (_chrome_name(element, weights) or line_region(element, weights)
              or call_region(element, weights))
    if region is None and not listing:
        region = heading_region(element, weights)
    if (region is None and after_main and not listing and element.tag in AFTER_MAIN_TAGS
            and weights.prose.get(element, 0) <= AFTER_MAIN_MAX_PROSE
            and _is_box(element, weights)):
        region = "aside"
    if region is None and element.tag in LINK_DENSE_TAGS and weights.is_link_dense(element):
        region = "nav"
    if region is not None and holds_title(element, weights):
        return None
    return region


def _chrome_name(element: HtmlElement, weights: TextWeights) -> str | None:
    """named_region, except that a block named `header` inside an article is the article's own
    header (its title, lead and date), as an HTML <header> there is: what it holds goes by its
    own names (a byline, a category list)."""
    region = named_region(element, weights)
    if region == ARTICLE_OWNS and _enclosing_article(element) is not None:
        return None
    return region


def minor_region(element: HtmlElement, weights: TextWeights, main: HtmlElement,
                 listing: bool) -> str | None:
    """For an element inside the main text: the region its class/id words or its heading put
    it in, only for the kinds that sit inside articles (share bars, related links, comments,
    promo boxes, bios, tags, credit lines), and only while it holds a small part of the main text
    (INSIDE_MAIN_MAX_SHARE). A "related" block must be mostly links; on a listing page
    (is_listing) lists of articles and their items' dates and authors are the content and stay
    (LISTING_KEEPS)."""
    tag = element.tag
    if tag not in INSIDE_MAIN_TAGS and tag not in HEADING_BLOCK_TAGS and tag not in CREDIT_TAGS:
        return None
    if element.get(OPERABLE_ATTRIBUTE):
        return None  # a post's own share icon is the post's control, not a share bar
    region = (linked_kind(INSIDE_MAIN_NAMES.region(element), element, weights)
              if tag in INSIDE_MAIN_TAGS else None)
    if region is not None and tag in INSIDE_MAIN_INLINE_TAGS and region not in INLINE_KINDS:
        region = None
    if region is None:
        region = line_region(element, weights) or call_region(element, weights)
    by_heading = region is None
    if by_heading:
        region = heading_region(element, weights)
    site_menu = _is_site_menu(element, weights)
    if region is None and tag in LINKS_INSIDE_MAIN_TAGS and (
            weights.is_link_dense(element) or _is_teaser_block(element, weights)
    ) and not _holds_navigation(element):
        region = "nav" if _is_table_of_contents(element) or site_menu else "related"
    if region is None or region in LISTING_KEEPS and listing:
        return None
    if region == "nav" and site_menu:
        return region
    if region == "related" and by_heading and tag not in HEADING_PARAGRAPH_TAGS and (
            link_share(element, weights) < RELATED_MIN_LINK_SHARE):
        return None
    held = weights.prose
    limit = INSIDE_MAIN_MAX_SHARE.get(region)
    if limit is None or held.get(element, 0) > limit * held.get(main, 0):
        return None
    if holds_title(element, weights):
        return None
    return region


def heading_sections(main: HtmlElement, weights: TextWeights,
                     listing: bool) -> dict[HtmlElement, str]:
    """Inside the main text, the sections a heading names: each element of such a section →
    its kind. The section is the heading element (SECTION_HEADING_TAGS, or an <h1> that is not
    the page's title) with the blocks around it that hold nothing else, and what follows it in
    its container, up to the next heading of the same or a higher level. It moves only while it
    holds a small share of the main text, as a block does (minor_region); a "related" one must
    be mostly links, and stays on a listing page; a "share" one holds little prose."""
    sections: dict[HtmlElement, str] = {}
    main_prose = weights.prose.get(main, 0)
    headings = [*main.iter("h1", *SECTION_HEADING_TAGS),
                *(e for e in main.iter(*TITLE_BLOCK_TAGS) if _is_title_block(e, weights))]
    for heading in headings:
        if heading in sections or heading.tag == "h1" and holds_title(heading, weights):
            continue
        region = heading_region(heading, weights) or _more_of_region(heading)
        limit = INSIDE_MAIN_MAX_SHARE.get(region or "")
        if limit is None or region == "related" and listing:
            continue
        members = _section_of(heading, main, weights)
        if (region == "related" and _link_share_of(members[1:], weights) < RELATED_MIN_LINK_SHARE
                or region == "share" and sum(
                    weights.prose.get(m, 0) for m in members[1:]) > SHARE_SECTION_MAX_PROSE
                or sum(weights.prose.get(m, 0) for m in members) > limit * main_prose
                or any(holds_title(m, weights) for m in members)):
            continue
        for member in members:
            sections.setdefault(member, region)
    return sections


def _is_title_block(element: HtmlElement, weights: TextWeights) -> bool:
    """A block that is only the title of a box of other pages ("Top stories" in a styled
    <div>), no heading element: it heads a section as an <h6> would (TITLE_BLOCK_KINDS)."""
    text = weights.text.get(element, 0)
    return (0 < text <= MAX_HEADING_CHARS and not weights.links.get(element, 0)
            and next(element.iterdescendants(*BLOCK_TAGS), None) is None
            and (heading_region(element, weights) or _more_of_region(element)) in TITLE_BLOCK_KINDS)


def _more_of_region(heading: HtmlElement) -> str | None:
    """The kind a short "more of" heading names ("Weitere Tourentipps in Schweden", "More
    Great WIRED Stories"): a section's heading only, never a heading alone (MORE_OF_REGIONS,
    OTHER_PAGES_MARKERS with OTHER_PAGES_NOUNS)."""
    words = _few_words(heading, OTHER_PAGES_MAX_WORDS)
    if words is None or len(words) < 2:
        return None
    if len(words) <= MORE_OF_MAX_WORDS and words[0] in MORE_OF_REGIONS:
        return MORE_OF_REGIONS[words[0]]
    named = set(words)
    if named & OTHER_PAGES_MARKERS and named & OTHER_PAGES_NOUNS:
        return "related"
    return None


def _words(text: str) -> list[str]:
    return _NOT_WORDS.sub(" ", squash(text).lower()).split()


def _few_words(element: HtmlElement, most: int) -> list[str] | None:
    """The words of the element's text if there are at most `most`, else None, from only as
    much of the text as it takes to tell (a heading swallowing the page by broken markup is
    asked about for each heading in it): a part of a text never has more words than it."""
    pieces: list[str] = []
    size = 0
    check_at = 64
    for piece in element.itertext():
        pieces.append(piece)
        size += len(piece)
        if size > check_at:
            if len(_words("".join(pieces))) > most:
                return None
            check_at = 2 * size
    words = _words("".join(pieces))
    return words if len(words) <= most else None


def _section_of(heading: HtmlElement, main: HtmlElement, weights: TextWeights) -> list[HtmlElement]:
    """The heading's block (widened to the elements around it holding no other text) and the
    blocks after it, up to one that is or holds a heading of the same or a higher level."""
    block = heading
    heading_text = weights.text.get(heading, 0)
    while True:
        parent = block.getparent()
        if parent is None or parent is main or weights.text.get(parent, 0) != heading_text:
            break
        block = parent
    levels = ("h1", *SECTION_HEADING_TAGS)
    # A title block (_is_title_block) is the lowest level: any heading ends its section.
    higher = levels[:int(heading.tag[1])] if heading.tag in SECTION_HEADING_TAGS else levels
    members = [block]
    for sibling in block.itersiblings():
        if not isinstance(sibling.tag, str):
            continue
        if sibling.tag in higher or next(sibling.iter(*higher), None) is not None:
            break
        members.append(sibling)
    return members


def _link_share_of(elements: list[HtmlElement], weights: TextWeights) -> float:
    total = sum(weights.text.get(e, 0) for e in elements)
    prose = sum(weights.prose.get(e, 0) for e in elements)
    return (total - prose) / total if total else 0.0

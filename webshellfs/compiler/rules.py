"""The compiler's rule data: which tags are skipped, which break lines, which regions are page
chrome, and the limits. Tables only; the walker (walker.py), the parser (parse.py) and the
boilerplate rules (boilerplate.py) read them.
"""

from __future__ import annotations

# Never rendered as page text: raw text, metadata, embedded documents and drawings.
SKIP_TAGS = frozenset({
    "script", "style", "template", "noscript", "noembed", "noframes", "head", "title", "meta",
    "link", "base", "iframe", "frame", "frameset", "object", "embed", "canvas", "desc", "video",
    "audio", "source", "track", "map", "area", "param", "datalist", "rp", "slot",
})

# Embedded documents a live capture inlines when they are same-origin; any left are named
# as links (their own pages).
FRAME_TAGS = frozenset({"iframe", "frame"})

# Elements that end the running line before and after them (everything else is inline).
BLOCK_TAGS = frozenset({
    "html", "body", "address", "article", "aside", "blockquote", "center", "details", "dialog",
    "dd", "div", "dl", "dt", "fieldset", "figcaption", "figure", "footer", "form", "h1", "h2",
    "h3", "h4", "h5", "h6", "header", "hgroup", "hr", "legend", "li", "main", "menu", "nav",
    "ol", "p", "pre", "section", "summary", "table", "caption", "thead", "tbody", "tfoot", "tr",
    "td", "th", "ul", "option", "optgroup", "textarea", "output", "search", "listing", "plaintext",
    "xmp",
})

HEADING_LEVELS = {"h1": 1, "h2": 2, "h3": 3, "h4": 4, "h5": 5, "h6": 6}
# Heading groups: in them only the highest-ranked heading opens a section; the others
# (a kicker above it, a subtitle below it) are its lines.
HEADING_GROUP_TAGS = frozenset({"hgroup", "header"})
# role=heading without a usable aria-level is level 2 (the ARIA default).
DEFAULT_ARIA_HEADING_LEVEL = 2
# A "heading" longer than this is a block someone wrapped in <hN>: it stays text.
MAX_HEADING_CHARS = 300

LIST_TAGS = frozenset({"ul", "ol", "menu"})
ORDERED_LIST_TAGS = frozenset({"ol"})
# Elements that become objects (refs) when walked: inline code holding one is walked, not read
# as one text.
OBJECT_TAGS = ("a", "img", "input", "button", "select", "textarea", "table")

# Visually hidden text (dom.visually_hidden) goes to this boilerplate region. A form control
# styled out of sight is usually stood in for by a custom widget, so it stays an action where
# it is; hidden text holding something to act on moves to the region whole, still numbered.
HIDDEN_REGION = "hidden"
CONTROL_TAGS = frozenset({"input", "button", "select", "textarea"})
INTERACTIVE_TAGS = ("a", "button", "input", "select", "textarea", "form", "summary")
# Inline elements whose text is code: read as one text, without marks, when they hold no object.
INLINE_CODE_TAGS = frozenset({"code", "kbd", "samp", "tt"})
PREFORMATTED_TAGS = frozenset({"pre", "listing", "plaintext", "xmp"})

# Lazy-loading attributes carrying the real image URL when `src` is a placeholder.
LAZY_SRC_ATTRIBUTES = ("data-src", "data-lazy-src", "data-original", "data-url")
LAZY_SRCSET_ATTRIBUTES = ("data-srcset", "data-lazy-srcset")

# --- regions (boilerplate/) -------------------------------------------------------------------

# ARIA landmark roles → the boilerplate file they go to.
LANDMARK_ROLES = {
    "navigation": "nav",
    "banner": "header",
    "contentinfo": "footer",
    "complementary": "aside",
    "search": "search",
    # not landmarks, but never the page's text: modal dialogs (consent, sign-in, newsletter)
    "dialog": "popup",
    "alertdialog": "popup",
}
# Elements that are always chrome.
LANDMARK_TAGS = {"nav": "nav", "aside": "aside", "search": "search", "dialog": "popup"}
# Elements that are chrome only at page level (an article's own header keeps its title).
PAGE_LEVEL_TAGS = {"header": "header", "footer": "footer"}
# Roles that are chrome only at page level, like the elements above.
PAGE_LEVEL_ROLES = frozenset({"banner", "contentinfo"})
# Inside these, <header>/<footer> belong to the article or section, not to the page.
SECTIONING_TAGS = frozenset({"article", "main", "section", "aside", "nav"})
SECTIONING_ROLES = frozenset({"article", "main", "region"})

# The kinds of boilerplate named by class/id words and headings: compiler/regions.py.

# A block outside the main text is a menu when it holds at least this many links, links make
# up at least this share of its text…
LINK_DENSE_MIN_LINKS = 3
LINK_DENSE_MIN_SHARE = 0.6
# …unless half its link texts are spelled-out URLs (a reference list).
SPELLED_URL_PREFIXES = ("http://", "https://", "www.")
LINK_DENSE_TAGS = frozenset({"ul", "ol", "menu", "div", "section", "table", "p", "dl"})
# The main text container: descend from <body> into the child holding at least this share of
# the text outside links, as long as one does (see boilerplate.find_main_container), but never
# into one paragraph-like block.
MAIN_TEXT_SHARE = 0.66
PARAGRAPH_TAGS = frozenset({
    "p", "li", "dd", "dt", "pre", "blockquote", "td", "th", "h1", "h2", "h3", "h4", "h5", "h6",
    "figcaption", "caption", "address", "summary", "legend", "label", "a", "b", "i", "em",
    "strong", "code", "q", "small", "sup", "sub",
})
# A main text container that is one of these (a gallery, a listing) widens to the <article>
# around it.
LISTING_TAGS = frozenset({"ul", "ol", "dl", "table", "tbody"})
# When the main text container holds an <article> with at least this share of its text and
# at least ARTICLE_LEAD times the text of any other article, that article is the main text.
ARTICLE_MIN_SHARE = 0.3
ARTICLE_LEAD = 2.0
# Text that does not count at all when weighing blocks: raw text and form controls. (Text
# inside links counts as link text, not as main text.)
UNCOUNTED_TAGS = frozenset({"script", "style", "noscript", "template", "select", "option",
                            "datalist", "textarea"})
# Below this much text there is no evidence for a main container: no heuristics.
MAIN_TEXT_MIN_CHARS = 200

# Same-page links whose text says they skip the chrome.
SKIP_LINK_WORDS = ("skip to", "skip navigation", "jump to content", "jump to main")

# --- limits (anything cut is said in _map.md notes) --------------------------------------------

MAX_SECTIONS = 2000
MAX_TEXT_CHARS = 100_000_000
# A content section longer than this continues in a new file, "Name (part 2)": no file is too
# big to read whole.
MAX_SECTION_CHARS = 100_000
# Nested lists and quotes deeper than this are shown at this depth.
MAX_PREFIX_LEVELS = 24
# Longer paragraphs are wrapped at a space into several lines, so grep output stays usable.
MAX_LINE_CHARS = 4000

"""The kinds of boilerplate a page holds besides its chrome, and the evidence that names them.

Tables only; boilerplate.py applies them. Each kind is a file in boilerplate/ (`related.md`,
`comments.md`, `promo.md`, `share.md`, `bio.md`, `byline.md`, `consent.md`, `tags.md`,
`credits.md`, `ads.md`, beside `nav.md`, `header.md`, `footer.md`, `aside.md`), so the file
name says why a block left content/: its class/id words, the heading it opens with, or the
heading it sits under, named that kind.
"""

from __future__ import annotations

# class/id words → region. A block is matched when one of its class or id words (the whole
# name, and its parts split at `-`, `_`, spaces, camelCase) is in this table.
REGION_TOKENS = {
    "nav": "nav", "navbar": "nav", "navigation": "nav", "menu": "nav", "menubar": "nav",
    "breadcrumb": "nav", "breadcrumbs": "nav", "pagination": "nav", "pager": "nav",
    "skip": "nav", "toc": "nav",
    "header": "header", "masthead": "header", "topbar": "header", "banner": "header",
    "footer": "footer", "colophon": "footer", "copyright": "footer",
    "sidebar": "aside", "side-bar": "aside", "aside": "aside", "widget": "aside",
    "widgets": "aside", "rail": "aside",
    "related": "related", "recommended": "related", "recommendations": "related",
    "more-stories": "related", "outbrain": "related", "taboola": "related",
    "mostread": "related", "most-read": "related", "most-popular": "related",
    "read-more": "related", "readmore": "related", "see-also": "related", "next-post": "related",
    "prev-post": "related", "post-navigation": "related", "nav-links": "related",
    "share": "share", "sharing": "share", "social": "share", "sharebar": "share",
    "sociable": "share", "shariff": "share", "addthis": "share", "bookmark": "share",
    "post-ratings": "share", "reprint": "share",
    "cookie": "consent", "cookies": "consent", "consent": "consent", "gdpr": "consent",
    "newsletter": "promo", "subscribe": "promo", "subscription": "promo", "signup": "promo",
    "promo": "promo", "paywall": "promo", "donate": "promo", "donation": "promo", "cta": "promo",
    "simplenews": "promo", "mailchimp": "promo", "mc4wp": "promo", "spenden": "promo",
    "spende": "promo", "assinatura": "promo", "assine": "promo", "registration": "promo",
    "login": "promo", "signin": "promo", "sign-in": "promo", "log-in": "promo",
    "comments": "comments", "comment": "comments", "disqus": "comments", "respond": "comments",
    "reply": "comments", "replies": "comments", "discussion": "comments",
    "author-box": "bio", "authorbox": "bio", "author-bio": "bio", "authorbio": "bio",
    "about-author": "bio", "about-the-author": "bio", "author-info": "bio",
    "author-description": "bio", "author-details": "bio", "author-card": "bio", "bio": "bio",
    "biography": "bio", "autorbox": "bio", "autoren-box": "bio",
    # who wrote the article and when: a byline, a dateline, a publication date
    "byline": "byline", "bylines": "byline", "by-line": "byline", "dateline": "byline",
    "timestamp": "byline", "pubdate": "byline", "published": "byline", "date": "byline",
    "author": "byline", "authors": "byline", "entry-meta": "byline", "post-meta": "byline",
    "article-meta": "byline", "posted-on": "byline", "publish-info": "byline",
    "reading-time": "byline", "read-time": "byline", "estimated-read-time": "byline",
    "meta": "byline", "submitted": "byline", "submitted-by": "byline", "postinfo": "byline",
    "post-info": "byline", "authorinfo": "byline",
    "tags": "tags", "tagcloud": "tags", "tag-cloud": "tags", "tag-list": "tags",
    "taglist": "tags", "tags-list": "tags", "post-tags": "tags", "entry-tags": "tags",
    "keywords": "tags", "schlagworte": "tags", "cat-links": "tags", "category-link": "tags",
    "category-links": "tags", "meta-category": "tags", "entry-category": "tags",
    "post-category": "tags", "post-categories": "tags", "entry-categories": "tags",
    "article-category": "tags",
    "credit": "credits", "credits": "credits", "photo-credit": "credits",
    "image-credit": "credits", "img-metadata": "credits", "attribution": "credits",
    "ad": "ads", "ads": "ads", "advert": "ads", "advertisement": "ads", "sponsored": "ads",
    "adv": "ads", "anzeige": "ads", "werbung": "ads", "disclosure": "ads",
    "modal": "popup", "popup": "popup", "overlay": "popup", "dialog": "popup", "lightbox": "popup",
    "control-panel": "popup", "slide-count": "popup",
}

# Word parts that name the same regions when sites glue words together (`relatedposts`,
# `sharebar`, `makehomepagedialog`); found anywhere in a class/id word, in this order.
REGION_STEMS = (
    ("related", "related"), ("sharing", "share"), ("share", "share"), ("social", "share"),
    ("cookie", "consent"), ("consent", "consent"), ("newsletter", "promo"),
    ("sidebar", "aside"), ("breadcrumb", "nav"), ("navbar", "nav"), ("advert", "ads"),
    ("footer", "footer"), ("masthead", "header"), ("comment", "comments"), ("dialog", "popup"),
    ("authorbox", "bio"), ("authorbio", "bio"), ("author-box", "bio"), ("author-bio", "bio"),
    ("tagcloud", "tags"), ("mostread", "related"), ("paywall", "promo"),
    ("news-letter", "promo"), ("actionbar", "share"), ("action-bar", "share"),
    ("affiliate", "ads"), ("third-party", "consent"), ("caption--source", "credits"),
    ("caption-source", "credits"), ("bildquelle", "credits"), ("byline", "byline"),
    ("dateline", "byline"), ("timestamp", "byline"), ("article-meta", "byline"),
    ("post-meta", "byline"), ("entry-meta", "byline"), ("reading-time", "byline"),
    ("read-time", "byline"), ("article-tools", "share"), ("print-tools", "share"),
    ("teaser", "teaser"),
)
# An element the browser shows fixed to the window (dom.FIXED_ATTRIBUTE) that its class/id
# words do not name, by where it sits: a bar across the top is the page's header, one along
# the bottom its footer (a cookie bar, a toolbar), one down a side an aside (a docked menu),
# a box over the page a popup (a chat bubble, a subscription box).
FIXED_REGIONS = {"top": "header", "bottom": "footer", "side": "aside", "over": "popup"}
# Regions the rules give by shape alone (a short box after the main text): where the browser
# fixed the element says more.
GUESSED_REGIONS = frozenset({"aside"})

# Kinds a name gives only to a block that links elsewhere: a teaser is a card of another page
# (related.md) when it holds a link; without one it is the article's own lead (`teaser-text`).
LINKED_KINDS = {"teaser": "related"}

# Inside the main text a block moves out only as one of these kinds, and only while it holds
# at most this share of the main text (a share bar, not a section someone named
# "related-work"). A comment thread can be long; a bio or a promo box is short.
INSIDE_MAIN_MAX_SHARE = {
    "share": 0.1, "consent": 0.1, "ads": 0.1, "related": 0.25, "nav": 0.1, "promo": 0.15,
    "comments": 0.8, "bio": 0.15, "tags": 0.1, "credits": 0.05, "aside": 0.3, "byline": 0.05,
    "popup": 0.1,
}
# On a listing page (a home page, search results) these kinds are part of its items (teasers
# of articles, each with its date and author): they stay in content/.
LISTING_KEEPS = frozenset({"related", "byline"})
# Inside the main text "nav", "aside" and "popup" are only named by these words (a table of
# contents, page links, a sidebar the main text container happens to hold, a gallery's
# lightbox repeating its captions; `widget` and `menu` name page-builder blocks and lists of
# steps there, `dialog` a story's dialogue); a copyright line there is an image's.
INSIDE_MAIN_ONLY_WORDS = {
    "nav": frozenset({"toc", "breadcrumb", "breadcrumbs", "pagination", "navbar", "menubar",
                      "navigation"}),
    "aside": frozenset({"sidebar"}),
    "popup": frozenset({"overlay", "lightbox", "modal", "control-panel", "slide-count"}),
}
INSIDE_MAIN_EXTRA_TOKENS = {"copyright": "credits"}
INSIDE_MAIN_TAGS = frozenset({"div", "section", "aside", "ul", "ol", "form", "figure", "footer",
                              "p", "span", "dl", "figcaption", "time"})
# A paragraph, a span or a time inside the main text moves by its name only as one of these
# kinds (a credit line, a bio paragraph, a date, a category link), never as a "related" or
# "comments" word in a sentence.
INSIDE_MAIN_INLINE_TAGS = frozenset({"span", "p", "time"})
INLINE_KINDS = frozenset({"credits", "share", "bio", "promo", "byline", "tags"})
# A credit line (a short text opening with one of these) is not the article's text: it goes to
# credits.md. An image's caption stays in content/ (it describes the article's picture).
CREDIT_PREFIXES = ("foto:", "fotos:", "foto via", "bild:", "bilder:", "bild via", "photo:",
                   "photos:", "photo by", "photo credit", "image:", "image credit", "imagen:",
                   "credit:", "credits:", "crédito:", "crédits photo", "bildquelle",
                   "fotoquelle", "beitragsbild", "©", "(c) ", "fot.", "(foto:", "(bild:",
                   "(photo:", "(crédito:", "(imagen:", "(fotos:", "quelle:", "bildnachweis",
                   "image via", "photo via", "fotocredit")
CREDIT_TAGS = frozenset({"p", "span", "div", "small", "figcaption", "cite"})
MAX_CREDIT_CHARS = 120
# Other short lines that say what they are by how they open (lower-case): an author's
# contact line under the story, a call to share it or to sign up. A line of CREDIT_TAGS of at
# most MAX_PREFIXED_LINE_CHARS characters (a longer one is a sentence of the story: "Write to
# the council before Friday, the mayor asked …").
MAX_PREFIXED_LINE_CHARS = 90
LINE_PREFIXES = {
    "bio": ("write to ", "reach the reporter", "contact the reporter", "contact the author",
            "email the author", "you can reach ", "follow the author"),
    "share": ("like this story? share", "share this story", "share this article",
              "share it with"),
    "promo": ("get breaking news", "sign up for our", "subscribe to our", "click here to subscribe",
              "click here to sign up"),
}
# A short block (at most MAX_CALL_CHARS) that opens a sentence with a call to subscribe, sign
# up, log in, give or support ("Sign up for the free daily newsletter", "Unterstütze RosaMag",
# "Wesprzyj nas") asks the reader for something: promo.md. Only where a sentence starts, or
# after one of CALL_OPENERS: the article's own sentences tell of such things ("the company
# continued to sign up subscribers", "a method to log in to many sites"), a call asks for them.
# Lower-case, in the languages of HEADING_REGIONS.
MAX_CALL_CHARS = 300
CALLS_TO_ACTION = (
    "subscribe", "sign up", "log in", "sign in", "newsletter", "donate", "support us",
    "support our",
    "abonnieren", "abonniere", "abonnieren sie", "jetzt registrieren", "registrieren sie sich",
    "einloggen", "unterstütze", "unterstützen sie uns", "spenden sie", "nichts mehr verpassen",
    "suscríbete", "suscríbase", "regístrate", "inicia sesión", "apóyanos",
    "abonnez-vous", "inscrivez-vous", "connectez-vous", "faites un don", "soutenez",
    "abbonati", "iscriviti", "sostienici",
    "assine", "inscreva-se", "cadastre-se", "apoie",
    "abonneer", "zaprenumeruj", "subskrybuj", "zarejestruj", "wesprzyj",
)
CALL_OPENERS = ("jetzt", "please", "bitte")
CALL_TAGS = frozenset({"p", "div", "section", "aside", "li", "span", "small", "h1", "h2", "h3",
                       "h4", "h5", "h6"})
# A line this short naming a picture agency ("TebNad/Shutterstock.com", "Getty Images") is a
# credit line too, whatever it opens with.
PICTURE_AGENCIES = ("shutterstock", "getty images", "gettyimages", "fotolia", "istock",
                    "adobe stock", "unsplash", "picture alliance", "picture-alliance",
                    "imago images")
MAX_AGENCY_LINE_CHARS = 60

# Headings that name a block's kind, in the languages of the pages we read most (English,
# German, Spanish, French, Polish, Italian, Portuguese, Dutch). A block whose first short text
# is one of these (as a whole, or followed by more words: "Read more: …") is that kind.
# Lower-case, without punctuation or digits ("Comments (12)" reads "comments").
HEADING_REGIONS = {
    "related": (
        "related", "related articles", "related posts", "related stories", "related content",
        "related topics", "read more", "read also", "more from", "more stories", "more on this",
        "more in", "you may also like", "you might also like", "recommended", "recommended for you",
        "most read", "most popular", "most viewed", "trending", "next up", "up next",
        "more news", "editors picks", "discover our latest editorial picks",
        "mehr zum thema", "das könnte sie auch interessieren",
        "das könnte dich auch interessieren",
        "weitere artikel", "weitere beiträge", "ähnliche artikel", "ähnliche beiträge",
        "verwandte artikel", "verwandte beiträge", "meist gelesen", "meistgelesen",
        "meist diskutiert", "meistdiskutiert", "beliebte beiträge", "beliebte artikel",
        "neueste beiträge", "neueste artikel", "aktuelle beiträge", "lesen sie auch",
        "lies auch", "auch interessant", "weitere themen", "mehr aus", "mehr kolumnen",
        "für dich empfohlen", "empfohlene artikel", "top artikel", "nächster artikel",
        "vorheriger artikel", "vorschau auf den nächsten artikel", "weiterlesen", "top posts",
        "contenido relacionado", "noticias relacionadas", "artículos relacionados",
        "lo más leído",
        "más leídas", "más leído", "te puede interesar", "también te puede interesar",
        "lee también", "más noticias", "visto ahora",
        "à lire aussi", "lire aussi", "articles similaires", "les plus lus", "sur le même sujet",
        "dans la même rubrique", "zobacz także", "zobacz też", "czytaj także", "czytaj też",
        "najczęściej czytane", "polecane", "articoli correlati", "leggi anche", "i più letti",
        "leia também", "mais lidas", "lees ook", "meest gelezen", "auch lesen",
        "das thema könnte dich auch interessieren", "kommentierte artikel",
        "weiterführender link",
        "weiterführende links", "weiterführende informationen", "entdecke weitere",
        "lust auf mehr", "empfehlungen aus", "top themen", "saiba mais", "leia mais",
        "veja também", "recommended stories", "more like this", "popular posts", "recent posts",
        "latest posts", "letzte beiträge", "recent comments", "neueste kommentare",
        "letzte kommentare", "lue myös", "lue lisää", "lue aiheesta lisää",
        "katso myös", "läs mer", "läs också", "redaktionstipp", "redaktionstipps", "lesetipp",
        "lesetipps", "unsere lesetipps", "top stories", "latest news", "latest stories",
        "don t miss", "see more", "also read", "related story", "related article",
        "related post", "read next",
    ),
    "comments": (
        "comments", "comment", "leave a reply", "leave a comment", "responses", "reader comments",
        "kommentare", "kommentar", "kommentare schreiben", "kommentar schreiben",
        "schreibe einen kommentar", "diskussion", "leserkommentare", "comentarios",
        "deja un comentario", "commentaires", "laisser un commentaire", "komentarze",
        "dodaj komentarz", "commenti", "reacties", "so können sie kommentieren",
        "kommentar von", "comment by", "tell us what you think", "join the discussion",
        "join the conversation", "have your say", "add a comment", "post a comment",
        "write a comment", "diskutieren sie mit", "ihre meinung", "deine meinung",
        "kommentieren",
    ),
    "promo": (
        "newsletter", "subscribe", "sign up for our newsletter", "abonnieren",
        "jetzt abonnieren", "newsletter abonnieren", "sie wollen mehr von uns",
        "unterstütze", "unterstützen sie", "support us", "suscríbete", "abonnez vous",
    ),
    "share": (
        "share", "share this", "share this article", "share this post", "teilen",
        "diesen artikel teilen", "artikel teilen", "beitrag teilen", "compartir", "partager",
        "udostępnij", "condividi", "follow us", "folgen sie uns", "be sociable share",
        "weiterempfehlen", "artikel weiterempfehlen", "seite empfehlen",
    ),
    "bio": (
        "about the author", "über den autor", "über die autorin", "zum autor", "zur autorin",
        "sobre el autor", "à propos de l auteur", "o autorze", "zur person",
    ),
    "tags": (
        "tags", "schlagworte", "schlagwörter", "stichworte", "etiquetas", "mots clés", "tagi",
        "keywords", "categories", "kategorien",
    ),
    "ads": (
        "anzeige", "werbung", "advertisement", "sponsored", "gesponsert", "reklama",
        "publicidad", "publicité", "pubblicità", "sponsored links",
    ),
}
# A short heading opening with one of these words ("Weitere Tourentipps in Schweden", "Mehr
# Rezepte") heads a section of other pages of the site when what follows it is mostly links;
# alone (a subheading "Mehr Sicherheit" of the story) it stays. Not English "More …": a help
# page's own section of links reads "More ways to customize" (Readability's mozilla-1).
MORE_OF_REGIONS = {"weitere": "related", "mehr": "related"}
MORE_OF_MAX_WORDS = 4
# A short heading that names other pages by a word of each of these ("More Great WIRED
# Stories", "Most popular videos", "Plus d'articles", "Neueste Nachrichten") heads a section of
# other pages the same way, in any language of HEADING_REGIONS; "More ways to customize"
# names no pages and stays.
OTHER_PAGES_MARKERS = frozenset({
    "more", "most", "top", "latest", "recent", "related", "popular", "trending", "recommended",
    "similar", "other", "further", "next", "weitere", "mehr", "neueste", "aktuelle",
    "beliebte", "ähnliche", "más", "otras", "otros", "últimas", "plus", "autres", "derniers",
    "dernières", "altri", "altre", "ultime", "mais", "outras", "meer", "andere",
    "więcej", "inne", "najnowsze", "popularne",
})
OTHER_PAGES_NOUNS = frozenset({
    "stories", "articles", "posts", "news", "videos", "headlines", "reads", "galleries",
    "artikel", "beiträge", "nachrichten", "meldungen", "noticias", "artículos",
    "actualités", "articoli", "notizie", "notícias", "artigos", "artikelen",
    "berichten", "nieuws", "artykuły", "wiadomości",
})
OTHER_PAGES_MAX_WORDS = 6
# Where the heading rule looks: blocks, not inline text; a paragraph only when it is mostly
# links ("Read more: <a>…</a>").
HEADING_BLOCK_TAGS = frozenset({"div", "section", "aside", "ul", "ol", "form", "footer",
                                "header", "dl", "details", "p", "table", "figure", "h1", "h2",
                                "h3", "h4", "h5", "h6"})
# Paragraphs and headings: one that is the heading alone ("Lesen Sie auch:") is that kind; one
# that goes on after it only as "related", and only when it is mostly links.
HEADING_PARAGRAPH_TAGS = frozenset({"p", "h1", "h2", "h3", "h4", "h5", "h6"})
# A heading element of these whose text names a kind ("Mehr zum Thema", "Comments") opens a
# section of that kind inside the main text: it and what follows it in its container, up to the
# next heading of the same or a higher level, go to that kind's file, while the section holds
# at most INSIDE_MAIN_MAX_SHARE of the main text (a page whose content sits under such a
# heading keeps it). An <h1> is the page's title, not a section's.
SECTION_HEADING_TAGS = ("h2", "h3", "h4", "h5", "h6")
# A block of these that is only the title of a list of other pages ("Top stories") heads a
# section too; not of the other kinds: an ad slot's "Advertisement" label sits anywhere in a
# story, with the story going on after it.
TITLE_BLOCK_TAGS = ("div", "p")
TITLE_BLOCK_KINDS = frozenset({"related"})
# A heading is short: the first text of the block, up to this many characters.
MAX_HEADING_CHARS = 60
# A list of other articles is mostly links: inside the main text, a block headed "related"
# moves only when links make up at least this share of its text.
RELATED_MIN_LINK_SHARE = 0.4
# A share bar is links and buttons: under a heading that calls to share ("A favor: would you
# share this?"), more prose than this after it is the author's own text, and stays.
SHARE_SECTION_MAX_PROSE = 200
# Inside the main text, a block of these that is mostly links (TextWeights.is_link_dense, or
# TEASER_MIN_LINK_SHARE below) is a list of other pages: related.md. Not a paragraph (a
# few links in a sentence are the article's text), not a table (a table of names is data).
LINKS_INSIDE_MAIN_TAGS = frozenset({"ul", "ol", "div", "section", "dl"})
# After the main text, a block holding at most this much prose (text outside links) is not
# the article going on but a box beside it (aside.md): teasers, bylines, calls to action. A
# longer block is walked into, and its parts weighed one by one.
AFTER_MAIN_MAX_PROSE = 400
# Only a box: a block with a link, a heading, an image or a form control (short plain
# paragraphs right after the main text container may still be the article's).
BOX_TAGS = ("h1", "h2", "h3", "h4", "h5", "h6", "input", "button", "select", "textarea", "img")
AFTER_MAIN_TAGS = frozenset({"div", "section", "aside", "ul", "ol", "dl", "footer", "form",
                             "header", "nav", "center", "article"})
# Inside the main text, a block named as navigation (`ul.nav`, `menu`) that is mostly links
# and has at least this many is the site's menu, nav.md, however much of the text it holds.
SITE_MENU_MIN_LINKS = 20
# Inside the main text, cards of other articles: a block whose links (one is enough, where a
# menu needs LINK_DENSE_MIN_LINKS) carry at least this share of its text.
TEASER_MIN_LINKS = 1
TEASER_MIN_LINK_SHARE = 0.6
# With links making up more than LISTING_LINK_SHARE of its text, or below this much prose
# outside links and links more than SHORT_LISTING_LINK_SHARE, the main container is a listing
# (a home page, a search page): its lists stay content. A short article with a box of links
# under it is not one.
ARTICLE_MIN_PROSE = 500
LISTING_LINK_SHARE = 0.5
SHORT_LISTING_LINK_SHARE = 0.3

"""Text hidden by the page's own stylesheet, for a page compiled without a browser.

A browser capture marks what its layout shows nowhere; a page fetched over plain HTTP (or given
to `webshellfs compile`) has only its markup. Here the page's `<style>` elements are split into
rules, the declarations that can hide text are kept, their selectors parsed (into cssselect's
objects, selector_parser.py) and matched right to left from an index of the document's tags,
classes, ids and attributes, and cascaded by importance, specificity and order, with the
inline style on top. An element whose resulting style hides it (display:none,
visibility:hidden, off-screen, no size, clipped, transparent, invisible ink, font-size 0) gets
the browser's mark (`dom.UNSEEN_ATTRIBUTE`) and the walker moves its text to
boilerplate/hidden.md. Moved, never dropped: this cascade is an approximation (no linked
stylesheets, no scripts, a viewport assumed 1280 px wide), so a wrong guess costs a line in the
wrong file, not the text.

Bounded whatever the page: at most MAX_STYLESHEET_CHARS of CSS are read, at most MAX_RULES
rules about visibility are used, and matching stops after MAX_MATCH_WORK steps; what is left
over is said in the page's notes. Only the elements some rule could hide by itself are
candidates; the other rules (a `display:block` after a `display:none`) are matched against
those alone, and only those whose last compound names tags, classes and ids these elements
have are parsed at all. Rules are split by one regular expression rather than by tinycss2,
measured at about 150 KB of CSS per second here: only their structure and declarations are
needed.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

import cssselect
import lxml.etree
from cssselect.parser import Attrib, Class, CombinedSelector, Element, Hash, Negation, Pseudo
from lxml.html import HtmlElement

from webshellfs.compiler.builder import LOCATOR_ATTRIBUTE
from webshellfs.compiler.dom import UNSEEN_ATTRIBUTE, hidden_by_style, inline_style, zero_font_size
from webshellfs.compiler.selector_parser import parse_selectors

__all__ = ["MAX_MATCH_WORK", "MAX_RULES", "MAX_STYLESHEET_CHARS", "mark_stylesheet_hidden"]

# How much of the page's <style> text is read (a few hundred KiB of inlined CSS is common on
# big sites).
MAX_STYLESHEET_CHARS = 512 * 1024
# Rules declaring something relevant that are matched against the document, in order.
MAX_RULES = 20_000
# Steps for the whole page: a candidate element checked against a compound selector, or a
# matched declaration ranked.
MAX_MATCH_WORK = 300_000
# The viewport media queries are judged against: Chromium's default window.
VIEWPORT_WIDTH = 1280
VIEWPORT_HEIGHT = 720

# The properties whose values decide visibility here (dom.hidden_by_style and below).
_PROPERTIES = frozenset({
    "display", "visibility", "opacity", "font-size", "position", "left", "top", "right",
    "margin-left", "margin-top", "text-indent", "clip", "clip-path", "overflow", "overflow-x",
    "overflow-y", "width", "height", "max-width", "max-height", "color", "background-color",
    "background",
})
# Media types a screen matches.
_SCREEN_TYPES = frozenset({"all", "screen"})
_FEATURE = re.compile(r"\(\s*(min|max)-(width|height)\s*:\s*(\d*\.?\d+)(px|em|rem)?\s*\)")
_UNIT_PX = {"px": 1.0, None: 1.0, "em": 16.0, "rem": 16.0}
# Not elements that show text of their own: marking them would change nothing or too much.
_NEVER_MARKED = frozenset({"html", "head", "body", "script", "style", "template", "noscript",
                           "title", "meta", "link", "base"})


Styles = dict[HtmlElement, dict[str, str]]
# How the cascade ranks a declaration: !important, then specificity, then order.
_Rank = tuple[bool, tuple[int, int, int], int]


def mark_stylesheet_hidden(root: HtmlElement) -> list[str]:
    """Mark every element the page's own `<style>` rules hide; returns notes about limits.
    A browser rendering (its elements carry locators) is left alone: its layout has judged."""
    css, notes = _style_text(root)
    if not css:
        return notes  # no <style> text: whether it is a rendering need not be asked
    if _HAS_LOCATOR(root):
        return []
    rules = _rules(css)
    if len(rules) > MAX_RULES:
        notes.append(f"the page's stylesheets have {len(rules):,} rules about visibility; "
                     f"only the first {MAX_RULES:,} were used")
        rules = rules[:MAX_RULES]
    if not rules:
        return notes
    matcher = _Matcher(root)
    suspects, styles = _cascade(matcher, rules)
    if matcher.exhausted:
        size = int(root.xpath("count(//*)"))
        notes.append(f"matching the page's stylesheets against its {size:,} elements "
                     f"stopped after {MAX_MATCH_WORK:,} checks; later rules were not used")
    if not suspects:
        return notes
    undone = _Undone(root, styles)
    for element, declared in suspects.items():
        if _hides(element, declared, undone):
            element.set(UNSEEN_ATTRIBUTE, "")
    return notes


# Whether the page is a browser rendering: faster than root.find, which tests each element in
# Python.
_HAS_LOCATOR = lxml.etree.XPath(f"boolean(descendant::*/@{LOCATOR_ATTRIBUTE})")


def _style_text(root: HtmlElement) -> tuple[str, list[str]]:
    """The CSS of the page's <style> elements for screens, up to MAX_STYLESHEET_CHARS."""
    parts: list[str] = []
    total = 0
    for style in root.iter("style"):
        if not _applies(style.get("media", "all")):
            continue
        text = style.text or ""
        parts.append(text[:MAX_STYLESHEET_CHARS - total])
        total += len(text)
        if total > MAX_STYLESHEET_CHARS:
            return "\n".join(parts), [(
                f"the page's stylesheets are {total:,}+ characters; only the first "
                f"{MAX_STYLESHEET_CHARS:,} were read for hidden text")]
    return "\n".join(parts), []


def _applies(media: str) -> bool:
    """Whether a media query list matches a screen VIEWPORT_WIDTH × VIEWPORT_HEIGHT. Features
    other than min/max width and height make a query count as not matching."""
    return any(_query_applies(query) for query in media.lower().split(","))


def _query_applies(query: str) -> bool:
    query = query.strip().lower()
    negated = query.startswith("not ")
    body = query.removeprefix("not ").removeprefix("only ").strip()
    words = [w for w in _FEATURE.sub(" ", body).split() if w != "and"]
    if any("(" in w or ")" in w for w in words) or len(words) > 1:
        result = False  # a feature not judged here, or not a query at all
    elif words and words[0] not in _SCREEN_TYPES:
        result = False
    else:
        result = all(_feature_holds(*found) for found in _FEATURE.findall(body))
    return result != negated


def _feature_holds(bound: str, dimension: str, number: str, unit: str) -> bool:
    size = VIEWPORT_WIDTH if dimension == "width" else VIEWPORT_HEIGHT
    limit = float(number) * _UNIT_PX[unit or None]
    return size >= limit if bound == "min" else size <= limit


# One token of CSS at the level of rules (declarations are split at `;` afterwards, strings
# aside). A whole block with nothing nested and no string or comment in it is one token: most
# rules are, and one token costs a quarter of four.
_PLAIN = r"""[^{}"'/]*+(?:/(?!\*)[^{}"'/]*+)*+"""  # no brace, quote or comment (may be empty)
_TOKEN = re.compile("|".join((
    _PLAIN + r"\{" + _PLAIN + r"\}",  # `prelude{body}`
    r"/\*.*?(?:\*/|\Z)",  # a comment
    r""""(?:\\.|[^"\\])*"?|'(?:\\.|[^'\\])*'?""",  # a string
    r"[{}]",
    r"""(?!/\*)(?=[^{}"'])""" + _PLAIN,  # a run of anything else, up to one of those
)), re.DOTALL)
_AT_RULE = re.compile(r"@([\w-]+)\s*(.*)", re.DOTALL)
_IMPORTANT = re.compile(r"!\s*important\s*$")
# At-rules whose blocks hold ordinary rules (@media only when it applies).
_GROUPING = frozenset({"media", "supports", "layer", "scope"})

Rule = tuple[str, list[tuple[str, str, bool]]]


@dataclass
class _Block:
    """An open `{`: a style rule (its selector) or a group; `used` says whether what is
    inside counts (a group for another medium, @keyframes, nested rules do not)."""

    selector: str | None
    used: bool


def _rules(css: str) -> list[Rule]:
    """(selector text, [(property, value, important)]) of each style rule for screens that
    declares something relevant, in order."""
    rules: list[Rule] = []
    stack: list[_Block] = []
    buffer: list[str] = []
    inside = True  # whether a rule opened here counts (_open's `used`)
    media: dict[str, bool] = {}  # each media query judged once, however many groups it opens
    bodies: dict[str, list] = {}  # each block body read once (its list shared: only read)
    for token in _TOKEN.findall(css):
        first = token[0]
        if first == "/" and token.startswith("/*"):
            continue
        if token[-1] == "}" and first not in "\"'}":
            # A whole block, as its prelude, `{`, body and `}` one by one would be taken: an
            # at-rule's says nothing here, a style rule's counts if it declares something.
            prelude, _, body = token[:-1].partition("{")
            declarations = bodies.get(body) if inside else []
            if declarations is None:
                declarations = bodies[body] = _declarations(body.split(";"))
            if declarations:
                buffer.append(prelude)
                selector = _last_statement(buffer).strip()
                if not selector.startswith("@"):
                    rules.append((selector, declarations))
            buffer = []
            continue
        if token == "{":
            # Whatever ends in `;` before a selector is a statement (@import …;), not part of it.
            stack.append(_open(inside, _last_statement(buffer).strip(), media))
        elif token == "}":
            if stack:
                top = stack.pop()
                if top.selector is not None and top.used:
                    declarations = _declarations(_statements(buffer))
                    if declarations:
                        rules.append((top.selector, declarations))
        else:
            buffer.append(token)
            continue
        buffer = []
        inside = not stack or (stack[-1].used and stack[-1].selector is None)
    return rules


def _open(inside: bool, prelude: str, media: dict[str, bool]) -> _Block:
    """The block a `{` opens after `prelude`, in a place where rules count or not (`inside`);
    `media` remembers the queries judged so far."""
    if not prelude.startswith("@"):
        return _Block(prelude, inside)
    at_rule = _AT_RULE.match(prelude)
    keyword, condition = (at_rule.group(1).lower(), at_rule.group(2)) if at_rule else ("", "")
    if keyword == "media" and condition not in media:
        media[condition] = _applies(condition)
    used = inside and keyword in _GROUPING and (keyword != "media" or media[condition])
    return _Block(None, used)


def _statements(tokens: list[str]) -> list[str]:
    """Tokens joined and split at each `;` outside strings."""
    parts = [""]
    for token in tokens:
        if token[:1] in ("'", '"') or ";" not in token:
            parts[-1] += token
            continue
        first, *rest = token.split(";")
        parts[-1] += first
        parts.extend(rest)
    return parts


def _last_statement(tokens: list[str]) -> str:
    """`_statements(tokens)[-1]`, without splitting the ones before it."""
    for index in range(len(tokens) - 1, -1, -1):
        token = tokens[index]
        if token[:1] not in ("'", '"') and ";" in token:
            return token.rpartition(";")[2] + "".join(tokens[index + 1:])
    return "".join(tokens)


def _declarations(statements: list[str]) -> list[tuple[str, str, bool]]:
    """The relevant (property, value, important) of a rule's statements, lower case."""
    found = []
    for text in statements:
        name, colon, value = text.partition(":")
        name = name.strip().lower()
        if colon and name in _PROPERTIES:
            value = value.strip().lower()
            important = _IMPORTANT.search(value) is not None
            found.append((name, _IMPORTANT.sub("", value).strip(), important))
    return found


def _cascade(matcher: _Matcher, rules: list[Rule]) -> tuple[Styles, Styles]:
    """Element → its winning relevant declarations (stylesheet, then inline on top), for the
    elements a rule that can hide something matches (the suspects), and for those and their
    descendants: the other rules (display:block after display:none …) can only matter to
    those, so they are matched against those alone."""
    parsed: dict[str, list[cssselect.Selector]] = {}  # those without a pseudo-element

    def selectors(text: str) -> list[cssselect.Selector]:
        found = parsed.get(text)
        if found is None:
            try:
                found = parse_selectors(text) if matcher.may_match(text) else []
            except cssselect.SelectorError:
                found = []
            found = parsed[text] = [s for s in found if s.pseudo_element is None]
        return found

    suspects: set[HtmlElement] = set()
    hiding: dict[tuple[str, str], bool] = {}
    for text, declarations in rules:
        if _can_hide(declarations, hiding):
            for selector in selectors(text):
                suspects.update(matcher.matching(selector.parsed_tree))
    suspects = {element for element in suspects if element.tag not in _NEVER_MARKED}
    # Their descendants too: a visibility or font size set there undoes the suspect's.
    styled = _subtrees(suspects)
    matcher.spend(len(styled))
    focus = _Names(styled)
    winners: dict[HtmlElement, dict[str, tuple[_Rank, str]]] = {}
    order = 0
    for text, declarations in rules:
        if not suspects or not focus.may_be_styled(text):
            continue  # skipped unparsed; order only ranks the rules that are matched
        for selector in selectors(text):
            order += 1
            specificity = selector.specificity()
            for element in matcher.matching(selector.parsed_tree, among=styled):
                current = winners.setdefault(element, {})
                for name, value, important in declarations:
                    rank = (important, specificity, order)
                    if name not in current or current[name][0] <= rank:
                        current[name] = (rank, value)
                matcher.spend(len(declarations))
    styles = {element: _with_inline(element, declared) for element, declared in winners.items()}
    return {element: style for element, style in styles.items() if element in suspects}, styles


# Declarations that can put an element out of sight on their own or with another one
# (position with an offset, overflow with a size); the rest only ever undo them.
_HIDING = re.compile(
    r"^(?:display:none|visibility:(?:hidden|collapse)|opacity:(?:-[\d.]+|0*\.?0+)%?$"
    r"|font-size:0*\.?0+[a-z%]*$|(?:left|top|right|margin-left|margin-top|text-indent):-\d{4,}"
    r"|clip:rect|clip-path:inset|(?:max-)?(?:width|height):[01](?:px)?$|color:transparent$)")


def _can_hide(declarations: list[tuple[str, str, bool]],
              hiding: dict[tuple[str, str], bool]) -> bool:
    """Whether a rule can hide what it matches: a declaration of _HIDING, or text in the
    colour of the rule's own background. `hiding` remembers each (property, value) judged:
    a stylesheet repeats most of them from rule to rule."""
    style = {name: value for name, value, _ in declarations}
    colour = style.get("color")
    if colour is not None and colour in (style.get("background-color"), style.get("background")):
        return True
    for declaration in style.items():
        hides = hiding.get(declaration)
        if hides is None:
            name, value = declaration
            hides = hiding[declaration] = bool(_HIDING.match(f"{name}:{value.replace(' ', '')}"))
        if hides:
            return True
    return False


def _with_inline(element: HtmlElement, declared: dict[str, tuple[_Rank, str]]) -> dict[str, str]:
    """The stylesheet's winners with the element's inline style on top; an `!important`
    stylesheet declaration beats an inline one that is not."""
    style = {name: value for name, (_, value) in declared.items()}
    for name, value in inline_style(element).items():
        important = value.endswith("!important")
        stylesheet = declared.get(name)
        if important or stylesheet is None or not stylesheet[0][0]:
            style[name] = value.removesuffix("!important").strip()
    return style


def _subtrees(roots: set[HtmlElement]) -> set[HtmlElement]:
    """The elements in and under `roots`, each visited once however they nest."""
    seen: set[HtmlElement] = set()
    for top in roots:
        stack = [top]
        while stack:
            element = stack.pop()
            if element in seen:
                continue  # its subtree is in already
            seen.add(element)
            stack.extend(child for child in element if isinstance(child.tag, str))
    return seen


class _Names:
    """The tags, classes and ids of some elements: a rule whose selectors' last compounds each
    name one they lack can style none of them, which is seen before the rule is parsed."""

    def __init__(self, elements: set[HtmlElement]) -> None:
        self.tags = {element.tag for element in elements}
        self.classes = {name for element in elements for name in _class_names(element)}
        self.ids = {element.get("id") for element in elements}
        self._compounds: dict[str, bool] = {}  # the answer for each last compound seen

    def may_be_styled(self, text: str) -> bool:
        for compound in _last_compounds(_without_nested(text)):
            styled = self._compounds.get(compound)
            if styled is None:
                styled = self._compounds[compound] = self._may_style(compound)
            if styled:
                return True
        return False

    def _may_style(self, compound: str) -> bool:
        tag = _TAG.match(compound)
        if tag is not None and tag.group().lower() not in self.tags:
            return False
        return all(name in (self.classes if mark == "." else self.ids)
                   for mark, name in _selector_names(compound))


def _last_compounds(text: str) -> list[str]:
    """The last compound of each selector of a list (`a .b > p.c, .d` → `p.c`, `.d`): what
    follows its last space or combinator. Split by str methods: a regular expression's search
    took twice as long over a big site's selectors."""
    found = []
    for selector in text.split(","):
        words = selector.split()
        last = words[-1] if words else ""
        for combinator in ">+~":
            if combinator in last:
                last = last.rpartition(combinator)[2]
        found.append(last)
    return found


def _class_names(element: HtmlElement) -> list[str]:
    return (element.get("class") or "").split()


class _Undone:
    """The elements under which a descendant undoes an inherited hiding: sets visibility:
    visible, or a font size of its own (by the stylesheet or inline)."""

    def __init__(self, root: HtmlElement, styles: Styles) -> None:
        inline = {element: inline_style(element) for element in root.xpath(
            "//@style[contains(., 'visibility') or contains(., 'font-size')]/..")}
        declared = [*styles.items(), *((e, st) for e, st in inline.items() if e not in styles)]
        self.visibility = _above(e for e, st in declared if st.get("visibility") == "visible")
        self.font_size = _above(e for e, st in declared if "font-size" in st)


def _above(elements: Iterable[HtmlElement]) -> set[HtmlElement]:
    """The ancestors of these elements, each walked once."""
    marked: set[HtmlElement] = set()
    for element in elements:
        for ancestor in element.iterancestors():
            if ancestor in marked:
                break
            marked.add(ancestor)
    return marked


def _hides(element: HtmlElement, style: dict[str, str], undone: _Undone) -> bool:
    """Whether the element's resulting style keeps it out of sight. visibility:hidden and a
    zero font size are undone by a descendant that sets its own (they inherit)."""
    if style.get("display") == "none" or hidden_by_style(style):
        return True
    if style.get("visibility") in ("hidden", "collapse"):
        return element not in undone.visibility
    if zero_font_size(style):
        return element not in undone.font_size
    return False


class _Unsupported(Exception):
    """A selector using something not matched here (:nth-child(), :has() …): not used."""


# Pseudo-classes of interaction and history: a page as loaded matches none of them.
_NEVER = frozenset({"hover", "focus", "active", "visited", "target", "focus-within",
                    "focus-visible", "checked", "indeterminate", "open"})


# The classes and ids a selector names (outside attribute tests and pseudo-class arguments),
# and the commas between selectors; a compound's tag.
_NAMES = re.compile(r"([.#])((?=[\w-]|\\[^0-9a-fA-F\s])[\w-]*+(?:\\[^0-9a-fA-F\s][\w-]*+)*+)")
_NAMES_AND_COMMAS = re.compile(_NAMES.pattern + "|,")
_ESCAPE = re.compile(r"\\(.)")
_TAG = re.compile(r"[a-zA-Z][\w-]*")


def _selector_names(text: str) -> list[tuple[str, str]]:
    """(`.` or `#`, name) of each class and id in a selector's text, escapes undone."""
    return [(mark, _ESCAPE.sub(r"\1", name) if "\\" in name else name)
            for mark, name in _NAMES.findall(text)]
# Attribute tests and pseudo-class arguments, which may hold dots and need not be present.
_NESTED = re.compile(r"\[[^\]]*\]|\([^)]*\)")


def _without_nested(text: str) -> str:
    return _NESTED.sub("", text) if "[" in text or "(" in text else text


class _Matcher:
    """Right-to-left selector matching from the document's elements with a tag, class or id
    (found by lxml as needed), counting its work against MAX_MATCH_WORK."""

    def __init__(self, root: HtmlElement) -> None:
        # One pass over the document's elements for both attributes (two XPaths cost more):
        # tags are looked up when a selector needs one.
        by_class: dict[str, list[HtmlElement]] = {}
        with_id: list[HtmlElement] = []
        self._words: dict[HtmlElement, list[str]] = {}  # the class names of those with any
        for element in _document_elements(root):
            classes = element.get("class")
            if classes is not None:
                self._words[element] = words = classes.split()
                for name in words:
                    found = by_class.get(name)
                    if found is None:
                        by_class[name] = [element]
                    else:
                        found.append(element)
            if element.get("id") is not None:
                with_id.append(element)
        self._entries: dict[tuple[str, str], list[HtmlElement]] = {
            ("class", name): elements for name, elements in by_class.items()}
        for element in with_id:
            self._entries.setdefault(("id", element.get("id")), []).append(element)
        self.classes = {name for kind, name in self._entries if kind == "class"}
        self.ids = {name for kind, name in self._entries if kind == "id"}
        self._root = root
        # Keyed by the parsed selectors themselves (compared by identity), which the cascade
        # keeps while this matcher lives.
        self._memo: dict[object, dict[HtmlElement, bool]] = {}
        self._compounds: dict[object, set[HtmlElement]] = {}
        self._tests: dict[object, Callable[[HtmlElement], bool]] = {}
        self._plans: dict[object, _Plan] = {}
        self._walks: dict[object, dict[HtmlElement, tuple[int, bool]]] = {}
        self._keys: dict[object, str] = {}
        self._found: dict[str, list[HtmlElement]] = {}
        self.work = 0
        self.exhausted = False

    def _entry(self, kind: str, name: str) -> list[HtmlElement]:
        """The elements with a class, id or tag name ("" for all), in document order."""
        key = (kind, name)
        if key not in self._entries:
            if kind != "tag":
                return []
            self._entries[key] = [e for e in self._root.iter(name or None)
                                  if isinstance(e.tag, str)]
        return self._entries[key]

    def _named(self, kind: str, node: Attrib, admits: Callable[[str], bool]) -> list[HtmlElement]:
        """The elements with a class or id name that `admits` accepts (remembered per test)."""
        key = ("names", f"{kind}{node.operator}{node.value.value if node.value else ''}")
        if key not in self._entries:
            names = self.classes if kind == "class" else self.ids
            self._entries[key] = list(dict.fromkeys(
                element for known in sorted(names) if admits(known)
                for element in self._entries[(kind, known)]))
        return self._entries[key]

    def may_match(self, text: str) -> bool:
        """False if no selector of a list can match: each names a class or id the document
        lacks, in any of its compounds (most of a big site's stylesheet). Cheaper than
        parsing it."""
        text = _without_nested(text)
        if "\\," in text:  # a comma in a name: the selectors are split first
            return any(all(name in (self.classes if mark == "." else self.ids)
                           for mark, name in _selector_names(part)) for part in text.split(","))
        present = True  # every name of this selector so far
        for mark, name in _NAMES_AND_COMMAS.findall(text):
            if not mark:  # a comma: this selector is whole
                if present:
                    return True
                present = True
            elif present:
                if "\\" in name:
                    name = _ESCAPE.sub(r"\1", name)
                present = name in (self.classes if mark == "." else self.ids)
        return present

    def matching(self, tree: object, among: set[HtmlElement] | None = None) -> list[HtmlElement]:
        """The elements (of `among`, if given) a parsed selector matches; none if it is
        unsupported or the work budget has run out."""
        if self.exhausted:
            return []
        last = tree.subselector if isinstance(tree, CombinedSelector) else tree
        key = self._keys.get(tree)
        if key is None:
            key = self._keys[tree] = repr(tree)  # equal selectors share their answer
        if key in self._found:
            found = self._found[key]
            if among is None:
                return found
            self.spend(len(found))
            return [element for element in found if element in among]
        try:
            candidates = self._candidates(last)
            if among is not None:
                self.spend(len(candidates))
                candidates = [element for element in candidates if element in among]
                key = ""  # a partial answer: not remembered
            if _is_key_only(tree):
                self.spend(len(candidates))  # the index entry is the answer
                found = list(candidates)
            else:
                memo = self._memo.setdefault(tree, {})  # _matches, inline: one call less
                found = []
                for element in candidates:
                    answer = memo.get(element)
                    if answer is None:
                        answer = memo[element] = self._matches_now(element, tree)
                    if answer:
                        found.append(element)
        except _Unsupported:
            return []
        except _Exhausted:
            self.exhausted = True
            return []
        if key:
            self._found[key] = found
        return found

    def _candidates(self, compound: object) -> list[HtmlElement]:
        """The smallest index entry for a compound selector: of its id, classes and
        attribute tests, else its tag, else every element. A superset: each candidate is
        still matched against the whole compound."""
        entries: list[list[HtmlElement]] = []
        tag = ""
        node = compound
        while node is not None:
            if isinstance(node, Hash):
                entries.append(self._entry("id", node.id))
            elif isinstance(node, Class):
                entries.append(self._entry("class", node.class_name))
            elif isinstance(node, Attrib):
                entries.extend(self._attribute_entry(node))
            elif isinstance(node, Element) and node.element not in (None, "*"):
                tag = node.element.lower()
            node = getattr(node, "selector", None)
        if entries:
            return min(entries, key=len)
        return self._entry("tag", tag)

    def _attribute_entry(self, node: Attrib) -> list[list[HtmlElement]]:
        """The elements an attribute test can match: for a class or id, those whose names
        the test admits (`[class*=__label]`, `[id^=ad_]`); else those with the attribute.
        Empty when no index helps (a value with spaces, a name XPath cannot spell)."""
        name = node.attrib.lower()
        wanted = node.value.value if node.value is not None else ""
        if node.operator == "=":
            wanted = wanted.split()[0] if wanted.split() else " "
        if name == "id" and node.operator in _NAME_TESTS:
            return [self._named("id", node, lambda known: _attribute_matches(known, node))]
        if name == "class" and node.operator in _NAME_TESTS and not _SPACE.search(wanted):
            admits = _NAME_TESTS[node.operator]
            return [self._named("class", node, lambda known: admits(known, wanted))]
        if node.namespace is not None or not _XPATH_NAME.fullmatch(name):
            return []
        key = ("attribute", name)
        if key not in self._entries:
            self._entries[key] = self._root.xpath(f"//@{name}/..")
        return [self._entries[key]]

    def _compound_set(self, compound: object) -> set[HtmlElement]:
        """The elements one compound selector matches, from the index (remembered)."""
        found = self._compounds.get(compound)
        if found is None:
            found = self._compounds[compound] = {
                element for element in self._candidates(compound)
                if self._compound(element, compound)}
        return found

    def _ancestor_in(self, element: HtmlElement, matched: set[HtmlElement],
                     compound: object) -> tuple[int, bool]:
        """(ancestors walked up to the first in `matched`, or all of them; whether one is),
        remembered per element for each compound: candidates share most of their ancestors."""
        walks = self._walks.get(compound)
        if walks is None:
            walks = self._walks[compound] = {}
        unknown = [element]  # each the parent of the one before, walks not yet known
        while True:
            parent = unknown[-1].getparent()
            if parent is None:
                known = (0, False)
            elif parent in matched:
                known = (1, True)
            elif parent in walks:
                steps, found = walks[parent]
                known = (steps + 1, found)
            else:
                unknown.append(parent)
                continue
            break
        for node in reversed(unknown):
            walks[node] = known
            known = (known[0] + 1, known[1])
        return walks[element]

    def _matches(self, element: HtmlElement, tree: object) -> bool:
        """Whether element matches tree; remembered, because the ancestors of many
        candidates are checked against the same left-hand side again and again."""
        memo = self._memo.get(tree)
        if memo is None:
            memo = self._memo[tree] = {}
        answer = memo.get(element)
        if answer is None:
            answer = memo[element] = self._matches_now(element, tree)
        return answer

    def _matches_now(self, element: HtmlElement, tree: object) -> bool:
        plan = self._plans.get(tree)
        if plan is None:
            plan = self._plans[tree] = self._plan(tree)
        last, left, combinator, left_is_compound = plan
        self.work += 1  # _compound's step, inline: this runs for every candidate
        if self.work > MAX_MATCH_WORK:
            raise _Exhausted
        if not last(element):
            return False
        if left is None:
            return True
        if left_is_compound and combinator in (" ", ">"):
            # The left side alone, matched once from the index: then each candidate needs
            # only set lookups up its ancestors (the common `.nav a`, `ul > li`).
            matched = self._compound_set(left)
            if combinator == ">":
                return element.getparent() in matched
            steps, found = self._ancestor_in(element, matched, left)
            self.spend(steps)
            return found
        # Only elements matching the left side's own last compound can match the left side.
        possible = self._compound_set(left.subselector if isinstance(left, CombinedSelector)
                                      else left)
        if combinator == " ":
            memo = self._memo.get(left)  # _matches, inline: the walk up asks it of most
            if memo is None:
                memo = self._memo[left] = {}
            for ancestor in element.iterancestors():
                if ancestor in possible:
                    answer = memo.get(ancestor)
                    if answer is None:
                        answer = memo[ancestor] = self._matches_now(ancestor, left)
                    if answer:
                        return True
            return False
        if combinator == ">":
            parent = element.getparent()
            return parent in possible and self._matches(parent, left)
        siblings = (s for s in element.itersiblings(preceding=True) if isinstance(s.tag, str))
        if combinator == "+":
            previous = next(siblings, None)
            return previous is not None and self._matches(previous, left)
        if combinator == "~":
            return any(self._matches(sibling, left) for sibling in siblings)
        raise _Unsupported(combinator)

    def _plan(self, tree: object) -> _Plan:
        """A selector taken apart once for _matches_now: its last compound's test, the left
        side and combinator (None and "" for a lone compound), whether the left side is one
        compound."""
        last, left, combinator = tree, None, ""
        if isinstance(tree, CombinedSelector):
            last, left, combinator = tree.subselector, tree.selector, tree.combinator
        test = self._tests.get(last)
        if test is None:
            test = self._tests[last] = self._compiled(last)
        return test, left, combinator, not isinstance(left, CombinedSelector)

    def spend(self, steps: int) -> None:
        """Count work done for this matcher's results (the cascade's updates)."""
        self.work += steps
        if self.work > MAX_MATCH_WORK:
            self.exhausted = True

    def _compound(self, element: HtmlElement, node: object) -> bool:
        self.work += 1
        if self.work > MAX_MATCH_WORK:
            raise _Exhausted
        test = self._tests.get(node)
        if test is None:
            test = self._tests[node] = self._compiled(node)
        return test(element)

    def _compiled(self, node: object) -> Callable[[HtmlElement], bool]:
        """A compound selector as one test of an element: its simple selectors' tests in the
        order of its chain, stopping at the first that fails (a negation inside counts its
        own step only when it is reached)."""
        tests = []
        while node is not None:
            test = self._simple(node)
            if test is not None:
                tests.append(test)
            node = getattr(node, "selector", None)
        if len(tests) == 1:
            return tests[0]

        def passes_all(element: HtmlElement) -> bool:
            for test in tests:
                if not test(element):
                    return False
            return True

        return passes_all

    def _simple(self, node: object) -> Callable[[HtmlElement], bool] | None:
        """The test of one simple selector; None for `*`, which every element passes."""
        if isinstance(node, Element):
            if node.element in (None, "*"):
                return None
            tag = node.element.lower()
            return lambda element: element.tag.lower() == tag
        if isinstance(node, Class):
            name, words = node.class_name, self._words
            return lambda element: name in words.get(element, ())
        if isinstance(node, Hash):
            wanted = node.id
            return lambda element: element.get("id") == wanted
        if isinstance(node, Attrib):
            attribute = node.attrib.lower()
            return lambda element: _attribute_matches(element.get(attribute), node)
        if isinstance(node, Negation):
            inner = node.subselector
            return lambda element: not self._compound(element, inner)
        if isinstance(node, Pseudo):
            return _pseudo_test(node.ident.lower())
        return _unsupported(type(node).__name__)


def _document_elements(root: HtmlElement) -> Iterator[HtmlElement]:
    """Every element of the document in order, those the parser put beside the root element
    (after a stray `</html>`) included, as `//*` finds them."""
    for top in [*reversed(list(root.itersiblings(preceding=True))), root, *root.itersiblings()]:
        yield from top.iter(lxml.etree.Element)


def _is_key_only(tree: object) -> bool:
    """A lone tag, class or id (`p`, `.promo`, `#ad`): its index entry is what it matches."""
    if isinstance(tree, Element):
        return tree.element not in (None, "*")
    return isinstance(tree, Class | Hash) and isinstance(tree.selector, Element) and (
        tree.selector.element in (None, "*"))


# For a class or id attribute test, which names (one token of the attribute) an element must
# have one of to pass it; the test itself is still applied to the whole attribute.
_NAME_TESTS = {
    "=": lambda name, wanted: name == wanted,
    "~=": lambda name, wanted: name == wanted,
    "|=": lambda name, wanted: name == wanted or name.startswith(wanted + "-"),
    "^=": lambda name, wanted: bool(wanted) and name.startswith(wanted),
    "$=": lambda name, wanted: bool(wanted) and name.endswith(wanted),
    "*=": lambda name, wanted: bool(wanted) and wanted in name,
}
_XPATH_NAME = re.compile(r"[a-z_][\w.-]*")
_SPACE = re.compile(r"\s")


# How _matches_now reads a selector (_Matcher._plan).
_Plan = tuple[Callable[[HtmlElement], bool], object, str, bool]


class _Exhausted(Exception):
    """MAX_MATCH_WORK is used up."""


# An attribute test by its operator: (the element's value, the selector's) → passes.
_ATTRIBUTE_TESTS: dict[str, Callable[[str, str], bool]] = {
    "=": lambda actual, wanted: actual == wanted,
    "~=": lambda actual, wanted: wanted in actual.split(),
    "|=": lambda actual, wanted: actual == wanted or actual.startswith(wanted + "-"),
    "^=": lambda actual, wanted: bool(wanted) and actual.startswith(wanted),
    "$=": lambda actual, wanted: bool(wanted) and actual.endswith(wanted),
    "*=": lambda actual, wanted: bool(wanted) and wanted in actual,
}


def _attribute_matches(actual: str | None, node: Attrib) -> bool:
    if actual is None:
        return False
    if node.operator == "exists":
        return True
    if node.operator not in _ATTRIBUTE_TESTS:
        raise _Unsupported(node.operator)
    wanted = node.value.value if node.value is not None else ""
    return _ATTRIBUTE_TESTS[node.operator](actual, wanted)


def _first_child(element: HtmlElement) -> bool:
    """Whether no element comes before it under its parent (the root is no child). Only the
    siblings before it are read: a list of all would cost a long one's length each time."""
    return element.getparent() is not None and next(
        element.itersiblings(lxml.etree.Element, preceding=True), None) is None


def _last_child(element: HtmlElement) -> bool:
    return element.getparent() is not None and next(
        element.itersiblings(lxml.etree.Element), None) is None


# The pseudo-classes matched here, by name; the interaction ones (_NEVER) match nothing.
_PSEUDO_TESTS: dict[str, Callable[[HtmlElement], bool]] = {
    "first-child": _first_child,
    "last-child": _last_child,
    "only-child": lambda element: _first_child(element) and _last_child(element),
    "root": lambda element: element.getparent() is None,
    "empty": lambda element: len(element) == 0 and not element.text,
    "link": lambda element: element.tag in ("a", "area") and element.get("href") is not None,
    **dict.fromkeys(_NEVER, lambda element: False),
}


def _pseudo_test(ident: str) -> Callable[[HtmlElement], bool]:
    return _PSEUDO_TESTS.get(ident) or _unsupported(ident)


def _unsupported(what: str) -> Callable[[HtmlElement], bool]:
    """A test for something not matched here: using the selector stops when it is reached."""

    def refuse(element: HtmlElement) -> bool:
        raise _Unsupported(what)

    return refuse

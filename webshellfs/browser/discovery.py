"""Finding what a person can operate on a live page, beyond the controls its HTML declares.

The browser is the truth: a page made clickable by script has no `<button>` to read, but the
live document knows which elements got listeners, which show a pointer cursor, which take
keyboard focus, which can be dragged and which its stylesheets open something under when
pointed at. Three pieces of JavaScript find out:

- `LISTENER_LOG`, installed in every document before the page's own scripts, counts the
  listeners the page adds for the events a person causes (`addEventListener` and the `on…`
  properties), per element;
- `OPERABLE`, used by the snapshot (scripts.SNAPSHOT) on every rendered element, turns what the
  log, the computed style and the attributes say into words in `data-wsfs-op`, which the
  compiler's rules read (compiler/actions/found.py) like any other attribute, so a capture can
  be compiled again offline and gives the same actions;
- `HOVER_REVEALS`, run by the snapshot once per document, reads the page's stylesheets for
  rules that show something under the pointer and gives the elements they name the `hover`
  word, as a mouseenter listener does.

The words:

    click       click, mousedown/up, pointerdown/up or touchstart listeners
    dblclick    a dblclick listener
    rightclick  a contextmenu listener (a right-click opens the page's own menu)
    press       keydown, keyup or keypress listeners (keys do something there)
    hover       mouseenter, mouseover or pointerenter listeners; or a rule of the page's own
                stylesheets that shows or moves another element while this one is hovered
                (`li.sub:hover > ul { display: block }`: HOVER_REVEALS, read once per
                capture), the way a dropdown or a nested menu opens with no script at all
    drag        draggable, or a dragstart listener
    drop        drop or dragover listeners (a place to drop onto)
    pointer     shows `cursor: pointer` where its parent does not (the cursor is inherited:
                only the outermost element of a pointer region is the thing to click); not
                said of links and native controls, which are controls anyway
    focusable   takes keyboard focus by tabindex >= 0 without being a native control
    item        a repeated child of an element whose click listener serves its children
                (a list's one listener for all its rows): the items are what a person
                clicks; a double-click or context-menu listener of such a container is
                passed on to its items the same way (dblclick, rightclick)

A listener on the document, the body or a framework's root (one element listening to a dozen
kinds of events at once: React, Vue, Svelte delegate that way) says nothing about which element
is meant; there the pointer cursor, roles and tabindex tell. Two libraries say more, and are
asked (`LIBRARY_HANDLERS`):

- jQuery keeps its handlers in its own data, with the selector of a delegated one:
  `$('.todo-list').on('dblclick', 'label', …)` makes each label inside listen for dblclick,
  not the list (the same from the document: `$(document).on('click', '.thread', …)`);
- React listens at its root (or the document) and keeps each element's handlers in its props
  (`onClick`, `onDoubleClick` …), which name the element meant; Svelte 5 listens at its root
  too and keeps an element's handlers on the element (`Symbol('events')`, earlier `__click`).
"""

from __future__ import annotations

from webshellfs.compiler.builder import OPERABLE_ATTRIBUTE

# Events a person causes, by the word they give in data-wsfs-op.
GESTURE_EVENTS: dict[str, tuple[str, ...]] = {
    "click": ("click", "mousedown", "mouseup", "pointerdown", "pointerup", "touchstart"),
    "dblclick": ("dblclick",),
    "rightclick": ("contextmenu",),
    "press": ("keydown", "keyup", "keypress"),
    "hover": ("mouseenter", "mouseover", "pointerenter"),
    "drag": ("dragstart",),
    "drop": ("drop", "dragover"),
}
# An element listening to this many kinds of events is a framework's root, not a control.
FRAMEWORK_ROOT_TYPES = 10
# Items of a delegating container: at least this many children of one tag and class, or
# all its children when they share a tag (rows whose classes alternate: odd, even).
MIN_ITEMS = 2
# How far below a delegating container its items may sit (ul > li, table > tbody > tr).
ITEM_DEPTH = 3

_EVENT_WORDS = {event: word for word, events in GESTURE_EVENTS.items() for event in events}
_EVENTS_JS = "{" + ", ".join(f"{e!r}: {w!r}" for e, w in _EVENT_WORDS.items()) + "}"

LISTENER_LOG = """
(() => {
  if (window.__wsfsListeners) return;
  const WATCHED = new Set(Object.keys(__EVENTS__));
  const counts = new WeakMap();  // element → { type: listeners }
  const change = (target, type, by) => {
    if (!(target instanceof Element) || !WATCHED.has(type)) return;
    let kinds = counts.get(target);
    if (!kinds) { kinds = {}; counts.set(target, kinds); }
    kinds[type] = Math.max(0, (kinds[type] || 0) + by);
  };
  const proto = EventTarget.prototype;
  const add = proto.addEventListener;
  const remove = proto.removeEventListener;
  proto.addEventListener = function (type, listener, options) {
    if (listener) change(this, String(type), 1);
    return add.call(this, type, listener, options);
  };
  proto.removeEventListener = function (type, listener, options) {
    if (listener) change(this, String(type), -1);
    return remove.call(this, type, listener, options);
  };
  for (const type of WATCHED) {
    const key = 'on' + type;
    const owner = HTMLElement.prototype;
    const described = Object.getOwnPropertyDescriptor(owner, key);
    if (!described || !described.set) continue;
    Object.defineProperty(owner, key, {
      configurable: true, enumerable: described.enumerable,
      get() { return described.get.call(this); },
      set(handler) {
        const had = described.get.call(this);
        if (had && !handler) change(this, type, -1);
        if (!had && handler) change(this, type, 1);
        return described.set.call(this, handler);
      },
    });
  }
  const types = (el) => {
    const kinds = counts.get(el);
    return kinds ? Object.keys(kinds).filter((type) => kinds[type] > 0) : [];
  };
  Object.defineProperty(window, '__wsfsListeners', { value: { types }, configurable: false });
})();
""".replace("__EVENTS__", _EVENTS_JS)

# React's handler props, by the DOM event each stands for (the rest: onKeyDown → keydown).
_REACT_EVENTS_JS = "{onDoubleClick: 'dblclick', onContextMenu: 'contextmenu'}"

# (el, view) → { own: [event types], delegated: [[selector, event type]], handled: [types] }:
# what a library says of the element's handlers. `handled` are the types whose listeners in the
# log are the library's own dispatcher (jQuery), so the log's word for them is replaced by the
# library's: a type served only by delegated handlers is not the container's.
LIBRARY_HANDLERS = """
((REACT_EVENTS) => {
  const REACT_PROPS = ['__reactProps$', '__reactEventHandlers$'];
  const SVELTE_PROPERTY = /^__(click|dblclick|contextmenu|keydown|keyup|pointerdown|mousedown)$/;
  const reactType = (prop) => REACT_EVENTS[prop]
    || prop.slice(2).replace(/Capture$/, '').toLowerCase();
  return (target, view) => {
    const found = { own: [], delegated: [], handled: [] };
    const jq = view.jQuery;
    const data = jq && typeof jq._data === 'function' ? jq._data(target, 'events') : null;
    for (const [type, handlers] of Object.entries(data || {})) {
      found.handled.push(type);
      for (const h of handlers) {
        const event = h.origType || type;
        if (h.selector) found.delegated.push([h.selector, event]);
        else found.own.push(event);
      }
    }
    for (const key of Object.keys(target)) {
      if (SVELTE_PROPERTY.test(key) && typeof target[key] === 'function') {
        found.own.push(key.slice(2));  // Svelte 5 before 5.2: el.__click
        continue;
      }
      if (!REACT_PROPS.some((prefix) => key.startsWith(prefix))) continue;
      const props = target[key] || {};
      for (const prop of Object.keys(props)) {
        if (/^on[A-Z]/.test(prop) && typeof props[prop] === 'function') {
          found.own.push(reactType(prop));
        }
      }
    }
    // Svelte 5 delegates to its root and keeps an element's handlers under Symbol('events').
    for (const symbol of Object.getOwnPropertySymbols(target)) {
      const handlers = symbol.description === 'events' ? target[symbol] : null;
      for (const type of Object.keys(handlers || {})) {
        if (typeof handlers[type] === 'function') found.own.push(type);
      }
    }
    return found;
  };
})(__REACT_EVENTS__)
""".replace("__REACT_EVENTS__", _REACT_EVENTS_JS)

# (el, style, parentPointer, marks) → the words for el ('' for none). `marks` (element → set
# of words) collects what a container says of elements below it — the repeated children its
# click listener serves ('item'), the targets of its delegated handlers — to be added when the
# walk reaches them.
OPERABLE = """
((EVENTS, ROOT_TYPES, MIN_ITEMS, ITEM_DEPTH, library) => {
  const NATIVE = new Set(['a', 'button', 'input', 'select', 'textarea', 'option', 'summary',
    'label', 'details']);
  // Gestures a container's one listener serves its repeated items with.
  const SERVED_WORDS = ['click', 'dblclick', 'rightclick'];
  const UNOWNED = new Set(['html', 'body']);
  const signature = (el) => el.localName + '.' + (el.getAttribute('class') || '');
  // The repeated children below a container: ul > li, table > tbody > tr, div > div.card.
  const repeated = (container) => {
    let level = container;
    for (let depth = 0; depth < ITEM_DEPTH && level; depth++) {
      // Shown children only: a hidden "loading" box beside the items is not one of them.
      const kids = Array.from(level.children).filter((kid) => !kid.checkVisibility
        || kid.checkVisibility());
      if (kids.length >= MIN_ITEMS && kids.every((kid) => kid.localName === kids[0].localName)) {
        return kids;
      }
      const bySign = new Map();
      for (const kid of kids) {
        const sign = signature(kid);
        bySign.set(sign, (bySign.get(sign) || 0) + 1);
      }
      const items = kids.filter((kid) => bySign.get(signature(kid)) >= MIN_ITEMS);
      if (items.length >= MIN_ITEMS) return items;
      // One child leads on down; so does a table's body beside its head and columns.
      level = kids.length === 1 ? kids[0] : kids.find((kid) => kid.localName === 'tbody') || null;
    }
    return [];
  };
  const markBelow = (marks, target, word) => {
    if (!marks.has(target)) marks.set(target, new Set());
    marks.get(target).add(word);
  };
  // Elements below `scope` that a delegated handler's selector names (jQuery's own finder
  // for a selector of its extensions, such as :visible).
  const selected = (view, scope, selector) => {
    try { return Array.from(scope.querySelectorAll(selector)); } catch (e) { /* jQuery's */ }
    try { return view.jQuery(scope).find(selector).toArray(); } catch (e) { return []; }
  };
  const delegate = (view, scope, handlers, marks) => {
    for (const [selector, type] of handlers.delegated) {
      if (!EVENTS[type]) continue;
      for (const target of selected(view, scope, selector)) markBelow(marks, target, EVENTS[type]);
    }
  };
  return (el, style, parentPointer, marks) => {
    const words = new Set();
    const name = el.localName;
    const view = el.ownerDocument.defaultView;
    const log = view && view.__wsfsListeners;
    const handlers = library(el, view);
    if (name === 'body') delegate(view, el, library(el.ownerDocument, view), marks);
    delegate(view, el, handlers, marks);
    // Kinds of gesture events, counted once each (jQuery keeps one record per handler).
    const types = new Set((log ? log.types(el) : []).filter((type) => !handlers.handled.includes(type)));
    for (const type of handlers.own) if (EVENTS[type]) types.add(type);
    const own = !UNOWNED.has(name) && types.size < ROOT_TYPES;
    if (own) for (const type of types) if (EVENTS[type]) words.add(EVENTS[type]);
    const served = SERVED_WORDS.filter((word) => words.has(word));
    if (served.length && !NATIVE.has(name) && style.cursor !== 'pointer') {
      const found = repeated(el);
      for (const word of found.length ? served : []) {
        words.delete(word);
        for (const item of found) markBelow(marks, item, word === 'click' ? 'item' : word);
      }
    }
    for (const word of marks.get(el) || []) words.add(word);
    if (style.cursor === 'pointer' && !parentPointer && !UNOWNED.has(name) && !NATIVE.has(name)) {
      words.add('pointer');
    }
    if (el.getAttribute('draggable') === 'true') words.add('drag');
    if (!NATIVE.has(name) && el.hasAttribute('tabindex') && el.tabIndex >= 0
        && !el.isContentEditable) words.add('focusable');
    return Array.from(words).sort().join(' ');
  };
})(__EVENTS__, __ROOT_TYPES__, __MIN_ITEMS__, __ITEM_DEPTH__, __LIBRARY__)
""".replace("__EVENTS__", _EVENTS_JS).replace("__ROOT_TYPES__", str(FRAMEWORK_ROOT_TYPES)).replace(
    "__MIN_ITEMS__", str(MIN_ITEMS)).replace("__ITEM_DEPTH__", str(ITEM_DEPTH)).replace(
    "__LIBRARY__", LIBRARY_HANDLERS.strip())

# Properties whose change under the pointer shows or moves another element (a dropdown
# displayed, a panel faded or slid in, a submenu unclipped), not only restyles it.
REVEALING_PROPERTIES = (
    "display", "visibility", "opacity", "max-height", "height", "transform", "translate",
    "scale", "left", "top", "right", "bottom", "clip", "clip-path", "pointer-events",
    "content-visibility",
)
# Bounds on the stylesheet walk, per document: rules read, selectors looked up in the page,
# and elements they match checked for what the rule styles (a utility framework's thousands of
# rules and `.group:hover` variants stay cheap).
HOVER_RULES_READ = 20000
HOVER_SELECTORS_QUERIED = 200
HOVER_ELEMENTS_CHECKED = 5000

# (doc, marks) → nothing: adds 'hover' to marks (element → words, as OPERABLE's) for every
# element the document's own stylesheets reveal something on when it is pointed at: a style
# rule whose selector has a `:hover` compound before a combinator (`li.sub:hover > ul`,
# `.card:hover .actions`, `.a:hover + .tip`) and whose declarations show or move something
# (REVEALING_PROPERTIES). The element pointed at is one matching the selector up to that
# compound, `:hover` taken out, that has what the rest of the selector names beside or below
# it (`li:hover > ul` marks the items holding a list, not a menu's leaves). Rules inside
# @media and @supports that apply now, @layer, @container, @import and nested style rules are
# read; sheets of another origin (which the browser will not show) are skipped.
# `a:hover { color: red }` reveals nothing: nothing follows its `:hover`, and a colour shows
# nothing new. What a rule draws on a pseudo-element (`li:hover > a::after`, an underline
# sliding in) is decoration, not something to reach.
HOVER_REVEALS = r"""
((REVEALING, RULES_READ, SELECTORS_QUERIED, ELEMENTS_CHECKED) => {
  const REVEALS = new Set(REVEALING);
  const HOVER = /:hover(?![\w-])/;
  // `:not(…)` groups (`:not(:hover)` is no pointing) and `:hover` outside them.
  const NOT_OR_HOVER = /:not\((?:[^()]|\([^()]*\))*\)|:hover(?![\w-])/g;
  const DRAWN = /::?(before|after|marker|placeholder|backdrop)\b/;
  const UNOWNED = new Set(['html', 'body']);
  // The pieces of a selector at its top level, with where each ends: cut at commas (a list)
  // or at combinators (a complex selector's compounds); brackets, parentheses and quotes hold.
  const pieces = (text, atComma) => {
    const found = [];
    let depth = 0, quote = '', start = 0;
    const cut = (end) => {
      if (text.slice(start, end).trim()) found.push({ text: text.slice(start, end), end });
      start = end + 1;
    };
    for (let i = 0; i < text.length; i++) {
      const c = text[i];
      if (c === '\\') { i++; continue; }
      if (quote) { if (c === quote) quote = ''; continue; }
      if (c === '"' || c === "'") quote = c;
      else if (c === '(' || c === '[') depth++;
      else if (c === ')' || c === ']') depth--;
      else if (depth === 0 && (atComma ? c === ',' : ' \t\n>+~'.includes(c))) cut(i);
    }
    cut(text.length);
    return found;
  };
  const hovered = (compound) => HOVER.test(compound.replace(NOT_OR_HOVER,
    (m) => (m[1] === 'n' ? '' : m)));
  const unhovered = (text) => text.replace(NOT_OR_HOVER, (m) => (m[1] === 'n' ? m : ':is(*)'));
  // In one complex selector: the selector of the element pointed at, and the rest (from the
  // combinator on, `> ul`); null when nothing follows a :hover.
  const pointedAt = (selector) => {
    const compounds = pieces(selector, false);
    if (compounds.length < 2 || DRAWN.test(compounds[compounds.length - 1].text)) return null;
    for (let i = compounds.length - 2; i >= 0; i--) {
      if (!hovered(compounds[i].text)) continue;
      const end = compounds[i].end;
      return [unhovered(selector.slice(0, end).trim()), unhovered(selector.slice(end))];
    }
    return null;
  };
  // Whether the rule styles something beside or below el: `li:hover > ul` on an item with no
  // list inside reveals nothing there (a menu's leaves match `li` too).
  const styles = (el, rest, whole) => {
    const combinator = rest.trim()[0];
    if (combinator !== '+' && combinator !== '~') return el.querySelector(':scope' + rest) !== null;
    for (let next = el.nextElementSibling; next; next = next.nextElementSibling) {
      if (next.matches(whole) || next.querySelector(whole)) return true;
      if (combinator === '+') return false;
    }
    return false;
  };
  const reveals = (style) => {
    for (let i = 0; i < style.length; i++) if (REVEALS.has(style[i])) return true;
    return false;
  };
  // A nested rule's selector in full: `&` is its parent's, a bare one sits below it.
  const nested = (selector, parent) => {
    if (!parent) return selector;
    return selector.includes('&') ? selector.replace(/&/g, ':is(' + parent + ')')
      : ':is(' + parent + ') ' + selector;
  };
  const scan = (doc, marks) => {
    const view = doc.defaultView;
    if (!view) return;
    const wanted = new Map();  // selector pointed at → [rest, whole selector]
    let read = 0;
    const applies = (rule) => {
      if (rule.media && rule.media.mediaText && !(rule instanceof view.CSSImportRule)) {
        return view.matchMedia(rule.media.mediaText).matches;
      }
      if (rule instanceof view.CSSSupportsRule) return view.CSS.supports(rule.conditionText);
      return true;
    };
    const walk = (rules, parent) => {
      for (const rule of rules) {
        if (++read > RULES_READ || wanted.size >= SELECTORS_QUERIED) return;
        if (rule instanceof view.CSSImportRule) { sheet(rule.styleSheet); continue; }
        const selector = rule.selectorText ? nested(rule.selectorText, parent) : parent;
        if (rule.selectorText && rule.selectorText.includes(':hover') && reveals(rule.style)) {
          for (const one of pieces(selector, true)) {
            const found = pointedAt(one.text);
            if (found) wanted.set(found[0] + '\u0000' + found[1], found);
          }
        }
        if (rule.cssRules && applies(rule)) walk(rule.cssRules, selector);
      }
    };
    const sheet = (styleSheet) => {
      if (!styleSheet || styleSheet.disabled) return;
      const media = styleSheet.media && styleSheet.media.mediaText;
      if (media && !view.matchMedia(media).matches) return;
      let rules = null;
      try { rules = styleSheet.cssRules; } catch (e) { return; }  // another origin's
      if (rules) walk(rules, '');
    };
    for (const styleSheet of doc.styleSheets) sheet(styleSheet);
    for (const styleSheet of doc.adoptedStyleSheets || []) sheet(styleSheet);
    let checked = 0;
    for (const [selector, rest] of wanted.values()) {
      try {
        for (const el of doc.querySelectorAll(selector)) {
          if (++checked > ELEMENTS_CHECKED) return;
          if (UNOWNED.has(el.localName) || !styles(el, rest, selector + rest)) continue;
          if (!marks.has(el)) marks.set(el, new Set());
          marks.get(el).add('hover');
        }
      } catch (e) { /* a selector this browser's querySelector does not take */ }
    }
  };
  // A stylesheet nothing here expected never costs the capture: what was found stands.
  return (doc, marks) => {
    try { scan(doc, marks); } catch (e) { /* the marks made so far */ }
  };
})(__REVEALING__, __RULES_READ__, __SELECTORS_QUERIED__, __ELEMENTS_CHECKED__)
""".replace("__REVEALING__", repr(list(REVEALING_PROPERTIES))).replace(
    "__RULES_READ__", str(HOVER_RULES_READ)).replace(
    "__SELECTORS_QUERIED__", str(HOVER_SELECTORS_QUERIED)).replace(
    "__ELEMENTS_CHECKED__", str(HOVER_ELEMENTS_CHECKED))

__all__ = ["GESTURE_EVENTS", "HOVER_REVEALS", "LISTENER_LOG", "OPERABLE", "OPERABLE_ATTRIBUTE"]

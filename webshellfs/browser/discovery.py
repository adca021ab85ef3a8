"""Finding what a person can operate on a live page, beyond the controls its HTML declares.

The browser is the truth: a page made clickable by script has no `<button>` to read, but the
live document knows which elements got listeners, which show a pointer cursor, which take
keyboard focus and which can be dragged. Two pieces of JavaScript find out:

- `LISTENER_LOG`, installed in every document before the page's own scripts, counts the
  listeners the page adds for the events a person causes (`addEventListener` and the `on…`
  properties), per element;
- `OPERABLE`, used by the snapshot (scripts.SNAPSHOT) on every rendered element, turns what the
  log, the computed style and the attributes say into words in `data-wsfs-op`, which the
  compiler's rules read (compiler/actions/found.py) like any other attribute, so a capture can
  be compiled again offline and gives the same actions.

The words:

    click       click, mousedown/up, pointerdown/up or touchstart listeners
    dblclick    a dblclick listener
    rightclick  a contextmenu listener (a right-click opens the page's own menu)
    press       keydown, keyup or keypress listeners (keys do something there)
    hover       mouseenter, mouseover or pointerenter listeners
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

__all__ = ["GESTURE_EVENTS", "LISTENER_LOG", "OPERABLE", "OPERABLE_ATTRIBUTE"]

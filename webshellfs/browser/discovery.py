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
                (jQuery's `.on('click', 'li', …)`): the items are what a person clicks

A listener on the document, the body or a framework's root (one element listening to a dozen
kinds of events at once: React, Vue, Svelte delegate that way) says nothing about which element
is meant; there the pointer cursor, roles and tabindex tell.
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
# Items of a delegating container: at least this many children of one tag and class.
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

# (el, style, parentPointer, items) → the words for el ('' for none). `items` collects the
# repeated children of a delegating container, to be marked when the walk reaches them.
OPERABLE = """
((EVENTS, ROOT_TYPES, MIN_ITEMS, ITEM_DEPTH) => {
  const NATIVE = new Set(['a', 'button', 'input', 'select', 'textarea', 'option', 'summary',
    'label', 'details']);
  const UNOWNED = new Set(['html', 'body']);
  const signature = (el) => el.localName + '.' + (el.getAttribute('class') || '');
  // The repeated children below a container: ul > li, table > tbody > tr, div > div.card.
  const repeated = (container) => {
    let level = container;
    for (let depth = 0; depth < ITEM_DEPTH && level; depth++) {
      const kids = Array.from(level.children);
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
  return (el, style, parentPointer, items) => {
    const words = new Set();
    const name = el.localName;
    const view = el.ownerDocument.defaultView;
    const log = view && view.__wsfsListeners;
    const types = log ? log.types(el) : [];
    const own = !UNOWNED.has(name) && types.length < ROOT_TYPES;
    if (own) for (const type of types) if (EVENTS[type]) words.add(EVENTS[type]);
    if (words.has('click') && !NATIVE.has(name) && style.cursor !== 'pointer') {
      const found = repeated(el);
      if (found.length) {
        words.delete('click');
        for (const item of found) items.add(item);
      }
    }
    if (items.has(el)) words.add('item');
    if (style.cursor === 'pointer' && !parentPointer && !UNOWNED.has(name) && !NATIVE.has(name)) {
      words.add('pointer');
    }
    if (el.getAttribute('draggable') === 'true') words.add('drag');
    if (!NATIVE.has(name) && el.hasAttribute('tabindex') && el.tabIndex >= 0
        && !el.isContentEditable) words.add('focusable');
    return Array.from(words).sort().join(' ');
  };
})(__EVENTS__, __ROOT_TYPES__, __MIN_ITEMS__, __ITEM_DEPTH__)
""".replace("__EVENTS__", _EVENTS_JS).replace("__ROOT_TYPES__", str(FRAMEWORK_ROOT_TYPES)).replace(
    "__MIN_ITEMS__", str(MIN_ITEMS)).replace("__ITEM_DEPTH__", str(ITEM_DEPTH))

__all__ = ["GESTURE_EVENTS", "LISTENER_LOG", "OPERABLE", "OPERABLE_ATTRIBUTE"]

"""The JavaScript the browser runs inside pages: a mutation clock and a dialog/popup guard
installed at document start, the settle wait, and the snapshot serializer.

Kept as Python strings so the package needs no data files.
"""

from __future__ import annotations

from webshellfs.browser.discovery import HOVER_REVEALS, OPERABLE
from webshellfs.compiler.builder import (
    DRAWN_ATTRIBUTE,
    FOCUS_ATTRIBUTE,
    LOCATOR_ATTRIBUTE,
    OPERABLE_ATTRIBUTE,
)
from webshellfs.compiler.dom import FIXED_ATTRIBUTE, UNSEEN_ATTRIBUTE
from webshellfs.compiler.drawn import BOX_ATTRIBUTE, FILL_ATTRIBUTE, STROKE_ATTRIBUTE

# Timers up to this delay are waited for by a settle (once: those pending when it starts).
TIMER_WATCH_MS = 300
# A timer started within EFFECT_WINDOW_MS of a person's action (a click, a key) is that
# action's effect arriving later, and is waited for up to this delay (within the settle cap).
EFFECT_WATCH_MS = 2500
EFFECT_WINDOW_MS = 50
# How long a settle waits for a navigation the page started to replace the document.
NAVIGATION_WAIT_MS = 1000
# How long a settle waits for an animation frame before going on without one (a tab in the
# background gets none).
FRAME_QUIET_MS = 50

# Installed in every document before its scripts run: remembers when the DOM last changed, so
# a settle wait on a static page returns at once instead of sleeping a fixed period. Our own
# marking attribute does not count as a change, nor do inline styles: animations rewrite them
# every frame, and a page that animates forever would never look settled. It also counts the
# page's fetch/XHR requests in flight (the browser's own request events can reach us after the
# settle wait has looked) and keeps the short timers (setTimeout up to TIMER_WATCH_MS: a debounce,
# a "render soon") still pending, so the wait can let them fire; intervals are not kept, as a
# page may run one forever. Each wrapper hands back exactly what the original returns.
MUTATION_CLOCK = """
(() => {
  if (window.__wsfsClock) return;
  const clock = { last: performance.now(), inflight: new Map(), netEnd: -1e9, timers: new Map() };
  window.__wsfsClock = clock;
  const ignored = new Set(['__LOCATOR__', 'style']);
  const tick = (records) => {
    for (const r of records) {
      if (r.type !== 'attributes' || !ignored.has(r.attributeName)) {
        clock.last = performance.now();
        return;
      }
    }
  };
  new MutationObserver(tick).observe(document, {
    subtree: true, childList: true, attributes: true, characterData: true,
  });
  // Requests in flight by start time: one open for long (a long poll) stops counting later.
  let ticket = 0;
  const started = () => {
    ticket += 1;
    const mine = ticket;
    clock.inflight.set(mine, performance.now());
    return () => {
      if (clock.inflight.delete(mine)) clock.netEnd = performance.now();
    };
  };
  const fetch = window.fetch;
  if (fetch) {
    window.fetch = function (...args) {
      const answer = fetch.apply(this, args);
      const ended = started();
      answer.then(ended, ended);
      return answer;
    };
  }
  const XHR = window.XMLHttpRequest;
  if (XHR) {
    const send = XHR.prototype.send;
    XHR.prototype.send = function (...args) {
      // Listening first: a synchronous request ends inside send.
      const ended = started();
      this.addEventListener('loadend', ended, { once: true });
      try {
        return send.apply(this, args);
      } catch (error) {
        ended();
        throw error;
      }
    };
  }
  // A navigation this document starts (a form, a link, location.href) is waited for until it
  // replaces the document, at most __LEAVING__ ms: its request can reach us later than the
  // settle wait looks, and one that turns into a download never replaces anything.
  clock.leaving = -1e9;
  if (window.navigation) {
    navigation.addEventListener('navigate', (event) => {
      if (!event.downloadRequest && !event.destination.sameDocument) {
        clock.leaving = performance.now();
      }
    });
    const stayed = () => { clock.leaving = -1e9; };
    navigation.addEventListener('navigatesuccess', stayed);
    navigation.addEventListener('navigateerror', stayed);
  }
  // The moment a person (Playwright's trusted input) last acted: a timer the page starts in
  // answer to an action is its effect arriving later ("saved" two seconds after the click),
  // worth waiting for longer than a timer the page keeps for itself.
  clock.acted = -1e9;
  for (const type of ['pointerdown', 'keydown', 'click', 'input', 'change']) {
    window.addEventListener(type, (event) => {
      if (event.isTrusted) clock.acted = performance.now();
    }, true);
  }
  const setTimer = window.setTimeout;
  const clearTimer = window.clearTimeout;
  clock.setTimer = setTimer;
  window.setTimeout = function (handler, delay, ...args) {
    const ms = Number(delay) || 0;
    if (typeof handler !== 'function' || ms > __EFFECT_WATCH__ || clock.timers.size >= 1000) {
      return setTimer.call(this, handler, delay, ...args);
    }
    let id = 0;
    id = setTimer.call(this, function (...given) {
      clock.timers.delete(id);
      return handler.apply(this, given);
    }, delay, ...args);
    const now = performance.now();
    clock.timers.set(id, { ms, effect: now - clock.acted < __EFFECT_WINDOW__ });
    return id;
  };
  window.clearTimeout = function (id) {
    clock.timers.delete(id);
    return clearTimer.call(this, id);
  };
})();
""".replace("__LOCATOR__", LOCATOR_ATTRIBUTE).replace("__EFFECT_WATCH__", str(EFFECT_WATCH_MS)).replace(
    "__EFFECT_WINDOW__", str(EFFECT_WINDOW_MS)).replace("__LEAVING__", str(NAVIGATION_WAIT_MS))

# Installed in every document before its scripts run: past `limit` dialogs between two
# captures, alert/confirm/prompt answer at once (undefined, false, null) without raising a
# dialog, because each real one costs a browser round trip and a page raising thousands in a
# loop would hold the action until its deadline. The replacements stay writable like the
# originals (a strict-mode page that sets its own alert must not throw); a page that digs the
# originals out of a fresh frame meets Tab's own dialog limit instead. Counted too: window.open
# calls the popup blocker refused, those it let through, and clicks on download links (so a
# capture can wait for those tabs and downloads, whose events come a moment later). The
# snapshot takes (and resets) the counts.
PAGE_GUARD = """
(() => {
  if (window.__wsfsGuard) return;
  const limit = __LIMIT__;
  const state = { raised: 0, muted: 0, blocked: 0, opened: 0, downloads: 0 };
  for (const [name, answer] of [['alert', undefined], ['confirm', false], ['prompt', null]]) {
    const real = window[name];
    const guarded = function (...args) {
      if (state.raised >= limit) { state.muted++; return answer; }
      state.raised++;
      return real.apply(this, args);
    };
    window[name] = guarded;
  }
  const realOpen = window.open;
  const open = function (...args) {
    const opened = realOpen.apply(this, args);
    if (opened !== null) state.opened++;
    else if (!/noopener|noreferrer/i.test(String(args[2] || ''))) state.blocked++;
    return opened;
  };
  window.open = open;
  document.addEventListener('click', (event) => {
    const target = event.target;
    if (target && target.closest && target.closest('a[download][href]')) state.downloads++;
  }, true);
  const take = () => {
    const taken = { muted: state.muted, blocked: state.blocked, opened: state.opened,
      downloads: state.downloads };
    state.raised = state.muted = state.blocked = state.opened = state.downloads = 0;
    return taken;
  };
  Object.defineProperty(window, '__wsfsGuard', { value: { take }, configurable: false });
})();
"""


def page_guard(max_dialogs: int) -> str:
    return PAGE_GUARD.replace("__LIMIT__", str(max_dialogs))


# Resolves when the page looks done after an event, or after `cap` ms whatever happens: the
# short timers pending when it starts have fired (one generation: a chain of them, like a
# polling loop, is not followed), no fetch/XHR younger than `stale` ms is in flight, no request
# ended in the last `quiet` ms (its handler may take several tasks to show the answer), no
# navigation the page started is on its way (see MUTATION_CLOCK), no animation that will end
# is running (a CSS transition, a jQuery slide: their style changes are not DOM changes the
# clock counts), and then a whole animation frame passed without a DOM change — which catches
# what the page scheduled right after the event (requestAnimationFrame, a message, a zero
# timer). A tab in the background gets no frames: after `frame` ms the wait goes on without one. The page's own
# timer functions may be replaced by then; the clock's saved original keeps the wait off the
# list of timers it waits for.
DOM_SETTLE = """
([quiet, frame, cap, stale]) => new Promise((resolve) => {
  const start = performance.now();
  const clock = window.__wsfsClock;
  if (!clock) {
    setTimeout(() => resolve({ busy: false }), Math.min(quiet, cap));
    return;
  }
  const later = (then, ms) => clock.setTimer.call(window, then, ms);
  const waiting = new Set();
  for (const [id, timer] of clock.timers) {
    if (timer.ms <= __WATCH__ || timer.effect) waiting.add(id);
  }
  const afterFrame = (then) => {
    let called = false;
    const once = () => { if (!called) { called = true; then(); } };
    requestAnimationFrame(() => later(once, 0));
    later(once, frame);
  };
  const requesting = (now) => {
    if (now - clock.leaving < __LEAVING__) return true;
    for (const began of clock.inflight.values()) if (now - began < stale) return true;
    return false;
  };
  // An animation that will end (a CSS transition, a section jQuery slides open frame by frame)
  // is the page still drawing what the action did; an endless one (a spinner) is not awaited.
  const animating = () => {
    const jq = window.jQuery;
    if (jq && jq.timers && jq.timers.length) return true;
    return document.getAnimations().some((a) => {
      const timing = a.playState === 'running' && a.effect ? a.effect.getComputedTiming() : null;
      return timing !== null && Number.isFinite(timing.endTime);
    });
  };
  const check = () => {
    const now = performance.now();
    if (now - start >= cap) {
      for (const id of waiting) if (!clock.timers.has(id)) waiting.delete(id);
      resolve({ busy: true, requests: clock.inflight.size, timers: waiting.size });
      return;
    }
    for (const id of waiting) if (!clock.timers.has(id)) waiting.delete(id);
    const busy = waiting.size > 0 || requesting(now) || animating();
    const due = clock.netEnd + quiet;
    if (busy || now < due) {
      later(check, Math.max(5, Math.min(busy ? 10 : due - now, cap - (now - start))));
      return;
    }
    const changed = clock.last;
    afterFrame(() => {
      const now = performance.now();
      if (clock.last === changed && !requesting(now)) resolve({ busy: false });
      else check();
    });
  };
  check();
})
""".replace("__LEAVING__", str(NAVIGATION_WAIT_MS)).replace("__WATCH__", str(TIMER_WATCH_MS))

# Serializes the rendered DOM as HTML that the static compiler reads like any page:
#  - current field values, checked and selected states become attributes;
#  - open shadow roots are inlined (slots filled with what they show), their ids and the
#    references to them suffixed with their root's number (`label~s2`): unique in the capture;
#  - same-origin iframes and frames are inlined as <div data-wsfs-frame="URL">, with absolute
#    URLs (a frameset becomes the body holding its frames); other frames stay <iframe src>;
#  - the outermost elements that are not rendered get the `hidden` attribute (the compiler
#    skips them, or marks their text with what reveals it); a rendered element's inline
#    display:none or visibility:hidden, overruled by a stylesheet, is left out of its style;
#  - rendered elements that people cannot see (clipped to nothing, a box of at most one pixel
#    that cuts off its overflow, far off the page to the left or above, text indented out)
#    get `data-wsfs-unseen` (the compiler moves their text to boilerplate/hidden.md);
#  - elements fixed to the window (they stay put while the page scrolls) get `data-wsfs-fixed`
#    saying where they sit: top, bottom, side or over (the compiler takes them out of content/);
#  - what a person can operate beyond declared controls (listeners, pointer cursor, tabindex,
#    draggable, what the page's stylesheets reveal under the pointer: discovery.OPERABLE,
#    discovery.HOVER_REVEALS) is written into data-wsfs-op;
#  - the element with keyboard focus gets data-wsfs-focus;
#  - a <dialog> opened as a modal (showModal) gets aria-modal="true", as other modals say;
#  - words a stylesheet draws (::before/::after content) on a control or label that has no
#    text of its own, or on an element hidden by visibility whose generated words are shown
#    (a "Clear completed" drawn by ::after), become its text; a glyph drawn alone (❯, ×, ✓)
#    and anything drawn on a field goes in data-wsfs-drawn, a name only where nothing else
#    names the control (a ✓ a checked box's label draws must not rename it);
#  - an SVG shape (SVGGeometryElement) gets its box from its drawing's top-left corner in
#    data-wsfs-box (`x y width height`, CSS pixels) and the fill and stroke it is painted with
#    in data-wsfs-fill and data-wsfs-stroke ('none' for paint made invisible by an opacity or
#    width of 0; no stroke attribute for none); an outermost <svg> and a <canvas> get their box on the page
#    (compiler/drawn.py describes drawings by them);
#  - every element the compiler can turn into an action carries a page-unique data-wsfs-id,
#    set on the live element too so an action finds exactly that element again.
SNAPSHOT = r"""
() => {
  const ID = '__LOCATOR__';
  const UNSEEN = '__UNSEEN__';
  const OP = '__OPERABLE_ATTRIBUTE__';
  const DRAWN = '__DRAWN_ATTRIBUTE__';
  const FIXED = '__FIXED_ATTRIBUTE__';
  const BOX = '__BOX__';
  const FILL = '__FILL__';
  const STROKE = '__STROKE__';
  const operable = __OPERABLE__;
  const marks = new Map();  // element → words its container gave it (discovery.OPERABLE)
  // Elements the page's stylesheets reveal something on under the pointer: 'hover', once
  // per document (discovery.HOVER_REVEALS).
  const hoverReveals = __HOVER_REVEALS__;
  const ACTIONABLE = 'input, button, select, textarea, a[href], [role], [onclick], summary, '
    + '[contenteditable], form';
  const VOID = new Set(['area', 'base', 'br', 'col', 'embed', 'hr', 'img', 'input', 'link',
    'meta', 'source', 'track', 'wbr']);
  const RAW = new Set(['script', 'style']);
  const SKIP = new Set(['template', 'noscript']);
  // Not boxes of their own: metadata, options inside a select, line breaks.
  const UNCHECKED = new Set(['html', 'head', 'title', 'meta', 'link', 'base', 'script', 'style',
    'option', 'optgroup', 'br', 'wbr', 'area']);
  const URL_ATTRS = { a: 'href', area: 'href', img: 'src', iframe: 'src', source: 'src',
    video: 'src', audio: 'src', form: 'action' };
  let next = window.__wsfsNext || 1;
  const out = [];
  const text = (s) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
  const attr = (s) => s.replace(/&/g, '&amp;').replace(/"/g, '&quot;');

  const mark = (el, ops) => {
    if (!ops && !el.matches(ACTIONABLE)) return;
    if (!el.hasAttribute(ID)) el.setAttribute(ID, 'w' + (next++));
  };
  const rendered = (el) => {
    if (UNCHECKED.has(el.localName) || !el.checkVisibility) return true;
    if (el.checkVisibility({ checkVisibilityCSS: true })) return true;
    const view = el.ownerDocument.defaultView;
    return view ? view.getComputedStyle(el).display === 'contents' : true;
  };

  // Beyond this many pixels to the left or above the document, a box is off the page for
  // good (dom.OFF_SCREEN_PX); a carousel's neighbouring slide is not that far.
  const FAR = -1000;
  const CUT = new Set(['hidden', 'clip']);
  const numbers = (s) => (s.match(/-?[\d.]+/g) || []).map(Number);
  // style: the element's computed style, read once per element by gestures().
  const unseen = (el, style) => {
    if (UNCHECKED.has(el.localName) || !style) return false;
    const view = el.ownerDocument.defaultView;
    if (style.display === 'contents') return false;
    if (style.clip.startsWith('rect(')) {
      const [top, right, bottom, left] = numbers(style.clip);
      if (top >= bottom || left >= right) return true;
    }
    if (style.clipPath.startsWith('inset(') && style.clipPath.includes('%')
        && numbers(style.clipPath)[0] >= 50) return true;
    if (parseFloat(style.textIndent) <= FAR) return true;
    const rect = el.getBoundingClientRect();
    if (rect.right + view.scrollX < FAR || rect.bottom + view.scrollY < FAR) return true;
    const cut = CUT.has(style.overflowX) || CUT.has(style.overflowY);
    return cut && rect.width * rect.height <= 1 && el.textContent.trim() !== '';
  };

  // Where an element fixed to the window sits on it (compiler/regions.py FIXED_REGIONS): a bar
  // across the top or along the bottom, a panel down a side, else a box over the page; ''
  // for one that shows nothing to read.
  const EDGE = 2;
  const placement = (el, style) => {
    if (!style || style.position !== 'fixed' || !el.textContent.trim()) return '';
    const view = el.ownerDocument.defaultView;
    const box = el.getBoundingClientRect();
    if (box.width * box.height === 0) return '';
    const width = view.innerWidth, height = view.innerHeight;
    if (box.top <= EDGE && box.height < 0.3 * height) return 'top';
    if (box.bottom >= height - EDGE && box.height < 0.4 * height) return 'bottom';
    if ((box.left <= EDGE || box.right >= width - EDGE) && box.height >= 0.5 * height
        && box.width < 0.4 * width) return 'side';
    return 'over';
  };

  // Words of a quoted `content`, without private-use characters (an icon font's glyphs) and
  // what functions say (an image's url("…"), a counter).
  const QUOTED = /"((?:[^"\\]|\\.)*)"/g;
  const FUNCTION = /[\w-]+\((?:[^()"]|"(?:[^"\\]|\\.)*")*\)/g;
  const PRIVATE_USE = /[\uE000-\uF8FF]/g;
  const WORDS = /[\p{L}\p{N}]/u;
  const generated = (el, view, which) => {
    const style = view.getComputedStyle(el, which);
    if (style.display === 'none' || style.visibility !== 'visible') return '';
    const strings = style.content.replace(FUNCTION, ' ').matchAll(QUOTED);
    const words = Array.from(strings, (m) => m[1].replace(/\\(.)/g, '$1'));
    return words.join('').replace(PRIVATE_USE, '').trim();
  };
  const DRAWN_ON = 'label, ' + ACTIONABLE;
  // [before, after]: the words drawn around an element whose own text is empty (or, for an
  // element hidden by visibility, not shown); null when there are none.
  const drawnWords = (el, ops) => {
    const view = el.ownerDocument.defaultView;
    if (!view || UNCHECKED.has(el.localName) || (!ops && !el.matches(DRAWN_ON))) return null;
    const words = [generated(el, view, '::before'), generated(el, view, '::after')];
    return words[0] || words[1] ? words : null;
  };
  // Hidden by visibility, drawn all the same by its generated content (which takes the clicks).
  const drawnWhileHidden = (el) => {
    const view = el.ownerDocument.defaultView;
    if (!view || UNCHECKED.has(el.localName)) return null;
    const style = view.getComputedStyle(el);
    if (style.visibility !== 'hidden' || style.display === 'none') return null;
    return drawnWords(el, 'drawn');
  };

  // What a drawing shows (compiler/drawn.py): written as attributes, ' name="…"' each.
  const whole = (n) => String(Math.round(n));
  const boxWords = (r, left, top) => [r.left - left, r.top - top, r.width, r.height].map(whole)
    .join(' ');
  const visiblePaint = (value, ...zeros) => (zeros.some((z) => parseFloat(z) === 0) ? 'none'
    : value);
  // The box inside an element's border (a drawing's shapes are placed from its corner).
  const inside = (el) => {
    const r = el.getBoundingClientRect();
    return { left: r.left + el.clientLeft, top: r.top + el.clientTop, width: el.clientWidth,
      height: el.clientHeight };
  };
  const measured = (el, style) => {
    const view = el.ownerDocument.defaultView;
    if (!style || !view) return '';
    if (el.localName === 'canvas' || (el instanceof view.SVGSVGElement && !el.ownerSVGElement)) {
      return ' ' + BOX + '="' + boxWords(inside(el), -view.scrollX, -view.scrollY) + '"';
    }
    if (!(el instanceof view.SVGGeometryElement)) return '';
    let drawing = el.ownerSVGElement;
    while (drawing && drawing.ownerSVGElement) drawing = drawing.ownerSVGElement;
    if (!drawing) return '';
    const corner = inside(drawing);
    const fill = visiblePaint(style.fill, style.fillOpacity, style.opacity);
    const stroke = visiblePaint(style.stroke, style.strokeOpacity, style.strokeWidth,
      style.opacity);
    return ' ' + BOX + '="' + boxWords(el.getBoundingClientRect(), corner.left, corner.top)
      + '" ' + FILL + '="' + attr(fill) + '"'
      + (stroke === 'none' ? '' : ' ' + STROKE + '="' + attr(stroke) + '"');
  };

  // Ids are unique only within their tree: a component's shadow root has its own ("label",
  // "listbox"), the same in every instance. In the capture they get the suffix of their shadow
  // root, and so do the references to them from the same tree, so each instance's label and
  // list stay its own.
  const ID_REFERENCES = new Set(['id', 'for', 'form', 'list', 'headers', 'aria-labelledby',
    'aria-describedby', 'aria-controls', 'aria-owns', 'aria-activedescendant', 'aria-details',
    'aria-errormessage', 'aria-flowto']);
  const scopes = new Map();
  const scopeOf = (el) => {
    const root = el.getRootNode();
    if (root === el.ownerDocument || !root.host) return '';
    if (!scopes.has(root)) scopes.set(root, '~s' + (scopes.size + 1));
    return scopes.get(root);
  };
  const scoped = (el, value) => {
    const scope = scopeOf(el);
    return scope ? value.split(/\s+/).filter(Boolean).map((id) => id + scope).join(' ') : value;
  };

  const INLINE_HIDING = /(display\s*:\s*none|visibility\s*:\s*hidden)\s*(!important)?\s*;?/gi;
  const REPLACED = { input: new Set(['value', 'checked', 'hidden']),
    option: new Set(['selected', 'hidden']) };
  const ONLY_HIDDEN = new Set(['hidden']);
  // shown: no `hidden` to write (the element is rendered, or an ancestor says it for it);
  // rendered: the element itself is drawn.
  const openTag = (el, inFrame, shown, marked = false, ops = '', rendered = shown, drawn = '',
    fixed = '', measures = '') => {
    const name = el.localName;
    const parts = ['<', name];
    const replaced = REPLACED[name] || ONLY_HIDDEN;
    for (const a of el.attributes) {
      if (replaced.has(a.name) || a.name === OP) continue;
      let value = a.value;
      if (inFrame && URL_ATTRS[name] === a.name && el[a.name]) value = String(el[a.name]);
      // A shown element's inline hiding was overruled (a stylesheet's !important): the
      // compiler, which reads inline styles, must not drop it.
      if (a.name === 'style' && rendered) value = value.replace(INLINE_HIDING, '');
      if (ID_REFERENCES.has(a.name)) value = scoped(el, value);
      parts.push(' ', a.name, '="', attr(value), '"');
    }
    if (!shown) parts.push(' hidden=""');
    if (marked && !el.hasAttribute(UNSEEN)) parts.push(' ', UNSEEN, '=""');
    if (ops) parts.push(' ', OP, '="', ops, '"');
    if (drawn) parts.push(' ', DRAWN, '="', attr(drawn), '"');
    if (fixed) parts.push(' ', FIXED, '="', fixed, '"');
    if (measures) parts.push(measures);
    // A <dialog> opened by showModal() makes the page under it inert; its markup does not say
    // so (show() opens one that does not), aria-modal does.
    if (name === 'dialog' && el.matches(':modal') && !el.hasAttribute('aria-modal')) {
      parts.push(' aria-modal="true"');
    }
    if (name === 'input') {
      const type = (el.type || '').toLowerCase();
      if (type === 'checkbox' || type === 'radio') {
        if (el.hasAttribute('value')) parts.push(' value="', attr(el.value), '"');
        if (el.checked) parts.push(' checked=""');
      } else if (type !== 'password' && type !== 'file') {
        parts.push(' value="', attr(el.value), '"');
      }
    } else if (name === 'option' && el.selected) {
      parts.push(' selected=""');
    }
    if (el === el.ownerDocument.activeElement && name !== 'body' && name !== 'html') {
      parts.push(' __FOCUS__=""');
    }
    parts.push('>');
    return parts.join('');
  };

  // seen: no ancestor was marked unseen (under one, nothing needs checking again).
  // pointer: the parent shows a pointer cursor (inherited: its children are not new controls).
  const children = (parent, inFrame, shown, seen, pointer) => {
    for (const child of parent.childNodes) node(child, inFrame, shown, seen, pointer);
  };

  // What a person can operate on a rendered element (discovery.OPERABLE): '' when hidden;
  // also whether it shows a pointer, and its computed style (for unseen).
  const gestures = (el, shown, parentPointer) => {
    if (!shown || UNCHECKED.has(el.localName)) return ['', parentPointer, null];
    const view = el.ownerDocument.defaultView;
    if (!view) return ['', parentPointer, null];
    const style = view.getComputedStyle(el);
    return [operable(el, style, parentPointer, marks), style.cursor === 'pointer', style];
  };

  const node = (n, inFrame, parentShown, parentSeen, parentPointer) => {
    if (n.nodeType === Node.TEXT_NODE) { out.push(text(n.data)); return; }
    if (n.nodeType !== Node.ELEMENT_NODE) return;
    const el = n;
    const name = el.localName;
    if (SKIP.has(name)) return;
    const hiddenButDrawn = parentShown && !rendered(el) ? drawnWhileHidden(el) : null;
    const shown = parentShown && (hiddenButDrawn !== null || rendered(el));
    const [ops, pointer, style] = gestures(el, shown, parentPointer);
    mark(el, ops);
    if (name === 'iframe' || name === 'frame') { frame(el, inFrame, shown, parentSeen); return; }
    if (name === 'frameset') {  // a page of frames: its frames, inlined, are its body
      out.push('<div data-wsfs-frameset="">');
      children(el, inFrame, shown, parentSeen, pointer);
      out.push('</div>');
      return;
    }
    if (name === 'slot') {
      const assigned = el.assignedNodes({ flatten: true });
      if (assigned.length) {
        for (const a of assigned) node(a, inFrame, shown, parentSeen, pointer);
        return;
      }
    }
    const marked = shown && parentSeen && unseen(el, style);
    const seen = parentSeen && !marked;
    // Only the outermost element that is not rendered says `hidden`: what is inside it is
    // hidden with it, and shows with it when an action reveals it (compiler/reveal.py).
    const drawn = hiddenButDrawn || (shown && !el.textContent.trim() ? drawnWords(el, ops) : null);
    const glyph = drawn && (VOID.has(name) || !WORDS.test(drawn.join(''))) ? drawn.join(' ').trim() : '';
    const written = glyph ? null : drawn;
    const fixed = shown ? placement(el, style) : '';
    out.push(openTag(el, inFrame, shown || !parentShown, marked, ops, shown, glyph, fixed,
      shown ? measured(el, style) : ''));
    if (VOID.has(name)) return;
    if (written) out.push(text(written[0]), written[0] ? ' ' : '');
    if (hiddenButDrawn) {
      // Its own words are not shown: only its elements are written (each hidden, unless
      // one is shown again), not its text.
      for (const child of el.childNodes) {
        if (child.nodeType === Node.ELEMENT_NODE) node(child, inFrame, shown, seen, pointer);
      }
    } else if (RAW.has(name)) {
      out.push(el.textContent.replace(/<\/(script|style)/gi, '<\\/$1'));
    } else if (name === 'textarea') {
      out.push(text(el.value));
    } else if (el.shadowRoot) {
      children(el.shadowRoot, inFrame, shown, seen, pointer);
    } else {
      children(el, inFrame, shown, seen, pointer);
    }
    if (written && written[1]) out.push(' ', text(written[1]));
    out.push('</', name, '>');
  };

  const frame = (el, inFrame, shown, seen) => {
    let doc = null;
    try { doc = el.contentDocument; } catch (e) { doc = null; }
    if (!doc || !doc.body) {
      // Another origin's frame (or an empty one) stays a reference to its URL.
      const open = openTag(el, inFrame, shown);
      out.push(el.localName === 'frame' ? '<iframe' + open.slice(6) : open, '</iframe>');
      return;
    }
    hoverReveals(doc, marks);
    const src = doc.location ? String(doc.location.href) : '';
    out.push('<div data-wsfs-frame="', attr(src), '"', shown ? '' : ' hidden=""', '>');
    children(doc.body, true, shown, seen, false);
    out.push('</div>');
  };

  hoverReveals(document, marks);
  out.push('<!DOCTYPE html>');
  node(document.documentElement, false, true, true, false);
  window.__wsfsNext = next;
  const guard = window.__wsfsGuard ? window.__wsfsGuard.take()
    : { muted: 0, blocked: 0, opened: 0, downloads: 0 };
  return { html: out.join(''), url: String(location.href), title: document.title,
    mutedDialogs: guard.muted, blockedPopups: guard.blocked, openedPopups: guard.opened,
    clickedDownloads: guard.downloads };
}
""".replace("__FOCUS__", FOCUS_ATTRIBUTE).replace("__DRAWN_ATTRIBUTE__", DRAWN_ATTRIBUTE).replace(
    "__FIXED_ATTRIBUTE__", FIXED_ATTRIBUTE).replace("__BOX__", BOX_ATTRIBUTE).replace(
    "__FILL__", FILL_ATTRIBUTE).replace("__STROKE__", STROKE_ATTRIBUTE).replace(
    "__LOCATOR__", LOCATOR_ATTRIBUTE).replace("__UNSEEN__", UNSEEN_ATTRIBUTE).replace(
    "__OPERABLE_ATTRIBUTE__", OPERABLE_ATTRIBUTE).replace("__OPERABLE__", OPERABLE.strip()).replace(
    "__HOVER_REVEALS__", HOVER_REVEALS.strip())

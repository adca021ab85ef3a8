"""What `execute` does to one element, by operation name (the compiled action's kind).

Each operation takes the element's Playwright locator, the command's inputs (its name=value
pairs and, for a form, where the capture saw each named field) and a timeout in milliseconds.
Wrong inputs (an option that does not exist, a field the form lacks) raise UsageError with the
valid choices; nothing has been done at that point for single controls, and for forms the
checks run before the first field is touched. An operation that sets a value hands back its
read-backs (readback.py): the caller runs them once the page has settled, to tell whether the
control shows what was asked.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator
from playwright.async_api import TimeoutError as PlaywrightTimeoutError

from webshellfs.browser.readback import ReadBack, ReadBacks, reading, said, unmet
from webshellfs.browser.values import FORMS, field_value, number_in_range
from webshellfs.compiler.builder import LOCATOR_ATTRIBUTE
from webshellfs.contract.layout import UNTICK, unticks
from webshellfs.errors import NotFoundError, UsageError



@dataclass(frozen=True)
class Inputs:
    """A command's name=value pairs, and where the capture saw each named field of a form (its
    data-wsfs-id): a field the page gave no name attribute, or one that joins the form from
    elsewhere by form=ID, is found by that element."""

    values: Mapping[str, str] = field(default_factory=dict)
    seen_at: Mapping[str, str] = field(default_factory=dict)


Operation = Callable[[Locator, Inputs, float], Awaitable[ReadBacks]]

# Finds the choice a user meant, by value first, then by visible label (case-insensitive):
# an option of a <select>, a radio of the element's group, or an ARIA option/radio inside a
# list box or radio group. Answers {value} for a select, {target, check} for the element to
# click or check, {click} for an element with no choices of its own, or {choices} if none fits.
# A select's values are a list: one, or each of a multiple select's choices joined by |.
_PICK = """
(el, wanted) => {
  const ID = '__LOCATOR__';
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const same = (a, b) => norm(a).toLowerCase() === norm(b).toLowerCase();
  const choose = (items, valueOf, labelOf) =>
    items.find((i) => valueOf(i) === wanted) || items.find((i) => same(labelOf(i), wanted));
  const listed = (items, valueOf, labelOf) =>
    ({ choices: items.map((i) => valueOf(i) + '=' + norm(labelOf(i)).toLowerCase()) });
  // The elements inside el as the page shows them: through open shadow roots, and the page's
  // children a slot shows where the slot is (a web component's list slots its options in).
  const shownInside = (root, selector) => {
    const found = [];
    const visit = (node) => {
      const kids = node.localName === 'slot' ? node.assignedElements({ flatten: true })
        : Array.from((node.shadowRoot || node).children);
      for (const kid of kids) {
        if (kid.matches(selector)) found.push(kid);
        visit(kid);
      }
    };
    visit(root);
    return found;
  };
  if (el.localName === 'select') {
    const options = Array.from(el.options);
    const label = (o) => o.label || o.text;
    // A list that takes several choices takes them joined by |, as actions.tsv lists them.
    const parts = el.multiple ? wanted.split('|') : [wanted];
    const found = parts.map((part) => options.find((o) => o.value === part)
      || options.find((o) => same(label(o), part)));
    return found.every((o) => o) ? { value: found.map((o) => o.value) }
      : listed(options, (o) => o.value, label);
  }
  let items;
  let valueOf;
  const labelOf = (i) => (i.labels && i.labels.length ? i.labels[0].textContent : i.textContent);
  if (el.localName === 'input' && el.type === 'radio') {
    const scope = el.form || el.ownerDocument;
    items = Array.from(scope.querySelectorAll('input[type=radio]'))
      .filter((r) => r.name === el.name && (r.form || r.ownerDocument) === scope);
    valueOf = (r) => r.value;
  } else {
    items = shownInside(el, '[role=option], [role=radio], [role=menuitemradio]');
    valueOf = (o) => o.getAttribute('data-value') || norm(o.textContent);
  }
  if (!items.length) return { click: true };
  const found = choose(items, valueOf, labelOf);
  if (!found) return listed(items, valueOf, labelOf);
  if (!found.hasAttribute(ID)) {
    const next = window.__wsfsNext || 1;
    window.__wsfsNext = next + 1;
    found.setAttribute(ID, 'w' + next);
  }
  return { target: found.getAttribute(ID), check: found.localName === 'input' };
}
""".replace("__LOCATOR__", LOCATOR_ATTRIBUTE)

# _PICK on the first element a locator finds, in one round trip (Locator.evaluate takes three:
# find, evaluate, release); null when the element is gone.
_PICK_FIRST = f"(found, wanted) => found.length ? ({_PICK.strip()})(found[0], wanted) : null"

_DESCRIBE_FIELD = "(e) => [e.localName, (e.type || '').toLowerCase()]"

_SUBMITTERS = (
    "button[type=submit], button:not([type]), input[type=submit], input[type=image]"
)

_REQUEST_SUBMIT = "(f) => f.requestSubmit ? f.requestSubmit() : f.submit()"


def single_value(values: Mapping[str, str], what: str) -> str:
    """The one value a single control takes: the only value given, whatever its name."""
    if len(values) == 1:
        return next(iter(values.values()))
    if not values:
        raise UsageError(f"{what} needs a value, e.g. value=…")
    names = ", ".join(sorted(values))
    raise UsageError(f"{what} takes one value, got {len(values)}: {names}")


def attribute_selector(name: str, value: str) -> str:
    escaped = value.replace("\\", "\\\\").replace('"', '\\"')
    return f'[{name}="{escaped}"]'


async def _pick(element: Locator, wanted: str) -> dict[str, Any]:
    picked = await element.evaluate_all(_PICK_FIRST, wanted)
    if picked is None:
        raise NotFoundError("the element is no longer on the page")
    return dict(picked)


async def option_values(select: Locator, wanted: str) -> list[str]:
    picked = await _pick(select, wanted)
    if "value" in picked:
        return [str(value) for value in picked["value"]]
    raise UsageError(f"no option {wanted!r}; choices: {' | '.join(picked.get('choices', []))}")


# Whether a press at (x, y) lands on el: what elementFromPoint finds there is el or inside it.
# It asks el's own root node, since a shadow root finds its own elements where the document
# finds only their host. Composed into each snippet below in place of __HITS__.
_HITS = """
(el, x, y) => {
  const root = el.getRootNode();
  const top = (root.elementFromPoint ? root : document).elementFromPoint(x, y);
  return !!top && (top === el || el.contains(top));
}
""".strip()

# An input a person cannot hit (a pixel or two, hidden, or covered by its own styled label,
# as custom checkboxes and "mark all" toggles are) is operated through a visible label of its
# own (or the orphan label beside it) that takes the click: that is what a person clicks. A
# transparent input that a click at its place lands on (a label drawn under it, taking no
# pointer events) is clicked itself. Answers the label's locator, or null.
_STAND_IN = """
(found) => {
  const hits = __HITS__;
  const el = found[0];
  if (!el || el.localName !== 'input') return null;
  // Its labels, else the label right after it whose for= names nothing (a page that wrote
  // for="toggle-all" beside an input with no id, and listens to the label).
  const next = el.nextElementSibling;
  const orphan = next && next.localName === 'label' && next.htmlFor && !next.control ? [next] : [];
  const labels = el.labels && el.labels.length ? Array.from(el.labels) : orphan;
  if (!labels.length) return null;
  const box = el.getBoundingClientRect();
  const style = getComputedStyle(el);
  if (box.width > 2 && box.height > 2 && style.visibility !== 'hidden') {
    // Out of the window nothing is hit there: the input itself, which the click scrolls to.
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    const inView = x >= 0 && y >= 0 && x < innerWidth && y < innerHeight;
    if (!inView || hits(el, x, y)) return null;
  }
  for (const label of labels) {
    const area = label.getBoundingClientRect();
    if (area.width > 0 && area.height > 0 && getComputedStyle(label).pointerEvents !== 'none') {
      if (!label.hasAttribute('__LOCATOR__')) {
        const next = window.__wsfsNext || 1;
        window.__wsfsNext = next + 1;
        label.setAttribute('__LOCATOR__', 'w' + next);
      }
      return label.getAttribute('__LOCATOR__');
    }
  }
  return null;
}
""".replace("__LOCATOR__", LOCATOR_ATTRIBUTE).replace("__HITS__", _HITS)


async def _hit_target(element: Locator) -> Locator:
    """The element to click for this one: itself, or the label standing in for it."""
    label = await element.evaluate_all(_STAND_IN)
    if label is None:
        return element
    return element.page.locator(attribute_selector(LOCATOR_ATTRIBUTE, str(label)))


# When the pointer (where the last click left it) is already over the list or menu the
# element is in, on another of its items, it travels to the element as a person's does,
# through points on the way: a menu that ignores the first item the pointer enters (jQuery
# UI's autocomplete, until the next mouse move) then takes the one it lands on, even when it
# opened under the pointer (two steps from there were not enough: the first already landed on
# an item). From anywhere else it goes in one move, which enters the element first: each move
# waits for a frame of the page (about 17 ms), and five were most of a click's time.
POINTER_STEPS = 5
# The lists and menus that decide it: the element's closest one of these.
LISTS = "ul, ol, [role=listbox], [role=menu], [role=menubar], [role=tree], [role=grid]"
# After the pointer arrives, how long a click waits for a press where it is to land on the
# element: a page may redraw on hover (an icon whose :hover image is still loading has
# no box for a moment, and the click would land on what is under it).
HOVER_SETTLE_MS = 500
# Where the pointer goes: [x, y, drawn, travel] (travel: the pointer is over another item of
# the element's list or menu: POINTER_STEPS), after scrolling the element into view when a
# click at its centre would not reach it (out of the window, or cut off by a scrolling box:
# the pointer must hover it where it will be clicked, since a hover that swaps an icon's image
# moves what is under the pointer). Most elements: their centre, or, where something else covers the
# centre, the first point of their box (from the middle outwards, POINTER_SHARES) where a
# press lands on them, as a person presses the part they see; the centre still when none
# does (the click then says what covers it). Null when it has no box. An element hidden by
# visibility whose ::before/::after words are shown (the capture took them as its text): drawn,
# at the first point along its middle line where a press lands on it.
POINTER_SHARES = (0.5, 0.4, 0.6, 0.3, 0.7, 0.2, 0.8, 0.1, 0.9)
_POINTER = """
(found) => {
  const el = found[0];
  // In a frame the element's box is not where the page's mouse is: Playwright's click maps it.
  if (!el || el.ownerDocument.defaultView !== window.top) return null;
  let box = el.getBoundingClientRect();
  if (!box.width || !box.height) return null;
  const hits = __HITS__;
  const shares = [__SHARES__];
  const firstHit = (box, ys) => {
    for (const sy of ys) {
      for (const sx of shares) {
        const x = box.left + box.width * sx, y = box.top + box.height * sy;
        if (hits(el, x, y)) return [x, y];
      }
    }
    return null;
  };
  const drawn = getComputedStyle(el).visibility === 'hidden';
  if (!drawn && !hits(el, box.left + box.width / 2, box.top + box.height / 2)) {
    el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
    box = el.getBoundingClientRect();
  }
  // Where the last click left the pointer (window.__wsfsPointer, set by _HIT_AFTER_HOVER).
  const list = el.closest('__LISTS__');
  const at = window.__wsfsPointer;
  const under = list && at ? document.elementFromPoint(at[0], at[1]) : null;
  const travel = !!under && list.contains(under) && under !== el && !el.contains(under);
  if (!drawn) {
    const x = box.left + box.width / 2, y = box.top + box.height / 2;
    if (!(x >= 0 && y >= 0 && x < innerWidth && y < innerHeight)) return null;
    const point = hits(el, x, y) ? [x, y] : firstHit(box, shares) || [x, y];
    return [point[0], point[1], false, travel];
  }
  el.scrollIntoView({ block: 'nearest', inline: 'nearest', behavior: 'instant' });
  box = el.getBoundingClientRect();
  const point = firstHit(box, [0.5]);
  return point ? [point[0], point[1], true, travel] : null;
}
""".replace("__HITS__", _HITS).replace("__LISTS__", LISTS).replace(
    "__SHARES__", ", ".join(map(str, POINTER_SHARES)))
# Whether a press where the pointer is ([x, y]) lands on the element, waiting up to `limit` ms
# for it to (its hover may redraw it): it must be hit with the same box at two frames running,
# since a hover's redraw may come a frame after the pointer (an icon swapping in an image not
# yet loaded loses its width, and a press then comes down on it and goes up on what is under
# it). False at once for a disabled element, whose click Playwright waits out with the reason
# in its log.
_HIT_AFTER_HOVER = """
(found, [limit, x, y]) => new Promise((done) => {
  const el = found[0];
  if (!el || el.disabled === true || el.closest('fieldset[disabled]')
      || el.getAttribute('aria-disabled') === 'true') { done(false); return; }
  window.__wsfsPointer = [x, y];
  const started = performance.now();
  const hits = __HITS__;
  let seen = null;  // the box at the last frame the press would have landed
  const check = () => {
    const box = el.getBoundingClientRect();
    const now = hits(el, x, y) ? [box.left, box.top, box.width, box.height].join() : null;
    if (now !== null && now === seen) done(true);
    else if (performance.now() - started > limit) done(false);
    else { seen = now; requestAnimationFrame(check); }
  };
  check();
})
""".replace("__HITS__", _HITS)


@asynccontextmanager
async def raw_input(timeout: float, what: str) -> AsyncIterator[None]:
    """Raw input sent in the block (page.mouse, page.keyboard) finishes within the action
    timeout (milliseconds), else PlaywrightTimeoutError naming `what`: Playwright's mouse and
    keyboard have no timeout of their own, and a page that its own handler freezes would hold
    the call forever (the timeout is what tells the session the page stopped responding)."""
    limit = asyncio.timeout(timeout / 1000)
    try:
        async with limit:
            yield
    except TimeoutError:
        if not limit.expired():
            raise  # some other wait inside the block timed out: not ours to rename
        raise PlaywrightTimeoutError(
            f"{what} did not finish within {timeout / 1000:g} s") from None


async def click(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """A click as a person's: the pointer arrives, what it hovers settles, then the press
    where the pointer is, once a press there lands on the element. Else (it never did, it is
    disabled, or it has no place in view) Playwright's click waits for it and says why not.
    A hidden input's label stand-in is only looked for when checking (a click action is a
    button, a link or a found element, never a box behind a label). An element that only
    its generated words draw is pressed where those words are, as a person does: the
    locator's click would wait for it to become visible."""
    page = element.page
    pointer = await element.evaluate_all(_POINTER)  # evaluate_all: no waiting, one round trip
    if pointer is not None:
        x, y, drawn, travel = pointer
        async with raw_input(timeout, "the pointer's move to the element"):
            await page.mouse.move(x, y, steps=POINTER_STEPS if travel else 1)
        if drawn or await element.evaluate_all(_HIT_AFTER_HOVER, [HOVER_SETTLE_MS, x, y]):
            async with raw_input(timeout, "a press"):
                await page.mouse.down()
                await page.mouse.up()
            return ()
    await element.click(timeout=timeout)
    return ()


async def hover(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    await element.hover(timeout=timeout)
    return ()


# What a field is: [tag, type, min, max, ARIA value now, ARIA min, ARIA max, the id of the
# list a combobox pops up, whether it is typed into key by key, why it takes no typing now].
#
# A text field that acts on each key (an autocomplete filtering its list on keyup, a combobox)
# hears nothing from fill's single input event: it is typed into key by key, as a person
# types. Known by its role or aria-autocomplete, or by the key listeners the page gave it
# (the log browser/discovery.py installs).
_DESCRIBE_INPUT = """
(found) => {
  const el = found[0];
  if (!el) return null;
  const aria = (name) => el.getAttribute('aria-value' + name) || '';
  const role = el.getAttribute('role');
  const popup = role === 'combobox'
    ? el.getAttribute('aria-controls') || el.getAttribute('aria-owns') || '' : '';
  const kind = (el.type || '').toLowerCase();
  const text = el.localName === 'textarea'
    || (el.localName === 'input' && ['text', 'search', 'email', 'url', 'tel'].includes(kind));
  const log = window.__wsfsListeners;
  const typed = text && (role === 'combobox' || el.hasAttribute('aria-autocomplete')
    || (!!log && log.types(el).some((type) => type.startsWith('key'))));
  const refuses = el.disabled ? 'disabled' : el.readOnly ? 'read-only' : '';
  return [el.localName, kind, el.min || '', el.max || '', aria('now'), aria('min'), aria('max'),
    popup, typed, refuses];
}
"""
# A range input set as a drag of its thumb leaves it: the value, then input and change events.
_SET_RANGE = """
(el, value) => {
  const setter = Object.getOwnPropertyDescriptor(HTMLInputElement.prototype, 'value').set;
  setter.call(el, value);
  el.dispatchEvent(new Event('input', { bubbles: true }));
  el.dispatchEvent(new Event('change', { bubbles: true }));
  return el.value;
}
"""
# Fill errors that mean "not in this form" rather than "not fillable at all".
_REFUSED_VALUE = ("Malformed value", 'cannot be filled', "Element is not an <input>")
# An ARIA slider moved by keys goes at most this many steps.
MAX_SLIDER_STEPS = 500
# A long value typed key by key is filled but for its last MAX_TYPED_CHARS, which are typed:
# the keys the page hears end on the whole value.
MAX_TYPED_CHARS = 200


async def fill(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """Type the value; a date, time, range or ARIA slider takes it in its own form."""
    value = single_value(inputs.values, "fill")
    await _fill(element, value, timeout)
    return (reading(element, value),)


async def _fill(element: Locator, value: str, timeout: float) -> None:
    described = await element.evaluate_all(_DESCRIBE_INPUT)
    if described is None:
        raise NotFoundError("the element is no longer on the page")
    tag, kind, low, high, now, aria_low, aria_high, popup, typed, refuses = described
    if refuses == "read-only" and popup:
        await _choose_in_popup(element, popup, value, timeout)  # a select drawn as a field
        return
    if refuses:
        raise UsageError(f"the field is {refuses}: it takes no typing now (the page sets it); "
                         "execute it with no value to click it, as a person does")
    if value and typed:
        head, tail = value[:-MAX_TYPED_CHARS], value[-MAX_TYPED_CHARS:]
        await element.fill(head, timeout=timeout)
        await element.press_sequentially(tail, timeout=timeout)
    elif tag == "input" and kind == "range":
        number_in_range(value, low, high)
        await element.evaluate(_SET_RANGE, value)
    elif tag == "input" and kind in FORMS:
        await _fill_checked(element, field_value(kind, value), value, timeout)
    else:
        try:
            await element.fill(value, timeout=timeout)
            return
        except PlaywrightError as error:
            if not any(marker in str(error) for marker in _REFUSED_VALUE):
                raise
        if tag == "input":
            await _fill_checked(element, value, value, timeout)
        elif now:
            await _slide(element, number_in_range(value, aria_low, aria_high), timeout)
        elif popup:
            await _choose_in_popup(element, popup, value, timeout)
        else:
            raise UsageError(
                "the element takes no typed value; execute it without one to click it")


async def _fill_checked(element: Locator, value: str, given: str, timeout: float) -> None:
    """Fill a field the browser sanitizes (a date, a time, a number) and make sure it kept
    the value: a field left empty in silence is the one outcome a command must not have."""
    await element.fill(value, timeout=timeout)
    if await element.input_value(timeout=timeout) != value:
        raise UsageError(f"the field did not take {given!r}")


# The list a combobox pops up, looked up in the combobox's own tree (every instance of a web
# component has the same ids in its shadow root) and marked so a locator finds exactly it;
# null when that tree has no such list.
_MARK_POPUP = """
(found, popup) => {
  const el = found[0];
  const list = el ? el.getRootNode().getElementById(popup) : null;
  if (!list) return null;
  if (!list.hasAttribute('__LOCATOR__')) {
    const next = window.__wsfsNext || 1;
    window.__wsfsNext = next + 1;
    list.setAttribute('__LOCATOR__', 'w' + next);
  }
  return list.getAttribute('__LOCATOR__');
}
""".replace("__LOCATOR__", LOCATOR_ATTRIBUTE)


async def _choose_in_popup(combobox: Locator, popup: str, wanted: str, timeout: float) -> None:
    """A combobox that takes no typing (select-only) is chosen as a person does: click it
    open, then click the option in the list it pops up."""
    if await combobox.get_attribute("aria-expanded", timeout=timeout) != "true":
        await combobox.click(timeout=timeout)
    marked = await combobox.evaluate_all(_MARK_POPUP, popup)
    found = attribute_selector(LOCATOR_ATTRIBUTE, marked) if marked else attribute_selector(
        "id", popup)
    await select(combobox.page.locator(found), Inputs({"value": wanted}), timeout)


# The keys that move an ARIA slider or spin button up and down, by axis: sliders answer to the
# horizontal arrows, spin buttons (a date's day, a quantity) often only to the vertical ones.
_SLIDER_KEYS = (("ArrowRight", "ArrowLeft"), ("ArrowUp", "ArrowDown"))


async def _slide(slider: Locator, wanted: float, timeout: float) -> None:
    """An ARIA slider or spin button, moved as a person does: arrow keys until it shows the
    value (it may round to its own steps). The axis is the one its first key moves; a widget
    that no arrow key moves is an error, not a value left unchanged in silence."""

    async def now() -> float:
        return float(await slider.get_attribute("aria-valuenow", timeout=timeout) or "nan")

    current = await now()
    if current == wanted:
        return
    for up, down in _SLIDER_KEYS:
        await slider.press(up if current < wanted else down, timeout=timeout)
        moved = await now()
        if moved != current:
            break
    else:
        raise UsageError(f"the control did not move with the arrow keys; it stays at {current:g}")
    for _ in range(MAX_SLIDER_STEPS):
        if moved == wanted or (moved > wanted) != (current > wanted):
            return  # there, or stepped past: the nearest value its steps allow
        current = moved
        await slider.press(up if current < wanted else down, timeout=timeout)
        moved = await now()
        if moved == current:
            return  # at its end
    raise UsageError(f"the slider did not reach {wanted:g} in {MAX_SLIDER_STEPS} steps")


async def enter(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """Type into a search field (if a value is given) and press Enter."""
    if inputs.values:
        await element.fill(single_value(inputs.values, "enter"), timeout=timeout)
    await element.press("Enter", timeout=timeout)
    return ()


async def select(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """Choose by value or label: in a <select>, a radio group, or an ARIA list box; an
    option element on its own (no value given) is simply clicked."""
    if not inputs.values:
        await element.click(timeout=timeout)
        return ()
    wanted = single_value(inputs.values, "select")
    picked = await _pick(element, wanted)
    if "value" in picked:
        await element.select_option(value=picked["value"], timeout=timeout)
    elif "target" in picked:
        target = element.page.locator(attribute_selector(LOCATOR_ATTRIBUTE, picked["target"]))
        if picked["check"]:
            await target.check(timeout=timeout)
        else:
            await target.click(timeout=timeout)
    elif "click" in picked:
        await element.click(timeout=timeout)
        return ()
    else:
        raise UsageError(f"no choice {wanted!r}; choices: {' | '.join(picked['choices'])}")
    return (reading(element, wanted),)


async def check(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    given = inputs.values
    word = single_value(given, "check") if given else ""
    own = await element.get_attribute("value", timeout=timeout) or ""
    wanted = not given or not unticks(word, [own])
    await _set_checked(element, wanted, timeout)
    return (reading(element, word or (UNTICK if not wanted else ""), tick=wanted),)


async def _set_checked(element: Locator, wanted: bool, timeout: float) -> None:
    """Click the box (or the label standing in for it) when its state is not the wanted one,
    as a person does. Not Playwright's set_checked: it checks the state again after the click,
    and a page that draws the box anew on change (a to-do list) leaves nothing to check, a
    timeout where the action worked. Checkable roles without a native state (menu items) are
    read by aria-checked."""
    try:
        checked = await element.is_checked(timeout=timeout)
    except PlaywrightError as error:
        if "Not a checkbox or radio button" not in str(error):
            raise
        checked = await element.get_attribute("aria-checked", timeout=timeout) == "true"
    if checked != wanted:
        await (await _hit_target(element)).click(timeout=timeout)


async def uncheck(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    await _set_checked(element, False, timeout)
    return (reading(element, UNTICK, tick=False),)


# A link that asks for a new window opens in its own tab instead; one that names a frame of
# the page (a frameset's menu loading the main frame) keeps its target.
_SAME_TAB = """
(a) => {
  const target = a.getAttribute('target');
  if (!target || ['_self', '_parent', '_top'].includes(target)) return;
  let frame = null;
  try { frame = window.top.frames[target] || null; } catch (e) { frame = null; }
  if (!frame) a.removeAttribute('target');
}
"""


async def follow(element: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """Follow a link in the same tab, even one that asks for a new window."""
    await element.evaluate(_SAME_TAB)
    await element.click(timeout=timeout)
    return ()


# Two frames of the page: what a component draws anew after a change (in a microtask, or at
# its next frame) is drawn by then.
_TWO_FRAMES = (
    "(found) => new Promise((done) => requestAnimationFrame(() => requestAnimationFrame(done)))"
)


async def submit(form: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """Fill the fields given, then submit as a person does: click the form's own visible
    submit button, else press Enter in a text field (the browser's implicit submission, which
    the page's handlers hear). A form with neither (a panel of checkboxes a script reacts to)
    has only its fields set. A form whose fields do not all show what was asked is not
    submitted: the read-backs it answers say which."""
    checks = await set_fields(form, inputs, timeout)
    if checks:
        await form.evaluate_all(_TWO_FRAMES)  # evaluate_all: a form drawn anew is not waited on
        missed = await unmet(checks)
        if missed:
            return tuple(said(line) for line in missed)
    submitters = form.locator(_SUBMITTERS)
    for index in range(await submitters.count()):
        button = submitters.nth(index)
        if await button.is_visible():
            await button.click(timeout=timeout)
            return ()
    typed = await _text_field(form, inputs)
    if typed is not None:
        await typed.press("Enter", timeout=timeout)
        return ()
    return checks


async def set_fields(form: Locator, inputs: Inputs, timeout: float) -> ReadBacks:
    """Fill, check or choose each field given, in order, without submitting. Every name and
    choice is checked before the first field is touched."""
    steps = [
        await _field_step(form, name, value, inputs.seen_at.get(name, ""), timeout)
        for name, value in inputs.values.items()
    ]
    for step, _ in steps:
        await step()
    return tuple(check for _, check in steps)


# Inputs in which Enter submits the form they belong to.
_IMPLICIT_SUBMIT = (
    "input:not([type]), input[type=text], input[type=search], input[type=email], "
    "input[type=url], input[type=tel], input[type=password], input[type=number], "
    "input[type=date], input[type=time], input[type=month], input[type=week]"
)


async def _text_field(form: Locator, inputs: Inputs) -> Locator | None:
    """The field to press Enter in: the last text field given, else the form's first one."""
    for name in reversed(list(inputs.values)):
        typed = await _form_field(form, name, inputs.seen_at.get(name, ""))
        if typed is not None and await typed.evaluate(f"(e) => e.matches({_IMPLICIT_SUBMIT!r})"):
            return typed
    fields = form.locator(_IMPLICIT_SUBMIT)
    return fields.first if await fields.count() else None


async def _form_field(form: Locator, name: str, locator: str) -> Locator | None:
    """A form's field by its name attribute, else by the element the capture saw."""
    if name:
        found = form.locator(attribute_selector("name", name))
        if await found.count():
            return found.first
    if locator:
        selector = attribute_selector(LOCATOR_ATTRIBUTE, locator)
        for scope in (form, form.page):
            found = scope.locator(selector)
            if await found.count():
                return found.first
    return None


Step = Callable[[], Awaitable[None]]


async def _field_step(
    form: Locator, name: str, value: str, seen_at: str, timeout: float
) -> tuple[Step, ReadBack]:
    """Check one name=value against the form; return the step that applies it and its
    read-back."""
    first = await _form_field(form, name, seen_at)
    if first is None:
        names = await form.evaluate(
            "(f) => Array.from(f.elements).map((e) => e.name).filter((n) => n)"
        )
        known = ", ".join(dict.fromkeys(names)) or "none"
        raise UsageError(f"the form has no field {name!r}; its fields: {known}")
    tag, kind = await first.evaluate(_DESCRIBE_FIELD)
    if kind == "radio":
        picked = await _pick(first, value)  # by value, else by label: a radio with no value
        if "target" not in picked:
            raise UsageError(
                f"no choice {value!r} for {name}; choices: {' | '.join(picked['choices'])}"
            )
        radio = first.page.locator(attribute_selector(LOCATOR_ATTRIBUTE, picked["target"]))
        return (lambda: _set_checked(radio, True, timeout)), reading(first, value, name=name)
    if kind == "checkbox":
        return await _boxes_step(form, first, name, value, timeout)
    if tag == "select":
        options = await option_values(first, value)
        return (lambda: _select(first, options, timeout)), reading(first, value, name=name)
    return (lambda: _fill(first, value, timeout)), reading(first, value, name=name)


async def _select(element: Locator, values: list[str], timeout: float) -> None:
    await element.select_option(value=values, timeout=timeout)


# The checkboxes sharing the first one's name (in its form, else in its document or shadow
# root), each marked to be found again: {id, value, label, inside: within the form element and
# with a value of its own, so a selector finds it by that}. A disabled box is left out, as the
# form's field leaves it out: nobody can tick or untick it.
_BOXES = """
(first) => {
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const scope = first.form ? Array.from(first.form.elements)
    : Array.from(first.getRootNode().querySelectorAll('input[type=checkbox]'));
  const boxes = first.name
    ? scope.filter((e) => e.type === 'checkbox' && e.name === first.name && !e.disabled)
    : [first];
  return boxes.map((box) => {
    if (!box.hasAttribute('__LOCATOR__')) {
      const next = window.__wsfsNext || 1;
      window.__wsfsNext = next + 1;
      box.setAttribute('__LOCATOR__', 'w' + next);
    }
    // Its name as the compiled page gives it: aria-labelledby, aria-label, a <label>, title.
    const byIds = (box.getAttribute('aria-labelledby') || '').split(/\\s+/)
      .map((id) => id && box.ownerDocument.getElementById(id)).filter(Boolean)
      .map((e) => e.textContent).join(' ');
    const label = norm(byIds) || norm(box.getAttribute('aria-label'))
      || (box.labels && box.labels.length ? box.labels[0].textContent : '')
      || box.getAttribute('title') || '';
    return { id: box.getAttribute('__LOCATOR__'), value: box.value, label: norm(label),
             inside: !!first.form && first.form.contains(box) && box.hasAttribute('value') };
  });
}
""".replace("__LOCATOR__", LOCATOR_ATTRIBUTE)


# Whether the first box found is ticked; null when it is gone (no waiting for it).
_TICKED = "(found) => (found.length ? found[0].checked : null)"


@dataclass(frozen=True)
class _Box:
    """One of the checkboxes sharing a name, and where to find it as the page is now."""

    id: str
    value: str
    label: str
    element: Locator

    @property
    def shown(self) -> str:
        """How a read-back names it: its label, else its value."""
        return self.label or self.value

    def means(self, part: str) -> bool:
        """Whether a part of the value names it: by its value, or its label in any case."""
        wanted = " ".join(part.split()).casefold()
        return self.value == part or (bool(wanted) and self.label.casefold() == wanted)


def _boxes(form: Locator, name: str, found: list[dict[str, Any]]) -> list[_Box]:
    """Each box, found by its name and value inside the form where that tells it apart (a list
    that draws its rows anew on each tick keeps them), else by the mark the capture gave it."""
    values = [box["value"] for box in found]
    boxes = []
    for box in found:
        if box["inside"] and name and values.count(box["value"]) == 1:
            selector = ("input[type=checkbox]" + attribute_selector("name", name)
                        + attribute_selector("value", box["value"]))
            element = form.locator(selector).first
        else:
            element = form.page.locator(attribute_selector(LOCATOR_ATTRIBUTE, box["id"]))
        boxes.append(_Box(box["id"], box["value"], box["label"], element))
    return boxes


async def _boxes_step(
    form: Locator, first: Locator, name: str, value: str, timeout: float
) -> tuple[Step, ReadBack]:
    """Checkboxes sharing a name: `ids=a|b` ticks a and b and unticks the others, `ids=off`
    unticks them all; one box alone is ticked by any other word (`on`, its value). The
    read-back names each box that does not show what was asked."""
    boxes = _boxes(form, await first.get_attribute("name") or "", await first.evaluate(_BOXES))
    if unticks(value, [box.value for box in boxes]):
        wanted: set[str] = set()
    elif len(boxes) == 1:
        wanted = {boxes[0].id}
    else:
        meant = {part: next((b for b in boxes if b.value == part), None)  # values first
                 or next((b for b in boxes if b.means(part)), None)
                 for part in value.split("|")}
        unknown = [part for part, box in meant.items() if box is None]
        if unknown:
            choices = " | ".join(f"{b.value}={b.label}" if b.label else b.value for b in boxes)
            raise UsageError(f"no box {unknown[0]!r} for {name}; boxes: {choices} "
                             f"({UNTICK} unticks them all)")
        wanted = {box.id for box in meant.values() if box is not None}

    async def step() -> None:
        for box in boxes:
            await _set_checked(box.element, box.id in wanted, timeout)

    async def read() -> str:
        # A box that is gone (no longer in the list) is not read: nothing is claimed.
        ticked = {box.id: await box.element.evaluate_all(_TICKED) for box in boxes}
        missed = [b.shown for b in boxes if b.id in wanted and ticked[b.id] is False]
        still = [b.shown for b in boxes if b.id not in wanted and ticked[b.id] is True]
        parts = ([f"not ticked: {', '.join(missed)}"] if missed else []) + (
            [f"still ticked: {', '.join(still)}"] if still else [])
        return f"{name}: asked {value or UNTICK}; {'; '.join(parts)}" if parts else ""

    return step, read


OPERATIONS: dict[str, Operation] = {
    "click": click,
    "hover": hover,
    "toggle": click,
    "fill": fill,
    "edit": fill,
    "enter": enter,
    "select": select,
    "check": check,
    "uncheck": uncheck,
    "navigate": follow,
    "follow": follow,
    "submit": submit,
    "set-fields": set_fields,
}

"""Gestures: what a person does with a mouse and keyboard besides the action's own operation.

Each takes the tab's page, the element's locator (None for a gesture on the whole page), the
Gesture record and a timeout in milliseconds. A pointer gesture (click, dblclick, rightclick,
hover, highlight) given words acts where the tab shows them: pages that listen at the
document (a framework's one root listener) give the element itself nothing a capture can see. They act through Playwright's input events —
real mouse moves, clicks and key presses — so the page's own handlers decide what happens, as
they would for a person. A gesture that makes no sense as asked (a drag onto nothing, back with
no history) raises UsageError or NotFoundError, and words no one element shows best
WordsNotShown, before or instead of acting.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from webshellfs.browser import operations
from webshellfs.browser.records import Gesture, WordsNotShown, WordsShownBy
from webshellfs.browser.scripts import LOCATOR_ATTRIBUTE
from webshellfs.errors import ActionBlocked, NotFoundError, UsageError

GestureRun = Callable[[Page, "Locator | None", Gesture, float], Awaitable[None]]

# A wheel turn scrolls this share of the viewport, as a person's page-sized flick does.
WHEEL_SHARE = 0.9
DEFAULT_VIEWPORT_HEIGHT = 720
# Where the pointer goes to leave the page: outside the viewport, over no element.
OFF_THE_PAGE = (-1, -1)
# Scrolling to an end: the element's (or the page's) scroll position is set by script and
# the page gets its scroll events, as after a drag of the scroll bar.
_SCROLL_ELEMENT = """
(box, where) => box.scrollTo({ top: where === 'top' ? 0 : box.scrollHeight, behavior: 'instant' })
"""
_SCROLL_PAGE = """
(where) => {
  const box = document.scrollingElement || document.documentElement;
  box.scrollTo({ top: where === 'top' ? 0 : box.scrollHeight, behavior: 'instant' });
}
"""


def _element(element: Locator | None, gesture: Gesture) -> Locator:
    if element is None:
        raise UsageError(f"{gesture.name} needs an element (an action id)")
    return element


# Words on the tab: the innermost shown element whose own text holds them (inside `scope`, or
# anywhere in the document and its open shadow roots), and the boxes of the words themselves
# (a Range's client rects: the words of a wide row are not at its centre). Spacing and case
# do not count; an element whose whole text is the words beats one holding them among others,
# and one matching their case beats one that does not. Answers {boxes, selectable} for the
# one best element (scrolled into view), else {none, unseen: the words are in the document's
# text but not shown} or {several, count}, with up to CANDIDATES_SHOWN elements as [text,
# locator of it or of the nearest marked element around it].
_WORDS = """
(scope, [words, shown]) => {
  const ID = '__LOCATOR__';
  const SKIP = new Set(['script', 'style', 'noscript', 'template', 'head', 'title']);
  const squash = (s) => s.replace(/\\s+/g, ' ').trim();
  const wanted = squash(words).toLowerCase();
  const exactCase = squash(words);
  const visible = (el) => !el.checkVisibility
    || el.checkVisibility({ checkOpacity: true, checkVisibilityCSS: true });
  const kids = (el) => [...(el.shadowRoot ? el.shadowRoot.children : []), ...el.children];
  const textOf = (el) => el.textContent + (el.shadowRoot ? el.shadowRoot.textContent : '');
  const holds = (el) => !SKIP.has(el.localName) && visible(el)
    && squash(textOf(el)).toLowerCase().includes(wanted);
  // The element's shown text, lower-cased with spaces squashed, and where each of its
  // characters came from (text node, offset), so a match becomes a Range.
  const reading = (el) => {
    const chars = [], from = [];
    const walk = (node) => {
      for (const child of [...(node.shadowRoot ? node.shadowRoot.childNodes : []),
                           ...node.childNodes]) {
        if (child.nodeType === Node.TEXT_NODE) {
          const data = child.data;
          for (let i = 0; i < data.length; i++) {
            if (/\\s/.test(data[i])) {
              if (chars.length && chars[chars.length - 1] !== ' ') { chars.push(' '); from.push([child, i]); }
            } else {
              for (const c of data[i].toLowerCase()) { chars.push(c); from.push([child, i]); }
            }
          }
        } else if (child.nodeType === Node.ELEMENT_NODE && !SKIP.has(child.localName)
                   && visible(child)) {
          walk(child);
        }
      }
    };
    walk(el);
    while (chars.length && chars[chars.length - 1] === ' ') { chars.pop(); from.pop(); }
    return [chars.join(''), from];
  };
  const boxesOf = (range) => Array.from(range.getClientRects())
    .filter((r) => r.width > 0 && r.height > 0)
    .map((r) => [r.left, r.top, r.right, r.bottom]);
  const innermost = [];
  const visit = (el) => {
    const inner = kids(el).filter(holds);
    if (inner.length) inner.forEach(visit); else innermost.push(el);
  };
  const root = scope || document.body || document.documentElement;
  if (holds(root)) visit(root);
  const found = [];
  for (const el of innermost) {
    const [text, from] = reading(el);
    const at = text.indexOf(wanted);
    if (at < 0 || !wanted) continue;
    const range = document.createRange();
    range.setStart(from[at][0], from[at][1]);
    const [endNode, endAt] = from[at + wanted.length - 1];
    range.setEnd(endNode, endAt + 1);
    if (!boxesOf(range).length) continue;
    const whole = text === wanted;
    const cased = squash(range.toString()) === exactCase;
    found.push({ el, range, rank: (whole ? 2 : 0) + (cased ? 1 : 0), text });
  }
  const addressOf = (el) => {
    for (let at = el; at; at = at.parentElement || (at.getRootNode && at.getRootNode().host)) {
      if (at.hasAttribute && at.hasAttribute(ID)) return at.getAttribute(ID);
    }
    return '';
  };
  const listed = (items) => items.slice(0, shown).map((f) => [squash(textOf(f.el)).slice(0, 120), addressOf(f.el)]);
  if (!found.length) {
    return { none: true, unseen: squash(textOf(root)).toLowerCase().includes(wanted) };
  }
  const best = Math.max(...found.map((f) => f.rank));
  const top = found.filter((f) => f.rank === best);
  if (top.length > 1) return { several: listed(top), count: top.length };
  const { el, range } = top[0];
  const first = boxesOf(range)[0];
  if (first[1] < 0 || first[3] > innerHeight || first[0] < 0 || first[2] > innerWidth) {
    (range.startContainer.parentElement || el).scrollIntoView({ block: 'center', inline: 'center' });
  }
  const style = getComputedStyle(el);
  return { boxes: boxesOf(range), selectable: style.userSelect !== 'none' };
}
""".replace("__LOCATOR__", LOCATOR_ATTRIBUTE)
# An ambiguous text target lists this many of the elements holding its words.
CANDIDATES_SHOWN = 5


async def _words(page: Page, element: Locator | None, words: str) -> dict[str, Any]:
    """Where the words are shown (see _WORDS); WordsNotShown when no one element shows them
    best. Nothing is done to the page but a scroll bringing the words into view."""
    if element is None:
        found = await page.evaluate(f"(given) => ({_WORDS.strip()})(null, given)",
                                    [words, CANDIDATES_SHOWN])
    else:
        found = await element.evaluate(_WORDS, [words, CANDIDATES_SHOWN])
    if found.get("none"):
        where = "inside the element" if element is not None else "on the tab"
        unseen = " (they are in its text, but hidden)" if found.get("unseen") else ""
        raise WordsNotShown(f"no shown element {where} holds the words {words!r}{unseen}")
    if found.get("several"):
        candidates = tuple(WordsShownBy(text, locator) for text, locator in found["several"])
        raise WordsNotShown(
            f"{found['count']} shown elements hold the words {words!r} equally well; give words "
            "that only one of them shows (its whole text is best), or its action id",
            candidates,
        )
    return found


def _centre(box: list[float]) -> tuple[float, float]:
    left, top, right, bottom = box
    return (left + right) / 2, (top + bottom) / 2


async def _words_point(page: Page, element: Locator | None,
                       gesture: Gesture) -> tuple[float, float]:
    """Where the pointer goes for the gesture's words: the centre of their first box."""
    found = await _words(page, element, gesture.text)
    return _centre(found["boxes"][0])


async def click(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """A click on the words (see _WORDS), else on the element as `execute` clicks it."""
    if gesture.text:
        x, y = await _words_point(page, element, gesture)
        async with operations.raw_input(timeout, f"a click on {gesture.text!r}"):
            await page.mouse.move(x, y)
            await page.mouse.down()
            await page.mouse.up()
        return
    await operations.click(_element(element, gesture), operations.Inputs(), timeout)


async def double_click(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    if gesture.text:
        x, y = await _words_point(page, element, gesture)
        async with operations.raw_input(timeout, f"a double click on {gesture.text!r}"):
            await page.mouse.move(x, y)
            await page.mouse.dblclick(x, y)
        return
    await _element(element, gesture).dblclick(timeout=timeout)


async def right_click(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    if gesture.text:
        x, y = await _words_point(page, element, gesture)
        async with operations.raw_input(timeout, f"a right click on {gesture.text!r}"):
            await page.mouse.move(x, y)
            await page.mouse.click(x, y, button="right")
        return
    await _element(element, gesture).click(button="right", timeout=timeout)


async def hover(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Onto an element, or onto words; given neither (explore's restoring, never a command:
    the grammar wants one), the pointer leaves the page, so what it opened by hovering
    (a `:hover` dropdown, a mouseleave that closes a mega menu) closes as a person's would."""
    if gesture.text:
        x, y = await _words_point(page, element, gesture)
        async with operations.raw_input(timeout, f"the pointer's move onto {gesture.text!r}"):
            await page.mouse.move(x, y)
        return
    if element is None:
        async with operations.raw_input(timeout, "the pointer's move off the page"):
            await page.mouse.move(*OFF_THE_PAGE)
        return
    await element.hover(timeout=timeout)


# What the page holds selected, spacing squashed.
_SELECTED = "() => (getSelection() ? String(getSelection()) : '').replace(/\\s+/g, ' ').trim()"
_TEXT_OF = "(el) => (el.textContent || '').replace(/\\s+/g, ' ').trim()"


async def highlight(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Select the words (or the element's whole text) as a person does: press just inside
    their first character, move to just inside their last, release — so the page's
    mousedown, selectionchange and mouseup handlers run. A triple click would select the whole
    block instead. ActionBlocked when the page did not keep the words selected."""
    words = gesture.text
    if not words:
        words = await _element(element, gesture).evaluate(_TEXT_OF)
        if not words:
            raise UsageError("the element shows no text to highlight")
    found = await _words(page, element, words)
    if not found["selectable"]:
        raise UsageError("the page does not let these words be selected (user-select: none)")
    first, last = found["boxes"][0], found["boxes"][-1]
    start = (first[0] + 1, (first[1] + first[3]) / 2)
    end = (last[2] - 1, (last[1] + last[3]) / 2)
    async with operations.raw_input(timeout, f"a press across {words!r}"):
        await page.mouse.move(*start)
        await page.mouse.down()
        await page.mouse.move(*end, steps=DRAG_STEPS)
        await page.mouse.up()
    selected = await page.evaluate(_SELECTED)
    if "".join(selected.split()).lower() != "".join(words.split()).lower():
        raise ActionBlocked(f"the page did not keep the words selected: it holds {selected[:200]!r} "
                            "(the mouse went over them and was released)")


async def focus(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    await _element(element, gesture).focus(timeout=timeout)


async def press(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Keys on the element (focused first, as a click would), or on whatever has focus."""
    for key in gesture.keys:
        if element is None:
            async with operations.raw_input(timeout, f"the key {key}"):
                await page.keyboard.press(key)
        else:
            await element.press(key, timeout=timeout)


# A drag moves as a person's hand does: a first nudge past the few pixels a page waits for
# before it starts a drag (jQuery UI's `distance`), then steps of at most DRAG_STEP_PX with a
# frame's pause after each (jQuery UI's sortable measures its items again in a timer after
# each move of the placeholder; moves faster than that are tested against stale places).
DRAG_STEPS = 8
DRAG_STEP_PX = 10
MAX_DRAG_STEPS = 40
DRAG_NUDGE_PX = 5
FRAME_S = 0.016
# The drop lands this share of the target's size past its centre, in the direction of
# travel: a sortable list moves an item past another only once the pointer crosses that
# one's half line, and the centre itself is on the line.
PAST_CENTRE = 0.25
# Where a drag by a distance takes hold (see _GRIP): the element's resize corner when a
# person resizes it there, else its centre.
_GRIP = """
(el) => {
  const wrapper = el.parentElement && el.parentElement.classList.contains('ui-wrapper')
    ? el.parentElement : el;  // a box jQuery UI cannot hold handles in (a textarea) is wrapped
  const handle = wrapper.querySelector(':scope > .ui-resizable-se');
  const box = (handle || el).getBoundingClientRect();
  if (handle && box.width && box.height) {
    return [box.left + box.width / 2, box.top + box.height / 2];
  }
  const resize = getComputedStyle(el).resize;
  if (resize && resize !== 'none') return [box.right - 4, box.bottom - 4];
  return [box.left + box.width / 2, box.top + box.height / 2];
}
"""


def _sign(value: float) -> int:
    return (value > 1) - (value < -1)


async def _move_by_hand(page: Page, start: tuple[float, float], end: tuple[float, float],
                        timeout: float) -> None:
    """Press at start, move to end as a hand does (see DRAG_STEP_PX), release there; all of
    it within the action timeout plus the frames the hand itself waits between steps (the
    timeout bounds how long the page may take, not how long a hand takes: a 40-step drag
    waits 0.7 s of frames whatever the page does)."""
    (x0, y0), (x1, y1) = start, end
    nudge = (x0 + _sign(x1 - x0) * DRAG_NUDGE_PX, y0 + _sign(y1 - y0) * DRAG_NUDGE_PX)
    distance = ((x1 - nudge[0]) ** 2 + (y1 - nudge[1]) ** 2) ** 0.5
    steps = min(MAX_DRAG_STEPS, max(DRAG_STEPS, round(distance / DRAG_STEP_PX)))
    travel_ms = (steps + 1) * FRAME_S * 1000
    async with operations.raw_input(timeout + travel_ms, "a drag"):
        await page.mouse.move(x0, y0)
        await page.mouse.down()
        await page.mouse.move(*nudge)
        await asyncio.sleep(FRAME_S)
        for step in range(1, steps + 1):
            share = step / steps
            await page.mouse.move(nudge[0] + (x1 - nudge[0]) * share,
                                  nudge[1] + (y1 - nudge[1]) * share)
            await asyncio.sleep(FRAME_S)
        await page.mouse.up()


async def drag(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Press the mouse on the element and move it by hand onto the target (past its half
    line), or by the gesture's distance; release. HTML drag and drop, pointer-driven sortable
    lists, sliders and resize corners all see what they see from a person. Only the press
    waits for its element to take the pointer; at the drop, what lies under the pointer may
    be the page's own drag preview, drawn there by the drag itself."""
    pressed = _element(element, gesture)
    if gesture.by is not None:
        await pressed.scroll_into_view_if_needed(timeout=timeout)
        x, y = await pressed.evaluate(_GRIP)
        await _move_by_hand(page, (x, y), (x + gesture.by[0], y + gesture.by[1]), timeout)
        return
    if not gesture.target:
        raise UsageError("drag needs an element to drop onto, or --by a distance")
    target = page.locator(gesture.target)
    if await target.count() == 0:
        raise NotFoundError("the element to drop onto is no longer on the page")
    await target.first.scroll_into_view_if_needed(timeout=timeout)
    await pressed.hover(timeout=timeout)
    start, box = await pressed.bounding_box(timeout=timeout), await target.first.bounding_box(timeout=timeout)
    if start is None or box is None:
        raise NotFoundError("the element to drop onto has no place on the page")
    x0, y0 = start["x"] + start["width"] / 2, start["y"] + start["height"] / 2
    x1, y1 = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
    end = (x1 + _sign(x1 - x0) * box["width"] * PAST_CENTRE,
           y1 + _sign(y1 - y0) * box["height"] * PAST_CENTRE)
    await _move_by_hand(page, (x0, y0), end, timeout)


async def scroll(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """up/down: a wheel turn over the element (or the page); top/bottom: to that end; no
    direction: bring the element into view."""
    where = gesture.scroll
    if element is not None and not where:
        await element.scroll_into_view_if_needed(timeout=timeout)
        return
    if where in ("top", "bottom"):
        if element is None:
            await page.evaluate(_SCROLL_PAGE, where)
        else:
            await element.evaluate(_SCROLL_ELEMENT, where)
        return
    if element is not None:
        await element.hover(timeout=timeout)
    viewport = page.viewport_size or {"height": DEFAULT_VIEWPORT_HEIGHT}
    step = viewport["height"] * WHEEL_SHARE
    async with operations.raw_input(timeout, "a wheel turn"):
        await page.mouse.wheel(0, -step if where == "up" else step)


async def upload(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    try:
        await _element(element, gesture).set_input_files(list(gesture.files), timeout=timeout)
    except PlaywrightError as error:
        if "Non-multiple file input" in str(error):
            raise UsageError("the field takes one file") from None
        if "Node is not an HTMLInputElement" in str(error) or "not a file input" in str(error):
            raise UsageError("the element is not a file field") from None
        raise


_HAS_HISTORY = "() => history.length > 1"


async def back(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Playwright answers None both with no history and for a same-document step (an app's
    pushState): only the first is an error."""
    went = await page.go_back(wait_until="commit", timeout=timeout)
    if went is None and not await page.evaluate(_HAS_HISTORY):
        raise UsageError("there is no earlier page in this tab's history")


async def forward(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    went = await page.go_forward(wait_until="commit", timeout=timeout)
    if went is None and not await page.evaluate(_HAS_HISTORY):
        raise UsageError("there is no later page in this tab's history")


GESTURES: dict[str, GestureRun] = {
    "click": click,
    "dblclick": double_click,
    "rightclick": right_click,
    "hover": hover,
    "highlight": highlight,
    "focus": focus,
    "press": press,
    "drag": drag,
    "scroll": scroll,
    "upload": upload,
    "back": back,
    "forward": forward,
}

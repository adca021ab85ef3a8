"""Gestures: what a person does with a mouse and keyboard besides the action's own operation.

Each takes the tab's page, the element's locator (None for a gesture on the whole page), the
Gesture record and a timeout in milliseconds. They act through Playwright's input events —
real mouse moves, clicks and key presses — so the page's own handlers decide what happens, as
they would for a person. A gesture that makes no sense as asked (a drag onto nothing, back with
no history) raises UsageError or NotFoundError before or instead of acting.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator, Page

from webshellfs.browser.records import Gesture
from webshellfs.errors import NotFoundError, UsageError

GestureRun = Callable[[Page, "Locator | None", Gesture, float], Awaitable[None]]

# A wheel turn scrolls this share of the viewport, as a person's page-sized flick does.
WHEEL_SHARE = 0.9
DEFAULT_VIEWPORT_HEIGHT = 720
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


async def double_click(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    await _element(element, gesture).dblclick(timeout=timeout)


async def right_click(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    await _element(element, gesture).click(button="right", timeout=timeout)


async def hover(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    await _element(element, gesture).hover(timeout=timeout)


async def focus(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    await _element(element, gesture).focus(timeout=timeout)


async def press(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Keys on the element (focused first, as a click would), or on whatever has focus."""
    for key in gesture.keys:
        if element is None:
            await page.keyboard.press(key)
        else:
            await element.press(key, timeout=timeout)


# Mouse moves on the way from the pressed element to the drop: enough for pages that follow
# the pointer (a sortable list, a calendar drawing the new event under it).
DRAG_STEPS = 8


async def drag(page: Page, element: Locator | None, gesture: Gesture, timeout: float) -> None:
    """Press the mouse on the element, move onto the target, release: HTML drag and drop
    and pointer-driven sortable lists both see what they see from a person. Only the press
    waits for its element to take the pointer; at the drop, what lies under the pointer may
    be the page's own drag preview, drawn there by the drag itself."""
    if not gesture.target:
        raise UsageError("drag needs an element to drop onto")
    target = page.locator(gesture.target)
    if await target.count() == 0:
        raise NotFoundError("the element to drop onto is no longer on the page")
    await _element(element, gesture).hover(timeout=timeout)
    await page.mouse.down()
    await target.first.scroll_into_view_if_needed(timeout=timeout)
    box = await target.first.bounding_box(timeout=timeout)
    if box is None:
        await page.mouse.up()
        raise NotFoundError("the element to drop onto has no place on the page")
    await page.mouse.move(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2,
                          steps=DRAG_STEPS)
    await page.mouse.up()


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
    "dblclick": double_click,
    "rightclick": right_click,
    "hover": hover,
    "focus": focus,
    "press": press,
    "drag": drag,
    "scroll": scroll,
    "upload": upload,
    "back": back,
    "forward": forward,
}
# Gestures that act on the tab as a whole and take no element.
PAGE_GESTURES = frozenset({"back", "forward"})
# Gestures that may take an element or none.
EITHER_GESTURES = frozenset({"press", "scroll"})

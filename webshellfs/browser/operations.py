"""What `execute` does to one element, by operation name (the compiled action's kind).

Each operation takes the element's Playwright locator, the user's name=value inputs and a
timeout in milliseconds. Wrong inputs (an option that does not exist, a field the form lacks)
raise UsageError with the valid choices; nothing has been done at that point for single
controls, and for forms the checks run before the first field is touched.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from typing import Any

from playwright.async_api import Error as PlaywrightError
from playwright.async_api import Locator

from webshellfs.compiler.builder import LOCATOR_ATTRIBUTE
from webshellfs.errors import NotFoundError, UsageError

Operation = Callable[[Locator, Mapping[str, str], float], Awaitable[None]]

_FALSE_WORDS = ("", "0", "false", "off", "no", "unchecked")

# Finds the choice a user meant, by value first, then by visible label (case-insensitive):
# an option of a <select>, a radio of the element's group, or an ARIA option/radio inside a
# list box or radio group. Answers {value} for a select, {target, check} for the element to
# click or check, {click} for an element with no choices of its own, or {choices} if none fits.
_PICK = """
(el, wanted) => {
  const ID = '__LOCATOR__';
  const norm = (s) => (s || '').replace(/\\s+/g, ' ').trim();
  const same = (a, b) => norm(a).toLowerCase() === norm(b).toLowerCase();
  const choose = (items, valueOf, labelOf) =>
    items.find((i) => valueOf(i) === wanted) || items.find((i) => same(labelOf(i), wanted));
  const listed = (items, valueOf, labelOf) =>
    ({ choices: items.map((i) => valueOf(i) + '=' + norm(labelOf(i)).toLowerCase()) });
  if (el.localName === 'select') {
    const options = Array.from(el.options);
    const label = (o) => o.label || o.text;
    const found = choose(options, (o) => o.value, label);
    return found ? { value: found.value } : listed(options, (o) => o.value, label);
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
    items = Array.from(el.querySelectorAll('[role=option], [role=radio], [role=menuitemradio]'));
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


async def option_value(select: Locator, wanted: str) -> str:
    picked = await _pick(select, wanted)
    if "value" in picked:
        return str(picked["value"])
    raise UsageError(f"no option {wanted!r}; choices: {' | '.join(picked.get('choices', []))}")


async def click(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    await element.click(timeout=timeout)


async def fill(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    await element.fill(single_value(values, "fill"), timeout=timeout)


async def enter(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    """Type into a search field (if a value is given) and press Enter."""
    if values:
        await element.fill(single_value(values, "enter"), timeout=timeout)
    await element.press("Enter", timeout=timeout)


async def select(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    """Choose by value or label: in a <select>, a radio group, or an ARIA list box; an
    option element on its own (no value given) is simply clicked."""
    if not values:
        await element.click(timeout=timeout)
        return
    wanted = single_value(values, "select")
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
    else:
        raise UsageError(f"no choice {wanted!r}; choices: {' | '.join(picked['choices'])}")


async def check(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    wanted = True if not values else single_value(values, "check").lower() not in _FALSE_WORDS
    await _set_checked(element, wanted, timeout)


async def _set_checked(element: Locator, wanted: bool, timeout: float) -> None:
    """Native and ARIA checkboxes through Playwright; other checkable roles (menu items) by a
    click when their aria-checked state differs."""
    try:
        await element.set_checked(wanted, timeout=timeout)
    except PlaywrightError as error:
        if "Not a checkbox or radio button" not in str(error):
            raise
        if (await element.get_attribute("aria-checked") == "true") != wanted:
            await element.click(timeout=timeout)


async def uncheck(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    await _set_checked(element, False, timeout)


async def follow(element: Locator, values: Mapping[str, str], timeout: float) -> None:
    """Follow a link in the same tab, even one that asks for a new window."""
    await element.evaluate("(a) => a.removeAttribute('target')")
    await element.click(timeout=timeout)


async def submit(form: Locator, values: Mapping[str, str], timeout: float) -> None:
    """Fill every named field in one step, then submit the form with its own button."""
    steps = [await _field_step(form, name, value, timeout) for name, value in values.items()]
    for step in steps:
        await step()
    submitters = form.locator(_SUBMITTERS)
    for index in range(await submitters.count()):
        button = submitters.nth(index)
        if await button.is_visible():
            await button.click(timeout=timeout)
            return
    await form.evaluate(_REQUEST_SUBMIT)


async def _field_step(
    form: Locator, name: str, value: str, timeout: float
) -> Callable[[], Awaitable[None]]:
    """Check one name=value against the form and return the step that applies it."""
    fields = form.locator(attribute_selector("name", name))
    if await fields.count() == 0:
        names = await form.evaluate(
            "(f) => Array.from(f.elements).map((e) => e.name).filter((n) => n)"
        )
        known = ", ".join(dict.fromkeys(names)) or "none"
        raise UsageError(f"the form has no field {name!r}; its fields: {known}")
    first = fields.first
    tag, kind = await first.evaluate(_DESCRIBE_FIELD)
    if kind == "radio":
        radio = form.locator(attribute_selector("name", name) + attribute_selector("value", value))
        if await radio.count() == 0:
            choices = await fields.evaluate_all("(rs) => rs.map((r) => r.value)")
            raise UsageError(f"no choice {value!r} for {name}; choices: {' | '.join(choices)}")
        return lambda: radio.first.check(timeout=timeout)
    if kind == "checkbox":
        wanted = value.lower() not in _FALSE_WORDS
        return lambda: first.set_checked(wanted, timeout=timeout)
    if tag == "select":
        option = await option_value(first, value)
        return lambda: _select(first, option, timeout)
    return lambda: first.fill(value, timeout=timeout)


async def _select(element: Locator, value: str, timeout: float) -> None:
    await element.select_option(value=value, timeout=timeout)


OPERATIONS: dict[str, Operation] = {
    "click": click,
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
}

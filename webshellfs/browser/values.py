"""Values as people write them, turned into what a typed field takes.

A date field takes `2010-01-26` from a script, yet the page shows `01/26/2010` and a person
types that; a time field shows `1:28 PM` and takes `13:28`. `field_value` accepts the forms a
person would write and gives the field's own form, or raises UsageError naming the forms it
takes — never a value dropped in silence.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from webshellfs.errors import UsageError

_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})$")
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})$")
_DOTTED_DATE = re.compile(r"^(\d{1,2})\.(\d{1,2})\.(\d{4})$")
_TIME = re.compile(r"^(\d{1,2}):(\d{2})(?::(\d{2}))?\s*([AaPp][Mm])?$")
_MONTH = re.compile(r"^(?:(\d{4})-(\d{1,2})|(\d{1,2})/(\d{4}))$")


def _date(value: str) -> str:
    text = value.strip()
    if found := _ISO_DATE.match(text):
        year, month, day = found.groups()
    elif found := _US_DATE.match(text):
        month, day, year = found.groups()
    elif found := _DOTTED_DATE.match(text):
        day, month, year = found.groups()
    else:
        raise UsageError(f"{value!r} is not a date; write 2010-01-26, 01/26/2010 or 26.01.2010")
    if not (1 <= int(month) <= 12 and 1 <= int(day) <= 31):
        raise UsageError(f"{value!r} is not a date (month 1-12, day 1-31)")
    return f"{int(year):04d}-{int(month):02d}-{int(day):02d}"


def _time(value: str) -> str:
    found = _TIME.match(value.strip())
    if found is None:
        raise UsageError(f"{value!r} is not a time; write 13:28, 1:28 PM or 13:28:05")
    hours, minutes, seconds, half = found.groups()
    hour = int(hours)
    if half:
        if not 1 <= hour <= 12:
            raise UsageError(f"{value!r} is not a time: with AM/PM the hour is 1-12")
        hour = hour % 12 + (12 if half.lower() == "pm" else 0)
    if hour > 23 or int(minutes) > 59 or (seconds is not None and int(seconds) > 59):
        raise UsageError(f"{value!r} is not a time of day")
    return f"{hour:02d}:{minutes}" + (f":{seconds}" if seconds is not None else "")


def _datetime(value: str) -> str:
    date, _, time = value.strip().replace("T", " ").partition(" ")
    if not time:
        raise UsageError(f"{value!r} needs a date and a time, e.g. 2010-01-26 13:28")
    return f"{_date(date)}T{_time(time.strip())}"


def _month(value: str) -> str:
    found = _MONTH.match(value.strip())
    if found is None:
        raise UsageError(f"{value!r} is not a month; write 2010-01 or 01/2010")
    year, month = (found.group(1), found.group(2)) if found.group(1) else (found.group(4),
                                                                          found.group(3))
    if not 1 <= int(month) <= 12:
        raise UsageError(f"{value!r} is not a month (1-12)")
    return f"{int(year):04d}-{int(month):02d}"


FORMS: dict[str, Callable[[str], str]] = {
    "date": _date,
    "time": _time,
    "datetime-local": _datetime,
    "month": _month,
}


def field_value(kind: str, value: str) -> str:
    """The value in the form a field of this input type takes (as given for other types)."""
    form = FORMS.get(kind)
    return form(value) if form is not None else value


def number_in_range(value: str, low: str, high: str) -> float:
    """The number a range or number field is set to; UsageError with the range when it is not
    a number or lies outside min..max."""
    try:
        number = float(value)
    except ValueError:
        raise UsageError(f"{value!r} is not a number") from None
    if (low and number < float(low)) or (high and number > float(high)):
        raise UsageError(f"{value} is outside the field's range {low or '…'}..{high or '…'}")
    return number

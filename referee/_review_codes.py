"""The codes in a review's keyed parts: why the evidence is weak, and which event decides.

Theory of operation. A review's parts (``Verdict.review_parts``, ``referee._reason``)
carry two fields their readers decode, each a code ``name:field=value:...`` (values
hold no ``:`` or ``=``; a free text is the one field of ``text`` and
``low_confidence`` and runs to the end):

* ``doubt``: why the evidence is weak. Vision and the live loop write their doubts as
  English sentences (``Event.doubt``, ``Shot.doubt``); :func:`doubt_code` reads each
  one it knows (:data:`DOUBT_ENGLISH`, the templates of those writers) into its code,
  any other into ``text:<the sentence>``, and :func:`doubt_english` gives the sentence
  back, the same to the character. A reader translates ``doubt.<name>`` with the
  fields: ball and cushion names, numbers as written in English (``1.2``, ``0.25``),
  ``gaps`` as ``a-b`` names (balls and cushions) joined with ``, ``.
* ``event``: the event whose time or existence decides the call (:func:`event_code`,
  said as :func:`referee.describe` says it).
"""

from __future__ import annotations

import re
import string

from referee._errors import RulesError
from referee._events import (
    BallContact,
    Call,
    CushionContact,
    Event,
    OffTable,
    PinDown,
    Pocketed,
    describe,
)
from referee._names import Ball, Cushion, Foul, Pin, Pocket

__all__ = [
    "DOUBT_ENGLISH",
    "EVENT_ENGLISH",
    "doubt_code",
    "doubt_english",
    "event_code",
    "event_english",
    "review_code",
    "time_doubt",
]

#: The doubts vision and the live loop write, by name (``doubt.<name>`` in catalogues).
DOUBT_ENGLISH: dict[str, str] = {
    "time": "time uncertain by ±{ms} ms",
    "video_ended": "the video ended before every ball stopped",
    "camera_lost": "the camera was lost during the shot",
    "still_rolling": (
        "balls still rolling after the shot closed came to touch ({gaps}): "
        "a contact the shot may have missed"
    ),
    "hidden": "ball hidden at the contact",
    "weak_bounce": "weak bounce, may not have touched",
    "too_close": "balls too close to tell",
    "off_away": "vanished away from the rails",
    "cue_unseen": "cue ball not seen at the stroke: the {ball} named from a doubtful contact",
    "graze": (
        "{ball} was {gap_mm} mm from the {cushion} cushion when it met the other ball: "
        "a touch just before cannot be ruled out"
    ),
    "near_miss": "{ball} and {other} passed {gap_mm} mm apart: a thin contact cannot be ruled out",
    "gap_guessed": (
        "unseen {unseen_s} s; went towards the {cushion} cushion and came away from it: "
        "the contact guessed"
    ),
    "other_way": (
        "unseen {unseen_s} s from its rest; a way through {n} cushions fits too, "
        "this one among them"
    ),
    "low_confidence": "low confidence: {text}",
    "text": "{text}",
}

#: How an event is said, by its code's name (``review_event.<name>`` in catalogues).
EVENT_ENGLISH: dict[str, str] = {
    "ball": "{first}-{second} contact at {t_s} s",
    "cushion": "{ball} on the {cushion} cushion at {t_s} s",
    "pin": "{pin} pin down by {ball} at {t_s} s",
    "pin_by_pin": "{pin} pin down by a pin at {t_s} s",
    "off": "{ball} off the table at {t_s} s",
    "pocket": "{ball} in the {pocket} pocket at {t_s} s",
    "call": "call {foul} at {t_s} s",
}

_TEXT_FIELD = "text"
_BALLS = "|".join(sorted((re.escape(b.value) for b in Ball), key=len, reverse=True))
_SIDES = "|".join(c.value for c in Cushion)
_GAP_NAME = f"(?:{_BALLS}|{_SIDES})-(?:{_BALLS}|{_SIDES})"
_PATTERNS = {
    "ball": _BALLS,
    "other": _BALLS,
    "cushion": _SIDES,
    "gaps": f"{_GAP_NAME}(?:, {_GAP_NAME})*",
    "text": ".+",
}
_NUMBER = r"[0-9]+(?:\.[0-9]+)?"


def _fields_of(template: str) -> list[str]:
    return [f for _, f, _, _ in string.Formatter().parse(template) if f]


def _regex(template: str) -> re.Pattern[str]:
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name:
            out.append(f"(?P<{name}>{_PATTERNS.get(name, _NUMBER)})")
    return re.compile("".join(out), re.DOTALL)


_REGEXES = {name: _regex(t) for name, t in DOUBT_ENGLISH.items() if name != "text"}


def _code(name: str, fields: dict[str, str]) -> str:
    if name in ("text", "low_confidence"):
        return f"{name}:{fields[_TEXT_FIELD]}"
    return ":".join([name, *(f"{k}={v}" for k, v in fields.items())])


def _decode(code: str, known: dict[str, str], what: str) -> tuple[str, dict[str, str]]:
    """``(name, fields)`` of a code; RulesError for an unknown name or missing fields."""
    name, _, rest = code.partition(":")
    if name not in known:
        raise RulesError(f"review {what} {code!r}: unknown name {name!r}")
    if name in ("text", "low_confidence"):
        fields = {_TEXT_FIELD: rest}
    else:
        pairs = [p.partition("=") for p in rest.split(":")] if rest else []
        fields = {k: v for k, _, v in pairs}
    if set(fields) != set(_fields_of(known[name])):
        raise RulesError(f"review {what} {code!r}: fields {sorted(fields)} do not fit {name!r}")
    return name, fields


def doubt_code(text: str) -> str:
    """The code of a doubt sentence: its template's name and fields, else ``text:...``."""
    for name, regex in _REGEXES.items():
        found = regex.fullmatch(text)
        if found is not None:
            return _code(name, found.groupdict())
    return _code("text", {_TEXT_FIELD: text})


def doubt_english(code: str) -> str:
    """The English sentence of a doubt's code (:func:`doubt_code` inverted)."""
    name, fields = _decode(code, DOUBT_ENGLISH, "doubt")
    return DOUBT_ENGLISH[name].format_map(fields)


def time_doubt(t_err_s: float) -> str:
    """The code of "time uncertain by ±N ms"."""
    return _code("time", {"ms": f"{t_err_s * 1000:.0f}"})


def event_code(event: Event) -> str:
    """The code of ``event`` (its kind, names and time at 1 ms), said as :func:`describe`."""
    t_s = f"{event.t_s:.3f}"
    match event:
        case BallContact(balls=(a, b)):
            return _code("ball", {"first": a, "second": b, "t_s": t_s})
        case CushionContact(ball=ball, cushion=cushion):
            return _code("cushion", {"ball": ball, "cushion": cushion, "t_s": t_s})
        case PinDown(pin=pin, ball=None):
            return _code("pin_by_pin", {"pin": pin, "t_s": t_s})
        case PinDown(pin=pin, ball=ball):
            return _code("pin", {"pin": pin, "ball": str(ball), "t_s": t_s})
        case OffTable(ball=ball):
            return _code("off", {"ball": ball, "t_s": t_s})
        case Pocketed(ball=ball, pocket=pocket):
            return _code("pocket", {"ball": ball, "pocket": pocket, "t_s": t_s})
        case Call(foul=foul):
            return _code("call", {"foul": foul, "t_s": t_s})
    raise RulesError(f"no review code for {describe(event)}")


_NAMES: dict[str, frozenset[str]] = {
    "first": frozenset(Ball),
    "second": frozenset(Ball),
    "ball": frozenset(Ball),
    "cushion": frozenset(Cushion),
    "pin": frozenset(Pin),
    "pocket": frozenset(Pocket),
    "foul": frozenset(Foul),
}


def event_english(code: str) -> str:
    """The English of an event's code (as :func:`referee.describe` says the event)."""
    name, fields = _decode(code, EVENT_ENGLISH, "event")
    for field, value in fields.items():
        if field in _NAMES and value not in _NAMES[field]:
            raise RulesError(f"review event {code!r}: {field} {value!r} unknown")
    return EVENT_ENGLISH[name].format_map(fields)


def review_code(field: str, code: str) -> tuple[str, dict[str, str]]:
    """The name and fields of a review part's ``doubt`` or ``event`` code, for its readers.

    RulesError for a malformed code or another field.
    """
    if field == "doubt":
        doubt_english(code)
        return _decode(code, DOUBT_ENGLISH, field)
    if field == "event":
        event_english(code)
        return _decode(code, EVENT_ENGLISH, field)
    raise RulesError(f"review field {field!r} holds no code")

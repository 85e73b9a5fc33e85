"""Typed reading of decoded JSON with errors that name the field ("shots[2].events[0].t_s").

Public: the shot-log reader uses it, and so do the app's readers of other documents
(the match file), so that every refusal reads the same way.
"""

from __future__ import annotations

import math
import unicodedata
from collections.abc import Mapping
from enum import StrEnum
from typing import Any, TypeVar

from referee._errors import ShotLogError

__all__ = [
    "Obj",
    "ask_bool",
    "ask_enum",
    "ask_int",
    "ask_list",
    "ask_num",
    "ask_obj",
    "ask_str",
    "nfc",
    "show",
]

E = TypeVar("E", bound=StrEnum)
_MISSING = object()


class Obj:
    """A JSON object being read; remembers its path and refuses unknown fields."""

    def __init__(self, data: Any, where: str, allowed: set[str] | None = None) -> None:
        if not isinstance(data, Mapping):
            raise ShotLogError(f"{where or 'document'}: expected an object, got {_kind(data)}")
        self.data, self.where = data, where
        if allowed is not None:
            extra = sorted(set(data) - allowed)
            if extra:
                raise ShotLogError(
                    f"{self.at(extra[0])}: unknown field (allowed: {', '.join(sorted(allowed))})"
                )

    def at(self, key: str) -> str:
        """Path of a member; a key with control characters is quoted to keep one line."""
        shown = key if key.isprintable() else repr(key)
        return f"{self.where}.{shown}" if self.where else shown

    def get(self, key: str, default: Any = _MISSING) -> Any:
        """A member; a missing member without default is an error."""
        if key in self.data:
            return self.data[key]
        if default is _MISSING:
            raise ShotLogError(f"{self.at(key)}: required field is missing")
        return default


def _kind(value: Any) -> str:
    return {dict: "an object", list: "a list", str: "a string", bool: "true/false"}.get(
        type(value), "null" if value is None else f"{type(value).__name__} {show(value)}"
    )


def show(value: Any, limit: int = 40) -> str:
    """A short one-line repr (huge ints have no repr, long strings are cut)."""
    try:
        text = repr(value)
    except ValueError:
        return "<a huge number>"
    return text if len(text) <= limit else text[: limit - 3] + "..."


def ask_num(value: Any, where: str, *, lo: float | None = None, hi: float | None = None) -> float:
    """A finite number (not a bool), at least ``lo`` and at most ``hi``."""
    if isinstance(value, bool) or not isinstance(value, int | float):
        raise ShotLogError(f"{where}: expected a number, got {_kind(value)}")
    try:
        finite = math.isfinite(value)
    except OverflowError:  # an int beyond float range
        finite = False
    if not finite:
        raise ShotLogError(f"{where}: expected a finite number, got {_kind(value)}")
    if lo is not None and value < lo:
        raise ShotLogError(f"{where}: must be at least {lo:g}, got {value:g}")
    if hi is not None and value > hi:
        raise ShotLogError(f"{where}: must be at most {hi:g}, got {value:g}")
    return float(value)


def ask_int(value: Any, where: str, *, lo: int | None = None, hi: int | None = None) -> int:
    """A whole number, at least ``lo`` and at most ``hi``."""
    if isinstance(value, bool) or not isinstance(value, int):
        raise ShotLogError(f"{where}: expected a whole number, got {_kind(value)}")
    if lo is not None and value < lo:
        raise ShotLogError(f"{where}: must be at least {lo}, got {value}")
    if hi is not None and value > hi:
        raise ShotLogError(f"{where}: must be at most {hi}, got {value}")
    return value


def ask_str(value: Any, where: str) -> str:
    """A non-empty string."""
    if not isinstance(value, str) or not value:
        got = "an empty string" if value == "" else _kind(value)
        raise ShotLogError(f"{where}: expected a non-empty string, got {got}")
    return value


def ask_bool(value: Any, where: str) -> bool:
    """A JSON true or false."""
    if not isinstance(value, bool):
        raise ShotLogError(f"{where}: expected true or false, got {_kind(value)}")
    return value


def ask_list(value: Any, where: str) -> list[Any]:
    """A JSON list."""
    if not isinstance(value, list):
        raise ShotLogError(f"{where}: expected a list, got {_kind(value)}")
    return value


def ask_obj(value: Any, where: str) -> Mapping[str, Any]:
    """A JSON object."""
    return Obj(value, where).data


def ask_enum(enum: type[E], value: Any, where: str) -> E:
    """One of an enum's values, with the choices in the error."""
    try:
        return enum(value)
    except ValueError:
        choices = ", ".join(e.value for e in enum)
        raise ShotLogError(
            f"{where}: unknown name {show(value)} (expected one of: {choices})"
        ) from None


def nfc(value: Any) -> Any:
    """``value`` (decoded JSON) with every text in Unicode's composed form (NFC).

    Names typed or saved in decomposed form (``e`` and a combining accent, as some
    systems' file names) are the same player as composed ones: ``carom stats`` counted
    a log's ``Zoë`` of each form as two players.
    """
    if isinstance(value, str):
        return unicodedata.normalize("NFC", value)
    if isinstance(value, dict):
        return {nfc(k): nfc(v) for k, v in value.items()}
    if isinstance(value, list):
        return [nfc(v) for v in value]
    return value

"""A dict that refuses every change: the mappings inside the frozen domain values.

A frozen dataclass refuses ``config.target = ...`` but not ``config.target["A"] = 5``:
a plain dict inside it could be changed after the match took it, and the match would
go on with another target than it was given. Each mapping field is copied into a
``FrozenDict`` when the value is made (so changing the caller's own dict later changes
nothing either). It is a ``dict`` for everything that reads one (``json``, ``==``,
``isinstance``), pickles (the batch's worker processes) and copies as one.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NoReturn, TypeVar

__all__ = ["FrozenDict", "freeze_fields"]

K = TypeVar("K")
V = TypeVar("V")


class FrozenDict(dict[K, V]):
    """A read-only ``dict``: every change raises ``TypeError`` and changes nothing."""

    __slots__ = ()

    def _refuse(self) -> NoReturn:
        raise TypeError(
            "this mapping is part of a frozen value and cannot be changed: "
            "make a new value (dataclasses.replace) with a new mapping"
        )

    def __setitem__(self, key: K, value: V) -> NoReturn:
        self._refuse()

    def __delitem__(self, key: K) -> NoReturn:
        self._refuse()

    def __ior__(self, other: Any) -> NoReturn:  # type: ignore[misc]
        self._refuse()

    def clear(self) -> NoReturn:
        self._refuse()

    def pop(self, *args: Any) -> NoReturn:
        self._refuse()

    def popitem(self) -> NoReturn:
        self._refuse()

    def setdefault(self, *args: Any) -> NoReturn:
        self._refuse()

    def update(self, *args: Any, **kwargs: Any) -> NoReturn:
        self._refuse()

    def __reduce__(self) -> tuple[type[FrozenDict[K, V]], tuple[dict[K, V]]]:
        return (type(self), (dict(self),))


def freeze_fields(value: object, *names: str) -> None:
    """Replace the mapping fields ``names`` of the frozen dataclass ``value`` by copies.

    Called in its ``__post_init__``; a field that is not a mapping is left for the
    value's own checks to name.
    """
    for name in names:
        field_value = getattr(value, name)
        if isinstance(field_value, Mapping) and not isinstance(field_value, FrozenDict):
            object.__setattr__(value, name, FrozenDict(field_value))

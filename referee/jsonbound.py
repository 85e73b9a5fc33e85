"""Bounded decoding of the documents the project reads: JSON (and TOML) with limits.

Theory of operation. Every loader (the shot log, the match file, the calibration file)
reads its file itself (the referee reads no file) and hands the bytes here, after
:meth:`DocumentLimits.check_size` refused a file too big from its ``stat`` size, before
reading it. :func:`decode_document` then

1. refuses more than ``max_bytes`` (the file may have grown since the ``stat``);
2. decodes UTF-8;
3. measures the nesting without recursion (one regular-expression pass that skips
   strings and comments and counts brackets) and refuses more than ``max_depth``
   levels: the decoders recurse, and 100,000 levels would be a RecursionError;
4. decodes, with every number checked as it is read: at most ``max_digits`` digits
   (a 5,000-digit integer would be a ValueError from Python's int conversion limit,
   a 30-digit one is already meaningless in any of our fields). NaN and infinities
   pass here (Python writes them); each schema says where it wants finite numbers.
   A key given twice in one JSON object is refused (``json.loads`` would keep the
   last without a word; TOML refuses it itself). A leading byte-order mark, which
   some editors write, is read past.

Every refusal is one line, raised as the loader's own error class (a
:class:`referee.CaromError`): ``SOURCE: PROBLEM; FIX``.
"""

from __future__ import annotations

import itertools
import json
import re
import sys
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from referee._errors import CaromError

__all__ = [
    "MAX_DEPTH",
    "MAX_DIGITS",
    "DocumentLimits",
    "RepeatedKey",
    "decode_document",
    "unique_keys",
]

#: Nesting levels any of our documents may have (the deepest real one has 6).
MAX_DEPTH = 64
#: Digits a number may have (sign, point and exponent not counted).
MAX_DIGITS = 30

# Strings (JSON and TOML, one-line and multi-line) and TOML comments are skipped whole;
# what is left of interest are the brackets.
_SKIP = re.compile(
    r'"""[\s\S]*?"""|\'\'\'[\s\S]*?\'\'\'|"(?:[^"\\\n]|\\.)*+"|\'[^\'\n]*+\'|#[^\n]*+'
)
_BRACKETS = re.compile(r"[\[\]{}]")
_DIGIT = re.compile(r"\d")


class RepeatedKey(Exception):
    """A key given twice in one JSON object (:func:`unique_keys`); the loader words it."""

    @classmethod
    def of(cls, key: str) -> RepeatedKey:
        """The refusal of ``key`` given twice, in the words every reader uses."""
        shown = json.dumps(key, ensure_ascii=False)[:60]
        return cls(f"the key {shown} is given twice in one object")


class _TooLong(Exception):
    """A number with more digits than allowed (caught below, never escapes)."""


@dataclass(frozen=True, slots=True)
class DocumentLimits:
    """How big a document of one kind may be.

    Args:
        max_bytes: File size limit, bytes.
        max_depth: Nesting levels (lists and objects) allowed.
        max_digits: Digits a number may have.
    """

    max_bytes: int
    max_depth: int = MAX_DEPTH
    max_digits: int = MAX_DIGITS

    def check_size(self, size_bytes: int, source: str, error: type[CaromError], fix: str) -> None:
        """Refuse a file of ``size_bytes`` over :attr:`max_bytes` (call it before reading)."""
        if size_bytes > self.max_bytes:
            raise error(
                f"{source}: the file is {_size(size_bytes)}, more than the {_size(self.max_bytes)} "
                f"such a file may have; {fix}"
            )


def _size(n_bytes: int) -> str:
    if n_bytes >= 1 << 20:
        return f"{n_bytes / (1 << 20):.1f} MB"
    return f"{n_bytes / 1024:.1f} kB" if n_bytes >= 1024 else f"{n_bytes} bytes"


def decode_document(
    raw: bytes,
    source: str,
    limits: DocumentLimits,
    error: type[CaromError],
    fix: str,
    *,
    toml: bool = False,
) -> Any:
    """Decode ``raw`` (UTF-8 JSON, or TOML) within ``limits`` (module docstring).

    Args:
        raw: The file's bytes.
        source: How the file is named in messages (``calibration file a.json``).
        limits: The limits of this kind of file.
        error: The loader's error class.
        fix: The way out, said at the end of every refusal.
        toml: TOML instead of JSON.

    Raises:
        CaromError: (``error``) one line: the file, the problem, ``fix``.
    """
    limits.check_size(len(raw), source, error, fix)
    try:
        text = raw.decode("utf-8").removeprefix("\ufeff")
    except UnicodeDecodeError as exc:
        line = raw.count(b"\n", 0, exc.start) + 1
        where = f"0x{raw[exc.start]:02x} at byte {exc.start}, line {line}"
        raise error(f"{source}: not UTF-8 text ({where}); {fix}") from None
    depth = nesting(text)
    if depth > limits.max_depth:
        raise error(
            f"{source}: nested {depth} levels deep, more than the {limits.max_depth} allowed; {fix}"
        )
    try:
        return _decode(text, limits.max_digits, toml)
    except RepeatedKey as exc:
        raise error(f"{source}: {exc}; {fix}") from None
    except _TooLong as exc:
        raise error(
            f"{source}: a number has more than {limits.max_digits} digits ({exc}); {fix}"
        ) from None
    except json.JSONDecodeError as exc:
        where = f"line {exc.lineno} column {exc.colno}"
        raise error(f"{source}: not valid JSON ({where}: {exc.msg}); {fix}") from None
    except RecursionError:  # not reached: the nesting was measured above (kept as a guard)
        raise error(f"{source}: nested too deeply to read; {fix}") from None
    except (tomllib.TOMLDecodeError, ValueError) as exc:
        kind = "TOML" if toml else "JSON"
        raise error(f"{source}: not valid {kind}: {_one_line(exc)}; {fix}") from None


def nesting(text: str) -> int:
    """How deeply lists and objects nest in JSON or TOML ``text`` (no recursion)."""
    bare = _SKIP.sub("", text)
    steps = (1 if b in "[{" else -1 for b in _BRACKETS.findall(bare))
    return max(itertools.accumulate(steps), default=0)


def _decode(text: str, max_digits: int, toml: bool) -> Any:
    def number(token: str, make: Callable[[str], Any]) -> Any:
        digits = len(_DIGIT.findall(token)) if len(token) > max_digits else 0
        if digits > max_digits:
            raise _TooLong(f"{token[:12]}... {digits} digits")
        return make(token)

    def as_int(token: str) -> Any:
        return number(token, int)

    def as_float(token: str) -> Any:
        return number(token, float)

    if not toml:
        return json.loads(
            text, parse_int=as_int, parse_float=as_float, object_pairs_hook=unique_keys
        )
    try:
        data = tomllib.loads(text, parse_float=as_float)
    except ValueError as exc:  # an integer longer than Python reads at all (4300 digits)
        if isinstance(exc, tomllib.TOMLDecodeError) or "integer string" not in str(exc):
            raise
        raise _TooLong(f"an integer of over {sys.get_int_max_str_digits()} digits") from None
    _check_toml_ints(data, max_digits)
    return data


def unique_keys(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """A JSON object as a dict (``object_pairs_hook``); :class:`RepeatedKey` for a key twice."""
    obj = dict(pairs)
    if len(obj) < len(pairs):
        seen: set[str] = set()
        for key, _ in pairs:
            if key in seen:
                raise RepeatedKey.of(key)
            seen.add(key)
    return obj


def _check_toml_ints(data: Any, max_digits: int) -> None:
    """Refuse a big integer in TOML ``data`` (tomllib has no integer hook): no recursion."""
    todo = [data]
    while todo:
        item = todo.pop()
        if isinstance(item, dict):
            todo.extend(item.values())
        elif isinstance(item, list):
            todo.extend(item)
        elif isinstance(item, int) and item.bit_length() > max_digits * 3.33:
            raise _TooLong(f"an integer of about {int(item.bit_length() / 3.32)} digits")


def _one_line(exc: Exception) -> str:
    return " ".join(str(exc).split())[:200]

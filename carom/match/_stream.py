"""Scoring a shot log as a stream: one shot in memory at a time, whatever the log's length.

Theory of operation. A ``carom-shots/1`` log is one JSON object whose ``shots`` array
is nearly all of the file. :class:`_Scanner` reads the file in chunks and decodes one
value at a time with :meth:`json.JSONDecoder.raw_decode`; :func:`_members` walks the
top object and yields its members, the ``shots`` array element by element. Two passes:

1. *check*: the whole file's syntax, every shot's nesting and digits (the limits of
   :data:`carom.match._read_bounded.SHOT_LOG_LIMITS`); the other members (the header:
   format, table, discipline, match, lag) are kept, the shots dropped as read;
2. *judge*: the header validated as :func:`referee.parse_shot_log` does, then the
   shots decoded again one by one, each validated by :func:`referee.parse_shot` and
   played on a :class:`referee.Match` that keeps only its current state.

The errors and their order are those of the whole-file path (:func:`score_document`
on :func:`load_json`): syntax and limits before anything, the header, the first bad
shot, a shot out of order, the lag; a log that judging stopped is still checked to its
end. A problem found by the check in a file within the whole-file size limit is handed
to :func:`load_json`, so its message is exactly the one it always was; only a bigger
file (which :func:`load_json` refuses for its size) gets the check's own message. No
single value may exceed that size limit either. Memory: the header, one shot, the
match state and one record per shot (the scoresheet).
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any, NoReturn, TextIO

from carom.match._read_bounded import SHOT_LOG_LIMITS
from carom.match._replay import ScoreRun, load_json, score_document
from referee import (
    SHOT_LOG_FIELDS,
    CaromError,
    Discipline,
    Match,
    ShotLogError,
    check_shot_order,
    parse_shot,
    parse_shot_log,
)
from referee.jsonbound import RepeatedKey, unique_keys

__all__ = ["score_stream"]

_CHUNK_CHARS = 1 << 16
_TOKEN_CHARS = 64  # longer than any number within the digits limit, or literal
_FIX = "check the file (carom analyze writes a valid one)"
_SHOTS = "shots"
#: (key, which "shots" key it is, value, is it one element of a shots array)
_Member = tuple[str, int, Any, bool]


class _Refused(Exception):
    """A problem found by the check (caught in this module, never escapes)."""


class _Scanner:
    """Values of a JSON text read in chunks; positions reported as line and column."""

    def __init__(self, f: TextIO, max_chars: int) -> None:
        self._f, self._max = f, max_chars
        self._buf, self._pos, self._eof = "", 0, False
        self.brackets = 0  # opening brackets in the last value's text (strings too)
        self._line, self._col = 1, 1  # of the buffer's first character
        self._decoder = json.JSONDecoder(
            parse_int=_checked(int), parse_float=_checked(float), object_pairs_hook=unique_keys
        )

    def _more(self) -> bool:
        """Read on (at least as much as is buffered: amortised linear); False at the end."""
        if self._eof:
            return False
        done, self._buf = self._buf[: self._pos], self._buf[self._pos :]
        self._advance(done)
        self._pos = 0
        if len(self._buf) > self._max:
            raise self.refused(f"one value is longer than {self._max} characters")
        text = self._f.read(max(_CHUNK_CHARS, len(self._buf)))
        self._eof = not text
        self._buf += text
        return not self._eof

    def _advance(self, done: str) -> None:
        lines = done.count("\n")
        self._line += lines
        self._col = len(done) - done.rfind("\n") if lines else self._col + len(done)

    def peek(self) -> str:
        """The next character that is not white space ("" at the end of the file)."""
        while True:
            n = len(self._buf)
            while self._pos < n and self._buf[self._pos] in " \t\n\r":
                self._pos += 1
            if self._pos < n or not self._more():
                return self._buf[self._pos : self._pos + 1]

    def take(self, char: str, problem: str) -> None:
        """Step over ``char``, or refuse with ``problem`` (json's own words)."""
        if self.peek() != char:
            raise self.refused(problem)
        self._pos += 1

    def value(self) -> Any:
        """The next value; one that ends where the buffer does is read again with more."""
        self.peek()
        while True:
            try:
                value, end = self._decoder.raw_decode(self._buf, self._pos)
            except json.JSONDecodeError as exc:
                if self._eof or _not_for_want_of_text(exc):
                    raise self.refused(exc.msg, exc.pos) from None
                self._more()
                continue
            except RecursionError:
                raise self.refused("nested too deeply to read") from None
            if end < len(self._buf) or self._eof:
                self.brackets = self._buf.count("[", self._pos, end)
                self.brackets += self._buf.count("{", self._pos, end)
                self._pos = end
                return value
            self._more()

    def refused(self, problem: str, pos: int | None = None) -> _Refused:
        """``problem`` at ``pos`` (default: here), located as line and column in the file."""
        at = self._pos if pos is None else pos
        line = self._line + self._buf.count("\n", 0, at)
        newline = self._buf.rfind("\n", 0, at)
        column = at - newline if newline >= 0 else self._col + at
        return _Refused(f"not valid JSON (line {line} column {column}: {problem})")


def _not_for_want_of_text(exc: json.JSONDecodeError) -> bool:
    r"""A syntax error well before the end of the text read: more text cannot mend it.

    Text cut short fails where it ends, or up to a token's length before (``tru``,
    ``1.``, ``\u12``), or at the start of a string left open (read on for those).
    """
    return len(exc.doc) - exc.pos > _TOKEN_CHARS and not exc.msg.startswith("Unterminated")


def _checked(make: type[int] | type[float]) -> Any:
    def number(token: str) -> Any:
        most = SHOT_LOG_LIMITS.max_digits
        digits = sum(c.isdigit() for c in token) if len(token) > most else 0
        if digits > most:
            what = f"{token[:12]}... {digits} digits"
            raise _Refused(f"a number has more than {most} digits ({what})")
        return make(token)

    return number


def _members(scan: _Scanner) -> Iterator[_Member]:
    """The top object's members in file order; each element of a ``shots`` array alone.

    So is each element of an array under a key a shot log may not have (a mangled
    ``shots`` key, say): that member is refused by name later, as the whole-file path
    refuses it, but first its text is checked like the shots' (no value too long).
    """
    scan.take("{", "Expecting value")
    if scan.peek() == "}":
        scan.take("}", "")
        _end(scan)
        return
    shots_keys = 0
    while True:
        if scan.peek() != '"':
            raise scan.refused("Expecting property name enclosed in double quotes")
        key = scan.value()
        scan.take(":", "Expecting ':' delimiter")
        if key == _SHOTS:
            shots_keys += 1
        if (key == _SHOTS or key not in SHOT_LOG_FIELDS) and scan.peek() == "[":
            yield key, shots_keys, [], False  # the member itself; then its elements
            yield from ((key, shots_keys, shot, True) for shot in _elements(scan))
        else:
            yield key, shots_keys, scan.value(), False
        if scan.peek() == "}":
            scan.take("}", "")
            _end(scan)
            return
        scan.take(",", "Expecting ',' delimiter")


def _elements(scan: _Scanner) -> Iterator[Any]:
    scan.take("[", "Expecting value")
    if scan.peek() == "]":
        scan.take("]", "")
        return
    while True:
        yield scan.value()
        if scan.peek() == "]":
            scan.take("]", "")
            return
        scan.take(",", "Expecting ',' delimiter")


def _end(scan: _Scanner) -> None:
    if scan.peek():
        raise scan.refused("Extra data")


def _depth(value: Any) -> int:
    """How deeply lists and objects nest in a decoded ``value`` (no recursion)."""
    deepest, todo = 0, [(value, 1)]
    while todo:
        item, level = todo.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, level)
            todo.extend((child, level + 1) for child in _children(item))
    return deepest


def _children(item: dict[str, Any] | list[Any]) -> Any:
    return item.values() if isinstance(item, dict) else item


def _check(path: Path) -> tuple[dict[str, Any], int]:
    """The check pass: the header (shots as ``[]``) and which ``shots`` key is the last."""
    header: dict[str, Any] = {}
    last = 0
    twice: RepeatedKey | None = None
    with _scanner(path) as scan:
        if scan.peek() != "{":
            _not_an_object(scan)
        for key, which, value, element in _members(scan):
            _check_depth(value, scan.brackets, 2 if element else 1)
            if not element:
                if key in header and twice is None:  # refused at the end, as json.loads does
                    twice = RepeatedKey.of(key)
                header[key] = value
            if key == _SHOTS:
                last = which
    if twice is not None:
        raise twice
    return header, last


def _check_depth(value: Any, brackets: int, outer: int) -> None:
    """Refuse ``value`` nested deeper than the limit with its ``outer`` levels around it."""
    deepest = SHOT_LOG_LIMITS.max_depth
    if brackets + outer > deepest and (depth := outer + _depth(value)) > deepest:
        raise _Refused(f"nested {depth} levels deep, more than the {deepest} allowed")


def _not_an_object(scan: _Scanner) -> NoReturn:
    """The top value is not an object: read it (no bigger than a value may be) for its error."""
    value = scan.value()
    _end(scan)
    _check_depth(value, scan.brackets, 0)
    parse_shot_log(value)  # refuses it: "document: expected an object, got a list"
    raise _Refused("expected an object")  # not reached


def _shots(path: Path, which: int) -> Iterator[Any]:
    """The elements of the ``which``-th ``shots`` array, decoded one at a time."""
    with _scanner(path) as scan:
        for key, n, value, element in _members(scan):
            if element and key == _SHOTS and n == which:
                yield value


@contextmanager
def _scanner(path: Path) -> Iterator[_Scanner]:
    with path.open(encoding="utf-8-sig", newline="") as f:  # past a byte-order mark
        yield _Scanner(f, SHOT_LOG_LIMITS.max_bytes)


def score_stream(path: Path, discipline: Discipline | None = None) -> ScoreRun:
    """Read and score the shot log ``path`` as :func:`score_document` on :func:`load_json`.

    Raises ShotLogError (one line) for a file that path refuses, with the same words.
    """
    try:
        header, which = _check(path)
    except (_Refused, RepeatedKey, OSError, UnicodeDecodeError) as exc:
        return _whole_file(path, discipline, exc)
    try:
        return _judge(header, _shots(path, which), discipline)
    except (_Refused, RepeatedKey, OSError, UnicodeDecodeError) as exc:  # changed since the check
        return _whole_file(path, discipline, exc)


def _whole_file(path: Path, discipline: Discipline | None, problem: Exception) -> ScoreRun:
    """A file the check refused: the whole-file path's own error if it is small enough."""
    try:
        size = path.stat().st_size if path.is_file() else 0
    except OSError:
        size = 0  # load_json names the problem
    if size <= SHOT_LOG_LIMITS.max_bytes:
        return score_document(load_json(path), discipline)
    if isinstance(problem, UnicodeDecodeError):
        what = "not UTF-8 text"
    else:
        known = isinstance(problem, _Refused | RepeatedKey)
        what = str(problem) if known else f"cannot read it ({problem})"
    raise ShotLogError(f"{path}: {what}; {_FIX}")


def _judge(header: dict[str, Any], shots: Iterator[Any], discipline: Discipline | None) -> ScoreRun:
    """Validate and play, with the errors in :func:`referee.parse_shot_log`'s order."""
    log = parse_shot_log({k: v for k, v in header.items() if k != "lag"}, discipline)
    lag_error: ShotLogError | None = None
    order_error: ShotLogError | None = None
    stopped: CaromError | None = None
    try:
        lag = parse_shot_log(header, discipline).lag
    except ShotLogError as exc:
        lag, lag_error = None, exc  # raised once every shot is validated, as before
    match = Match(log.match, undo_depth=0)
    result = None
    try:
        result = None if lag is None else match.lag(lag)
    except CaromError as exc:
        stopped = exc
    before, refused = None, None
    for i, data in enumerate(shots):
        shot = parse_shot(data, f"shots[{i}]")
        if shot.index != i and order_error is None:
            order_error = ShotLogError(
                f"shots[{i}].index: expected {i} (shots in order), got {shot.index}"
            )
        try:
            check_shot_order(before, shot, f"shots[{i}]")
        except ShotLogError as exc:
            order_error = order_error or exc
        before = shot
        if stopped is None and order_error is None and lag_error is None:
            try:
                match.play(shot)
            except CaromError as exc:
                stopped, refused = exc, i
    for late in (order_error, lag_error):
        if late is not None:
            raise late
    return ScoreRun(match, result, stopped, refused_shot=refused)

"""A person's calls and review decisions as typed values, and the keyboard line parser.

The terminal (and later the web page) turns what a person types into these values;
:class:`carom.live.LiveSession` applies them. Keyboard lines::

    foul <kind>             call a foul on the last shot (or on the shot held for review)
    accept                  review: the doubtful events are right, judge the shot as seen
    reject                  review: the doubtful events did not happen
    points <n>              review: the shot scored n points (overrides the verdict)
    undo                    take back the last input
    timeout [player]        a time-out (extension) for a player (default: the one at the table)
    correct <player> <+-n>  add or remove points
    turn <player>           give the turn to a player
    break                   the player at the table asks for the break position
    help                    this list

A player is named by seat in the order of play (``A`` or ``1``: the first player,
``B`` or ``2``: the second, ``C`` or ``3``: the third, up to ``H`` or ``8``) or by name
(any case); a name wins over a seat letter (a player called ``B`` is ``B`` even when
third).
"""

from __future__ import annotations

import shlex
from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum

from carom.live._store import LiveError
from referee import CALL_FOULS, Correction, CorrectionKind, Foul

__all__ = [
    "HELP",
    "CallParseError",
    "DecisionKind",
    "FoulCall",
    "HelpRequest",
    "KeyboardInput",
    "PersonCall",
    "ReviewDecision",
    "TimeoutCall",
    "UndoCall",
    "parse_line",
]

_FOULS = ", ".join(sorted(f.value for f in CALL_FOULS))
HELP = (
    f"commands: foul <{'|'.join(sorted(f.value for f in CALL_FOULS))}>, accept, reject, "
    "points <n>, undo, timeout [player], correct <player> <+-n>, turn <player>, break, help "
    "(a player: A, B, C... or 1, 2, 3... in the order of play, or the name)"
)


#: Seat letters in the order of play (``players[0]`` is ``a``).
_SEATS = "abcdefgh"


class CallParseError(LiveError):
    """A keyboard line that is not a command; the message is one line with the help."""


@dataclass(frozen=True, slots=True)
class FoulCall:
    """A foul the camera cannot see (one of ``CALL_FOULS``), called on the last shot."""

    foul: Foul


@dataclass(frozen=True, slots=True)
class UndoCall:
    """Take back the last input (a shot, a call, a decision, a correction, a time-out)."""


@dataclass(frozen=True, slots=True)
class TimeoutCall:
    """A time-out for ``player`` (``None``: the player at the table)."""

    player: str | None = None


#: What a person may call at any time; a :class:`Correction` is the referee's own value.
PersonCall = FoulCall | UndoCall | TimeoutCall | Correction


class DecisionKind(StrEnum):
    """How a person settles a shot held for review."""

    ACCEPT = "accept"
    REJECT = "reject"
    POINTS = "points"


@dataclass(frozen=True, slots=True)
class ReviewDecision:
    """A decision on the shot held for review.

    ``ACCEPT``: the events are right as seen (their doubt is cleared); ``REJECT``: the
    doubtful events did not happen (they are dropped); ``POINTS``: the shot scored
    ``points`` whatever the events say (the stroke's own verdict,
    ``referee.Shot.decided_points``).
    """

    kind: DecisionKind
    points: int | None = None

    def __post_init__(self) -> None:
        if (self.kind is DecisionKind.POINTS) != (self.points is not None):
            raise LiveError("a review decision gives points only with kind 'points'")
        if self.points is not None and self.points < 0:
            raise LiveError(f"points: expected 0 or more, got {self.points}")


@dataclass(frozen=True, slots=True)
class HelpRequest:
    """The person asked for the list of commands."""


KeyboardInput = PersonCall | ReviewDecision | HelpRequest


def parse_line(line: str, players: tuple[str, ...]) -> KeyboardInput | None:
    """One typed line -> a call, a decision or a help request (``None`` for a blank line).

    ``players``: the match's players in the order of play (2 to 8).

    Raises:
        CallParseError: the line is not a command; the message names the problem and
            lists the commands.
    """
    try:
        words = shlex.split(line)
    except ValueError as exc:
        raise CallParseError(f"cannot read {line.strip()!r} ({exc}); {HELP}") from None
    if not words:
        return None
    verb, args = words[0].lower(), words[1:]
    parser = _PARSERS.get(verb)
    if parser is None:
        raise CallParseError(f"unknown command {verb!r}; {HELP}")
    return parser(args, players)


def _arity(verb: str, args: list[str], lo: int, hi: int) -> None:
    if not lo <= len(args) <= hi:
        want = str(lo) if lo == hi else f"{lo} to {hi}"
        raise CallParseError(f"{verb}: expected {want} argument(s), got {len(args)}; {HELP}")


def _player(word: str, players: tuple[str, ...]) -> str:
    key = word.casefold()
    for p in players:  # a name first: a player may be called "B" without being second
        if p.casefold() == key:
            return p
    seat = _SEATS.find(key) if len(key) == 1 and key.isalpha() else -1
    if key.isascii() and key.isdigit():
        seat = int(key) - 1
    if 0 <= seat < len(players):
        return players[seat]
    seats = ", ".join(f"{_SEATS[i].upper()}={p}" for i, p in enumerate(players))
    raise CallParseError(f"unknown player {word!r} ({seats}); {HELP}")


#: The most points one correction adds or takes (as the web API's correction).
MAX_CORRECTION = 10000


def _int(verb: str, word: str) -> int:
    try:
        return int(word)
    except ValueError:
        raise CallParseError(f"{verb}: {word!r} is not a whole number; {HELP}") from None


def _foul(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
    _arity("foul", args, 1, 1)
    name = args[0].lower().replace("-", "_")
    if name not in {f.value for f in CALL_FOULS}:
        raise CallParseError(f"foul: {args[0]!r} cannot be called (callable: {_FOULS})")
    return FoulCall(Foul(name))


Parser = Callable[[list[str], tuple[str, ...]], KeyboardInput]


def _bare(value: KeyboardInput, verb: str) -> Parser:
    def parse(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
        _arity(verb, args, 0, 0)
        return value

    return parse


def _points(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
    _arity("points", args, 1, 1)
    n = _int("points", args[0])
    if n < 0:
        raise CallParseError(f"points: expected 0 or more, got {n}; {HELP}")
    return ReviewDecision(DecisionKind.POINTS, n)


def _timeout(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
    _arity("timeout", args, 0, 1)
    return TimeoutCall(_player(args[0], players) if args else None)


def _correct(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
    _arity("correct", args, 2, 2)
    n = _int("correct", args[1])
    if n == 0:
        raise CallParseError(f"correct: points must not be zero; {HELP}")
    if abs(n) > MAX_CORRECTION:
        # One typo ended the match at 99999999999999999999 points, which no board shows.
        raise CallParseError(f"correct: points from -{MAX_CORRECTION} to {MAX_CORRECTION} "
                             f"(the web console's limit), not {n}; {HELP}")  # fmt: skip
    return Correction(CorrectionKind.POINTS, _player(args[0], players), n)


def _turn(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
    _arity("turn", args, 1, 1)
    return Correction(CorrectionKind.TURN, _player(args[0], players))


def _break(args: list[str], players: tuple[str, ...]) -> KeyboardInput:
    _arity("break", args, 0, 0)
    # The player is filled in by the session: only the one at the table may ask.
    return Correction(CorrectionKind.BREAK_POSITION, "")


_PARSERS: dict[str, Parser] = {
    "foul": _foul,
    "accept": _bare(ReviewDecision(DecisionKind.ACCEPT), "accept"),
    "reject": _bare(ReviewDecision(DecisionKind.REJECT), "reject"),
    "points": _points,
    "undo": _bare(UndoCall(), "undo"),
    "timeout": _timeout,
    "correct": _correct,
    "turn": _turn,
    "break": _break,
    "help": _bare(HelpRequest(), "help"),
}

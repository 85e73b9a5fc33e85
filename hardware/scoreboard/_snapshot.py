"""What a scoreboard shows: the full-state snapshot and event messages.

Every text a board shows is printable ASCII (see :func:`board_text` for how other
names are carried), and every payload is ``|``-separated fields in a fixed order
(docs/scoreboard-protocol.md), so a firmware writer needs no escaping.
"""

from __future__ import annotations

import unicodedata
from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum

from hardware._errors import ProtocolError
from referee import MatchState, Phase

__all__ = [
    "MAX_NAME_CHARS",
    "MAX_TEXT_CHARS",
    "EventKind",
    "EventMessage",
    "Snapshot",
    "board_players",
    "board_slot",
    "board_text",
    "snapshot_from_state",
]

#: Longest player or discipline name a snapshot carries (longer ones are cut).
MAX_NAME_CHARS = 16
#: Longest event text.
MAX_TEXT_CHARS = 40
_SNAPSHOT_FIELDS = 17
_COUNT_MAX = 99_999
_SCORE_MIN = -99_999  # the 7-pin count can go below zero on penalties
_CLOCK_MAX = 999
# Letters NFKD does not take apart into a base letter and a mark.
_SPECIAL = str.maketrans(
    {
        "ß": "ss",
        "Æ": "AE",
        "æ": "ae",
        "Ø": "O",
        "ø": "o",
        "Œ": "OE",
        "œ": "oe",
        "Ł": "L",
        "ł": "l",
        "Đ": "D",
        "đ": "d",
        "Þ": "Th",
        "þ": "th",
        "ı": "i",
    }
)


def board_text(text: str, max_chars: int = MAX_NAME_CHARS) -> str:
    """``text`` as a board can show it: printable ASCII without ``|`` and ``*``.

    The rule: a few letters are spelled out (ß -> ss, Ø -> O, Ł -> L, ...); the rest
    is Unicode NFKD-decomposed and its combining marks dropped (Zoë -> Zoe, Çağlar ->
    Caglar); whatever is still not printable ASCII, and ``|`` and ``*`` (they frame
    fields), becomes ``?``; the result is cut to ``max_chars`` and stripped of spaces
    at both ends. Already-clean text is returned unchanged, so the rule is idempotent.
    """
    decomposed = unicodedata.normalize("NFKD", text.translate(_SPECIAL))
    kept = (ch for ch in decomposed if not unicodedata.combining(ch))
    ascii_only = "".join(ch if " " <= ch <= "~" and ch not in "|*" else "?" for ch in kept)
    return ascii_only[:max_chars].strip()


def _check_range(name: str, value: int, lo: int, hi: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ProtocolError(f"snapshot {name} {value!r} is outside {lo}..{hi}")


def _check_pair(name: str, pair: tuple[int, int], lo: int, hi: int) -> None:
    if len(pair) != 2:
        raise ProtocolError(f"snapshot {name} must hold two values, got {pair!r}")
    for value in pair:
        _check_range(name, value, lo, hi)


def _parse_int(name: str, text: str, lo: int, hi: int) -> int:
    digits = text[1:] if text.startswith("-") else text
    if not digits or not digits.isascii() or not digits.isdigit() or len(digits) > 6:
        raise ProtocolError(f"snapshot field {name} {text!r} is not a decimal number")
    value = int(text)
    _check_range(name, value, lo, hi)
    return value


def _parse_flag(name: str, text: str) -> bool:
    if text not in ("0", "1"):
        raise ProtocolError(f"snapshot flag {name} {text!r} must be 0 or 1")
    return text == "1"


@dataclass(frozen=True, slots=True)
class Snapshot:
    """The full state a board shows; index 0 is the first player, 1 the second.

    ``scores`` are what the board shows (points, or the remaining count in the 7-pin
    game); ``innings`` per player, the current inning included; ``run`` the active
    player's current run; ``active`` (0 or 1) the player at the table;
    ``shot_clock_s`` seconds left, ``None`` when no clock runs. Names are stored as
    :func:`board_text` makes them, so what a Snapshot holds is what goes on the wire;
    numbers out of range raise :class:`ProtocolError`.
    """

    discipline: str
    players: tuple[str, str]
    scores: tuple[int, int]
    innings: tuple[int, int]
    run: int
    high_runs: tuple[int, int]
    active: int
    shot_clock_s: int | None
    timeouts: tuple[int, int]
    equalizing: bool
    review: bool
    over: bool

    def __post_init__(self) -> None:
        if len(self.players) != 2:
            raise ProtocolError(f"snapshot players must be two names, got {self.players!r}")
        object.__setattr__(self, "discipline", board_text(self.discipline))
        object.__setattr__(self, "players", tuple(board_text(p) for p in self.players))
        _check_pair("scores", self.scores, _SCORE_MIN, _COUNT_MAX)
        _check_pair("innings", self.innings, 0, _COUNT_MAX)
        _check_pair("high_runs", self.high_runs, 0, _COUNT_MAX)
        _check_pair("timeouts", self.timeouts, 0, 99)
        _check_range("run", self.run, 0, _COUNT_MAX)
        _check_range("active", self.active, 0, 1)
        if self.shot_clock_s is not None:
            _check_range("shot_clock_s", self.shot_clock_s, 0, _CLOCK_MAX)

    def to_payload(self) -> str:
        """The SNAPSHOT payload: 17 ``|``-separated fields, see the protocol document."""
        clock = "" if self.shot_clock_s is None else str(self.shot_clock_s)
        fields = (
            self.discipline,
            *self.players,
            *map(str, self.scores),
            *map(str, self.innings),
            str(self.run),
            *map(str, self.high_runs),
            str(self.active),
            clock,
            *map(str, self.timeouts),
            *("1" if flag else "0" for flag in (self.equalizing, self.review, self.over)),
        )
        return "|".join(fields)

    @classmethod
    def from_payload(cls, payload: str) -> Snapshot:
        """Parse a SNAPSHOT payload; fields after the 17th are ignored (newer senders).

        Raises:
            ProtocolError: too few fields, a number or flag that does not parse, or a
                name that is not board text.
        """
        f = payload.split("|")
        if len(f) < _SNAPSHOT_FIELDS:
            raise ProtocolError(f"snapshot has {len(f)} fields, needs {_SNAPSHOT_FIELDS}")
        for name in f[0:3]:
            if board_text(name) != name:
                raise ProtocolError(f"snapshot name {name!r} is not board text; see board_text")
        return cls(
            discipline=f[0],
            players=(f[1], f[2]),
            scores=(
                _parse_int("score", f[3], _SCORE_MIN, _COUNT_MAX),
                _parse_int("score", f[4], _SCORE_MIN, _COUNT_MAX),
            ),
            innings=(
                _parse_int("innings", f[5], 0, _COUNT_MAX),
                _parse_int("innings", f[6], 0, _COUNT_MAX),
            ),
            run=_parse_int("run", f[7], 0, _COUNT_MAX),
            high_runs=(
                _parse_int("high_run", f[8], 0, _COUNT_MAX),
                _parse_int("high_run", f[9], 0, _COUNT_MAX),
            ),
            active=_parse_int("active", f[10], 0, 1),
            shot_clock_s=None if f[11] == "" else _parse_int("shot_clock", f[11], 0, _CLOCK_MAX),
            timeouts=(_parse_int("timeouts", f[12], 0, 99), _parse_int("timeouts", f[13], 0, 99)),
            equalizing=_parse_flag("equalizing", f[14]),
            review=_parse_flag("review", f[15]),
            over=_parse_flag("over", f[16]),
        )


class EventKind(StrEnum):
    """What happened: the board may flash or beep on it."""

    POINT = "point"
    MISS = "miss"
    FOUL = "foul"
    REVIEW = "review"
    END = "end"


@dataclass(frozen=True, slots=True)
class EventMessage:
    """One event for the board: ``kind``, ``player`` (0 or 1) it concerns, ``text``.

    ``text`` is stored as :func:`board_text` makes it (at most ``MAX_TEXT_CHARS``).
    """

    kind: EventKind
    player: int
    text: str = ""

    def __post_init__(self) -> None:
        if not isinstance(self.kind, EventKind):
            raise ProtocolError(f"event kind {self.kind!r} is not an EventKind")
        _check_range("event player", self.player, 0, 1)
        object.__setattr__(self, "text", board_text(self.text, MAX_TEXT_CHARS))

    def to_payload(self) -> str:
        """The EVENT payload ``kind|player|text``."""
        return f"{self.kind.value}|{self.player}|{self.text}"

    @classmethod
    def from_payload(cls, payload: str) -> EventMessage:
        """Parse an EVENT payload; :class:`ProtocolError` if malformed."""
        f = payload.split("|")
        if len(f) < 3 or f[0] not in EventKind.__members__.values():
            raise ProtocolError(f"event payload {payload!r} is not 'kind|player|text'")
        if board_text(f[2], MAX_TEXT_CHARS) != f[2]:
            raise ProtocolError(f"event text {f[2]!r} is not board text; see board_text")
        return cls(EventKind(f[0]), _parse_int("event player", f[1], 0, 1), f[2])


def board_players(state: MatchState) -> tuple[str, str]:
    """The two players a snapshot shows, in its two slots.

    Two players: both, in order. More (rules.md §1): the player at the table in the
    first slot and the next in the order in the second; with nobody at the table
    (before the lag, match over) the two leaders (the 7-pin game: the lowest counts).
    """
    players = state.config.players
    if len(players) == 2:
        return players[0], players[1]
    if state.shooter in players:
        return state.shooter, state.config.next_player(state.shooter)
    sign = 1 if state.config.countdown_from is not None else -1
    first, second = sorted(players, key=lambda p: sign * state.board(p))[:2]
    return first, second


def board_slot(state: MatchState, player: str | None) -> int:
    """The snapshot slot (0 or 1) ``player`` is shown in; 0 when not shown."""
    shown = board_players(state)
    return shown.index(player) if player in shown else 0


def snapshot_from_state(
    state: MatchState,
    *,
    review: bool = False,
    shot_clock_s: int | None = None,
    timeouts: Sequence[int] = (0, 0),
) -> Snapshot:
    """The snapshot of ``state`` (the current game of a multi-set match).

    ``review``, ``shot_clock_s`` and ``timeouts`` (per player, in the order of play)
    are not part of the referee state and come from the app. Before the lag nobody
    is at the table: ``active`` is 0. With more than two players the snapshot shows
    :func:`board_players`.
    """
    players = board_players(state)
    scores = tuple(state.scores[p] for p in players)
    active = board_slot(state, state.shooter)
    left = dict(zip(state.config.players, timeouts, strict=False))
    return Snapshot(
        discipline=str(state.config.discipline),
        players=players,
        scores=(state.board(players[0]), state.board(players[1])),
        innings=(scores[0].innings, scores[1].innings),
        run=scores[active].current_run if state.shooter in players else 0,
        high_runs=(scores[0].high_run, scores[1].high_run),
        active=active,
        shot_clock_s=shot_clock_s,
        timeouts=(left.get(players[0], 0), left.get(players[1], 0)),
        equalizing=state.equalizing,
        review=review,
        over=state.phase is Phase.OVER,
    )

"""The match file (``carom-match/1``): one set-up for ``carom analyze``, ``live`` and ``serve``.

A match file says everything about a match before the first stroke: discipline,
table, players, cue balls, targets (handicaps), innings limit, sets, the equalizing
inning, the 7-pin starting count, every rule option of :class:`referee.RuleOptions`,
the shot clock and time-outs (:class:`carom.match._shot_clock.ClockSettings`) and, for a
match joined in progress, the score and turn when the record begins
(:class:`referee.StartState`, the shot log's ``match.start``). It is TOML (or JSON:
the same structure); the web console reads and writes the same structure as JSON.
Documented in ``docs/match-file.md`` with a JSON Schema (``docs/match-file.schema.json``).

Every error is a :class:`MatchFileError`, one line that starts with the key, like the
shot-log reader's (``clock.length_s: expected a number, got a string``).
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from typing import Any

from carom.match._shot_clock import ClockSettings
from referee import (
    Ball,
    CaromError,
    Discipline,
    MatchConfig,
    RuleOptions,
    RulesError,
    StartState,
    Table,
)
from referee.jsonread import show

__all__ = [
    "FORMAT",
    "ROTATION_BALLS",
    "TABLE_PRESETS",
    "MatchFile",
    "MatchFileError",
    "default_table",
    "parse_table",
]

FORMAT = "carom-match/1"

#: The two whites that rotate among three players or more unless the file names others.
ROTATION_BALLS = (Ball.WHITE, Ball.YELLOW)

#: Table names: playing surface (length, width) mm, ball diameter mm.
TABLE_PRESETS: dict[str, tuple[float, float, float]] = {
    "match": (2840.0, 1420.0, 61.5),
    "small": (2764.0, 1382.0, 61.5),
    "large": (3072.0, 1536.0, 61.5),
    "pyramid": (3550.0, 1775.0, 68.0),
}

KEYS = (
    "format", "discipline", "table", "players", "cue_balls", "first_player", "target",
    "innings_limit", "sets", "equalizing", "equalizing_from_break", "start_count", "rules",
    "clock", "start",
)  # fmt: skip


class MatchFileError(CaromError):
    """A match file (or the flags that override it) is wrong; the message names the key."""


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchFile:
    """A match set-up as a match file holds it; what it leaves out stays a default.

    ``table``: ``None`` is the discipline's table (match table; the 7-pin game's
    pyramid table). ``cue_balls``: empty is player 1 white, player 2 yellow (with
    more players: the whites rotate). ``rotation_balls``: the two whites that rotate
    among three players or more (the file's ``cue_balls`` as a list, ``["white",
    "dotted"]``); unused when every player keeps a ball.
    ``target``: per player, empty is the discipline's. ``rules``: only the rule
    options the file sets (a camera front end turns ``follow_cue_ball`` on unless
    the file says otherwise). ``start``: a match joined in progress (``None``: the
    record begins with the match).
    """

    discipline: Discipline = Discipline.THREE_CUSHION
    table: Table | None = None
    players: tuple[str, ...] = ("A", "B")
    cue_balls: Mapping[str, Ball] = field(default_factory=dict)
    rotation_balls: tuple[Ball, Ball] = ROTATION_BALLS
    first_player: str | None = None
    target: Mapping[str, int] = field(default_factory=dict)
    innings_limit: int | None = None
    sets: int = 1
    equalizing: bool = True
    equalizing_from_break: bool = True
    start_count: int | None = None
    rules: Mapping[str, Any] = field(default_factory=dict)
    clock: ClockSettings = field(default_factory=ClockSettings)
    start: StartState | None = None

    def options(self, *, camera: bool = False) -> RuleOptions:
        """The rule options; ``camera``: a camera names the shooter (``follow_cue_ball``)."""
        given = dict(self.rules)
        if camera:
            given.setdefault("follow_cue_ball", True)
        return RuleOptions(**given)

    def config(self, *, camera: bool = False) -> MatchConfig:
        """The referee's set-up (raises RulesError on a rule of the set-up)."""
        pins = self.discipline is Discipline.PIN_CAROM_7
        cue = {} if pins else dict(self.cue_balls) or _plain_balls(self.players)
        target = dict(self.target) or dict.fromkeys(
            self.players, MatchConfig.default_target(self.discipline)
        )
        return MatchConfig(
            discipline=self.discipline, players=self.players, cue_balls=cue, target=target,
            rotation_balls=ROTATION_BALLS if pins else self.rotation_balls,
            first_player=self.first_player,
            innings_limit=self.innings_limit, sets=self.sets,
            equalizing=self.equalizing, equalizing_from_break=self.equalizing_from_break,
            start_count=self.start_count, table=self.table or default_table(self.discipline),
            options=self.options(camera=camera), start=self.start,
        )  # fmt: skip

    def renamed(self, players: tuple[str, ...]) -> MatchFile:
        """The same set-up with the players renamed in order (``--players`` over a file).

        What the file says about its first player goes to ``players[0]``. Another
        number of players only replaces a file that says nothing per player.
        """
        if len(players) != len(self.players):
            return self._other_players(players)
        old = dict(zip(self.players, players, strict=True))

        def keys(m: Mapping[str, Any]) -> dict[str, Any]:
            return {old[k]: v for k, v in m.items()}

        def name(n: str | None) -> str | None:
            return None if n is None else old[n]

        start = self.start
        if start is not None:
            start = replace(start, board=keys(start.board), innings=keys(start.innings),
                            sets_won=keys(start.sets_won), shooter=name(start.shooter),
                            breaker=name(start.breaker))  # fmt: skip
        return replace(self, players=players, cue_balls=keys(self.cue_balls),
                       target=keys(self.target), first_player=name(self.first_player),
                       start=start)  # fmt: skip

    def _other_players(self, players: tuple[str, ...]) -> MatchFile:
        per_player = (self.cue_balls, self.target, self.first_player, self.start)
        if any(per_player):
            raise MatchFileError(
                f"--players: {len(players)} names, but the match file sets its "
                f"{len(self.players)} players' balls, targets, first player or start"
            )
        if len(players) == 2 and self.rotation_balls != ROTATION_BALLS:
            # two players keep the balls the file's players would have rotated
            balls = dict(zip(players, self.rotation_balls, strict=True))
            return replace(self, players=players, cue_balls=balls, rotation_balls=ROTATION_BALLS)
        return replace(self, players=players)

    @property
    def balls(self) -> frozenset[Ball]:
        """The cue balls in play (the white and the yellow or the dotted white).

        The 7-pin game's balls are not named here (everybody shoots the red).
        """
        if self.cue_balls:
            return frozenset(self.cue_balls.values())
        return frozenset(self.rotation_balls)

    def checked(self) -> MatchFile:
        """``self``, after the referee's rules of the set-up (odd sets, two cue balls...).

        And what a set-up typed in cannot mean: a first player other than the start's
        shooter (with a start, ``first_player`` is who is at the table when the start
        names none), a start score past the target.
        """
        try:
            config = self.config()
        except RulesError as exc:
            text = str(exc).replace("rotation_balls", "cue_balls", 1)  # the file's key
            key = next((k for k in KEYS if text.startswith(k)), None)
            if key is None:
                raise MatchFileError(f"match: {text}") from None
            raise MatchFileError(f"{key}: {text[len(key) :].lstrip(': ')}") from None
        if self.start is not None:
            _check_start(self.start, config, self.first_player)
        return self


def _check_start(start: StartState, config: MatchConfig, first: str | None) -> None:
    """Refuse a start the match cannot be in, or whose shooter the first player denies."""
    if first is not None and start.shooter is not None and first != start.shooter:
        raise MatchFileError(
            f"first_player (--first) {first} and start.shooter (--start-shooter) "
            f"{start.shooter} name different players at the table of the match joined in "
            "progress: give one (who broke it is start.breaker, --start-breaker)"
        )
    if config.countdown_from is not None:
        return  # a 7-pin count may grow past its start (the opponent's fouls)
    for player, board in start.board.items():
        if board > config.target[player]:
            raise MatchFileError(
                f"start: {player}'s score {board} is past the target, {config.target[player]}: "
                "a game ends there; check the start score (--start-score) and the target "
                "(--target)"
            )


def default_table(discipline: Discipline) -> Table:
    """The table a discipline is played on when nothing says otherwise."""
    return parse_table("match", discipline)


def parse_table(text: str, discipline: Discipline | None = None, where: str = "--table") -> Table:
    """A preset name or ``LENGTHxWIDTH`` (mm) -> the table; one-line error otherwise.

    ``match`` in the 7-pin game is its pyramid table.
    """
    key = text.strip().lower()
    if key == "match" and discipline is Discipline.PIN_CAROM_7:
        key = "pyramid"
    if key in TABLE_PRESETS:
        length, width, ball = TABLE_PRESETS[key]
        return Table(length_mm=length, width_mm=width, ball_diameter_mm=ball)
    try:
        length, width = (float(v) for v in key.split("x"))
    except ValueError:
        length = width = math.nan
    if 250.0 <= length < width <= 5000.0:  # 1420x2840: the length is given first
        raise MatchFileError(f"{where}: {show(text)}: the length comes first (LENGTHxWIDTH, "
                             f"the longer side first): {width:g}x{length:g}")  # fmt: skip
    try:
        return Table(length_mm=length, width_mm=width)
    except CaromError as exc:
        names = ", ".join(TABLE_PRESETS)
        if math.isfinite(length) and math.isfinite(width):  # read, but out of range
            raise MatchFileError(f"{where}: {exc} (the cloth's playing area in mm, like "
                                 f"2840x1420; or a preset: {names})") from None  # fmt: skip
        raise MatchFileError(
            f"{where}: expected a preset ({names}) or LENGTHxWIDTH in mm like 2840x1420, "
            f"got {show(text)}"
        ) from None


def _plain_balls(players: tuple[str, ...]) -> dict[str, Ball]:
    """Two players: the first white, the second yellow; more: none (the whites rotate)."""
    return {players[0]: Ball.WHITE, players[1]: Ball.YELLOW} if len(players) == 2 else {}

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

import json
import tomllib
from collections.abc import Mapping
from dataclasses import dataclass, field, fields, replace
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING, Any

from referee import (
    MAX_PLAYERS,
    Ball,
    CaromError,
    Discipline,
    MatchConfig,
    RuleOptions,
    RulesError,
    StartState,
    Table,
    parse_start,
)
from referee.jsonread import Obj, ask_bool, ask_enum, ask_int, ask_list, ask_num, ask_str, show

if TYPE_CHECKING:  # loaded when used: every ``carom`` command builds the parsers that use this
    from carom.match._shot_clock import ClockSettings

__all__ = [
    "FORMAT",
    "ROTATION_BALLS",
    "TABLE_PRESETS",
    "MatchFile",
    "MatchFileError",
    "default_table",
    "load_match_file",
    "parse_match_file",
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
_TABLE_KEYS = {"length_mm", "width_mm", "ball_diameter_mm"}


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
    clock: ClockSettings = field(default_factory=lambda: _clock({}))
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
        """``self``, after the referee's rules of the set-up (odd sets, two cue balls...)."""
        try:
            self.config()
        except RulesError as exc:
            text = str(exc).replace("rotation_balls", "cue_balls", 1)  # the file's key
            key = next((k for k in KEYS if text.startswith(k)), None)
            if key is None:
                raise MatchFileError(f"match: {text}") from None
            raise MatchFileError(f"{key}: {text[len(key) :].lstrip(': ')}") from None
        return self


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
        return Table(length_mm=length, width_mm=width)
    except (ValueError, CaromError):
        names = ", ".join(TABLE_PRESETS)
        raise MatchFileError(
            f"{where}: expected a preset ({names}) or LENGTHxWIDTH in mm like 2840x1420, "
            f"got {show(text)}"
        ) from None


def load_match_file(path: Path) -> MatchFile:
    """Read a match file: JSON if it ends in ``.json``, else TOML.

    Raises:
        MatchFileError: the file is missing, not TOML/JSON, or a key is wrong (the
            message starts with the file name, then the key).
    """
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as exc:
        reason = getattr(exc, "strerror", None) or exc
        raise MatchFileError(f"--match {path}: cannot read it ({reason})") from None
    try:
        data = json.loads(text) if path.suffix.lower() == ".json" else tomllib.loads(text)
    except (ValueError, tomllib.TOMLDecodeError) as exc:
        kind = "JSON" if path.suffix.lower() == ".json" else "TOML"
        raise MatchFileError(f"{path}: not valid {kind}: {exc}") from None
    try:
        return parse_match_file(data)
    except MatchFileError as exc:
        raise MatchFileError(f"{path}: {exc}") from None


def parse_match_file(data: Any) -> MatchFile:
    """Validate and convert a decoded match file (TOML or JSON, the web's structure)."""
    try:
        return _parse(Obj(data, "", set(KEYS))).checked()
    except CaromError as exc:
        if isinstance(exc, MatchFileError):
            raise
        raise MatchFileError(str(exc)) from None


def _parse(top: Obj) -> MatchFile:
    fmt = top.get("format", FORMAT)
    if fmt != FORMAT:
        raise MatchFileError(f"format: expected {FORMAT!r}, got {show(fmt)}")
    discipline = ask_enum(Discipline, top.get("discipline", "three-cushion"), "discipline")
    players = _players(top.get("players", ["A", "B"]))
    first = _opt(top, "first_player", lambda v, k: _player(v, k, players))
    start = top.get("start", None)
    return MatchFile(
        discipline=discipline, table=_opt(top, "table", lambda v, k: _table(v, k, discipline)),
        players=players, first_player=first, **_cue_balls(top.get("cue_balls", None), players),
        target=_target(top.get("target", None), players),
        innings_limit=_opt(top, "innings_limit", lambda v, k: ask_int(v, k, lo=1)),
        sets=_sets(top.get("sets", 1)),
        equalizing=ask_bool(top.get("equalizing", True), "equalizing"),
        equalizing_from_break=ask_bool(
            top.get("equalizing_from_break", True), "equalizing_from_break"
        ),
        start_count=_opt(top, "start_count", lambda v, k: ask_int(v, k, lo=1)),
        rules=_rules(_table_or_empty(top, "rules")), clock=_clock(_table_or_empty(top, "clock")),
        start=None if start is None else parse_start(start, "start", players),
    )  # fmt: skip


def _table_or_empty(top: Obj, key: str) -> Any:
    """A section (``[rules]``, ``[clock]``); absent or null: empty."""
    value = top.get(key, None)
    return {} if value is None else value


def _opt(top: Obj, key: str, read: Any) -> Any:
    """An optional key (absent or null: ``None``) read by ``read(value, key)``."""
    value = top.get(key, None)
    return None if value is None else read(value, key)


def _players(value: Any) -> tuple[str, ...]:
    names = ask_list(value, "players")
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise MatchFileError(f"players: expected 2 to {MAX_PLAYERS} player names, got {len(names)}")
    players = tuple(ask_str(n, f"players[{i}]").strip() for i, n in enumerate(names))
    for i, name in enumerate(players):
        if not name or name in players[:i]:
            shown = ", ".join(show(p) for p in players)
            raise MatchFileError(f"players: expected different names, got {shown}")
    return players


def _cue_balls(value: Any, players: tuple[str, ...]) -> dict[str, Any]:
    """``cue_balls``: player -> ball (each keeps one), or a list of the two whites that rotate."""
    if not isinstance(value, list):
        return {"cue_balls": _per_player(value, "cue_balls", players, _ball)}
    if len(value) != 2:
        raise MatchFileError(f"cue_balls: expected the 2 rotating cue balls, got {len(value)}")
    if len(players) == 2:
        raise MatchFileError(
            "cue_balls: a list is the rotating pair of 3 players or more; two players keep "
            f"their balls: give each one's, like {{{players[0]!r} = 'white', {players[1]!r} = "
            "'dotted'}"
        )
    return {"rotation_balls": tuple(_ball(v, f"cue_balls[{i}]") for i, v in enumerate(value))}


def _ball(value: Any, key: str) -> Ball:
    return ask_enum(Ball, value, key)


def _plain_balls(players: tuple[str, ...]) -> dict[str, Ball]:
    """Two players: the first white, the second yellow; more: none (the whites rotate)."""
    return {players[0]: Ball.WHITE, players[1]: Ball.YELLOW} if len(players) == 2 else {}


def _player(value: Any, key: str, players: tuple[str, ...]) -> str:
    name = ask_str(value, key)
    if name not in players:
        raise MatchFileError(f"{key}: {show(name)} is not one of the players {list(players)}")
    return name


def _per_player(value: Any, key: str, players: tuple[str, ...], read: Any) -> dict[str, Any]:
    """A value for each player (``read(value, key)``); absent or null: none given."""
    if value is None:
        return {}
    obj = Obj(value, key, set(players))
    if set(obj.data) != set(players):
        if len(players) == 2:
            raise MatchFileError(f"{key}: give both players, {players[0]!r} and {players[1]!r}")
        raise MatchFileError(f"{key}: give every player, {', '.join(map(repr, players))}")
    return {p: read(obj.data[p], obj.at(p)) for p in players}


def _target(value: Any, players: tuple[str, ...]) -> dict[str, int]:
    if value is None:
        return {}
    if isinstance(value, Mapping):
        return _per_player(value, "target", players, lambda v, k: ask_int(v, k, lo=1))
    return dict.fromkeys(players, ask_int(value, "target", lo=1))


def _sets(value: Any) -> int:
    sets = ask_int(value, "sets", lo=1)
    if sets % 2 == 0:
        raise MatchFileError(f"sets: must be an odd number (best of N), got {sets}")
    return sets


def _table(value: Any, key: str, discipline: Discipline) -> Table:
    if isinstance(value, str):
        return parse_table(value, discipline, where=key)
    obj = Obj(value, key, _TABLE_KEYS)
    sizes = {k: ask_num(v, obj.at(k)) for k, v in obj.data.items()}
    try:
        return Table(**sizes)
    except RulesError as exc:
        raise MatchFileError(f"{key}: {exc}") from None


def _rules(value: Any) -> dict[str, Any]:
    """The options the file sets, checked (unknown names refused).

    A null (``corner_zone_limit``, whose default it is) counts as not set.
    """
    given = dict(Obj(value, "rules").data)
    options = RuleOptions.from_mapping(given, "rules")
    return {k: getattr(options, k) for k in given if getattr(options, k) is not None}


def _clock(value: Any) -> ClockSettings:
    """``[clock]``: the fields of :class:`ClockSettings`, read by their defaults' types."""
    from carom.match._shot_clock import ClockSettings

    known = {f.name: f.default for f in fields(ClockSettings)}
    obj = Obj(value, "clock", set(known))
    values: dict[str, Any] = {}
    for key, raw in obj.data.items():
        default, at = known[key], obj.at(key)
        if isinstance(default, bool):
            values[key] = ask_bool(raw, at)
        elif isinstance(default, StrEnum):
            values[key] = ask_enum(type(default), raw, at)
        elif isinstance(default, int):
            values[key] = ask_int(raw, at, lo=0)
        else:
            values[key] = ask_num(raw, at, lo=0.0)
    if "length_s" in values and "warning_s" not in values:  # 5 s a shot: warn at 5 s
        values["warning_s"] = min(ClockSettings().warning_s, values["length_s"])
    try:
        return ClockSettings(**values)
    except CaromError as exc:
        raise MatchFileError(f"clock: {exc}") from None

"""Reading the public shot log ``carom-shots/1`` (decoded JSON in, typed values out).

The referee reads no files: the caller decodes the JSON and passes the object.
Every error is a :class:`ShotLogError` naming the field, e.g.
``shots[3].events[1].cushion: unknown name 'top' (expected one of: head, foot, left, right)``.
The format is documented with a JSON Schema in ``docs/shot-log.md``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from referee._config import MAX_PLAYERS, MatchConfig
from referee._errors import RulesError, ShotLogError
from referee._event_checks import FAR_MM, span_problem
from referee._events import BallContact, Call, CushionContact, Event, OffTable, PinDown, Pocketed
from referee._lag import Lag
from referee._names import CALL_FOULS, Ball, Cushion, Discipline, Foul, Pin, Pocket
from referee._options import RuleOptions
from referee._shot import Shot, TimedXY
from referee._shotlog_decision import check_review_decision
from referee._start import StartState
from referee._table import XY, Table, table_of
from referee.jsonread import Obj, ask_bool, ask_enum, ask_int, ask_list, ask_num, ask_str, show
from referee.jsonread import nfc as composed

__all__ = [
    "FORMAT",
    "SHOT_LOG_FIELDS",
    "ShotLog",
    "check_shot_order",
    "parse_event",
    "parse_shot",
    "parse_shot_log",
    "parse_start",
]

FORMAT = "carom-shots/1"
#: The members a shot log's top object may have (any other is refused).
SHOT_LOG_FIELDS = frozenset({"format", "table", "discipline", "match", "lag", "shots"})
_TOP = set(SHOT_LOG_FIELDS)
_SHOT = {
    "index", "start_s", "end_s", "cue_ball", "events", "start_positions_mm",
    "end_positions_mm", "paths_mm", "pins_standing", "doubt", "safety", "break",
    "decided_points",
}  # fmt: skip
_MATCH = {
    "players", "cue_balls", "first_player", "target", "innings_limit", "sets",
    "equalizing", "equalizing_from_break", "start_count", "rules", "start",
}  # fmt: skip
_START = {
    "board", "innings", "run", "shooter", "breaker", "set_index", "sets_won", "next_break",
}  # fmt: skip
#: Written by ``carom analyze`` and ``carom export`` for people and tools; read, checked, not
#: judged.
_SHOT_INFO = {"verdict", "review_decision"}
_EVENT_INFO = {"confidence", "evidence"}
_EVENT_FIELDS = {
    "ball": {"balls"}, "cushion": {"ball", "cushion"}, "pin": {"pin", "ball"},
    "off_table": {"ball"}, "pocket": {"ball", "pocket"}, "call": {"foul"},
}  # fmt: skip


@dataclass(frozen=True, slots=True)
class ShotLog:
    """A decoded shot log: the match set-up, an optional lag and the shots in order."""

    match: MatchConfig
    shots: tuple[Shot, ...]
    lag: Lag | None = None


def parse_shot_log(data: Any, discipline: Discipline | None = None) -> ShotLog:
    """Validate and convert a decoded ``carom-shots/1`` document.

    ``discipline`` overrides the document's own (``carom score --discipline``).
    """
    if isinstance(data, dict) and data.get("format") != FORMAT:  # before its fields: the kind
        got = "none" if "format" not in data else show(data["format"])
        raise ShotLogError(f"format: expected {FORMAT!r}, got {got}: not a shot log")
    top = Obj(data, "", _TOP)
    chosen = discipline or ask_enum(Discipline, top.get("discipline"), "discipline")
    table = _table(top.get("table", None), chosen)
    match = _match(Obj(composed(top.get("match")), "match", _MATCH), chosen, table)
    shots = tuple(
        parse_shot(s, f"shots[{i}]") for i, s in enumerate(ask_list(top.get("shots"), "shots"))
    )
    for i, shot in enumerate(shots):
        if shot.index != i:
            raise ShotLogError(f"shots[{i}].index: expected {i} (shots in order), got {shot.index}")
        check_shot_order(shots[i - 1] if i else None, shot, f"shots[{i}]")
    lag_data = top.get("lag", None)
    lag = None if lag_data is None else _lag(composed(lag_data), match.players)
    return ShotLog(match=match, shots=shots, lag=lag)


def _table(data: Any, discipline: Discipline) -> Table:
    """The log's table; without one the discipline's (:func:`referee.table_of`).

    A 7-pin log without it was judged on the match table, its break not recognised.
    """
    if data is None:
        return table_of(discipline)
    obj = Obj(data, "table", {"length_mm", "width_mm", "ball_diameter_mm"})
    values = {k: ask_num(obj.get(k), obj.at(k)) for k in obj.data}
    try:
        return Table(**values)
    except RulesError as exc:
        raise ShotLogError(f"table: {exc}") from None


def _per_player(value: Any, where: str, players: tuple[str, ...]) -> dict[str, int]:
    if isinstance(value, Mapping):
        obj = Obj(value, where, set(players))
        return {p: ask_int(obj.get(p), obj.at(p), lo=1) for p in players}
    n = ask_int(value, where, lo=1)
    return dict.fromkeys(players, n)


def _players(obj: Obj) -> tuple[str, ...]:
    names = ask_list(obj.get("players"), obj.at("players"))
    if not 2 <= len(names) <= MAX_PLAYERS:
        raise ShotLogError(
            f"{obj.at('players')}: expected 2 to {MAX_PLAYERS} player names, got {len(names)}"
        )
    players = tuple(ask_str(n, obj.at(f"players[{i}]")) for i, n in enumerate(names))
    for i, name in enumerate(players):
        if name in players[:i]:
            raise ShotLogError(
                f"{obj.at('players')}: expected different names, got {show(name)} twice"
            )
    return players


def _cue_balls(obj: Obj, players: tuple[str, ...]) -> dict[str, Any]:
    """``cue_balls``: player -> ball (each keeps one), or a list of the two whites that rotate."""
    value = obj.get("cue_balls", {})
    if isinstance(value, list):
        where = obj.at("cue_balls")
        if len(value) != 2:
            raise ShotLogError(f"{where}: expected the 2 rotating cue balls, got {len(value)}")
        pair = tuple(ask_enum(Ball, v, f"{where}[{i}]") for i, v in enumerate(value))
        return {"cue_balls": {}, "rotation_balls": pair}
    balls_obj = Obj(value, obj.at("cue_balls"), set(players))
    balls = {p: ask_enum(Ball, v, balls_obj.at(p)) for p, v in balls_obj.data.items()}
    return {"cue_balls": balls}


def _match(obj: Obj, discipline: Discipline, table: Table) -> MatchConfig:
    players = _players(obj)
    first = obj.get("first_player", None)
    limit = obj.get("innings_limit", None)
    start = obj.get("start_count", None)
    joined = obj.get("start", None)
    target_raw = obj.get("target", MatchConfig.default_target(discipline))
    values: dict[str, Any] = {
        "discipline": discipline,
        "players": players,
        **_cue_balls(obj, players),
        "target": _per_player(target_raw, obj.at("target"), players),
        "first_player": None if first is None else ask_str(first, obj.at("first_player")),
        "innings_limit": None if limit is None else ask_int(limit, obj.at("innings_limit"), lo=1),
        "sets": ask_int(obj.get("sets", 1), obj.at("sets"), lo=1),
        "equalizing": ask_bool(obj.get("equalizing", True), obj.at("equalizing")),
        "equalizing_from_break": ask_bool(
            obj.get("equalizing_from_break", True), obj.at("equalizing_from_break")
        ),
        "start_count": None if start is None else ask_int(start, obj.at("start_count"), lo=1),
        "table": table,
        "options": RuleOptions.from_mapping(
            dict(Obj(obj.get("rules", {}), obj.at("rules")).data), obj.at("rules")
        ),
        "start": None if joined is None else parse_start(joined, obj.at("start"), players),
    }
    try:
        return MatchConfig(**values)
    except RulesError as exc:  # a rule of the set-up (odd sets, cue balls): still the document's
        raise ShotLogError(f"{obj.where}: {exc}") from None


def parse_shot(data: Any, where: str) -> Shot:
    """Validate and convert one shot object."""
    obj = Obj(data, where, _SHOT | _SHOT_INFO)
    Obj(obj.get("verdict", {}), obj.at("verdict"))
    events = tuple(
        parse_event(e, f"{obj.at('events')}[{i}]")
        for i, e in enumerate(ask_list(obj.get("events", []), obj.at("events")))
    )
    start_s = obj.get("start_s", None)
    end_s = obj.get("end_s", None)
    start_s = None if start_s is None else ask_num(start_s, obj.at("start_s"))
    end_s = None if end_s is None else ask_num(end_s, obj.at("end_s"))
    _check_span(events, start_s, end_s, obj)
    pins = obj.get("pins_standing", None)
    doubt = obj.get("doubt", None)
    is_break = obj.get("break", None)
    decided = obj.get("decided_points", None)
    shot = Shot(
        index=ask_int(obj.get("index"), obj.at("index"), lo=0),
        cue_ball=ask_enum(Ball, obj.get("cue_ball"), obj.at("cue_ball")),
        events=tuple(sorted(events, key=lambda e: e.t_s)),
        start_s=start_s,
        end_s=end_s,
        start_positions_mm=_positions(
            obj.get("start_positions_mm", {}), obj.at("start_positions_mm")
        ),
        end_positions_mm=_positions(obj.get("end_positions_mm", {}), obj.at("end_positions_mm")),
        paths_mm=_paths(obj.get("paths_mm", {}), obj.at("paths_mm")),
        pins_standing=None if pins is None else _pins(pins, obj.at("pins_standing")),
        doubt=None if doubt is None else ask_str(doubt, obj.at("doubt")),
        safety=ask_bool(obj.get("safety", False), obj.at("safety")),
        is_break=None if is_break is None else ask_bool(is_break, obj.at("break")),
        decided_points=None
        if decided is None
        else ask_int(decided, obj.at("decided_points"), lo=0),
    )
    if "review_decision" in obj.data:
        mark, at = obj.data["review_decision"], obj.at("review_decision")
        check_review_decision(mark, at, parse_event, shot.decided_points)
    return shot


def check_shot_order(before: Shot | None, shot: Shot, where: str) -> None:
    """Shots in time order: a shot does not start before the one before it started."""
    if before is None or before.start_s is None or shot.start_s is None:
        return
    if shot.start_s < before.start_s:
        raise ShotLogError(f"{where}.start_s: {shot.start_s} s is before the shot before it "
                           f"started ({before.start_s} s); shots are in time order")  # fmt: skip


def _check_span(events: tuple[Event, ...], start_s: float | None, end_s: float | None,
                obj: Obj) -> None:  # fmt: skip
    """A shot's times agree (:func:`referee._event_checks.span_problem`), else ShotLogError."""
    problem = span_problem(events, start_s, end_s)
    if problem is not None:
        field, why = problem
        raise ShotLogError(f"{obj.at(field)}: {why}")


def parse_start(data: Any, where: str, players: tuple[str, ...]) -> StartState:
    """The state of a match joined in progress (``match.start``, the match file's ``start``)."""
    obj = Obj(data, where, _START)

    def counts(key: str) -> dict[str, int]:
        sub = Obj(obj.get(key, {}), obj.at(key), set(players))
        return {p: ask_int(v, sub.at(p), lo=0) for p, v in sub.data.items()}

    def player(key: str) -> str | None:
        value = obj.get(key, None)
        if value is None:
            return None
        name = ask_str(value, obj.at(key))
        if name not in players:
            raise ShotLogError(f"{obj.at(key)}: {show(name)} is not one of the players")
        return name

    next_break = obj.get("next_break", None)
    start = StartState(
        board=counts("board"), innings=counts("innings"),
        run=ask_int(obj.get("run", 0), obj.at("run"), lo=0),
        shooter=player("shooter"), breaker=player("breaker"),
        set_index=ask_int(obj.get("set_index", 0), obj.at("set_index"), lo=0),
        sets_won=counts("sets_won"),
        next_break=None if next_break is None else ask_bool(next_break, obj.at("next_break")),
    )  # fmt: skip
    return start


def _xy(value: Any, where: str) -> XY:
    pair = ask_list(value, where)
    if len(pair) != 2:
        raise ShotLogError(f"{where}: expected [x_mm, y_mm], got {len(pair)} numbers")
    return (_mm(pair[0], f"{where}[0]"), _mm(pair[1], f"{where}[1]"))


def _mm(value: Any, where: str) -> float:
    """A coordinate in table mm: within 100 m of the table's corner (no camera sees farther)."""
    return ask_num(value, where, lo=-FAR_MM, hi=FAR_MM)


def _positions(data: Any, where: str) -> dict[Ball, XY]:
    obj = Obj(data, where)
    return {ask_enum(Ball, k, obj.at(k)): _xy(v, obj.at(k)) for k, v in obj.data.items()}


def _paths(data: Any, where: str) -> dict[Ball, tuple[TimedXY, ...]]:
    obj = Obj(data, where)
    out: dict[Ball, tuple[TimedXY, ...]] = {}
    for key, samples in obj.data.items():
        ball = ask_enum(Ball, key, obj.at(key))
        points: list[TimedXY] = []
        for i, s in enumerate(ask_list(samples, obj.at(key))):
            triple = ask_list(s, f"{obj.at(key)}[{i}]")
            if len(triple) != 3:
                raise ShotLogError(f"{obj.at(key)}[{i}]: expected [t_s, x_mm, y_mm]")
            at = f"{obj.at(key)}[{i}]"
            t = ask_num(triple[0], f"{at}[0]")
            points.append((t, _mm(triple[1], f"{at}[1]"), _mm(triple[2], f"{at}[2]")))
        out[ball] = tuple(points)
    return out


def _pins(data: Any, where: str) -> frozenset[Pin]:
    return frozenset(ask_enum(Pin, p, f"{where}[{i}]") for i, p in enumerate(ask_list(data, where)))


def parse_event(data: Any, where: str) -> Event:
    """Validate and convert one event object."""
    kind = Obj(data, where).get("kind")
    if not isinstance(kind, str) or kind not in _EVENT_FIELDS:  # a list would be unhashable
        choices = ", ".join(_EVENT_FIELDS)
        raise ShotLogError(
            f"{where}.kind: unknown event kind {show(kind)} (expected one of: {choices})"
        )
    obj = Obj(data, where, {"t_s", "kind", "doubt", "t_err_s"} | _EVENT_INFO | _EVENT_FIELDS[kind])
    t_s = ask_num(obj.get("t_s"), obj.at("t_s"))
    _check_info(obj)
    doubt_raw = obj.get("doubt", None)
    common: dict[str, Any] = {
        "t_s": t_s,
        "doubt": None if doubt_raw is None else ask_str(doubt_raw, obj.at("doubt")),
        "t_err_s": ask_num(obj.get("t_err_s", 0.0), obj.at("t_err_s"), lo=0.0),
    }
    return _EVENT_BUILDERS[kind](obj, common)


def _check_info(obj: Obj) -> None:
    ask_num(obj.get("confidence", 1.0), obj.at("confidence"), lo=0.0, hi=1.0)
    ask_str(obj.get("evidence", "-"), obj.at("evidence"))


def _ball(obj: Obj, key: str = "ball") -> Ball:
    return ask_enum(Ball, obj.get(key), obj.at(key))


def _contact(obj: Obj, common: dict[str, Any]) -> Event:
    pair = ask_list(obj.get("balls"), obj.at("balls"))
    if len(pair) != 2:
        raise ShotLogError(f"{obj.at('balls')}: expected 2 ball names, got {len(pair)}")
    a = ask_enum(Ball, pair[0], f"{obj.at('balls')}[0]")
    b = ask_enum(Ball, pair[1], f"{obj.at('balls')}[1]")
    if a == b:
        raise ShotLogError(f"{obj.at('balls')}: a ball cannot touch itself ({a})")
    return BallContact(balls=(a, b), **common)


def _call(obj: Obj, common: dict[str, Any]) -> Event:
    foul = ask_enum(Foul, obj.get("foul"), obj.at("foul"))
    if foul not in CALL_FOULS:
        choices = ", ".join(sorted(CALL_FOULS))
        raise ShotLogError(f"{obj.at('foul')}: '{foul}' cannot be called (callable: {choices})")
    return Call(foul=foul, **common)


def _pin(obj: Obj, common: dict[str, Any]) -> Event:
    knocker = obj.get("ball", None)
    ball = None if knocker is None else ask_enum(Ball, knocker, obj.at("ball"))
    return PinDown(pin=ask_enum(Pin, obj.get("pin"), obj.at("pin")), ball=ball, **common)


_EVENT_BUILDERS = {
    "ball": _contact,
    "cushion": lambda o, c: CushionContact(
        ball=_ball(o), cushion=ask_enum(Cushion, o.get("cushion"), o.at("cushion")), **c
    ),
    "pin": _pin,
    "off_table": lambda o, c: OffTable(ball=_ball(o), **c),
    "pocket": lambda o, c: Pocketed(
        ball=_ball(o), pocket=ask_enum(Pocket, o.get("pocket"), o.at("pocket")), **c
    ),
    "call": _call,
}


def _lag(data: Any, players: tuple[str, ...]) -> Lag:
    obj = Obj(
        data, "lag", {"winner", "breaker", "events", "start_positions_mm", "end_positions_mm"}
    )
    winner, breaker = obj.get("winner", None), obj.get("breaker", None)
    for key, name in (("winner", winner), ("breaker", breaker)):
        if name is not None and name not in players:
            raise ShotLogError(f"lag.{key}: {show(name)} is not one of the players {list(players)}")
    events = tuple(
        parse_event(e, f"lag.events[{i}]")
        for i, e in enumerate(ask_list(obj.get("events", []), "lag.events"))
    )
    return Lag(
        winner=winner,
        breaker=breaker,
        events=tuple(sorted(events, key=lambda e: e.t_s)),
        start_positions_mm=_positions(obj.get("start_positions_mm", {}), "lag.start_positions_mm"),
        end_positions_mm=_positions(obj.get("end_positions_mm", {}), "lag.end_positions_mm"),
    )

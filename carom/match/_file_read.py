"""Reading a match file (TOML or JSON, the web's structure): every key checked, one-line errors."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import fields
from enum import StrEnum
from pathlib import Path
from typing import Any

from carom.match._file import (
    FORMAT,
    KEYS,
    MatchFile,
    MatchFileError,
    parse_table,
)
from carom.match._read_bounded import MATCH_FILE_LIMITS, read_document
from carom.match._shot_clock import ClockSettings
from referee import (
    MAX_PLAYERS,
    Ball,
    CaromError,
    Discipline,
    RuleOptions,
    RulesError,
    Table,
    parse_start,
)
from referee.jsonbound import decode_document
from referee.jsonread import Obj, ask_bool, ask_enum, ask_int, ask_list, ask_num, ask_str, show

__all__ = [
    "MAX_COUNT",
    "MAX_NAME",
    "MAX_SETS",
    "load_match_file",
    "parse_match_file",
    "parse_match_file_text",
]

#: The largest target, inning limit and 7-pin start count a match may have (a page
#: shows its numbers exactly; the longest straight-rail targets are in the thousands).
MAX_COUNT = 100_000
#: The longest player name and the most sets a match file takes: what the web console and
#: its API take (a file its parser read was refused by POST /api/matches).
MAX_NAME = 40
MAX_SETS = 99

_TABLE_KEYS = {"length_mm", "width_mm", "ball_diameter_mm"}


def load_match_file(path: Path) -> MatchFile:
    """Read a match file: JSON if it ends in ``.json``, else TOML.

    Raises:
        MatchFileError: the file is missing, not TOML/JSON, or a key is wrong (the
            message starts with the file name, then the key).
    """
    toml = path.suffix.lower() != ".json"
    fix = "check the file (docs/match-file.md)"
    data = read_document(path, f"--match {path}", MATCH_FILE_LIMITS, MatchFileError, fix, toml=toml)
    try:
        return parse_match_file(data)
    except MatchFileError as exc:
        raise MatchFileError(f"{path}: {exc}") from None


def parse_match_file_text(text: str, source: str = "match file") -> MatchFile:
    """A match file's text (JSON when it starts with ``{``, else TOML), bounded as a file.

    The web's editor sends the text: the same limits as :func:`load_match_file` (size,
    nesting, digits) and the same checks.

    Raises:
        MatchFileError: one line naming ``source``, then the problem or the key.
    """
    toml = not text.lstrip().startswith("{")
    fix = "check the file (docs/match-file.md)"
    raw = text.encode("utf-8", "surrogatepass")
    data = decode_document(raw, source, MATCH_FILE_LIMITS, MatchFileError, fix, toml=toml)
    return parse_match_file(data)


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
        innings_limit=_opt(top, "innings_limit", lambda v, k: ask_int(v, k, lo=1, hi=MAX_COUNT)),
        sets=_sets(top.get("sets", 1)),
        equalizing=ask_bool(top.get("equalizing", True), "equalizing"),
        equalizing_from_break=ask_bool(
            top.get("equalizing_from_break", True), "equalizing_from_break"
        ),
        start_count=_opt(top, "start_count", lambda v, k: ask_int(v, k, lo=1, hi=MAX_COUNT)),
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
        if not name:
            raise MatchFileError(f"players[{i}]: a name is empty (or only spaces); give every "
                                 "player a name")  # fmt: skip
        if len(name) > MAX_NAME:  # what the web console and its API take
            raise MatchFileError(f"players[{i}]: at most {MAX_NAME} characters, got "
                                 f"{len(name)}; shorten the name")  # fmt: skip
        if name in players[:i]:
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
        return _per_player(value, "target", players, lambda v, k: ask_int(v, k, lo=1, hi=MAX_COUNT))
    return dict.fromkeys(players, ask_int(value, "target", lo=1, hi=MAX_COUNT))


def _sets(value: Any) -> int:
    sets = ask_int(value, "sets", lo=1, hi=MAX_SETS)
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

"""Writing a match file: the JSON structure (web console) and TOML (what people keep).

``parse_match_file(match_file_doc(m)) == m`` and
``parse_match_file(tomllib.loads(match_file_toml(m))) == m`` for every valid ``m``
(``tests/carom/test_match_file.py`` checks both on random set-ups). Only what differs
from the defaults is written, so a file stays short and a default that changes in a
later version reaches old files too.
"""

from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import fields
from enum import StrEnum
from typing import Any

from carom.match._file import FORMAT, ROTATION_BALLS, TABLE_PRESETS, MatchFile, parse_table
from carom.match._shot_clock import ClockSettings
from referee import Discipline, MatchConfig, RuleOptions, Table, start_json

__all__ = ["defaults_doc", "from_config", "match_file_doc", "match_file_toml"]


def match_file_doc(match: MatchFile) -> dict[str, Any]:
    """The match file as a JSON-ready dict (keys in the documented order)."""
    doc: dict[str, Any] = {"format": FORMAT, "discipline": str(match.discipline)}
    if match.table is not None:
        doc["table"] = _table_doc(match.table, match.discipline)
    doc["players"] = list(match.players)
    if match.cue_balls:
        doc["cue_balls"] = {p: str(b) for p, b in match.cue_balls.items()}
    elif match.rotation_balls != ROTATION_BALLS:
        doc["cue_balls"] = [str(b) for b in match.rotation_balls]
    if match.first_player is not None:
        doc["first_player"] = match.first_player
    if match.target:
        values = set(match.target.values())
        doc["target"] = values.pop() if len(values) == 1 else dict(match.target)
    defaults = MatchFile()
    for key in ("innings_limit", "sets", "equalizing", "equalizing_from_break", "start_count"):
        if getattr(match, key) != getattr(defaults, key):
            doc[key] = getattr(match, key)
    if match.rules:
        doc["rules"] = dict(match.rules)
    clock = _changed(match.clock, ClockSettings())
    if clock:
        doc["clock"] = clock
    if match.start is not None:
        doc["start"] = start_json(match.start)
    return doc


def defaults_doc() -> dict[str, Any]:
    """The default of every rule option and clock field (what a form shows when unset)."""
    clock = ClockSettings()
    return {
        "rules": RuleOptions().as_dict(),
        "clock": {
            f.name: str(v) if isinstance(v := getattr(clock, f.name), StrEnum) else v
            for f in fields(clock)
        },
    }


def _table_doc(table: Table, discipline: Discipline) -> str | dict[str, float]:
    """A preset's name when it reads back as ``table`` ("match" is the pyramid in 7-pin)."""
    for name in TABLE_PRESETS:
        if parse_table(name, discipline) == table:
            return name
    return {f.name: getattr(table, f.name) for f in fields(Table)}


def _changed(value: Any, default: Any) -> dict[str, Any]:
    """The fields of a dataclass ``value`` that differ from ``default`` (enums as text)."""
    out: dict[str, Any] = {}
    for f in fields(value):
        v = getattr(value, f.name)
        if v != getattr(default, f.name):
            out[f.name] = str(v) if isinstance(v, StrEnum) else v
    return out


def from_config(config: MatchConfig, clock: ClockSettings | None = None) -> MatchFile:
    """The match file of a referee set-up (every rule option that differs is kept).

    A ``first_player`` other than the start's shooter (a set-up an earlier version
    took; the shooter is at the table) is left out: the file would be refused.
    """
    players = config.players
    start, first = config.start, config.first_player
    if start is not None and start.shooter is not None and start.shooter != first:
        first = None
    plain_balls = {players[0]: "white", players[1]: "yellow"} if len(players) == 2 else {}
    pins = config.discipline is Discipline.PIN_CAROM_7
    same_balls = {p: str(v) for p, v in config.cue_balls.items()} == plain_balls
    default_target = dict.fromkeys(config.players, MatchConfig.default_target(config.discipline))
    return MatchFile(
        discipline=config.discipline, table=config.table, players=players,
        cue_balls={} if pins or same_balls else dict(config.cue_balls),
        rotation_balls=config.rotation_balls if config.rotates else ROTATION_BALLS,
        first_player=first,
        target={} if dict(config.target) == default_target else dict(config.target),
        innings_limit=config.innings_limit, sets=config.sets, equalizing=config.equalizing,
        equalizing_from_break=config.equalizing_from_break, start_count=config.start_count,
        rules=_changed(config.options, RuleOptions()), clock=clock or ClockSettings(),
        start=config.start,
    )  # fmt: skip


# --- TOML --------------------------------------------------------------------------


def match_file_toml(match: MatchFile) -> str:
    """The match file as TOML: top-level keys, then ``[rules]``, ``[clock]``, ``[start]``."""
    doc = match_file_doc(match)
    lines = [f"{_key(k)} = {_value(v)}" for k, v in doc.items() if not _is_section(k, v)]
    for key, value in doc.items():
        if _is_section(key, value):
            lines += ["", f"[{key}]"]
            lines += [f"{_key(k)} = {_value(v)}" for k, v in value.items()]
    return "\n".join(lines) + "\n"


def _is_section(key: str, value: Any) -> bool:
    return key in ("rules", "clock", "start") and isinstance(value, Mapping)


def _key(key: str) -> str:
    bare = key and all(c.isascii() and (c.isalnum() or c in "-_") for c in key)
    return key if bare else _string(key)


def _string(text: str) -> str:
    # A JSON string is a TOML basic string, except for DEL, which TOML wants escaped.
    return json.dumps(text, ensure_ascii=False).replace("\x7f", "\\u007f")


def _value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int):
        return str(value)
    if isinstance(value, float):
        return repr(value)  # finite: the reader takes no other
    if isinstance(value, str):
        return _string(value)
    if isinstance(value, list):
        return "[" + ", ".join(_value(v) for v in value) + "]"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_key(k)} = {_value(v)}" for k, v in value.items()) + "}"
    raise TypeError(f"no TOML for {type(value).__name__}")  # pragma: no cover

"""The match file as the web takes it: pydantic shapes for OpenAPI, the file's reader after.

``POST /api/matches`` and ``POST /api/match-file/toml`` take the match-file structure
(``docs/match-file.md``) as JSON. The models here describe its shape (unknown keys
refused, the rule options and clock fields generated from the code so none is missing)
and :func:`match_of` hands what was sent to :func:`carom.match._file.parse_match_file`,
so the web and the files on disk are read by one reader with the same one-line errors.
"""

from __future__ import annotations

from dataclasses import MISSING, fields
from enum import StrEnum
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictBool, StrictInt, create_model

from carom.match import ClockSettings, MatchFile, parse_match_file
from referee import MAX_PLAYERS, Discipline, RuleOptions

__all__ = ["MatchFileIn", "MatchFileText", "match_of"]

Name = Annotated[str, Field(min_length=1, max_length=40, pattern=r"^[^\x00-\x1f\x7f]+$")]
Count = Annotated[StrictInt, Field(ge=0, le=100000)]
#: A target, an inning limit, a 7-pin start count (the match file's bound, MAX_COUNT).
Positive = Annotated[StrictInt, Field(ge=1, le=100000)]
PerPlayer = dict[Name, Count]
BallName = Literal["white", "yellow", "dotted"]


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=200, strict=True)


def _field_type(type_name: str, default: Any) -> Any:
    """The pydantic type of a dataclass field, from its declared type and default."""
    if isinstance(default, StrEnum):  # by value: strict models take no text for an enum
        return Annotated[type(default), Field(strict=False)]
    return {"bool": StrictBool, "int": StrictInt, "float": float,
            "int | None": StrictInt | None}[type_name]  # fmt: skip


def _model_of(cls: Any, name: str, doc: str) -> Any:
    """A strict model with every field of dataclass ``cls`` (all optional)."""
    spec: dict[str, Any] = {}
    for f in fields(cls):
        default = f.default if f.default is not MISSING else None
        spec[f.name] = (_field_type(str(f.type), default) | None, Field(default=default))
    model = create_model(name, __base__=_Strict, **spec)
    model.__doc__ = doc
    return model


RulesIn = _model_of(RuleOptions, "RulesIn", "Rule options (docs/rules-options.md).")
ClockIn = _model_of(ClockSettings, "ClockIn", "The shot clock and time-outs.")


class TableIn(_Strict):
    """A table by its sizes in mm (or give a preset name instead)."""

    length_mm: float
    width_mm: float
    ball_diameter_mm: float = 61.5


class StartIn(_Strict):
    """A match joined in progress (the shot log's ``match.start``)."""

    board: PerPlayer | None = None
    innings: PerPlayer | None = None
    run: Count | None = None
    shooter: Name | None = None
    breaker: Name | None = None
    set_index: Count | None = None
    sets_won: PerPlayer | None = None
    next_break: StrictBool | None = None


class MatchFileIn(_Strict):
    """A match file (``carom-match/1``, docs/match-file.md) as JSON."""

    format: Literal["carom-match/1"] = "carom-match/1"
    discipline: Annotated[Discipline, Field(strict=False)] = Discipline.THREE_CUSHION
    table: Annotated[str, Field(max_length=40)] | TableIn | None = None
    players: Annotated[list[Name], Field(min_length=2, max_length=MAX_PLAYERS)] = ["A", "B"]
    # each player's ball, or (three players or more) the two whites that rotate
    cue_balls: (
        dict[Name, BallName] | Annotated[list[BallName], Field(min_length=2, max_length=2)] | None
    ) = None
    first_player: Name | None = None
    target: Positive | dict[Name, Positive] | None = None
    innings_limit: Positive | None = None
    sets: Annotated[StrictInt, Field(ge=1, le=99)] = 1
    equalizing: StrictBool = True
    equalizing_from_break: StrictBool = True
    start_count: Positive | None = None
    rules: RulesIn | None = None  # type: ignore[valid-type]
    clock: ClockIn | None = None  # type: ignore[valid-type]
    start: StartIn | None = None


class MatchFileText(_Strict):
    """A match file's text, TOML or JSON: ``POST /api/match-file/parse``."""

    model_config = ConfigDict(extra="forbid", strict=True, str_max_length=60000)

    text: str


def match_of(body: MatchFileIn) -> MatchFile:
    """The match file that was sent (raises MatchFileError naming the key)."""
    return parse_match_file(body.model_dump(mode="json", exclude_unset=True))

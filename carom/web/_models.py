"""Request bodies, validated at the edge (pydantic lives here only, never in ``referee``)."""

from __future__ import annotations

from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, StrictInt, StringConstraints, model_validator

from carom.live import DecisionKind, FoulCall, PersonCall, ReviewDecision, TimeoutCall, UndoCall
from referee import Correction, CorrectionKind, Foul

__all__ = ["CallIn", "LanguageIn", "call_value"]

Name = Annotated[str, StringConstraints(strip_whitespace=True, min_length=1, max_length=40,
                                        pattern=r"^[^\x00-\x1f\x7f]+$")]  # fmt: skip


class _Strict(BaseModel):
    model_config = ConfigDict(extra="forbid", str_max_length=200)


#: The fouls a person may call (``referee.CALL_FOULS``; a test keeps them equal).
CallableFoul = Literal[
    "balls_moving", "double_hit", "foot", "illegal_jump", "jump_over_pins", "miscue", "push",
    "shot_clock", "touch", "wrong_ball",
]  # fmt: skip
#: Whole numbers only: JSON's true, 2.0 or "3" is refused by name, never read as one.
Points = Annotated[StrictInt, Field(ge=-10000, le=10000)]


class FoulIn(_Strict):
    """A foul the camera cannot see, called on the last shot (or the one held for review)."""

    kind: Literal["foul"]
    foul: CallableFoul


class DecisionIn(_Strict):
    """Settle the shot held for review: accept, reject, or its points (0 or more)."""

    kind: Literal["decision"]
    decision: DecisionKind
    points: Annotated[StrictInt, Field(ge=0, le=10000)] | None = None

    @model_validator(mode="after")
    def _check(self) -> DecisionIn:
        if (self.decision is DecisionKind.POINTS) != (self.points is not None):
            raise ValueError("points go with decision 'points' only (and it needs them)")
        return self


class UndoIn(_Strict):
    """Take back the last input."""

    kind: Literal["undo"]


class CorrectionIn(_Strict):
    """Add (or remove, negative) points for a player."""

    kind: Literal["correction"]
    player: Name
    points: Points

    @model_validator(mode="after")
    def _check(self) -> CorrectionIn:
        if self.points == 0:
            raise ValueError("points must not be zero")
        return self


class TimeoutIn(_Strict):
    """A time-out (extension) for a player (default: the one at the table)."""

    kind: Literal["timeout"]
    player: Name | None = None


class TurnIn(_Strict):
    """Give the turn to a player."""

    kind: Literal["turn"]
    player: Name


class BreakIn(_Strict):
    """The player at the table asks for the break position."""

    kind: Literal["break"]


#: A person's call: ``POST /api/calls`` (told apart by ``kind``).
CallIn = Annotated[
    FoulIn | DecisionIn | UndoIn | CorrectionIn | TimeoutIn | TurnIn | BreakIn,
    Field(discriminator="kind"),
]
AnyCall = FoulIn | DecisionIn | UndoIn | CorrectionIn | TimeoutIn | TurnIn | BreakIn


def call_value(
    call: AnyCall, players: tuple[str, ...], *, by_hand: bool = False
) -> PersonCall | ReviewDecision:
    """The live session's value of a validated call (players checked against the match).

    ``by_hand``: no camera records the strokes (``carom serve`` without ``--camera``):
    corrections and turns are the match's innings (:class:`referee.Correction`).

    Raises:
        ValueError: the call names someone who is not a player of this match.
    """
    player = getattr(call, "player", None)
    if player is not None and player not in players:
        raise ValueError(f"player {player!r} is not one of {', '.join(map(repr, players))}")
    if isinstance(call, FoulIn):
        return FoulCall(Foul(call.foul))
    if isinstance(call, DecisionIn):
        return ReviewDecision(call.decision, call.points)
    if isinstance(call, UndoIn):
        return UndoCall()
    if isinstance(call, TimeoutIn):
        return TimeoutCall(call.player)
    if isinstance(call, CorrectionIn):
        return Correction(CorrectionKind.POINTS, call.player, call.points, "web console",
                          by_hand=by_hand)  # fmt: skip
    if isinstance(call, TurnIn):
        return Correction(CorrectionKind.TURN, call.player, note="web console", by_hand=by_hand)
    return Correction(CorrectionKind.BREAK_POSITION, "")


Pixel = Annotated[float, Field(ge=-100000, le=100000, allow_inf_nan=False)]
PointPx = Annotated[list[Pixel], Field(min_length=2, max_length=2)]


class FitIn(_Strict):
    """Marked points for a refit: ``POST /api/calibration/fit``.

    ``corners_px``: the four playing-surface corners (u, v) px; ``diamonds_px``: up to 24
    diamonds, position = diamond index as ``GET /api/calibration`` lists them (null: not
    marked).
    """

    corners_px: Annotated[list[PointPx], Field(min_length=4, max_length=4)]
    diamonds_px: Annotated[list[PointPx | None], Field(max_length=24)] | None = None


class LanguageIn(_Strict):
    """The table's page language: ``POST /api/settings/language`` (null: each browser's)."""

    language: Literal["en", "ko", "tr", "nl", "fr", "es"] | None

"""Match state values: immutable snapshots the state machine moves between."""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, replace
from enum import StrEnum

from referee._config import MatchConfig
from referee._errors import RulesError, UnknownBallError
from referee._frozen_dict import freeze_fields
from referee._names import Ball, NextPosition
from referee._reason import Reason, english_reason
from referee._shot import Carry
from referee._verdict import Verdict

__all__ = [
    "AuditEntry",
    "Correction",
    "CorrectionKind",
    "GameResult",
    "MatchState",
    "Phase",
    "Score",
    "ShotRecord",
]


class Phase(StrEnum):
    """Where the match is: waiting for the lag, being played, or over."""

    LAG = "lag"
    PLAYING = "playing"
    OVER = "over"


@dataclass(frozen=True, slots=True)
class Score:
    """One player's score in the current game (set).

    Invariant: ``points == sum(runs) + current_run + awarded + corrected + carried``.
    ``runs`` are the finished innings' runs (own strokes only); ``awarded`` comes
    from the opponent's fouls (five-pins); ``corrected`` from referee corrections
    and the five-pins cut back to the target; ``carried`` is what the record
    started with when it joined a match in progress. ``penalties`` are the 7-pin
    game's penalty points, added to the remaining count.
    """

    points: int = 0
    innings: int = 0
    runs: tuple[int, ...] = ()
    current_run: int = 0
    awarded: int = 0
    corrected: int = 0
    carried: int = 0
    penalties: int = 0
    in_inning: bool = False

    @property
    def high_run(self) -> int:
        """The longest run, the current one included."""
        return max((*self.runs, self.current_run), default=0)

    def after_stroke(self, verdict: Verdict) -> Score:
        """This score after a stroke judged ``verdict``.

        An inning begins (and is counted) if none was under way, the points go to its
        run, and it ends if the verdict says so.
        """
        score = self
        if not score.in_inning:
            score = replace(score, innings=score.innings + 1, in_inning=True)
        score = replace(
            score,
            points=score.points + verdict.points,
            current_run=score.current_run + verdict.points,
            penalties=score.penalties + verdict.penalty,
        )
        return score.closed() if verdict.inning_ends else score

    def closed(self) -> Score:
        """This score with the inning under way (if any) finished."""
        if not self.in_inning:
            return self
        return replace(self, runs=(*self.runs, self.current_run), current_run=0, in_inning=False)


@dataclass(frozen=True, slots=True)
class GameResult:
    """A finished game (set): ``winner`` is ``None`` for a draw."""

    winner: str | None
    points: Mapping[str, int]
    innings: Mapping[str, int]
    high_run: Mapping[str, int]

    def __post_init__(self) -> None:
        freeze_fields(self, "points", "innings", "high_run")


class CorrectionKind(StrEnum):
    """What a referee correction changes."""

    POINTS = "points"
    TURN = "turn"
    BREAK_POSITION = "break_position"


@dataclass(frozen=True, slots=True)
class Correction:
    """A referee's correction: add (or, negative, remove) ``points``, or give the turn.

    ``kind=POINTS`` adds ``points`` to ``player``; ``kind=TURN`` makes ``player`` the
    shooter (resuming their inning if the last stroke wrongly ended it);
    ``kind=BREAK_POSITION`` grants the player at the table the break position (a
    request: cue ball frozen to the red in three-cushion [rules.md §5], no legal
    stroke from frozen balls in five-pins [§6]).
    """

    kind: CorrectionKind
    player: str
    points: int = 0
    note: str = ""
    #: The match is kept by hand (no camera records strokes): points to the player at
    #: the table are scored in their inning and a turn ends it (:mod:`referee._by_hand`).
    by_hand: bool = False

    def __post_init__(self) -> None:
        try:
            object.__setattr__(self, "kind", CorrectionKind(self.kind))
        except ValueError:
            kinds = ", ".join(CorrectionKind)
            raise RulesError(f"correction kind {self.kind!r}: unknown; one of {kinds}") from None
        if not isinstance(self.points, int) or isinstance(self.points, bool):
            raise RulesError(f"correction points: a whole number, got {self.points!r}")


@dataclass(frozen=True, slots=True)
class AuditEntry:
    """One line of the audit trail: what a person changed, after how many shots."""

    version: int
    shots_played: int
    action: str
    detail: str


@dataclass(frozen=True, slots=True, kw_only=True)
class ShotRecord:
    """A judged shot as the match saw it: who shot, the verdict, the board after it.

    ``is_break``: it was judged as a break; ``break_why``: the rule that said so
    (the shot log, the balls' layout, the match's position), in one sentence;
    ``break_part`` the same as a keyed phrase. ``note`` says who was found at the
    table and how a game ended, in English; ``note_parts`` the same as keyed phrases.
    The English is made from the parts when only they are given.
    """

    index: int
    player: str
    verdict: Verdict
    score_after: Mapping[str, int]
    inning: int
    run: int
    set_index: int
    game_over: bool
    note: str = ""
    note_parts: tuple[Reason, ...] = ()
    is_break: bool = False
    break_why: str = ""
    break_part: Reason | None = None

    @property
    def break_parts(self) -> tuple[Reason, ...]:
        """``break_part`` as parts (none when the shot has none)."""
        return () if self.break_part is None else (self.break_part,)

    def __post_init__(self) -> None:
        if not self.note and self.note_parts:
            object.__setattr__(self, "note", english_reason(self.note_parts))
        if not self.break_why and self.break_part is not None:
            object.__setattr__(self, "break_why", self.break_part.english())


@dataclass(frozen=True, slots=True, kw_only=True)
class MatchState:
    """A complete, immutable snapshot of a match.

    ``breaker`` broke the current game; ``shooter`` plays the next stroke;
    ``equalizing`` is true during the equalizing inning; ``must_attempt`` holds the
    players whose last inning ended with a declared safety or a foul (safety rule);
    ``version`` grows with every accepted input (shot, lag, correction, undo).
    ``next_position`` is the position the rules give the next stroke;
    ``break_due`` is true when the match itself established that it is the break
    (after the lag, a new set, a break-position ruling), false at the start of a
    record that may have joined a match in progress. ``to_equalize``: during the
    equalizing inning, the players still owed one, the one at the table first.
    ``last_cue_ball``: the ball the previous stroke was played with (the whites
    rotate by it with three players or more; ``None``: no stroke seen yet).
    ``tied``: the players who share a drawn match (both of two; with more players
    those level at the top). ``last_start_s``: when the last stroke with a time began
    (a shot may not start before it, as the shot-log reader checks).
    """

    config: MatchConfig
    phase: Phase
    scores: Mapping[str, Score]
    sets_won: Mapping[str, int]
    breaker: str | None = None
    shooter: str | None = None
    set_index: int = 0
    games: tuple[GameResult, ...] = ()
    next_position: NextPosition = NextPosition.BREAK
    break_due: bool = False
    carry: Carry = field(default_factory=Carry)
    equalizing: bool = False
    to_equalize: tuple[str, ...] = ()
    shots_played: int = 0
    winner: str | None = None
    draw: bool = False
    tied: tuple[str, ...] = ()
    last_cue_ball: Ball | None = None
    last_inning_ended_by: str | None = None
    must_attempt: frozenset[str] = frozenset()
    audit: tuple[AuditEntry, ...] = ()
    version: int = 0
    last_start_s: float | None = None

    def __post_init__(self) -> None:
        freeze_fields(self, "scores", "sets_won")

    def board(self, player: str) -> int:
        """What the scoreboard shows: points, or the remaining count in the 7-pin game.

        Raises:
            UnknownBallError: ``player`` is not one of the match's.
        """
        if player not in self.scores:
            shown = ", ".join(repr(p) for p in self.config.players)
            raise UnknownBallError(f"player {player!r} is not one of {shown}")
        score = self.scores[player]
        start = self.config.countdown_from
        if start is not None:
            return start - score.points + score.penalties
        return score.points

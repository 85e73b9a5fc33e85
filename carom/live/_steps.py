"""The journal machine's vocabulary: the referee inputs an entry means, and its plan.

A journal entry becomes steps (:data:`Step`: a lag, a join, a shot, a correction, an
undo), checked into a :class:`Plan` before anything changes; an executed plan leaves
an :class:`Action` a person's undo can take back. A shot the referee cannot settle
alone waits as a :class:`PendingReview`.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum

from carom.live._account import Account
from carom.live._store import LiveError
from referee import (
    Correction,
    Event,
    Lag,
    Phase,
    ReasonKey,
    Shot,
    ShotRecord,
    StartState,
    event_code,
)

__all__ = [
    "Action",
    "CorrectStep",
    "Decided",
    "Info",
    "JoinStep",
    "LagStep",
    "Op",
    "PendingReview",
    "Plan",
    "PlayStep",
    "ReviewPending",
    "Step",
    "UndoStep",
]

#: Vision's (confidence, evidence) of a shot's events, by position in ``Shot.events``.
Info = Mapping[int, tuple[float, str]]


class ReviewPending(LiveError):
    """A shot waits for a person's review decision; nothing more is scored until then."""


@dataclass(frozen=True, slots=True, kw_only=True)
class PendingReview:
    """A shot held until a person decides.

    Its verdict asks for review, or it was played while scoring was paused (camera
    lost, calibration drift). ``reason`` says why; ``record`` is the verdict as
    judged; ``if_accepted`` / ``if_rejected`` what ``accept`` / ``reject`` would give.
    """

    shot: Shot
    info: Info
    reason: str
    record: ShotRecord
    if_accepted: ShotRecord
    if_rejected: ShotRecord
    video_t_s: float | None
    #: The journal entry the shot came in with (its kept trajectories); None: unknown.
    entry: int | None = None


@dataclass(frozen=True, slots=True)
class LagStep:
    """Record a lag."""

    lag: Lag


@dataclass(frozen=True, slots=True)
class JoinStep:
    """No lag was seen: join the match in progress (unknown shooter: the ball tells)."""

    start: StartState


class Caller(StrEnum):
    """Who made a call or a review decision, as the journal keeps it (``who``).

    The web history names these in the page's language (``hist.by_*``); a program that
    calls :meth:`carom.live.LiveSession.call` may give a name of its own.
    """

    WEB = "web"  # the web console
    KEYBOARD = "keyboard"  # carom live's keys
    SHOT_CLOCK = "shot clock"  # the shot clock's own foul when time ran out


@dataclass(frozen=True, slots=True, kw_only=True)
class Decided:
    """How a person settled a shot that was held for review, kept for the export.

    ``decision`` is ``accept``, ``reject``, ``points`` (``points`` the points given) or
    ``foul`` (a foul called on the held shot, by a person or the shot clock); ``held_for``
    why the shot was held; ``doubtful`` the events the referee was unsure of, as vision
    saw them (a ``doubt``, or the time the review names as deciding), with vision's
    (confidence, evidence) by position in ``doubtful``; ``who`` and ``at`` the journal
    entry's. ``by_corrections``: a ``points`` decision an earlier version stored, which
    replays as corrections after the accepted shot (the shot log cannot hold them). Not
    judged: the decision is already in the shot (its events, ``decided_points``).
    """

    decision: str
    held_for: str
    doubtful: tuple[Event, ...] = ()
    doubtful_info: Info = field(default_factory=dict)
    points: int | None = None
    by_corrections: bool = False
    who: str | None = None
    at: str | None = None

    @classmethod
    def on(
        cls, held: PendingReview, decision: str, by: tuple[str | None, str | None], *,
        points: int | None = None, by_corrections: bool = False,
    ) -> Decided:  # fmt: skip
        """The decision ``decision`` on ``held`` by ``by`` (who, at).

        Its doubtful events: those with a ``doubt``, and the one whose time the review
        names as deciding the call (every event vision gives has a small ``t_err_s``).
        """
        decisive = {dict(r.fields).get("event") for r in held.record.verdict.review_parts
                    if r.key is ReasonKey.REVIEW_DECIDES}  # fmt: skip
        unsure = [i for i, e in enumerate(held.shot.events)
                  if e.doubt is not None or event_code(e) in decisive]  # fmt: skip
        return cls(decision=decision, held_for=held.reason, who=by[0], at=by[1],
                   doubtful=tuple(held.shot.events[i] for i in unsure), points=points,
                   doubtful_info={k: held.info[i] for k, i in enumerate(unsure) if i in held.info},
                   by_corrections=by_corrections)  # fmt: skip


@dataclass(frozen=True, slots=True)
class PlayStep:
    """Judge and record a shot; ``info`` and ``decided`` are kept for the export, not judged.

    ``entry`` is the journal entry (``seq``) the shot came in with, whose trajectories
    the store keeps (a foul call or a review decision plays the same shot again).
    """

    shot: Shot
    info: Info = field(default_factory=dict, compare=False)
    entry: int | None = field(default=None, compare=False)
    decided: Decided | None = field(default=None, compare=False)


@dataclass(frozen=True, slots=True)
class CorrectStep:
    """Apply a referee correction."""

    correction: Correction


@dataclass(frozen=True, slots=True)
class UndoStep:
    """Take back the referee's last input."""


Op = LagStep | JoinStep | PlayStep | CorrectStep
Step = Op | UndoStep


@dataclass(frozen=True, slots=True, kw_only=True)
class Action:
    """What one entry did, so that a person's undo can take it back exactly."""

    account: Account
    pushed: int
    restore: tuple[Op, ...]
    pending: PendingReview | None
    timeouts: Mapping[tuple[int, str], int]


@dataclass(frozen=True, slots=True, kw_only=True)
class Plan:
    """An entry's checked effect, not yet carried out: ``account`` says what it does."""

    account: Account
    steps: tuple[Step, ...]
    phase: Phase
    records: tuple[ShotRecord, ...]
    pending: PendingReview | None
    timeouts: Mapping[tuple[int, str], int]
    paused: str | None
    action: Action | None = None
    pop: bool = False
    video_t_s: float | None = None

    @property
    def what(self) -> str:
        """The account in English (``carom live``'s line)."""
        return self.account.english

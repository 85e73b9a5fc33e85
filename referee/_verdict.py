"""The verdict on one shot."""

from __future__ import annotations

from dataclasses import dataclass, field, replace

from referee._names import Ball, Foul, NextPosition, Spot
from referee._reason import Reason, english_reason
from referee._shot import Carry
from referee._table import XY

__all__ = ["Respot", "Verdict", "announce", "with_review"]


@dataclass(frozen=True, slots=True)
class Respot:
    """Put ``ball`` on ``spot`` at ``xy_mm`` (table mm) once every ball has stopped."""

    ball: Ball
    spot: Spot
    xy_mm: XY


@dataclass(frozen=True, slots=True, kw_only=True)
class Verdict:
    """What the referee decides about one stroke.

    Points are split three ways so each discipline's scoring fits:

    * ``points``: earned by the shooter (toward the target; in the 7-pin game
      subtracted from the shooter's remaining count);
    * ``opponent_points``: given to the opponent (five-pins fouls);
    * ``penalty``: added to the shooter's remaining count (7-pin game).

    ``reason`` is one human sentence (English); ``reason_parts`` the same as keyed
    phrases (``referee._reason``) for readers that translate it, empty where the core
    has no key for it yet; given only the parts, ``reason`` is their English.
    ``announcements`` are what a referee says aloud (frozen balls, ball in hand, a
    wrong break position), each an English sentence; ``announcement_parts`` the same,
    one keyed phrase each (given only those, ``announcements`` is their English; see
    :func:`announce`). ``review`` says
    why a person should look again (``None`` when the evidence is clear);
    ``review_parts`` the same as keyed phrases (given only those, ``review`` is their
    English; :func:`with_review` sets both). ``carry``
    is the rule memory for the next stroke of the same inning.
    """

    inning_ends: bool
    reason: str = ""
    points: int = 0
    opponent_points: int = 0
    penalty: int = 0
    fouls: tuple[Foul, ...] = ()
    review: str | None = None
    respots: tuple[Respot, ...] = ()
    next_position: NextPosition = NextPosition.PLAY_ON
    announcements: tuple[str, ...] = ()
    wins_game: bool = False
    carry: Carry = field(default_factory=Carry)
    reason_parts: tuple[Reason, ...] = ()
    announcement_parts: tuple[Reason, ...] = ()
    review_parts: tuple[Reason, ...] = ()

    def __post_init__(self) -> None:
        if self.review is None and self.review_parts:
            object.__setattr__(self, "review", english_reason(self.review_parts))
        if not self.reason and self.reason_parts:
            object.__setattr__(self, "reason", english_reason(self.reason_parts))
        if not self.announcements and self.announcement_parts:
            said = tuple(p.english() for p in self.announcement_parts)
            object.__setattr__(self, "announcements", said)

    @property
    def is_foul(self) -> bool:
        """True if any foul was called."""
        return bool(self.fouls)


def announce(verdict: Verdict, parts: tuple[Reason, ...], *, first: bool = False) -> Verdict:
    """``verdict`` with the announcements ``parts`` added after (``first``: before) its own.

    The English sentences and the keyed phrases stay in step.
    """
    said = tuple(p.english() for p in parts)
    if first:
        return replace(verdict, announcements=said + verdict.announcements,
                       announcement_parts=parts + verdict.announcement_parts)  # fmt: skip
    return replace(verdict, announcements=verdict.announcements + said,
                   announcement_parts=verdict.announcement_parts + parts)  # fmt: skip


def with_review(verdict: Verdict, parts: tuple[Reason, ...]) -> Verdict:
    """``verdict`` asking for review for the reason ``parts`` (none: no review)."""
    return replace(verdict, review=english_reason(parts) if parts else None, review_parts=parts)

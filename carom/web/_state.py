"""The STATE document every page and overlay shows (see ``docs/web.md``).

Pure functions from the live session's values to JSON-ready dicts; the shape is the
contract with the pages (``carom/web/static/``) and with docs/web.md's STATE, so a change here
is a change there.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from carom.board import board_summary, board_warning, board_warning_parts
from carom.live import PendingReview, SessionUpdate
from carom.web._paused import held_paused, paused_parts
from hardware import LinkStatus
from referee import (
    MatchState,
    Phase,
    ShotRecord,
    Verdict,
    average_text,
    match_stats,
    reason_json,
)

__all__ = ["ClockView", "record_doc", "scoreboard_doc", "state_doc", "verdict_word"]


@dataclass(frozen=True, slots=True)
class ClockView:
    """The shot clock as shown: seconds left (float), running, warning, time up.

    ``expiry``: what running out does, ``"warn"`` (shown only) or ``"foul"`` (the stroke
    begun after it is the foul ``shot_clock``).
    """

    remaining_s: float
    running: bool
    warning: bool
    expired: bool = False
    expiry: str = "warn"

    def doc(self) -> dict[str, Any]:
        """The STATE ``shot_clock`` object."""
        return {"remaining_s": round(self.remaining_s, 1), "running": self.running,
                "warning": self.warning, "expired": self.expired,
                "expiry": self.expiry}  # fmt: skip


def verdict_word(verdict: Verdict) -> str:
    """``"foul"``, ``"point"``, ``"review"`` (judged but doubtful) or ``"miss"``."""
    if verdict.fouls:
        return "foul"
    if verdict.points > 0:
        return "point"
    return "review" if verdict.review else "miss"


def diagram_url(match_id: int, n: int) -> str:
    """Where the diagram of shot ``n`` of match ``match_id`` is served."""
    return f"/api/matches/{match_id}/shots/{n}/diagram.svg"


def record_doc(match_id: int, record: ShotRecord) -> dict[str, Any]:
    """One judged shot: its number, shooter, points, verdict word, reason, diagram.

    ``reason_parts``: the reason as keyed phrases (``referee.reason_json``), which the
    pages say in their language (English ``reason`` where a key is unknown);
    ``announcement_parts`` the same for the ``announcements``, one phrase each;
    ``review_parts`` for the ``review``.

    ``break``/``break_rule``: judged as a break or not and the rule that said so;
    ``announcements`` (frozen balls, a wrong break position) and ``note`` (who was
    found at the table, the end of a game) as the scoresheet prints them; the
    ``_parts`` of each the same as keyed phrases (``referee.reason_json``).
    """
    v = record.verdict
    return {
        "n": record.index, "shooter": record.player, "points": v.points,
        "verdict": verdict_word(v), "reason": v.reason,
        "reason_parts": reason_json(v.reason_parts), "fouls": [str(f) for f in v.fouls],
        "score_after": dict(record.score_after), "inning": record.inning, "run": record.run,
        "diagram_url": diagram_url(match_id, record.index), "break": record.is_break,
        "break_rule": record.break_why, "announcements": list(v.announcements),
        "announcement_parts": reason_json(v.announcement_parts),
        "note": record.note, "note_parts": reason_json(record.note_parts), "review": v.review,
        "review_parts": reason_json(v.review_parts),
        "break_rule_parts": reason_json(record.break_parts),
    }  # fmt: skip


def pending_doc(pending: PendingReview | None) -> dict[str, Any] | None:
    """The shot held for review (``None``: none).

    ``reason_parts``: the reason as keyed phrases when it is the verdict's review
    (``Verdict.review_parts``); none when scoring was paused: ``held_paused`` then has
    why (``why``, and ``why_parts`` where keyed), else it is None.
    """
    if pending is None:
        return None
    verdict = pending.record.verdict
    parts = verdict.review_parts if pending.reason == verdict.review else ()
    return {
        "shot_n": pending.shot.index, "reason": pending.reason,
        "reason_parts": reason_json(parts), "held_paused": held_paused(pending.reason),
        "shooter": pending.record.player,
        "if_accepted": pending.if_accepted.verdict.points,
        "if_rejected": pending.if_rejected.verdict.points,
        "diagram_url": "/api/review/diagram.svg", "replay_url": "/api/review/replay",
    }  # fmt: skip


def current_inning(state: MatchState) -> int:
    """The inning being played: the shooter's, counting the one they are about to begin.

    ``Score.innings`` counts innings begun (by a stroke); between innings the next
    stroke begins a new one. With no shooter (match over): the most innings begun.
    """
    if state.shooter is None or state.shooter not in state.scores:
        return max([1, *(s.innings for s in state.scores.values())])
    score = state.scores[state.shooter]
    return score.innings if score.in_inning else score.innings + 1


def players_doc(state: MatchState, timeouts: Sequence[int]) -> list[dict[str, Any]]:
    """Each player's line: this game's points, board, innings, average, run; sets won."""
    stats = match_stats(state)
    out = []
    for i, p in enumerate(state.config.players):
        s = state.scores[p]
        out.append({
            "name": p, "points": s.points, "board": state.board(p),
            "target": state.config.target.get(p), "innings": s.innings,
            "average": average_text(s.points, s.innings), "high_run": stats[p].high_run,
            "run": s.current_run, "sets_won": state.sets_won[p],
            "timeouts": timeouts[i] if i < len(timeouts) else 0,
        })  # fmt: skip
    return out


def match_doc(match_id: int, state: MatchState, timeouts: Sequence[int],
              clock: ClockView | None) -> dict[str, Any]:  # fmt: skip
    """The STATE ``match`` object."""
    cfg = state.config
    return {
        "id": match_id, "discipline": str(cfg.discipline), "phase": str(state.phase),
        "shooter": state.shooter, "winner": state.winner, "draw": state.draw,
        "tied": list(state.tied),
        "over": state.phase is Phase.OVER, "equalizing": state.equalizing,
        "inning": current_inning(state), "inning_limit": cfg.innings_limit,
        "set_index": state.set_index, "sets": cfg.sets,
        "players": players_doc(state, timeouts),
        "shot_clock": None if clock is None else clock.doc(),
    }  # fmt: skip


def scoreboard_doc(status: LinkStatus | None) -> dict[str, Any] | None:
    """The STATE ``scoreboard`` object (None: no board on this table).

    ``link``: the port's state; ``confirmed``: the board acknowledged the score shown
    now; ``shows``: what it acknowledged last (``Ana 5 : 4 Ben, over``; None: nothing);
    ``warning``: a sentence when it has been behind for a while (None: it is not), and
    ``warning_parts`` the same keyed (``carom.board.board_warning_parts``).
    """
    if status is None:
        return None
    return {"link": str(status.state), "confirmed": status.confirmed,
            "shows": board_summary(status.shown) if status.shown is not None else None,
            "warning": board_warning(status),
            "warning_parts": board_warning_parts(status)}  # fmt: skip


def state_doc(
    *,
    version: int,
    what: str,
    what_parts: dict[str, Any] | None = None,
    camera: str,
    match_id: int | None,
    update: SessionUpdate | None,
    records: Sequence[ShotRecord],
    clock: ClockView | None,
    scoreboard: dict[str, Any] | None = None,
) -> dict[str, Any]:
    """The full STATE document (``update`` None: no match on the table).

    ``what_parts``: ``what`` as a keyed account line (:func:`account_doc`; None: not
    keyed). ``paused``: why scoring is paused (None: it is not); ``paused_parts`` the
    same as a keyed phrase where the sentence is one the live loop writes
    (:mod:`._paused`).
    """
    if update is None or match_id is None:
        return {"version": version, "what": what, "what_parts": what_parts, "camera": camera,
                "paused": None,
                "paused_parts": None, "match": None, "last_shot": None,
                "pending_review": None, "scoreboard": scoreboard}  # fmt: skip
    last = record_doc(match_id, records[-1]) if records else None
    return {
        "version": version, "what": what, "what_parts": what_parts, "camera": camera,
        "paused": update.paused,
        "paused_parts": paused_parts(update.paused),
        "match": match_doc(match_id, update.state, update.timeouts, clock),
        "last_shot": last, "pending_review": pending_doc(update.pending),
        "scoreboard": scoreboard,
    }  # fmt: skip


def stats_doc(state: MatchState) -> dict[str, dict[str, Any]]:
    """Per player over the whole match: points, innings, average, high run, sets won."""
    return {p: {"points": s.points, "innings": s.innings, "average": s.average,
                "high_run": s.high_run, "sets_won": s.sets_won}
            for p, s in match_stats(state).items()}  # fmt: skip


def score_doc(state: MatchState) -> Mapping[str, int]:
    """Match points per player (all sets)."""
    return {p: s.points for p, s in match_stats(state).items()}

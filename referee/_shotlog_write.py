"""Write ``carom-shots/1`` objects: the mirror of :mod:`referee._shotlog`.

``parse_shot(shot_json(s))`` gives back ``s``, and ``parse_start(start_json(s))``
gives back ``s`` (tests hold this). :func:`record_json` writes a judged shot's
``verdict`` object (informational in a log: ``carom score`` judges the events again).
"""

from __future__ import annotations

from typing import Any

from referee._events import BallContact, Call, CushionContact, Event, OffTable, PinDown, Pocketed
from referee._reason import reason_json
from referee._shot import Shot
from referee._start import StartState
from referee._state import ShotRecord

__all__ = ["event_json", "record_json", "shot_json", "start_json"]


def event_json(event: Event) -> dict[str, Any]:
    """One event as a shot-log event object."""
    out: dict[str, Any] = {"t_s": event.t_s}
    match event:
        case BallContact(balls=(a, b)):
            out |= {"kind": "ball", "balls": [a.value, b.value]}
        case CushionContact(ball=ball, cushion=cushion):
            out |= {"kind": "cushion", "ball": ball.value, "cushion": cushion.value}
        case PinDown(pin=pin, ball=ball):
            out |= {"kind": "pin", "pin": pin.value, "ball": None if ball is None else ball.value}
        case OffTable(ball=ball):
            out |= {"kind": "off_table", "ball": ball.value}
        case Pocketed(ball=ball, pocket=pocket):
            out |= {"kind": "pocket", "ball": ball.value, "pocket": pocket.value}
        case Call(foul=foul):
            out |= {"kind": "call", "foul": foul.value}
    if event.doubt is not None:
        out["doubt"] = event.doubt
    if event.t_err_s:
        out["t_err_s"] = event.t_err_s
    return out


def shot_json(shot: Shot) -> dict[str, Any]:
    """One shot as a shot-log shot object (empty optional fields left out)."""
    out: dict[str, Any] = {"index": shot.index, "cue_ball": shot.cue_ball.value}
    if shot.start_s is not None:
        out["start_s"] = shot.start_s
    if shot.end_s is not None:
        out["end_s"] = shot.end_s
    out["events"] = [event_json(e) for e in shot.events]
    for key, positions in (
        ("start_positions_mm", shot.start_positions_mm),
        ("end_positions_mm", shot.end_positions_mm),
    ):
        out[key] = {b.value: list(xy) for b, xy in positions.items()}
    if shot.paths_mm:
        out["paths_mm"] = {b.value: [list(s) for s in p] for b, p in shot.paths_mm.items()}
    if shot.pins_standing is not None:
        out["pins_standing"] = sorted(p.value for p in shot.pins_standing)
    if shot.doubt is not None:
        out["doubt"] = shot.doubt
    if shot.safety:
        out["safety"] = True
    if shot.is_break is not None:
        out["break"] = shot.is_break
    if shot.decided_points is not None:
        out["decided_points"] = shot.decided_points
    return out


def start_json(start: StartState) -> dict[str, Any]:
    """``match.start`` of a shot log (and a match file's ``start``): only what is known."""
    out: dict[str, Any] = {}
    for key in ("board", "innings", "sets_won"):
        value = getattr(start, key)
        if value:
            out[key] = dict(value)
    for key, default in (("run", 0), ("set_index", 0)):
        if getattr(start, key) != default:
            out[key] = getattr(start, key)
    for key in ("shooter", "breaker", "next_break"):
        if getattr(start, key) is not None:
            out[key] = getattr(start, key)
    return out


def record_json(record: ShotRecord) -> dict[str, Any]:
    """A judged shot: its verdict, the board after it, the run (a log's ``verdict``)."""
    v = record.verdict
    return {
        "index": record.index,
        "player": record.player,
        "set": record.set_index + 1,
        "inning": record.inning,
        "points": v.points,
        "opponent_points": v.opponent_points,
        "penalty": v.penalty,
        "fouls": [str(f) for f in v.fouls],
        "inning_ends": v.inning_ends,
        "review": v.review,
        "review_parts": reason_json(v.review_parts),
        "reason": v.reason,
        "reason_parts": reason_json(v.reason_parts),
        "score_after": dict(record.score_after),
        "run": record.run,
        "next_position": str(v.next_position),
        "respots": [
            {"ball": str(r.ball), "spot": str(r.spot), "xy_mm": list(r.xy_mm)} for r in v.respots
        ],
        "announcements": list(v.announcements),
        "announcement_parts": reason_json(v.announcement_parts),
        "note": record.note,
        "note_parts": reason_json(record.note_parts),
        "break": record.is_break,
        "break_rule": record.break_why,
        "break_rule_parts": reason_json(record.break_parts),
    }

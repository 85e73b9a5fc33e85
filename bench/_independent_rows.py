"""One independent shot's result row: events, failures with their context, positions, verdict.

A failure is one of:

* ``missed``: a true contact with no found event of the same kind, balls and cushion
  within 50 ms (``synth.compare_events``);
* ``false``: a found event (not marked doubtful) that matches no true one;
* ``mislabelled``: a miss and a false event of the same kind within 50 ms that share a
  ball (the wrong cushion at a corner, the wrong pair of balls);
* ``time``: a miss and a false event with the same balls and cushion 50-300 ms apart;
* ``order``: two true contacts that share a ball, under 50 ms apart, both found, but
  found in the other order (the three-cushion call can hang on it).

A true contact is *within a frame* when another true contact of one of its balls lies
less than one frame interval from it: at most one sample falls between the two, so the
path between them is not seen (the row counts them, and each miss says whether it was
one).

Each carries the shot time (s from the stroke), the situations of the shot within
0.1 s that involve its balls, and the tracker's view of its balls over +-0.1 s: the
largest error of the seen samples against the exact motion (mm) and how many samples
were predicted (not seen). Doubtful found events that match nothing are listed apart
(``flagged``: they can only make the referee ask for review).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

import numpy as np

from carom.synth_check import ClipCheck
from referee import BallContact, CushionContact, Event
from synth import IndependentReplay

__all__ = ["describe", "error_row", "shot_row", "within_frame"]

_TOL_S, _TIME_S, _NEAR_S = 0.05, 0.3, 0.1


def describe(e: Event) -> str:
    """``ball white-red`` or ``cushion white head``."""
    match e:
        case BallContact(balls=(a, b)):
            return f"ball {a}-{b}"
        case CushionContact(ball=ball, cushion=cushion):
            return f"cushion {ball} {cushion}"
    return type(e).__name__


def _balls(e: Event) -> set[str]:
    match e:
        case BallContact(balls=(a, b)):
            return {str(a), str(b)}
        case CushionContact(ball=ball):
            return {str(ball)}
    return set()


def _kind(e: Event) -> str:
    return "ball" if isinstance(e, BallContact) else "cushion"


def _pair(misses: list[Event], extras: list[Event]) -> list[tuple[str, Event | None, Event | None]]:
    """Misses and false events, a miss and a false event paired where they are one mistake."""
    out: list[tuple[str, Event | None, Event | None]] = []
    left = list(extras)
    for m in misses:
        hit = None
        for kind, lo, hi in (("mislabelled", 0.0, _TOL_S), ("time", _TOL_S, _TIME_S)):
            for x in left:
                same = describe(x) == describe(m)
                fits = (not same) if kind == "mislabelled" else same
                if _kind(x) == _kind(m) and _balls(x) & _balls(m) and fits \
                        and lo <= abs(x.t_s - m.t_s) <= hi:  # fmt: skip
                    hit = (kind, x)
                    break
            if hit:
                break
        if hit:
            left.remove(hit[1])
        out.append((hit[0], m, hit[1]) if hit else ("missed", m, None))
    return out + [("false", None, x) for x in left]


def _near(replay: IndependentReplay, t_shot: float, balls: set[str]) -> list[str]:
    out = []
    for s in replay.shot.situations:
        involved = set(s.get("balls", [])) | ({s["ball"]} if "ball" in s else set())
        if abs(float(s["t_s"]) - t_shot) <= _NEAR_S and (not involved or involved & balls):
            detail = next((f"{k} {s[k]}" for k in ("gap_mm", "dt_ms", "normal_share",
                           "path_mm", "gaps_mm", "events") if k in s), "")  # fmt: skip
            out.append(f"{s['tag']}@{float(s['t_s']):.3f} {detail}".strip())
    return out


def _tracking(check: ClipCheck, replay: IndependentReplay, t_clip: float, balls: set[str]) -> dict:
    """Worst seen-sample error (mm) and predicted samples of ``balls`` within 0.1 s."""
    worst, unseen, seen = 0.0, 0, 0
    for analysed, _ in check.run.shots:
        for ball, tr in analysed.tracks.items():
            if str(ball) not in balls:
                continue
            sel = np.abs(tr.t_s - t_clip) <= _NEAR_S
            if not sel.any():
                continue
            truth = replay.positions_mm(tr.t_s[sel])[ball]
            ok = tr.seen[sel] & np.isfinite(tr.xy_mm[sel, 0])
            unseen += int((~tr.seen[sel]).sum())
            seen += int(ok.sum())
            if ok.any():
                err = np.hypot(*(tr.xy_mm[sel][ok] - truth[ok]).T)
                worst = max(worst, float(err.max()))
    return {"track_err_mm": round(worst, 2), "unseen": unseen, "seen": seen}


def _evidence(check: ClipCheck, e: Event | None) -> str:
    if e is None:
        return ""
    for analysed, _ in check.run.shots:
        for scored in analysed.scored:
            if scored.event == e:
                return f"{scored.confidence:.2f} {scored.evidence}"
    return ""


def within_frame(events: Iterable[Event], dt_s: float) -> list[Event]:
    """The contacts less than ``dt_s`` from another contact that shares one of their balls."""
    contacts = [e for e in events if isinstance(e, BallContact | CushionContact)]
    return [
        e
        for e in contacts
        if any(o is not e and _balls(o) & _balls(e) and abs(o.t_s - e.t_s) < dt_s for o in contacts)
    ]


def _crowded(check: ClipCheck, replay: IndependentReplay, dt_s: float) -> dict[str, int]:
    """How many true contacts lie within a frame of another of their balls, and were found."""
    close = within_frame(replay.events, dt_s)
    missed = sum(1 for e in close if _is_missed(check, e))
    return {"truth": len(close), "matched": len(close) - missed}


def _is_missed(check: ClipCheck, e: Event) -> bool:
    return any(describe(m) == describe(e) and abs(m.t_s - e.t_s) < 1e-6
               for m in check.events.misses)  # fmt: skip


def failures(check: ClipCheck, replay: IndependentReplay, dt_s: float) -> list[dict[str, Any]]:
    """Every missed, false, mislabelled or mistimed event of the shot, with its context.

    ``dt_s``: the clip's frame interval (a miss says whether it was within a frame).
    """
    lead, out = replay.lead_s, []
    close = within_frame(replay.events, dt_s)
    for kind, truth, found in _pair(check.events.misses, check.events.extras):
        e = truth or found
        assert e is not None
        balls = _balls(e) | (_balls(found) if found else set())
        out.append({
            "kind": kind, "event": _kind(e), "truth": describe(truth) if truth else None,
            "found": describe(found) if found else None, "t_s": round(e.t_s - lead, 4),
            "dt_ms": round(1000 * (found.t_s - truth.t_s), 1) if truth and found else None,
            "near": _near(replay, e.t_s - lead, balls), "evidence": _evidence(check, found),
            **_tracking(check, replay, e.t_s, balls), **(_impact(replay, truth) if truth else {}),
            "within_frame": truth is not None and any(truth == c for c in close),
        })  # fmt: skip
    return out + _swapped(check, replay)


def _impact(replay: IndependentReplay, e: Event) -> dict[str, Any]:
    """How hard the true contact was, and how long after the same contact before it.

    ``v_n_mmps``: the closing speed along the contact normal just before it (two balls:
    their relative velocity along the line of centres; a cushion: the ball's speed
    into it); ``repeat_after_ms``: time since the previous true contact of the same
    balls (and cushion), None if it is the first.
    """
    m, t = replay.shot.motion, e.t_s - replay.lead_s
    if isinstance(e, BallContact):
        a, b = e.balls
        n = np.subtract(m.position_mm(b, t), m.position_mm(a, t))
        v = np.subtract(m.velocity_mmps(a, t - 1e-6), m.velocity_mmps(b, t - 1e-6))
        v_n = float(v @ n) / float(np.hypot(*n))
    else:
        assert isinstance(e, CushionContact)
        vx, vy = m.velocity_mmps(e.ball, t - 1e-6)
        v_n = {"head": -vx, "foot": vx, "left": -vy, "right": vy}[str(e.cushion)]
    before = [x.t_s for x in replay.events if _key(x) == _key(e) and x.t_s < e.t_s - 1e-9]
    again = round(1000 * (e.t_s - before[-1]), 1) if before else None
    return {"v_n_mmps": round(v_n, 1), "repeat_after_ms": again}


def _key(e: Event) -> tuple[Any, ...]:
    if isinstance(e, BallContact):
        return ("ball", frozenset(map(str, e.balls)))
    return ("cushion", describe(e))


def _matches(truth: Iterable[Event], found: list[Event]) -> list[tuple[Event, Event]]:
    """True events paired with found ones as ``synth.compare_events`` pairs them."""
    used: set[int] = set()
    out = []
    for e in sorted(truth, key=lambda x: x.t_s):
        best, best_dt = None, _TOL_S
        for i, f in enumerate(found):
            if i not in used and _key(f) == _key(e) and abs(f.t_s - e.t_s) <= best_dt:
                best, best_dt = i, abs(f.t_s - e.t_s)
        if best is not None:
            used.add(best)
            out.append((e, found[best]))
    return out


def _swapped(check: ClipCheck, replay: IndependentReplay) -> list[dict[str, Any]]:
    """Pairs of true contacts sharing a ball, under 50 ms apart, found the other way round.

    ``truth`` is the earlier true event, ``found`` the later one; ``dt_ms`` the found
    gap (negative: found first), ``true_gap_ms`` the true one.
    """
    found = [e for shot, _ in check.run.shots for e in shot.shot.events]
    pairs = _matches(replay.events, found)
    out = []
    for i, (t1, f1) in enumerate(pairs):
        for t2, f2 in pairs[i + 1 :]:
            if t2.t_s - t1.t_s <= _TOL_S and _balls(t1) & _balls(t2) and f2.t_s < f1.t_s:
                balls = _balls(t1) | _balls(t2)
                out.append({
                    "kind": "order", "event": "ball" if "ball" in (_kind(t1), _kind(t2))
                    else "cushion", "truth": describe(t1), "found": describe(t2),
                    "t_s": round(t1.t_s - replay.lead_s, 4),
                    "dt_ms": round(1000 * (f2.t_s - f1.t_s), 1),
                    "true_gap_ms": round(1000 * (t2.t_s - t1.t_s), 1),
                    "near": _near(replay, t1.t_s - replay.lead_s, balls),
                    "evidence": _evidence(check, f2),
                    **_tracking(check, replay, t1.t_s, balls),
                })  # fmt: skip
    return out


def _counts(d: Mapping[str, int]) -> dict[str, int]:
    return {k: int(d.get(k, 0)) for k in ("ball", "cushion")}


def _ends(check: ClipCheck, replay: IndependentReplay) -> dict[str, Any]:
    """Where analyze says the balls stopped against the truth, and when the shot closed."""
    strokes = [a for a, _ in check.run.shots if not a.lag]
    if not strokes:
        return {"shots_found": 0, "end_err_mm": None, "close_delay_s": None}
    last = strokes[-1].shot
    m = replay.shot.motion
    errs = {str(b): round(float(np.hypot(*np.subtract(xy, m.position_mm(b, m.duration_s)))), 2)
            for b, xy in last.end_positions_mm.items()}  # fmt: skip
    end = None if last.end_s is None else round(last.end_s - replay.lead_s - m.duration_s, 3)
    return {"shots_found": len(strokes), "end_err_mm": errs, "close_delay_s": end}


def shot_row(
    check: ClipCheck, replay: IndependentReplay, look: dict[str, Any], seconds: Mapping[str, float]
) -> dict[str, Any]:
    """The row of one rendered and analysed shot."""
    ev, shot = check.events, replay.shot
    dts = [round(1000 * x, 2) for k in ("ball", "cushion") for x in ev.dt_s.get(k, [])]
    flagged = [{"found": describe(e), "t_s": round(e.t_s - replay.lead_s, 4),
                "evidence": _evidence(check, e)} for e in ev.flagged]  # fmt: skip
    return {
        "id": shot.shot_id, "name": shot.name, "split": shot.split, "tags": list(shot.tags),
        "point": shot.point, "duration_s": round(shot.motion.duration_s, 3),
        "look": look, "truth": _counts(ev.truth), "found": _counts(ev.found),
        "matched": _counts(ev.matched), "dt_ms": dts,
        **{k: _round(v) for k, v in check.positions.summary().items()},
        **_ends(check, replay),
        "verdicts": [check.verdicts_agree, check.verdicts_total],
        "verdict_diffs": list(check.verdict_diffs),
        "error": None if check.run.error is None else str(check.run.error),
        "within_frame": _crowded(check, replay, 1.0 / look["fps"]),
        "failures": failures(check, replay, 1.0 / look["fps"]), "flagged": flagged,
        "seconds": {k: round(v, 1) for k, v in seconds.items()},
    }  # fmt: skip


def _round(v: float) -> float | None:
    return None if not np.isfinite(v) else round(float(v), 2)


def error_row(replay: IndependentReplay, look: dict[str, Any], message: str) -> dict[str, Any]:
    """The row of a shot whose render or analysis raised."""
    shot = replay.shot
    truth: dict[str, int] = {"ball": 0, "cushion": 0}
    for e in shot.events:
        truth[_kind(e)] += 1
    return {"id": shot.shot_id, "name": shot.name, "split": shot.split, "tags": list(shot.tags),
            "point": shot.point, "duration_s": round(shot.motion.duration_s, 3), "look": look,
            "truth": truth, "found": {"ball": 0, "cushion": 0},
            "within_frame": {"truth": len(within_frame(shot.events, 1.0 / look["fps"])),
                             "matched": 0},
            "matched": {"ball": 0, "cushion": 0}, "dt_ms": [], "verdicts": [0, 1],
            "verdict_diffs": [message], "error": message, "failures": [], "flagged": [],
            "seconds": {}}  # fmt: skip


def tags_of(rows: Iterable[Mapping[str, Any]]) -> list[str]:
    """Every tag in the rows, in a fixed order (plain last)."""
    seen = sorted({t for r in rows for t in r["tags"]})
    return [*seen, "plain"]

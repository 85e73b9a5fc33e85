"""Real versus simulated carom physics: the numbers and the plot of ``docs/physics.md``.

Over 400 lines because it is one report: the rebounds, the whole-shot replays and the
plot all work on the same tune and validation halves, angle bins and ``Hit`` pairs,
and the sections below follow the page's order; nothing else uses its parts.

Usage (from the repository root)::

    .venv/bin/python bench/physics_vs_real.py --tune
        --realdata ../shared/realdata/three_cushion_match_dev.json

Shots 1-30 of the recording tune, shots 31-60 validate. Every measurement goes
through ``synth`` functions that run the same way on the recording and on a
simulation sampled at 50 Hz. Prints Markdown tables; writes the rebound plot
(``--img``, default ``docs/img/rebound_real_vs_sim.png``). ``--tune`` also runs
the parameter grids (about a minute) and prints the chosen values.
"""

from __future__ import annotations

import argparse
import dataclasses
import itertools
import math
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from referee import MATCH_TABLE, Ball, BallContact, Cushion
from synth import (
    CushionHit,
    PhysicsParams,
    RealShot,
    Simulation,
    Stroke,
    cushion_hits,
    load_real_shots,
    motion_end_s,
    replay_start,
    rolling_decelerations,
    sample_tracks,
    simulate,
)

TUNE, VALID = slice(0, 30), slice(30, 60)
BINS = (0.0, 15.0, 30.0, 45.0, 60.0, 90.0)
CUSHION_GRID = {
    "e_c0": (0.80, 0.85, 0.90, 0.95, 1.0),
    "e_c_slope_spm": (0.0, 0.05, 0.10, 0.15),
    "u_c": (0.05, 0.10, 0.15, 0.20, 0.25, 0.30),
}
ENGLISH_GRID = (0.0, 0.1, 0.2, 0.3, 0.4, 0.5, 0.6)


@dataclass(frozen=True)
class Hit:
    """A real rebound and the simulated rebound of the same incoming ball."""

    real: CushionHit
    sim: CushionHit | None
    cue: bool


def q(values: Sequence[float]) -> str:
    """Median and interquartile range, e.g. ``0.048 [0.044, 0.055]``."""
    if not values:
        return "n/a"
    p25, p50, p75 = np.percentile(values, [25, 50, 75])
    return f"{p50:.3f} [{p25:.3f}, {p75:.3f}]"


# --- rebounds, one contact at a time -------------------------------------------------


def replay_hit(hit: CushionHit, params: PhysicsParams, side: float = 0.0) -> CushionHit | None:
    """Roll one ball into the foot cushion at ``hit``'s incoming angle and speed.

    The ball rolls (follow 0.4, natural roll) from 400 mm away, so that it reaches
    the cushion at the measured speed; ``side`` < 0 is running english here.
    """
    radius, d_mm = MATCH_TABLE.radius_mm, 400.0
    theta = math.radians(hit.in_angle_deg)
    contact = (MATCH_TABLE.length_mm - radius, MATCH_TABLE.width_mm / 2.0)
    start = (contact[0] - d_mm * math.cos(theta), contact[1] - d_mm * math.sin(theta))
    decel = params.u_r * params.g_mps2
    speed = math.sqrt(hit.in_speed_mps**2 + 2.0 * decel * d_mm / 1000.0)
    stroke = Stroke(Ball.WHITE, min(speed, 15.0), hit.in_angle_deg, follow=0.4, side=side)
    sim = simulate({Ball.WHITE: start}, stroke, params=params)
    found = [h for h in cushion_hits(sample_tracks(sim), Ball.WHITE) if h.cushion is Cushion.FOOT]
    return found[0] if found else None


def real_hits(shots: Sequence[RealShot]) -> list[tuple[CushionHit, bool]]:
    """Every measurable rebound of the recording, with whether it is the cue ball's."""
    return [
        (h, ball == shot.cue_ball)
        for shot in shots
        for ball in shot.tracks
        for h in cushion_hits(shot.tracks, ball)
    ]


def paired(
    hits: list[tuple[CushionHit, bool]], params: PhysicsParams, side: float = 0.0
) -> list[Hit]:
    """Each real rebound with its simulated twin."""
    return [Hit(h, replay_hit(h, params, side), cue) for h, cue in hits]


def _late_errors(pairs: list[Hit]) -> list[float]:
    out = []
    for p in pairs:
        real = p.real.late_ratio
        sim = p.sim.late_ratio if p.sim is not None else None
        if real is not None and sim is not None:
            out.append(sim - real)
    return out


def cushion_loss(pairs: list[Hit]) -> float:
    """Mean |out-angle error| (deg) + 100 x mean |late speed-ratio error| over the pairs.

    The late ratio (speed 0.4-0.6 s after the contact over the incoming speed) is
    what the rebound really kept once the sliding after it is over.
    """
    da = [abs(p.sim.out_angle_deg - p.real.out_angle_deg) for p in pairs if p.sim]
    return float(np.mean(da) + 100.0 * np.mean(np.abs(_late_errors(pairs))))


def tune_cushion(hits: list[tuple[CushionHit, bool]]) -> PhysicsParams:
    """Grid search of the cushion model on object-ball rebounds."""
    best: tuple[float, PhysicsParams] | None = None
    for values in itertools.product(*CUSHION_GRID.values()):
        params = PhysicsParams(**dict(zip(CUSHION_GRID, values, strict=True)))
        loss = cushion_loss(paired(hits, params))
        if best is None or loss < best[0]:
            best = (loss, params)
        print(f"  cushion grid {values}: loss {loss:.3f}", file=sys.stderr)
    assert best is not None
    return best[1]


def tune_english(hits: list[tuple[CushionHit, bool]], params: PhysicsParams) -> float:
    """The running english (tip offset) that best explains cue-ball rebounds."""
    losses = {s: cushion_loss(paired(hits, params, -s)) for s in ENGLISH_GRID}
    return min(losses, key=lambda s: losses[s])


def binned_table(pairs: list[Hit]) -> list[str]:
    """Markdown rows: per incoming-angle bin, real vs simulated medians."""
    rows = [
        "| in angle | n | out angle real | out angle sim | speed ratio real | speed ratio sim"
        " | late ratio real | late ratio sim |",
        "| --- | --- | --- | --- | --- | --- | --- | --- |",
    ]
    for lo, hi in itertools.pairwise(BINS):
        sel = [p for p in pairs if p.sim is not None and lo <= p.real.in_angle_deg < hi]
        if not sel:
            continue
        ra = np.median([p.real.out_angle_deg for p in sel])
        sa = np.median([p.sim.out_angle_deg for p in sel if p.sim])
        rr = np.median([p.real.speed_ratio for p in sel])
        sr = np.median([p.sim.speed_ratio for p in sel if p.sim])
        late = [(p.real.late_ratio, p.sim.late_ratio) for p in sel if p.sim]
        late_ok = [(a, b) for a, b in late if a is not None and b is not None]
        lr = np.median([a for a, _ in late_ok]) if late_ok else math.nan
        ls = np.median([b for _, b in late_ok]) if late_ok else math.nan
        rows.append(
            f"| {lo:.0f}-{hi:.0f} deg | {len(sel)} | {ra:.1f} | {sa:.1f} | {rr:.2f} | {sr:.2f}"
            f" | {lr:.2f} ({len(late_ok)}) | {ls:.2f} |"
        )
    return rows


def relation(pairs: list[Hit], which: Callable[[Hit], CushionHit | None]) -> str:
    """Least-squares line ``out = a + b * in`` in degrees."""
    xs = [p.real.in_angle_deg for p in pairs if which(p) is not None]
    ys = [h.out_angle_deg for p in pairs if (h := which(p)) is not None]
    b, a = np.polyfit(xs, ys, 1)
    return f"out = {a:.1f} + {b:.2f} x in"


def summary(pairs: list[Hit]) -> str:
    """Errors of the simulated rebounds against the real ones."""
    ok = [p for p in pairs if p.sim is not None]
    da = [p.sim.out_angle_deg - p.real.out_angle_deg for p in ok if p.sim]
    dr = [p.sim.speed_ratio - p.real.speed_ratio for p in ok if p.sim]
    dl = _late_errors(pairs)
    return (
        f"n = {len(ok)}/{len(pairs)}; out-angle error sim - real: median {np.median(da):+.1f} deg, "
        f"median |error| {np.median(np.abs(da)):.1f} deg; speed-ratio error median "
        f"{np.median(dr):+.3f}, median |error| {np.median(np.abs(dr)):.3f}; late-ratio error "
        f"(n = {len(dl)}) median {np.median(dl):+.3f}, median |error| {np.median(np.abs(dl)):.3f}"
    )


# --- whole shots ----------------------------------------------------------------------


@dataclass(frozen=True)
class Replay:
    """One real shot replayed: duration and first object ball, real and simulated."""

    shot_id: str
    real_end_s: float
    sim_end_s: float
    real_first: Ball
    sim_first: Ball | None
    path_error_mm: float
    sim_decel: tuple[float, ...]


def path_error_mm(shot: RealShot, sim: Simulation, t_strike: float, window_s: float = 1.5) -> float:
    """Mean distance between the real and simulated cue ball over ``window_s``."""
    tr = shot.tracks[shot.cue_ball]
    sel = (tr.t_s >= t_strike) & (tr.t_s <= t_strike + window_s)
    xy = sim.positions_mm(tr.t_s[sel] - t_strike)[shot.cue_ball]
    return float(np.mean(np.hypot(*(xy - tr.xy_mm[sel]).T)))


def fit_stroke(shot: RealShot, params: PhysicsParams) -> tuple[Stroke, float]:
    """Heading offset and follow, then side, that best follow the cue ball's first 1.5 s."""
    start = replay_start(shot)
    base = start.stroke

    def err(stroke: Stroke) -> float:
        sim = simulate(start.positions_mm, stroke, params=params)
        return path_error_mm(shot, sim, start.t_strike_s)

    first = [
        dataclasses.replace(base, heading_deg=base.heading_deg + dh, follow=f)
        for dh in (-0.5, -0.25, 0.0, 0.25, 0.5)
        for f in (-0.4, 0.0, 0.2, 0.4, 0.6)
    ]
    best = min(first, key=err)
    second = [dataclasses.replace(best, side=s) for s in (-0.6, -0.3, 0.0, 0.3, 0.6)]
    best = min(second, key=err)
    return best, err(best)


def replay(shot: RealShot, params: PhysicsParams, fit: bool) -> Replay:
    """Simulate ``shot`` from its real start, with no spin or with the fitted stroke."""
    start = replay_start(shot)
    stroke = fit_stroke(shot, params)[0] if fit else start.stroke
    sim = simulate(start.positions_mm, stroke, params=params)
    cue_hits = [e for e in sim.events if isinstance(e, BallContact) and e.involves(shot.cue_ball)]
    sim_first = cue_hits[0].other(shot.cue_ball) if cue_hits else None
    order = [b for b in shot.tracks if b != shot.cue_ball]
    real_first = min(order, key=lambda b: _first_move_s(shot, b))
    tracks = sample_tracks(sim, t0_s=start.t_strike_s)
    return Replay(
        shot.shot_id,
        motion_end_s(shot.tracks),
        motion_end_s(tracks),
        real_first,
        sim_first,
        path_error_mm(shot, sim, start.t_strike_s),
        tuple(d for b in tracks for d in rolling_decelerations(tracks, b)),
    )


def _first_move_s(shot: RealShot, ball: Ball) -> float:
    tr = shot.tracks[ball]
    moved = np.flatnonzero(np.hypot(*(tr.xy_mm - tr.xy_mm[0]).T) > 5.0)
    return float(tr.t_s[moved[0]]) if moved.size else math.inf


def replay_rows(label: str, replays: list[Replay]) -> str:
    """One Markdown row of whole-shot numbers."""
    ratio = [r.sim_end_s / r.real_end_s for r in replays]
    agree = sum(r.sim_first == r.real_first for r in replays)
    return (
        f"| {label} | {len(replays)} | {q([r.real_end_s for r in replays])} | "
        f"{q([r.sim_end_s for r in replays])} | {q(ratio)} | {agree}/{len(replays)} | "
        f"{q([r.path_error_mm for r in replays])} |"
    )


# --- the plot ----------------------------------------------------------------------


def draw_plot(panels: list[tuple[str, list[Hit]]], path: Path) -> None:
    """Out vs in angle, real (filled) and simulated (rings), one panel per group."""
    w, h, margin = 560, 520, 60
    img = np.full((h + 40, w * len(panels), 3), 255, np.uint8)
    for k, (title, pairs) in enumerate(panels):
        _panel(img, k * w, w, h, margin, title, pairs)
    path.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(path), img)


def _panel(img: np.ndarray, x0: int, w: int, h: int, m: int, title: str, pairs: list[Hit]) -> None:
    def px(a_in: float, a_out: float) -> tuple[int, int]:
        a_out = min(max(a_out, -30.0), 90.0)  # the few wilder real points sit on the frame
        return (
            x0 + m + int((w - 2 * m) * a_in / 90.0),
            h - m - int((h - 2 * m) * (a_out + 30) / 120),
        )

    black, grey = (0, 0, 0), (200, 200, 200)
    for a in range(0, 91, 15):
        cv2.line(img, px(a, -30), px(a, 90), grey, 1)
        cv2.putText(img, str(a), (px(a, -30)[0] - 6, h - m + 18), 0, 0.4, black, 1, cv2.LINE_AA)
    for a in range(-30, 91, 30):
        cv2.line(img, px(0, a), px(90, a), grey, 1)
        cv2.putText(img, str(a), (x0 + m - 32, px(0, a)[1] + 4), 0, 0.4, black, 1, cv2.LINE_AA)
    cv2.line(img, px(0, 0), px(90, 90), (160, 160, 160), 1, cv2.LINE_AA)
    real, sim = (40, 40, 220), (200, 110, 20)
    for p in pairs:
        cv2.circle(img, px(p.real.in_angle_deg, p.real.out_angle_deg), 3, real, -1, cv2.LINE_AA)
        if p.sim is not None:
            cv2.circle(img, px(p.real.in_angle_deg, p.sim.out_angle_deg), 4, sim, 1, cv2.LINE_AA)
    for colour, pick in ((real, lambda p: p.real), (sim, lambda p: p.sim)):
        pts = []
        for lo, hi in itertools.pairwise(BINS):
            sel = [pick(p).out_angle_deg for p in pairs if p.sim and lo <= p.real.in_angle_deg < hi]
            if sel:
                pts.append(px(0.5 * (lo + hi), float(np.median(sel))))
        cv2.polylines(img, [np.array(pts, np.int32)], False, colour, 2, cv2.LINE_AA)
    cv2.putText(img, title, (x0 + m, 28), 0, 0.55, black, 1, cv2.LINE_AA)
    cv2.putText(
        img,
        "incoming angle to the normal (deg)",
        (x0 + m + 80, h + 10),
        0,
        0.45,
        black,
        1,
        cv2.LINE_AA,
    )
    cv2.putText(img, "outgoing (deg)", (x0 + 4, m - 12), 0, 0.45, black, 1, cv2.LINE_AA)
    cv2.circle(img, (x0 + w - 200, 50), 4, real, -1, cv2.LINE_AA)
    cv2.putText(img, "real (dots, median line)", (x0 + w - 190, 54), 0, 0.4, black, 1, cv2.LINE_AA)
    cv2.circle(img, (x0 + w - 200, 70), 4, sim, 1, cv2.LINE_AA)
    cv2.putText(img, "simulated (rings, line)", (x0 + w - 190, 74), 0, 0.4, black, 1, cv2.LINE_AA)


# --- main ------------------------------------------------------------------------------


def report_rolling(
    shots: Sequence[RealShot], params: PhysicsParams, replays: dict[bool, list[Replay]], tune: bool
) -> None:
    """Rolling deceleration, real halves and simulated replays of the validation half."""
    decel = {
        k: [d for s in shots[sl] for b in s.tracks for d in rolling_decelerations(s.tracks, b)]
        for k, sl in (("tune", TUNE), ("valid", VALID))
    }
    if tune:
        print(f"tuned u_r = median(tune) / g = {np.median(decel['tune']) / params.g_mps2:.5f}\n")
    print("## rolling deceleration (m/s^2): median [IQR]\n")
    print("| set | n | deceleration |\n| --- | --- | --- |")
    print(f"| real, shots 1-30 (tune) | {len(decel['tune'])} | {q(decel['tune'])} |")
    print(f"| real, shots 31-60 (validate) | {len(decel['valid'])} | {q(decel['valid'])} |")
    for fit in (False, True):
        label = "fitted stroke" if fit else "no spin"
        sim = [d for r in replays[fit][VALID] for d in r.sim_decel]
        print(f"| sim replays 31-60, {label} | {len(sim)} | {q(sim)} |")
    print(f"| model u_r g | | {params.u_r * params.g_mps2:.3f} |\n")


def report_cushions(
    shots: Sequence[RealShot], params: PhysicsParams, tune: bool
) -> list[tuple[str, list[Hit]]]:
    """Rebound tables; returns the plot's panels."""
    hits = {k: real_hits(shots[sl]) for k, sl in (("tune", TUNE), ("valid", VALID))}
    objects = {k: [h for h in v if not h[1]] for k, v in hits.items()}
    cues = {k: [h for h in v if h[1]] for k, v in hits.items()}
    if tune:
        best = tune_cushion(objects["tune"])
        print(
            f"tuned cushion: e_c0={best.e_c0} e_c_slope_spm={best.e_c_slope_spm} u_c={best.u_c}\n"
        )
    english = tune_english(cues["tune"], params)
    pairs = {k: paired(v, params) for k, v in objects.items()}
    print("## cushion rebounds, object balls (no english), shots 31-60\n")
    print("\n".join(binned_table(pairs["valid"])))
    print(f"\ntune:     {summary(pairs['tune'])}")
    print(f"validate: {summary(pairs['valid'])}")
    fits = [relation(pairs["valid"], lambda p: p.real), relation(pairs["valid"], lambda p: p.sim)]
    print(f"linear fit, real: {fits[0]}; sim: {fits[1]}\n")
    print("## cushion rebounds, cue balls, shots 31-60\n\nno english in the simulation:\n")
    cue_plain = paired(cues["valid"], params)
    print("\n".join(binned_table(cue_plain)))
    print(f"\n{summary(cue_plain)}\n")
    print(f"running english {english} (fitted on the cue-ball rebounds of shots 1-30):\n")
    cue_english = paired(cues["valid"], params, -english)
    print("\n".join(binned_table(cue_english)))
    print(f"\n{summary(cue_english)}\n")
    return [
        ("object balls, shots 31-60 (no english)", pairs["valid"]),
        (f"cue balls, shots 31-60 (running english {english})", cue_english),
    ]


def report_replays(replays: dict[bool, list[Replay]]) -> None:
    """Whole shots: durations, first object ball, early path error."""
    print("## whole shots replayed from the real start\n")
    print(
        "| replay | n | real duration (s) | sim duration (s) | sim / real | first ball agrees"
        " | cue path error 1.5 s (mm) |"
    )
    print("| --- | --- | --- | --- | --- | --- | --- |")
    for fit in (False, True):
        label = "fitted heading/follow/side" if fit else "estimated speed and heading, no spin"
        print(replay_rows(f"{label}, shots 1-30", replays[fit][TUNE]))
        print(replay_rows(f"{label}, shots 31-60", replays[fit][VALID]))


def main(argv: Sequence[str] | None = None) -> int:
    """Print the report and write the plot; returns the exit status."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--realdata", type=Path, required=True, help="three_cushion_match_dev.json")
    parser.add_argument("--img", type=Path, default=Path("docs/img/rebound_real_vs_sim.png"))
    parser.add_argument("--tune", action="store_true", help="run the tuning grids too")
    args = parser.parse_args(argv)
    shots = load_real_shots(args.realdata)
    params = PhysicsParams()
    print(f"# physics vs real: {len(shots)} shots; tune = shots 1-30, validate = shots 31-60\n")
    replays = {fit: [replay(s, params, fit) for s in shots] for fit in (False, True)}
    report_rolling(shots, params, replays, args.tune)
    panels = report_cushions(shots, params, args.tune)
    report_replays(replays)
    draw_plot(panels, args.img)
    print(f"\nplot: {args.img}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

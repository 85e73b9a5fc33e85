"""Generate the independent shot set: pooltool shots as exact motion in our table frame.

Runs in ``.venv-pooltool`` (``bench/pooltool/setup.sh``), never in the project's venv,
and imports only pooltool, numpy and the standard library::

    .venv-pooltool/bin/python bench/pooltool/generate.py [--out FILE] [--quota N]

Candidates are simulated seed by seed (``_shots.build``: random layout and stroke),
their hard situations found on the exact motion (``_tags``), and a candidate is kept
while one of its situations has fewer than ``--quota`` kept shots, or, with none, while
fewer than ``--plain`` plain shots are kept: the hard situations are over-represented.
A kept shot's id is its seed; ``id % 3 == 0`` is the held-out split. Each kept shot's
segments are checked against ``pt.continuize`` samples every 2 ms (the largest
deviation is written per shot and for the set). Output: ``bench/data/pooltool_shots.json.gz``
(format ``carom-independent-shots/1``, described in ``docs/independent-events.md``).
"""

from __future__ import annotations

import argparse
import gzip
import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import _segments as seg
import _shots
import _tags
import numpy as np
import pooltool as pt

ROOT = Path(__file__).resolve().parents[2]
FORMAT = "carom-independent-shots/1"
SPLIT_RULE = "held-out when id % 3 == 0, tuning otherwise"
CHECK_DT_S = 0.002


def split_of(shot_id: int) -> str:
    """The fixed split of a shot id."""
    return "held-out" if shot_id % 3 == 0 else "tuning"


def simulate(seed: int, table: Any, engine: Any) -> dict[str, Any]:
    """Shot ``seed``: parameters, exact segments, events, point and situations."""
    system, params = _shots.build(seed, table)
    pt.simulate(system, inplace=True, engine=engine)
    segments = {name: seg.rounded(seg.ball_segments(b)) for name, b in system.balls.items()}
    events = seg.shot_events(system)
    radius_mm = 1000.0 * float(system.balls["white"].params.R)
    size = (1000.0 * table.l, 1000.0 * table.w, radius_mm)
    point, found = _tags.situations(segments, events, params["cue_ball"], size)
    moving_end = max(s[1] for segs in segments.values() for s in segs if s[4] or s[5])
    return {
        "id": seed, "seed": seed, "split": split_of(seed),
        "tags": sorted({s["tag"] for s in found}), "point": point,
        "stroke": params, "duration_s": round(moving_end, 6),
        "start_mm": {n: [round(s[0][2], 4), round(s[0][3], 4)] for n, s in segments.items()},
        "events": [{**e, "t_s": round(e["t_s"], 7)} for e in events],
        "situations": found, "segments": segments, "_system": system,
    }  # fmt: skip


def quotas(args: argparse.Namespace) -> dict[str, int]:
    """Kept shots wanted per situation (``order_close`` is rare: a third) and plain."""
    out = dict.fromkeys(_tags.HARD, args.quota) | {"plain": args.plain}
    out["order_close"] = max(1, args.quota // 3)
    return out


def wanted(shot: dict[str, Any], kept: Counter[str], quota: dict[str, int]) -> bool:
    """Keep a shot while one of its tags (or, untagged, the plain shots) is under quota."""
    return any(kept[t] < quota[t] for t in shot["tags"] or ["plain"])


def header(table: Any, radius_mm: float, args: argparse.Namespace) -> dict[str, Any]:
    """What the set is and how it was made."""
    ball = pt.get_rack(pt.GameType.THREECUSHION, table)["white"].params
    return {
        "format": FORMAT,
        "generator": {
            "tool": "bench/pooltool/generate.py", "pooltool": pt.__version__,
            "numpy": np.__version__, "python": sys.version.split()[0],
            "resolver": _shots.resolver_config(),
            "ball_params": {k: float(getattr(ball, k)) for k in
                            ("m", "R", "u_s", "u_r", "u_sp", "e_c", "f_c", "g")},
            "quota": quotas(args), "candidates_max": args.candidates,
        },
        "table": {"length_mm": 1000 * table.l, "width_mm": 1000 * table.w,
                  "ball_radius_mm": radius_mm},
        "frame": "x head->foot cushion, y left->right cushion (seen from the head), mm; "
                 "pooltool (x, y) m -> (1000 y, 1000 x); cushions 18 head, 9 foot, 3 left, "
                 "12 right",
        "segment": ["t0_s", "t1_s", "x0_mm", "y0_mm", "vx_mmps", "vy_mmps", "ax_mmps2", "ay_mmps2"],
        "split_rule": SPLIT_RULE,
        "tag_rules": _tags.RULES,
    }  # fmt: skip


def generate(args: argparse.Namespace) -> dict[str, Any]:
    """Simulate candidates until every quota is met (or ``--candidates`` are spent)."""
    table = pt.Table.default(pt.TableType.BILLIARD)
    engine = _shots.engine()
    kept: Counter[str] = Counter()
    quota = quotas(args)
    shots, failed, worst, t0 = [], 0, 0.0, time.perf_counter()
    for seed in range(args.candidates):
        try:
            shot = simulate(seed, table, engine)
        except (ValueError, ArithmeticError, AssertionError) as exc:
            failed += 1
            print(f"seed {seed}: skipped: {exc}", file=sys.stderr)
            continue
        if not wanted(shot, kept, quota):
            continue
        system = shot.pop("_system")
        shot["continuize_dev_mm"] = round(seg.deviation_mm(system, shot["segments"], CHECK_DT_S), 6)
        worst = max(worst, shot["continuize_dev_mm"])
        kept.update(shot["tags"] or ["plain"])
        shots.append(shot)
        if seed % 100 == 0 or len(shots) % 50 == 0:
            print(f"seed {seed}: kept {len(shots)} {dict(kept)}", file=sys.stderr)
        if all(kept[t] >= n for t, n in quota.items()):
            break
    doc = header(table, 1000.0 * float(pt.get_rack(pt.GameType.THREECUSHION, table)
                                       ["white"].params.R), args)  # fmt: skip
    doc["generator"] |= {"candidates": seed + 1, "failed": failed,
                         "seconds": round(time.perf_counter() - t0, 1)}  # fmt: skip
    doc["max_continuize_dev_mm"] = worst
    doc["tag_counts"] = dict(sorted(kept.items()))
    doc["shots"] = shots
    return doc


def main() -> None:
    """Parse the options, generate, write the gzipped JSON."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--out", type=Path, default=ROOT / "bench" / "data" / "pooltool_shots.json.gz")
    ap.add_argument("--quota", type=int, default=70, help="kept shots wanted per situation")
    ap.add_argument("--plain", type=int, default=80, help="kept shots without a situation")
    ap.add_argument("--candidates", type=int, default=8000, help="seeds to try at most")
    args = ap.parse_args()
    doc = generate(args)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    text = json.dumps(doc, separators=(",", ":"))
    with gzip.GzipFile(args.out, "wb", mtime=0) as f:
        f.write(text.encode())
    print(f"{len(doc['shots'])} shots of {doc['generator']['candidates']} candidates, "
          f"tags {doc['tag_counts']}, max continuize deviation "
          f"{doc['max_continuize_dev_mm']:.2e} mm -> {args.out}")  # fmt: skip


if __name__ == "__main__":
    main()

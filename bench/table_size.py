"""The table's size checked against the balls, on tables of every kind.

For every category of :func:`synth.calibration_scene` (match, pocket, small, oblique,
wide, far, people, cloth, light) and seeds 0..N-1, the rendered frame (balls at rest,
players in some) is calibrated with its true table and with the table given wrongly:
scaled by 0.74 (2100 for 2840), 0.89 (2540 for 2840) and 1.16 (3300 for 2840), the
ball size kept. :func:`vision.ball_scale` measures the balls against each calibration
(one frame: at most its three balls, fewer where a player hides one), and
:func:`carom.pipeline.table_size_line` says whether the size is doubtful.

Per scale given: how often a scale could be measured, its error against the true
ratio (median and worst), and how often the line is said: with the right size that is
a false alarm, with a wrong one a catch. Even seeds are ``tuning``, odd ``held-out``:
the range (``carom.pipeline.SCALE_RANGE``) was set from the tables' ratios and the
spread on the bundled clips before this bench ran, and nothing was tuned on it since.

    PYTHONPATH=. .venv/bin/python bench/table_size.py [--seeds N] [--workers 2]

A full run (10 seeds: 90 scenes, 360 fits) writes ``bench/results/table_size.json`` and ``.md``.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine  # bench/ is on the path when a bench runs
from calibration_robustness import code_version, scene, synth_digest

from calibration import calibrate_frame
from carom.pipeline import SCALE_RANGE, SMALL_BALL_PX, SMALL_BALL_SCALE_RANGE, table_size_line
from referee import Table
from synth import CALIBRATION_CATEGORIES
from vision import ball_scale

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
SIZE_PX = (1280, 720)
#: The table given, as a share of the true one (1: the right size).
GIVEN = (1.0, 0.74, 0.89, 1.16)
#: Seeds per category of a full run.
SEEDS = 10


def measure(case: tuple[str, int, str]) -> list[dict[str, Any]]:
    """One scene calibrated with each size given; the scale and the line for each."""
    category, seed, digest = case
    s = scene(category, seed, SIZE_PX, digest)
    rows = []
    for given in GIVEN:
        table = Table(length_mm=s.table.length_mm * given, width_mm=s.table.width_mm * given,
                      ball_diameter_mm=s.table.ball_diameter_mm)  # fmt: skip
        row: dict[str, Any] = {"category": category, "seed": seed, "given": given,
                               "part": "held-out" if seed % 2 else "tuning"}  # fmt: skip
        try:
            calib = calibrate_frame(s.image_bgr, table, discipline=s.discipline).calibration
            scale = ball_scale(calib, [s.image_bgr])
            line = table_size_line(calib, [s.image_bgr], "--table")
        except Exception as exc:  # a bench records every failure, expected or not
            rows.append(row | {"error": f"{type(exc).__name__}: {exc}"})
            continue
        row |= {"ratio": None if scale is None else round(scale.ratio, 4),
                "balls": 0 if scale is None else scale.balls, "said": line is not None}  # fmt: skip
        rows.append(row)
    return rows


def summarize(rows: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Per size given and part (and both): measured share, error, share said."""
    out = []
    for given in GIVEN:
        for part in ("tuning", "held-out", "all"):
            group = [r for r in rows if r["given"] == given and part in ("all", r["part"])]
            done = [r for r in group if r.get("ratio") is not None]
            errors = np.abs(np.array([r["ratio"] for r in done]) - given)
            out.append({
                "given": given, "part": part, "n": len(group),
                "errors": sum("error" in r for r in group), "measured": len(done),
                "error_median": round(float(np.median(errors)), 4) if done else None,
                "error_worst": round(float(errors.max()), 4) if done else None,
                "said": sum(bool(r.get("said")) for r in group),
            })  # fmt: skip
    return out


def markdown(result: dict[str, Any]) -> str:
    """The results as Markdown: the summary, then the right size per category."""
    m = result["machine"]
    lines = [
        f"# The table's size checked against the balls ({m['date'][:10]})", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; wall "
        f"{result['wall_s']} s. Code: commit {result['code'].get('commit', '?')}.", "",
        f"`bench/table_size.py`: {len(result['categories'])} categories of "
        f"`synth.calibration_scene` x seeds 0..{result['seeds'] - 1} at "
        f"{SIZE_PX[0]}x{SIZE_PX[1]}, each calibrated with its true table and with the table "
        "given as 0.74, 0.89 and 1.16 of it (one frame each). Measured: a scale from at "
        "least 3 balls at rest. Error: |scale - size given / true size|. Said: the "
        f"table-size line (scale outside {SCALE_RANGE[0]}-{SCALE_RANGE[1]}, or "
        f"{SMALL_BALL_SCALE_RANGE[0]}-{SMALL_BALL_SCALE_RANGE[1]} for balls under "
        f"{SMALL_BALL_PX:g} px of radius): a false alarm "
        "for the right size, a catch for a wrong one. Even seeds tuning, odd held-out "
        "(nothing was tuned on either).", "",
        "| size given / true | part | scenes | errors | measured | error median | "
        "error worst | said |",
        "|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for s in result["summary"]:
        lines.append(f"| {s['given']} | {s['part']} | {s['n']} | {s['errors']} | "
                     f"{s['measured']} | {s['error_median']} | {s['error_worst']} | "
                     f"{s['said']} of {s['n']} |")  # fmt: skip
    lines += [
        "",
        "## Per category, right size (scale measured, min to max)",
        "",
        "| category | measured | scale min | scale max | said |",
        "|---|---|---|---|---|",
    ]
    for category in result["categories"]:
        group = [r for r in result["rows"] if r["category"] == category and r["given"] == 1.0]
        ratios = [r["ratio"] for r in group if r.get("ratio") is not None]
        span = (min(ratios), max(ratios)) if ratios else (None, None)
        said = sum(bool(r.get("said")) for r in group)
        lines.append(f"| {category} | {len(ratios)} of {len(group)} | {span[0]} | {span[1]} "
                     f"| {said} |")  # fmt: skip
    return "\n".join(lines) + "\n"


def main(argv: list[str] | None = None) -> None:
    """Run the scenes in a pool, summarize, print and (a full run) write the results."""
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--seeds", type=int, default=SEEDS, help=f"seeds 0..N-1 per category ({SEEDS})")
    p.add_argument("--workers", type=int, default=2, help="processes (2)")
    args = p.parse_args(argv)
    digest = synth_digest()
    cases = [(c, k, digest) for c in CALIBRATION_CATEGORIES for k in range(args.seeds)]
    t0 = time.perf_counter()
    rows: list[dict[str, Any]] = []
    with Pool(args.workers) as pool:
        for i, found in enumerate(pool.imap(measure, cases), 1):
            rows += found
            print(f"{i}/{len(cases)} {found[0]['category']} {found[0]['seed']}", file=sys.stderr)
    result = {"machine": machine(), "wall_s": round(time.perf_counter() - t0, 1),
              "code": code_version(), "categories": list(CALIBRATION_CATEGORIES),
              "seeds": args.seeds, "summary": summarize(rows), "rows": rows}  # fmt: skip
    text = markdown(result)
    print(text)
    if args.seeds == SEEDS:
        RESULTS.mkdir(parents=True, exist_ok=True)
        (RESULTS / "table_size.json").write_text(json.dumps(result, indent=1) + "\n")
        (RESULTS / "table_size.md").write_text(text)


if __name__ == "__main__":
    main()

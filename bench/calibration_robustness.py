"""Automatic calibration on tables of every kind: success rate and errors against truth.

For every category of :func:`synth.calibration_scene` (``match``, ``pocket``, ``small``,
``oblique``, ``wide``, ``far``, ``people``, ``cloth``, ``light``) and seeds 0..N-1, one
frame is rendered and :func:`calibration.calibrate_frame` fits it with the scene's table
and discipline. Per frame:

* success: no exception, a verdict that is not ``failed``, and the fitted corners
  within 10 px (median of the four) of the truth;
* corner error px: the fitted camera's projection of the playing surface's four
  corners (cloth plane) against the true camera's;
* mapping error mm: ball centres (z = R) on a 100 mm grid over the cloth, projected
  by the true camera and unprojected by the fitted one (as
  ``bench/calibration_accuracy.py``), median and 95th percentile;
* fit time ms (detection, fit, report and overlay; not the render).

The table is symmetric under a half turn, so a fit that names the head the foot is
measured against the half-turned truth (and counted as ``half_turn``). Even seeds are
``tuning`` (detection may be adjusted while looking at them), odd seeds ``held-out``:
the two parts are reported separately. The real frames of
``../shared/realdata/broadcast_frames/`` have no truth: their success rate (no
exception, verdict not ``failed``) and the spread of the fitted corners across frames.
Renders are cached (keyed by the synth sources) so reruns time only the fit.

    PYTHONPATH=. .venv/bin/python bench/calibration_robustness.py [--only CATEGORY]
        [--seeds N] [--workers 2] [--no-real]

A full run (every category, 20 seeds, the real frames) writes
``bench/results/calibration_robustness.json`` and ``.md``; a partial run prints its
table and writes only where ``--out`` says.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import pickle
import subprocess
import sys
import tempfile
import time
from multiprocessing import Pool
from pathlib import Path
from typing import Any

import cv2
import numpy as np
from _machine import machine  # bench/ is on the path when a bench runs
from _robustness_report import markdown, summarize

from calibration import Camera, calibrate_frame
from referee import MATCH_TABLE, Discipline, Table
from synth import CALIBRATION_CATEGORIES, CalibrationScene, calibration_scene

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
REAL = ROOT.parent / "shared" / "realdata" / "broadcast_frames"
SIZE_PX = (1280, 720)
SUCCESS_CORNER_PX = 10.0
CACHE = Path(tempfile.gettempdir()) / "carom-calibration-scenes"


def synth_digest() -> str:
    """A digest of the synth sources: a cached render is stale once they change."""
    h = hashlib.sha256()
    for path in sorted((ROOT / "synth").glob("*.py")):
        h.update(path.read_bytes())
    return h.hexdigest()[:12]


def scene(category: str, seed: int, size_px: tuple[int, int], digest: str) -> CalibrationScene:
    """The rendered scene, from the cache when the synth sources are unchanged."""
    path = CACHE / digest / f"{category}-{seed}-{size_px[0]}x{size_px[1]}.pickle"
    if path.exists():
        cached: CalibrationScene = pickle.loads(path.read_bytes())
        return cached
    made = calibration_scene(category, seed, size_px)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(pickle.dumps(made))
    return made


def _half_turn(xy_mm: np.ndarray, table: Table) -> np.ndarray:
    return np.array([table.length_mm, table.width_mm]) - xy_mm


def grid_errors_mm(true: Camera, fitted: Camera, table: Table, half_turn: bool) -> np.ndarray:
    """Distance (n,) mm between true and fitted ball centres over a 100 mm cloth grid."""
    r = table.radius_mm
    xs = np.linspace(0.0, table.length_mm, round(table.length_mm / 100.0) + 1)
    ys = np.linspace(0.0, table.width_mm, round(table.width_mm / 100.0) + 1)
    x, y = np.meshgrid(xs, ys)
    xy = np.c_[x.ravel(), y.ravel()]
    back = fitted.unproject(true.project(np.c_[xy, np.full(len(xy), r)]), r)[:, :2]
    truth = _half_turn(xy, table) if half_turn else xy
    return np.nan_to_num(np.hypot(*(back - truth).T), nan=np.inf)


def corner_errors_px(s: CalibrationScene, fitted: Camera) -> tuple[np.ndarray, bool]:
    """The four corners' errors (4,) px, and whether the fit is the half-turned table."""
    out = []
    for turned in (False, True):
        xy = _half_turn(s.corners_mm, s.table) if turned else s.corners_mm
        uv = fitted.project(np.c_[xy, np.zeros(4)])
        out.append(np.nan_to_num(np.hypot(*(uv - s.corners_px).T), nan=np.inf))
    turned = bool(np.median(out[1]) < np.median(out[0]))
    return out[int(turned)], turned


def _verdict(report: Any) -> tuple[str, str, float | None]:
    """The report's verdict, its advice and its confidence (if the report has them)."""
    advice = str(getattr(report, "advice", ""))
    confidence = getattr(report, "confidence", None)
    return str(report.verdict), advice, None if confidence is None else float(confidence)


def measure(case: tuple[str, int, tuple[int, int], str]) -> dict[str, Any]:
    """Render (or load) one case, fit it and measure it against the truth."""
    category, seed, size_px, digest = case
    s = scene(category, seed, size_px, digest)
    row: dict[str, Any] = {"category": category, "seed": seed,
                           "part": "held-out" if seed % 2 else "tuning"}  # fmt: skip
    t0 = time.perf_counter()
    try:
        result = calibrate_frame(s.image_bgr, s.table, discipline=s.discipline)
    except Exception as exc:  # a bench records every failure, expected or not, and goes on
        row |= {"ok": False, "fit_ms": 1000.0 * (time.perf_counter() - t0),
                "error": f"{type(exc).__name__}: {exc}"}  # fmt: skip
        return row
    row["fit_ms"] = 1000.0 * (time.perf_counter() - t0)
    fitted = result.calibration.camera
    corners, turned = corner_errors_px(s, fitted)
    mm = grid_errors_mm(s.camera, fitted, s.table, turned)
    verdict, advice, confidence = _verdict(result.report)
    corner_median = float(np.median(corners))
    row |= {
        "verdict": verdict, "advice": advice, "confidence": confidence, "half_turn": turned,
        "corner_px": [round(float(c), 3) for c in corners],
        "corner_px_median": round(corner_median, 3),
        "mm_median": round(float(np.median(mm)), 3),
        "mm_p95": round(float(np.percentile(mm, 95)), 3),
        "mm_max": round(float(mm.max()), 3),
        "height_mm": [round(s.camera.pose.height_mm), round(fitted.pose.height_mm)],
        "ok": "fail" not in verdict.lower() and corner_median < SUCCESS_CORNER_PX,
        "mm_errors": mm.tolist(),
    }  # fmt: skip
    if not row["ok"]:
        row["error"] = (f"verdict {verdict}" + (f" ({advice})" if advice else "")
                        if "fail" in verdict.lower()
                        else f"corners off by {corner_median:.1f} px (median)")  # fmt: skip
    return row


def measure_real(path: Path) -> dict[str, Any]:
    """Fit one real broadcast frame (match table, three-cushion): no truth."""
    image = cv2.imread(str(path))
    row: dict[str, Any] = {"frame": path.name}
    t0 = time.perf_counter()
    try:
        result = calibrate_frame(image, MATCH_TABLE, discipline=Discipline.THREE_CUSHION)
    except Exception as exc:  # as in measure(): recorded, not raised
        row |= {"ok": False, "fit_ms": 1000.0 * (time.perf_counter() - t0),
                "error": f"{type(exc).__name__}: {exc}"}  # fmt: skip
        return row
    row["fit_ms"] = 1000.0 * (time.perf_counter() - t0)
    verdict, advice, confidence = _verdict(result.report)
    table = MATCH_TABLE
    xy = np.array([[0.0, 0.0], [table.length_mm, 0.0],
                   [table.length_mm, table.width_mm], [0.0, table.width_mm]])  # fmt: skip
    uv = result.calibration.camera.project(np.c_[xy, np.zeros(4)])
    row |= {"verdict": verdict, "advice": advice, "confidence": confidence,
            "ok": "fail" not in verdict.lower(), "corners_px": uv.round(2).tolist(),
            "height_mm": round(result.calibration.camera.pose.height_mm)}  # fmt: skip
    if not row["ok"]:
        row["error"] = f"verdict {verdict}" + (f" ({advice})" if advice else "")
    return row


def code_version() -> dict[str, Any]:
    """The commit the calibration code is at, and its files changed since (uncommitted)."""

    def git(*cmd: str) -> str:
        out = subprocess.run(["git", *cmd], capture_output=True, text=True, cwd=ROOT)
        return out.stdout.strip()

    changed = git("status", "--porcelain", "--", "calibration").splitlines()
    files = sorted(line.split(maxsplit=1)[1] for line in changed)
    return {"commit": git("rev-parse", "--short", "HEAD"), "calibration_uncommitted": files}


def _args(argv: list[str] | None) -> argparse.Namespace:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--only", action="append", choices=CALIBRATION_CATEGORIES,
                   help="only this category (repeat for more)")  # fmt: skip
    p.add_argument("--seeds", type=int, default=20, help="seeds 0..N-1 per category (20)")
    p.add_argument("--workers", type=int, default=2, help="processes (2)")
    p.add_argument("--no-real", action="store_true", help="skip the real broadcast frames")
    p.add_argument("--out", type=Path, help="write NAME.json and NAME.md here (a partial run)")
    return p.parse_args(argv)


def main(argv: list[str] | None = None) -> None:
    """Run the cases in a pool, summarize, print and write the results."""
    args = _args(argv)
    categories = tuple(args.only or CALIBRATION_CATEGORIES)
    digest = synth_digest()
    cases = [(c, k, SIZE_PX, digest) for c in categories for k in range(args.seeds)]
    real_paths = [] if args.no_real else sorted(REAL.glob("*.jpg"))
    t0 = time.perf_counter()
    with Pool(args.workers) as pool:
        rows = []
        for row in pool.imap(measure, cases):
            rows.append(row)
            print(f"{row['category']} {row['seed']}: {'ok' if row['ok'] else row['error']}",
                  file=sys.stderr)  # fmt: skip
        real = pool.map(measure_real, real_paths)
    result = summarize(rows, real, categories, args.seeds, SIZE_PX)
    result |= {"machine": machine(), "wall_s": round(time.perf_counter() - t0, 1),
               "code": code_version()}  # fmt: skip
    text = markdown(result)
    print(text)
    full = args.only is None and args.seeds == 20 and not args.no_real
    out = args.out or (RESULTS / "calibration_robustness" if full else None)
    if out is not None:
        out.parent.mkdir(parents=True, exist_ok=True)
        out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
        out.with_suffix(".md").write_text(text)


if __name__ == "__main__":
    main()

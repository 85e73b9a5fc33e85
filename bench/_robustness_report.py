"""The calibration robustness bench's summary and its Markdown page.

Per category and part (``tuning``: even seeds, ``held-out``: odd seeds, ``all``):
frames, success rate, corner errors in px and mapping errors in mm pooled over the
successful frames (the four corners of each; every grid point of each), the median fit
time over every frame, and whether the issue's target is met (at least 95% success,
corners within 2 px and mapping within 2 mm at the median).
"""

from __future__ import annotations

import re
import time
from collections import Counter
from typing import Any

import numpy as np

__all__ = ["markdown", "summarize"]

TARGET_SUCCESS_PCT, TARGET_CORNER_PX, TARGET_MM = 95.0, 2.0, 2.0
PARTS = ("held-out", "tuning", "all")


def _pct(values: list[float], q: float) -> float | None:
    return round(float(np.percentile(values, q)), 3) if values else None


def stats(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Success and pooled errors of some frames (module docstring)."""
    good = [r for r in rows if r["ok"]]
    corners = [c for r in good for c in r["corner_px"]]
    mm = [e for r in good for e in r["mm_errors"]]
    out = {
        "n": len(rows),
        "success_pct": round(100.0 * len(good) / len(rows), 1) if rows else None,
        "fitted": sum("verdict" in r for r in rows),
        "half_turns": sum(bool(r.get("half_turn")) for r in rows),
        "corner_px_median": _pct(corners, 50),
        "corner_px_p95": _pct(corners, 95),
        "mm_median": _pct(mm, 50),
        "mm_p95": _pct(mm, 95),
        "fit_ms_median": _pct([r["fit_ms"] for r in rows], 50),
        "doubtful": sum(_doubtful(r) for r in rows),
        "off_target": sum(_off_target(r) for r in good),
    }
    out["target_met"] = bool(
        rows
        and out["success_pct"] >= TARGET_SUCCESS_PCT
        and out["corner_px_median"] is not None
        and out["corner_px_median"] <= TARGET_CORNER_PX
        and out["mm_median"] is not None
        and out["mm_median"] <= TARGET_MM
    )
    return out


def _doubtful(row: dict[str, Any]) -> bool:
    """A fit whose verdict is neither good nor failed."""
    verdict = str(row.get("verdict", "")).lower()
    return bool(verdict) and verdict != "good" and "fail" not in verdict


def _off_target(row: dict[str, Any]) -> bool:
    """A frame whose own median corner or mapping error misses the target."""
    corner, mm = row.get("corner_px_median"), row.get("mm_median")
    return corner is not None and (corner > TARGET_CORNER_PX or mm > TARGET_MM)


def _kind(error: str) -> str:
    """An error message with its numbers as N, to count failures of one kind."""
    return re.sub(r"-?\d+(\.\d+)?", "N", error)


def real_stats(rows: list[dict[str, Any]]) -> dict[str, Any]:
    """Success of the real frames and the spread (px) of their fitted corners.

    Each frame's corners are taken in the half turn nearest the first fitted frame's;
    the spread is each corner's distance from the median of that corner over the frames.
    """
    fitted = [np.array(r["corners_px"]) for r in rows if "corners_px" in r]
    spread: list[float] = []
    if fitted:
        ref = fitted[0]
        aligned = [min((f, np.roll(f, 2, axis=0)), key=lambda g: np.abs(g - ref).sum())
                   for f in fitted]  # fmt: skip
        stack = np.stack(aligned)
        spread = np.hypot(*(stack - np.median(stack, axis=0)).transpose(2, 0, 1)).ravel().tolist()
    heights = [r["height_mm"] for r in rows if "height_mm" in r]
    return {
        "n": len(rows),
        "success_pct": round(100.0 * sum(r["ok"] for r in rows) / len(rows), 1) if rows else None,
        "fitted": len(fitted),
        "corner_spread_px_median": _pct(spread, 50),
        "corner_spread_px_max": round(max(spread), 3) if spread else None,
        "height_mm_range": [min(heights), max(heights)] if heights else None,
        "fit_ms_median": _pct([r["fit_ms"] for r in rows], 50),
        "failures": [{"frame": r["frame"], "error": r["error"]} for r in rows if not r["ok"]],
        "verdicts": dict(Counter(r.get("verdict", "exception") for r in rows)),
    }


def summarize(
    rows: list[dict[str, Any]],
    real: list[dict[str, Any]],
    categories: tuple[str, ...],
    seeds: int,
    size_px: tuple[int, int],
) -> dict[str, Any]:
    """The results document: settings, per category and part, failures, real frames."""
    summary = {}
    for cat in categories:
        mine = [r for r in rows if r["category"] == cat]
        summary[cat] = {p: stats([r for r in mine if p in ("all", r["part"])]) for p in PARTS}
        summary[cat]["failure_kinds"] = dict(Counter(_kind(r["error"]) for r in mine
                                                     if not r["ok"]))  # fmt: skip
    frames = [{k: v for k, v in r.items() if k != "mm_errors"} for r in rows]
    return {
        "date": time.strftime("%Y-%m-%d"),
        "size_px": list(size_px),
        "seeds": seeds,
        "targets": {
            "success_pct": TARGET_SUCCESS_PCT,
            "corner_px_median": TARGET_CORNER_PX,
            "mm_median": TARGET_MM,
        },
        "summary": summary,
        "overall": {p: stats([r for r in rows if p in ("all", r["part"])]) for p in PARTS},
        "failures": [
            {k: r[k] for k in ("category", "seed", "part", "error")} for r in rows if not r["ok"]
        ],
        "real": real_stats(real),
        "frames": frames,
    }


def _cell(value: Any) -> str:
    if value is None:
        return "-"
    if isinstance(value, bool):
        return "yes" if value else "no"
    if isinstance(value, float):
        return f"{value:.2f}" if value < 100 else f"{value:.0f}"
    return str(value)


def _table(result: dict[str, Any]) -> list[str]:
    keys = ("n", "success_pct", "corner_px_median", "corner_px_p95", "mm_median", "mm_p95",
            "fit_ms_median", "half_turns", "doubtful", "off_target", "target_met")  # fmt: skip
    lines = ["| category | part | n | success % | corner px median | corner px p95 "
             "| mm median | mm p95 | fit ms | half turns | doubtful | off target | target met |",
             "|---|---|---|---|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    groups = [*result["summary"].items(), ("**all**", result["overall"])]
    for cat, parts in groups:
        for part in PARTS:
            s = parts[part]
            lines.append(f"| {cat} | {part} | " + " | ".join(_cell(s[k]) for k in keys) + " |")
    return lines


def _real(r: dict[str, Any]) -> list[str]:
    if not r["n"]:
        return ["Real frames: not run."]
    lines = [
        f"Real broadcast frames (`../shared/realdata/broadcast_frames/`, 1920x1080, no truth): "
        f"{r['n']} frames, success {_cell(r['success_pct'])}% (no exception, verdict not "
        f"failed), verdicts {r['verdicts']}; fitted corners' spread across frames "
        f"{_cell(r['corner_spread_px_median'])} px median, {_cell(r['corner_spread_px_max'])} "
        f"px max; fitted camera height {r['height_mm_range']} mm; fit "
        f"{_cell(r['fit_ms_median'])} ms (median).",
    ]
    lines += [f"- {f['frame']}: {f['error']}" for f in r["failures"]]
    return lines


def _code(code: dict[str, Any]) -> str:
    dirty = code["calibration_uncommitted"]
    extra = f", with uncommitted changes in {', '.join(dirty)}" if dirty else ""
    return f"Calibration code: commit {code['commit']}{extra}."


def markdown(result: dict[str, Any]) -> str:
    """The results page: settings, the table per category and part, why frames failed."""
    m = result["machine"]
    w, h = result["size_px"]
    t = result["targets"]
    head = [
        f"# Automatic calibration on tables of every kind ({result['date']})", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, load {m['load_1_5_15']}"
        f" ({m['date']}); wall time {result['wall_s']} s.", "",
        _code(result["code"]), "",
        f"`bench/calibration_robustness.py`: per category of `synth.calibration_scene`, seeds "
        f"0..{result['seeds'] - 1} rendered at {w}x{h}; even seeds are **tuning** (detection "
        "may be adjusted while looking at them), odd seeds **held-out**. Success: no "
        "exception, verdict not failed, corners within 10 px (median of 4). Corner and mm "
        "errors are pooled over the successful frames: corners of the playing surface "
        "(cloth plane) in px; ball centres on a 100 mm grid over the cloth, true pixel "
        "mapped back through the fitted camera, in mm. Fit time over every frame. Target "
        f"(issue 17): success >= {t['success_pct']:g}%, corners <= {t['corner_px_median']:g}"
        f" px and mapping <= {t['mm_median']:g} mm at the median.", "",
    ]  # fmt: skip
    fails = ["", "## Why frames failed", "", "| category | seed | part | reason |",
             "|---|---|---|---|"]  # fmt: skip
    fails += [f"| {f['category']} | {f['seed']} | {f['part']} | {f['error']} |"
              for f in result["failures"]]  # fmt: skip
    body = [*head, *_table(result), "", *_legend(), "", *_real(result["real"]), *fails]
    return "\n".join([*body, *_off_target_rows(result["frames"])]) + "\n"


def _legend() -> list[str]:
    return [
        "Half turns: fits that took the head for the foot (measured against the half-turned "
        "truth). Doubtful: fits whose verdict is neither good nor failed. Off target: "
        f"successful frames whose own median corner error is over {TARGET_CORNER_PX:g} px or "
        f"median mapping error over {TARGET_MM:g} mm (listed at the end)."
    ]


def _off_target_rows(frames: list[dict[str, Any]]) -> list[str]:
    rows = [
        "", "## Successful but off target", "",
        "| category | seed | part | verdict | advice | corner px median | mm median | mm p95 "
        "| camera height mm (true, fitted) |",
        "|---|---|---|---|---|---|---|---|---|",
    ]  # fmt: skip
    for f in frames:
        if f["ok"] and _off_target(f):
            where = f"| {f['category']} | {f['seed']} | {f['part']} "
            fit = f"| {f['verdict']} | {f.get('advice') or '-'} | {f['corner_px_median']:.2f} "
            rows.append(
                f"{where}{fit}| {f['mm_median']:.2f} | {f['mm_p95']:.2f} | {f['height_mm']} |"
            )
    return rows

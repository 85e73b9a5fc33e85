"""Lag detection accuracy: rendered lags through vision, judged, compared with the truth.

Every registered lag (``carom synth --list``: ``lag-*`` and ``five-pins-lag-*``) is
rendered through each look below with ``carom synth``'s own code, then
:func:`carom.synth_check.check_lag` runs ``carom analyze``'s vision on the video
(automatic calibration, detector ``auto``), takes the first motion vision calls a
lag, judges it with ``referee.judge_lag`` and compares with the truth file's ``lag``:
a lag is judged right when the winner (or "lag again") and every player's faults
agree. The lag's events (cushion contacts of both balls, ball contacts, pins down,
off the table) are scored as in ``vision_accuracy`` (same kind, balls and cushion
within 50 ms). Writes ``bench/results/lag_accuracy.json`` and ``.md``.

    PYTHONPATH=. nice -n 19 .venv/bin/python bench/lag_accuracy.py [--look small|hd|green]

Looks: ``small`` 640x360 at 30 fps, the default camera (what the tests render);
``hd`` 1280x720 at 30 fps; ``green`` 960x540 at 50 fps, green cloth, lamps at 0.7,
6 deg tilt, 2 deg roll, k1 -0.12, 2.6 m, seed 11. No threshold was tuned on these
clips: the lag detector was written before any was rendered, and the ``small`` look
was the first run.
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs

from carom.synth_check import LagCheck, check_lag
from synth import CameraSettings, LookSettings, lag_names, make_clip, motion_for

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OUT = ROOT / "out" / "bench" / "lags"
LOOKS: dict[str, tuple[CameraSettings, LookSettings, int]] = {
    "small": (CameraSettings(width_px=640, height_px=360), LookSettings(), 0),
    "hd": (CameraSettings(), LookSettings(), 3),
    "green": (
        CameraSettings(width_px=960, height_px=540, fps=50.0, height_m=2.6, tilt_deg=6.0,
                       roll_deg=2.0, k1=-0.12),
        LookSettings(cloth="green", light=0.7),
        11,
    ),
}  # fmt: skip


def _render(name: str, look: str) -> Path:
    camera, settings, seed = LOOKS[look]
    out = OUT / look
    video = out / f"{name}.mp4"
    if not video.exists():
        make_clip(name, motion_for(name), out, camera, settings, seed=seed)
    return video


def _row(check: LagCheck, look: str, seconds: float) -> dict[str, Any]:
    seen = check.seen
    ev = check.events
    return {
        "lag": check.name, "look": look, "right": check.right,
        "truth_winner": check.truth["winner"], "seen_winner": None if seen is None else seen.winner,
        "truth_faults": check.truth["faults"], "seen_faults": check.faults_seen,
        "seen_reason": None if seen is None else seen.reason,
        "truth_reason": check.truth["reason"],
        "events_true": sum(ev.truth.values()), "events_matched": sum(ev.matched.values()),
        "events_false": len(ev.extras), "events_doubtful": len(ev.flagged),
        "missed": [str(e) for e in ev.misses], "false": [str(e) for e in ev.extras],
        "motions": check.n_motions, "analyze_s": round(seconds, 1),
    }  # fmt: skip


def run(looks: list[str]) -> dict[str, Any]:
    """Render (if not yet rendered) and check every lag in ``looks``."""
    rows = []
    for look in looks:
        for name in lag_names():
            video = _render(name, look)
            t0 = time.monotonic()
            check = check_lag(video, OUT / look / f"{name}.analysis")
            rows.append(_row(check, look, time.monotonic() - t0))
            print(f"{look} {name}: right={check.right} seen={rows[-1]['seen_reason']}",
                  file=sys.stderr, flush=True)  # fmt: skip
    return {"machine": machine(), "rows": rows}


def markdown(doc: dict[str, Any]) -> str:
    """The results as a Markdown page."""
    rows = doc["rows"]
    lines = [f"# Lag detection accuracy ({doc['machine']['date'][:10]})", ""]
    for look in dict.fromkeys(r["look"] for r in rows):
        mine = [r for r in rows if r["look"] == look]
        right = sum(r["right"] for r in mine)
        lines.append(f"- `{look}`: **{right} of {len(mine)}** lags judged right")
    lines += ["", "| look | lag | right | truth | judged from vision | events found / true "
              "| false | missed |", "|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for r in rows:
        lines.append(
            f"| {r['look']} | {r['lag']} | {'yes' if r['right'] else '**no**'} | "
            f"{r['truth_reason']} | {r['seen_reason']} | "
            f"{r['events_matched']}/{r['events_true']} | {r['events_false']} | "
            f"{'; '.join(r['missed']) or '-'} |"
        )
    m = doc["machine"]
    lines += ["", f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
              f"load {m['load_1_5_15']}, {m['date']}.", ""]  # fmt: skip
    return "\n".join(lines)


def main() -> None:
    """Run the bench and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--look", action="append", choices=list(LOOKS))
    args = parser.parse_args()
    looks = args.look or list(LOOKS)
    doc = run(looks)
    path = RESULTS / "lag_accuracy.json"
    if path.exists():  # keep the rows of looks not run this time
        kept = [r for r in json.loads(path.read_text())["rows"] if r["look"] not in looks]
        doc["rows"] = kept + doc["rows"]
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "lag_accuracy.json").write_text(json.dumps(doc, indent=1) + "\n")
    (RESULTS / "lag_accuracy.md").write_text(markdown(doc))


if __name__ == "__main__":
    main()

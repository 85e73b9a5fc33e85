"""Live mode: from the moment the last ball truly stops to the verdict's bytes on the board.

Every figure is measured against the truth of rendered clips: the truth file gives
each ball's centre at every frame, from which ``bench/_true_stops.py`` finds when the
last ball of each shot really stopped (within a few ms of the simulator's own stop).
Each replay runs in a fresh process (``bench/_live_run.py``): the whole live loop of
``carom live`` (capture thread, analyser, SQLite session, scoreboard link) writing to
a board in its own process on a pty (``bench/_board_clock.py``), which notes when each
frame lands. Results in ``bench/results/live_latency.json`` and ``.md``.

Two settings of the same code, in the same run (and with ``--before REV`` the code of
commit REV as it was, exported with ``git archive``):

* ``verdict at close`` (the baseline: ``StopSettings(max_wait_s=0)``): the verdict
  leaves on the frame that closed the shot, as before the verdict waited for the stop;
* ``verdict at stop`` (live mode's default): the closed shot waits until the tracker
  holds every ball at rest (``carom.live.loop._settle``).

Parts:

1. ``verdicts``: every sample clip (and the 1080p60 render) replayed losslessly
   (``pace=0``) through the live loop: the verdicts against the truth's, reviews, and
   when each verdict was taken against the true stop.
2. ``latency``: the 1080p60 render of the three-cushion sample (56.5 s, 4 shots; rendered
   by ``bench/vision_speed.py`` or ``carom synth three-cushion-match --width 1920
   --height 1080 --fps 60 --out out/bench``) replayed ``--loops`` times back to back at
   real-time pace, idle and under load: the same run also serving the web pages
   (``carom live --serve``) with headless Chromium showing its ``/scoreboard``
   (``bench/_browser_load.py``). Per shot: true stop -> bytes on the board, and its
   parts: stop detection (true stop -> the frame that closed the shot), the wait for
   the stop (-> the verdict's frame), the queue (that frame due -> taken by the loop),
   the analysis of that frame, the referee and the board (SQLite commit, link, pty).

    PYTHONPATH=. .venv/bin/python bench/live_latency.py [--loops 11] [--skip-verdicts]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import numpy as np
from _live_report import markdown
from _machine import machine  # bench/ is on the path when a bench runs

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
SAMPLES = ROOT / "sample_videos"
HD = ROOT / "out" / "bench" / "three-cushion-match.mp4"
LIVE_SEGMENT = {"window_s": 0.1, "move_mm": 2.0, "rest_s": 0.15}  # carom live's defaults
SETTINGS = {"verdict at close": {"max_wait_s": 0.0}, "verdict at stop": None}
BUDGET_MS = 150.0


def run_child(spec: dict[str, Any], tmp: Path, code: Path = ROOT) -> dict[str, Any]:
    """One replay in a fresh process running the code under ``code``; its raw result."""
    spec_path, out_path = tmp / "spec.json", tmp / "out.json"
    spec_path.write_text(json.dumps(spec), encoding="utf-8")
    env = dict(os.environ, PYTHONPATH=str(code))
    subprocess.run([sys.executable, str(ROOT / "bench" / "_live_run.py"), str(spec_path),
                    str(out_path)], check=True, env=env, cwd=ROOT)  # fmt: skip
    result: dict[str, Any] = json.loads(out_path.read_text(encoding="utf-8"))
    return result


def _pct(values: list[float]) -> dict[str, float]:
    if not values:
        return {}
    p50, p95, mx = np.percentile(values, [50, 95, 100])
    return {"p50_ms": round(float(p50), 1), "p95_ms": round(float(p95), 1),
            "max_ms": round(float(mx), 1)}  # fmt: skip


def parts(row: dict[str, Any]) -> dict[str, float] | None:
    """One shot's latency and its parts (ms), or None when it has no verdict on the board."""
    if "board" not in row:
        return None
    ms = 1000.0
    return {
        "total": (row["board"] - row["true_mono"]) * ms,
        "stop_detection": (row["closed_t_s"] - row["true_stop_s"]) * ms,
        "wait_for_stop": (row["verdict_t_s"] - row["closed_t_s"]) * ms,
        "queue": (row["taken"] - row["due"]) * ms,
        "frame_analysis": (row["fed"] - row["taken"]) * ms,
        "referee_board": (row["board"] - row["fed"]) * ms,
    }


def summarise(raw: dict[str, Any]) -> dict[str, Any]:
    """The figures of one replay: percentiles of the latency and of each part."""
    rows = [p for p in map(parts, raw["shots"]) if p is not None]
    left = [r["left_mm_at_verdict"] for r in raw["shots"] if "left_mm_at_verdict" in r]
    early = [r for r in raw["shots"] if "verdict_t_s" in r and r["verdict_t_s"] < r["true_stop_s"]]
    out = {k: v for k, v in raw.items() if k != "shots"}
    out |= {
        "shots": len(raw["shots"]), "timed": len(rows),
        "within_budget": sum(r["total"] <= BUDGET_MS for r in rows),
        "verdict_frame_before_true_stop": len(early),
        "left_mm_at_verdict_max": max(left) if left else None,
        "left_mm_at_verdict_median": float(np.median(left)) if left else None,
    }  # fmt: skip
    out["latency"] = {k: _pct([r[k] for r in rows]) for k in rows[0]} if rows else {}
    return out


def verdicts_part(clips: list[Path], tmp: Path, code: Path) -> dict[str, list[dict[str, Any]]]:
    """Each setting on each clip, lossless: verdicts and when they were taken."""
    out: dict[str, list[dict[str, Any]]] = {}
    for name, stop in SETTINGS.items():
        out[name] = []
        for clip in clips:
            spec = {"clip": str(clip), "loops": 1, "segment": LIVE_SEGMENT, "stop": stop,
                    "load": False, "pace": 0.0}  # fmt: skip
            raw = run_child(spec, tmp, code)
            keys = ("true_stop_s", "closed_t_s", "verdict_t_s", "left_mm_at_verdict")
            shots = [{k: r.get(k) for k in keys} for r in raw["shots"]]
            out[name].append({"clip": clip.name, "equal": raw["verdicts"] == raw["truth_verdicts"],
                              "verdicts": raw["verdicts"], "truth": raw["truth_verdicts"],
                              "pending": raw["pending"], "reviews": raw["reviews"],
                              "shots": shots})  # fmt: skip
            print(name, clip.name, out[name][-1]["equal"], raw["pending"], flush=True)
    return out


def export(rev: str, where: Path) -> Path:
    """The tree of commit ``rev`` (``git archive``) under ``where``."""
    tree = where / f"tree-{rev}"
    if tree.exists():
        return tree
    tree.mkdir(parents=True)
    archive = subprocess.run(["git", "archive", rev], cwd=ROOT, check=True, capture_output=True)
    subprocess.run(["tar", "-x", "-C", str(tree)], input=archive.stdout, check=True)
    return tree


def latency_part(
    clip: Path, loops: int, conditions: list[str], tmp: Path, code: Path, before: Path | None
) -> dict[str, Any]:
    """Each condition ("SETTING / idle|load") replayed at real-time pace.

    SETTING ``before`` runs the code of ``--before`` as it was (its own settings).
    """
    out = {}
    for condition in conditions:
        name, load = condition.rsplit(" / ", 1)
        tree = before if name == "before" and before is not None else code
        spec = {"clip": str(clip), "loops": loops, "segment": LIVE_SEGMENT,
                "stop": SETTINGS.get(name), "load": load == "load", "pace": 1.0}  # fmt: skip
        raw = run_child(spec, tmp, tree)
        out[condition] = {"summary": summarise(raw), "shots": raw["shots"]}
        print(condition, json.dumps(out[condition]["summary"]), flush=True)
    return out


def _revision(rev: str) -> str:
    out = subprocess.run(["git", "rev-parse", "--short", rev], cwd=ROOT, capture_output=True,
                         text=True, check=False)  # fmt: skip
    return out.stdout.strip() or rev


def _shown(path: Path) -> str:
    return str(path.relative_to(ROOT)) if path.is_relative_to(ROOT) else str(path)


def main() -> int:
    """Run the parts asked for and write the results."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--clip", type=Path, default=HD)
    p.add_argument("--loops", type=int, default=11)
    p.add_argument("--skip-verdicts", action="store_true")
    p.add_argument("--skip-latency", action="store_true")
    p.add_argument("--conditions", help="SETTING / idle|load, ... (default: all, idle first)")
    p.add_argument("--out", type=Path, default=RESULTS / "live_latency")
    p.add_argument("--before", metavar="REV", help="also time commit REV as it was (before)")
    p.add_argument("--verdicts-from", type=Path, help="take the verdicts part from this JSON")
    p.add_argument("--code", metavar="REV",
                   help="the code under test: commit REV (default: the working tree)")  # fmt: skip
    args = p.parse_args()
    args.clip = args.clip.resolve()
    doc: dict[str, Any] = {"machine": machine(), "clip": _shown(args.clip),
                           "loops": args.loops, "budget_ms": BUDGET_MS,
                           "segment": LIVE_SEGMENT, "verdicts": {}, "latency": {}}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        code = export(args.code, tmp) if args.code else ROOT
        doc["code"] = _revision(args.code or "HEAD") + ("" if args.code else " + working tree")
        if args.verdicts_from is not None:
            earlier = json.loads(args.verdicts_from.read_text(encoding="utf-8"))
            doc["verdicts"], doc["verdicts_machine"] = earlier["verdicts"], earlier["machine"]
        elif not args.skip_verdicts:
            clips = sorted(SAMPLES.glob("*.mp4")) + ([HD] if HD.exists() else [])
            doc["verdicts"] = verdicts_part(clips, tmp, code)
        if not args.skip_latency:
            before = export(args.before, tmp) if args.before else None
            doc["before"] = args.before
            names = (["before"] if before is not None else []) + list(SETTINGS)
            conditions = [f"{s} / {w}" for w in ("idle", "load") for s in names]
            if args.conditions:
                conditions = [c.strip() for c in args.conditions.split(",")]
            doc["latency"] = latency_part(args.clip, args.loops, conditions, tmp, code, before)
    doc["machine"]["load_1_5_15_end"] = [round(v, 2) for v in os.getloadavg()]
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(doc), encoding="utf-8")
    print(markdown(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())

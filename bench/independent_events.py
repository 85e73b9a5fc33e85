"""Events, positions and verdicts of ``carom analyze`` on shots from pooltool.

Ground truth from physics we did not write: each shot of
``bench/data/pooltool_shots.json.gz`` (``bench/pooltool/generate.py``;
``docs/independent-events.md``) is rendered through our renderer with a seeded random
camera and look (``_independent_look``), analysed as ``carom analyze`` does
(``carom.synth_check.check_clip``: automatic calibration, the default ``auto``
detector, tracking, events, the referee) and scored against the exact events and
positions. Results per split (held-out: ``id % 3 == 0``), per situation tag and per
frame rate, with every failure (``_independent_rows``, ``_independent_report``)::

    PYTHONPATH=. .venv/bin/python bench/independent_events.py [--workers 2] [--limit N]
        [--only 42,57,tag:near_miss] [--split held-out] [--minutes 45] [--merge]
        [--rerender] [--out PREFIX] [--md-only] [--note TEXT]

Shots run in a fixed, stratified order (round-robin over each shot's rarest tag,
held-out and tuning alternating) so that ``--limit`` and ``--minutes`` cover every
situation. Renders are kept in ``out/bench/independent/NAME/`` and reused while the
look and motion are the same (``--rerender`` redoes them), so a rerun after a vision
change only analyses. A shot is rendered in a fresh process with one encoder thread,
so rendering it again gives the same file. ``--merge`` keeps the rows of shots not run
now.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import subprocess
import sys
import time
import traceback
from collections import Counter
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from pathlib import Path
from typing import Any

from _independent_look import draw_look, motion_digest, render_shot
from _independent_report import groups, markdown
from _independent_rows import error_row, shot_row
from _machine import machine  # bench/ is on the path when a bench runs

from carom.synth_check import check_clip
from synth import IndependentReplay, IndependentSet, IndependentShot, load_independent_shots

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "pooltool_shots.json.gz"
WORK = ROOT / "out" / "bench" / "independent"
OUT = ROOT / "bench" / "results" / "independent_events"


def order(shots: tuple[IndependentShot, ...], counts: dict[str, int]) -> list[IndependentShot]:
    """Round-robin over each shot's rarest tag, held-out and tuning alternating within one."""
    by: dict[str, list[IndependentShot]] = {}
    for s in shots:
        key = min(s.tags, key=lambda t: (counts.get(t, 0), t)) if s.tags else "plain"
        by.setdefault(key, []).append(s)
    lanes = []
    for key in sorted(by, key=lambda k: (counts.get(k, 0), k)):
        held = [s for s in by[key] if s.split == "held-out"]
        tune = [s for s in by[key] if s.split != "held-out"]
        lane = [x for pair in zip(held, tune, strict=False) for x in pair]
        lanes.append(lane + held[len(lane) // 2 :] + tune[len(lane) // 2 :])
    out = []
    for i in range(max(len(lane) for lane in lanes)):
        out += [lane[i] for lane in lanes if i < len(lane)]
    return out


def selected(data: IndependentSet, args: argparse.Namespace) -> list[IndependentShot]:
    """The shots to run, in order."""
    shots = [s for s in data.shots if args.split == "all" or s.split == args.split]
    if args.only:
        ids = {int(x.removeprefix("pt")) for x in args.only.split(",") if not x.startswith("tag:")}
        tags = {x[4:] for x in args.only.split(",") if x.startswith("tag:")}
        shots = [s for s in shots if s.shot_id in ids or tags & set(s.tags)]
    ranked = order(tuple(shots), data.header["tag_counts"])
    return ranked[: args.limit] if args.limit else ranked


def run_one(data_path: Path, shot_id: int, rerender: bool) -> dict[str, Any]:
    """Render (unless kept) and analyse one shot; a failure becomes a row, never a crash."""
    data = load_independent_shots(data_path)
    shot = data.shot(shot_id)
    replay = IndependentReplay(shot, data.table)
    look = draw_look(shot_id)
    folder = WORK / shot.name
    video = folder / f"{shot.name}.mp4"
    try:
        t0 = time.perf_counter()
        if rerender or not _kept(video, look, motion_digest(replay)):
            _render_fresh(data_path, shot_id, video)
        t1 = time.perf_counter()
        check = check_clip(video, folder / "analysis")
        seconds = {"render": t1 - t0, "analyze": time.perf_counter() - t1}
        return shot_row(check, replay, look, seconds)
    except Exception as exc:  # a bench lists a failing shot and goes on
        traceback.print_exc()
        return error_row(replay, look, f"{type(exc).__name__}: {exc}")


def _render_fresh(data_path: Path, shot_id: int, video: Path) -> None:
    """Render one shot in a fresh process (``spawn``) with one encoder thread.

    So its file does not depend on what the worker ran before (``docs/synthetic.md``,
    "Bit for bit").
    """
    child = multiprocessing.get_context("spawn").Process(
        target=_render_child, args=(str(data_path), shot_id, str(video))
    )
    child.start()
    child.join()
    if child.exitcode != 0:
        raise RuntimeError(f"rendering shot {shot_id} failed (exit {child.exitcode}; see above)")


def _render_child(data_path: str, shot_id: int, video: str) -> None:
    data = load_independent_shots(Path(data_path))
    replay = IndependentReplay(data.shot(shot_id), data.table)
    render_shot(replay, draw_look(shot_id), Path(video), seed=shot_id)


def _kept(video: Path, look: dict[str, Any], digest: str) -> bool:
    truth = video.with_suffix(".json")
    if not (video.exists() and truth.exists()):
        return False
    try:
        extra = json.loads(truth.read_text())["extra"]
        return bool(extra.get("look") == look and extra.get("motion") == digest)
    except (OSError, ValueError, KeyError):
        return False


def _code() -> str:
    """The commit the bench ran on, and the project's files changed from it."""
    try:
        head = subprocess.run(["git", "rev-parse", "--short", "HEAD"], cwd=ROOT, check=True,
                              capture_output=True, text=True).stdout.strip()  # fmt: skip
        dirty = subprocess.run(
            ["git", "status", "--short", "--", "vision", "carom", "calibration", "synth"],
            cwd=ROOT, check=True, capture_output=True, text=True,
        ).stdout.split("\n")  # fmt: skip
    except (OSError, subprocess.CalledProcessError):
        label = ROOT / ".commit"
        return label.read_text().strip() if label.exists() else "unknown"
    changed = [line[3:] for line in dirty if line.strip()]
    return f"commit {head}" + (
        f" with uncommitted changes in {', '.join(changed)}" if changed else ""
    )


def write(rows: list[dict[str, Any]], data: IndependentSet, args: argparse.Namespace,
          wall_s: float) -> None:  # fmt: skip
    """The JSON (rows and figures) and the Markdown page."""
    rows = sorted(rows, key=lambda r: r["id"])
    held = sum(1 for s in data.shots if s.split == "held-out")
    result = {
        "data": {"file": str(args.data.relative_to(ROOT)) if args.data.is_relative_to(ROOT)
                 else str(args.data), "shots": len(data.shots), "held_out": held,
                 "tag_counts": data.header["tag_counts"],
                 "max_continuize_dev_mm": data.header["max_continuize_dev_mm"]},
        "options": {k: str(v) if isinstance(v, Path) else v for k, v in vars(args).items()},
        "code": _code(), "machine": machine(), "wall_s": round(wall_s, 1),
        "figures": groups(rows), "rows": rows,
    }  # fmt: skip
    out = Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    out.with_suffix(".json").write_text(json.dumps(result, indent=1) + "\n")
    out.with_suffix(".md").write_text(markdown(result))


def run(args: argparse.Namespace) -> None:
    """Run the selected shots on ``--workers`` processes, writing results as they come."""
    data = load_independent_shots(args.data)
    todo = selected(data, args)
    rows: list[dict[str, Any]] = []
    if args.merge and Path(args.out).with_suffix(".json").exists():
        ids = {s.shot_id for s in todo}
        old = json.loads(Path(args.out).with_suffix(".json").read_text())["rows"]
        rows = [r for r in old if r["id"] not in ids]
    t0 = time.perf_counter()
    print(f"{len(todo)} shots to run: {Counter(s.split for s in todo)}", file=sys.stderr)
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        queue, running = list(todo), set[Future[dict[str, Any]]]()
        while queue or running:
            budget_left = not args.minutes or time.perf_counter() - t0 < 60 * args.minutes
            while queue and budget_left and len(running) < args.workers:
                running.add(pool.submit(run_one, args.data, queue.pop(0).shot_id, args.rerender))
            if not running:
                break
            done, running = wait(running, return_when=FIRST_COMPLETED)
            for f in done:
                rows.append(f.result())
                _say(rows[-1])
                write(rows, data, args, time.perf_counter() - t0)
    write(rows, data, args, time.perf_counter() - t0)
    print(Path(args.out).with_suffix(".md").read_text())


def _say(r: dict[str, Any]) -> None:
    print(f"{r['name']} {r['split']} {r['tags']}: matched {r['matched']} of {r['truth']}, "
          f"found {r['found']}, verdicts {r['verdicts']}, {len(r['failures'])} failures, "
          f"{r['seconds']}", file=sys.stderr)  # fmt: skip


def main() -> None:
    """Parse the options and run (or redo the page from the JSON)."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--data", type=Path, default=DATA)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--limit", type=int, default=0, help="first N shots of the order (0: all)")
    ap.add_argument("--only", default="", help="ids and tag:NAME, comma-separated")
    ap.add_argument("--split", default="all", choices=["all", "tuning", "held-out"])
    ap.add_argument("--minutes", type=float, default=0.0, help="start no shot after this")
    ap.add_argument("--merge", action="store_true", help="keep the rows of shots not run")
    ap.add_argument("--rerender", action="store_true", help="render again even if kept")
    ap.add_argument("--out", default=str(OUT), help="results path without suffix")
    ap.add_argument("--md-only", action="store_true", help="redo the Markdown from the JSON")
    ap.add_argument("--note", default="", help="a sentence for the page (how this run was made)")
    args = ap.parse_args()
    if args.md_only:
        result = json.loads(Path(args.out).with_suffix(".json").read_text())
        Path(args.out).with_suffix(".md").write_text(markdown(result))
        return
    run(args)


if __name__ == "__main__":
    main()

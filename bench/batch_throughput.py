"""Batch throughput: seconds of video analysed per wall second, local pool and Ray, 1 and 2 workers.

The videos: the five bundled sample clips (1280x720, 30 to 60 fps, 232 s of video in
all) and a second copy of each with one byte appended (its hash differs, so the batch
analyses it again instead of calling it a duplicate; the byte is past the end of the
MP4's last box and no decoder reads it): ten videos, 464 s of video. Each
configuration runs in a fresh output folder, in turns, ``--repeat`` times:

* ``analyze loop``: ``carom analyze`` on each video, one after the other (the
  baseline: what a shell loop does, measured in the same run);
* ``carom batch --workers 1`` and ``--workers 2`` (the local process pool);
* ``carom batch --ray --workers 1`` and ``--ray --workers 2`` (a local Ray started by
  the command).

Reported per configuration (the best of the repeats, and every repeat in the JSON):
the wall time of the whole command (start-up, hashing, Ray's start, the statistics),
the batch's own time (``batch.json``'s ``run.wall_s``: from the first job submitted to
the last installed), the throughput (video seconds / wall second, whole command) and
the scaling efficiency of 2 workers (throughput with 2 / twice that with 1). Writes
``bench/results/batch_throughput.json`` and ``.md``.

    PYTHONPATH=. .venv/bin/python bench/batch_throughput.py
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
WORK = ROOT / "out" / "bench" / "batch_throughput"
SAMPLES = sorted((ROOT / "sample_videos").glob("*.mp4"))
CONFIGS: dict[str, list[str]] = {
    "analyze loop": [],
    "batch, 1 local worker": ["--workers", "1"],
    "batch, 2 local workers": ["--workers", "2"],
    "batch, Ray, 1 worker": ["--ray", "--workers", "1"],
    "batch, Ray, 2 workers": ["--ray", "--workers", "2"],
}


def _carom() -> str:
    return str(Path(sys.executable).parent / "carom")


def _videos() -> list[Path]:
    folder = WORK / "videos"
    shutil.rmtree(folder, ignore_errors=True)
    folder.mkdir(parents=True)
    for src in SAMPLES:
        shutil.copy(src, folder / src.name)
        copy = folder / f"{src.stem}-copy.mp4"
        shutil.copy(src, copy)
        with copy.open("ab") as f:
            f.write(b"\0")
    return sorted(folder.glob("*.mp4"))


def _run(name: str, videos: list[Path], out: Path) -> dict[str, Any]:
    shutil.rmtree(out, ignore_errors=True)
    started = time.perf_counter()
    if name == "analyze loop":
        for video in videos:
            done = subprocess.run([_carom(), "analyze", str(video), "--out", str(out / video.stem),
                                   "--json"], capture_output=True, text=True)  # fmt: skip
            assert done.returncode == 0, done.stderr
        wall = time.perf_counter() - started
        return {"wall_s": wall, "batch_wall_s": None, "failed": 0, "video_s": None}
    done = subprocess.run([_carom(), "batch", str(videos[0].parent), "--out", str(out), "--json",
                           *CONFIGS[name]], capture_output=True, text=True)  # fmt: skip
    wall = time.perf_counter() - started
    assert done.returncode == 0, done.stderr
    run = json.loads((out / "batch.json").read_text())["run"]
    assert run["done"] == len(videos), run
    return {"wall_s": wall, "batch_wall_s": run["wall_s"], "failed": run["failed"],
            "video_s": run["video_s"], "engine": run["engine"]}  # fmt: skip


def main() -> None:
    """Run every configuration ``--repeat`` times in turns; write the results."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=2)
    args = parser.parse_args()
    videos = _videos()
    runs: dict[str, list[dict[str, Any]]] = {name: [] for name in CONFIGS}
    for r in range(args.repeat):
        for name in CONFIGS:
            runs[name].append(_run(name, videos, WORK / "out" / name.replace(" ", "_")))
            print(f"repeat {r + 1} {name}: {runs[name][-1]['wall_s']:.1f} s", flush=True)
    video_s = next(x["video_s"] for x in runs["batch, 1 local worker"])
    rows = _rows(runs, video_s)
    doc = {"machine": machine(), "videos": len(videos), "video_s": video_s, "rows": rows,
           "runs": runs}  # fmt: skip
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "batch_throughput.json").write_text(json.dumps(doc, indent=1) + "\n")
    (RESULTS / "batch_throughput.md").write_text(_markdown(doc))
    print(_markdown(doc))


def _rows(runs: dict[str, list[dict[str, Any]]], video_s: float) -> list[dict[str, Any]]:
    best = {name: min(r["wall_s"] for r in rs) for name, rs in runs.items()}
    rows = []
    for name, wall in best.items():
        batch_walls = [r["batch_wall_s"] for r in runs[name] if r["batch_wall_s"] is not None]
        rows.append({"config": name, "wall_s": round(wall, 2),
                     "batch_wall_s": round(min(batch_walls), 2) if batch_walls else None,
                     "throughput": round(video_s / wall, 2)})  # fmt: skip
    by = {r["config"]: r["throughput"] for r in rows}
    for engine in ("local", "Ray"):
        one = by[f"batch, 1 {engine} worker" if engine == "local" else "batch, Ray, 1 worker"]
        two = by[f"batch, 2 {engine} workers" if engine == "local" else "batch, Ray, 2 workers"]
        rows.append(
            {"config": f"scaling efficiency, {engine}", "efficiency": round(two / (2 * one), 3)}
        )
    return rows


def _markdown(doc: dict[str, Any]) -> str:
    m = doc["machine"]
    lines = [
        "# Batch throughput", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, {m['system']}; "
        f"load {m['load_1_5_15']} at the start of the write-up; {m['date']}.", "",
        f"{doc['videos']} videos, {doc['video_s']:.0f} s of video (the five sample clips and a "
        "copy of each; bench/batch_throughput.py says how). Best of the repeats; the whole "
        "command's wall time; throughput in seconds of video per wall second.", "",
        "| configuration | wall s | batch's own s | throughput (video s / s) |",
        "|---|---:|---:|---:|",
    ]  # fmt: skip
    for r in doc["rows"]:
        if "efficiency" in r:
            continue
        own = "" if r["batch_wall_s"] is None else f"{r['batch_wall_s']:.1f}"
        lines.append(f"| {r['config']} | {r['wall_s']:.1f} | {own} | {r['throughput']:.2f} |")
    lines.append("")
    for r in doc["rows"]:
        if "efficiency" in r:
            lines.append(f"- {r['config']} (2 workers against twice 1): {r['efficiency']:.2f}")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    main()

"""Where the time of one ``carom analyze`` run goes: CPU per thread, start, waits.

Runs ``carom analyze`` on a 1080p60 bench clip (``vision_speed.py`` renders them:
``--kind typical`` or ``low`` bitrate) in
a fresh process that samples its own threads' CPU times from ``/proc/self/task``
every 0.2 s, times the start (until the first frame reaches the analyser) and how
long the analysis waited for the decoder. Linux only (``/proc``). Writes
``bench/results/vision_threads.json`` and ``.md`` with the machine.

    PYTHONPATH=. .venv/bin/python bench/vision_threads.py [--kind typical|low | --clip FILE]
"""

from __future__ import annotations

import argparse
import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs
from vision_speed import CACHE, RESULTS, ROOT, render_clip

CHILD = """
import glob, json, os, sys, threading, time
from vision import Analyzer
from vision.frames import ReadAhead
from carom.cli import main

tick = os.sysconf("SC_CLK_TCK")
cpu, names, stop = {}, {}, threading.Event()

def sample():
    while not stop.is_set():
        for stat in glob.glob("/proc/self/task/*/stat"):
            try:
                text = open(stat).read()
            except OSError:
                continue  # the thread ended between the listing and the read
            fields = text[text.rindex(")") + 2 :].split()
            tid = stat.split("/")[4]
            names[tid] = text[text.index("(") + 1 : text.rindex(")")]
            cpu[tid] = (int(fields[11]) + int(fields[12])) / tick
        time.sleep(0.2)

marks = {"waited_s": 0.0}
feed = Analyzer.feed
def timed_feed(self, frame):
    marks.setdefault("first_frame_s", time.perf_counter() - t0)
    return feed(self, frame)
Analyzer.feed = timed_feed
get = ReadAhead.__iter__
def timed_iter(self):
    it = get(self)
    while True:
        start = time.perf_counter()
        try:
            item = next(it)
        except StopIteration:
            return
        finally:
            marks["waited_s"] += time.perf_counter() - start
        yield item
ReadAhead.__iter__ = timed_iter

main_tid = str(threading.get_native_id())
threading.Thread(target=sample, daemon=True).start()
t0 = time.perf_counter()
main(["analyze", sys.argv[1], "--out", sys.argv[2], "--json"])
wall = time.perf_counter() - t0
time.sleep(0.25)
stop.set()
groups = {"main": 0.0, "decoder (FFmpeg threads)": 0.0, "other": 0.0}
for tid, seconds in cpu.items():
    if tid == main_tid:
        groups["main"] += seconds
    elif names[tid].startswith("av:"):
        groups["decoder (FFmpeg threads)"] += seconds
    else:
        groups["other"] += seconds
print("RESULT" + json.dumps({"wall_s": wall, "cpu_s": groups, **marks}))
"""


def measure(clip: Path) -> dict[str, Any]:
    """One run in a fresh interpreter (only its own threads are counted)."""
    env = dict(os.environ, PYTHONPATH=str(ROOT))
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(clip), str(CACHE / "analysis" / "threads")],
        check=True, capture_output=True, text=True, env=env, cwd=ROOT,
    )  # fmt: skip
    raw = json.loads(out.stdout.split("RESULT", 1)[1])
    cpu = {k: round(v, 2) for k, v in raw["cpu_s"].items()}
    wall = float(raw["wall_s"])
    return {
        "wall_s": round(wall, 2), "cpu_s": cpu,
        "cores_busy": round(sum(cpu.values()) / wall, 2),
        "start_s": round(float(raw["first_frame_s"]), 2),
        "main_waited_for_frames_s": round(float(raw["waited_s"]), 2),
    }  # fmt: skip


def markdown(r: dict[str, Any]) -> str:
    """The run as a Markdown table."""
    m = r["machine"]
    rows = "".join(f"| {k} | {v} |\n" for k, v in r["cpu_s"].items())
    return (
        f"# Where the time of `carom analyze` goes ({m['date']})\n\n"
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}.\n"
        f"Clip: `{r['clip']}` (1080p60, 56.55 s).\n\n"
        f"Wall time {r['wall_s']} s; CPU busy {r['cores_busy']} cores on average; "
        f"start (imports, calibration, colour models) until the first frame is analysed "
        f"{r['start_s']} s; the analysis waited {r['main_waited_for_frames_s']} s in all "
        "for the decoder.\n\n| thread | CPU seconds |\n|---|---|\n" + rows
    )


def main() -> None:
    """Measure once and write the results."""
    parser = argparse.ArgumentParser()
    parser.add_argument("--clip", type=Path)
    parser.add_argument("--kind", choices=("typical", "low"), default="typical")
    args = parser.parse_args()
    clip = args.clip or render_clip(args.kind)
    result = {
        "clip": str(clip.relative_to(ROOT)) if clip.is_relative_to(ROOT) else str(clip),
        **measure(clip), "machine": machine(),
    }  # fmt: skip
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "vision_threads.json").write_text(json.dumps(result, indent=2) + "\n")
    (RESULTS / "vision_threads.md").write_text(markdown(result))
    print(markdown(result))


if __name__ == "__main__":
    main()

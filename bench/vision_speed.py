"""Speed of ``carom analyze`` against decoding the same 1080p60 clip alone, side by side.

Three clips of the three-cushion sample sequence at 1920x1080, 60 fps (3393 frames,
56.6 s), rendered once by ``carom synth`` into ``out/bench/speed_<kind>/``:

* ``typical``: the renderer's camera-like bitrate (0.07 bit per pixel, 8.9 Mbit/s);
* ``mid``: capped to 20 MB (``--max-mb 20``, about 2.7 Mbit/s, 0.022 bit per pixel);
* ``low``: capped to 8 MB (``--max-mb 8``, about 1.1 Mbit/s, 0.009 bit per pixel,
  as low as the bundled sample clips): the decoder has less to do, so the analysis
  weighs more against it;
* ``low-long``: the ``low`` clip five times in a row (282.8 s, its packets copied):
  a recording of a few minutes, over which analyze's fixed start weighs a fifth as much.

For each clip, ``--repeat`` times, back to back and each in a fresh process (its own
peak memory): a decode alone (every frame through the project's frame source, as
``carom analyze`` reads it) and ``carom analyze`` (calibration, detection, tracking,
events, referee, shots.json and report.html). With ``--baseline DIR`` (a copy of the
source tree, e.g. ``git archive COMMIT | tar -x -C DIR``) that tree's ``carom analyze``
runs in the same rounds too, so before and after are measured side by side. This
2-core virtual machine's speed drifts by 10-30% over minutes and is shared, so each
ratio is taken within one round (decode and analyze a few seconds apart) and the
median over rounds is the headline; the load averages before and after are kept.
The start of analyze (imports, the first second read, the calibration from the video,
the colour models) is a fixed cost, a large share of a one-minute clip and almost
none of a match's recording: each run also says when its frame loop began, so the
table gives that start and the frame loop's time over the decode alone's too (the
loop's frames are all but the first second's, read before the calibration).
Each round also checks that analyze wrote the same shots (a digest of shots.json's
shots) as the first round, and the baseline the same as the current code.

Targets (issue 18): analyze at least 2x real time, and at most 1.8x the time of the
decode alone. Writes ``bench/results/vision_speed.json`` and ``.md`` with the machine.

    PYTHONPATH=. .venv/bin/python bench/vision_speed.py [--clips typical,mid,low]
        [--repeat 5] [--baseline DIR] [--profile]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs

ROOT = Path(__file__).resolve().parents[1]
CACHE = ROOT / "out" / "bench"
RESULTS = ROOT / "bench" / "results"
PY = sys.executable
#: Clip kinds: ``carom synth`` options beyond the size and rate.
CLIPS: dict[str, list[str]] = {"typical": [], "mid": ["--max-mb", "20"], "low": ["--max-mb", "8"]}
#: Longer clips: a clip of the kind given, played that many times in a row (no re-encoding).
LONG: dict[str, tuple[str, int]] = {"low-long": ("low", 5)}
TARGET_REALTIME = 2.0
TARGET_OVER_DECODE = 1.8

DECODE = """
import resource, sys, time
from vision import open_source
src = open_source(sys.argv[1])
t0 = time.perf_counter(); n = 0
for frame in src:
    n += 1
wall = time.perf_counter() - t0
use = resource.getrusage(resource.RUSAGE_SELF)
print(n, wall, src.fps, use.ru_maxrss, use.ru_utime + use.ru_stime)
"""

ANALYZE = """
import time
t_import = time.perf_counter()
import resource, sys
from carom.cli import main
from carom.progress import Progress
marks = {}
stage = Progress.stage
def timed(self, name, *args, **kwargs):  # when each stage began
    marks.setdefault(name, time.perf_counter())
    return stage(self, name, *args, **kwargs)
Progress.stage = timed
t0 = time.perf_counter()
status = main(["analyze", sys.argv[1], "--out", sys.argv[2], "--json"])
wall = time.perf_counter() - t0
use = resource.getrusage(resource.RUSAGE_SELF)
print("ELAPSED", wall, status, use.ru_maxrss, t0 - t_import, use.ru_utime + use.ru_stime,
      time.thread_time(), marks.get("analysing", t0) - t0)
"""


def render_clip(kind: str = "typical") -> Path:
    """The 1080p60 three-cushion clip of ``kind`` (see the module doc), rendered once."""
    out = CACHE / f"speed_{kind}"
    clip = out / "three-cushion-match.mp4"
    if kind in LONG and not clip.exists():
        short, times = LONG[kind]
        out.mkdir(parents=True, exist_ok=True)
        _repeat(render_clip(short), times, clip)
    elif not clip.exists():
        out.mkdir(parents=True, exist_ok=True)
        cmd = [PY, "-m", "carom", "synth", "three-cushion-match", "--width", "1920",
               "--height", "1080", "--fps", "60", *CLIPS[kind], "--out", str(out)]  # fmt: skip
        subprocess.run(cmd, check=True, cwd=ROOT)
    return clip


def _repeat(clip: Path, times: int, out: Path) -> None:
    """``clip``'s video ``times`` over in one file: its packets copied, their times shifted."""
    import av

    with av.open(str(clip)) as src, av.open(str(out), "w") as dst:
        stream = src.streams.video[0]
        copy = dst.add_stream_from_template(stream)
        shift, end = 0, 0
        for _ in range(times):
            src.seek(0, stream=stream)
            for packet in src.demux(stream):
                if packet.dts is None:
                    continue  # the demuxer's flush packet
                end = max(end, shift + int(packet.pts) + int(packet.duration))
                packet.pts, packet.dts = packet.pts + shift, packet.dts + shift
                packet.stream = copy
                dst.mux(packet)
            shift = end


def _child(code: str, tree: Path, *args: str) -> str:
    """Run ``code`` in a fresh interpreter on source ``tree``; its stdout."""
    env = dict(os.environ, PYTHONPATH=str(tree))
    out = subprocess.run([PY, "-c", code, *args], check=True, capture_output=True, text=True,
                         env=env, cwd=tree)  # fmt: skip
    return out.stdout


def decode(clip: Path) -> dict[str, float]:
    """One decode alone: frames, fps, seconds, CPU seconds, peak MB."""
    n, wall, fps, kb, cpu = _child(DECODE, ROOT, str(clip)).split()
    return {"frames": int(n), "fps": float(fps), "decode_s": round(float(wall), 2),
            "decode_cpu_s": round(float(cpu), 2),
            "decode_peak_mb": round(int(kb) / 1024.0, 1)}  # fmt: skip


def len_frames(clip: Path) -> int:
    """Frames in the clip's stream header."""
    import av

    with av.open(str(clip)) as container:
        return int(container.streams.video[0].frames)


def analyze(clip: Path, tree: Path, out_dir: Path) -> dict[str, Any]:
    """One ``carom analyze`` of ``clip`` by source ``tree``: seconds, CPU, peak, shots."""
    text = _child(ANALYZE, tree, str(clip), str(out_dir))
    head, tail = text.split("ELAPSED")
    wall, _, kb, import_s, cpu, main_cpu, start_s = tail.split()
    shots = json.loads((out_dir / "shots.json").read_text())["shots"]
    digest = hashlib.sha256(json.dumps(shots, sort_keys=True).encode()).hexdigest()[:16]
    return {"s": round(float(wall), 2), "cpu_s": round(float(cpu), 2),
            "main_cpu_s": round(float(main_cpu), 2), "frames": len_frames(clip),
            "peak_mb": round(int(kb) / 1024.0, 1), "import_s": round(float(import_s), 2),
            "start_s": round(float(start_s), 2),
            "shots": len(json.loads(head)["shots"]), "digest": digest}  # fmt: skip


def one_round(clip: Path, baseline: Path | None) -> dict[str, Any]:
    """Decode alone, then analyze (and the baseline's analyze), back to back."""
    row: dict[str, Any] = decode(clip)
    video_s = row["frames"] / row["fps"]
    row["video_s"] = round(video_s, 2)
    now = analyze(clip, ROOT, CACHE / "analysis" / "speed")
    row["analyze"] = now
    row["analyze_x_realtime"] = round(video_s / now["s"], 2)
    row["analyze_over_decode"] = round(now["s"] / row["decode_s"], 3)
    row["loop_over_decode"] = round((now["s"] - now["start_s"]) / row["decode_s"], 3)
    if baseline is not None:
        before = analyze(clip, baseline, CACHE / "analysis" / "speed-baseline")
        row["baseline"] = before
        row["baseline_over_decode"] = round(before["s"] / row["decode_s"], 3)
        row["baseline_x_realtime"] = round(video_s / before["s"], 2)
    return row


def summary(rounds: list[dict[str, Any]]) -> dict[str, Any]:
    """Medians over the rounds of one clip, and whether every round agreed."""

    def med(values: Any) -> float:  # an even count averages two: 3 decimals, not float noise
        return round(float(statistics.median(values)), 3)

    out: dict[str, Any] = {
        "frames": rounds[0]["frames"], "fps": rounds[0]["fps"], "video_s": rounds[0]["video_s"],
        "decode_s": med(r["decode_s"] for r in rounds),
        "decode_x_realtime": round(med(r["video_s"] / r["decode_s"] for r in rounds), 2),
        "analyze_s": med(r["analyze"]["s"] for r in rounds),
        "analyze_x_realtime": med(r["analyze_x_realtime"] for r in rounds),
        "analyze_over_decode": med(r["analyze_over_decode"] for r in rounds),
        "start_s": med(r["analyze"].get("start_s", 0.0) for r in rounds),
        "loop_over_decode": med(r.get("loop_over_decode", 0.0) for r in rounds),
        "decode_cpu_ms_per_frame": round(
            1000 * med(r["decode_cpu_s"] for r in rounds) / rounds[0]["frames"], 2),
        "analyze_cpu_ms_per_frame": round(
            1000 * med(r["analyze"]["cpu_s"] for r in rounds) / rounds[0]["frames"], 2),
        "analyze_main_cpu_ms_per_frame": _main_ms(r["analyze"] for r in rounds),
        "cpu_over_decode_cpu": round(
            med(r["analyze"]["cpu_s"] / r["decode_cpu_s"] for r in rounds), 3),
        "analyze_peak_mb": max(r["analyze"]["peak_mb"] for r in rounds),
        "shots_found": rounds[0]["analyze"]["shots"],
        "same_shots_every_round": len({r["analyze"]["digest"] for r in rounds}) == 1,
    }  # fmt: skip
    if "baseline" in rounds[0]:
        out["baseline_over_decode"] = med(r["baseline_over_decode"] for r in rounds)
        out["baseline_x_realtime"] = med(r["baseline_x_realtime"] for r in rounds)
        out["baseline_cpu_ms_per_frame"] = round(
            1000 * med(r["baseline"]["cpu_s"] for r in rounds) / rounds[0]["frames"], 2
        )
        out["baseline_main_cpu_ms_per_frame"] = _main_ms(r["baseline"] for r in rounds)
        out["baseline_cpu_over_decode_cpu"] = round(
            med(r["baseline"]["cpu_s"] / r["decode_cpu_s"] for r in rounds), 3
        )
        out["same_shots_as_baseline"] = all(
            r["baseline"]["digest"] == r["analyze"]["digest"] for r in rounds
        )
    return out


def _main_ms(runs: Iterable[dict[str, Any]]) -> float | None:
    """Median main-thread CPU ms per frame of analyze runs (None: not recorded)."""
    values = [(r["main_cpu_s"], r["frames"]) for r in runs if "main_cpu_s" in r]
    if not values:
        return None
    return round(1000 * statistics.median(v / n for v, n in values), 2)


def main() -> None:
    """Measure and write the results."""
    parser = argparse.ArgumentParser()
    parser.add_argument(
        "--clips", default="typical,mid,low", help="comma-separated: typical, mid, low, low-long"
    )
    parser.add_argument("--repeat", type=int, default=5, help="rounds per clip")
    parser.add_argument("--baseline", type=Path, help="another source tree to time alongside")
    parser.add_argument("--profile", action="store_true")
    parser.add_argument("--out", type=Path, default=RESULTS)
    parser.add_argument("--md-only", action="store_true", help="rewrite the .md from the .json")
    args = parser.parse_args()
    if args.md_only:
        result = json.loads((args.out / "vision_speed.json").read_text())
        for c in result["clips"].values():
            for x in c["rounds"]:  # results written before main_cpu_s was kept
                for run in (x["analyze"], x.get("baseline", {})):
                    run.setdefault("frames", x["frames"])
            c.update(summary(c["rounds"]))
        (args.out / "vision_speed.md").write_text(markdown(result))
        return
    kinds = [k for k in args.clips.split(",") if k]
    clips = {k: render_clip(k) for k in kinds}
    load_before = [round(v, 2) for v in os.getloadavg()]
    result: dict[str, Any] = {"clips": {}, "load_before_1_5_15": load_before}
    for kind, clip in clips.items():
        rounds = []
        for i in range(args.repeat):
            rounds.append(one_round(clip, args.baseline))
            print(f"{kind} round {i + 1}/{args.repeat}: {json.dumps(rounds[-1])}", file=sys.stderr)
        options = CLIPS[kind] if kind in CLIPS else [f"{LONG[kind][0]} x {LONG[kind][1]}"]
        result["clips"][kind] = {"clip": _rel(clip), "options": options,
                                 "bitrate_mbps": _bitrate(clip), **summary(rounds),
                                 "rounds": rounds}  # fmt: skip
    result["baseline"] = str(args.baseline) if args.baseline else None
    result["machine"] = machine()  # its load averages: after the runs
    args.out.mkdir(parents=True, exist_ok=True)
    (args.out / "vision_speed.json").write_text(json.dumps(result, indent=1) + "\n")
    (args.out / "vision_speed.md").write_text(markdown(result))
    print(markdown(result))
    if args.profile:
        profile(clips[kinds[-1]], CACHE / "analysis" / "speed")


def _rel(clip: Path) -> str:
    return str(clip.relative_to(ROOT)) if clip.is_relative_to(ROOT) else str(clip)


def _bitrate(clip: Path) -> float:
    """The clip's video bitrate, Mbit/s."""
    import av

    with av.open(str(clip)) as container:
        return round(float(container.bit_rate or 0) / 1e6, 2)


def markdown(r: dict[str, Any]) -> str:
    """The results as Markdown: wall-time medians, CPU medians, then every round."""
    m = r["machine"]
    base = r["baseline"] is not None
    lines = [
        f"# carom analyze speed against decoding alone ({m['date']})\n",
        f"Machine: {m['cpu']}, {m['cores']} cores (shared), Python {m['python']}. Load "
        f"averages (1/5/15 min) {r['load_before_1_5_15']} before, {m['load_1_5_15']} after.",
        "Targets: analyze at least 2x real time, at most 1.8x the decode alone's time.",
        "Baseline: " + (f"`{r['baseline']}`, timed in the same rounds." if base else "none."),
        "\nWall time, medians over the rounds (each round: decode alone, then analyze"
        + (", then the baseline's analyze" if base else "")
        + ", each a fresh process):\n",
        "| clip | Mbit/s | decode alone x real time | analyze x real time | analyze / decode "
        "| start s | frame loop / decode "
        + ("| baseline x real time | baseline / decode " if base else "")
        + "| peak MB | shots | same shots every round "
        + ("| same shots as the baseline " if base else "")
        + "|",
        "|---|---|---|---|---|---|---|" + ("---|---|---|" if base else "") + "---|---|---|",
    ]
    for kind, c in r["clips"].items():
        extra = f"| {c['baseline_x_realtime']} | {c['baseline_over_decode']} " if base else ""
        same = "yes" if c["same_shots_every_round"] else "NO"
        as_base = ("| yes " if c["same_shots_as_baseline"] else "| no ") if base else ""
        lines.append(
            f"| {kind} (`{c['clip']}`) | {c['bitrate_mbps']} | {c['decode_x_realtime']} "
            f"| {c['analyze_x_realtime']} | **{c['analyze_over_decode']}** "
            f"| {c.get('start_s', '?')} | {c.get('loop_over_decode', '?')} {extra}"
            f"| {c['analyze_peak_mb']} | {c['shots_found']} | {same} {as_base}|"
        )
    lines += _cpu_table(r), "", "Every round:", ""
    lines.append("| clip | round | decode s | analyze s | analyze / decode "
                 + ("| baseline s | baseline / decode " if base else "") + "|")  # fmt: skip
    lines.append("|---|---|---|---|---|" + ("---|---|" if base else ""))
    for kind, c in r["clips"].items():
        for i, x in enumerate(c["rounds"]):
            extra = f"| {x['baseline']['s']} | {x['baseline_over_decode']} " if base else ""
            lines.append(f"| {kind} | {i + 1} | {x['decode_s']} | {x['analyze']['s']} "
                         f"| {x['analyze_over_decode']} {extra}|")  # fmt: skip
    return "\n".join(lines) + "\n"


def _cpu_table(r: dict[str, Any]) -> str:
    """CPU per frame (medians): what a busy shared machine does not blur."""
    base = r["baseline"] is not None
    rows = [
        "\nCPU time per frame, medians (the process's user + system time: on a shared "
        "machine wall time depends on the others' load, CPU time far less):\n",
        "| clip | decode alone ms | analyze ms (its main thread) | analyze CPU / decode CPU "
        + ("| baseline ms (its main thread) | baseline CPU / decode CPU " if base else "")
        + "|",
        "|---|---|---|---|" + ("---|---|" if base else ""),
    ]
    for kind, c in r["clips"].items():
        extra = (
            f"| {c['baseline_cpu_ms_per_frame']} "
            f"({c.get('baseline_main_cpu_ms_per_frame') or 'not kept'}) "
            f"| {c.get('baseline_cpu_over_decode_cpu', '?')} "
            if base else ""
        )  # fmt: skip
        rows.append(
            f"| {kind} | {c['decode_cpu_ms_per_frame']} | {c['analyze_cpu_ms_per_frame']} "
            f"({c.get('analyze_main_cpu_ms_per_frame') or 'not kept'}) "
            f"| {c.get('cpu_over_decode_cpu', '?')} {extra}|"
        )
    return "\n".join(rows)


def profile(clip: Path, out_dir: Path) -> None:
    """The top 25 functions by own time of one analyze run (printed, not committed)."""
    cmd = [PY, "-m", "cProfile", "-s", "tottime", "-m", "carom", "analyze", str(clip),
           "--out", str(out_dir), "--json"]  # fmt: skip
    out = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT,
                         env=dict(os.environ, PYTHONPATH=str(ROOT)))  # fmt: skip
    lines = out.stdout.splitlines()
    start = next(i for i, line in enumerate(lines) if "ncalls" in line)
    print("\n".join(lines[start : start + 26]))


if __name__ == "__main__":
    start = time.perf_counter()
    main()
    print(f"bench took {time.perf_counter() - start:.0f} s", file=sys.stderr)

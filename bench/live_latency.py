"""Live mode: verdict latency, processing fps and drops over a long 1080p60 session.

Two parts, both written to ``bench/results/live_latency.json`` and ``.md``:

1. ``verdicts``: every sample clip (and the 1080p60 render of the three-cushion
   sample, if cached in ``out/bench/``) is analysed frame by frame, losslessly, with
   each segmenter setting, and the verdicts are compared with the truth's.
2. ``latency``: a long session replayed at real-time pace through the live loop (capture
   thread, analyser, SQLite session, scoreboard link to an emulator on a pty). Rendering
   ten minutes at 1080p60 takes about 100 minutes here (6 frames/s), so the session is
   the cached 1080p60 render of the three-cushion sample (56.5 s, 4 shots) replayed
   ``--loops`` times back to back, its times shifted by one clip length per loop
   (between loops the balls jump back: vision sees a placement, nothing is scored).

3. ``breakdown``: the same clip fed frame by frame with no queue: the cost of the
   closing frame, of judging and committing the shot, and of the link's write.

Latency (a) "processing": from the capture of the frame that closed the shot to the
verdict's snapshot written on the link. Latency (b) "from the true stop": from the
moment the last ball truly stopped (the renderer's truth) to the same bytes.

    PYTHONPATH=. .venv/bin/python bench/live_latency.py [--loops 11] [--skip-verdicts]
"""

from __future__ import annotations

import argparse
import itertools
import json
import os
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import numpy as np
from _machine import machine  # bench/ is on the path when a bench runs

from calibration import (
    Calibration,
    Camera,
    TableGeometry,
    load_calibration,
    save_calibration,
)
from carom.analyze import AnalyzeOptions, AnalyzeRun, judge_shot
from carom.live import LiveSession, LiveSetup, MatchStore
from carom.live.loop._capture import Capture, CaptureSettings, file_frames
from carom.live.loop._metrics import BoardSink, LiveMetrics
from carom.live.loop._runner import LiveRunner
from carom.match import ShotClock
from carom.pipeline import VisionPipeline
from carom.timestamps import now_iso
from hardware import ScoreboardEmulator, ScoreboardLink, snapshot_from_state
from referee import Match, parse_shot_log
from vision import AnalyzerSettings, Frame, SegmentSettings, analyze_frames, open_source

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
SAMPLES = ROOT / "sample_videos"
HD = ROOT / "out" / "bench" / "three-cushion-match.mp4"
SETTINGS = {
    "analyze (window 0.2 s, rest 0.6 s)": SegmentSettings(),
    "live (window 0.1 s, move 2 mm, rest 0.25 s)": SegmentSettings(
        window_s=0.1, move_mm=2.0, rest_s=0.25
    ),
    "live-short (window 0.1 s, move 2 mm, rest 0.15 s)": SegmentSettings(
        window_s=0.1, move_mm=2.0, rest_s=0.15
    ),
}


def truth_calibration(clip: Path, where: Path) -> Path:
    """The clip's true camera as a calibration file."""
    truth = json.loads(clip.with_suffix(".json").read_text(encoding="utf-8"))
    log = parse_shot_log(json.loads(clip.with_suffix(".shots.json").read_text(encoding="utf-8")))
    path = where / f"{clip.stem}.calibration.json"
    calib = Calibration(
        TableGeometry(log.match.table), Camera.from_dict(truth["camera"]), "2026-11-30"
    )
    save_calibration(path, calib)
    return path


def _key(records: Any) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(r.player, r.verdict.points, tuple(sorted(str(f) for f in r.verdict.fouls)))
            for r in records]  # fmt: skip


def verdicts(clip: Path, segment: SegmentSettings, tmp: Path) -> dict[str, Any]:
    """Analyse ``clip`` losslessly with ``segment``; its verdicts against the truth's."""
    log = parse_shot_log(json.loads(clip.with_suffix(".shots.json").read_text(encoding="utf-8")))
    truth = Match(log.match)
    if log.lag is not None:
        truth.lag(log.lag)
    for truth_shot in log.shots:
        truth.play(truth_shot)
    cfg = log.match
    opts = AnalyzeOptions(video=clip, out=tmp, table=cfg.table, discipline=cfg.discipline,
                          players=cfg.players, first_player=cfg.first_player)  # fmt: skip
    run = AnalyzeRun(options=opts, match=Match(cfg))
    source = open_source(str(clip))
    frames = iter(source)
    warmup = list(itertools.islice(frames, 31))
    calib = load_calibration(truth_calibration(clip, tmp), expect_size_px=source.size_px)
    settings = AnalyzerSettings(segment=segment)
    analyzer = VisionPipeline.for_match(cfg, settings=settings).build(
        calib, warmup[-1], warmup[-1], source.fps
    )
    for shot in analyze_frames(itertools.chain(warmup, frames), analyzer):
        judge_shot(run, shot)
    got, want = _key(run.match.records), _key(truth.records)
    return {"clip": clip.name, "shots": len(got), "truth_shots": len(want), "equal": got == want,
            "got": [list(g) for g in got], "truth": [list(w) for w in want]}  # fmt: skip


def looped(clip: Path, loops: int) -> tuple[Any, float]:
    """An opener replaying ``clip`` ``loops`` times with continuous times; its length (s)."""
    source = open_source(str(clip))
    duration = source.n_frames_expected / source.fps  # type: ignore[attr-defined]
    source.close()

    def opener(start_s: float) -> Iterator[Frame]:
        n = 0
        for k in range(loops):
            for f in file_frames(clip):
                t = f.t_s + k * duration
                if t >= start_s:
                    yield Frame(n, t, f.image_bgr)
                n += 1

    return opener, duration


@dataclass(frozen=True)
class _Live:
    """The live loop wired for the bench: capture, session, link to an emulator on a pty."""

    emu: ScoreboardEmulator
    link: ScoreboardLink
    store: MatchStore
    session: LiveSession
    capture: Capture
    metrics: LiveMetrics
    runner: LiveRunner

    @classmethod
    def wire(cls, clip: Path, log: Any, opener: Any, segment: SegmentSettings, tmp: Path) -> _Live:
        """Open everything the live loop uses; ``opener`` gives the capture its frames."""
        emu = ScoreboardEmulator.open_pty(link=tmp / "board")
        link = ScoreboardLink(str(tmp / "board")).start()
        store = MatchStore(tmp / f"bench-{time.monotonic_ns()}.db")
        session = LiveSession.open(store, LiveSetup(log.match, f"bench {clip}"), now_iso=now_iso())
        capture = Capture(str(clip), CaptureSettings(pace=1.0), opener=opener)
        metrics = LiveMetrics(window=100_000)
        runner = LiveRunner(session, capture.start(), calibration_path=truth_calibration(clip, tmp),
                            config=log.match, board=BoardSink(link), clock=ShotClock(),
                            metrics=metrics, segment=segment, status_every_s=60.0)  # fmt: skip
        return cls(emu, link, store, session, capture, metrics, runner)

    def run(self) -> float:
        """Run the loop to the end of the frames, close everything; the wall time, s."""
        started = time.monotonic()
        self.runner.lines.put(None)  # no keyboard
        try:
            self.runner.run()
        finally:
            self.capture.stop()
            self.link.flush(2.0)
            self.link.stop()
            self.emu.stop()
            self.store.close()
        return time.monotonic() - started


def _from_true_stops(timings: list[Any], true_stops: Any) -> tuple[list[float], list[Any]]:
    """Latency from the nearest true stop per verdict (within 1 s), and the stop pairs."""
    true_lat, pairs = [], []
    for t in timings:
        i = int(np.argmin(np.abs(true_stops - t.stop_t_s)))
        pairs.append((round(t.stop_t_s, 3), round(float(true_stops[i]), 3)))
        if abs(true_stops[i] - t.stop_t_s) < 1.0:  # vision's stop is early: slow roll
            true_lat.append(t.from_stop_s + (t.stop_t_s - true_stops[i]))
    return true_lat, pairs


def _pct(a: Any) -> dict[str, float]:
    if not len(a):
        return {}
    p50, p95, mx = np.percentile(a, [50, 95, 100])
    return {"p50_ms": round(float(p50), 1), "p95_ms": round(float(p95), 1),
            "max_ms": round(float(mx), 1)}  # fmt: skip


def latency(clip: Path, loops: int, segment: SegmentSettings, tmp: Path) -> dict[str, Any]:
    """Replay the looped clip at real-time pace through the live loop; the figures."""
    log = parse_shot_log(json.loads(clip.with_suffix(".shots.json").read_text(encoding="utf-8")))
    opener, duration = looped(clip, loops)
    ends = [s.end_s for s in log.shots if s.end_s is not None]
    true_stops = np.array([end + k * duration for k in range(loops) for end in ends])
    live = _Live.wire(clip, log, opener, segment, tmp)
    load_before = os.getloadavg()
    wall = live.run()
    status = live.capture.status()
    timings = list(live.metrics.log)
    true_lat, pairs = _from_true_stops(timings, true_stops)
    s = live.metrics.summary()
    proc = np.array([t.processing_s for t in timings]) * 1000
    true_ms = np.array(true_lat) * 1000
    return {
        "segment": {"window_s": segment.window_s, "move_mm": segment.move_mm,
                    "rest_s": segment.rest_s},
        "video_s": round(duration * loops, 1), "wall_s": round(wall, 1),
        "frames_read": status.frames_read, "frames_processed": s.frames,
        "dropped_frames": status.frames_dropped,
        "processing_fps": round(s.frames / wall, 1),
        "verdicts_timed": len(timings), "truth_shots": len(true_stops),
        "matched_to_truth": len(true_lat),
        "processing": _pct(proc), "from_true_stop": _pct(true_ms),
        "within_150ms_of_true_stop": int((true_ms <= 150).sum()),
        "load_before": [round(v, 2) for v in load_before],
        "load_after": [round(v, 2) for v in os.getloadavg()],
        "sink_errors": list(live.session.sink_errors),
        "stops_seen_vs_true_s": pairs,
        "final_board": list(live.emu.snapshot.scores) if live.emu.snapshot is not None else None,
    }  # fmt: skip


def breakdown(clip: Path, tmp: Path) -> dict[str, Any]:
    """Where a verdict's processing time goes, frames fed directly (no queue, no pacing)."""
    log = parse_shot_log(json.loads(clip.with_suffix(".shots.json").read_text(encoding="utf-8")))
    emu = ScoreboardEmulator.open_pty(link=tmp / "board-b")
    link = ScoreboardLink(str(tmp / "board-b")).start()
    store = MatchStore(tmp / "breakdown.db")
    session = LiveSession.open(store, LiveSetup(log.match, "breakdown"), now_iso=now_iso())
    frames = file_frames(clip)
    warm = list(itertools.islice(frames, 31))
    h, w = warm[-1].image_bgr.shape[:2]
    calib = load_calibration(truth_calibration(clip, tmp), expect_size_px=(w, h))
    analyzer = VisionPipeline.for_match(log.match).build(calib, warm[-1], warm[-1], 60.0)
    feeds, rows = [], []
    try:
        for frame in itertools.chain(warm, frames):
            t0 = time.perf_counter()
            shots = analyzer.feed(frame)
            t1 = time.perf_counter()
            if not shots:
                feeds.append(t1 - t0)
            for shot in shots:
                before = link.status().snapshots_sent
                update = session.submit(shot, video_t_s=shot.shot.end_s or 0.0, now_iso=now_iso())
                t2 = time.perf_counter()
                link.publish(snapshot_from_state(update.state))
                while link.status().snapshots_sent <= before:
                    time.sleep(0.0005)
                t3 = time.perf_counter()
                rows.append([round((t1 - t0) * 1e3, 1), round((t2 - t1) * 1e3, 1),
                             round((t3 - t2) * 1e3, 1), round((t3 - t0) * 1e3, 1)])  # fmt: skip
    finally:
        link.stop()
        emu.stop()
        store.close()
    p50, p95 = np.percentile(np.array(feeds) * 1e3, [50, 95])
    return {"frame_feed_p50_ms": round(float(p50), 1), "frame_feed_p95_ms": round(float(p95), 1),
            "shots_ms_close_submit_link_total": rows,
            "load_after": [round(v, 2) for v in os.getloadavg()]}  # fmt: skip


def _row(label: str, figures: dict[str, float]) -> str:
    cells = " | ".join(str(figures.get(k, "-")) for k in ("p50_ms", "p95_ms", "max_ms"))
    return f"| {label} | {cells} |"


def _latency_md(name: str, r: dict[str, Any], doc: dict[str, Any]) -> list[str]:
    head = (
        f"{r['video_s']} s of 1920x1080 @ 60 fps video ({doc['clip']} x {doc['loops']}) in "
        f"{r['wall_s']} s; {r['frames_processed']} frames processed ({r['processing_fps']} fps), "
        f"{r['dropped_frames']} dropped of {r['frames_read']}; {r['verdicts_timed']} verdicts "
        f"timed, {r['matched_to_truth']} matched to the {r['truth_shots']} true stops; "
        f"final board {r['final_board']}."
    )
    return [
        f"## Live replay at real-time pace: {name}", "", head, "",
        "| latency to the bytes on the link | p50 ms | p95 ms | max ms |", "|---|---|---|---|",
        _row("(a) processing: closing frame captured -> bytes", r["processing"]),
        _row("(b) last ball's true stop -> bytes", r["from_true_stop"]), "",
        f"Verdicts within 150 ms of the true stop: {r['within_150ms_of_true_stop']} of "
        f"{r['matched_to_truth']}. Load (1/5/15 min) before {r['load_before']}, "
        f"after {r['load_after']}.", "",
    ]  # fmt: skip


def markdown(doc: dict[str, Any]) -> str:
    """The results as a page."""
    m = doc["machine"]
    out = [
        f"# carom live: latency and speed ({m['date']})", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; load "
        f"(1/5/15 min) at the start {m['load_1_5_15']}.", "",
    ]  # fmt: skip
    if doc.get("verdicts"):
        out += ["## Verdicts against the truth, by segmenter setting (lossless, pace 0)", "",
                "| setting | clip | shots / truth | verdicts equal |",
                "|---|---|---|---|"]  # fmt: skip
        for name, rows in doc["verdicts"].items():
            out += [f"| {name} | {r['clip']} | {r['shots']} / {r['truth_shots']} | "
                    f"{'yes' if r['equal'] else 'NO'} |" for r in rows]  # fmt: skip
        out.append("")
    for name, r in doc.get("latency", {}).items():
        out += _latency_md(name, r, doc)
    if (b := doc.get("breakdown")) is not None:
        out += ["## Where the processing time goes (frames fed directly: no queue, no pacing)",
                "", f"An ordinary frame: p50 {b['frame_feed_p50_ms']} ms, p95 "
                f"{b['frame_feed_p95_ms']} ms (detect, track, segment). Per shot:", "",
                "| closing frame (detect + close the shot) ms | judge + SQLite commit ms | "
                "snapshot bytes on the link ms | total ms |", "|---|---|---|---|"]  # fmt: skip
        out += [
            "| " + " | ".join(map(str, r)) + " |" for r in b["shots_ms_close_submit_link_total"]
        ]
        out += ["", f"Load after: {b['load_after']}.", ""]
    return "\n".join(out) + "\n"


def main() -> int:
    """Run the parts asked for and write the results."""
    p = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    p.add_argument("--clip", type=Path, default=HD)
    p.add_argument("--loops", type=int, default=11)
    p.add_argument("--skip-verdicts", action="store_true")
    p.add_argument("--skip-latency", action="store_true")
    p.add_argument("--latency-settings", default="0,1", help="indexes into SETTINGS")
    p.add_argument("--out", type=Path, default=RESULTS / "live_latency")
    p.add_argument("--verdicts-from", type=Path, help="take part 1 from this earlier JSON")
    p.add_argument("--latency-from", type=Path, help="take part 2 from this earlier JSON")
    args = p.parse_args()
    doc: dict[str, Any] = {"machine": machine(), "clip": str(args.clip.relative_to(ROOT)),
                           "loops": args.loops, "verdicts": {}, "latency": {}}  # fmt: skip
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        if args.verdicts_from is not None:
            doc["verdicts"] = json.loads(args.verdicts_from.read_text(encoding="utf-8"))["verdicts"]
        elif not args.skip_verdicts:
            clips = sorted(SAMPLES.glob("*.mp4")) + ([HD] if HD.exists() else [])
            for name, seg in SETTINGS.items():
                doc["verdicts"][name] = [verdicts(c, seg, tmp) for c in clips]
                print(name, [(r["clip"], r["equal"]) for r in doc["verdicts"][name]], flush=True)
        if args.latency_from is not None:
            earlier = json.loads(args.latency_from.read_text(encoding="utf-8"))
            doc["latency"], doc["machine"] = earlier["latency"], earlier["machine"]
        elif not args.skip_latency:
            names = list(SETTINGS)
            for i in args.latency_settings.split(","):
                name = names[int(i)]
                doc["latency"][name] = latency(args.clip, args.loops, SETTINGS[name], tmp)
                print(name, json.dumps(doc["latency"][name]), flush=True)
        doc["breakdown"] = breakdown(args.clip, tmp)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.with_suffix(".json").write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    args.out.with_suffix(".md").write_text(markdown(doc), encoding="utf-8")
    print(markdown(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())

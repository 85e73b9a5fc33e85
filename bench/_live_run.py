"""One live replay for live_latency, timed from each shot's true stop to the board's bytes.

Run as ``python bench/_live_run.py SPEC.json OUT.json`` in a fresh process. SPEC:
``clip``, ``loops``, ``pace`` (1: real time, 0: lossless), ``segment`` and ``stop``
(the segmenter's and the stop watch's settings), ``load`` (serve the web pages and
show the scoreboard in Chromium). The code under test is whatever ``PYTHONPATH``
picks first (``bench/live_latency.py --before REV`` exports an older commit); the
harness uses only names older code has too. The parts of a verdict's time come from
the runner's :class:`~carom.live.loop.LiveMetrics` log where it keeps them, else from
the probe here (the runner's ``observe_frames`` hook and a timed analyser ``build``).

What runs is ``carom live`` (``--serve`` under load) wired by hand: the capture thread
replays the 1080p60 clip at real-time pace (``loops`` times back to back, its times
shifted by one clip length a loop), the loop judges into an SQLite session, and the
scoreboard link writes on a pty to a board in its own process
(``bench/_board_clock.py``) that notes when each frame lands. Under load the web server
serves the same session and headless Chromium shows its ``/scoreboard``
(``bench/_browser_load.py``).

Per shot, all in the one monotonic clock of the machine:

* the true stop ``T`` (video s, ``bench/_true_stops.py``) happens, at real-time pace, at
  monotonic ``T + offset``, ``offset`` being a captured frame's due time minus its
  video time (the capture stamps each frame with when it was due);
* ``stop detection``: the video time from ``T`` to the frame that closed the shot;
* ``frame pipeline``: from that frame's due time to ``Analyzer.feed`` returning the
  shot: waiting in the capture's queue (``queue``) plus the analysis of the closing
  frame and the closing of the shot (``feed``);
* ``referee + board``: from there to the verdict's first bytes landing on the board
  (the referee, the SQLite commit, the link's write, the pty).
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from _true_stops import load_truth, remaining_mm, true_stops

from calibration import Calibration, Camera, TableGeometry, save_calibration
from carom.live import LiveSession, LiveSetup, MatchStore
from carom.live.loop import BoardSink, Capture, CaptureSettings, LiveMetrics, LiveRunner
from carom.match import ShotClock
from carom.timestamps import now_iso
from hardware import ScoreboardLink
from referee import Discipline, parse_shot_log
from vision import Frame, SegmentSettings, VideoFileSource

BENCH = Path(__file__).resolve().parent
MATCHED_S = (-1.5, 3.0)  # a verdict closed within this of a true stop is that shot's


@dataclass
class _Probe:
    """What the harness sees of the loop: frames taken, closing frames fed."""

    taken: dict[int, float] = field(default_factory=dict)  # frame index -> monotonic
    due: dict[int, float] = field(default_factory=dict)
    t_s: dict[int, float] = field(default_factory=dict)
    fed: list[tuple[int, float]] = field(default_factory=list)  # (closing frame, monotonic)

    def on_frame(self, item: Any) -> None:
        i = item.frame.frame_idx
        self.taken[i], self.due[i], self.t_s[i] = (
            time.monotonic(),
            item.captured_mono_s,
            item.frame.t_s,
        )

    def timed_build(self, build: Any) -> Any:
        """``build`` whose analyser notes when a feed returned a shot."""

        def wrapped(*args: Any, **kwargs: Any) -> Any:
            analyzer = build(*args, **kwargs)
            feed = analyzer.feed

            def timed(frame: Frame) -> Any:
                shots = feed(frame)
                if shots:
                    self.fed.append((frame.frame_idx, time.monotonic()))
                return shots

            analyzer.feed = timed
            return analyzer

        return wrapped


class _Vision:
    """The runner's vision pipeline with a timed ``build`` (everything else as is)."""

    def __init__(self, inner: Any, probe: _Probe) -> None:
        self._inner, self.build = inner, probe.timed_build(inner.build)

    def __getattr__(self, name: str) -> Any:
        return getattr(self._inner, name)


def looped(clip: Path, loops: int, duration_s: float) -> Any:
    """An opener replaying ``clip`` ``loops`` times with continuous times and indexes."""

    def opener(start_s: float) -> Iterator[Frame]:
        n = 0
        for k in range(loops):
            for f in VideoFileSource(clip, exact=True, ahead=0, check_length=False):
                t = f.t_s + k * duration_s
                if t >= start_s:
                    yield Frame(n, t, f.image_bgr)
                n += 1

    return opener


def _calibration(truth: dict[str, Any], match: Any, where: Path) -> Path:
    """The truth's camera over the match's table, with pockets for the 7-pin game.

    As ``carom calibrate --discipline pin-carom-7`` gives them; without, a pocketed
    white was read as off the table (5 points for 10 in the 7-pin sample).
    """
    path = where / "truth.calibration.json"
    pockets = match.discipline is Discipline.PIN_CAROM_7
    geometry = TableGeometry(match.table, pockets=pockets)
    save_calibration(path, Calibration(geometry, Camera.from_dict(truth["camera"]), "2026-11-30"))
    return path


def _child(args: list[str], env: dict[str, str] | None = None) -> subprocess.Popen[str]:
    proc = subprocess.Popen([sys.executable, *args], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True, env=env)  # fmt: skip
    assert proc.stdout is not None
    line = proc.stdout.readline()
    if line.strip() != "ready":
        proc.kill()
        raise RuntimeError(f"{args[0]} did not start: {line!r}")
    return proc


def _end_child(proc: subprocess.Popen[str]) -> str:
    """Close its stdin (the sign to finish) and wait; what it printed."""
    out, _ = proc.communicate(timeout=60)
    return out


@dataclass
class _Web:
    """``--serve``: the web server over the session and a browser on its scoreboard."""

    web: Any
    browser: subprocess.Popen[str]

    @classmethod
    def start(cls, runner: Any, session: Any, config: Any, clip: Path, tmp: Path) -> _Web:
        from carom.web import MatchSetup, WebSettings, start_for_live

        settings = WebSettings(db=tmp / "web.db", token="bench-token-0123456789abcdef",
                               allowed_hosts=("127.0.0.1", "localhost"))  # fmt: skip
        web = start_for_live(settings, ("127.0.0.1", 0), str(clip), session, MatchSetup(config))
        web.attach(runner)
        shot = BENCH / "results" / "live_latency_scoreboard.png"
        browser = _child([str(BENCH / "_browser_load.py"), web.server.url + "/scoreboard",
                          str(shot)])  # fmt: skip
        return cls(web, browser)

    def stop(self) -> dict[str, Any]:
        out = _end_child(self.browser).strip().splitlines()
        self.web.detach()
        shown: dict[str, Any] = json.loads(out[-1]) if out else {}
        return shown


def _board_rows(path: Path) -> list[dict[str, Any]]:
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines() if line]


@dataclass
class _Wired:
    """Everything one replay opened, to run and then close."""

    board: subprocess.Popen[str]
    link: ScoreboardLink
    store: MatchStore
    session: LiveSession
    capture: Capture
    metrics: LiveMetrics
    runner: LiveRunner
    web: _Web | None = None
    reviews: list[str] = field(default_factory=list)
    shown: dict[str, Any] | None = None

    def accept_reviews(self) -> None:
        """Answer every review with ``accept``, as a person at the keyboard, and note why.

        The shot's verdict is then vision's own call (the doubted event counted), and
        the shots queued behind the review are judged: every verdict can be compared
        with the truth, and the reviews are reported.
        """
        answered: list[Any] = []

        def on_update(update: Any) -> None:
            pending = update.pending
            if pending is not None and not any(pending is p for p in answered):
                answered.append(pending)
                self.reviews.append(pending.reason)
                self.runner.lines.put("accept")

        self.session.subscribe(on_update)

    def run(self) -> float:
        """Run the loop to the end of the frames, close everything; the wall time (s)."""
        started = time.monotonic()
        try:
            self.runner.run()
        finally:
            wall = time.monotonic() - started
            self.capture.stop()
            self.link.flush(2.0)
            self.link.stop()
            self.shown = self.web.stop() if self.web is not None else None
            _end_child(self.board)
            self.store.close()
        return wall


def _wire(spec: dict[str, Any], clip: Path, log: Any, truth: Any, probe: _Probe,
          tmp: Path) -> _Wired:  # fmt: skip
    """The live loop of ``carom live`` (``--serve`` under load) on the spec's replay."""
    board = _child([str(BENCH / "_board_clock.py"), str(tmp / "board"), str(tmp / "board.jsonl")])
    link = ScoreboardLink(str(tmp / "board")).start()
    store = MatchStore(tmp / "live.db")
    session = LiveSession.open(store, LiveSetup(log.match, f"bench {clip}"), now_iso=now_iso())
    duration = _duration(clip)
    capture = Capture(str(clip), CaptureSettings(pace=spec.get("pace", 1.0)),
                      opener=looped(clip, spec["loops"], duration))  # fmt: skip
    metrics = LiveMetrics(window=100_000)
    segment = SegmentSettings(**spec["segment"]) if spec.get("segment") else None
    extra: dict[str, Any] = {}
    if spec.get("stop"):  # code from before the stop watch has no such setting
        from vision import StopSettings

        extra["stop"] = StopSettings(**spec["stop"])
    calibration = _calibration(truth, log.match, tmp)
    runner = LiveRunner(session, capture, calibration_path=calibration, config=log.match,
                        board=BoardSink(link), clock=ShotClock(), metrics=metrics,
                        segment=segment, status_every_s=60.0, **extra)  # fmt: skip
    runner.vision = _Vision(runner.vision, probe)
    runner.observe_frames(probe.on_frame)
    web = _Web.start(runner, session, log.match, clip, tmp) if spec["load"] else None
    wired = _Wired(board, link, store, session, capture, metrics, runner, web)
    wired.accept_reviews()
    capture.start()  # once the server and the browser are up: no frame waits for them
    return wired


def _duration(clip: Path) -> float:
    source = VideoFileSource(clip, exact=True, ahead=0)
    duration = source.n_frames_expected / source.fps
    source.close()
    return duration


def replay(spec: dict[str, Any], tmp: Path) -> dict[str, Any]:
    """Run the spec's replay; the raw timings and the verdicts."""
    clip = Path(spec["clip"])
    log = parse_shot_log(json.loads(clip.with_suffix(".shots.json").read_text(encoding="utf-8")))
    truth = load_truth(clip)
    probe = _Probe()
    wired = _wire(spec, clip, log, truth, probe, tmp)
    load_before = os.getloadavg()
    wall = wired.run()
    status, session = wired.capture.status(), wired.session
    stops = true_stops(truth, [s.start_s for s in log.shots])
    pending = session.pending
    return {
        "video_s": round(_duration(clip) * spec["loops"], 2), "wall_s": round(wall, 2),
        "frames_read": status.frames_read, "frames_dropped": status.frames_dropped,
        "frames_processed": wired.metrics.summary().frames,
        "load_before": [round(v, 2) for v in load_before],
        "load_after": [round(v, 2) for v in os.getloadavg()],
        "sink_errors": list(session.sink_errors), "page_shows": wired.shown,
        "verdicts": [[r.player, r.verdict.points, sorted(str(f) for f in r.verdict.fouls)]
                     for r in session.records],
        "truth_verdicts": [[v["player"], v["points"], sorted(v["fouls"])]
                           for v in truth["verdicts"]],
        "pending": None if pending is None else pending.reason, "reviews": wired.reviews,
        "shots": _per_shot(probe, list(wired.metrics.log), _board_rows(tmp / "board.jsonl"),
                           stops, truth, _duration(clip), spec["loops"]),
    }  # fmt: skip


def _arrival(rows: list[dict[str, Any]], after: float) -> tuple[float, str] | None:
    """The first verdict event on the board after ``after`` (monotonic s)."""
    for row in rows:
        if row["t"] > after and row["what"] == "event":
            return float(row["t"]), str(row["kind"])
    return None


def _verdicts(probe: _Probe, log: list[Any]) -> list[dict[str, float]]:
    """Each timed verdict: its frame (video s), when that frame was due, taken, analysed.

    The code under test may not time the parts (a baseline before they were kept):
    then the verdict's frame is the one that closed the shot, found from the two
    latencies, and the probe's notes give the rest.
    """
    by_t = {round(t, 4): i for i, t in probe.t_s.items()}
    fed = dict(probe.fed)
    out = []
    for v in log:
        if getattr(v, "close_t_s", 0.0) > 0.0:
            out.append({"t": v.close_t_s, "due": v.captured_mono_s, "taken": v.taken_mono_s,
                        "fed": v.fed_mono_s, "closed_t": v.close_t_s - v.held_s})  # fmt: skip
            continue
        t = v.stop_t_s + (v.from_stop_s - v.processing_s)
        i = by_t.get(round(t, 4))
        if i is None:
            i = min(probe.t_s, key=lambda k: abs(probe.t_s[k] - t))
        out.append({"t": probe.t_s[i], "due": probe.due[i], "taken": probe.taken[i],
                    "fed": fed.get(i, probe.taken[i]), "closed_t": probe.t_s[i]})  # fmt: skip
    return out


def _per_shot(
    probe: _Probe,
    log: list[Any],
    rows: list[dict[str, Any]],
    stops: list[Any],
    truth: dict[str, Any],
    duration: float,
    loops: int,
) -> list[dict[str, Any]]:
    """One row per true stop: when it was closed, judged, and its bytes landed."""
    offset = float(np.median([probe.due[i] - probe.t_s[i] for i in list(probe.due)[:600]]))
    verdicts = _verdicts(probe, log)
    out = []
    for k in range(loops):
        for n, stop in enumerate(stops):
            t_true = stop.t_s + k * duration
            row: dict[str, Any] = {"loop": k, "shot": n, "true_stop_s": round(t_true, 4),
                                   "true_mono": t_true + offset}  # fmt: skip
            near = [v for v in verdicts if MATCHED_S[0] <= v["closed_t"] - t_true <= MATCHED_S[1]]
            if near:
                v = near[0]
                row |= {"verdict_t_s": round(v["t"], 4), "closed_t_s": round(v["closed_t"], 4),
                        "due": v["due"], "taken": v["taken"], "fed": v["fed"],
                        "left_mm_at_verdict": round(remaining_mm(truth, v["t"] - k * duration,
                                                                 stop.t_s + 0.5), 2)}  # fmt: skip
                arrival = _arrival(rows, v["taken"])
                if arrival is not None:
                    row["board"], row["board_kind"] = arrival
            out.append(row)
    return out


def main() -> int:
    """Run the replay described by argv[1]; write the raw timings to argv[2]."""
    spec = json.loads(Path(sys.argv[1]).read_text(encoding="utf-8"))
    with tempfile.TemporaryDirectory() as tmp:
        result = replay(spec, Path(tmp))
    Path(sys.argv[2]).write_text(json.dumps(result, indent=1) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())

"""Scoreboard link: verdict to first byte on the wire, and throughput, on a real pty.

The host side is :class:`hardware.ScoreboardLink` on the pty slave; the device side
is a small reader thread on the master that timestamps every chunk it reads and
acks every frame the way a board does (so the link sees a live device).

1. latency: for each shot of the example match (replayed over and over) the shot is
   judged (``Match.play``: the verdict), the snapshot built and published; the time
   from the verdict to the read that holds the first byte (STX) of that snapshot's
   frame on the master. A pty has no baud rate: the time a real line needs to carry
   the frame (10 bits per byte) is added in the table for 19200 and 9600 baud.
2. throughput: distinct snapshots published in a tight loop for 2 s (the link keeps
   the newest only, so it sends as fast as the port takes them), and events, each
   acked before the next goes (one in flight).

Writes ``bench/results/scoreboard_link.json`` and ``.md`` with the machine.

    PYTHONPATH=. .venv/bin/python bench/scoreboard_link.py [--trials 300]
"""

from __future__ import annotations

import argparse
import json
import os
import select
import statistics
import sys
import threading
import time
import tty
from pathlib import Path

from _machine import machine  # bench/ is on the path when a bench runs

from carom.match import load_json
from hardware import (
    EventKind,
    EventMessage,
    Frame,
    FrameDecoder,
    FrameKind,
    LinkTiming,
    ScoreboardLink,
    encode_frame,
    snapshot_from_state,
)
from referee import Match, parse_shot_log

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
LOG = ROOT / "examples" / "three_cushion_match.json"


class Device:
    """The master end: records (time, offset) of every chunk; acks every frame."""

    def __init__(self) -> None:
        self.master, self.slave = os.openpty()
        tty.setraw(self.slave)
        self.path = os.ttyname(self.slave)
        self.buf = bytearray()
        self.chunks: list[tuple[int, float]] = []  # (offset of the chunk's first byte, t)
        self.lock = threading.Lock()
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self._run, daemon=True)
        self.thread.start()

    def _run(self) -> None:
        decoder = FrameDecoder()
        while not self.stop.is_set():
            if not select.select([self.master], [], [], 0.05)[0]:
                continue
            data = os.read(self.master, 65536)
            t = time.perf_counter()
            with self.lock:
                self.chunks.append((len(self.buf), t))
                self.buf += data
            for frame in decoder.feed(data):
                kind, payload = FrameKind.ACK, f"{frame.seq:02X}"
                if frame.kind is FrameKind.IDENTIFY:
                    kind, payload = FrameKind.IDENTIFY, "BENCH|1|3"
                os.write(self.master, encode_frame(Frame(frame.addr, frame.seq, kind, payload)))

    def arrival(self, marker: bytes, start: int) -> float | None:
        """The time of the chunk holding the STX of the frame whose body has ``marker``."""
        with self.lock:
            at = self.buf.find(marker, start)
            if at < 0:
                return None
            stx = self.buf.rfind(b"\x02", 0, at)
            return next(t for off, t in reversed(self.chunks) if off <= stx)

    def close(self) -> None:
        """Stop the reader and close both ends."""
        self.stop.set()
        self.thread.join()
        os.close(self.master)
        os.close(self.slave)


def latency(device: Device, link: ScoreboardLink, trials: int) -> dict[str, float]:
    """Verdict to the first byte of that snapshot's frame, in ms, over ``trials`` shots."""
    log = parse_shot_log(load_json(LOG))
    samples: list[float] = []
    match, i = Match(log.match), 0
    while len(samples) < trials:
        if i == len(log.shots):
            match, i = Match(log.match), 0
        if i == 0 and log.lag is not None:
            match.lag(log.lag)
        shot, i = log.shots[i], i + 1
        with device.lock:
            start = len(device.buf)
        match.play(shot)
        t0 = time.perf_counter()  # the verdict is out
        snap = snapshot_from_state(match.state, shot_clock_s=len(samples) % 1000)
        link.publish(snap)
        marker = b"S" + snap.to_payload().encode("ascii")
        end = time.monotonic() + 2.0
        while (t1 := device.arrival(marker, start)) is None and time.monotonic() < end:
            time.sleep(0.0005)
        if t1 is not None:
            samples.append(t1 - t0)
        time.sleep(0.02)  # the link thread idles between shots, as in a match
    ms = sorted(s * 1000 for s in samples)
    return {
        "trials": len(ms),
        "median_ms": round(statistics.median(ms), 3),
        "p95_ms": round(ms[int(0.95 * (len(ms) - 1))], 3),
        "max_ms": round(ms[-1], 3),
        "frame_bytes": len(marker) + 10,
    }


def throughput(device: Device, link: ScoreboardLink) -> dict[str, float]:
    """Snapshots and events per second through the link (the pty has no baud limit)."""
    log = parse_shot_log(load_json(LOG))
    state = Match(log.match).state
    before, bytes0 = link.status().snapshots_sent, link.status().bytes_sent
    t0 = time.perf_counter()
    published = 0
    while time.perf_counter() - t0 < 2.0:
        link.publish(snapshot_from_state(state, shot_clock_s=published % 1000))
        published += 1
    link.flush(2.0)
    elapsed = time.perf_counter() - t0
    st = link.status()
    events = 300
    acked0, t1 = st.events_acked, time.perf_counter()
    for i in range(events):
        link.send_event(EventMessage(EventKind.POINT, i % 2, f"point {i}"))
    link.flush(30.0)
    ev_s = time.perf_counter() - t1
    return {
        "published_per_s": round(published / elapsed),
        "snapshots_sent_per_s": round((st.snapshots_sent - before) / elapsed),
        "bytes_per_s": round((st.bytes_sent - bytes0) / elapsed),
        "events_acked_per_s": round((link.status().events_acked - acked0) / ev_s),
        "events_dropped": link.status().events_dropped,
    }


def write(doc: dict[str, object]) -> None:
    """Write the JSON and the Markdown table."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "scoreboard_link.json").write_text(json.dumps(doc, indent=2) + "\n")
    lat, thr, m = doc["latency"], doc["throughput"], doc["machine"]
    assert isinstance(lat, dict)
    assert isinstance(thr, dict)
    assert isinstance(m, dict)
    wire = {baud: lat["frame_bytes"] * 10 / baud * 1000 for baud in (19200, 9600)}
    md = [
        f"# Scoreboard link speed ({doc['date']})",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}. Link on a pty "
        "(no baud limit), device acking every frame.",
        "",
        "| verdict to first byte | ms |",
        "|---|---|",
        f"| median ({lat['trials']} shots) | {lat['median_ms']} |",
        f"| 95th percentile | {lat['p95_ms']} |",
        f"| max | {lat['max_ms']} |",
        "",
        f"A snapshot frame is {lat['frame_bytes']} bytes: on a real line it takes a further "
        f"{wire[19200]:.1f} ms at 19200 baud, {wire[9600]:.1f} ms at 9600 (last byte).",
        "",
        "| throughput on the pty | per second |",
        "|---|---|",
        f"| snapshots published (tight loop) | {thr['published_per_s']} |",
        f"| snapshots sent (newest only; the spinning publisher holds the GIL) "
        f"| {thr['snapshots_sent_per_s']} |",
        f"| bytes written | {thr['bytes_per_s']} |",
        f"| events acked (one in flight) | {thr['events_acked_per_s']} |",
        "",
        f"At 19200 baud the line carries {19200 // 10} bytes/s, about "
        f"{19200 // 10 // lat['frame_bytes']} snapshots/s: the line, not the link, is the limit.",
    ]
    (RESULTS / "scoreboard_link.md").write_text("\n".join(md) + "\n")


def main() -> int:
    """Run both measurements and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=300)
    args = parser.parse_args()
    device = Device()
    link = ScoreboardLink(device.path, timing=LinkTiming(queue_max=1000)).start()
    try:
        if not link.flush(3.0):
            print("the link did not come up", file=sys.stderr)
            return 1
        doc: dict[str, object] = {
            "latency": latency(device, link, args.trials),
            "throughput": throughput(device, link),
            "machine": machine(),
            "date": time.strftime("%Y-%m-%d", time.gmtime()),
        }
    finally:
        link.stop()
        device.close()
    write(doc)
    print((RESULTS / "scoreboard_link.md").read_text())
    return 0


if __name__ == "__main__":
    sys.exit(main())

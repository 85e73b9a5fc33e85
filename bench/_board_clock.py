"""A scoreboard in its own process that notes when each frame arrives (for live_latency).

Run as ``python bench/_board_clock.py LINK OUT``: an emulated board
(:class:`hardware.ScoreboardEmulator`) on a new pty whose slave ``LINK`` (a symlink) the
host opens as its serial port; every change of what it shows (a snapshot, an event)
is written to ``OUT`` as one JSON line with the ``time.monotonic()`` of its arrival,
the clock every process of the machine shares. It ends when its stdin closes.

In its own process, as a real board is its own device: the bytes are timed where
they land, not by the sender, and the live loop's process does not share its time
with the board's reading.
"""

from __future__ import annotations

import json
import sys
import threading
import time
from pathlib import Path

from hardware import ScoreboardEmulator


def _watch(emu: ScoreboardEmulator, out_path: Path, done: threading.Event) -> None:
    shown: tuple[object, object] = (None, ())
    with out_path.open("w", encoding="utf-8") as out, emu.changed:
        while not done.is_set():
            emu.changed.wait(0.2)
            now = time.monotonic()
            snapshot, events = emu.snapshot, emu.events
            if snapshot is not shown[0] and snapshot is not None:
                row = {"t": now, "what": "snapshot", "scores": list(snapshot.scores),
                       "innings": snapshot.innings, "review": snapshot.review}  # fmt: skip
                out.write(json.dumps(row) + "\n")
            if events is not shown[1] and events:
                e = events[-1]
                row = {"t": now, "what": "event", "kind": str(e.kind), "text": e.text}
                out.write(json.dumps(row) + "\n")
            shown = (snapshot, events)
        out.flush()


def main() -> int:
    """Serve the board until stdin closes."""
    link, out_path = Path(sys.argv[1]), Path(sys.argv[2])
    emu = ScoreboardEmulator.open_pty(link=link)
    done = threading.Event()
    watcher = threading.Thread(target=_watch, args=(emu, out_path, done), daemon=True)
    watcher.start()
    print("ready", flush=True)
    sys.stdin.read()
    done.set()
    watcher.join(2.0)
    emu.stop()
    return 0


if __name__ == "__main__":
    sys.exit(main())

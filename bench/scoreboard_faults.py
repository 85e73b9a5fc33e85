"""Scoreboard under byte faults: does the board end right, or is the user told?

Each trial is ``carom score --scoreboard``'s replay (:func:`carom.board.replay_to_scoreboard`)
of the example match onto the emulator on its own real pty, with the emulator dropping
or corrupting the bytes it receives at a given rate (``hardware.Faults``, seeded by
the trial), then the final state retried until the board acknowledges it, for at most
``--confirm`` seconds (10, the commands' default). Each trial ends one of three ways:

* ``confirmed``: the board acknowledged the final state (and shows it: checked); the
  time is the whole replay (about 0.1 s without faults) up to the confirmation;
* ``told``: it never did; the command would print the line and exit 6 (``right``
  counts those whose board shows the result all the same, unacknowledged);
* ``wrong``: acknowledged but showing something else: must never happen.

Trials run ``--parallel`` at a time (each a link and an emulator thread: mostly asleep).
Writes ``bench/results/scoreboard_faults.json`` and ``.md`` with the machine.

    PYTHONPATH=. .venv/bin/python bench/scoreboard_faults.py [--trials 20] [--confirm 10]
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import threading
import time
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs

from carom.board import replay_to_scoreboard
from carom.match import score_file
from hardware import (
    Faults,
    Frame,
    FrameKind,
    ScoreboardEmulator,
    ScoreboardLink,
    encode_frame,
    snapshot_from_state,
)

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
LOG = ROOT / "examples" / "three_cushion_match.json"
RATES = (("drop", 0.01), ("drop", 0.02), ("drop", 0.03), ("drop", 0.05), ("drop", 0.07),
         ("drop", 0.10), ("corrupt", 0.02), ("corrupt", 0.05), ("corrupt", 0.10))  # fmt: skip


def trial(kind: str, rate: float, seed: int, confirm_s: float) -> dict[str, Any]:
    """One replay onto a faulty board: outcome, seconds to the end, frames sent."""
    emu = ScoreboardEmulator.open_pty(faults=Faults(**{kind: rate}, seed=seed))
    link = ScoreboardLink(emu.url).start()
    try:
        link.flush(2.0)
        start = time.monotonic()
        replay = replay_to_scoreboard(LOG, emu.url, delay_s=0.0, link=link, confirm_s=confirm_s)
        took = time.monotonic() - start
        want = link.status().current
        right = emu.snapshot == want
        outcome = "told" if not replay.final.confirmed else "confirmed" if right else "wrong"
        status = link.status()
        return {"outcome": outcome, "right": right, "s": round(took, 3),
                "snapshots_sent": status.snapshots_sent, "naks": status.naks}  # fmt: skip
    finally:
        link.stop()
        emu.stop()


def rate_row(
    kind: str, rate: float, trials: int, parallel: int, confirm_s: float
) -> dict[str, Any]:
    """``trials`` trials at one fault rate, ``parallel`` at a time."""
    results: list[dict[str, Any]] = []

    def one(seed: int) -> None:
        results.append(trial(kind, rate, seed, confirm_s))  # list.append: thread-safe

    for first in range(0, trials, parallel):
        threads = [threading.Thread(target=one, args=(seed,))
                   for seed in range(first, min(trials, first + parallel))]  # fmt: skip
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    done = sorted(r["s"] for r in results if r["outcome"] == "confirmed")
    count = {k: sum(r["outcome"] == k for r in results) for k in ("confirmed", "told", "wrong")}
    return {
        "fault": kind, "rate": rate, "trials": trials, **count,
        "told_but_right": sum(r["outcome"] == "told" and r["right"] for r in results),
        "confirmed_median_s": round(statistics.median(done), 2) if done else None,
        "confirmed_max_s": round(done[-1], 2) if done else None,
    }  # fmt: skip


def frame_bytes() -> int:
    """The size of the example's final snapshot frame."""
    match = score_file(LOG).match
    snap = snapshot_from_state(match.state)
    return len(encode_frame(Frame(0, 0, FrameKind.SNAPSHOT, snap.to_payload())))


def write(doc: dict[str, Any]) -> None:
    """Write the JSON and the Markdown table."""
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "scoreboard_faults.json").write_text(json.dumps(doc, indent=2) + "\n")
    m = doc["machine"]
    md = [
        f"# Scoreboard under byte faults ({m['date']})",
        "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, load "
        f"{m['load_1_5_15']} before the run. Each trial: `carom score --scoreboard`'s replay "
        f"of the example match (14 shots) onto the emulator on a real pty, its received bytes "
        f"dropped or corrupted at the rate, then the final state retried for at most "
        f"{doc['confirm_s']:g} s. The final snapshot frame is {doc['frame_bytes']} bytes.",
        "",
        "| fault | rate | trials | confirmed | told (exit 6) | of which the board was right "
        "| wrong board, exit 0 | median s to the end, confirmed | max s |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in doc["rows"]:
        md.append(f"| {r['fault']} | {r['rate']:.0%} | {r['trials']} | {r['confirmed']} | "
                  f"{r['told']} | {r['told_but_right']} | {r['wrong']} | "
                  f"{r['confirmed_median_s']} | {r['confirmed_max_s']} |")  # fmt: skip
    md += ["", "`wrong board, exit 0` must be 0: a board is confirmed or the user is told."]
    (RESULTS / "scoreboard_faults.md").write_text("\n".join(md) + "\n")


def main() -> int:
    """Run every rate and write the results."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--trials", type=int, default=20)
    parser.add_argument("--parallel", type=int, default=10)
    parser.add_argument("--confirm", type=float, default=10.0)
    args = parser.parse_args()
    doc: dict[str, Any] = {"machine": machine(), "confirm_s": args.confirm,
                           "frame_bytes": frame_bytes(), "rows": []}  # fmt: skip
    for kind, rate in RATES:
        row = rate_row(kind, rate, args.trials, args.parallel, args.confirm)
        print(row, flush=True)
        doc["rows"].append(row)
    write(doc)
    print((RESULTS / "scoreboard_faults.md").read_text())
    return 0 if all(r["wrong"] == 0 for r in doc["rows"]) else 1


if __name__ == "__main__":
    sys.exit(main())

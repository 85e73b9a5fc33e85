"""The page of bench/live_latency.py's results (``bench/results/live_latency.md``)."""

from __future__ import annotations

from typing import Any

__all__ = ["markdown"]

PARTS = {
    "total": "**true stop -> verdict bytes on the board**",
    "stop_detection": "stop detection: true stop -> the frame that closed the shot",
    "wait_for_stop": "wait for the stop: -> the verdict's frame (every ball at rest)",
    "queue": "queue: that frame due -> taken by the loop",
    "frame_analysis": "analysis of that frame (and, at close, of the shot)",
    "referee_board": "referee + SQLite commit + link + pty -> board",
}


def _cells(figures: dict[str, float]) -> str:
    return " | ".join(str(figures.get(k, "-")) for k in ("p50_ms", "p95_ms", "max_ms"))


def _verdicts_run(doc: dict[str, Any]) -> list[str]:
    """Where the verdicts part was taken from another run (``--verdicts-from``), say when."""
    other = doc.get("verdicts_machine")
    if not other:
        return []
    return [f"This part is from another run ({other.get('date', '?')}, load at the start "
            f"{other.get('load_1_5_15', '?')}).", ""]  # fmt: skip


def _verdicts_md(doc: dict[str, Any]) -> list[str]:
    out = ["## Verdicts through the live loop, lossless (pace 0), against the truth", "",
           "Each clip replayed once through the whole live loop with carom live's segmenter "
           f"({doc['segment']}). Per shot: when the shot closed and when its verdict was "
           "taken, ms from the true stop (negative: before it), and how far the farthest "
           "ball still had to go then (mm).", "",
           "Reviews are answered `accept` (vision's own call stands) so the shots behind "
           "them are judged too; each is listed. A shot judged after a review has no timing "
           "(`no verdict` in the last column).", "",
           *_verdicts_run(doc),
           "| setting | clip | verdicts equal | reviews | closed / verdict ms, mm left |",
           "|---|---|---|---|---|"]  # fmt: skip
    for name, rows in doc["verdicts"].items():
        for r in rows:
            shots = "; ".join(_shot_cell(s) for s in r["shots"])
            reviews = "; ".join(r.get("reviews", [])) or "-"
            out.append(f"| {name} | {r['clip']} | {'yes' if r['equal'] else 'NO'} | "
                       f"{reviews} | {shots} |")  # fmt: skip
    return [*out, ""]


def _shot_cell(s: dict[str, Any]) -> str:
    if s.get("verdict_t_s") is None:
        return "no verdict"
    closed = round((s["closed_t_s"] - s["true_stop_s"]) * 1000)
    verdict = round((s["verdict_t_s"] - s["true_stop_s"]) * 1000)
    return f"{closed} / {verdict}, {s['left_mm_at_verdict']}"


def _latency_md(doc: dict[str, Any]) -> list[str]:
    out = [f"## Latency at real-time pace: {doc['clip']} x {doc['loops']} (1920x1080, 60 fps)",
           "", "| condition | shots timed | within 150 ms | verdict before the true stop "
           "(mm left, max) | p50 ms | p95 ms | max ms | frames dropped | load before -> after |",
           "|---|---|---|---|---|---|---|---|---|"]  # fmt: skip
    for name, r in doc["latency"].items():
        s = r["summary"]
        lat = s["latency"].get("total", {})
        out.append(f"| {name} | {s['timed']} of {s['shots']} | {s['within_budget']} | "
                   f"{s['verdict_frame_before_true_stop']} ({s['left_mm_at_verdict_max']}) | "
                   f"{_cells(lat)} | {s['frames_dropped']} of {s['frames_read']} | "
                   f"{s['load_before']} -> {s['load_after']} |")  # fmt: skip
    out += ["", "Where the time goes (p50 / p95 / max ms per shot; the parts add up to the "
            "total shot by shot, not percentile by percentile):", "",
            "| part | " + " | ".join(doc["latency"]) + " |",
            "|---|" + "---|" * len(doc["latency"])]  # fmt: skip
    for key, label in PARTS.items():
        cells = []
        for r in doc["latency"].values():
            f = r["summary"]["latency"].get(key, {})
            cells.append(
                f"{f.get('p50_ms', '-')} / {f.get('p95_ms', '-')} / {f.get('max_ms', '-')}"
            )
        out.append(f"| {label} | " + " | ".join(cells) + " |")
    shown = [f"{n}: {r['summary']['page_shows']}" for n, r in doc["latency"].items()
             if r["summary"].get("page_shows")]  # fmt: skip
    if shown:
        out += ["", "The browser's scoreboard page at the end (points shown): " + "; ".join(shown)]
    return [*out, ""]


def markdown(doc: dict[str, Any]) -> str:
    """The results as a page."""
    m = doc["machine"]
    out = [f"# carom live: from the true stop to the verdict on the board ({m['date']})", "",
           f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; load (1/5/15 "
           f"min) at the start {m['load_1_5_15']}, at the end {m.get('load_1_5_15_end')}. "
           f"Code under test: {doc.get('code', '?')}. "
           "The machine is shared: the load of every replay is in its row.", "",
           "Settings: `verdict at close` gives the verdict on the frame that closed the shot "
           "(as live mode did before; `StopSettings(max_wait_s=0)`), `verdict at stop` "
           "waits for the tracker to hold every ball at rest (live mode's default)"
           + (f"; `before` is commit {doc['before']} as it was" if doc.get("before") else "")
           + ". Under "
           "`load` the same run serves the web pages and headless Chromium shows its "
           "/scoreboard. Budget: "
           f"{doc['budget_ms']:.0f} ms from the true stop.", ""]  # fmt: skip
    if doc.get("verdicts"):
        out += _verdicts_md(doc)
    if doc.get("latency"):
        out += _latency_md(doc)
    return "\n".join(out) + "\n"

"""Scoring at scale: one shot of many events, one log of many shots, against the old code.

Judging: a three-cushion point with 1k, 10k and 100k cushion contacts, without doubt,
with 3 doubtful events (each ``doubt`` and ``t_err_s``) and with every contact 0.4 ms
uncertain (``t_err_s``, 1 ms apart: as vision writes them), plus one shot whose 300
events are all doubtful (the review's worst case: up to 3 judgements an event).
Scoring: ``carom score LOG --json`` (the log read, judged, the JSON document written
to a temporary file) on logs of 1k, 10k and 100k shots (points and misses of both
players, five events a shot); and ``score_file`` alone (the replay without the
output, new code only). Every measurement runs in a fresh process, timed from
inside, with its peak resident memory (``ru_maxrss``: the interpreter and every import
included; ``start_mb`` is before the imports); the same measurement runs on the code of
``--base`` (default: the commit before issue 19's cost work), exported with ``git
archive`` to a temporary folder, in the same run and in turns. A run longer than
``--limit`` seconds (judging; scoring: three times that) is stopped and shown as more
than that. Writes ``bench/results/scoring_scale.json`` and ``.md``.

    PYTHONPATH=. nice -n 19 .venv/bin/python bench/scoring_scale.py
"""

from __future__ import annotations

import argparse
import json
import resource
import subprocess
import sys
import tarfile
import tempfile
import time
from pathlib import Path
from typing import Any

from _machine import machine  # bench/ is on the path when a bench runs

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
OUT = ROOT / "out" / "bench" / "scoring_scale"
BASE = "eff6d7e5a4081deffdf26ac6e0d1c5f582a9ab96"  # before dbe203f, the first change
EVENTS = (1_000, 10_000, 100_000)
SHOTS = (1_000, 10_000, 100_000)


def _shot_doc(i: int, cue: str, point: bool) -> dict[str, Any]:
    t = i * 10.0
    other = "yellow" if cue == "white" else "white"
    events: list[dict[str, Any]] = [{"t_s": t + 0.3, "kind": "ball", "balls": [cue, "red"]}]
    for k, cushion in enumerate(("foot", "left", "head")):
        events.append(
            {"t_s": t + 0.8 + 0.6 * k, "kind": "cushion", "ball": cue, "cushion": cushion}
        )
    if point:
        events.append({"t_s": t + 2.6, "kind": "ball", "balls": [cue, other]})
    return {"index": i, "start_s": t, "end_s": t + 5.0, "cue_ball": cue, "events": events}


def write_log(n: int, path: Path) -> None:
    """A log of ``n`` shots: two points and a miss in turn (the miss passes the table)."""
    with path.open("w", encoding="utf-8") as f:
        head = {"format": "carom-shots/1", "discipline": "three-cushion",
                "match": {"players": ["Ana", "Ben"], "cue_balls": {"Ana": "white", "Ben": "yellow"},
                          "target": 10_000_000, "first_player": "Ana"}}  # fmt: skip
        f.write(json.dumps(head)[:-1] + ', "shots": [\n')
        cue = "white"
        for i in range(n):
            point = i % 3 != 2
            f.write(("" if i == 0 else ",\n") + json.dumps(_shot_doc(i, cue, point)))
            if not point:
                cue = "yellow" if cue == "white" else "white"
        f.write("\n]}\n")


def _long_shot(n: int, doubtful: int) -> Any:
    """A point after ``n`` cushion contacts of both balls; ``doubtful`` events in doubt.

    ``doubtful`` -1: none in doubt, every contact 0.4 ms uncertain (as vision writes).
    """
    from referee import Ball, BallContact, Cushion, CushionContact, Shot

    w, y, cushions = Ball.WHITE, Ball.YELLOW, list(Cushion)
    every = max(1, n // doubtful) if doubtful > 0 else 0
    timing = 0.0004 if doubtful < 0 else 0.0
    events: list[Any] = [BallContact(t_s=0.0, balls=(w, Ball.RED))]
    for i in range(n):
        doubt = "hidden by the arm" if every and i % every == every - 1 else None
        events.append(CushionContact(t_s=0.001 * (i + 1), ball=w if i % 2 else y,
                                     cushion=cushions[i % 4], doubt=doubt,
                                     t_err_s=0.0005 if doubt else timing))  # fmt: skip
    events.append(BallContact(t_s=0.001 * (n + 1), balls=(w, y)))
    return Shot(index=0, cue_ball=w, events=tuple(events))


def child(kind: str, n: int, extra: int, log: str) -> dict[str, Any]:
    """One measurement in this process (the code under test first on ``sys.path``)."""
    rss0 = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    if kind == "judge":
        from referee import Ball, Discipline, ShotContext, judge

        shot = _long_shot(n, extra)
        ctx = ShotContext(discipline=Discipline.THREE_CUSHION, cue_ball=Ball.WHITE,
                          opponent_ball=Ball.YELLOW)  # fmt: skip
        t0 = time.perf_counter()
        verdict = judge(shot, ctx)
        seconds, what = time.perf_counter() - t0, f"{verdict.reason}; review: {verdict.review}"
        import referee

        assert Path(referee.__file__).is_relative_to(Path.cwd()), referee.__file__
    elif kind == "replay":
        from carom.match import score_file

        t0 = time.perf_counter()
        run = score_file(Path(log))
        seconds = time.perf_counter() - t0
        what = f"{len(run.match.records)} shots, error {run.error}"
    else:
        import contextlib
        import tempfile

        from carom.cli import main

        with tempfile.TemporaryFile("w+", encoding="utf-8") as out:
            t0 = time.perf_counter()
            with contextlib.redirect_stdout(out):
                status = main(["score", log, "--json"])
            seconds = time.perf_counter() - t0
            rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss  # before reading it back
            out.seek(0)
            doc = json.load(out)
        what = f"status {status}, {len(doc['shots'])} shots, score {doc['score']}"
        return _result(seconds, rss, rss0, what)
    return _result(seconds, resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, rss0, what)


def _result(seconds: float, rss_kb: int, start_kb: int, what: str) -> dict[str, Any]:
    return {"seconds": round(seconds, 3), "peak_mb": round(rss_kb / 1024, 1),
            "start_mb": round(start_kb / 1024, 1), "what": what}  # fmt: skip


def measure(code: Path, kind: str, n: int, extra: int, log: Path, limit: float) -> dict[str, Any]:
    """Run :func:`child` in a fresh interpreter on the code in ``code``."""
    args = [sys.executable, __file__, "--child", kind, str(n), str(extra), str(log)]
    env = {"PYTHONPATH": f"{code}:{ROOT / 'bench'}", "PATH": "/usr/bin:/bin"}
    try:
        done = subprocess.run(args, env=env, capture_output=True, text=True, timeout=limit,
                              check=True, cwd=code)  # fmt: skip
    except subprocess.TimeoutExpired:
        return {"seconds": None, "stopped_after_s": limit}
    out: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return out


def export_base(rev: str, into: Path) -> Path:
    """The tree of ``rev`` (the packages only) in ``into``."""
    tar = into / "base.tar"
    subprocess.run(["git", "-C", str(ROOT), "archive", "-o", str(tar), rev, "referee", "carom",
                    "hardware", "calibration", "vision"], check=True)  # fmt: skip
    with tarfile.open(tar) as t:
        t.extractall(into, filter="data")
    return into


def run(base: str, limit: float) -> dict[str, Any]:
    """Every measurement, new and old in turns."""
    OUT.mkdir(parents=True, exist_ok=True)
    rows: list[dict[str, Any]] = []
    with tempfile.TemporaryDirectory(prefix="carom-base-") as tmp:
        old = export_base(base, Path(tmp))
        cases = [("judge", n, 0) for n in EVENTS] + [("judge", n, 3) for n in EVENTS]
        cases += [("judge", n, -1) for n in EVENTS]
        cases += [("judge", 300, 300)] + [("score", n, 0) for n in SHOTS]
        cases += [("replay", n, 0) for n in SHOTS]
        for kind, n, extra in cases:
            log = OUT / f"log_{n}.json"
            if kind != "judge" and not log.exists():
                write_log(n, log)
            row: dict[str, Any] = {"kind": kind, "n": n, "doubtful": extra}
            most = limit if kind == "judge" else 3 * limit
            row["new"] = measure(ROOT, kind, n, extra, log, most)
            skip = {"seconds": None, "stopped_after_s": 0.0, "not_run": True}
            row["old"] = skip if kind == "replay" else measure(old, kind, n, extra, log, most)
            rows.append(row)
            print(json.dumps(row), flush=True)
    return {"machine": machine(), "base": base, "limit_s": limit, "rows": rows}


def _cell(m: dict[str, Any], key: str) -> str:
    if m.get("not_run"):
        return "not run"
    if m.get("seconds") is None:
        return f"> {m['stopped_after_s']:.0f} s (stopped)" if key == "seconds" else "-"
    return f"{m[key]:.3f} s" if key == "seconds" else f"{m[key]:.0f} MB"


def _ratio(row: dict[str, Any]) -> str:
    new, old = row["new"]["seconds"], row["old"].get("seconds")
    if row["old"].get("not_run"):
        return "-"
    if old is None:
        return f"> {row['old']['stopped_after_s'] / new:.0f}x" if new else "-"
    return f"{old / new:.1f}x" if new else "-"


def _times(row: dict[str, Any]) -> tuple[str, str, str]:
    return _cell(row["new"], "seconds"), _cell(row["old"], "seconds"), _ratio(row)


def _same(row: dict[str, Any]) -> str:
    old = row["old"].get("what")
    return "-" if old is None else ("yes" if old == row["new"]["what"] else "**no**")


def _doubtful(n: int) -> str:
    return "none; all 0.4 ms uncertain" if n < 0 else f"{n:,}"


def _line(*cells: str) -> str:
    return "| " + " | ".join(cells) + " |"


def markdown(doc: dict[str, Any]) -> str:
    """The results page."""
    m = doc["machine"]
    lines = [
        f"# Scoring at scale ({m['date'][:10]})",
        "",
        "`bench/scoring_scale.py`: this code (new) against the code before issue 19's cost "
        f"work (old, `{doc['base'][:7]}`), each measurement in a fresh process, in turns.",
        "",
        "## Judging one shot",
        "",
        "| events | doubtful | new | old | old / new | verdict (new) | same verdict |",
        "|---|---|---|---|---|---|---|",
    ]
    judged = [r for r in doc["rows"] if r["kind"] == "judge"]
    lines += [_line(f"{r['n']:,}", _doubtful(r["doubtful"]), *_times(r), r["new"]["what"], _same(r))
              for r in judged]  # fmt: skip
    lines += [
        "",
        "## Scoring a log: `carom score LOG --json`",
        "",
        "`replay`: `score_file` alone, without rendering the output (new code only).",
        "",
        "| run | shots | new | new peak | old | old peak | old / new | result (new) | same |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for r in (r for r in doc["rows"] if r["kind"] != "judge"):
        new, old, ratio = _times(r)
        peaks = _cell(r["new"], "peak_mb"), _cell(r["old"], "peak_mb")
        lines.append(_line(r["kind"], f"{r['n']:,}", new, peaks[0], old, peaks[1], ratio,
                           r["new"]["what"], _same(r)))  # fmt: skip
    lines += ["", f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}, "
              f"load {m['load_1_5_15']}, {m['date']}."]  # fmt: skip
    return "\n".join(lines) + "\n"


def main() -> None:
    """Run the bench, or one measurement with ``--child``."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--child", nargs=4, metavar=("KIND", "N", "EXTRA", "LOG"))
    p.add_argument("--base", default=BASE, help="the old code's commit")
    p.add_argument("--limit", type=float, default=30.0,
                   help="seconds a judging run may take (a scoring run: 3 times that)")  # fmt: skip
    args = p.parse_args()
    if args.child:
        kind, n, extra, log = args.child
        print(json.dumps(child(kind, int(n), int(extra), log)))
        return
    doc = run(args.base, args.limit)
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "scoring_scale.json").write_text(json.dumps(doc, indent=1) + "\n")
    (RESULTS / "scoring_scale.md").write_text(markdown(doc))
    print(markdown(doc))


if __name__ == "__main__":
    main()

"""``carom matches DB`` and ``carom export DB``: what a live database holds, and exports."""

from __future__ import annotations

import argparse
import json
import os
import sys
from pathlib import Path
from typing import Any

__all__ = ["add_parsers", "run_export", "run_matches"]


def add_parsers(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom matches`` and ``carom export``."""
    m = sub.add_parser(
        "matches", help="list the matches of a live database (carom live --db)",
        description="One line per match: id, date, discipline, players, score, state.",
    )  # fmt: skip
    m.add_argument("db", type=Path, metavar="DB", help="the SQLite file of carom live")
    m.add_argument(
        "--repair", type=Path, metavar="NEW",
        help="salvage every readable match of a damaged DB into the new file NEW (DB is "
        "never written) and say what was lost",
    )  # fmt: skip
    e = sub.add_parser(
        "export",
        help="export a match of a live database: JSON shot log, CSV result line, per-shot CSV",
        description="Write the match as a carom-shots/1 shot log (re-scorable with carom score), "
        "its balls' trajectories (carom-trajectories/1 JSON and/or CSV: every frame of every "
        "shot), a per-shot CSV (one row per shot: docs/shot-csv.md) and/or append its result "
        "line to a CSV file. Without --json/--csv/--shots-csv/--trajectories/"
        "--trajectories-csv the shot log is printed.",
    )  # fmt: skip
    e.add_argument("db", type=Path, metavar="DB", help="the SQLite file of carom live")
    e.add_argument(
        "--match", type=int, metavar="ID",
        help="the match (default: the newest finished one; see carom matches)",
    )  # fmt: skip
    e.add_argument("--json", type=Path, metavar="FILE", help="write the shot log here")
    e.add_argument(
        "--csv", type=Path, metavar="FILE",
        help="write the result line here (appended when the file has the header)",
    )  # fmt: skip
    e.add_argument(
        "--shots-csv", type=Path, metavar="FILE",
        help="write one row per shot here (player, inning, points, cushions, fouls, times; "
        "docs/shot-csv.md)",
    )  # fmt: skip
    e.add_argument(
        "--trajectories", type=Path, metavar="FILE",
        help="write the shots' trajectories here (JSON; docs/trajectories.md)",
    )  # fmt: skip
    e.add_argument(
        "--trajectories-csv", type=Path, metavar="FILE",
        help="write the shots' trajectories here as CSV, one row per ball and frame",
    )  # fmt: skip


def run_matches(args: argparse.Namespace) -> int:
    """Print the matches of DB (or, with --repair NEW, salvage them into NEW)."""
    from carom.live import LiveSession, MatchStore

    if args.repair is not None:
        return _repair(args.db, args.repair)
    with MatchStore(args.db, create=False, strict=True) as store:
        rows = store.matches()
        if not rows:
            print(f"{args.db}: no matches yet")
        for row in rows:
            session = LiveSession.load(store, row.id)
            state = session.state
            score = " - ".join(str(state.board(p)) for p in state.config.players)
            how = f"finished, {state.winner or 'draw'}" if row.finished_at else "unfinished"
            names = " - ".join(row.players)
            print(f"{row.id:>4}  {row.created_at[:16]}  {row.discipline:<14} {names}  {score}  "
                  f"{len(session.records)} shots  {how}")  # fmt: skip
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Export one match of DB."""
    from carom.live import (
        LiveError,
        LiveSession,
        MatchStore,
        corrections_in_effect,
        result_row,
        shot_log,
        trajectories,
        write_csv,
    )
    from carom.report import write_shot_csv
    from carom.trajectories import write_trajectories_csv, write_trajectories_json
    from referee import Phase

    with MatchStore(args.db, create=False, strict=True) as store:
        match_id = args.match
        if match_id is None:
            finished = [r.id for r in store.matches() if r.finished_at]
            if not finished:
                raise LiveError(f"{args.db}: no finished match; pass --match ID (carom matches DB)")
            match_id = finished[-1]
        session = LiveSession.load(store, match_id)
        tracks = trajectories(session) if args.trajectories or args.trajectories_csv else None
    doc = shot_log(session)
    try:
        if args.json is not None:
            _write_json(args.json, doc)
        if args.csv is not None:
            write_csv(args.csv, [result_row(session)])
        if args.shots_csv is not None:
            write_shot_csv(args.shots_csv, doc, str(match_id))
        if tracks is not None and args.trajectories is not None:
            write_trajectories_json(args.trajectories, tracks)
        if tracks is not None and args.trajectories_csv is not None:
            write_trajectories_csv(args.trajectories_csv, tracks)
    except OSError as exc:
        raise LiveError(f"cannot write the export ({exc.strerror}: {exc.filename})") from None
    if tracks is not None and len(tracks.shots) < len(doc["shots"]):
        print(f"carom: note: {len(doc['shots']) - len(tracks.shots)} of {len(doc['shots'])} "
              "shots have no kept trajectories (recorded before they were kept); left out",
              file=sys.stderr)  # fmt: skip
    wanted = (args.json, args.csv, args.shots_csv, args.trajectories, args.trajectories_csv)
    if all(w is None for w in wanted):
        print(json.dumps(doc, indent=1))
    else:
        print(f"wrote match {match_id}: " + ", ".join(str(w) for w in wanted if w is not None))
    if session.state.phase is not Phase.OVER:
        print(f"carom: note: match {match_id} is not finished; exported the score so far",
              file=sys.stderr)  # fmt: skip
    if corrections := corrections_in_effect(session):
        print(f"carom: note: match {match_id} has {len(corrections)} referee correction(s) that "
              "carom-shots/1 cannot hold; carom score on the export will differ by them",
              file=sys.stderr)  # fmt: skip
    return 0


def _repair(db: Path, new: Path) -> int:
    """``carom matches DB --repair NEW``: the salvage's report on stdout; 0 when done."""
    from carom.live import repair

    report = repair(db, new)
    for line in report.lines():
        print(line)
    if not report.complete:
        print(f"carom: note: some of {db} was lost (above); {new} holds the rest",
              file=sys.stderr)  # fmt: skip
    return 0


def _write_json(path: Path, doc: Any) -> None:
    """Write JSON so that a reader never sees half a file."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(json.dumps(doc, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)

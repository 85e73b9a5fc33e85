"""``carom matches DB`` and ``carom export DB``: what a live database holds, and exports."""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import secrets
import stat
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from carom.files import cannot_write_in

if TYPE_CHECKING:
    from carom.live import LiveError, LiveSession
    from carom.trajectories import Trajectories

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
            n = len(session.records)
            print(f"{row.id:>4}  {row.created_at[:16]}  {row.discipline:<14} {names}  {score}  "
                  f"{n} shot{'' if n == 1 else 's'}  {how}")  # fmt: skip
    return 0


def run_export(args: argparse.Namespace) -> int:
    """Export one match of DB: every file asked for, or none (nothing is changed)."""
    from carom.live import LiveError, LiveSession, MatchStore, shot_log, trajectories

    outs = _outputs(args)
    _check_outputs(outs, args.db)
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
    _write_all(outs, _writers(args.csv, session, doc, tracks, str(match_id)))
    _say_what_was_done(outs, session, doc, tracks, match_id)
    return 0


def _say_what_was_done(
    outs: list[_Out], session: LiveSession, doc: dict[str, Any], tracks: Trajectories | None,
    match_id: int,
) -> None:  # fmt: skip
    """The shot log (no file asked for) or the files written on stdout; notes on stderr."""
    from carom.live import corrections_in_effect
    from referee import Phase

    if tracks is not None and len(tracks.shots) < len(doc["shots"]):
        print(f"carom: note: {len(doc['shots']) - len(tracks.shots)} of {len(doc['shots'])} "
              "shots have no kept trajectories (recorded before they were kept); left out",
              file=sys.stderr)  # fmt: skip
    if not outs:
        print(json.dumps(doc, indent=1))
    else:
        print(f"wrote match {match_id}: " + ", ".join(str(o.path) for o in outs))
    if session.state.phase is not Phase.OVER:
        print(f"carom: note: match {match_id} is not finished; exported the score so far",
              file=sys.stderr)  # fmt: skip
    if corrections := corrections_in_effect(session):
        print(f"carom: note: match {match_id} has {len(corrections)} referee correction(s) that "
              "carom-shots/1 cannot hold; carom score on the export may differ by them",
              file=sys.stderr)  # fmt: skip


def _repair(db: Path, new: Path) -> int:
    """``carom matches DB --repair NEW``: the salvage's report on stdout; 0 when done.

    Nothing salvaged from a file whose table of matches cannot be read is a LiveError
    (exit 2), and no empty NEW is left behind.
    """
    from carom.live import LiveError, repair

    report = repair(db, new)
    if report.unreadable is not None and all(m.new_id is None for m in report.matches):
        for line in report.lines()[:-1]:  # what was found, not "wrote NEW: 0 of 0 matches"
            print(line)
        for path in (new, new.with_name(new.name + "-wal"), new.with_name(new.name + "-shm")):
            path.unlink(missing_ok=True)
        raise LiveError(f"{db}: nothing could be salvaged ({report.unreadable}); {new} was not "
                        f"written; keep {db} as it is: SQLite's own .recover may still read "
                        "some of it")  # fmt: skip
    for line in report.lines():
        print(line)
    if not report.complete:
        print(f"carom: note: some of {db} was lost (above); {new} holds the rest",
              file=sys.stderr)  # fmt: skip
    return 0


# --- the files: checked before the work, written all or none ---

#: The options that name an export file, in the order they are written and named.
_OPTIONS = ("json", "csv", "shots_csv", "trajectories", "trajectories_csv")
#: SQLite's files beside a database (its journal in WAL or rollback mode).
_DB_SIDECARS = ("-wal", "-shm", "-journal")


@dataclass(frozen=True)
class _Out:
    """One export file: its option, the path as given, and the file it names."""

    option: str
    path: Path
    target: Path  # a symlink's file: the link stays


def _outputs(args: argparse.Namespace) -> list[_Out]:
    """The export files asked for, in :data:`_OPTIONS` order."""
    outs = []
    for name in _OPTIONS:
        path: Path | None = getattr(args, name)
        if path is not None:
            option = "--" + name.replace("_", "-")
            outs.append(_Out(option, path, Path(os.path.realpath(path))))
    return outs


def _check_outputs(outs: list[_Out], db: Path) -> None:
    """Refuse, before any work, an export file that could not be written or must not be.

    Raises:
        LiveError: one line naming the option, the file and the way out.
    """
    from carom.live import LiveError

    for i, out in enumerate(outs):
        _check_output(out, db)
        for other in outs[:i]:
            if _same_file(out.target, other.target):
                raise LiveError(f"{out.option} {out.path}: is also {other.option}; "
                                "give each export its own file name")  # fmt: skip


def _check_output(out: _Out, db: Path) -> None:
    """One export file: not a folder, not the database, in a folder a file can be made in."""
    from carom.live import LiveError, holds_path

    where = f"{out.option} {out.path}"
    if out.target.is_dir():
        raise LiveError(f"{where}: is a folder; give a file name")
    if _same_file(out.target, db):
        raise LiveError(f"{where}: is the match database; give another file name")
    journals = [f.with_name(f.name + s) for f in (db, db.resolve()) for s in _DB_SIDECARS]
    if any(_same_file(out.target, j) for j in journals):
        raise LiveError(f"{where}: is a journal of the match database; give another file name")
    if any(_same_file(out.target, holds_path(f)) for f in (db, db.resolve())):
        raise LiveError(f"{where}: is the match database's holds file (which process referees "
                        "which match); give another file name")  # fmt: skip
    if out.target.exists() and not out.target.is_file():
        raise LiveError(f"{where}: is not a regular file; give a file name")
    folder = out.target.parent
    if not folder.is_dir():
        raise LiveError(f"{where}: cannot write the export there (no folder {folder}); "
                        "make it or give another path")  # fmt: skip
    if (why := cannot_write_in(folder)) is not None:
        raise LiveError(f"{where}: cannot write the export there ({why}); "
                        "give a path you may write to")  # fmt: skip


def _same_file(a: Path, b: Path) -> bool:
    """Whether ``a`` and ``b`` are one file (any spelling, link or hard link)."""
    try:
        return os.path.realpath(a) == os.path.realpath(b) or os.path.samefile(a, b)
    except OSError:  # one of them does not exist
        return False


def _writers(
    csv_path: Path | None, session: LiveSession, doc: dict[str, Any],
    tracks: Trajectories | None, match: str,
) -> dict[str, Callable[[Path], None]]:  # fmt: skip
    """How each option writes its file, given the temporary file to write."""
    from carom.live import result_row, write_csv
    from carom.report import shot_csv_text
    from carom.trajectories import write_trajectories_csv, write_trajectories_json

    def text(make: Callable[[], str]) -> Callable[[Path], None]:
        def write(tmp: Path) -> None:
            tmp.write_text(make(), encoding="utf-8")

        return write

    writers = {
        "--json": text(lambda: json.dumps(doc, indent=1) + "\n"),
        "--shots-csv": text(lambda: shot_csv_text(doc, match)),
    }
    if csv_path is not None:
        writers["--csv"] = lambda tmp: write_csv(csv_path, [result_row(session)], into=tmp)
    if tracks is not None:
        writers["--trajectories"] = lambda tmp: write_trajectories_json(tmp, tracks)
        writers["--trajectories-csv"] = lambda tmp: write_trajectories_csv(tmp, tracks)
    return writers


def _write_all(outs: list[_Out], writers: dict[str, Callable[[Path], None]]) -> None:
    """Write every file to a temporary file beside it, then rename them all into place.

    A failure on any file removes the temporary files and changes no file.
    """
    staged: list[tuple[_Out, Path]] = []
    try:
        for out in outs:
            staged.append((out, _stage(out, writers[out.option])))
    except BaseException:
        _remove([tmp for _, tmp in staged])
        raise
    _put_in_place(staged)


def _stage(out: _Out, write: Callable[[Path], None]) -> Path:
    """The temporary file beside ``out`` that ``write`` wrote (the file's mode kept)."""
    from carom.live import LiveError

    try:
        tmp = out.target.with_name(f".{out.target.name}.{secrets.token_hex(4)}.tmp")
        os.close(os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666))
    except OSError as exc:
        raise _cannot_write(out, exc, []) from None
    try:
        write(tmp)
        if out.target.exists():
            os.chmod(tmp, stat.S_IMODE(out.target.stat().st_mode))
    except OSError as exc:
        _remove([tmp])
        raise _cannot_write(out, exc, []) from None
    except LiveError as exc:  # the file --csv appends to is not one of results
        _remove([tmp])
        raise LiveError(f"{out.option} {exc}") from None
    except BaseException:
        _remove([tmp])
        raise
    return tmp


def _put_in_place(staged: list[tuple[_Out, Path]]) -> None:
    """Rename each temporary file over its file."""
    done: list[Path] = []
    for i, (out, tmp) in enumerate(staged):
        try:
            os.replace(tmp, out.target)
        except OSError as exc:
            _remove([t for _, t in staged[i:]])
            raise _cannot_write(out, exc, done) from None
        done.append(out.path)


def _cannot_write(out: _Out, exc: OSError, done: list[Path]) -> LiveError:
    """The line for a file that could not be written; which ones were (none, mostly)."""
    from carom.live import LiveError

    why = exc.strerror or type(exc).__name__
    kept = f"only {', '.join(map(str, done))} written" if done else "no file was changed"
    return LiveError(f"{out.option} {out.path}: cannot write the export ({why}); {kept}")


def _remove(temporaries: list[Path]) -> None:
    """Remove temporary files (and those a writer of ours made beside them), if there."""
    for tmp in temporaries:
        for path in (tmp, tmp.with_name(tmp.name + ".tmp")):
            with contextlib.suppress(OSError):
                path.unlink(missing_ok=True)

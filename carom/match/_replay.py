"""``carom score``: judge every shot of a shot log and print the scoresheet."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carom.match._read_bounded import SHOT_LOG_LIMITS, media_kind, read_document
from referee import (
    CaromError,
    Discipline,
    IllegalMoveError,
    LagResult,
    Match,
    MatchConfig,
    MatchResult,
    Phase,
    ShotLogError,
    match_stats,
    parse_shot_log,
    record_json,
    standings,
)

__all__ = [
    "ScoreRun",
    "load_json",
    "run_json",
    "score_document",
    "score_file",
    "standings_json",
    "stopped_reason",
]


@dataclass(frozen=True, slots=True)
class ScoreRun:
    """The outcome of scoring a log: the match, the lag result, and an error if any.

    When a shot is rejected (``error``), everything judged before it is kept.
    ``setup``: the set-up to show when it says more than the match's own (``None``: the
    match's): a match joined at its first stroke, no lag having decided who breaks, was
    joined knowing nothing (``carom analyze``'s set-up line says so).
    """

    match: Match
    lag: LagResult | None
    error: CaromError | None = None
    setup: MatchConfig | None = None
    refused_shot: int | None = None  # the log's shot that ``error`` refused, if a shot


def load_json(path: Path) -> Any:
    """Decode a shot log file within its limits; raises ShotLogError with a one-line reason.

    At most 64 MB, 64 levels of nesting and 30 digits a number (docs/shot-log.md).
    """
    fix = "check the file (carom analyze writes a valid one)"
    return read_document(path, str(path), SHOT_LOG_LIMITS, ShotLogError, fix)


def score_document(data: Any, discipline: Discipline | None = None) -> ScoreRun:
    """Score a decoded shot log. A malformed log raises ShotLogError before any shot."""
    log = parse_shot_log(data, discipline)
    match = Match(log.match)
    lag = None
    try:
        if log.lag is not None:
            lag = match.lag(log.lag)
        for shot in log.shots:
            match.play(shot)
    except CaromError as exc:
        refused = len(match.records) if lag is not None or log.lag is None else None
        return ScoreRun(match, lag, exc, refused_shot=refused)
    return ScoreRun(match, lag)


def score_file(path: Path, discipline: Discipline | None = None) -> ScoreRun:
    """Read and score a shot log file, one shot at a time (any length: docs/shot-log.md).

    Raises:
        ShotLogError: one line (a video given: the command that referees it).
    """
    from carom.match._stream import score_stream  # it builds on this module

    if (kind := media_kind(path)) is not None:
        why = f"{kind}, not a shot log; `carom analyze` referees a video and writes its"
        raise ShotLogError(f"{path}: {why} shot log (shots.json), which this reads")

    return score_stream(path, discipline)


def run_json(run: ScoreRun, *, with_shots: bool = True) -> dict[str, Any]:
    """The whole ``--json`` document (``with_shots`` False: its ``shots`` left empty)."""
    state = run.match.state
    stats = match_stats(state)
    lag = None
    if run.lag is not None:
        lag = {"winner": run.lag.winner, "breaker": run.lag.breaker, "reason": run.lag.reason,
               "faults": {p: list(f) for p, f in run.lag.faults.items()}}  # fmt: skip
    return {
        "format": "carom-score/1",
        "discipline": str(state.config.discipline),
        "players": list(state.config.players),
        "lag": lag,
        "shots": [record_json(r) for r in run.match.records] if with_shots else [],
        "phase": str(state.phase),
        "winner": state.winner,
        "draw": state.draw,
        "tied": list(state.tied),
        "score": {p: state.board(p) for p in state.config.players},
        "sets_won": dict(state.sets_won),
        "statistics": {
            p: {
                "match_points": _match_points(state, p),
                "points": s.points,
                "innings": s.innings,
                "average": s.average,
                "high_run": s.high_run,
                "sets_won": s.sets_won,
            }
            for p, s in stats.items()
        },
        "audit": [vars_of(a) for a in state.audit],
        "error": None if run.error is None else stopped_reason(run),
    }


def _match_points(state: Any, player: str) -> int | None:
    if state.phase is not Phase.OVER:
        return None
    return MatchResult.from_state(state).match_points(player)


def standings_json(runs: list[ScoreRun], *, finished_only: bool = True) -> list[dict[str, Any]]:
    """The event table over finished matches: MP, then GA, BA, HR.

    ``finished_only`` False: every match as it stands (the provisional figures of
    matches still under way); their match points mean nothing yet (a match without a
    winner counts as a draw) and are left for the caller to hide.
    """
    table = standings(
        MatchResult.from_state(r.match.state, provisional=True)
        for r in runs
        if r.match.state.phase is Phase.OVER or not finished_only
    )
    return [
        {"rank": i + 1, "player": s.player, "matches": s.matches, "match_points": s.match_points,
         "points": s.points, "innings": s.innings, "general_average": s.general_average,
         "best_average": s.best_average_text, "high_run": s.high_run}
        for i, s in enumerate(table)
    ]  # fmt: skip


def vars_of(entry: Any) -> dict[str, Any]:
    """A slotted dataclass as a dict."""
    return {name: getattr(entry, name) for name in entry.__slots__}


def stopped_reason(run: ScoreRun, discipline: Discipline | None = None) -> str:
    """Why a log stopped, with what a command-line user can do about it.

    A match over before the log's last shot (a target reached sooner under another
    ``--discipline``, or shots logged after the end): the referee's own line speaks
    of an undo, which only the live console has.
    """
    state = run.match.state
    if not (isinstance(run.error, IllegalMoveError) and state.phase is Phase.OVER):
        if run.refused_shot is None:
            return str(run.error)
        return (f"shot {run.refused_shot} refused: {run.error}; mend it in the log (or leave "
                "it out) and score again")  # fmt: skip
    last = run.match.records[-1].index if run.match.records else 0
    why = f"{state.winner} wins" if state.winner else "a draw"
    way = (
        f"the log's later shots are not scored under {discipline}; leave out --discipline "
        "to score the log under its own rules"
        if discipline is not None
        else "the shots after it are not scored; check the log's target and its last shots"
    )
    return f"the match was over after shot {last} ({why}); {way}"

"""Shots for the live storage tests: the example match and the golden three-cushion shots."""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path
from typing import Any

from carom.live import (
    FoulCall,
    LiveSession,
    LiveSetup,
    MatchStore,
    PlayStep,
    SessionUpdate,
    UndoCall,
)
from referee import Ball, Foul, Lag, MatchConfig, Shot, ShotLog, parse_shot, parse_shot_log
from vision import AnalyzedShot, BallTrack, ScoredEvent

ROOT = Path(__file__).parents[3]
EXAMPLE = ROOT / "examples" / "three_cushion_match.json"
GOLDEN = ROOT / "tests" / "referee" / "shots" / "three-cushion"
SOURCE = "sample_videos/three_cushion_match.mp4"
NOW = "2026-11-29T23:00:00+00:00"


def example_log() -> ShotLog:
    return parse_shot_log(json.loads(EXAMPLE.read_text()))


def example_setup(**changes: Any) -> LiveSetup:
    return LiveSetup(replace(example_log().match, **changes), SOURCE)


def analyzed(shot: Shot, *, lag: bool = False, tracks: bool = False) -> AnalyzedShot:
    """What vision would hand over: the shot, its events scored, optional tracks."""
    scored = tuple(
        ScoredEvent(e, 0.55 if e.doubt else 0.97, "gap 0.4 mm" if e.doubt else "")
        for e in shot.events
    )
    paths: dict[Ball, BallTrack] = {}
    if tracks:
        paths = {
            b: BallTrack.from_samples([0.0, 0.5, 1.0], [xy, xy, xy])
            for b, xy in shot.start_positions_mm.items()
        }
    return AnalyzedShot(shot=shot, scored=scored, tracks=paths, lag=lag)


def lag_shot(lag: Lag) -> AnalyzedShot:
    """The example's lag as vision sees it: a motion of both cue balls."""
    shot = Shot(
        index=0,
        cue_ball=Ball.WHITE,
        events=lag.events,
        start_positions_mm=lag.start_positions_mm,
        end_positions_mm=lag.end_positions_mm,
    )
    return analyzed(shot, lag=True)


def example_inputs() -> list[AnalyzedShot]:
    """The example match as vision would deliver it: the lag, then the 14 shots."""
    log = example_log()
    assert log.lag is not None
    return [lag_shot(log.lag), *(analyzed(s) for s in log.shots)]


def _swap(ball: str) -> str:
    return {"white": "yellow", "yellow": "white"}.get(ball, ball)


def _swapped(doc: Any) -> Any:
    if isinstance(doc, dict):
        return {_swap(k): _swapped(v) for k, v in doc.items()}
    if isinstance(doc, list):
        return [_swapped(v) for v in doc]
    return _swap(doc) if isinstance(doc, str) else doc


def golden_shots(*, review: bool = True) -> list[tuple[Shot, Shot]]:
    """Golden three-cushion shots judged in a default context: (as white, as yellow)."""
    out = []
    for path in sorted(GOLDEN.glob("*.json")):
        doc = json.loads(path.read_text())
        special = set(doc.get("context", {})) - {"cue_ball", "opponent_ball"}
        if special or (not review and path.name.endswith(".review.json")):
            continue
        out.append((parse_shot(doc["shot"], "shot"), parse_shot(_swapped(doc["shot"]), "shot")))
    return out


def long_config() -> MatchConfig:
    """A race no test reaches: the match never ends."""
    return MatchConfig(discipline=example_log().match.discipline, players=("Ana", "Ben"),
                       cue_balls={"Ana": Ball.WHITE, "Ben": Ball.YELLOW},
                       target={"Ana": 999, "Ben": 999}, first_player="Ana")  # fmt: skip


def scripted_input(session: LiveSession, pool: list[tuple[Shot, Shot]]) -> SessionUpdate:
    """Input number ``session.version`` of a fixed script: shots, foul calls and undos.

    What comes next depends only on the session's version and state, so a writer that is
    killed and restarted goes on with the same script as one that never stopped.
    """
    v = session.version
    last_is_shot = bool(session.ops) and isinstance(session.ops[-1], PlayStep)
    if v % 7 == 3 and last_is_shot:
        return session.call(FoulCall(Foul.PUSH), who="ref", now_iso=NOW)
    if v % 13 == 9:
        return session.call(UndoCall(), who="ref", now_iso=NOW)
    white, yellow = pool[(v * 7) % len(pool)]
    shot = white if session.state.shooter == session.state.config.players[0] else yellow
    return session.submit(analyzed(shot), video_t_s=float(v), now_iso=NOW)


def held_example(tmp_path: Path, **changes: object) -> LiveSession:
    """The example match up to its shot held for review (Ana's, a point if accepted)."""
    tmp_path.mkdir(parents=True, exist_ok=True)
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(**changes), now_iso=NOW)
    for i, shot in enumerate(example_inputs()[:9]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    assert session.pending is not None and session.pending.if_accepted.verdict.points == 1
    return session

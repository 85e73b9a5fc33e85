"""A shot held for review and decided "points N" on real SQLite files: the decision is the
stroke's own verdict, so its points count in the run (the high run as played), the turn
and the game's end follow from them (in five-pins the turn passes after every stroke; a
game point the camera gave can be taken away), the export carries it, and a decision
stored before keeps the result it had."""

from __future__ import annotations

import json
from pathlib import Path

from carom.live import DecisionKind, LiveSession, LiveSetup, MatchStore, ReviewDecision, shot_log
from carom.match import score_file
from referee import Ball, Discipline, MatchConfig, Phase, Score, parse_shot
from tests.carom.live.shotpool import NOW, SOURCE, analyzed, held_example
from tests.referee.golden import SHOTS_DIR

HIDDEN_PIN = SHOTS_DIR / "five-pins" / "uncertain_centre_pin.review.json"


def _sound(score: Score) -> bool:
    parts = sum(score.runs) + score.current_run + score.awarded + score.corrected + score.carried
    return score.points == parts


def _five_pins(tmp_path: Path) -> LiveSession:
    config = MatchConfig(
        discipline=Discipline.FIVE_PINS, players=("Ana", "Ben"),
        cue_balls={"Ana": Ball.WHITE, "Ben": Ball.YELLOW}, target={"Ana": 60, "Ben": 60},
        first_player="Ana",
    )  # fmt: skip
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), LiveSetup(config, SOURCE),
                               now_iso=NOW)  # fmt: skip
    shot = parse_shot(json.loads(HIDDEN_PIN.read_text())["shot"], "shot")
    held = session.submit(analyzed(shot), video_t_s=1.0, now_iso=NOW).pending
    assert held is not None and held.if_accepted.verdict.points == 8
    return session


def test_a_point_decided_away_leaves_the_run_as_it_was_before_the_stroke(tmp_path: Path) -> None:
    session = held_example(tmp_path)
    before = session.state.scores["Ana"]
    assert session.state.shooter == "Ana" and before.in_inning
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 0), who="ref", now_iso=NOW)
    ana = update.state.scores["Ana"]
    assert update.state.shooter == "Ben" and ana.points == before.points
    assert ana.runs[-1] == before.current_run and ana.corrected == before.corrected
    assert ana.high_run == max(before.high_run, before.current_run) and _sound(ana)
    assert update.record is not None and update.record.verdict.points == 0  # as people read it
    assert LiveSession.load(session._store, session.match_id).state == update.state


def test_a_game_point_the_camera_gave_can_be_decided_away(tmp_path: Path) -> None:
    """With the target one point away, the held stroke's accepted point would end the game;
    decided 0, the game goes on (the correction after it was refused: the game was over)."""
    board = held_example(tmp_path / "probe").state.board("Ana")
    session = held_example(tmp_path, target={"Ana": board + 1, "Ben": 99}, equalizing=False)
    assert session.pending is not None and session.pending.if_accepted.game_over
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 0), who="ref", now_iso=NOW)
    assert update.state.phase is Phase.PLAYING and update.state.shooter == "Ben"


def test_a_five_pins_stroke_decided_by_the_referee_passes_the_turn(tmp_path: Path) -> None:
    session = _five_pins(tmp_path)
    # The centre pin stood: the referee gives the stroke the carom's 2 points only.
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 2), who="ref", now_iso=NOW)
    ana = update.state.scores["Ana"]
    assert update.state.shooter == "Ben"  # it was given back to Ana before
    assert (ana.points, ana.runs, ana.high_run, ana.corrected) == (2, (2,), 2, 0) and _sound(ana)
    assert LiveSession.load(session._store, session.match_id).state == update.state
    # The export holds the decision: carom score on it gives the same score, nothing left out.
    log = tmp_path / "export.json"
    log.write_text(json.dumps(shot_log(session)), encoding="utf-8")
    assert json.loads(log.read_text())["shots"][0]["decided_points"] == 2
    assert score_file(log).match.state.scores == update.state.scores


def test_a_decision_stored_before_replays_as_it_was_made(tmp_path: Path) -> None:
    """A journal entry written before decisions were strokes (no ``stroke``): the accepted
    shot, then corrections, as then (in five-pins the shooter kept the table), so a stored
    match keeps its result."""
    session = _five_pins(tmp_path)
    legacy = {"decision": "points", "points": 2}  # as the code before wrote it
    update = session._commit("decide", legacy, None, "ref", NOW)
    assert update.state.shooter == "Ana" and update.state.scores["Ana"].points == 2
    assert update.state.scores["Ana"].corrected == -6
    assert LiveSession.load(session._store, session.match_id).state == update.state

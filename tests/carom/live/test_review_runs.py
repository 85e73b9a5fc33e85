"""A shot held for review and decided "points N" on real SQLite files: the points the
decision changes are the stroke's, so they count in its run (the high run as played), and
the turn follows the game's rules (in five-pins it passes after every stroke)."""

from __future__ import annotations

import json
from pathlib import Path

from carom.live import DecisionKind, LiveSession, LiveSetup, MatchStore, ReviewDecision
from referee import Ball, Discipline, MatchConfig, Score, parse_shot
from tests.carom.live.shotpool import NOW, SOURCE, analyzed, example_inputs, example_setup
from tests.referee.golden import SHOTS_DIR

HIDDEN_PIN = SHOTS_DIR / "five-pins" / "uncertain_centre_pin.review.json"


def _sound(score: Score) -> bool:
    parts = sum(score.runs) + score.current_run + score.awarded + score.corrected + score.carried
    return score.points == parts


def test_a_point_decided_away_leaves_the_run_as_it_was_before_the_stroke(tmp_path: Path) -> None:
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, example_setup(), now_iso=NOW)
    for i, shot in enumerate(example_inputs()[:9]):
        session.submit(shot, video_t_s=float(i), now_iso=NOW)
    held = session.pending
    assert held is not None and held.if_accepted.verdict.points == 1
    before = session.state.scores["Ana"]
    assert session.state.shooter == "Ana" and before.in_inning
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 0), who="ref", now_iso=NOW)
    ana = update.state.scores["Ana"]
    assert update.state.shooter == "Ben" and ana.points == before.points
    # Not a point given and taken back apart from the run: the run ended where it stood.
    assert ana.runs[-1] == before.current_run and ana.corrected == before.corrected
    assert ana.high_run == max(before.high_run, before.current_run) and _sound(ana)
    assert LiveSession.load(store, session.match_id).state == update.state  # as replayed


def test_a_five_pins_stroke_decided_by_the_referee_passes_the_turn(tmp_path: Path) -> None:
    config = MatchConfig(
        discipline=Discipline.FIVE_PINS, players=("Ana", "Ben"),
        cue_balls={"Ana": Ball.WHITE, "Ben": Ball.YELLOW}, target={"Ana": 60, "Ben": 60},
        first_player="Ana",
    )  # fmt: skip
    store = MatchStore(tmp_path / "live.db")
    session = LiveSession.open(store, LiveSetup(config, SOURCE), now_iso=NOW)
    shot = parse_shot(json.loads(HIDDEN_PIN.read_text())["shot"], "shot")
    held = session.submit(analyzed(shot), video_t_s=1.0, now_iso=NOW).pending
    assert held is not None and held.if_accepted.verdict.points == 8
    # The centre pin stood: the referee gives the stroke the carom's 2 points only.
    update = session.decide(ReviewDecision(DecisionKind.POINTS, 2), who="ref", now_iso=NOW)
    ana = update.state.scores["Ana"]
    assert update.state.shooter == "Ben"  # it was given back to Ana before
    assert (ana.points, ana.runs, ana.high_run, ana.corrected) == (2, (2,), 2, 0) and _sound(ana)
    assert LiveSession.load(store, session.match_id).state == update.state

"""A review a person decided is marked in the export (``review_decision``), on real SQLite
files: the decision, why the shot was held, the doubtful events as vision saw them, who
and when. The shot itself already holds the decision, so ``carom score`` on the export
gives the same score; the mark survives a reload and a foul called after it, and the
per-shot CSV shows it. A foul called on the held shot is a decision too; an event only
uncertain in time is among the doubtful ones; a ``points`` decision an earlier version
stored says it was applied as corrections."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator

from carom.live import (
    DecisionKind,
    FoulCall,
    LiveSession,
    LiveSetup,
    MatchStore,
    ReviewDecision,
    shot_log,
)
from carom.match import score_file
from carom.report import shot_csv_text
from referee import Foul, ShotLogError, parse_shot, parse_shot_log
from tests.carom.live.shotpool import (
    GOLDEN,
    NOW,
    SOURCE,
    analyzed,
    example_inputs,
    example_setup,
    held_example,
    long_config,
)
from tests.carom.report.shot_csv_check import check_against_log

SCHEMA = json.loads((Path(__file__).parents[3] / "docs" / "shot-log.schema.json").read_text())
LATER = "2026-11-29T23:05:00+00:00"


def _decided(tmp_path: Path, decision: ReviewDecision) -> tuple[LiveSession, dict[str, Any]]:
    """The example match with its held shot decided by "Eva" at LATER; the export's shot."""
    session = held_example(tmp_path)
    held = session.pending
    assert held is not None
    session.decide(decision, who="Eva", now_iso=LATER)
    doc = shot_log(session)
    (shot,) = [s for s in doc["shots"] if s["index"] == held.shot.index]
    return session, shot


@pytest.mark.parametrize("decision", ["accept", "reject", "points"])
def test_the_decision_why_the_shot_was_held_and_who_decided_are_in_the_export(
    tmp_path: Path, decision: str
) -> None:
    kind = DecisionKind(decision)
    given = ReviewDecision(kind, 1 if kind is DecisionKind.POINTS else None)
    held = held_example(tmp_path / "probe").pending
    assert held is not None
    seen = [e for e in held.shot.events if e.doubt is not None]
    assert seen, "the example's held shot has doubtful events"
    session, shot = _decided(tmp_path, given)
    mark = shot["review_decision"]
    assert mark["decision"] == decision and mark["held_for"] == held.reason
    assert (mark["by"], mark["at"]) == ("Eva", LATER)
    assert mark.get("points") == given.points
    assert [e["doubt"] for e in mark["doubtful_events"]] == [e.doubt for e in seen]
    assert [e["t_s"] for e in mark["doubtful_events"]] == [e.t_s for e in seen]
    kept = [e["t_s"] for e in shot["events"]]
    assert all("doubt" not in e for e in shot["events"])  # settled: the shot has none left
    dropped = kind is DecisionKind.REJECT
    assert all((e.t_s in kept) != dropped for e in seen)
    # Every other shot was judged alone: no mark.
    assert [s["index"] for s in shot_log(session)["shots"] if "review_decision" in s] == [
        shot["index"]
    ]


def test_the_export_passes_the_schema_the_reader_and_scores_the_same(tmp_path: Path) -> None:
    session, shot = _decided(tmp_path, ReviewDecision(DecisionKind.REJECT))
    doc = shot_log(session)
    assert shot["review_decision"]["doubtful_events"]  # a mark with events in it
    Draft202012Validator(SCHEMA).validate(doc)
    parse_shot_log(doc)
    log = tmp_path / "export.json"
    log.write_text(json.dumps(doc), encoding="utf-8")
    assert score_file(log).match.state.scores == session.state.scores


def test_the_mark_is_read_back_from_the_journal_after_a_reload(tmp_path: Path) -> None:
    session, shot = _decided(tmp_path, ReviewDecision(DecisionKind.ACCEPT))
    again = LiveSession.load(session._store, session.match_id)
    assert shot_log(again) == shot_log(session)
    assert shot in shot_log(again)["shots"] and shot["review_decision"]["by"] == "Eva"


def test_a_foul_called_after_the_decision_keeps_the_mark(tmp_path: Path) -> None:
    session, shot = _decided(tmp_path, ReviewDecision(DecisionKind.ACCEPT))
    session.call(FoulCall(Foul.PUSH), who="Eva", now_iso=LATER)
    (called,) = [s for s in shot_log(session)["shots"] if s["index"] == shot["index"]]
    assert called["events"][-1] == {"t_s": called["events"][-1]["t_s"], "kind": "call",
                                     "foul": "push"}  # fmt: skip
    assert called["review_decision"] == shot["review_decision"]
    assert called["verdict"]["fouls"] == ["push"]


def test_a_shot_played_while_scoring_was_paused_says_so(tmp_path: Path) -> None:
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), example_setup(), now_iso=NOW)
    inputs = example_inputs()
    session.submit(inputs[0], video_t_s=0.0, now_iso=NOW)
    session.set_paused("camera lost", now_iso=NOW)
    session.submit(inputs[1], video_t_s=1.0, now_iso=NOW)
    session.decide(ReviewDecision(DecisionKind.ACCEPT), who="Eva", now_iso=LATER)
    (shot,) = shot_log(session)["shots"]
    mark = shot["review_decision"]
    assert mark["decision"] == "accept" and "paused (camera lost)" in mark["held_for"]
    assert mark["doubtful_events"] == []  # nothing was in doubt: only the camera was away


def test_the_shot_csv_shows_the_decision_and_why_the_shot_was_held(tmp_path: Path) -> None:
    session, shot = _decided(tmp_path, ReviewDecision(DecisionKind.POINTS, 0))
    doc = shot_log(session)
    rows = check_against_log(shot_csv_text(doc, "1"), doc, "1")  # each cell from the log
    (row,) = [r for r in rows if r["shot"] == str(shot["index"])]
    assert row["review_decision"] == "points 0"
    assert row["held_for"] == shot["review_decision"]["held_for"] != ""
    assert row["review"] == ""  # the verdict as decided asks for nothing more
    assert all(r["review_decision"] == r["held_for"] == "" for r in rows if r is not row)


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"decision": "overrule"}, "review_decision.decision: unknown decision 'overrule'"),
        ({"points": 1}, "review_decision.points: only with the decision 'points' \\(this one"),
        ({"points": None}, "review_decision.points: only with the decision 'points'"),
        ({"by_corrections": False}, "review_decision.by_corrections: only with the decision 'po"),
        ({"decision": "points"}, "review_decision.points: required field is missing"),
        ({"decision": "points", "points": 1, "by_corrections": 1},
         "review_decision.by_corrections: expected true or false"),
        ({"decision": "points", "points": -1}, "review_decision.points: "),
        ({"held_for": 3}, "review_decision.held_for: expected a non-empty string"),
        ({"by": ["Eva"]}, "review_decision.by: expected a non-empty string"),
        ({"doubtful_events": [{"t_s": 1.0, "kind": "kiss"}]},
         "review_decision.doubtful_events[0].kind: unknown event kind"),
        ({"note": "x"}, "review_decision.note: unknown field"),
    ],
)  # fmt: skip
def test_a_malformed_mark_is_refused_with_the_field_named(
    tmp_path: Path, change: dict[str, Any], message: str
) -> None:
    session, shot = _decided(tmp_path, ReviewDecision(DecisionKind.ACCEPT))
    doc = shot_log(session)
    (bad,) = [s for s in doc["shots"] if s["index"] == shot["index"]]
    bad["review_decision"] = bad["review_decision"] | change
    with pytest.raises(ShotLogError, match=message.replace("[", r"\[").replace("]", r"\]")):
        parse_shot_log(doc)
    assert not Draft202012Validator(SCHEMA).is_valid(doc)


def _time_doubt(tmp_path: Path) -> LiveSession:
    """A shot held because one cushion's time is uncertain (``t_err_s``), not doubtful.

    As vision gives them, every event has a small time error (2 ms); the head cushion's
    30 ms decides the call.
    """
    doc = json.loads((GOLDEN / "third_cushion_time_overlaps_second_ball.review.json").read_text())
    for event in doc["shot"]["events"]:
        event.setdefault("t_err_s", 0.002)
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), LiveSetup(long_config(), SOURCE),
                               now_iso=NOW)  # fmt: skip
    session.submit(analyzed(parse_shot(doc["shot"], "shot")), video_t_s=0.0, now_iso=NOW)
    assert session.pending is not None and "time uncertain" in session.pending.reason
    return session


@pytest.mark.parametrize("decision", [DecisionKind.ACCEPT, DecisionKind.REJECT])
def test_an_event_uncertain_in_time_is_in_the_mark_and_stays_in_the_shot(
    tmp_path: Path, decision: DecisionKind
) -> None:
    session = _time_doubt(tmp_path)
    session.decide(ReviewDecision(decision), who="Eva", now_iso=LATER)
    (shot,) = shot_log(session)["shots"]
    (unsure,) = shot["review_decision"]["doubtful_events"]
    assert (unsure["kind"], unsure["cushion"], unsure["t_err_s"]) == ("cushion", "head", 0.03)
    assert unsure["confidence"] == 0.97  # vision's, as it was handed over (shotpool)
    kept = [e for e in shot["events"] if e["t_s"] == unsure["t_s"]]
    assert kept == [{"t_s": unsure["t_s"], "kind": "cushion", "ball": "white", "cushion": "head",
                     "confidence": 0.97}]  # fmt: skip


def test_a_doubtful_event_keeps_vision_s_confidence_and_evidence_when_rejected(
    tmp_path: Path,
) -> None:
    _, shot = _decided(tmp_path, ReviewDecision(DecisionKind.REJECT))
    for event in shot["review_decision"]["doubtful_events"]:
        assert (event["confidence"], event["evidence"]) == (0.55, "gap 0.4 mm")


def test_a_foul_called_on_the_held_shot_is_the_decision(tmp_path: Path) -> None:
    session = held_example(tmp_path)
    held = session.pending
    assert held is not None
    session.call(FoulCall(Foul.PUSH), who="keyboard", now_iso=LATER)
    assert session.pending is None
    (shot,) = [s for s in shot_log(session)["shots"] if s["index"] == held.shot.index]
    mark = shot["review_decision"]
    assert (mark["decision"], mark["held_for"], mark["by"]) == ("foul", held.reason, "keyboard")
    assert shot["events"][-1]["kind"] == "call" and shot["verdict"]["fouls"] == ["push"]
    parse_shot_log(shot_log(session))
    Draft202012Validator(SCHEMA).validate(shot_log(session))


def test_points_stored_by_an_earlier_version_say_they_are_corrections(tmp_path: Path) -> None:
    """A ``decide`` entry without ``stroke`` (the code before wrote it so) replays as the
    accepted shot and corrections, which a shot log cannot hold: the mark says so."""
    session = held_example(tmp_path)
    held = session.pending
    assert held is not None
    session._commit("decide", {"decision": "points", "points": 0}, None, "keyboard", LATER)
    doc = shot_log(session)
    (shot,) = [s for s in doc["shots"] if s["index"] == held.shot.index]
    assert shot["review_decision"]["points"] == 0
    assert shot["review_decision"]["by_corrections"] is True
    assert "decided_points" not in shot
    parse_shot_log(doc)
    Draft202012Validator(SCHEMA).validate(doc)


def test_the_mark_s_points_are_the_shot_s_decided_points(tmp_path: Path) -> None:
    """The reader holds the mark to its shot (a JSON Schema cannot compare two fields)."""
    _, accepted = _decided(tmp_path / "accept", ReviewDecision(DecisionKind.ACCEPT))
    mark = accepted["review_decision"] | {"decision": "points", "points": 1}
    with pytest.raises(ShotLogError, match="points: 1, but the shot's decided_points is none"):
        parse_shot(accepted | {"review_decision": mark}, "shots[7]")
    _, shot = _decided(tmp_path / "points", ReviewDecision(DecisionKind.POINTS, 1))
    for change, message in (
        ({"points": 0}, "review_decision.points: 0, but the shot's decided_points is 1"),
        ({"by_corrections": True}, "review_decision.by_corrections: true, but the shot has "
                                   "decided_points"),
        ({"decision": "accept"}, "review_decision.decision: 'accept', but the shot has "
                                 "decided_points"),
    ):  # fmt: skip
        mark = shot["review_decision"] | change
        if mark["decision"] != "points":
            del mark["points"]
        bad = shot | {"review_decision": mark}
        with pytest.raises(ShotLogError, match=message):
            parse_shot(bad, "shots[7]")
    assert parse_shot(shot, "shots[7]").decided_points == 1

"""The match state machine: lag, innings, targets, equalizing, limits, sets [rules.md §2-5]."""

from __future__ import annotations

import math
import re
from dataclasses import replace

import pytest

from referee import (
    CALL_FOULS,
    Ball,
    BallContact,
    Call,
    Correction,
    CorrectionKind,
    Cushion,
    CushionContact,
    Discipline,
    Foul,
    IllegalMoveError,
    Lag,
    Match,
    MatchConfig,
    NextPosition,
    OffTable,
    Phase,
    RuleOptions,
    RulesError,
    Shot,
    StartState,
    UnknownBallError,
    match_stats,
)
from tests.referee.factories import R, W, Y, config, drive, point


def test_first_stroke_is_a_break_and_run_continues_after_a_point() -> None:
    match = Match(config())
    assert match.state.next_position is NextPosition.BREAK
    (rec,) = drive(match, "p")
    assert rec.player == "A" and rec.run == 1 and not rec.verdict.inning_ends
    assert match.state.shooter == "A"
    assert match.state.next_position is NextPosition.PLAY_ON


def test_a_miss_passes_the_turn_and_counts_innings_per_player() -> None:
    match = Match(config(target=10))
    drive(match, "ppm m pm")
    a, b = match.state.scores["A"], match.state.scores["B"]
    assert (a.points, a.innings, a.runs) == (3, 2, (2, 1))
    assert (b.points, b.innings, b.runs) == (0, 1, (0,))
    assert match.state.shooter == "B"


def test_section5_equalizing_inning_breaker_wins_when_opponent_misses() -> None:
    match = Match(config(target=2))
    records = drive(match, "pp")
    assert "equalizing inning for B" in records[-1].note
    assert match.state.equalizing and match.state.shooter == "B"
    assert match.state.next_position is NextPosition.BREAK  # equalizing_from_break
    drive(match, "pm")
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


def test_section5_equalizing_inning_can_end_in_a_draw() -> None:
    match = Match(config(target=2))
    drive(match, "pp pp")
    assert match.state.phase is Phase.OVER
    assert match.state.draw and match.state.winner is None


def test_without_equalizing_the_breaker_wins_at_once() -> None:
    match = Match(config(target=2, equalizing=False))
    drive(match, "pp")
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


def test_non_breaker_reaching_target_wins_without_equalizing_inning() -> None:
    match = Match(config(target=2))
    drive(match, "m pp")
    assert match.state.winner == "B"


def test_handicap_targets_per_player() -> None:
    match = Match(config(target={"A": 3, "B": 1}, equalizing=False))
    drive(match, "ppm")
    assert match.state.phase is Phase.PLAYING
    drive(match, "p")
    assert match.state.winner == "B"


def test_inning_limit_ends_after_the_second_player_and_higher_score_wins() -> None:
    match = Match(config(target=50, innings_limit=2))
    drive(match, "pm m pm")
    assert match.state.phase is Phase.PLAYING  # B still has inning 2
    drive(match, "m")
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


def test_inning_limit_with_equal_scores_is_a_draw() -> None:
    match = Match(config(target=50, innings_limit=1))
    drive(match, "pm pm")
    assert match.state.draw


def test_sets_best_of_three_alternate_breaks() -> None:
    match = Match(config(target=1, sets=3, equalizing=False))
    drive(match, "p")  # A breaks and wins set 1
    assert match.state.set_index == 1 and match.state.sets_won == {"A": 1, "B": 0}
    assert match.state.breaker == "B" and match.state.shooter == "B"
    assert match.state.next_position is NextPosition.BREAK
    assert match.state.scores["A"].points == 0
    drive(match, "p")  # B wins set 2
    assert match.state.breaker == "A"
    drive(match, "m p")  # A misses, B wins set 3
    assert match.state.phase is Phase.OVER and match.state.winner == "B"
    stats = match_stats(match.state)
    assert stats["B"].sets_won == 2 and stats["B"].points == 2 and stats["A"].points == 1


def test_section3_break_must_hit_red_first_in_the_match() -> None:
    match = Match(config())
    shot = Shot(index=0, cue_ball=W, events=(BallContact(t_s=0.2, balls=(W, Y)),))
    rec = match.play(shot)
    assert rec.verdict.fouls and match.state.shooter == "B"
    # Only the first stroke of a game is a break.
    assert match.state.next_position is NextPosition.PLAY_ON


def test_section4_own_ball_off_gives_opponent_the_break_position() -> None:
    match = Match(config())
    shot = Shot(
        index=0,
        cue_ball=W,
        events=(BallContact(t_s=0.2, balls=(W, R)), OffTable(t_s=0.9, ball=W)),
    )
    match.play(shot)
    assert match.state.shooter == "B"
    assert match.state.next_position is NextPosition.BREAK


def test_wrong_ball_is_a_foul_for_the_shooter() -> None:
    match = Match(config())
    rec = match.play(point(0, Y))  # A plays B's yellow
    assert rec.verdict.points == 0 and "wrong_ball" in rec.verdict.fouls
    assert match.state.scores["A"].points == 0


# --- lag [rules.md §2] ----------------------------------------------------


def _lag_events(white_cushions: tuple[Cushion, ...], yellow_cushions: tuple[Cushion, ...]) -> tuple:
    events = [CushionContact(t_s=1.0 + i, ball=W, cushion=c) for i, c in enumerate(white_cushions)]
    events += [
        CushionContact(t_s=1.1 + i, ball=Y, cushion=c) for i, c in enumerate(yellow_cushions)
    ]
    return tuple(sorted(events, key=lambda e: e.t_s))


def _lag(events: tuple, white_x: float = 150.0, yellow_x: float = 300.0) -> Lag:
    return Lag(
        events=events,
        start_positions_mm={W: (300.0, 400.0), Y: (300.0, 1000.0)},
        end_positions_mm={W: (white_x, 400.0), Y: (yellow_x, 1000.0)},
    )


def test_section2_lag_nearer_head_cushion_wins_and_breaks() -> None:
    match = Match(config(first=None))
    assert match.state.phase is Phase.LAG
    result = match.lag(_lag(_lag_events((Cushion.FOOT,), (Cushion.FOOT,))))
    assert result.winner == "A" and match.state.shooter == "A"
    assert match.state.phase is Phase.PLAYING


def test_section2_lag_without_foot_cushion_loses() -> None:
    result = Match(config(first=None)).lag(_lag(_lag_events((), (Cushion.FOOT,))))
    assert result.winner == "B"
    assert "never touched the foot cushion" in result.faults["A"]


def test_section2_lag_touching_red_or_crossing_loses() -> None:
    events = (
        *_lag_events((Cushion.FOOT,), (Cushion.FOOT, Cushion.LEFT)),
        BallContact(t_s=5.0, balls=(W, R)),
    )
    result = Match(config(first=None)).lag(_lag(events))
    assert "touched the red" in result.faults["A"]
    assert "crossed into the opponent's half" in result.faults["B"]
    assert result.winner is None  # both lost: lag again


def test_section2_lag_tie_is_replayed_and_state_stays_in_lag() -> None:
    match = Match(config(first=None))
    result = match.lag(_lag(_lag_events((Cushion.FOOT,), (Cushion.FOOT,)), 200.0, 200.5))
    assert result.winner is None and match.state.phase is Phase.LAG


def test_section2_five_pins_lag_long_cushion_loses() -> None:
    cfg = config(Discipline.FIVE_PINS, first=None)
    result = Match(cfg).lag(_lag(_lag_events((Cushion.FOOT, Cushion.LEFT), (Cushion.FOOT,))))
    assert "touched a long cushion" in result.faults["A"] and result.winner == "B"


def test_lag_entered_by_hand_with_breaker_choice() -> None:
    match = Match(config(first=None))
    result = match.lag(Lag(winner="A", breaker="B"))
    assert result.winner == "A" and match.state.breaker == "B" and match.state.shooter == "B"


# --- illegal input changes nothing -----------------------------------------


@pytest.mark.parametrize("index", [1, 5, -1])
def test_a_shot_out_of_order_is_refused_and_changes_nothing(index: int) -> None:
    """As the shot-log reader refuses ``shots[1].index: expected 1``: a shot built in Python
    is recorded only as the next one (it was recorded under any index, twice too)."""
    match = Match(config())
    match.play(point(0, W))
    before = match.state
    with pytest.raises(RulesError, match=r"shot -?\d+: expected index 1|index: expected a whole"):
        match.play(point(index if index != 1 else 0, W))
    assert match.state is before and len(match.records) == 1
    match.play(point(1, W))  # the next one is taken
    assert [r.index for r in match.records] == [0, 1]


@pytest.mark.parametrize("foul", sorted(set(Foul) - CALL_FOULS))
def test_a_call_of_a_foul_no_person_calls_is_refused_and_changes_nothing(foul: Foul) -> None:
    """The shot-log reader's rule: only the fouls a camera cannot see are called."""
    match = Match(config())
    before = match.state
    shot = Shot(index=0, cue_ball=W, events=(Call(t_s=1.0, foul=foul),))
    with pytest.raises(RulesError, match=f"'{foul}' cannot be called \\(callable: "):
        match.play(shot)
    assert match.state is before and not match.records


@pytest.mark.parametrize(
    ("name", "what"),
    [("B\ud800n", "half of a UTF-16 pair (U+D800)"), ("Ben\n2", "a control character (U+000A)"),
     ("\x1b[31mRed", "a control character (U+001B)")],
)  # fmt: skip
def test_a_player_name_a_scoresheet_cannot_print_is_refused(name: str, what: str) -> None:
    """``carom score`` ended in an internal error on a ``\\ud800`` escape; a newline or a
    terminal escape in a name broke the scoresheet's lines."""
    with pytest.raises(RulesError, match=re.escape(f"holds {what}; give names of printable")):
        _two(name)
    assert _two("Zoë Ñandú 김").players[1] == "Zoë Ñandú 김"


def _two(name: str) -> MatchConfig:
    return MatchConfig(discipline=Discipline.THREE_CUSHION, players=("Ana", name),
                       cue_balls={"Ana": W, name: Y}, target={"Ana": 3, name: 3})  # fmt: skip


def test_a_shot_given_as_its_json_object_is_a_rules_error_naming_parse_shot() -> None:
    """It was an AttributeError: every error of the library is a CaromError."""
    match = Match(config())
    before = match.state
    with pytest.raises(RulesError, match=r"play: expected a Shot, got dict \(parse_shot reads"):
        match.play({"index": 0, "cue_ball": "white", "events": []})  # type: ignore[arg-type]
    assert match.state is before


def test_shot_before_lag_is_illegal() -> None:
    match = Match(config(first=None))
    before = match.state
    with pytest.raises(IllegalMoveError, match="lag"):
        match.play(point(0, W))
    assert match.state is before


def test_lag_twice_is_illegal() -> None:
    match = Match(config())
    with pytest.raises(IllegalMoveError):
        match.lag(Lag(winner="A"))


def test_shot_after_match_end_is_illegal_and_changes_nothing() -> None:
    match = Match(config(target=1, equalizing=False))
    drive(match, "p")
    before = match.state
    with pytest.raises(IllegalMoveError, match="over"):
        match.play(point(1, Y))
    assert match.state is before and len(match.records) == 1


def test_unknown_ball_is_rejected_and_changes_nothing() -> None:
    match = Match(config())
    before = match.state
    shot = Shot(index=0, cue_ball=W, events=(BallContact(t_s=0.1, balls=(W, Ball.WHITE1)),))
    with pytest.raises(UnknownBallError, match="white1"):
        match.play(shot)
    assert match.state is before


def test_a_lag_won_by_someone_not_in_the_match_is_refused_and_changes_nothing() -> None:
    """It was taken: the match then had a shooter no shot or correction could follow."""
    match = Match(config(first=None))
    before = match.state
    for lag in (Lag(winner="Zed"), Lag(winner="A", breaker="Zed")):
        with pytest.raises(RulesError, match=r"is not a player of this match \(A, B\)"):
            match.lag(lag)
        assert match.state is before


@pytest.mark.parametrize(
    ("event", "said"),
    [
        (BallContact(t_s=math.nan, balls=(W, R)), r"shot 0.events\[0\].t_s: expected a finite"),
        (BallContact(t_s=math.inf, balls=(W, R)), r"t_s: expected a finite number, got inf"),
        (
            BallContact(t_s=0.1, balls=(W, R), t_err_s=-1.0),
            r"t_err_s: expected a finite number >= 0",
        ),
        (BallContact(t_s=0.1, balls=(W, W)), r"balls: a ball cannot touch itself \(white\)"),
        (CushionContact(t_s=0.1, ball=W, cushion="top"), r"cushion: expected a Cushion, got 'top'"),
        ("hit", r"events\[0\]: not an event \(got str\)"),
    ],
)  # type: ignore[misc]
def test_events_a_shot_log_could_not_hold_are_refused_and_change_nothing(
    event: object, said: str
) -> None:
    """What the shot-log reader refuses, Python may not play: a NaN time was judged (a
    break's wrong first ball) and then written as ``NaN``, which no reader takes back."""
    match = Match(config())
    before = match.state
    with pytest.raises(RulesError, match=said):
        match.play(Shot(index=0, cue_ball=W, events=(event,)))  # type: ignore[arg-type]
    assert match.state is before and not match.records


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"index": "0"}, r"shot 0.index: expected a whole number >= 0, got '0'"),
        ({"start_s": math.nan}, r"start_s: expected a finite number or None, got nan"),
        ({"end_s": math.inf}, r"end_s: expected a finite number or None, got inf"),
        ({"doubt": 5}, r"doubt: expected words or None, got 5"),
        ({"start_positions_mm": None}, r"start_positions_mm: expected a mapping of balls"),
        ({"end_positions_mm": {W: (math.nan, 1.0)}}, r"end_positions_mm.white: expected \(x, y\)"),
        ({"paths_mm": None}, r"paths_mm: expected a mapping of balls"),
        # What the reader refused and Python played (found by a review as a library user):
        ({"start_s": 10.0, "end_s": 2.0}, r"shot 0.end_s: 2.0 s is before start_s 10.0 s"),
        ({"start_s": 0.0, "end_s": 3.0, "events": (BallContact(t_s=312.0, balls=(W, R)),)},
         r"shot 0.events\[0\].t_s: 312.0 s lies outside its shot \(0.0..3.0 s\)"),
        ({"start_positions_mm": {W: (-5000.0, 9e9)}}, r"within 100 m of the table"),
        ({"paths_mm": {W: ((0.0, math.nan, math.inf),)}}, r"paths_mm.white\[0\]: expected"),
        ({"paths_mm": {W: "xyz"}}, r"paths_mm.white: expected \(t_s, x_mm, y_mm\) samples"),
        ({"events": (BallContact(t_s=0.1, balls=(W, R), doubt=5),)},  # type: ignore[arg-type]
         r"events\[0\].doubt: expected words or None, got 5"),
        ({"is_break": "no"}, r"shot 0.is_break: expected True or False, got 'no'"),
        ({"safety": 1}, r"shot 0.safety: expected True or False, got 1"),
    ],
)  # fmt: skip
def test_a_shot_a_log_could_not_hold_is_refused_and_changes_nothing(
    fields: dict[str, object], said: str
) -> None:
    """A NaN start time, positions of None or a doubt of 5 were raw errors or judged."""
    match = Match(config())
    before = match.state
    with pytest.raises(RulesError, match=said):
        match.play(replace(point(0, W), **fields))  # type: ignore[arg-type]
    assert match.state is before


def test_events_listed_out_of_time_order_are_judged_in_time_order_as_from_a_log() -> None:
    """An early graze listed last: Python judged the list's order (a point), the log
    reader its sorted order (1 cushion before the second ball), for the same shot."""
    from referee import parse_shot, shot_json

    shot = Shot(index=0, cue_ball=W, events=(
        BallContact(t_s=0.3, balls=(W, R)),
        CushionContact(t_s=0.7, ball=W, cushion=Cushion.RIGHT),
        CushionContact(t_s=1.4, ball=W, cushion=Cushion.FOOT),
        CushionContact(t_s=1.9, ball=W, cushion=Cushion.LEFT),
        BallContact(t_s=2.5, balls=(W, Y)),
        BallContact(t_s=0.95, balls=(W, Y)),
    ))  # fmt: skip
    by_python = Match(config()).play(shot).verdict
    by_log = Match(config()).play(parse_shot(shot_json(shot), "s")).verdict
    assert by_python == by_log and by_python.points == 0
    assert "1 cushion before the second ball" in by_python.reason


def test_a_shot_starting_before_the_one_before_it_is_refused_and_changes_nothing() -> None:
    """carom score refuses it in a log (check_shot_order); Match.play took it."""
    match = Match(config())
    match.play(replace(point(0, W), start_s=0.5, end_s=4.0))
    before = match.state
    with pytest.raises(RulesError, match=r"shot 1.start_s: 0.0 s is before the shot before it"):
        match.play(replace(point(1, W), start_s=0.0, end_s=4.0))
    assert match.state is before
    match.undo()  # the first shot undone: nothing before the same shot any more
    match.play(replace(point(0, W), start_s=0.0, end_s=4.0))


def test_a_lag_with_nan_in_it_is_refused_not_decided() -> None:
    """A NaN contact time decided the lag; NaN positions made it "lag again"."""
    match = Match(config(first=None))
    before = match.state
    nan_event = CushionContact(t_s=math.nan, ball=W, cushion=Cushion.FOOT)
    for lag in (Lag(events=(nan_event,), start_positions_mm={W: (0.0, 0.0)}),
                Lag(end_positions_mm={W: (math.nan, 0.0)}),
                Lag(start_positions_mm=None)):  # type: ignore[arg-type]  # fmt: skip
        with pytest.raises(RulesError, match=r"lag\.(events\[0\]\.t_s|end_positions_mm|start_)"):
            match.lag(lag)
        assert match.state is before


def test_a_config_of_the_wrong_types_is_one_rules_error() -> None:
    """One number for both targets, or no players, was a TypeError from deep inside."""
    way = (r"target: expected a mapping of player names, got 40; the same for all: "
           r"dict\.fromkeys\(players, 40\)$")  # fmt: skip
    seven = (r"target: expected a mapping of player names, got 500; pin-carom-7 counts down "
             r"from start_count: give start_count=500 and "
             r"target=dict\.fromkeys\(players, 500\)$")  # fmt: skip
    for fields, said in (({"target": 40}, way), ({"target": True}, r"got True$"),
                         ({"target": -3}, r"got -3$"), ({"target": 2.5}, r"got 2\.5$"),
                         ({"discipline": Discipline.PIN_CAROM_7, "target": 500}, seven),
                         ({"cue_balls": None}, "cue_balls: expected a mapping"),
                         ({"players": None}, "players: expected a tuple of names")):  # fmt: skip
        with pytest.raises(RulesError, match=said):
            replace(config(), **fields)  # type: ignore[arg-type]
    # The 7-pin way out, followed: the board counts down from 500; with start_count given,
    # the target alone is asked for.
    seven_pins = {"discipline": Discipline.PIN_CAROM_7, "cue_balls": {}}
    done = replace(config(), **seven_pins, start_count=500, target=dict.fromkeys(("A", "B"), 500))
    assert done.countdown_from == 500
    with pytest.raises(RulesError, match=r"got 500; the same for all: dict\.fromkeys"):
        replace(config(), **seven_pins, start_count=500, target=500)  # type: ignore[arg-type]
    assert replace(config(), players=["A", "B"]).players == ("A", "B")  # type: ignore[arg-type]


def test_a_discipline_s_name_is_its_member_and_an_unknown_name_one_line() -> None:
    """The rules compare by identity: the plain name was judged as another game's break."""
    named = config(discipline="three-cushion")  # type: ignore[arg-type]
    assert named.discipline is Discipline.THREE_CUSHION
    with pytest.raises(RulesError, match=r"discipline 'snooker': unknown; one of three-cushion"):
        config(discipline="snooker")  # type: ignore[arg-type]
    for target in ({"A": "40", "B": 40}, {"A": 2.5, "B": 40}, {"A": True, "B": 40}):
        with pytest.raises(RulesError, match="positive whole number of points"):
            config(target=target)  # type: ignore[arg-type]


@pytest.mark.parametrize(
    ("option", "said"),
    [
        ({"frozen_tolerance_mm": -5.0}, "rules.frozen_tolerance_mm: must be at least 0"),
        ({"break_layout_mm": math.nan}, "rules.break_layout_mm: expected a finite number"),
        ({"corner_zone_limit": 0}, "rules.corner_zone_limit: must be at least 1"),
        ({"safety_rule": "yes"}, "rules.safety_rule: expected true or false"),
    ],
)
def test_rule_options_built_in_python_are_checked_as_a_file_s(
    option: dict[str, object], said: str
) -> None:
    """A negative tolerance or a NaN was taken and changed verdicts without a word."""
    with pytest.raises(RulesError, match=said):
        RuleOptions(**option)  # type: ignore[arg-type]


def test_a_match_of_no_config_or_a_bad_undo_depth_is_one_rules_error() -> None:
    with pytest.raises(RulesError, match="config: expected a MatchConfig, got NoneType"):
        Match(None)  # type: ignore[arg-type]
    with pytest.raises(RulesError, match="undo_depth: expected None or >= 0, got '3'"):
        Match(config(), undo_depth="3")  # type: ignore[arg-type]


def test_a_misspelt_correction_is_refused_and_changes_nothing() -> None:
    """``kind="typo"`` granted the break position; 1.5 points raised a ValueError."""
    match = Match(config())
    before = match.state
    for kw in ({"kind": "typo"}, {"kind": "points", "points": 1.5}, {"kind": "points",
                                                                      "points": "2"}):  # fmt: skip
        with pytest.raises(RulesError, match=r"correction (kind 'typo': unknown|points: a whole)"):
            match.correct(Correction(player="A", **kw))  # type: ignore[arg-type]
        assert match.state is before
    assert Correction(kind="turn", player="B").kind is CorrectionKind.TURN  # type: ignore[arg-type]


# --- undo and corrections --------------------------------------------------


def test_undo_restores_the_previous_state_and_keeps_an_audit_trail() -> None:
    match = Match(config(target=10))
    drive(match, "pp")
    before = match.state
    drive(match, "m")
    restored = match.undo()
    assert restored.scores == before.scores and restored.shooter == "A"
    assert restored.audit[-1].action == "undo" and "shot 2" in restored.audit[-1].detail
    assert restored.version > before.version
    assert len(match.records) == 2


def test_undo_with_nothing_to_undo_is_illegal() -> None:
    with pytest.raises(IllegalMoveError):
        Match(config()).undo()


def test_undo_reopens_a_finished_match() -> None:
    match = Match(config(target=1, equalizing=False))
    drive(match, "p")
    match.undo()
    assert match.state.phase is Phase.PLAYING


def test_correction_adds_points_and_is_audited() -> None:
    match = Match(config(target=10))
    drive(match, "pm")
    state = match.correct(Correction(CorrectionKind.POINTS, "A", 1, note="camera missed a kiss"))
    assert state.scores["A"].points == 2 and state.scores["A"].corrected == 1
    assert state.audit[-1].detail == "+1 points to A (camera missed a kiss)"


def test_correction_cannot_take_a_score_below_zero() -> None:
    match = Match(config(target=10))
    before = match.state
    with pytest.raises(IllegalMoveError):
        match.correct(Correction(CorrectionKind.POINTS, "B", -1))
    assert match.state is before


def test_a_refused_correction_counts_the_points_left_in_words() -> None:
    match = Match(config(target=10))
    drive(match, "pm")  # A made one
    for have, taken in (("1 point", -2), ("1 point", -3)):
        with pytest.raises(IllegalMoveError, match=rf"^correction: A has only {have}$"):
            match.correct(Correction(CorrectionKind.POINTS, "A", taken))
    with pytest.raises(IllegalMoveError, match=r"^correction: B has only 0 points$"):
        match.correct(Correction(CorrectionKind.POINTS, "B", -1))


def test_correction_giving_the_turn_back_resumes_the_inning() -> None:
    match = Match(config(target=10))
    drive(match, "ppm")  # the camera called the third stroke a miss
    match.undo()
    drive(match, "m")
    state = match.correct(Correction(CorrectionKind.TURN, "A"))
    a = state.scores["A"]
    assert state.shooter == "A" and a.in_inning and a.current_run == 2 and a.innings == 1
    drive(match, "p")
    assert match.state.scores["A"].current_run == 3


def test_correction_for_unknown_player_is_rejected() -> None:
    match = Match(config())
    with pytest.raises(UnknownBallError):
        match.correct(Correction(CorrectionKind.POINTS, "Zed", 1))


def test_correction_reaching_the_target_ends_the_game() -> None:
    match = Match(config(target=2, equalizing=False))
    drive(match, "p")
    match.correct(Correction(CorrectionKind.POINTS, "A", 1))
    assert match.state.phase is Phase.OVER and match.state.winner == "A"


def test_section5_frozen_player_may_ask_for_the_break_position() -> None:
    match = Match(config(target=10))
    drive(match, "p")
    with pytest.raises(IllegalMoveError):
        match.correct(Correction(CorrectionKind.BREAK_POSITION, "B"))
    state = match.correct(Correction(CorrectionKind.BREAK_POSITION, "A"))
    assert state.next_position is NextPosition.BREAK and state.shooter == "A"
    assert state.audit[-1].detail == "break position for A"


def test_section4_safety_rule_tracks_safeties_across_innings() -> None:
    from referee import RuleOptions

    match = Match(config(target=10, options=RuleOptions(safety_rule=True)))
    safety = Shot(
        index=0,
        cue_ball=W,
        safety=True,
        events=(
            BallContact(t_s=0.3, balls=(W, R)),
            CushionContact(t_s=0.9, ball=R, cushion=Cushion.FOOT),
        ),
    )
    assert not match.play(safety).verdict.fouls
    assert match.state.must_attempt == {"A"}
    drive(match, "m")  # B misses
    again = match.play(replace(safety, index=2))
    assert list(again.verdict.fouls) == ["safety_repeated"]
    drive(match, "m")
    drive(match, "p")  # A scores: the obligation is met
    assert "A" not in match.state.must_attempt


@pytest.mark.parametrize(
    ("fields", "said"),
    [
        ({"sets": math.nan}, r"sets: expected a whole number, got nan"),
        ({"sets": "3"}, r"sets: expected a whole number, got '3'"),
        ({"sets": 3.0}, r"sets: expected a whole number, got 3.0"),
        ({"innings_limit": "x"}, r"innings_limit: expected a whole number, got 'x'"),
        ({"equalizing": "yes"}, r"equalizing: expected True or False, got 'yes'"),
        ({"table": "big"}, r"table: expected a Table, got 'big'"),
        ({"options": "x"}, r"options: expected a RuleOptions, got 'x'"),
        ({"start": StartState(board={"A": math.nan})}, r"start: .* whole numbers, got nan"),
        ({"start": StartState(innings={"A": 1.5})}, r"start: .* whole numbers, got 1.5"),
        ({"start": StartState(run="x")}, r"start: .* whole numbers, got 'x'"),  # type: ignore[arg-type]
        ({"start": StartState(next_break="no")}, r"next_break is True, False or None"),  # type: ignore[arg-type]
    ],
)  # fmt: skip
def test_a_set_up_of_the_wrong_kinds_is_a_rules_error(fields: dict[str, object], said: str) -> None:
    """A NaN number of sets made a match that never ended, a NaN start score a NaN board,
    a string a raw TypeError or an AttributeError at the first shot (found by a review as
    a library user)."""
    with pytest.raises(RulesError, match=said):
        replace(config(), **fields)  # type: ignore[arg-type]


def test_a_7_pin_start_count_below_one_is_refused_and_a_stranger_has_no_board() -> None:
    """start_count -5 showed -5 on both boards, 0 became 300 without a word; the board of
    a name not in the match was a KeyError."""
    seven = replace(config(), discipline=Discipline.PIN_CAROM_7, cue_balls={})
    for count in (-5, 0):
        with pytest.raises(RulesError, match=f"start_count must be at least 1, got {count}"):
            replace(seven, start_count=count)
    with pytest.raises(UnknownBallError, match=r"player 'Zed' is not one of 'A', 'B'"):
        Match(config()).state.board("Zed")


@pytest.mark.parametrize(
    ("make", "said"),
    [
        (lambda: Discipline("snooker"), r"'snooker' is not a discipline \(one of: three-cushion"),
        (lambda: Cushion("top"), r"'top' is not a cushion \(one of: head, foot, left, right\)"),
        (lambda: Ball("blue"), r"'blue' is not a ball \(one of: white, yellow, dotted, red"),
        (lambda: NextPosition("x"), r"'x' is not a next position"),
    ],
)
def test_a_name_outside_an_enumeration_is_a_carom_error_and_a_value_error(
    make: object, said: str
) -> None:
    """``Discipline("snooker")`` was a bare ValueError, outside the one error tree, while
    ``rules_of("snooker")`` was a RulesError (found by a review as a library user)."""
    from referee import CaromError, UnknownNameError

    with pytest.raises(UnknownNameError, match=said) as caught:
        make()  # type: ignore[operator]
    assert isinstance(caught.value, CaromError) and isinstance(caught.value, ValueError)


def test_a_table_of_the_wrong_kinds_and_an_unknown_spot_are_rules_errors() -> None:
    """``Table(length_mm="x")`` was a raw TypeError and ``Table().spot("x")`` a KeyError
    (found by a review as a library user)."""
    from referee import Table

    with pytest.raises(RulesError, match=r"table length_mm: expected a number of mm, got 'x'"):
        Table(length_mm="x")  # type: ignore[arg-type]
    with pytest.raises(RulesError, match=r"table width_mm: expected a number of mm, got True"):
        Table(width_mm=True)
    with pytest.raises(RulesError, match=r"spot: expected one of head, foot, .* got 'x'"):
        Table().spot("x")  # type: ignore[arg-type]

"""``carom live`` prints each shot's call as it is made, and a held shot as ``REVIEW:``."""

from __future__ import annotations

import json
import re
from dataclasses import replace
from pathlib import Path
from types import SimpleNamespace

import pytest

from carom.cli._live_lines import CallPrinter, shot_line
from carom.live import JOIN_ENGLISH, FoulCall, LiveSession, LiveSetup, MatchStore
from referee import Foul, Match, Shot, parse_shot, parse_shot_log, shot_json
from tests.carom.live._helpers import (
    TRUTH_LOG,
    carom_cmd,
    live_cmd,
    run_live,
    write_truth_calibration,
)
from tests.carom.live.shotpool import NOW, SOURCE, analyzed, example_inputs, example_log


def _truth_lines() -> list[str]:
    """The lines the sample's truth log gives, judged by the referee."""
    log = parse_shot_log(json.loads(TRUTH_LOG.read_text(encoding="utf-8")))
    match = Match(log.match)
    return [shot_line(match.play(shot), match.state) for shot in log.shots]


def test_what_the_referee_says_aloud_is_on_the_shot_s_line() -> None:
    """A five-pins foul's ball in hand: the players act on it (live printed only the foul,
    where analyze and score print the instruction; found by a club official)."""
    five = TRUTH_LOG.parent / "five_pins_match.shots.json"
    log = parse_shot_log(json.loads(five.read_text(encoding="utf-8")))
    match = Match(log.match)
    records = [match.play(shot) for shot in log.shots]
    fouled = [r for r in records if r.verdict.announcements]
    assert fouled, "the sample has a foul with ball in hand"
    match = Match(log.match)
    for shot in log.shots:
        record = match.play(shot)
        line = shot_line(record, match.state)
        assert "\n" not in line
        for said in record.verdict.announcements:
            assert line.endswith(said) or f"; {said};" in line, line
    assert any("Ball in hand for" in a for r in fouled for a in r.verdict.announcements)


def test_each_shot_is_one_line_on_stdout_as_judged_and_in_the_log(tmp_path: Path) -> None:
    calibration = write_truth_calibration(tmp_path / "cal.json")
    cmd = live_cmd(calibration, tmp_path / "live.db", None, "--pace", "0")
    log = tmp_path / "table1.log"
    cmd[len(carom_cmd()) : len(carom_cmd())] = ["--log-file", str(log)]  # before "live"
    done = run_live(cmd)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:-1] == _truth_lines()
    assert lines[0] == (
        "shot 0  A  +1  point: red then yellow after 3 cushions  (A 1 : 0 B); "
        "red is frozen to the left cushion"  # said aloud: the player may ask for the break
    )
    assert lines[1] == "shot 1  A  0  missed the second ball: hit only red, not yellow  (A 1 : 0 B)"
    assert lines[-1] == "A 1 : 2 B  (playing)"  # the result, after the calls
    # An unattended club PC finds every call in the log, with its time, in order.
    logged = [line.split(" INFO carom.live: ", 1)[1] for line in log.read_text().splitlines()
              if " INFO carom.live: " in line]  # fmt: skip
    assert [line for line in logged if line in lines] == lines


def test_a_held_shot_is_one_review_line_once(capsys: pytest.CaptureFixture[str]) -> None:
    log = parse_shot_log(json.loads(TRUTH_LOG.read_text(encoding="utf-8")))
    match = Match(log.match)
    record = match.play(log.shots[0])
    reason = "second ball contact unsure (0.41)"
    pending = SimpleNamespace(record=record, shot=log.shots[0], reason=reason)
    printer = CallPrinter()
    for _ in range(2):  # more updates come while it is held (a pause, a time-out)
        printer(SimpleNamespace(record=None, pending=pending, state=match.state, what="held",
                                account=None))  # fmt: skip
    # The clock's foul on the held shot holds it again (a new record, the same shot and
    # reason): it said REVIEW twice with nothing between (found by a review as a club
    # operator).
    again = SimpleNamespace(record=Match(log.match).play(log.shots[0]), shot=log.shots[0],
                            reason=reason)  # fmt: skip
    printer(SimpleNamespace(record=None, pending=again, state=match.state, what="held",
                            account=None))  # fmt: skip
    printer(SimpleNamespace(record=record, pending=None, state=match.state, what="accepted",
                            account=None))  # fmt: skip
    out = capsys.readouterr().out.splitlines()
    assert out == [
        "REVIEW: second ball contact unsure (0.41)",
        "shot 0  A  +1  point: red then yellow after 3 cushions  (A 1 : 0 B); "
        "red is frozen to the left cushion",
    ]


@pytest.mark.parametrize("breaker", [False, True])
def test_a_first_stroke_with_no_lag_before_it_says_the_match_is_joined(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], breaker: bool
) -> None:
    """No lag and no first player: the first stroke joins the match, and the terminal says
    so above its line (it said nothing; the web history and the export showed it)."""
    log = example_log()
    first = log.match.players[0] if breaker else None
    setup = LiveSetup(replace(log.match, first_player=first), SOURCE)
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), setup, now_iso=NOW)
    session.subscribe(CallPrinter())
    shots: list[str] = []
    session.subscribe(lambda u: shots.append(shot_line(u.record, u.state)) if u.record else None)
    for i, shot in enumerate(log.shots[:2]):
        session.submit(analyzed(shot), video_t_s=float(i + 1), now_iso=NOW)
    assert [line.split("  ")[0] for line in shots] == ["shot 0", "shot 1"]
    out = capsys.readouterr().out.splitlines()
    assert out == ([] if breaker else [JOIN_ENGLISH]) + shots
    assert JOIN_ENGLISH.startswith("no lag seen: the match is joined in progress")


@pytest.mark.parametrize("breaker", [False, True])
def test_a_lag_is_said_who_won_or_that_it_is_not_judged(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], breaker: bool
) -> None:
    """The terminal never said who won the lag (only the export did), and a lag seen
    while ``--first`` had set the breaker was printed as a stroke of its own."""
    inputs = example_inputs()
    log = example_log()
    first = log.match.players[0] if breaker else None
    setup = LiveSetup(replace(log.match, first_player=first), SOURCE)
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), setup, now_iso=NOW)
    session.subscribe(CallPrinter())
    session.submit(inputs[0], video_t_s=0.0, now_iso=NOW)
    out = capsys.readouterr().out.splitlines()
    if breaker:
        assert out == [f"a lag was seen, but {first} was set to break: lag not judged"]
    else:
        assert session.lag is not None and out == [f"lag: {session.lag.reason}"]


def test_a_first_player_the_video_contradicts_is_said_once(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """``--first B`` when the video shows A's ball first: the match follows the video, and
    the terminal said nothing of it (carom analyze notes it)."""
    log = example_log()
    balls = dict(log.match.cue_balls)
    a = next(p for p, ball in balls.items() if ball == log.shots[0].cue_ball)  # the video's
    b = next(p for p in log.match.players if p != a)
    camera = replace(log.match.options, follow_cue_ball=True)  # as carom live sets it
    setup = LiveSetup(replace(log.match, first_player=b, options=camera), SOURCE)
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), setup, now_iso=NOW)
    session.subscribe(CallPrinter())
    session.submit(analyzed(log.shots[0]), video_t_s=1.0, now_iso=NOW)
    session.call(FoulCall(Foul.TOUCH), who="ref", now_iso=NOW)  # shot 0 judged again
    session.submit(analyzed(log.shots[1]), video_t_s=2.0, now_iso=NOW)
    assert session.records[0].player == a  # the video's
    err = capsys.readouterr().err.splitlines()
    assert err == [
        f"carom live: first player {b} (--first, or the match file): the video shows {a}'s "
        f"{balls[a]} played first, not {b}'s {balls[b]}: following the video (set {a} as the "
        "first player, or swap the cue balls)"
    ]


def test_a_player_the_lag_named_is_no_first_player_to_blame(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """No ``--first``: the video's first stroke against the lag's breaker is the lag's
    matter, and the remark blamed a "--first" nobody typed."""
    log = example_log()
    camera = replace(log.match.options, follow_cue_ball=True)
    setup = LiveSetup(replace(log.match, first_player=None, options=camera), SOURCE)
    session = LiveSession.open(MatchStore(tmp_path / "live.db"), setup, now_iso=NOW)
    session.subscribe(CallPrinter())
    inputs = example_inputs()
    session.submit(inputs[0], video_t_s=0.0, now_iso=NOW)  # the lag
    breaker = session.state.shooter
    other = _other_balls(log.shots[0])  # the other player's ball breaks
    session.submit(analyzed(other), video_t_s=1.0, now_iso=NOW)
    assert session.records[0].player != breaker  # the video's, as before
    assert "--first" not in capsys.readouterr().err


def _other_balls(shot: Shot) -> Shot:
    """``shot`` with the white and the yellow swapped (the other player's stroke)."""
    text = json.dumps(shot_json(shot))
    swapped = (
        text.replace('"white"', '"@"').replace('"yellow"', '"white"').replace('"@"', '"yellow"')
    )
    return parse_shot(json.loads(swapped), "shot")


def test_a_keyboard_correction_is_one_line_with_the_score(tmp_path: Path) -> None:
    calibration = write_truth_calibration(tmp_path / "cal.json")
    cmd = live_cmd(calibration, tmp_path / "live.db", None, "--pace", "0")
    done = run_live(cmd, stdin="correct B +1\n")
    assert done.returncode == 0, done.stderr
    corrections = [line for line in done.stdout.splitlines() if line.startswith("correction:")]
    assert len(corrections) == 1
    # its place among the shot lines depends on when the keyboard is read: not its text
    assert re.fullmatch(r"correction: \+1 points to B  \(A [01] : [1-3] B\)", corrections[0])
    assert done.stdout.splitlines()[-1] == "A 1 : 3 B  (playing)"

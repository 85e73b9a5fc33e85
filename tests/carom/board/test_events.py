"""What a judged shot flashes on the board: a wrong break position is said there too."""

from __future__ import annotations

from carom.board import event_of
from hardware import EventKind, render_board
from referee import Ball, BallContact, Match, Shot
from tests.referee.factories import R, W, Y, config, three_cushion_events

BREAK = {W: (710.0, 557.6), Y: (710.0, 710.0), R: (2130.0, 710.0)}


def _first_event(layout: dict[Ball, tuple[float, float]]) -> tuple[EventKind, str]:
    shot = Shot(index=0, cue_ball=W, events=three_cushion_events(W, R, Y),
                start_positions_mm=layout)  # fmt: skip
    event = event_of(Match(config(first="A")).play(shot), ("A", "B"), over=False)
    return event.kind, event.text


def test_a_break_from_the_right_layout_shows_the_verdict_once() -> None:
    # The board draws KIND: TEXT: "POINT: red then yellow ...", not "POINT: point: ..."
    assert _first_event(BREAK) == (EventKind.POINT, "red then yellow after 3 cushions")


def test_the_board_line_names_the_kind_once() -> None:
    shot = Shot(index=0, cue_ball=W, events=three_cushion_events(W, R, Y),
                start_positions_mm=BREAK)  # fmt: skip
    event = event_of(Match(config(first="A")).play(shot), ("A", "B"), over=False)
    line = render_board(None, event)[-2]  # the emulator's event row, as a board shows it
    assert "| POINT: red then yellow after 3 cush" in line  # 36 characters a row
    assert line.lower().count("point") == 1


def test_a_wrong_break_position_is_announced_on_the_board() -> None:
    kind, text = _first_event({**BREAK, Y: (740.0, 710.0)})
    assert kind is EventKind.POINT
    assert text == "wrong break: yellow 30 mm off head spot"
    assert len(text) <= 40


def test_a_miss_from_play_shows_the_reason() -> None:
    shot = Shot(index=0, cue_ball=W, events=(BallContact(t_s=0.2, balls=(W, R)),))
    event = event_of(Match(config(first="A")).play(shot), ("A", "B"), over=False)
    assert event.kind is EventKind.MISS and event.text.startswith("missed the second ball")


def test_a_shot_settled_by_a_person_shows_its_outcome_not_review() -> None:
    """After an accept the board kept "REVIEW: point: ..." to the end of the match (found
    by a review as a club operator)."""
    doubtful = tuple(
        BallContact(t_s=e.t_s, balls=e.balls, doubt="balls too close to tell")
        if isinstance(e, BallContact) and Y in e.balls else e
        for e in three_cushion_events(W, R, Y)
    )  # fmt: skip
    record = Match(config(first="A")).play(Shot(index=0, cue_ball=W, events=doubtful))
    assert record.verdict.review is not None
    assert event_of(record, ("A", "B"), over=False).kind is EventKind.REVIEW
    settled = event_of(record, ("A", "B"), over=False, decided=True)
    assert settled.kind is EventKind.POINT and "red then yellow" in settled.text


def test_the_shot_that_ends_the_match_shows_who_won() -> None:
    """The last frame said the last shot's reason ("END: missed the second ball: hit
    onl", cut at the row's end) and never who won (found by a review as a new user)."""
    cfg = config(first="A", target=1)
    shot = Shot(index=0, cue_ball=W, events=three_cushion_events(W, R, Y),
                start_positions_mm=BREAK)  # fmt: skip
    match = Match(cfg)
    match.play(shot)  # the breaker reaches the target: B's equalizing inning, a miss
    assert match.state.phase.name != "OVER"
    record = match.play(Shot(index=1, start_s=10.0, end_s=12.0, cue_ball=Y,
                             events=(BallContact(t_s=10.2, balls=(Y, R)),)))  # fmt: skip
    assert match.state.phase.name == "OVER"
    event = event_of(record, ("A", "B"), over=True)
    assert event.kind is EventKind.END
    assert event.text == "match over: A wins"
    assert event.player == 0  # the protocol's end names the winner, not the last shooter (B)
    assert "| END: match over: A wins" in render_board(None, event)[-2]

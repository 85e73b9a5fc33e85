"""A board of two slots with three players or more: who is shown, events' slots."""

from __future__ import annotations

from carom.board import event_of
from hardware import EventKind, Snapshot, board_players, board_slot, snapshot_from_state
from referee import Match, Phase
from tests.referee.factories import W, Y, drive, many


def test_two_players_keep_their_slots() -> None:
    match = Match(many("AB", target=2, cue_balls={"A": W, "B": Y}))
    drive(match, "m")
    assert board_players(match.state) == ("A", "B") and board_slot(match.state, "B") == 1
    assert snapshot_from_state(match.state).active == 1


def test_three_players_show_the_player_at_the_table_and_the_next() -> None:
    match = Match(many("ABC", target=2))
    drive(match, "p")
    snap = snapshot_from_state(match.state)
    assert (snap.players, snap.scores, snap.active, snap.run) == (("A", "B"), (1, 0), 0, 1)
    drive(match, "m")
    snap = snapshot_from_state(match.state)
    assert (snap.players, snap.scores, snap.active) == (("B", "C"), (0, 0), 0)
    assert board_slot(match.state, "A") == 0  # not shown
    assert Snapshot.from_payload(snap.to_payload()) == snap  # the frame is unchanged


def test_after_the_match_the_leaders_are_shown() -> None:
    match = Match(many("ABC", target=2))
    drive(match, "m pp m")  # B reaches the target, C does not equalize
    state = match.state
    assert state.phase is Phase.OVER and state.winner == "B"
    snap = snapshot_from_state(state)
    assert snap.players == ("B", "A") and snap.scores == (2, 0) and snap.over


def test_an_event_names_the_slot_the_shooter_had_before_the_stroke() -> None:
    match = Match(many("ABC", target=2))
    shown = board_players(match.state)
    (record,) = drive(match, "m")
    event = event_of(record, shown, over=False)
    assert (event.kind, event.player) == (EventKind.MISS, 0)
    (record,) = drive(match, "m")
    assert event_of(record, ("Z",), over=False).player == 0  # not shown: slot 0

"""Keyboard lines -> a person's calls and review decisions."""

from __future__ import annotations

import pytest

from carom.live import (
    HELP,
    CallParseError,
    DecisionKind,
    FoulCall,
    HelpRequest,
    ReviewDecision,
    TimeoutCall,
    UndoCall,
    parse_line,
)
from referee import CALL_FOULS, Correction, CorrectionKind, Foul

PLAYERS = ("Ana", "Ben Li")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("foul push", FoulCall(Foul.PUSH)),
        ("  FOUL Double-Hit ", FoulCall(Foul.DOUBLE_HIT)),
        ("accept", ReviewDecision(DecisionKind.ACCEPT)),
        ("reject", ReviewDecision(DecisionKind.REJECT)),
        ("points 2", ReviewDecision(DecisionKind.POINTS, 2)),
        ("points 0", ReviewDecision(DecisionKind.POINTS, 0)),
        ("undo", UndoCall()),
        ("timeout", TimeoutCall()),
        ("timeout b", TimeoutCall("Ben Li")),
        ("timeout ana", TimeoutCall("Ana")),
        ("correct A +3", Correction(CorrectionKind.POINTS, "Ana", 3)),
        ("correct 'ben li' -1", Correction(CorrectionKind.POINTS, "Ben Li", -1)),
        ("turn B", Correction(CorrectionKind.TURN, "Ben Li")),
        ("break", Correction(CorrectionKind.BREAK_POSITION, "")),
        ("help", HelpRequest()),
    ],
)
def test_each_command_parses_to_its_value(line: str, expected: object) -> None:
    assert parse_line(line, PLAYERS) == expected


def test_every_callable_foul_has_a_command() -> None:
    for foul in CALL_FOULS:
        assert parse_line(f"foul {foul.value}", PLAYERS) == FoulCall(foul)
        assert foul.value in HELP


def test_blank_lines_are_nothing() -> None:
    assert parse_line("   ", PLAYERS) is None


@pytest.mark.parametrize(
    ("line", "problem"),
    [
        ("scratch", "unknown command 'scratch'"),
        ("foul", "foul: expected 1 argument"),
        ("foul zone_limit", "'zone_limit' cannot be called"),
        ("points many", "'many' is not a whole number"),
        ("points -1", "expected 0 or more"),
        ("timeout C", "unknown player 'C'"),
        ("correct A 0", "must not be zero"),
        ("correct B +99999999999999999999", "points from -10000 to 10000"),
        ("correct B -10001", "points from -10000 to 10000"),
        ("correct A", "expected 2 argument"),
        ("undo now", "expected 0 argument"),
        ("turn 'unclosed", "cannot read"),
    ],
)
def test_bad_lines_give_one_line_with_the_commands(line: str, problem: str) -> None:
    with pytest.raises(CallParseError) as info:
        parse_line(line, PLAYERS)
    message = str(info.value)
    assert problem in message and "\n" not in message
    assert "commands:" in message or "callable:" in message


THREE = ("Ana", "Ben", "Cleo")


@pytest.mark.parametrize(
    ("line", "expected"),
    [
        ("timeout C", TimeoutCall("Cleo")),
        ("timeout 3", TimeoutCall("Cleo")),
        ("timeout cleo", TimeoutCall("Cleo")),
        ("correct c +2", Correction(CorrectionKind.POINTS, "Cleo", 2)),
        ("correct Cleo -1", Correction(CorrectionKind.POINTS, "Cleo", -1)),
        ("turn C", Correction(CorrectionKind.TURN, "Cleo")),
        ("turn 2", Correction(CorrectionKind.TURN, "Ben")),
        ("turn a", Correction(CorrectionKind.TURN, "Ana")),
    ],
)
def test_any_player_of_three_can_be_named_by_seat_number_or_name(
    line: str, expected: object
) -> None:
    assert parse_line(line, THREE) == expected


def test_eight_players_have_seats_a_to_h_and_a_name_wins_over_a_seat() -> None:
    eight = tuple(f"P{i}" for i in range(1, 9))
    assert parse_line("turn H", eight) == Correction(CorrectionKind.TURN, "P8")
    assert parse_line("timeout 8", eight) == TimeoutCall("P8")
    # a player called "B" who plays third is "B", not the second seat
    assert parse_line("turn B", ("Ana", "Cleo", "B")) == Correction(CorrectionKind.TURN, "B")


@pytest.mark.parametrize("word", ["D", "4", "0", "Dee"])
def test_a_seat_beyond_the_players_is_refused_listing_every_seat(word: str) -> None:
    with pytest.raises(CallParseError) as info:
        parse_line(f"turn {word}", THREE)
    assert f"unknown player {word!r} (A=Ana, B=Ben, C=Cleo)" in str(info.value)


def test_carom_live_help_names_every_keyboard_command() -> None:
    """``carom live --help`` listed seven of the ten commands (no correct, turn, break)."""
    import argparse
    import re

    from carom.cli._main import _parser
    from carom.live import HELP

    parser = _parser()
    (sub,) = [a for a in parser._actions if isinstance(a, argparse._SubParsersAction)]
    description = sub.choices["live"].description or ""
    verbs = [part.split()[0] for part in HELP.removeprefix("commands: ").split(" (")[0].split(", ")]
    assert len(verbs) == 10
    said = set(re.findall(r"[a-z]+", description))
    assert [verb for verb in verbs if verb not in said] == []

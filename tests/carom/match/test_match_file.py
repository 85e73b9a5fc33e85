"""The match file ``carom-match/1``: reader, writers, schema, and the flags over it.

(a) the schema (``docs/match-file.schema.json``) names what the code names; (b) the
example file and random set-ups pass the reader and the schema, and write back to the
same set-up as JSON and as TOML; (c) every refusal is one line that starts with the
key (or the flag); (d) flags override the file, ``--players`` renames in order.
"""

from __future__ import annotations

import argparse
import json
import tomllib
from dataclasses import fields, replace
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator
from referencing import Registry, Resource

from carom.match import (
    ClockSettings,
    MatchFile,
    MatchFileError,
    add_match_options,
    from_config,
    load_match_file,
    match_file_doc,
    match_file_toml,
    match_from_args,
    parse_match_file,
)
from carom.match._file import KEYS
from carom.pipeline import balls_on_table
from referee import Ball, Discipline, RuleOptions, StartState, Table

ROOT = Path(__file__).parents[3]
SCHEMA: dict[str, Any] = json.loads((ROOT / "docs" / "match-file.schema.json").read_text())
#: The shot log's schema, whose names, table, rule options and start state it refers to.
SHOT_LOG: dict[str, Any] = json.loads((ROOT / "docs" / "shot-log.schema.json").read_text())
REGISTRY: Registry[Any] = Registry().with_resource(
    SHOT_LOG["$id"], Resource.from_contents(SHOT_LOG)
)
VALIDATOR = Draft202012Validator(SCHEMA, registry=REGISTRY)
EXAMPLE = ROOT / "examples" / "match.toml"


# --- (a) the schema names what the code names ---------------------------------------


def test_schema_keys_are_the_readers_and_the_codes() -> None:
    Draft202012Validator.check_schema(SCHEMA)
    shared = {k: v["$ref"] for k, v in SCHEMA["$defs"].items() if "$ref" in v}
    assert shared == {k: f"{SHOT_LOG['$id']}#/$defs/{k}" for k in shared}
    defs = SCHEMA["$defs"] | {k: SHOT_LOG["$defs"][k] for k in shared}
    assert list(SCHEMA["properties"]) == list(KEYS)
    assert sorted(defs["rules"]["properties"]) == sorted(f.name for f in fields(RuleOptions))
    assert list(defs["clock"]["properties"]) == [f.name for f in fields(ClockSettings)]
    assert set(defs["start"]["properties"]) == {f.name for f in fields(StartState)}
    assert set(defs["table"]["properties"]) == {f.name for f in fields(Table)}
    assert defs["discipline"]["enum"] == [d.value for d in Discipline]


def test_schema_defaults_are_the_codes() -> None:
    clock = ClockSettings()  # the rule options' defaults: tests/referee/test_shotlog.py
    for name, prop in SCHEMA["$defs"]["clock"]["properties"].items():
        value = getattr(clock, name)
        assert prop["default"] == (str(value) if "enum" in prop else value), name


def test_docs_page_names_every_key() -> None:
    page = (ROOT / "docs" / "match-file.md").read_text()
    for key in [*KEYS, *(f.name for f in fields(ClockSettings))]:
        assert f"`{key}`" in page, key


# --- (b) the example, round trips ----------------------------------------------------


def test_the_example_file_is_valid_and_says_what_it_means() -> None:
    data = tomllib.loads(EXAMPLE.read_text())
    assert VALIDATOR.is_valid(data)
    match = load_match_file(EXAMPLE)
    config = match.config(camera=True)
    assert config.target == {"A": 15, "B": 12} and config.innings_limit == 50
    assert config.first_player == "A" and config.options.follow_cue_ball
    assert parse_match_file(tomllib.loads(match_file_toml(match))) == match


names = st.text(st.characters(codec="utf-8", exclude_characters=","), min_size=1, max_size=8)
names = names.filter(lambda s: s.strip() == s and s.isprintable())
option_values = {
    "bool": st.booleans(),
    "float": st.floats(0, 500, allow_nan=False).map(lambda v: round(v, 3)),
    "int": st.integers(0, 50),
    "int | None": st.integers(1, 9),
}


@st.composite
def match_files(draw: st.DrawFn) -> MatchFile:
    """Valid match files: any discipline, names, balls, handicap, options, clock, start."""
    a, b = draw(st.lists(names, min_size=2, max_size=2, unique=True))
    discipline = draw(st.sampled_from(list(Discipline)))
    opts = {f.name: option_values[str(f.type)] for f in fields(RuleOptions)}
    rules = draw(st.dictionaries(st.sampled_from(sorted(opts)), st.none(), max_size=5))
    rules = {k: draw(opts[k]) for k in rules}
    other = draw(st.sampled_from([Ball.YELLOW, Ball.DOTTED]))
    pins = discipline is Discipline.PIN_CAROM_7
    balls = draw(st.sampled_from([{}, {a: Ball.WHITE, b: other}, {a: other, b: Ball.WHITE}]))
    length = draw(st.sampled_from([2840.0, 2100.0, 3123.5]))
    length_s = draw(st.floats(1, 99).map(lambda v: round(v, 1)))
    clock = ClockSettings(enabled=draw(st.booleans()), length_s=length_s,
                          warning_s=draw(st.floats(0, length_s)),
                          extensions=draw(st.integers(0, 5)))  # fmt: skip
    sets = draw(st.sampled_from([1, 3, 5]))
    start = draw(st.none() | st.builds(
        # At most the least target drawn below (a start past its target is refused).
        StartState, board=st.fixed_dictionaries({a: st.integers(0, 25)}),
        innings=st.just({a: 3, b: 2}), shooter=st.sampled_from([a, b]),
        run=st.integers(0, 5), set_index=st.just(sets // 2),
        sets_won=st.just({b: sets // 2}), next_break=st.none() | st.booleans(),
    ))  # fmt: skip
    return MatchFile(
        discipline=discipline, players=(a, b), cue_balls={} if pins else balls,
        table=draw(st.none() | st.just(Table(length_mm=length, width_mm=length / 2))),
        # With a start, the first player is who is at the table: its shooter's name or none.
        first_player=draw(st.none() | st.sampled_from([start.shooter] if start else [a, b])),
        # The 7-pin game counts down from start_count: no handicap, no innings limit, no
        # start_count elsewhere.
        target=draw(st.sampled_from([{}, {a: 40, b: 40}, *([] if pins else [{a: 30, b: 25}])])),
        innings_limit=None if pins else draw(st.none() | st.integers(1, 80)), sets=sets,
        equalizing=draw(st.booleans()), equalizing_from_break=draw(st.booleans()),
        start_count=draw(st.none() | st.integers(1, 500)) if pins else None, rules=rules,
        clock=clock,
        start=start,
    ).checked()  # fmt: skip


@settings(max_examples=150, deadline=None)
@given(match_files())
def test_json_and_toml_round_trip_and_pass_the_schema(match: MatchFile) -> None:
    doc = match_file_doc(match)
    assert [e.message for e in VALIDATOR.iter_errors(doc)] == []
    assert parse_match_file(json.loads(json.dumps(doc))) == match
    assert parse_match_file(tomllib.loads(match_file_toml(match))) == match


@settings(max_examples=60, deadline=None)
@given(match_files())
def test_a_match_set_up_comes_back_from_its_config(match: MatchFile) -> None:
    config = match.config()
    assert from_config(config, match.clock).config() == config


json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-5, 400) | st.floats(allow_nan=False)
    | st.sampled_from(["A", "B", "white", "dotted", "warn", "match", "2100x1050", ""]),
    lambda inner: st.lists(inner, max_size=3)
    | st.dictionaries(st.sampled_from(["A", "B", "length_mm", "board", "x"]), inner, max_size=3),
    max_leaves=8,
)  # fmt: skip
documents = st.dictionaries(
    st.sampled_from([*KEYS, "typo"]), json_values, max_size=6
) | st.builds(lambda m, k, v: {**match_file_doc(m), k: v}, match_files(),
              st.sampled_from([*KEYS, "typo"]), json_values)  # fmt: skip


@settings(max_examples=300, deadline=None)
@given(documents)
def test_any_document_is_read_or_refused_with_one_line_and_the_schema_is_never_stricter(
    doc: dict[str, Any],
) -> None:
    error = None
    try:
        parse_match_file(doc)
    except MatchFileError as exc:
        error = str(exc)
    if error is not None:
        assert "\n" not in error
    else:  # what the reader accepts, the schema accepts
        assert VALIDATOR.is_valid(doc), list(VALIDATOR.iter_errors(doc))


# --- (c) every refusal names the key -------------------------------------------------


@pytest.mark.parametrize(
    ("doc", "start"),
    [
        ({"format": "carom-match/2"}, "format: expected 'carom-match/1'"),
        ({"discipline": "snooker"}, "discipline: unknown name 'snooker'"),
        ({"table": "huge"}, "table: expected a preset"),
        ({"table": {"length_mm": 100, "width_mm": 50}}, "table: table length_mm"),
        ({"table": {"length_mm": 2840, "widht_mm": 1}}, "table.widht_mm: unknown field"),
        ({"players": ["A"]}, "players: expected 2 to 8 player names, got 1"),
        ({"players": ["A", "A"]}, "players: expected different names"),
        ({"players": ["A", 3]}, "players[1]: expected a non-empty string"),
        ({"cue_balls": {"A": "white", "B": "white"}}, "cue_balls: must be white and yellow"),
        ({"cue_balls": {"A": "white"}}, "cue_balls: give both players"),
        ({"cue_balls": {"A": "white", "B": "blue"}}, "cue_balls.B: unknown name 'blue'"),
        ({"cue_balls": ["white", "dotted"]}, "cue_balls: a list is the rotating pair of 3"),
        ({"players": ["A", "B", "C"], "cue_balls": ["white"]}, "cue_balls: expected the 2"),
        ({"players": list("ABC"), "cue_balls": ["white", "blue"]}, "cue_balls[1]: unknown name"),
        ({"players": list("ABC"), "cue_balls": ["yellow", "dotted"]}, "cue_balls: must be white"),
        ({"first_player": "Zed"}, "first_player: 'Zed' is not one of the players"),
        ({"target": 0}, "target: must be at least 1"),
        ({"target": {"A": 40, "Zed": 1}}, "target.Zed: unknown field"),
        ({"target": 40.0}, "target: expected a whole number"),
        ({"innings_limit": 0}, "innings_limit: must be at least 1"),
        ({"sets": 2}, "sets: must be an odd number"),
        ({"equalizing": "yes"}, "equalizing: expected true or false"),
        ({"start_count": -1}, "start_count: must be at least 1"),
        ({"start_count": 100001}, "start_count: must be at most 100000, got 100001"),
        ({"target": 10**20}, "target: must be at most 100000"),
        ({"innings_limit": 10**6}, "innings_limit: must be at most 100000"),
        ({"rules": {"follow_the_ball": True}}, "rules.follow_the_ball: unknown rule option"),
        ({"rules": {"frozen_tolerance_mm": -1}}, "rules.frozen_tolerance_mm: must be at least"),
        ({"rules": []}, "rules: expected an object"),
        ({"clock": {"length_s": "40"}}, "clock.length_s: expected a number"),
        ({"clock": {"expiry": "shout"}}, "clock.expiry: unknown name 'shout'"),
        ({"clock": {"length_s": 5000}}, "clock: shot clock length"),
        ({"clock": {"pause": 1}}, "clock.pause: unknown field"),
        ({"start": {"board": {"Zed": 1}}}, "start.board.Zed: unknown field"),
        ({"start": {"shooter": "Zed"}}, "start.shooter: 'Zed' is not one of the players"),
        ({"start": {"run": 3}}, "start: a run under way needs the shooter"),
        ({"start": {"sets_won": {"A": 1}}}, "start: more sets won than sets played"),
        ({"players": ["A" * 41, "B"]}, "players[0]: at most 40 characters, got 41"),
        ({"sets": 101}, "sets: "),
        ({"start": {"set_index": 5}}, "start: set 6 of a one-game match; give the match's sets"),
        (
            {"sets": 1, "start": {"set_index": 1, "sets_won": {"A": 1}}},
            "start: a player with 1 set has won the match",
        ),
        ({"typo": 1}, "typo: unknown field"),
    ],
)
def test_each_refusal_is_one_line_starting_with_the_key(doc: dict[str, Any], start: str) -> None:
    with pytest.raises(MatchFileError) as info:
        parse_match_file(doc)
    text = str(info.value)
    assert text.startswith(start), text
    assert "\n" not in text
    # What the schema can say, it says too (the rest are rules across keys).
    cross = (
        "cue_balls: must",
        "cue_balls: a list",
        "start",
        "clock: ",
        "table: table",
        "table: expected",
        "first_player",
        "target.",
        "target: expected a whole",
    )  # 3.0: an integer to JSON
    if not text.startswith(cross):
        assert not VALIDATOR.is_valid(doc), doc


def test_file_errors_name_the_file_then_the_key(tmp_path: Path) -> None:
    bad = tmp_path / "m.toml"
    bad.write_text('players = ["A", "B"]\n[clock]\nlength_s = "forty"\n')
    with pytest.raises(MatchFileError, match=r"m\.toml: clock\.length_s: expected a number"):
        load_match_file(bad)
    bad.write_text("players = [A, B]\n")
    with pytest.raises(MatchFileError, match=r"m\.toml: not valid TOML: .*line 1"):
        load_match_file(bad)
    with pytest.raises(MatchFileError, match=r"--match .*nope\.toml: cannot read it"):
        load_match_file(tmp_path / "nope.toml")
    as_json = tmp_path / "m.json"
    as_json.write_text(json.dumps({"players": ["Ana", "Ben"], "sets": 3}))
    assert load_match_file(as_json).sets == 3


# --- (d) the flags over the file -----------------------------------------------------


def _flags(*argv: str) -> MatchFile:
    p = argparse.ArgumentParser()
    add_match_options(p)
    return match_from_args(p.parse_args(list(argv)))


def test_players_have_one_syntax_and_rename_the_files_players_in_order(tmp_path: Path) -> None:
    assert _flags("--players", "Ana,Ben").players == _flags("--players", "Ana", "Ben").players
    assert _flags("--players", "Ana Lopez,Ben").players == ("Ana Lopez", "Ben")
    f = tmp_path / "m.toml"
    f.write_text('players = ["A", "B"]\ncue_balls = {A = "dotted", B = "white"}\n'
                 'target = {A = 30, B = 20}\nfirst_player = "B"\n'
                 '[start]\nboard = {A = 5}\nbreaker = "A"\n')  # fmt: skip
    m = _flags("--match", str(f), "--players", "Ana,Ben")
    assert m.cue_balls == {"Ana": Ball.DOTTED, "Ben": Ball.WHITE}
    assert m.target == {"Ana": 30, "Ben": 20} and m.first_player == "Ben"
    assert m.start is not None and m.start.board == {"Ana": 5} and m.start.breaker == "Ana"


def test_a_7_pin_target_is_the_count_played_down_from() -> None:
    """``--target 500`` in the 7-pin game was taken and ignored: it counted from 300."""
    cfg = _flags("--discipline", "pin-carom-7", "--target", "500").config(camera=True)
    assert cfg.countdown_from == 500
    assert _flags("--discipline", "three-cushion", "--target", "500").start_count is None
    with pytest.raises(MatchFileError, match="pin-carom-7 counts every player down from one"):
        _flags("--discipline", "pin-carom-7", "--target", "A=300,B=200")


def test_three_players_from_the_flags_rotate_the_whites(tmp_path: Path) -> None:
    m = _flags("--players", "Ana,Ben,Cleo", "--first", "Cleo", "--target", "Ana=20,Ben=25,Cleo=30")
    assert m.players == ("Ana", "Ben", "Cleo") and m.first_player == "Cleo"
    cfg = m.config(camera=True)
    assert cfg.rotates and cfg.cue_balls == {} and cfg.options.follow_cue_ball
    assert cfg.target == {"Ana": 20, "Ben": 25, "Cleo": 30}
    four = _flags("--players", "Ana", "Ben", "Cleo", "Dee").config()
    assert four.players == ("Ana", "Ben", "Cleo", "Dee") and four.rotates
    f = tmp_path / "m.toml"
    f.write_text('players = ["A", "B"]\ntarget = {A = 30, B = 20}\n')
    with pytest.raises(MatchFileError, match="--players: 3 names, but the match file sets"):
        _flags("--match", str(f), "--players", "Ana,Ben,Cleo")


def test_a_match_file_of_four_players_keeping_balls(tmp_path: Path) -> None:
    f = tmp_path / "m.toml"
    balls = 'cue_balls = {A = "white", B = "yellow", C = "white", D = "yellow"}\n'
    f.write_text('players = ["A", "B", "C", "D"]\n' + balls)
    cfg = _flags("--match", str(f)).config()
    assert not cfg.rotates and cfg.ball_of("C") is Ball.WHITE
    f.write_text('players = ["A", "B", "C"]\ncue_balls = {A = "white", B = "yellow"}\n')
    with pytest.raises(MatchFileError, match="cue_balls: give every player, 'A', 'B', 'C'"):
        _flags("--match", str(f))


def test_flags_override_the_file_and_join_a_match_in_progress(tmp_path: Path) -> None:
    f = tmp_path / "m.toml"
    f.write_text('players = ["Ana", "Ben"]\ntarget = 40\nsets = 3\n[start]\nboard = {Ana = 1}\n')
    m = _flags("--match", str(f), "--target", "Ana=30,Ben=25", "--discipline", "one-cushion",
               "--start-score", "Ben=7", "--start-innings", "Ana=10,Ben=9", "--start-shooter",
               "Ben", "--start-run", "2", "--start-set", "2", "--start-sets-won", "Ana=1",
               "--start-break", "no", "--table", "2100x1050")  # fmt: skip
    assert m.discipline is Discipline.ONE_CUSHION and m.target == {"Ana": 30, "Ben": 25}
    assert m.table == Table(length_mm=2100, width_mm=1050)
    assert m.start == StartState(board={"Ana": 1, "Ben": 7}, innings={"Ana": 10, "Ben": 9},
                                 run=2, shooter="Ben", set_index=1, sets_won={"Ana": 1},
                                 next_break=False)  # fmt: skip
    assert _flags("--target", "25").target == {"A": 25, "B": 25}
    assert _flags("--discipline", "pin-carom-7").config().table.length_mm == 3550


@pytest.mark.parametrize(
    ("argv", "start"),
    [
        (["--players", "A"], "--players: expected 2 to 8 different names in the order of play"),
        (["--players", ",".join("ABCDEFGHI")], "--players: expected 2 to 8 different names"),
        (["--players", "A,B", "C"], "--players: expected 2 to 8 different names"),
        (["--players", "A,A"], "--players: expected 2 to 8 different names"),
        (["--players", "A\nB,C"], "--players: 'A\\nB' holds a control character (a line break"),
        (["--players", "A\tB", "C"], "--players: 'A\\tB' holds a control character"),
        (["--first", "Zed"], "--first: 'Zed' is not one of the players A, B"),
        (["--target", "0"], "--target: expected a whole number >= 1"),
        (["--target", "A=40"], "--target: give every player"),
        (["--target", "100001"], "--target: at most 100000 points, got '100001'"),
        (["--target", "A=40,B=200000"], "--target: at most 100000 points"),
        (["--discipline", "pool"], "--discipline: unknown 'pool'"),
        (["--table", "big"], "--table: expected a preset"),
        # a size read but out of range says the range (it said "expected a preset")
        (["--table", "1x1"], "--table: table length_mm must be 500..5000, got 1.0 (the cloth's"),
        (
            ["--table", "2000x3000"],
            "--table: '2000x3000': the length comes first (LENGTHxWIDTH, "
            "the longer side first): 3000x2000",
        ),  # it said "width_mm must be 250..length_mm"
        (["--table", "6000x3000"], "--table: table length_mm must be 500..5000, got 6000.0"),
        (["--start-score", "A12"], "--start-score: expected NAME=N,NAME=N like A=12,B=7"),
        (["--start-score", "Zed=1"], "--start-score: 'Zed' is not one of the players"),
        (["--start-innings", "A=-1"], "--start-innings: expected NAME=N"),
        (["--start-run", "x"], "--start-run: expected a whole number >= 0"),
        (["--start-set", "0"], "--start-set: expected a whole number >= 1"),
        (["--start-shooter", "Zed"], "--start-shooter: 'Zed' is not one of the players"),
        (["--start-run", "2"], "start: a run under way needs the shooter (from the flags)"),
        # Both said who is at the table, differently: --first was dropped without a word.
        (
            ["--first", "B", "--start-shooter", "A"],
            "first_player (--first) B and "
            "start.shooter (--start-shooter) A name different players at the table",
        ),
        # Past the target: "A reached the target" on the first stroke, then reviews.
        (
            ["--start-score", "A=50,B=3"],
            "start: A's score 50 is past the target, 40: a game "
            "ends there; check the start score (--start-score) and the target (--target)",
        ),
        # Past a match file's and a shot log's 30 digits (what analyze writes, score reads);
        # 5,000 digits were Python's own limit, an internal error.
        (["--target", "1" + "0" * 5000], "--target: more than 30 digits; give a whole number"),
        (["--target", "A=1" + "0" * 30 + ",B=3"], "--target: A's number has more than 30"),
        (["--start-score", "A=" + "9" * 31], "--start-score: A's number has more than 30 digits"),
        (["--start-set", "1" * 31], "--start-set: more than 30 digits; give a whole number >= 1"),
    ],
)
def test_each_bad_flag_is_one_line_naming_it(argv: list[str], start: str) -> None:
    with pytest.raises(MatchFileError) as info:
        _flags(*argv)
    assert str(info.value).startswith(start), str(info.value)


def test_a_camera_follows_the_cue_ball_unless_the_file_says() -> None:
    assert not MatchFile().config().options.follow_cue_ball  # the rules as they read
    assert MatchFile().config(camera=True).options.follow_cue_ball
    off = parse_match_file({"rules": {"follow_cue_ball": False}})
    assert not off.config(camera=True).options.follow_cue_ball


def test_three_players_rotate_the_white_and_the_dotted_white(tmp_path: Path) -> None:
    f = tmp_path / "m.toml"
    f.write_text('players = ["Ana", "Ben", "Cleo"]\ncue_balls = ["white", "dotted"]\n')
    m = load_match_file(f)
    assert m.rotation_balls == (Ball.WHITE, Ball.DOTTED) and m.cue_balls == {}
    assert m.balls == {Ball.WHITE, Ball.DOTTED}
    assert balls_on_table(m.discipline, m.balls) == (Ball.WHITE, Ball.DOTTED, Ball.RED)
    cfg = m.config(camera=True)
    assert cfg.rotates and cfg.rotation_balls == (Ball.WHITE, Ball.DOTTED)
    doc = match_file_doc(m)
    assert doc["cue_balls"] == ["white", "dotted"] and VALIDATOR.is_valid(doc)
    assert parse_match_file(json.loads(json.dumps(doc))) == m
    assert parse_match_file(tomllib.loads(match_file_toml(m))) == m
    assert from_config(cfg, m.clock).rotation_balls == m.rotation_balls
    # the flags: renamed in order; two players over it keep the pair as their balls
    assert _flags("--match", str(f), "--players", "X,Y,Z").config().rotation_balls == (
        Ball.WHITE, Ball.DOTTED,
    )  # fmt: skip
    two = _flags("--match", str(f), "--players", "X,Y")
    assert two.config().cue_balls == {"X": Ball.WHITE, "Y": Ball.DOTTED}
    plain = parse_match_file({"players": ["Ana", "Ben", "Cleo"]})
    assert "cue_balls" not in match_file_doc(plain) and plain.balls == {Ball.WHITE, Ball.YELLOW}


def test_names_in_any_script_are_kept_and_only_control_characters_refused() -> None:
    """A joiner belongs to a name (Persian, Hindi, emoji); a line break or tab does not."""
    names = ("Mehr\u200cdad", "Ana María", "Ünal")  # a zero-width non-joiner in the first
    assert _flags("--players", ",".join(names)).players == names
    with pytest.raises(MatchFileError, match="holds a control character"):
        _flags("--players", "A\u2028B,C")  # a line separator


def test_a_set_up_an_earlier_version_took_gives_a_file_that_is_read() -> None:
    """``--first B --start-shooter A`` was taken (B dropped without a word); a stored
    match of it gives back a file without the first player, not one that is refused."""
    old = MatchFile(players=("A", "B"), start=StartState(board={"A": 3}, shooter="A"))
    config = replace(old.config(), first_player="B")  # as the earlier version kept it
    again = from_config(config)
    assert again.first_player is None and again.start == old.start
    assert parse_match_file(match_file_doc(again)) == again

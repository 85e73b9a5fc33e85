"""The console's match form through the real HTTP API: the match file's structure in and out.

A real uvicorn on loopback (``serve_in_thread``) and the real SQLite store; ``carom
serve --match`` as a process puts the file's match on the table at start-up.
"""

from __future__ import annotations

import os
import subprocess
import tomllib
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx2
import pytest

from carom.match import load_match_file, match_file_doc, parse_match_file
from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from referee import Ball, RuleOptions, StartState
from tests.carom.live._helpers import carom_cmd
from tests.carom.web._web import AUTH, TOKEN
from tests.carom.web.test_serve_cli import _start, _stop

EXAMPLE = Path(__file__).parents[3] / "examples" / "match.toml"

#: A set-up that uses every part of the structure.
FULL: dict[str, Any] = {
    "format": "carom-match/1",
    "discipline": "one-cushion",
    "table": "2100x1050",
    "players": ["Ana", "Ben"],
    "cue_balls": {"Ana": "white", "Ben": "dotted"},
    "first_player": "Ana",  # with a start: who is at the table (its shooter's, or refused)
    "target": {"Ana": 30, "Ben": 20},
    "innings_limit": 25,
    "sets": 3,
    "equalizing": False,
    "equalizing_from_break": False,
    "rules": {"safety_rule": True, "cushion_repeat_merge_s": 0.15, "corner_zone_limit": 2},
    "clock": {"length_s": 30.0, "warning_s": 5.0, "extensions": 1, "extension_s": 20.0},
    "start": {"board": {"Ana": 12, "Ben": 7}, "innings": {"Ana": 9, "Ben": 9},
              "shooter": "Ana", "run": 2, "set_index": 1, "sets_won": {"Ben": 1}},
}  # fmt: skip


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    app = create_app(WebSettings(db=tmp_path / "web.db", token=TOKEN), say=lambda text: None)
    srv = serve_in_thread(app)
    try:
        yield srv
    finally:
        srv.stop()


def _post(srv: RunningServer, path: str, body: Any, auth: bool = True) -> httpx2.Response:
    return httpx2.post(srv.url + path, json=body, headers=AUTH if auth else {}, timeout=30)


def test_a_match_started_from_the_structure_is_the_match_file_s(server: RunningServer) -> None:
    r = _post(server, "/api/matches", FULL, auth=True)
    assert r.status_code == 201, r.text
    config = server.app.state.table.session.state.config
    assert config == parse_match_file(FULL).config()  # no camera: the rules as written
    assert config.cue_balls == {"Ana": Ball.WHITE, "Ben": Ball.DOTTED}
    assert config.options == RuleOptions(safety_rule=True, cushion_repeat_merge_s=0.15,
                                         corner_zone_limit=2)  # fmt: skip
    assert config.start == StartState(
        board={"Ana": 12, "Ben": 7},
        innings={"Ana": 9, "Ben": 9},
        shooter="Ana",
        run=2,
        set_index=1,
        sets_won={"Ben": 1},
    )
    state = r.json()["match"]
    assert [p["board"] for p in state["players"]] == [12, 7] and state["set_index"] == 1
    assert state["shot_clock"]["remaining_s"] == 30.0
    # The form reads the match on the table back as the same structure.
    back = httpx2.get(server.url + "/api/match-file").json()
    assert back["match"] == match_file_doc(parse_match_file(FULL))
    assert back["defaults"]["rules"] == RuleOptions().as_dict()
    assert back["defaults"]["clock"]["length_s"] == 40.0


def test_the_form_loads_and_saves_a_toml_match_file(server: RunningServer) -> None:
    empty = httpx2.get(server.url + "/api/match-file").json()["match"]
    assert empty == {"format": "carom-match/1", "discipline": "three-cushion",
                     "players": ["A", "B"]}  # fmt: skip
    loaded = _post(server, "/api/match-file/parse", {"text": EXAMPLE.read_text()})
    assert loaded.status_code == 200, loaded.text
    assert loaded.json()["match"] == match_file_doc(load_match_file(EXAMPLE))
    saved = _post(server, "/api/match-file/toml", FULL)
    assert saved.status_code == 200, saved.text
    assert parse_match_file(tomllib.loads(saved.json()["toml"])) == parse_match_file(FULL)
    as_json = _post(server, "/api/match-file/parse", {"text": '{"players": ["X", "Y"]}'})
    assert as_json.json()["match"]["players"] == ["X", "Y"]
    assert _post(server, "/api/match-file/toml", FULL, auth=False).status_code == 401


def test_three_players_with_the_dotted_white_round_trip_through_the_api(
    server: RunningServer,
) -> None:
    three = {"players": ["Ana", "Ben", "Cleo"], "cue_balls": ["white", "dotted"], "target": 5}
    toml = _post(server, "/api/match-file/toml", three)
    assert toml.status_code == 200, toml.text
    assert 'cue_balls = ["white", "dotted"]' in toml.json()["toml"]
    read = _post(server, "/api/match-file/parse", {"text": toml.json()["toml"]})
    assert read.json()["match"]["cue_balls"] == ["white", "dotted"]
    r = _post(server, "/api/matches", read.json()["match"])
    assert r.status_code == 201, r.text
    config = server.app.state.table.session.state.config
    assert config.rotates and config.rotation_balls == (Ball.WHITE, Ball.DOTTED)
    back = httpx2.get(server.url + "/api/match-file").json()["match"]
    assert back["cue_balls"] == ["white", "dotted"] and back["players"] == ["Ana", "Ben", "Cleo"]
    two = _post(server, "/api/match-file/toml", {"cue_balls": ["white", "dotted"]})
    assert two.status_code == 422 and "cue_balls: a list is the rotating pair" in two.text


@pytest.mark.parametrize(
    ("path", "body", "words"),
    [
        ("/api/match-file/parse", {"text": "players = [A, B]"}, "match file: not valid TOML"),
        (
            "/api/match-file/parse",
            {"text": "{" + '"a": [' * 99 + "]" * 99 + "}"},
            "nested 100 levels deep, more than the 64 allowed",
        ),  # bounded as a file
        ("/api/match-file/parse", {"text": '{"players": ' + "9" * 40 + "}"}, "digits"),
        ("/api/match-file/parse", {"text": "[clock]\nlength_s = 'x'"}, "clock.length_s:"),
        ("/api/match-file/parse", {"text": "sets = 2"}, "sets: must be an odd number"),
        # The console's Load then Start: read, then refused by POST /api/matches.
        (
            "/api/match-file/parse",
            {"text": f"players = ['{'A' * 41}', 'B']"},
            "players[0]: at most 40 characters",
        ),
        ("/api/match-file/parse", {"text": "sets = 101"}, "sets: "),
        ("/api/match-file/toml", {"rules": {"nope": True}}, "rules.nope"),
        ("/api/match-file/toml", {"first_player": "Zed"}, "first_player: 'Zed'"),
        ("/api/matches", {"start": {"run": 2}}, "start: a run under way needs the shooter"),
        ("/api/matches", {"clock": {"warning_s": 50}}, "clock: shot clock warning"),
    ],
)
def test_a_wrong_structure_is_422_naming_the_key(
    server: RunningServer, path: str, body: Any, words: str
) -> None:
    r = _post(server, path, body, auth=True)
    assert r.status_code == 422, r.text
    detail = r.json()["detail"]
    assert words in detail and "\n" not in detail
    assert server.app.state.table.session is None  # nothing started


def test_serve_with_a_match_file_puts_that_match_on_the_table(tmp_path: Path) -> None:
    match = tmp_path / "match.toml"
    match.write_text('players = ["P", "Q"]\ntarget = {P = 25, Q = 20}\n'
                     '[start]\nboard = {P = 4}\n')  # fmt: skip
    env = os.environ | {"CAROM_TOKEN": "serve-match-token-0123456789"}
    proc, url = _start("serve", "--db", str(tmp_path / "web.db"), "--port", "0", "--match",
                       str(match), "--players", "Ana,Ben", "--first", "Ben", env=env)  # fmt: skip
    try:
        state = httpx2.get(url + "/api/state", timeout=30).json()["match"]
        players = [(p["name"], p["target"], p["board"]) for p in state["players"]]
        assert players == [("Ana", 25, 4), ("Ben", 20, 0)]
        assert state["shooter"] == "Ben"
        form = httpx2.get(url + "/api/match-file", timeout=30).json()["match"]
        assert form["players"] == ["Ana", "Ben"] and form["start"] == {"board": {"Ana": 4}}
    finally:
        code, err = _stop(proc)
    assert code == 0, err


def test_serve_refuses_a_bad_match_file_in_one_line(tmp_path: Path) -> None:
    match = tmp_path / "match.toml"
    match.write_text("[rules]\nfollow_the_ball = true\n")
    cmd = [*carom_cmd(), "serve", "--db", str(tmp_path / "w.db"), "--port", "0"]
    done = subprocess.run([*cmd, "--match", str(match)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.startswith(f"carom: {match}: rules.follow_the_ball: unknown rule option")
    assert done.stderr.count("\n") == 1


def test_a_joined_match_on_the_table_comes_back_as_a_file_the_form_takes(
    server: RunningServer,
) -> None:
    """Without a camera the table named player 1 first_player even when the start put
    player 2 at the table; the match file it gave back was then refused (first_player
    and start.shooter differ), though nobody had typed a first player."""
    joined = {"players": ["Ana", "Ben"], "start": {"board": {"Ana": 3}, "shooter": "Ben"}}
    r = _post(server, "/api/matches", joined)
    assert r.status_code == 201, r.text
    assert r.json()["match"]["shooter"] == "Ben"
    doc = httpx2.get(server.url + "/api/match-file", timeout=30).json()["match"]
    assert doc.get("first_player") in (None, "Ben") and doc["start"]["shooter"] == "Ben"
    back = _post(server, "/api/match-file/toml", doc)
    assert back.status_code == 200, back.text

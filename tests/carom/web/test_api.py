"""The API with the real app, the real SQLite file and real referee: matches, calls, state."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from carom.i18n import catalogue
from carom.live import LiveSession, csv_columns
from carom.web import WebSettings, create_app
from referee import Ball, BallContact, Cushion, CushionContact, Match, Phase, Shot, parse_shot_log
from tests.carom.live.shotpool import analyzed, example_inputs, example_log
from tests.carom.web._web import (
    AUTH,
    PLAYERS,
    TOKEN,
    client,
    db_dump,
    feed_until_review,
    new_match,
    table,
)

THREE = Path(__file__).parents[3] / "examples" / "three_players_match.json"


def test_state_and_health_without_a_match(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        state = c.get("/api/state").json()
        assert state["match"] is None and state["camera"] == "none"
        health = c.get("/api/health").json()
        assert health == {"status": "ok", "camera": "none", "version": state["version"]}


def test_a_new_match_needs_the_token(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        body = {"players": PLAYERS}
        for headers in ({}, {"Authorization": "Bearer wrong-token-0123456789"},
                        {"Authorization": "Basic abc"}):  # fmt: skip
            r = c.post("/api/matches", json=body, headers=headers)
            assert r.status_code == 401
            assert "token" in r.json()["detail"] and "\n" not in r.json()["detail"]
        assert c.get("/api/state").json()["match"] is None
        state = new_match(c)
        match = state["match"]
        assert match["phase"] == "playing" and match["shooter"] == "Ann"  # no camera: Ann breaks
        assert [p["name"] for p in match["players"]] == PLAYERS
        assert [p["target"] for p in match["players"]] == [40, 40]


def test_one_match_at_a_time_and_closing_keeps_it_resumable(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        first = new_match(c, target={"Ann": 30, "Bob": 20}, innings_limit=50)
        r = c.post("/api/matches", json={"players": ["Cy", "Di"]}, headers=AUTH)
        assert r.status_code == 409 and "close" in r.json()["detail"]
        c.post("/api/calls", json={"kind": "correction", "player": "Ann", "points": 3},
               headers=AUTH).raise_for_status()  # fmt: skip
        closed = c.post("/api/matches/close", headers=AUTH).json()
        assert closed["match"] is None
        again = new_match(c, target={"Ann": 30, "Bob": 20}, innings_limit=50)
        assert again["match"]["id"] == first["match"]["id"]  # the same set-up resumes
        assert again["match"]["players"][0]["points"] == 3
        other = c.post("/api/matches/close", headers=AUTH)
        assert other.status_code == 200
        assert new_match(c, players=["Cy", "Di"])["match"]["id"] != first["match"]["id"]


def test_shots_fed_like_the_camera_score_as_the_referee_does(tmp_path: Path) -> None:
    log = example_log()
    truth = Match(log.match)
    assert log.lag is not None
    truth.lag(log.lag)
    breaker = truth.state.breaker
    for shot in log.shots:
        truth.play(shot)
    a, b = log.match.players
    with client(tmp_path) as c:
        t = table(c)
        new_match(c, players=[a, b], target=dict(log.match.target), first_player=breaker)
        versions = []
        inning, shooter = 1, breaker
        for shot in example_inputs()[1:]:  # the lag is not needed: the first player breaks
            doc = t.submit_shot(shot)
            if doc["pending_review"] is not None:  # a person accepts what the camera saw
                doc = c.post("/api/calls", json={"kind": "decision", "decision": "accept"},
                             headers=AUTH).json()  # fmt: skip
            versions.append(doc["version"])
            m = doc["match"]
            if m["shooter"] == breaker and shooter != breaker:
                inning += 1  # the breaker's turn again: the next inning begins
            shooter = m["shooter"]
            if m["winner"] is None:
                assert m["inning"] == inning, (m["inning"], inning, shooter)
        state = c.get("/api/state").json()
        assert versions == sorted(versions) and len(set(versions)) == len(versions)
        boards = {p["name"]: p["points"] for p in state["match"]["players"]}
        assert boards == {p: truth.state.scores[p].points for p in (a, b)}
        assert state["last_shot"]["n"] == len(log.shots) - 1
        assert state["last_shot"]["diagram_url"].endswith(
            f"/shots/{len(log.shots) - 1}/diagram.svg"
        )


def test_calls_change_the_match_and_undo_takes_them_back(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        new_match(c, clock={"length_s": 30, "extensions": 1})

        def call(**body: object) -> dict:
            r = c.post("/api/calls", json=body, headers=AUTH)
            assert r.status_code == 200, r.text
            return r.json()

        s = call(kind="correction", player="Bob", points=2)
        assert s["match"]["players"][1]["points"] == 2
        s = call(kind="turn", player="Bob")
        assert s["match"]["shooter"] == "Bob"
        before = c.get("/api/state").json()["match"]["shot_clock"]["remaining_s"]
        s = call(kind="timeout")
        assert s["match"]["players"][1]["timeouts"] == 1
        assert s["match"]["shot_clock"]["running"] is True
        assert s["match"]["shot_clock"]["remaining_s"] > before + 20  # 30 s more
        r = c.post("/api/calls", json={"kind": "timeout"}, headers=AUTH)
        assert r.status_code == 409 and "extension" in r.json()["detail"]
        s = call(kind="undo")
        assert s["match"]["players"][1]["timeouts"] == 0
        # The time-out's seconds go back with it (they stayed on the clock).
        assert s["match"]["shot_clock"]["remaining_s"] <= before
        s = call(kind="undo")
        assert s["match"]["shooter"] == "Ann"
        s = call(kind="undo")
        assert s["match"]["players"][1]["points"] == 0
        r = c.post("/api/calls", json={"kind": "undo"}, headers=AUTH)
        assert r.status_code == 409 and r.json()["detail"] == "nothing to undo"


def test_a_review_waits_for_the_person_and_the_decision_scores_it(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        t = table(c)
        new_match(c, target=999)
        held = feed_until_review(t)
        pending = held["pending_review"]
        assert c.get("/api/review").json()["pending"] == pending
        svg = c.get(pending["diagram_url"])
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg+xml")
        assert c.get("/api/review/replay").json() == {"fps": 10.0, "frames": []}
        with pytest.raises(Exception, match="waits for review"):
            t.submit_shot(t.session.pending and _any_shot())  # type: ignore[arg-type]
        # A three-cushion stroke scores 1 point at most: 2 is refused, nothing changes.
        r = c.post("/api/calls", json={"kind": "decision", "decision": "points", "points": 2},
                   headers=AUTH)  # fmt: skip
        assert (
            r.status_code == 409
            and "one stroke scores 1 at most in three-cushion" in r.json()["detail"]
        )
        assert c.get("/api/review").json()["pending"] == pending
        r = c.post("/api/calls", json={"kind": "decision", "decision": "points", "points": 1},
                   headers=AUTH)  # fmt: skip
        assert r.status_code == 200, r.text
        s = r.json()
        assert s["pending_review"] is None
        shooter = pending["shooter"]
        before = {p["name"]: p["points"] for p in held["match"]["players"]}
        after = {p["name"]: p["points"] for p in s["match"]["players"]}
        assert after[shooter] == before[shooter] + 1
        r = c.post("/api/calls", json={"kind": "decision", "decision": "accept"}, headers=AUTH)
        assert r.status_code == 409 and "no shot waits for review" in r.json()["detail"]


def feed_example(c: object) -> None:
    """The example's shots, a review accepted by a person."""
    for shot in example_inputs()[1:]:
        if table(c).submit_shot(shot)["pending_review"] is not None:  # type: ignore[arg-type]
            r = c.post("/api/calls", json={"kind": "decision", "decision": "accept"},  # type: ignore[attr-defined]
                       headers=AUTH)  # fmt: skip
            assert r.status_code == 200


def _breaker() -> str | None:
    log = example_log()
    truth = Match(log.match)
    assert log.lag is not None
    truth.lag(log.lag)
    return truth.state.breaker


def _any_shot() -> object:
    return example_inputs()[1]


def test_refused_calls_change_nothing_in_the_database(tmp_path: Path) -> None:
    bad = [
        ({"kind": "undo"}, AUTH, 409),
        ({"kind": "decision", "decision": "accept"}, AUTH, 409),
        ({"kind": "correction", "player": "Zed", "points": 1}, AUTH, 422),
        ({"kind": "correction", "player": "Ann", "points": 0}, AUTH, 422),
        ({"kind": "foul", "foul": "no-such-foul"}, AUTH, 422),
        ({"kind": "correction", "player": "Ann", "points": 1}, {}, 401),
        ({"kind": "undo", "extra": 1}, AUTH, 422),
        ({"kind": "decision", "decision": "points"}, AUTH, 422),
        # JSON's true, a string or 2.0 are not points (true was +1 and "3" was +3)
        ({"kind": "correction", "player": "Ann", "points": True}, AUTH, 422),
        ({"kind": "correction", "player": "Ann", "points": "3"}, AUTH, 422),
        ({"kind": "correction", "player": "Ann", "points": 2.0}, AUTH, 422),
        ({"kind": "decision", "decision": "points", "points": "1"}, AUTH, 422),
    ]
    with client(tmp_path) as c:
        new_match(c)
        db = tmp_path / "web.db"
        before, version = db_dump(db), table(c).session.version  # type: ignore[union-attr]
        for body, headers, status in bad:
            r = c.post("/api/calls", json=body, headers=headers)
            assert r.status_code == status, (body, r.text)
            detail = r.json()["detail"]
            assert isinstance(detail, str) and detail and "\n" not in detail
            assert "correction: correction:" not in detail
            if body.get("points") is True:
                assert detail.startswith("correction.points: Input should be a valid integer")
        r = c.post("/api/calls", content=b'{"kind": "undo"}', headers=AUTH)  # no content-type
        assert r.status_code == 422 and "content-type: application/json" in r.json()["detail"]
        assert db_dump(db) == before
        assert table(c).session.version == version  # type: ignore[union-attr]


def test_bad_match_set_ups_are_422_with_the_field_named(tmp_path: Path) -> None:
    cases = {
        "players": {"players": ["Ann"]},
        "different names": {"players": ["Ann", "Ann"]},
        "players[2]: a name is empty": {"players": ["Ann", "Bob", "  "]},
        "target": {"players": PLAYERS, "target": {"Ann": 10}},
        "sets": {"players": PLAYERS, "sets": 2},
        "first_player": {"players": PLAYERS, "first_player": "Zed"},
        "discipline": {"players": PLAYERS, "discipline": "snooker"},
        "clock.length_s": {"players": PLAYERS, "clock": {"length_s": "40"}},
        "clock: shot clock length": {"players": PLAYERS, "clock": {"length_s": 0}},
        "rules.follow_the_ball": {"players": PLAYERS, "rules": {"follow_the_ball": True}},
        "start.shooter": {"players": PLAYERS, "start": {"shooter": "Zed"}},
        "cue_balls": {"players": PLAYERS, "cue_balls": {"Ann": "white", "Bob": "white"}},
        # past what a page shows exactly (a browser rounded 10**20 to another number)
        "less than or equal to 100000": {"players": PLAYERS, "target": {"Ann": 10**20, "Bob": 5}},
        "innings_limit": {"players": PLAYERS, "innings_limit": 10**23},
        "start_count": {"players": PLAYERS, "start_count": 100001},
    }
    with client(tmp_path) as c:
        before = db_dump(tmp_path / "web.db")
        for word, body in cases.items():
            r = c.post("/api/matches", json=body, headers=AUTH)
            assert r.status_code == 422, (body, r.text)
            assert word in r.json()["detail"]
        r = c.post(
            "/api/matches",
            content=b"{not json",
            headers=AUTH | {"content-type": "application/json"},
        )
        assert r.status_code == 422
        assert r.json()["detail"].startswith(
            "the body is not valid JSON at character 1 (Expecting property name enclosed in "
            "double quotes); send a JSON object"
        )  # it said "1: JSON decode error"
        r = c.post("/api/matches", content=b"", headers=AUTH | {"content-type": "application/json"})
        assert r.status_code == 422 and r.json()["detail"].startswith("no body; send a JSON object")
        assert db_dump(tmp_path / "web.db") == before


def test_large_bodies_are_refused_with_413(tmp_path: Path) -> None:
    with client(tmp_path, max_body_bytes=2048) as c:
        big = {"players": PLAYERS, "pad": "x" * 4096}
        assert c.post("/api/matches", json=big, headers=AUTH).status_code == 413

        def chunks():  # no Content-Length: the size is counted as it streams
            for _ in range(8):
                yield b" " * 1024

        r = c.post(
            "/api/matches", content=chunks(), headers=AUTH | {"content-type": "application/json"}
        )
        assert r.status_code == 413 and "too large" in r.json()["detail"]
        assert c.get("/api/state").json()["match"] is None
        # Without the token: 401 whatever it sends, declared or streamed (it was a 413
        # for a declared size, which told how bodies are checked: docs/security.md).
        assert c.post("/api/matches", json=big).status_code == 401
        assert c.post("/api/matches", content=chunks()).status_code == 401


def test_history_exports_diagrams_and_player_stats(tmp_path: Path) -> None:
    log = example_log()
    a, b = log.match.players
    with client(tmp_path) as c:
        new_match(c, players=[a, b], target=dict(log.match.target), first_player=_breaker())
        feed_example(c)
        match_id = c.get("/api/state").json()["match"]["id"]
        listed = c.get("/api/matches").json()
        assert [m["id"] for m in listed] == [match_id] and listed[0]["shots"] == len(log.shots)
        detail = c.get(f"/api/matches/{match_id}").json()
        assert len(detail["scoresheet"]) == len(log.shots)
        assert detail["stats"][a]["points"] == detail["score"][a]
        exported = c.get(f"/api/matches/{match_id}/export.json")
        shot_log = exported.json()
        assert shot_log["format"].startswith("carom-shots/") and len(shot_log["shots"]) == len(
            log.shots
        )
        assert detail["corrections_not_in_export"] == 0 and "x-carom-note" not in exported.headers
        csv = c.get(f"/api/matches/{match_id}/export.csv").text.splitlines()
        assert csv[0].startswith("date,discipline,player_a") and a in csv[1]
        svg = c.get(f"/api/matches/{match_id}/shots/0/diagram.svg")
        assert svg.status_code == 200 and svg.text.lstrip().startswith("<svg")
        # In the page's language: the caption's reason and the key's words.
        first = detail["scoresheet"][0]
        korean = c.get(f"/api/matches/{match_id}/shots/0/diagram.svg?lang=ko").text
        report = catalogue("report")
        assert report.text("ko", "key_start") in korean and first["reason"] not in korean
        assert report.text("en", "key_start") in svg.text and first["reason"] in svg.text
        # The events under the diagram too: ball names and "s" from the catalogue.
        white = report.text("ko", "ball_white")
        assert white in korean and "white-" not in korean and "-white" not in korean
        assert "white" in svg.text
        assert c.get(f"/api/matches/{match_id}/shots/0/diagram.svg?lang=xx").text == svg.text
        too_long = c.get(f"/api/matches/{match_id}/shots/0/diagram.svg?lang=" + "k" * 40)
        assert too_long.status_code == 422
        assert c.get(f"/api/matches/{match_id}/shots/999/diagram.svg").status_code == 404
        assert c.get("/api/matches/77").status_code == 404
        stats = c.get("/api/players/stats").json()
        assert stats[a]["matches"] == 1 and stats[a]["points"] == detail["score"][a]
        session = LiveSession.load(table(c).store, match_id)
        assert session.state.phase in (Phase.PLAYING, Phase.OVER)


def test_pages_and_static_files_are_served_read_only(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        for path in ("/", "/scoreboard", "/overlay", "/console", "/wizard", "/history"):
            r = c.get(path)
            assert r.status_code == 200 and r.headers["content-type"].startswith("text/html")
        assert c.get("/static/style.css").status_code == 200
        for path in ("/", "/scoreboard", "/overlay", "/console", "/wizard", "/history", "/docs"):
            assert '<link rel="icon" href="/static/favicon.svg"' in c.get(path).text, path
        icon = c.get("/favicon.ico")  # asked for where a page names none: not a 404
        assert icon.status_code == 200 and icon.headers["content-type"] == "image/svg+xml"
        assert icon.content == c.get("/static/favicon.svg").content
        assert c.get("/static/../_app.py").status_code == 404
        assert c.get("/static/%2e%2e/_app.py").status_code == 404
        assert c.post("/scoreboard").status_code == 405


def test_cors_is_off_unless_origins_are_given(tmp_path: Path) -> None:
    pre = {"Origin": "http://evil.example", "Access-Control-Request-Method": "POST"}
    with client(tmp_path) as c:
        r = c.options("/api/calls", headers=pre)
        assert "access-control-allow-origin" not in r.headers
    with client(tmp_path / "b" if (tmp_path / "b").mkdir() is None else tmp_path,
                cors_origins=("http://studio.local:8000",)) as c:  # fmt: skip
        ok = c.options("/api/calls", headers=pre | {"Origin": "http://studio.local:8000"})
        assert ok.headers["access-control-allow-origin"] == "http://studio.local:8000"
        r = c.options("/api/calls", headers=pre)
        assert "access-control-allow-origin" not in r.headers


def test_the_callable_fouls_are_the_referees() -> None:
    from typing import get_args

    from carom.web._models import CallableFoul
    from referee import CALL_FOULS

    assert set(get_args(CallableFoul)) == {f.value for f in CALL_FOULS}


def test_the_state_says_whether_a_shot_was_a_break_and_why(tmp_path: Path) -> None:
    w, y, r = Ball.WHITE, Ball.YELLOW, Ball.RED
    yellow_first = (
        BallContact(t_s=0.3, balls=(w, y)),
        CushionContact(t_s=0.8, ball=w, cushion=Cushion.FOOT),
        CushionContact(t_s=1.3, ball=w, cushion=Cushion.LEFT),
        CushionContact(t_s=1.8, ball=w, cushion=Cushion.HEAD),
        BallContact(t_s=2.4, balls=(w, r)),
    )
    layout = {w: (710.0, 557.6), y: (710.0, 690.0), r: (2130.0, 710.0)}  # yellow 20 mm off
    with client(tmp_path) as c:
        t = table(c)
        new_match(c, first_player="Ann")
        brk = t.submit_shot(analyzed(Shot(index=0, cue_ball=w, events=yellow_first,
                                          start_positions_mm=layout)))["last_shot"]  # fmt: skip
        assert brk["break"] is True and brk["fouls"] == ["break_wrong_ball_first"]
        assert brk["break_rule"].startswith("a break: the balls stand in the break layout")
        assert brk["announcements"] == [
            "wrong break position: yellow is 20 mm off the head spot (at most 15 mm)"
        ]
        open_table = {w: (600.0, 300.0), r: (1000.0, 500.0), y: (2300.0, 1100.0)}
        events = (
            BallContact(t_s=0.3, balls=(y, w)),
            CushionContact(t_s=0.8, ball=y, cushion=Cushion.FOOT),
            CushionContact(t_s=1.3, ball=y, cushion=Cushion.LEFT),
            CushionContact(t_s=1.8, ball=y, cushion=Cushion.HEAD),
            BallContact(t_s=2.4, balls=(y, r)),
        )
        second = Shot(index=1, cue_ball=y, events=events, start_positions_mm=open_table)
        play = t.submit_shot(analyzed(second))["last_shot"]
        assert play["break"] is False and play["points"] == 1 and play["shooter"] == "Bob"
        assert play["break_rule"].startswith("play: the balls are not in the break layout")


def test_three_players_state_history_and_pages(tmp_path: Path) -> None:
    log = parse_shot_log(json.loads(THREE.read_text()))
    with client(tmp_path) as c:
        state = new_match(c, players=["Ana", "Ben", "Cleo"], target=3, first_player="Ana")
        assert [p["name"] for p in state["match"]["players"]] == ["Ana", "Ben", "Cleo"]
        shooters = []
        for shot in log.shots:
            shooters.append(c.get("/api/state").json()["match"]["shooter"])
            doc = table(c).submit_shot(analyzed(shot))
            assert doc["pending_review"] is None, doc["pending_review"]
        assert shooters == ["Ana", "Ana", "Ben", "Ben", "Ben", "Cleo", "Ana", "Ana", "Ben", "Cleo"]
        m = c.get("/api/state").json()["match"]
        assert m["over"] and m["draw"] and m["tied"] == ["Ana", "Ben"]
        assert [(p["name"], p["board"], p["innings"]) for p in m["players"]] == [
            ("Ana", 3, 2), ("Ben", 3, 2), ("Cleo", 0, 2),
        ]  # fmt: skip
        detail = c.get(f"/api/matches/{m['id']}").json()
        assert detail["players"] == ["Ana", "Ben", "Cleo"]
        assert len(detail["scoresheet"]) == len(log.shots) and set(detail["stats"]) == {
            "Ana", "Ben", "Cleo",
        }  # fmt: skip
        assert c.get(f"/api/matches/{m['id']}/export.json").json()["match"]["players"] == [
            "Ana", "Ben", "Cleo",
        ]  # fmt: skip
        rows = list(csv.DictReader(c.get(f"/api/matches/{m['id']}/export.csv").text.splitlines()))
        assert len(rows) == 1 and tuple(rows[0]) == csv_columns(3)
        assert [rows[0][f"{k}_c"] for k in ("player", "points", "match_points")] == [
            "Cleo",
            "0",
            "0",
        ]
        assert rows[0]["match_points_a"] == rows[0]["match_points_b"] == "1"
        # The pages build one panel (one overlay row) per player from the state.
        assert "function panels(n)" in c.get("/static/scoreboard.js").text
        assert "function lines(n)" in c.get("/static/overlay.js").text
        too_many = c.post("/api/matches", json={"players": list("ABCDEFGHI")}, headers=AUTH)
        assert too_many.status_code == 422


def test_a_restart_names_the_match_left_unfinished_and_its_set_up_resumes_it(
    tmp_path: Path,
) -> None:
    """The console's match is not on the table after a restart (its clock settings are
    not kept): the server's start names it and how to go on, instead of nothing."""
    with client(tmp_path) as c:
        first = new_match(c, first_player="Bob")["match"]["id"]
        assert c.post("/api/calls", json={"kind": "correction", "player": "Bob", "points": 7},
                      headers=AUTH).status_code == 200  # fmt: skip
    said: list[str] = []
    settings = WebSettings(db=tmp_path / "web.db", token=TOKEN)
    with TestClient(create_app(settings, say=said.append)) as c:
        assert c.get("/api/state").json()["match"] is None
        (line,) = [s for s in said if "unfinished" in s]
        assert line.startswith(f"match {first} (Ann - Bob, begun ")
        assert "a new match with the same set-up (players, first player, targets, rules)" in line
        state = new_match(c, first_player="Bob")
        assert state["match"]["id"] == first
        assert [p["points"] for p in state["match"]["players"]] == [0, 7]
    said.clear()
    with TestClient(create_app(settings, say=said.append)) as c:  # the same: still unfinished
        assert any(f"match {first} (" in s for s in said)


def test_an_export_json_says_it_leaves_out_the_referee_s_corrections(tmp_path: Path) -> None:
    """A correction has no place in a shot log: the history and the export say so (before,
    the export re-scored to another result without a word)."""
    with client(tmp_path) as c:
        match_id = new_match(c)["match"]["id"]
        r = c.post("/api/calls", json={"kind": "correction", "player": "Ann", "points": 1},
                   headers=AUTH)  # fmt: skip
        assert r.status_code == 200, r.text
        assert c.get(f"/api/matches/{match_id}").json()["corrections_not_in_export"] == 1
        note = c.get(f"/api/matches/{match_id}/export.json").headers["x-carom-note"]
        assert note.startswith("1 referee correction(s) left out: carom-shots/1 cannot hold")


def test_a_new_database_is_said_and_a_body_too_deep_to_read_says_what_to_send(
    tmp_path: Path,
) -> None:
    """A mistyped --db made an empty database without a word (the club's matches seemed
    gone); JSON nested 5000 deep said "There was an error parsing the body"."""
    said: list[str] = []
    settings = WebSettings(db=tmp_path / "new.db", token=TOKEN)
    with TestClient(create_app(settings, say=said.append)) as c:
        assert any(s.startswith(f"{tmp_path / 'new.db'}: a new match database") for s in said)
        deep = b"[" * 5000 + b"]" * 5000
        r = c.post("/api/calls", content=deep,
                   headers=AUTH | {"content-type": "application/json"})  # fmt: skip
        assert r.status_code in (400, 422), r.text
        assert "There was an error" not in r.text and "send" in r.json()["detail"]
        latin1 = '{"kind": "correction", "player": "Andr\xe9", "points": 1}'.encode("latin-1")
        r = c.post("/api/calls", content=latin1,
                   headers=AUTH | {"content-type": "application/json"})  # fmt: skip
        assert r.status_code == 400, r.text  # it said: nested too deeply, or a long number
        assert r.json()["detail"].startswith(
            "the body is not UTF-8 text (byte 39, counted from 1)"
        ), r.text
    said.clear()
    with TestClient(create_app(settings, say=said.append)):
        assert not any("a new match database" in s for s in said)


def test_an_unknown_address_says_where_the_pages_and_the_api_are(tmp_path: Path) -> None:
    """It said {"detail": "Not Found"}."""
    with client(tmp_path) as c:
        r = c.get("/api/nonexistent")
        assert r.status_code == 404
        assert r.json()["detail"] == (
            "/api/nonexistent: no such address here; the pages are /, /scoreboard, "
            "/overlay, /console, /wizard, /history, the API's addresses are listed at /docs"
        )
        assert c.get("/api/matches/99").json()["detail"] != r.json()["detail"]  # its own


def test_a_method_an_address_does_not_take_says_which_it_takes(tmp_path: Path) -> None:
    """It said {"detail": "Method Not Allowed"}."""
    with client(tmp_path) as c:
        r = c.put("/api/calls", json={"kind": "undo"}, headers=AUTH)
        assert r.status_code == 405
        assert (
            r.json()["detail"]
            == "PUT /api/calls: not taken here; this address takes POST (see /docs)"
        )
        assert r.headers["allow"] == "POST"


def test_the_players_best_average_is_of_a_finished_match_they_won_or_drew(
    tmp_path: Path,
) -> None:
    """docs/stats.md: BA is of a finished match the player won or drew, 0.000 without one
    (as carom stats says). The API gave the best of every match, lost and unfinished."""

    def call(c: TestClient, **body: object) -> None:
        c.post("/api/calls", json=body, headers=AUTH).raise_for_status()

    with client(tmp_path) as c:
        new_match(c, target=3)  # Ann 2 in her inning, then Bob 3 in his: Bob wins
        call(c, kind="correction", player="Ann", points=2)
        call(c, kind="turn", player="Bob")
        call(c, kind="correction", player="Bob", points=3)
        assert c.get("/api/state").json()["match"]["phase"] == "over"
        c.post("/api/matches/close", headers=AUTH).raise_for_status()
        new_match(c, players=["Ann", "Cy"])  # unfinished: Ann 5 in one inning
        call(c, kind="correction", player="Ann", points=5)
        stats = c.get("/api/players/stats").json()
    assert stats["Ann"]["best_average"] == "0.000"  # lost the one, the other unfinished
    assert stats["Bob"]["best_average"] == "3.000"
    assert stats["Cy"]["best_average"] == "0.000"
    assert stats["Ann"]["matches"] == 2 and stats["Ann"]["points"] == 7


def test_the_players_stats_give_each_discipline_apart(tmp_path: Path) -> None:
    """Ann's straight-rail 20 points an inning and her three-cushion 1 made one "general
    average" of 10.5: the answer also gives each discipline's own figures, as carom stats
    ranks them (found by a review as a coach)."""

    def call(c: TestClient, **body: object) -> None:
        c.post("/api/calls", json=body, headers=AUTH).raise_for_status()

    with client(tmp_path) as c:
        new_match(c, target=40)
        call(c, kind="correction", player="Ann", points=1)
        c.post("/api/matches/close", headers=AUTH).raise_for_status()
        new_match(c, discipline="straight-rail", target=300)
        call(c, kind="correction", player="Ann", points=20)
        stats = c.get("/api/players/stats").json()
    ann = stats["Ann"]
    assert (ann["matches"], ann["points"], ann["innings"]) == (2, 21, 2)  # over all, as before
    assert ann["disciplines"] == {
        "straight-rail": {"matches": 1, "points": 20, "innings": 1, "general_average": "20.000",
                          "best_average": "0.000", "high_run": 20},
        "three-cushion": {"matches": 1, "points": 1, "innings": 1, "general_average": "1.000",
                          "best_average": "0.000", "high_run": 1},
    }  # fmt: skip
    assert set(stats["Bob"]["disciplines"]) == {"straight-rail", "three-cushion"}

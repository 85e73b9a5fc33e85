"""The console's ``shot_clock_expiry`` option through the HTTP API (no camera: the table's clock).

The table's clock reads ``Table.now``; the tests set it to a hand-moved time, so the
clock runs out exactly when they say. Shots are fed as the camera would hand them over.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from fastapi.testclient import TestClient

from referee import Ball, BallContact, Cushion, CushionContact, Shot
from tests.carom.live.shotpool import analyzed
from tests.carom.web._web import AUTH, client, new_match, table

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
#: Ann's three-cushion point: red, three cushions, then the yellow.
POINT = Shot(
    index=0,
    cue_ball=W,
    events=(
        BallContact(t_s=0.3, balls=(W, R)),
        CushionContact(t_s=0.8, ball=W, cushion=Cushion.FOOT),
        CushionContact(t_s=1.3, ball=W, cushion=Cushion.LEFT),
        CushionContact(t_s=1.8, ball=W, cushion=Cushion.HEAD),
        BallContact(t_s=2.4, balls=(W, Y)),
    ),
)


class _Time:
    """A monotonic time the test moves by hand (seconds)."""

    def __init__(self) -> None:
        self.t_s = 1000.0

    def __call__(self) -> float:
        return self.t_s


def _start(c: TestClient, expiry: str | None) -> tuple[_Time, dict[str, Any]]:
    now = _Time()
    table(c).now = now
    clock: dict[str, Any] = {"length_s": 20, "extensions": 1}
    if expiry is not None:
        clock["expiry"] = expiry
    return now, new_match(c, clock=clock)


def _call(c: TestClient, **body: Any) -> Any:
    return c.post("/api/calls", json=body, headers=AUTH)


def test_the_option_defaults_to_warn_and_is_checked(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.post("/api/matches", json={"players": ["Ann", "Bob"], "clock": {"expiry": "fine"}},
                   headers=AUTH)  # fmt: skip
        assert r.status_code == 422 and "clock.expiry" in r.json()["detail"]
        _, state = _start(c, None)
        clock = state["match"]["shot_clock"]
        assert clock == {"remaining_s": 20.0, "running": True, "warning": False,
                         "expired": False, "expiry": "warn"}  # fmt: skip


def test_warn_shows_time_up_and_the_late_stroke_still_scores(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        now, _ = _start(c, "warn")
        now.t_s += 25.0
        clock = c.get("/api/state").json()["match"]["shot_clock"]
        assert clock["expired"] and clock["remaining_s"] == 0.0
        r = _call(c, kind="timeout")  # a referee may still grant it: only a warning
        assert r.status_code == 200, r.text
        now.t_s += 90.0
        state = table(c).submit_shot(analyzed(POINT))
        shot = state["last_shot"]
        assert (shot["shooter"], shot["verdict"], shot["fouls"]) == ("Ann", "point", [])
        assert state["match"]["shooter"] == "Ann"


def test_foul_makes_the_late_stroke_a_foul_and_undo_takes_it_back(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        now, state = _start(c, "foul")
        assert state["match"]["shot_clock"]["expiry"] == "foul"
        now.t_s += 19.0
        in_time = table(c).submit_shot(analyzed(POINT))  # struck with 1 s left: counts
        assert in_time["last_shot"]["verdict"] == "point"
        now.t_s += 20.5
        assert c.get("/api/state").json()["match"]["shot_clock"]["expired"]
        r = _call(c, kind="timeout")
        assert r.status_code == 409 and "time is up" in r.json()["detail"]
        late = table(c).submit_shot(analyzed(POINT))  # numbered 1 by the match
        shot = late["last_shot"]
        assert (shot["n"], shot["shooter"], shot["verdict"]) == (1, "Ann", "foul")
        assert shot["fouls"] == ["shot_clock"] and "shot clock" in shot["reason"]
        assert [p["points"] for p in late["match"]["players"]] == [1, 0]
        assert late["match"]["shooter"] == "Bob"  # the inning passed
        assert late["what"].startswith("foul shot_clock called")
        undone = _call(c, kind="undo").json()  # the referee overrules the clock
        assert undone["last_shot"]["verdict"] == "point"
        assert [p["points"] for p in undone["match"]["players"]] == [2, 0]


@pytest.mark.parametrize("expiry", ["warn", "foul"])
def test_a_person_may_call_the_shot_clock_foul(tmp_path: Path, expiry: str) -> None:
    with client(tmp_path) as c:
        _start(c, expiry)
        table(c).submit_shot(analyzed(POINT))
        r = _call(c, kind="foul", foul="shot_clock")
        assert r.status_code == 200, r.text
        assert r.json()["last_shot"]["fouls"] == ["shot_clock"]


def test_by_hand_each_point_turn_or_foul_entered_starts_the_next_stroke_s_time(
    tmp_path: Path,
) -> None:
    """Before, the console's clock ran only from the match's start: after its first
    20 s it showed TIME for good and every time-out was refused."""
    with client(tmp_path) as c:
        now, _ = _start(c, "foul")
        for body in ({"kind": "correction", "player": "Ann", "points": 1},
                     {"kind": "turn", "player": "Bob"}, {"kind": "undo"}):  # fmt: skip
            now.t_s += 15.0
            r = _call(c, **body)
            assert r.status_code == 200, r.text
            clock = r.json()["match"]["shot_clock"]
            assert (clock["remaining_s"], clock["expired"]) == (20.0, False), body
        now.t_s += 15.0
        assert _call(c, kind="timeout").status_code == 200  # 5 s left: granted
        now.t_s += 60.0
        assert c.get("/api/state").json()["match"]["shot_clock"]["expired"]

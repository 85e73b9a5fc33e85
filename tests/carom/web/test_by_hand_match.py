"""A match kept by hand in the console (no camera): turns count innings, the target
gives the equalizing inning, and a restarted server resumes the same state."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient

from tests.carom.web._web import AUTH, client, new_match, table


def _call(c: TestClient, **body: Any) -> dict[str, Any]:
    r = c.post("/api/calls", json=body, headers=AUTH)
    assert r.status_code == 200, r.text
    doc: dict[str, Any] = r.json()
    return doc


def _players(state: dict[str, Any]) -> dict[str, tuple[int, int]]:
    """Each player's (points, innings)."""
    return {p["name"]: (p["points"], p["innings"]) for p in state["match"]["players"]}


def test_the_helper_s_match_by_hand_counts_innings_and_equalizes(tmp_path: Path) -> None:
    """Kim +1, turn Lee, Lee +1, turn Kim, Kim +1 at a target of 2: it ended at once
    with Kim the winner and no inning counted; Lee now gets the equalizing inning."""
    with client(tmp_path) as c:
        new_match(c, players=["Kim", "Lee"], target=2)
        _call(c, kind="correction", player="Kim", points=1)
        _call(c, kind="turn", player="Lee")
        _call(c, kind="correction", player="Lee", points=1)
        state = _call(c, kind="turn", player="Kim")
        assert _players(state) == {"Kim": (1, 1), "Lee": (1, 1)}
        state = _call(c, kind="correction", player="Kim", points=1)
        match = state["match"]
        assert match["phase"] == "playing" and match["shooter"] == "Lee", match
        assert _players(state) == {"Kim": (2, 2), "Lee": (1, 1)}
    with client(tmp_path) as c:  # the server restarted: the journal replays the same
        state = new_match(c, players=["Kim", "Lee"], target=2)
        assert state["match"]["shooter"] == "Lee"
        assert _players(state) == {"Kim": (2, 2), "Lee": (1, 1)}
        state = _call(c, kind="turn", player="Kim")  # Lee's equalizing inning: nothing
        assert state["match"]["phase"] == "over" and state["match"]["winner"] == "Kim"
        assert _players(state) == {"Kim": (2, 2), "Lee": (1, 2)}


def test_a_turn_in_a_match_fed_shots_by_a_script_stays_a_correction(tmp_path: Path) -> None:
    """Shots fed through the table (no camera) are strokes: a turn is a fix, no inning."""
    from tests.carom.live.shotpool import example_inputs

    with client(tmp_path) as c:
        new_match(c, players=["Ann", "Bob"], first_player="Ann")
        doc = table(c).submit_shot(example_inputs()[1])
        before = _players(doc)
        shooter = doc["match"]["shooter"]
        other = "Bob" if shooter == "Ann" else "Ann"
        state = _call(c, kind="turn", player=other)
        assert _players(state) == before  # nobody's inning counted by the fix

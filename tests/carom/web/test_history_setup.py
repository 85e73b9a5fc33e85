"""The set-up a match was judged under, on the history's match (``GET /api/matches/{id}``).

The real app and database: the terms are the report's words (docs/report.md), in the
language asked (``?lang=``, else the browser's ``Accept-Language``, else English), with
that language's numbers.
"""

from __future__ import annotations

import json
from dataclasses import replace
from pathlib import Path

from carom.live import LiveSession, LiveSetup, MatchStore, shot_log
from carom.match import score_file
from carom.web._history import History
from tests.carom.live.shotpool import NOW, SOURCE, analyzed, example_log
from tests.carom.web._web import AUTH, client, new_match


def test_the_match_gives_its_set_up_in_the_language_asked(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        new_match(c, target={"Ann": 30, "Bob": 20}, innings_limit=50, sets=3)
        match_id = c.get("/api/state").json()["match"]["id"]
        url = f"/api/matches/{match_id}"
        assert c.get(url).json()["setup"] == [
            "to Ann 30, Bob 20 points a set (handicap)",
            "best of 3 sets",
            "innings limit 50",
            "equalizing inning from the break position",
            "match table 2,840x1,420 mm",
        ]
        french = c.get(url, params={"lang": "fr"}).json()["setup"]
        assert french[0] == "en Ann 30, Bob 20 points par manche (handicap)"
        assert french[-1] == "table de match 2\u202f840x1\u202f420 mm"
        turkish = c.get(url, headers={"Accept-Language": "tr-TR,tr;q=0.9"}).json()["setup"]
        assert turkish[-1] == "maç masası 2.840x1.420 mm"
        # ?lang= wins over the browser's language; an unknown one falls back to English.
        asked = c.get(url, params={"lang": "fr"}, headers={"Accept-Language": "tr"})
        assert asked.json()["setup"] == french
        assert c.get(url, params={"lang": "xx"}).json()["setup"][2] == "innings limit 50"


def test_the_set_up_says_what_the_game_has_and_nothing_it_has_not(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        new_match(c, discipline="straight-rail", target=100, table="small")
        match_id = c.get("/api/state").json()["match"]["id"]
        assert c.get(f"/api/matches/{match_id}").json()["setup"] == [
            "to 100 points", "equalizing inning from the break position",
            "small table 2,764x1,382 mm",
        ]  # fmt: skip
        c.post("/api/matches/close", headers=AUTH).raise_for_status()
        # The 7-pin game counts down from its start count and has no equalizing inning.
        new_match(c, discipline="pin-carom-7", table="pyramid")
        pins_id = c.get("/api/state").json()["match"]["id"]
        assert c.get(f"/api/matches/{pins_id}").json()["setup"] == [
            "each counts down from 300", "pyramid table 3,550x1,775 mm",
        ]  # fmt: skip


def test_a_match_joined_without_a_lag_says_so_and_its_export_replays(tmp_path: Path) -> None:
    """No first player and no lag (a camera's match): the first stroke's ball told who was
    at the table. The history's set-up says the match was joined; its export replays."""
    store = MatchStore(tmp_path / "live.db")
    config = replace(example_log().match, first_player=None)
    session = LiveSession.open(store, LiveSetup(config, SOURCE), now_iso=NOW)
    session.submit(analyzed(example_log().shots[0]), video_t_s=1.0, now_iso=NOW)
    detail = History(store).detail(session.match_id)
    joined = "joined in progress (the score before is not known: counted from 0)"
    assert detail["setup"][-1] == joined
    log = shot_log(session)
    assert log["match"]["start"] == {} and "lag" not in log
    path = tmp_path / "export.json"
    path.write_text(json.dumps(log), encoding="utf-8")
    scored = score_file(path)
    assert scored.error is None and scored.match.state.scores == session.state.scores

"""``GET /api/matches/{id}/shots.csv`` over real HTTP: the rows of export.json, field by field."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from tests.carom.live.shotpool import example_inputs, example_log
from tests.carom.report.shot_csv_check import check_against_log
from tests.carom.web._web import AUTH, TOKEN

EVIL = '=HYPERLINK("http://ev.il/","Click")'


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    app = create_app(WebSettings(db=tmp_path / "web.db", token=TOKEN), say=lambda text: None)
    srv = serve_in_thread(app)
    try:
        yield srv
    finally:
        srv.stop()


def _play_example(srv: RunningServer, players: list[str]) -> int:
    """The example match's shots, played by ``players`` (a review accepted); the match id."""
    log = example_log()
    body = {"players": players, "target": 40, "first_player": players[0]}
    r = httpx2.post(srv.url + "/api/matches", json=body, headers=AUTH, timeout=30)
    assert r.status_code == 201, r.text
    table = srv.app.state.table
    for shot in example_inputs()[1 : 1 + len(log.shots)]:
        if table.submit_shot(shot)["pending_review"] is not None:
            decision = {"kind": "decision", "decision": "accept"}
            httpx2.post(srv.url + "/api/calls", json=decision, headers=AUTH, timeout=30)
    match_id: int = r.json()["match"]["id"]
    return match_id


def test_the_history_serves_a_per_shot_csv_of_its_shot_log(server: RunningServer) -> None:
    match_id = _play_example(server, [EVIL, "Ben"])
    base = f"{server.url}/api/matches/{match_id}"
    r = httpx2.get(base + "/shots.csv", timeout=30)
    assert r.status_code == 200 and r.headers["content-type"].startswith("text/csv")
    assert f'filename="match-{match_id}-shots.csv"' in r.headers["content-disposition"]
    doc = httpx2.get(base + "/export.json", timeout=30).json()
    rows = check_against_log(r.text, doc, str(match_id))
    assert rows[0]["player_a"] == "'" + EVIL  # a formula name is text in a spreadsheet
    assert httpx2.get(f"{server.url}/api/matches/99/shots.csv", timeout=30).status_code == 404

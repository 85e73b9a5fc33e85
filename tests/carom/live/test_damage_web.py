"""``carom serve`` over a damaged match database: the history answers 503, never 500.

A file with damage inside (a row, the JSON, the set-up, a flipped byte) is served: the
server says so on start and every history endpoint answers 503 with the one line
``carom matches`` prints. A file SQLite cannot even open as a database (a truncated or
zero-byte file) stops the server in one line.
"""

from __future__ import annotations

import os
from pathlib import Path

import httpx2
import pytest
from fastapi.testclient import TestClient

from referee import CaromError
from tests.carom.live.test_damage import DAMAGE, recorded
from tests.carom.web._web import AUTH, PLAYERS, make_app
from tests.carom.web.test_serve_cli import _start, _stop

HISTORY = (
    "/api/matches",
    "/api/matches/1",
    "/api/matches/1/export.json",
    "/api/matches/1/export.csv",
    "/api/matches/1/trajectories.json",
    "/api/matches/1/trajectories.csv",
    "/api/matches/1/shots/1/diagram.svg",
    "/api/players/stats",
)
SERVED = ("garbage pages", "invalid json", "flipped bytes", "bad config", "deleted row",
          "deleted last row", "altered row", "reordered rows")  # fmt: skip
UNREADABLE = ("zero bytes", "truncated")


def _damaged_web_db(tmp_path: Path, kind: str) -> Path:
    path = tmp_path / "web.db"
    recorded(path)
    DAMAGE[kind][0](path)
    return path


@pytest.mark.parametrize("kind", SERVED)
def test_every_history_endpoint_answers_503_with_the_damage(
    tmp_path: Path, kind: str, caplog: pytest.LogCaptureFixture
) -> None:
    path = _damaged_web_db(tmp_path, kind)
    before = path.read_bytes()
    with caplog.at_level("WARNING", logger="carom.live"), TestClient(make_app(tmp_path)) as c:
        for url in HISTORY:
            r = c.get(url)
            assert r.status_code == 503, (url, r.text)
            detail = r.json()["detail"]
            assert "damaged: " in detail and "--repair NEW.db" in detail, detail
            assert "the history is not served from it" in detail
        assert c.get("/api/health").status_code == 200  # the rest of the server runs
        r = c.post("/api/matches", json={"players": PLAYERS}, headers=AUTH)
        assert r.status_code == 409 and "damaged: " in r.json()["detail"]  # no match beside
        # The table's language is kept for this run only: it made a table in the file.
        r = c.post("/api/settings/language", json={"language": "ko"}, headers=AUTH)
        assert r.status_code == 200 and r.json()["table_language"] == "ko", r.text
        assert c.get("/api/settings/language").json()["table_language"] == "ko"
    said = [r.getMessage() for r in caplog.records if "damaged" in r.getMessage()]
    assert len(said) == 1 and "cannot be read, resumed or added to" in said[0]
    assert path.read_bytes() == before  # not even the admin token was written into it


def test_a_sound_database_serves_its_history(tmp_path: Path) -> None:
    recorded(tmp_path / "web.db")
    with TestClient(make_app(tmp_path)) as c:
        assert [m["id"] for m in c.get("/api/matches").json()] == [1]
        assert c.get("/api/matches/1").status_code == 200


@pytest.mark.parametrize("kind", UNREADABLE)
def test_a_file_sqlite_cannot_read_stops_the_server_in_one_line(tmp_path: Path, kind: str) -> None:
    path = _damaged_web_db(tmp_path, kind)
    before = path.read_bytes()
    with pytest.raises(CaromError, match=DAMAGE[kind][1]) as info:
        make_app(tmp_path)
    assert "\n" not in str(info.value) and str(info.value).startswith(f"{path}: ")
    assert path.read_bytes() == before  # refused before anything is kept in it


def test_carom_serve_says_so_on_start_and_answers_503(tmp_path: Path) -> None:
    path = _damaged_web_db(tmp_path, "deleted row")
    env = {k: v for k, v in os.environ.items() if k != "CAROM_TOKEN"}
    proc, url = _start("serve", "--db", str(path), "--port", "0", env=env)
    try:
        said = "".join(proc.lines)  # type: ignore[attr-defined]
        assert "damaged: match 1: journal entry 5 is missing" in said
        assert "for this run only: the database is damaged and nothing is written" in said
        r = httpx2.get(url + "/api/matches")
        assert r.status_code == 503 and "journal entry 5 is missing" in r.json()["detail"]
    finally:
        code, err = _stop(proc)
    assert code == 0 and "Traceback" not in err, err

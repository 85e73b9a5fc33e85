"""Shared by the web API tests: the app over a fresh database, shots fed as vision would."""

from __future__ import annotations

import http.client
import json
import sqlite3
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI
from fastapi.testclient import TestClient

from carom.web import Table, WebSettings, create_app
from tests.carom.live.shotpool import analyzed, golden_shots

TOKEN = "web-test-token-0123456789"
AUTH = {"Authorization": f"Bearer {TOKEN}"}
PLAYERS = ["Ann", "Bob"]


def make_app(tmp_path: Path, **changes: Any) -> FastAPI:
    """The app over ``tmp_path/web.db`` with the test token (messages kept quiet)."""
    settings = WebSettings(db=tmp_path / "web.db", token=TOKEN, **changes)
    return create_app(settings, say=lambda text: None)


@contextmanager
def client(tmp_path: Path, **changes: Any) -> Iterator[TestClient]:
    """A test client of a started app."""
    with TestClient(make_app(tmp_path, **changes)) as c:
        yield c


def table(c: TestClient) -> Table:
    """The app's table."""
    t: Table = c.app.state.table  # type: ignore[attr-defined]
    return t


def new_match(c: TestClient, **body: Any) -> dict[str, Any]:
    """POST a match (players Ann and Bob unless given); the STATE."""
    r = c.post("/api/matches", json={"players": PLAYERS} | body, headers=AUTH)
    assert r.status_code == 201, r.text
    doc: dict[str, Any] = r.json()
    return doc


def db_dump(path: Path) -> list[str]:
    """Every row of the database as SQL (what a rejected call must not change)."""
    db = sqlite3.connect(str(path))
    try:
        return list(db.iterdump())
    finally:
        db.close()


def feed_until_review(t: Table, limit: int = 60) -> dict[str, Any]:
    """Feed golden shots (for the player at the table) until one is held for review."""
    assert t.session is not None
    players = t.session.state.config.players
    pool = sorted(golden_shots(review=True), key=lambda p: not any(e.doubt for e in p[0].events))
    for white, yellow in pool[:limit]:
        shot = white if t.session.state.shooter == players[0] else yellow
        doc = t.submit_shot(analyzed(shot))
        if doc["pending_review"] is not None:
            return doc
    raise AssertionError("no golden shot asked for review")


class SseClient:
    """A real SSE client over a real socket (http.client): reads ``state`` messages."""

    def __init__(self, url: str, last_event_id: str | None = None, timeout_s: float = 10.0):
        host, port = url.removeprefix("http://").split(":")
        self.conn = http.client.HTTPConnection(host, int(port), timeout=timeout_s)
        headers = {"Accept": "text/event-stream"}
        if last_event_id is not None:
            headers["Last-Event-ID"] = last_event_id
        self.conn.request("GET", "/api/events", headers=headers)
        self.resp = self.conn.getresponse()
        assert self.resp.status == 200
        assert self.resp.getheader("content-type", "").startswith("text/event-stream")
        self.comments = 0

    def next(self) -> tuple[int, dict[str, Any]]:
        """The next state message: (id, STATE)."""
        fields: dict[str, str] = {}
        while True:
            line = self.resp.readline().decode()
            if not line:
                raise EOFError("the stream ended")
            line = line.rstrip("\n")
            if line.startswith(":"):
                self.comments += 1
            elif line:
                key, _, value = line.partition(": ")
                fields[key] = value
            elif fields:
                assert fields["event"] == "state"
                return int(fields["id"]), json.loads(fields["data"])

    def close(self) -> None:
        """Hang up."""
        self.conn.close()

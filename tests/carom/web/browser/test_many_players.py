"""The pages in Chromium with three players (rules.md §1): a panel and a row per player."""

from __future__ import annotations

import json
import urllib.request
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from referee import parse_shot_log
from tests.carom.live.shotpool import analyzed
from tests.carom.web.browser.conftest import TOKEN, Pages, shot, stopped_after

THREE = Path(__file__).parents[4] / "examples" / "three_players_match.json"
NAMES = ["Ana", "Ben", "Cleo"]


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The app in-process over a real socket, a three-player match on the table."""
    app = create_app(WebSettings(db=tmp_path_factory.mktemp("web3") / "web.db", token=TOKEN))
    srv = serve_in_thread(app)
    body = json.dumps({"players": NAMES, "target": 3, "first_player": "Ana"}).encode()
    request = urllib.request.Request(
        f"{srv.url}/api/matches", data=body, method="POST",
        headers={"Authorization": f"Bearer {TOKEN}", "Content-Type": "application/json"},
    )  # fmt: skip
    with urllib.request.urlopen(request, timeout=10) as response:
        assert response.status == 201
    yield from stopped_after(srv)


@pytest.fixture(scope="module")
def pages(context: Any, fed: RunningServer) -> Pages:
    return Pages(context, fed.url)


def _points(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("[data-role=points]").all_inner_texts()]


def test_scoreboard_overlay_and_history_show_every_player(pages: Pages, fed: RunningServer) -> None:
    board = pages.open("/scoreboard", size=(1600, 900))
    overlay = pages.open("/overlay", size=(1600, 900))
    board.locator(".sb-player[data-player=Cleo]").wait_for()
    overlay.locator(".ov-row[data-player=Cleo]").wait_for()
    assert board.locator(".sb-player").count() == 3 and overlay.locator(".ov-row").count() == 3
    assert board.locator(".sb-player.shooter").get_attribute("data-player") == "Ana"

    table = fed.app.state.table
    for one in parse_shot_log(json.loads(THREE.read_text())).shots:
        table.submit_shot(analyzed(one))
    board.locator("#sb-banner").filter(has_text="Draw: Ana, Ben").wait_for()
    assert _points(board) == ["3", "3", "0"] and board.locator(".sb-player.shooter").count() == 0
    overlay.locator("#ov-info").filter(has_text="draw: Ana, Ben").wait_for()
    assert _points(overlay) == ["3", "3", "0"]
    shot(board, "scoreboard_three_players")
    board.close()
    overlay.close()

    history = pages.open("/history")
    history.locator("#match-title").filter(has_text="Ana – Ben – Cleo").wait_for()
    names = history.locator("#match-stats tbody tr td:first-child").all_inner_texts()
    assert names == NAMES
    assert history.locator("#scoresheet tbody tr").count() == 10
    history.close()

"""The console's match form in Chromium: 2 to 8 player rows, the rotating whites.

A three-player match with the white and the dotted white is started from the form
(rows added and removed, names typed); the scoreboard draws three panels; the console
reloaded fills the form back from ``GET /api/match-file`` (the match on the table).
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from referee import Ball
from tests.carom.web.browser.conftest import TOKEN, Pages, shot, stopped_after


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The app in-process over a real socket, no match and no camera."""
    app = create_app(WebSettings(db=tmp_path_factory.mktemp("form") / "web.db", token=TOKEN))
    yield from stopped_after(serve_in_thread(app))


@pytest.fixture(scope="module")
def pages(context: Any, fed: RunningServer) -> Pages:
    return Pages(context, fed.url)


def _console(pages: Pages) -> Any:
    """The console with the token given (asked for once per origin, then remembered)."""
    page = pages.open("/console")
    page.locator("#f-p2").wait_for()
    if page.locator("#token-dialog").is_visible():
        page.fill("#token-input", TOKEN)
        page.click("#token-save")
    return page


def _rows(page: Any) -> list[str]:
    return [page.input_value(f"#f-p{i}") for i in range(1, page.locator(".player-row").count() + 1)]


def test_the_form_takes_two_to_eight_players(pages: Pages) -> None:
    page = _console(pages)
    assert _rows(page) == ["A", "B"] and page.locator("#f-ball1").is_visible()
    assert page.locator("[data-role=remove]").first.is_disabled()
    for _ in range(6):
        page.click("#f-add-player")
    assert _rows(page) == list("ABCDEFGH") and page.locator("#f-add-player").is_disabled()
    # eight players: the whites rotate unless each keeps a ball
    assert page.locator("#f-rotation").is_visible() and not page.locator("#f-ball1").is_visible()
    page.check("#f-keep")
    assert page.locator("#f-ball8").is_visible() and not page.locator("#f-rotation").is_visible()
    body = page.evaluate("CaromMatchForm.body()")
    assert body["cue_balls"] == dict(zip("ABCDEFGH", ["white", "yellow"] * 4, strict=True))
    page.click(".player-row[data-seat='2'] [data-role=remove]")  # B goes, the rest move up
    assert _rows(page) == list("ACDEFGH") and page.locator("#f-keep-label").is_hidden()
    assert "cue_balls" not in page.evaluate("CaromMatchForm.body()")  # seven: they rotate
    shot(page, "console_form_seven_players")
    assert page.locator("#f-first option").all_inner_texts()[1:3] == [
        "player 1 (A)", "player 2 (C)",
    ]  # fmt: skip
    page.close()


def test_a_row_added_before_the_set_up_arrives_is_kept(pages: Pages) -> None:
    """The form's set-up (``GET /api/match-file``) is held back until a third row was
    added: when it arrives it leaves the person's rows as they are (it once put back two
    rows, as a click is no ``input`` event: a test typing into the third row failed so)."""
    _console(pages).close()  # the token given once (then remembered for the origin)
    held: list[Any] = []

    def hold(route: Any) -> None:
        held.append(route)

    pages.context.route("**/api/match-file", hold)
    try:
        page = pages.open("/console")
        page.locator("#f-p2").wait_for()
        while not held:
            page.wait_for_timeout(20)
        page.click("#f-add-player")  # a click only: nothing typed yet
        held[0].continue_()
        page.locator("[data-rule]").first.wait_for(state="attached")  # the set-up arrived
        assert _rows(page) == ["A", "B", "C"]
        page.close()
    finally:
        pages.context.unroute("**/api/match-file", hold)


def test_a_three_player_match_with_the_dotted_white_starts_from_the_form(
    pages: Pages, fed: RunningServer
) -> None:
    page = _console(pages)
    page.click("#f-add-player")
    for i, name in enumerate(["Ana", "Ben", "Cleo"], start=1):
        page.fill(f"#f-p{i}", name)
    page.select_option("#f-rotation", "dotted")
    page.fill("#f-t1", "5")
    page.fill("#f-t3", "4")
    page.select_option("#f-first", "3")
    page.click("#start-button")
    page.locator("#status").filter(has_text="start match: done").wait_for()
    config = fed.app.state.table.session.state.config
    assert config.players == ("Ana", "Ben", "Cleo") and config.first_player == "Cleo"
    assert config.rotates and config.rotation_balls == (Ball.WHITE, Ball.DOTTED)
    assert config.target == {"Ana": 5, "Ben": 5, "Cleo": 4}

    board = pages.open("/scoreboard", size=(1600, 900))
    board.locator(".sb-player[data-player=Cleo]").wait_for()
    assert board.locator(".sb-player").count() == 3
    assert board.locator(".sb-player.shooter").get_attribute("data-player") == "Cleo"
    shot(board, "scoreboard_three_players_from_the_form")
    board.close()

    page.reload()  # the form (hidden while a match is on) is filled back from the match
    page.locator("#f-p3").wait_for(state="attached")
    page.wait_for_function("() => document.getElementById('f-p3').value === 'Cleo'")
    assert _rows(page) == ["Ana", "Ben", "Cleo"]
    assert page.input_value("#f-rotation") == "dotted" and page.input_value("#f-first") == "3"
    assert [page.input_value(f"#f-t{i}") for i in (1, 2, 3)] == ["5", "5", "4"]
    page.close()

"""The pages in real Chromium against the real server: live from a sample clip, and fed.

Live: one ``carom serve --camera sample_videos/five_pins_match.mp4 --pace 0`` (a real
subprocess; the truth's calibration, so no self-calibration time). The clip's truth:
A breaks for 8, then B scores 5 with a ricochet whose red-white contact is a 0.4 mm
kiss that vision cannot rule in or out, so the live pipeline holds that shot for
review. The console starts the match with the scoreboard and the overlay already open;
the first shot reaches them over the event stream without a reload; the overlay
recovers the state after a reload; the wizard's drag refits and saves the calibration
(the pipeline loaded its own at the start: a save mid-match does not change it); the
review appears on the console with its diagram and the replayed camera frames, and the
referee's decision reaches the scoreboard.

Fed: while the pipeline works through the video, the fed tests run on the real app
in-process (uvicorn over real HTTP, the real SQLite store), fed the example match's
analysed shots as the camera would (through the camera rig's hooks; shot 7 is
doubtful and held for review): every other decision path through the console (accept,
undo bringing the review back, points by hand, corrections, a refused call), then the
example plays to its end and the history page shows the finished match.

The tests run in the order written (they follow the two matches); one browser.
"""

from __future__ import annotations

import json
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from calibration import Calibration, Camera, TableGeometry, save_calibration
from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from referee import Table
from tests.carom.live.shotpool import example_inputs
from tests.carom.web.browser.conftest import (
    SAMPLES,
    TOKEN,
    Pages,
    Server,
    shot,
    start_server,
    stopped_after,
)

CLIP = SAMPLES / "five_pins_match.mp4"
SHOT_TIMEOUT_S = 60.0  # alone: ~13 s of processing to the first shot, ~25 s to the review
REVIEWED = 7  # the fed example's doubtful shot


def write_truth_calibration(path: Path) -> Path:
    """The clip's true camera as a calibration file (what carom calibrate would fit)."""
    truth = json.loads(CLIP.with_suffix(".json").read_text(encoding="utf-8"))
    cam = Camera.from_dict(truth["camera"])
    save_calibration(path, Calibration(TableGeometry(Table()), cam, "2026-11-30"))
    return path


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Server]:
    """The live server: ``carom serve`` on the five-pins clip."""
    work = tmp_path_factory.mktemp("serve")
    calibration = write_truth_calibration(work / "calibration.json")
    yield from stopped_after(
        start_server(work, "--camera", str(CLIP), "--pace", "0", calibration=calibration)
    )


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    """The fed server: the app in-process, no camera."""
    app = create_app(WebSettings(db=tmp_path_factory.mktemp("web") / "web.db", token=TOKEN))
    yield from stopped_after(serve_in_thread(app))


@pytest.fixture(scope="module")
def pages(context: Any, server: Server) -> Pages:
    return Pages(context, server.url)


@pytest.fixture(scope="module")
def fed_pages(context: Any, fed: RunningServer, pages: Pages) -> Pages:
    return Pages(context, fed.url, errors=pages.errors)  # one list of script errors


def _console(pages: Pages, token: str) -> Any:
    page = pages.open("/console")
    page.locator("#token-dialog").wait_for(state="visible")  # a new origin: no token yet
    page.fill("#token-input", token)
    page.click("#token-save")
    return page


@pytest.fixture(scope="module")
def console(pages: Pages, server: Server) -> Any:
    return _console(pages, server.token)


@pytest.fixture(scope="module")
def fed_console(fed_pages: Pages) -> Any:
    return _console(fed_pages, TOKEN)


@pytest.fixture(scope="module")
def displays() -> dict[str, Any]:
    """The live scoreboard and overlay, open from before the match to the review."""
    return {}


def points_of(page: Any) -> list[str]:
    return [t.strip() for t in page.locator("[data-role=points]").all_inner_texts()]


def player_points(page: Any, name: str) -> Any:
    """The points shown for ``name`` on the scoreboard or the overlay."""
    return page.locator(f"[data-player={name}] [data-role=points]")


# --- live match, started; the fed tests run while the pipeline works ---------------


def test_console_starts_a_live_match(pages: Pages, console: Any, displays: dict[str, Any]) -> None:
    board = pages.open("/scoreboard", size=(1600, 900))  # a 16:9 screen in the hall
    overlay = pages.open("/overlay", size=(1600, 900))  # an OBS browser source
    board.evaluate("window.__notReloaded = true")
    overlay.evaluate("window.__notReloaded = true")
    assert board.locator("#sb-discipline").inner_text() == "no match"
    # how one starts, not "Waiting for the first shot" (found by a review as a new user)
    assert board.locator("#sb-verdict").inner_text() == "No match yet: start one from the console"
    displays.update(board=board, overlay=overlay)

    console.select_option("#f-discipline", "five-pins")
    console.fill("#f-p1", "Ann")
    console.fill("#f-p2", "Bob")
    console.select_option("#f-first", "1")
    console.click("#start-button")
    console.locator("#status").filter(has_text="start match: done").wait_for()
    assert console.locator("#live-title").inner_text().startswith("Match ")
    # The pipeline now works through the clip; the fed tests run meanwhile.


# --- fed match ---------------------------------------------------------------


def test_a_fed_review_is_settled_from_the_console(
    fed_pages: Pages, fed: RunningServer, fed_console: Any
) -> None:
    board = fed_pages.open("/scoreboard")
    fed_console.fill("#f-p1", "Ana")
    fed_console.fill("#f-p2", "Ben")
    fed_console.fill("#f-t1", "5")
    fed_console.select_option("#f-first", "1")
    fed_console.click("#start-button")
    fed_console.locator("#status").filter(has_text="start match: done").wait_for()

    table = fed.app.state.table
    for analyzed in example_inputs()[1 : REVIEWED + 2]:  # [0] is the lag: Ana breaks
        table.submit_shot(analyzed)
    pending = table.state()["pending_review"]
    assert pending is not None and pending["shot_n"] == REVIEWED

    review = fed_console.locator("#review")
    review.wait_for(state="visible")
    assert pending["reason"] in fed_console.inner_text("#review-reason")
    diagram = fed_console.locator("#review-diagram")
    fed_console.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=diagram.element_handle()
    )
    assert fed_console.locator("#replay").is_hidden()  # no camera: no frames to replay
    board.locator("#sb-banner").filter(has_text="review").wait_for()
    fed_console.set_viewport_size({"width": 820, "height": 1180})  # a tablet, portrait
    shot(fed_console, "calls_review_tablet", full_page=True)
    fed_console.set_viewport_size({"width": 1280, "height": 800})

    before = [p["points"] for p in table.state()["match"]["players"]]
    fed_console.click("#review-accept")
    review.wait_for(state="hidden")
    state = table.state()
    assert state["pending_review"] is None
    assert state["last_shot"]["n"] == REVIEWED
    gained = [p["points"] - b for p, b in zip(state["match"]["players"], before, strict=True)]
    assert sum(gained) == pending["if_accepted"]
    board.locator("#sb-banner").wait_for(state="hidden")
    assert points_of(board) == [str(p["points"]) for p in state["match"]["players"]]
    board.close()


def test_undo_brings_the_review_back_and_corrections_apply(
    fed: RunningServer, fed_console: Any
) -> None:
    table = fed.app.state.table
    fed_console.click("#undo")  # undoing the decision puts the shot back under review
    fed_console.locator("#status").filter(has_text="undo: done").wait_for()
    fed_console.locator("#review").wait_for(state="visible")
    assert table.state()["pending_review"]["shot_n"] == REVIEWED
    fed_console.fill("#review-points", "1")
    fed_console.click("#review-award")  # this time the referee gives the point by hand
    fed_console.locator("#review").wait_for(state="hidden")
    assert table.state()["last_shot"]["points"] == 1

    def ben() -> int:
        return int(
            next(p["points"] for p in table.state()["match"]["players"] if p["name"] == "Ben")
        )

    before = ben()
    fed_console.select_option("#c-player", "Ben")
    fed_console.fill("#c-points", "2")
    fed_console.click("#c-apply")
    fed_console.locator("#status").filter(has_text="correction: done").wait_for()
    assert ben() == before + 2
    fed_console.locator("[data-player=Ben] [data-role=points]").filter(
        has_text=str(before + 2)
    ).wait_for()
    shot(fed_console, "calls_after_correction")
    fed_console.fill("#c-points", "-2")  # and taken back: the match goes on as the example
    fed_console.click("#c-apply")
    fed_console.locator("[data-player=Ben] [data-role=points]").filter(
        has_text=str(before)
    ).wait_for()

    # A refused call shows the server's one-line reason instead of failing silently.
    fed_console.fill("#c-points", "0")
    fed_console.click("#c-apply")
    fed_console.locator("#status.error").wait_for()
    assert fed_console.inner_text("#status").startswith("correction: ")


def test_history_shows_the_finished_match(fed_pages: Pages, fed: RunningServer) -> None:
    table = fed.app.state.table
    for analyzed in example_inputs()[REVIEWED + 2 :]:  # the example plays on: Ana wins 5-4
        table.submit_shot(analyzed)
    final = table.state()["match"]
    assert final["winner"] == "Ana"
    home = fed_pages.open("/")
    home.locator("#health").filter(has_text="server ok").wait_for()
    home.close()

    history = fed_pages.open("/history")
    history.locator("#match-title").filter(has_text="Ana won").wait_for()
    assert history.locator("#matches tr.sel td").last.inner_text().strip() == "Ana won"
    rows = history.locator("#scoresheet tbody tr")
    detail = history.request.get(f"{fed.url}/api/matches/{final['id']}").json()
    sheet = detail["scoresheet"]
    # The set-up the match was judged under, under its title (the report's words).
    setup = history.inner_text("#match-setup")
    assert (
        setup == "Set-up: " + "; ".join(detail["setup"]) and "match table 2,840x1,420 mm" in setup
    )
    assert rows.count() == len(sheet) == 14
    figures = history.locator("#diagrams figure img")
    assert figures.count() == rows.count()
    figures.first.scroll_into_view_if_needed()
    history.wait_for_function(
        "img => img.complete && img.naturalWidth > 0", arg=figures.first.element_handle()
    )
    # The review decided by hand says so, and where (the web console, in the page's words).
    decided = [(s["n"], s["decided"]) for s in sheet if "decided" in s]
    assert [(n, d["decision"], d["points"]) for n, d in decided] == [(REVIEWED, "points", 1)]
    by = decided[0][1]["by"]
    assert by == "web" and decided[0][1]["held_for"]
    lines = {r["shot"]: r for r in _table_rows(history, "#scoresheet")}
    assert lines[str(REVIEWED)]["review decision"] == "1 point given (web console)"
    assert {k for k, r in lines.items() if r["review decision"]} == {str(REVIEWED)}
    stats = {r["name"]: r for r in _table_rows(history, "#match-stats")}
    assert stats["Ana"]["points"] == "5" and stats["Ben"]["points"] == "4"
    players = {r["player"]: r for r in _table_rows(history, "#players")}
    assert set(players) == {"Ana", "Ben"}
    assert players["Ana"]["discipline"] == "three-cushion"  # a line per discipline played
    assert players["Ana"]["general average"] != "–" and players["Ana"]["high run"] != "–"
    for link in ("#export-json", "#export-csv", "#export-shots-csv"):
        href = history.get_attribute(link, "href")
        assert href is not None
        resp = history.request.get(fed.url + href)
        assert resp.ok, f"{href}: {resp.status}"
    assert "Ana" in history.request.get(f"{fed.url}/api/matches/{final['id']}/export.csv").text()
    log = history.request.get(f"{fed.url}/api/matches/{final['id']}/export.json").json()
    marks = [(s["index"], s["review_decision"]) for s in log["shots"] if "review_decision" in s]
    assert [(i, m["decision"], m["points"], m["by"]) for i, m in marks] == [
        (REVIEWED, "points", 1, by)
    ]
    shots_csv = history.request.get(
        fed.url + (history.get_attribute("#export-shots-csv", "href") or "")
    )
    assert len(shots_csv.text().strip().splitlines()) == 1 + len(sheet)  # a header, a row a shot
    shot(history, "history", full_page=True)
    history.close()


# --- live match, on -------------------------------------------------------------


def test_displays_show_the_live_shot_without_a_reload(
    server: Server, console: Any, displays: dict[str, Any]
) -> None:
    board, overlay = displays["board"], displays["overlay"]
    # The clip's first shot (the truth: A breaks for 8), seen live by the pipeline.
    player_points(board, "Ann").filter(has_text="8").wait_for(timeout=SHOT_TIMEOUT_S * 1000)
    player_points(overlay, "Ann").filter(has_text="8").wait_for()
    assert board.evaluate("window.__notReloaded") is True
    assert overlay.evaluate("window.__notReloaded") is True
    assert points_of(board) == points_of(overlay) == ["8", "0"]
    assert "8 points" in server.get("/api/state")["last_shot"]["reason"]
    shot(board, "scoreboard")
    shot(overlay, "overlay", omit_background=True)
    shot(console, "console", full_page=True)
    overlay.close()


def test_overlay_recovers_its_state_after_a_reload(pages: Pages, server: Server) -> None:
    overlay = pages.open("/overlay", size=(1600, 900))
    overlay.locator(".ov-row[data-player=Ann]").wait_for()
    overlay.reload()
    overlay.locator(".ov-row[data-player=Bob]").wait_for()
    # The clip plays on meanwhile: compare once the overlay shows the server's version.
    deadline = time.monotonic() + 10
    while True:
        state = server.get("/api/state")
        shown = overlay.get_attribute("#ov-verdict", "data-version")
        if shown == str(state["version"]) or time.monotonic() > deadline:
            break
        time.sleep(0.05)
    assert shown == str(state["version"])
    assert points_of(overlay) == [str(p["points"]) for p in state["match"]["players"]]
    assert overlay.evaluate("getComputedStyle(document.body).backgroundColor") == "rgba(0, 0, 0, 0)"
    assert (
        overlay.evaluate("getComputedStyle(document.documentElement).backgroundColor")
        == "rgba(0, 0, 0, 0)"
    )
    shot(overlay, "overlay_after_reload", omit_background=True)
    overlay.close()


def test_wizard_drag_refits_and_saves_the_calibration(pages: Pages, server: Server) -> None:
    assert server.calibration is not None
    before_file = server.calibration.read_bytes()
    wizard = pages.open("/wizard")
    wizard.locator("#status").filter(has_text="drag a corner").wait_for()
    wizard.wait_for_function("() => document.getElementById('frame').naturalWidth > 0")
    start = server.get("/api/calibration")
    assert wizard.is_disabled("#save")  # nothing refitted yet
    # No token kept (the console's tests keep one in this origin): the first refit asks.
    wizard.evaluate("localStorage.removeItem('carom-token')")

    # Mark a diamond a few px off the fitted one: it gets a residual. (The middle diamond
    # of a long rail: one mark at a rail's end alone does not pin a camera down.)
    diamond = 4
    assert diamond in wizard.evaluate("caromWizard.visibleDiamonds()")
    _drag(wizard, "diamonds", diamond, (-4, -3))
    wizard.locator("#token-dialog").wait_for(state="visible")
    wizard.fill("#token-input", server.token)
    wizard.click("#token-save")
    _wait_fit(wizard, 1)
    assert wizard.locator("#residuals tr[data-diamond]").count() == 1
    # carom calibrate's verdict on these marks: doubtful (one diamond dragged 4 px), said
    # as a warning; the fit can be saved.
    said = wizard.inner_text("#status")
    assert " · doubtful (confidence 0." in said, said
    assert wizard.get_attribute("#status", "class") == "status warn"
    rms_marked = wizard.evaluate("caromWizard.rms()")  # unrounded: the page shows 2 decimals
    assert rms_marked > 0.5
    assert float(wizard.inner_text("#rms")) == pytest.approx(rms_marked, abs=0.0051)

    # Then move a corner: the fit and the marked diamond's residual change.
    _drag(wizard, "corners", 0, (4, 3))
    _wait_fit(wizard, 2)
    assert wizard.evaluate("caromWizard.rms()") != rms_marked
    corner = wizard.evaluate("caromWizard.handles().corners[0]")
    assert corner[0] == pytest.approx(start["corners_px"][0][0] + 4 * _scale(wizard), abs=1.5)
    shot(wizard, "wizard")

    wizard.click("#save")
    wizard.locator("#status").filter(has_text="calibration saved").wait_for()
    assert server.calibration.read_bytes() != before_file
    wizard.close()


def test_a_live_review_is_replayed_and_settled_from_the_console(
    server: Server, console: Any, displays: dict[str, Any]
) -> None:
    board = displays["board"]  # open since before the match
    state = server.wait_state(  # shot 1 either waits for review or (wrongly) was judged
        lambda s: s["pending_review"] or s["last_shot"]["n"] >= 1, SHOT_TIMEOUT_S, "shot 1"
    )
    pending = state["pending_review"]
    assert pending is not None, f"shot 1 was judged without review: {state['last_shot']}"
    assert pending["shooter"] == "Bob" and "0.4 mm" in pending["reason"]
    assert pending["if_accepted"] == 5  # the truth: the kiss happened, a 5-point ricochet

    console.locator("#review").wait_for(state="visible")
    assert "0.4 mm" in console.inner_text("#review-reason")
    diagram = console.locator("#review-diagram")
    console.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=diagram.element_handle())
    # The replay: the camera's frames of the shot, played in a loop.
    frames = server.get("/api/review/replay")["frames"]
    assert len(frames) >= 10
    console.locator("#replay").wait_for(state="visible")
    console.locator("#replay-info").filter(has_text=f"/ {len(frames)}").wait_for()
    img = console.locator("#replay-frame")
    first = img.get_attribute("src")
    console.wait_for_function(
        "([i, s]) => i.getAttribute('src') !== s", arg=[img.element_handle(), first]
    )
    console.wait_for_function("i => i.complete && i.naturalWidth > 0", arg=img.element_handle())
    console.click("#replay-play")  # pause, then step with the slider
    console.fill("#replay-seek", "3")
    assert img.get_attribute("src") == frames[3]
    board.locator("#sb-banner").filter(has_text="review").wait_for()
    shot(console, "console_review", full_page=True)
    shot(board, "scoreboard_review")

    console.click("#review-accept")
    console.locator("#review").wait_for(state="hidden")
    player_points(board, "Bob").filter(has_text="5").wait_for()
    board.locator("#sb-banner").wait_for(state="hidden")
    # The replay goes on while the review waits, so the next shot may already be judged:
    # look the reviewed shot up by its number rather than taking the last one.
    match_id = server.get("/api/state")["match"]["id"]
    sheet = server.get(f"/api/matches/{match_id}")["scoresheet"]
    reviewed = next(r for r in sheet if r["n"] == pending["shot_n"])
    assert (reviewed["shooter"], reviewed["points"]) == ("Bob", 5)
    shot(board, "scoreboard_after_review")
    board.close()


def test_api_reference_is_drawn_from_the_schema_without_internet(
    fed_pages: Pages, fed: RunningServer
) -> None:
    """/docs lists every endpoint of /openapi.json and loads nothing from elsewhere."""
    page = fed_pages.context.new_page()
    asked: list[str] = []
    page.on("request", lambda req: asked.append(req.url))
    page.on("pageerror", lambda exc: fed_pages.errors.append(f"/docs: {exc}"))
    page.goto(fed.url + "/docs")
    page.locator("#status.ok").wait_for()
    spec = page.request.get(fed.url + "/openapi.json").json()
    want = {(path, method) for path, ops in spec["paths"].items() for method in ops}
    shown = page.locator("section.api-op")
    assert {
        (s.get_attribute("data-path"), s.get_attribute("data-method")) for s in shown.all()
    } == want
    assert len(want) >= 15
    create = page.locator('section.api-op[data-path="/api/matches"][data-method="post"]')
    assert "discipline" in create.inner_text()  # the body's fields, from the schema
    assert asked and all(url.startswith(fed.url) for url in asked), asked
    shot(page, "api_reference", full_page=False)
    page.close()


def _wait_fit(page: Any, n: int) -> None:
    """Wait for the wizard's refit number ``n``; a refused fit fails with its reason."""
    page.wait_for_function(
        f"() => caromWizard.fits() === {n} || !!document.querySelector('#status.error')"
    )
    assert page.evaluate("caromWizard.fits()") == n, page.inner_text("#status")


def _scale(page: Any) -> float:
    """Image px per CSS px of the wizard's canvas."""
    return float(
        page.evaluate(
            "(c => c.width / c.getBoundingClientRect().width)(document.getElementById('overlay'))"
        )
    )


def _drag(page: Any, kind: str, i: int, by_css_px: tuple[int, int]) -> None:
    """Drag handle ``i`` of ``kind`` by ``by_css_px`` with the mouse (pointer events)."""
    x, y = page.evaluate(f"caromWizard.handleClientXY('{kind}', {i})")
    page.mouse.move(x, y)
    page.mouse.down()
    page.mouse.move(x + by_css_px[0], y + by_css_px[1], steps=6)
    page.mouse.up()


def _table_rows(page: Any, table: str) -> list[dict[str, str]]:
    """A table's body rows as {header: cell text} (the first column also as "name")."""
    heads = [h.strip() for h in page.locator(f"{table} thead th").all_inner_texts()]
    out = []
    for row in page.locator(f"{table} tbody tr").all():
        cells = [c.strip() for c in row.locator("td").all_inner_texts()]
        out.append(dict(zip(heads, cells, strict=True)) | {"name": cells[0]})
    return out

"""The console's log of what happened, and the board's warning, in the page's language.

One server in-process (real HTTP, real SQLite) with the example match on the table
(``_serve_fed``). Real Chromium shows the console in Korean and Turkish while a person's
calls go through ``POST /api/calls`` (a foul called on the last shot, a time-out, its
undo, corrections, the turn) and scoring is paused and a shot held while paused, then
accepted. After each, the newest line of the console's log is the account
(``what_parts``) said from the catalogue alone (``tests.carom.i18n.account_said``), with
none of the server's English left; in English it is the server's line. A board behind
(``scoreboard.warning_parts``) is said by ``Carom.fmt.boardWarning`` as the same oracle,
and a refused call by ``Carom.fmt.refusal`` from the catalogue's ``refusal.<key>``.
"""

from __future__ import annotations

import json
import re
import time
import urllib.request
from collections.abc import Iterator
from typing import Any

import pytest
from playwright.sync_api import TimeoutError as PlaywrightTimeout

from carom.board import board_warning_parts
from carom.i18n import catalogue
from carom.live._account import LAG_FAULT_ENGLISH, lag_account
from carom.live.loop._runner import CAMERA_LOST
from carom.timestamps import now_iso
from carom.web import RunningServer
from carom.web._paused import account_doc
from hardware import LinkState
from referee import LagResult
from tests.carom.board.test_confirm import _status
from tests.carom.i18n.account_said import account_in, board_warning_in
from tests.carom.live.shotpool import example_inputs
from tests.carom.web.browser.conftest import Pages, stopped_after
from tests.carom.web.browser.test_pages_i18n import FED, _post, _serve_fed, _settle

#: Words of the server's English lines that must not be left on a translated page.
ENGLISH = re.compile(
    r"\b(shot \d|called|time-out for|undo:|correction:|points to|turn to|held for review|"
    r"scoring paused|played while|review accept|camera lost|web console)\b"
)
LETTERS = {"ko": "[가-힣]", "tr": "[ğışçöüİ]"}


@pytest.fixture(scope="module")
def fed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[RunningServer]:
    yield from stopped_after(_serve_fed(tmp_path_factory.mktemp("log")))


@pytest.fixture(scope="module")
def pages(context: Any, fed: RunningServer) -> Pages:
    return Pages(context, fed.url)


def _state(fed: RunningServer) -> dict[str, Any]:
    with urllib.request.urlopen(fed.url + "/api/state", timeout=10) as response:
        state: dict[str, Any] = json.loads(response.read())
    return state


def _published(fed: RunningServer, what: str) -> None:
    """Wait until the STATE says ``what``: a change made on the session directly (not
    through the table, which waits for its publisher) is published a moment later."""
    deadline = time.monotonic() + 10.0
    while _state(fed)["what"] != what:
        assert time.monotonic() < deadline, f"never published: {what!r}"
        time.sleep(0.02)


def _steps(fed: RunningServer) -> Iterator[None]:
    """Each change to the match, one at a time (the caller checks the log after each)."""
    table = fed.app.state.table
    state = _state(fed)
    shooter = state["match"]["shooter"]
    other = next(p["name"] for p in state["match"]["players"] if p["name"] != shooter)
    calls = [{"kind": "foul", "foul": "touch"}, {"kind": "timeout"}, {"kind": "undo"},
             {"kind": "correction", "player": other, "points": 2},
             {"kind": "correction", "player": other, "points": -2},
             {"kind": "turn", "player": other}, {"kind": "turn", "player": shooter}]  # fmt: skip
    for call in calls:
        _post(fed.url, "/api/calls", call)
        yield
    _published(fed, table.session.set_paused(CAMERA_LOST, now_iso=now_iso()).what)
    yield
    table.submit_shot(example_inputs()[FED + 1])
    yield
    _published(fed, table.session.set_paused(None, now_iso=now_iso()).what)
    yield
    _post(fed.url, "/api/calls", {"kind": "decision", "decision": "accept"})
    yield


def _newest(page: Any, want: str) -> None:
    """Wait until the log's newest line is ``want``; else say what the log shows."""
    newest = "const li = document.querySelector('#log li'); return li && li.textContent === want;"
    try:
        page.wait_for_function("want => { " + newest + " }", arg=want, timeout=30_000)
    except PlaywrightTimeout:
        shown = page.evaluate(
            "() => [...document.querySelectorAll('#log li')].map(li => li.textContent)"
        )
        raise AssertionError(f"log shows {shown[:3]}, not {want!r}") from None


def test_the_console_s_log_in_the_page_s_language(pages: Pages, fed: RunningServer) -> None:
    consoles = {}
    for lang in ("ko", "tr", "en"):
        consoles[lang] = pages.open(f"/console?lang={lang}")
        _settle(consoles[lang], "console")
    keys = set()
    for _ in _steps(fed):
        state = _state(fed)
        parts = state["what_parts"]
        assert parts is not None, state["what"]
        keys |= set(re.findall(r"'key': '([a-z_]+)'", str(parts)))
        _newest(consoles["en"], state["what"])
        for lang in ("ko", "tr"):
            said = account_in(lang, parts)
            assert not ENGLISH.search(said) and re.search(LETTERS[lang], said), (lang, said)
            _newest(consoles[lang], said)
        if state["pending_review"] is not None:
            held = state["pending_review"]["held_paused"]
            assert held is not None
            why = catalogue("web").text("ko", "pause.camera_lost")
            want = catalogue("web").text("ko", "what.played_paused", why=why)
            consoles["ko"].wait_for_function(
                "want => document.getElementById('review-reason').textContent === want", arg=want
            )
    assert {"shot", "foul_called", "timeout", "undo", "correction", "correct_points"} <= keys
    assert {"correct_turn", "paused", "held", "played_paused", "resumed", "review"} <= keys
    for page in consoles.values():
        page.close()


def test_a_board_behind_in_the_page_s_language(pages: Pages) -> None:
    page = pages.open("/console?lang=ko")
    _settle(page, "console")
    same = _status(shown=_status().current)  # took the score; a newer clock line waits
    for status in (_status(), _status(shown=None), _status(last_error="EIO", state=LinkState.DOWN),
                   same):  # fmt: skip
        parts = board_warning_parts(status)
        doc = {"warning": "english", "warning_parts": parts}
        said = page.evaluate("b => Carom.fmt.boardWarning(b)", doc)
        assert parts is not None and said == board_warning_in("ko", parts)
        assert "scoreboard" not in said and re.search("[가-힣]", said)
    english = pages.open("/console?lang=en")
    _settle(english, "console")
    doc = {"warning": "the board is behind", "warning_parts": board_warning_parts(_status())}
    assert english.evaluate("b => Carom.fmt.boardWarning(b)", doc) == "the board is behind"
    for p in (page, english):
        p.close()


def test_a_refused_call_in_the_page_s_language(pages: Pages, fed: RunningServer) -> None:
    """The server refuses a decision with no shot held: the page's own API call gets the
    keyed refusal (``detail_parts``) and ``Carom.fmt.refusal`` says it in Korean; in
    English it is the server's sentence."""
    ask = (
        "async () => { try { await Carom.api('POST', '/api/calls', "
        "{kind: 'decision', decision: 'reject'}); return null; }"
        " catch (e) { return [e.status, e.message, Carom.fmt.refusal(e)]; } }"
    )
    web = catalogue("web")
    for lang in ("ko", "en"):
        page = pages.open(f"/console?lang={lang}")
        _settle(page, "console")
        page.wait_for_function("() => !!Carom.token()")  # the first console asks for it
        status, english, said = page.evaluate(ask)
        assert status == 409 and english == "reject: no shot waits for review; nothing to decide"
        if lang == "en":
            assert said == english
        else:
            decision = web.text("ko", "refusal.decision_reject")
            assert said == web.text("ko", "refusal.no_review", decision=decision)
            assert re.search("[가-힣]", said) and "review" not in said
        page.close()


def test_a_lag_s_faults_in_the_page_s_language(pages: Pages) -> None:
    """A lag lost on faults (every fault the referee writes) is said in Korean by the
    console (``what.lag_<fault>``), as the oracle says it from the catalogue."""
    faults = tuple(LAG_FAULT_ENGLISH.values())
    result = LagResult(
        "Ana", "Ana", {"Ana": (), "Ben": faults}, f"Ana won: Ben {'; '.join(faults)}"
    )
    doc = account_doc(lag_account(result))
    page = pages.open("/console?lang=ko")
    _settle(page, "console")
    said = page.evaluate("p => Carom.fmt.account(p)", doc)
    assert said == account_in("ko", doc)
    assert not any(f in said for f in faults) and re.search("[가-힣]", said)
    page.close()

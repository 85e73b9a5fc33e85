"""A refused call's reason, keyed for the pages: each template held to its writer.

The refusals a person at the console or the wizard meets are made to happen through the
real API (or, for the camera's shot while one waits for review, the table), and each
409, 401 or 429 body must carry ``detail_parts`` with its key and the fields read back
from the English; the catalogues have words for every key with the same fields. (The
few no test can provoke cheaply, the camera pipeline's and a guard busy with other
clients, are copied from their writers.)
"""

from __future__ import annotations

import os
import subprocess
import sys
from dataclasses import replace
from pathlib import Path
from typing import Any

from hypothesis import given
from hypothesis import strategies as st

from carom.i18n import LANGUAGES, catalogue, template_fields
from carom.live import LiveSession, MatchStore, ReviewPending
from carom.web._refusals import REFUSAL_ENGLISH, refusal_parts
from referee import (
    Ball,
    BallContact,
    Correction,
    CorrectionKind,
    Discipline,
    IllegalMoveError,
    Match,
    Shot,
)
from tests.carom.live.shotpool import analyzed, golden_shots
from tests.carom.web._web import AUTH, client, feed_until_review, new_match, table
from tests.referee.factories import config, five_pins_stroke, many


def test_every_refusal_has_words_in_every_web_catalogue() -> None:
    web = catalogue("web")
    for key, english in REFUSAL_ENGLISH.items():
        assert web.text("en", f"refusal.{key}") == english
        for lang in LANGUAGES:
            assert template_fields(web.messages[lang][f"refusal.{key}"]) == template_fields(
                english
            ), (lang, key)


def _refused(c: Any, path: str, body: Any, key: str) -> dict[str, Any]:
    r = c.post(path, json=body, headers=AUTH)
    assert r.status_code == 409, r.text
    doc: dict[str, Any] = r.json()
    assert doc["detail_parts"] is not None, doc["detail"]
    assert doc["detail_parts"]["key"] == key, doc
    return dict(doc["detail_parts"]["fields"])


def test_each_refusal_a_person_meets_is_keyed(tmp_path: Path) -> None:
    seen = set()
    with client(tmp_path) as c:
        state = new_match(c, first_player="Ann", clock={"extensions": 1})
        assert state["match"]["shooter"] == "Ann"
        calls = [
            ({"kind": "undo"}, "nothing_to_undo", {}),
            ({"kind": "decision", "decision": "accept"}, "no_review", {"decision": "accept"}),
            ({"kind": "correction", "player": "Bob", "points": -5}, "correct_too_few",
             {"player": "Bob", "points": "0"}),
            ({"kind": "turn", "player": "Ann"}, "correct_at_table", {"player": "Ann"}),
        ]  # fmt: skip
        for body, key, fields in calls:
            assert _refused(c, "/api/calls", body, key) == fields
            seen.add(key)
        assert c.post("/api/calls", json={"kind": "timeout"}, headers=AUTH).status_code == 200
        fields = _refused(c, "/api/calls", {"kind": "timeout"}, "no_extension_left")
        assert fields == {"player": "Ann"}
        _refused(c, "/api/calls", {"kind": "foul", "foul": "touch"}, "foul_not_after_shot")
        match_id = state["match"]["id"]
        fields = _refused(c, "/api/matches", {"players": ["Ann", "Bob"]}, "match_playing")
        assert fields == {"id": str(match_id)}
        _refused(c, "/api/calibration/save", None, "no_camera")
        corners = {"corners_px": [[0, 0], [100, 0], [100, 50], [0, 50]]}
        _refused(c, "/api/calibration/fit", corners, "no_camera")  # was a 422 to refit
        seen |= {"no_extension_left", "foul_not_after_shot", "match_playing", "no_camera"}
        held = feed_until_review(table(c))["pending_review"]
        shot = golden_shots(review=True)[0][0]
        try:
            table(c).submit_shot(analyzed(shot))
        except ReviewPending as exc:
            parts = refusal_parts(str(exc))
        assert parts is not None and parts["key"] == "review_waits"
        assert parts["fields"]["n"] == str(held["shot_n"])
        assert c.post("/api/matches/close", headers=AUTH).status_code == 200
        _refused(c, "/api/calls", {"kind": "undo"}, "no_match")
        seen |= {"review_waits", "no_match"}
    assert len(seen) >= 10


_WORD = st.text(st.characters(codec="utf-8", exclude_categories=("Cs", "Cc")), min_size=1,
                max_size=15)  # fmt: skip


@given(player=_WORD, points=st.integers(0, 999).filter(lambda n: n != 1))
def test_any_name_reads_back(player: str, points: int) -> None:
    detail = f"correction: {player} has only {points} points"
    fields = {"player": player, "points": str(points)}
    assert refusal_parts(detail) == {"key": "correct_too_few", "fields": fields}
    one = refusal_parts(f"correction: {player} has only 1 point")
    assert one == {"key": "correct_too_few_one", "fields": {"player": player}}


def test_another_sentence_is_not_keyed() -> None:
    assert refusal_parts("the video ended") is None
    assert refusal_parts("nothing to undo, really") is None


def test_the_admin_token_s_refusals_are_keyed(tmp_path: Path) -> None:
    """No token and a wrong one (401), then the back-off (429) after wrong ones in a row:
    each answer carries its key, so the token dialog says why in the page's language."""
    with client(tmp_path) as c:
        r = c.post("/api/calls", json={"kind": "undo"})
        assert r.status_code == 401 and r.json()["detail_parts"]["key"] == "token_missing"
        wrong = {"Authorization": "Bearer not-the-token-0123456789"}
        keys = []
        for _ in range(30):
            r = c.post("/api/calls", json={"kind": "undo"}, headers=wrong)
            keys.append(r.json()["detail_parts"]["key"])
            if r.status_code == 429:
                break
        assert keys[0] == "token_wrong" and keys[-1] == "token_blocked", keys
        assert r.json()["detail_parts"]["fields"]["wait_s"] == r.headers["Retry-After"]


def test_a_camera_without_its_calibration_yet_is_keyed(tmp_path: Path) -> None:
    """carom serve --camera whose fit failed starts anyway: a match waits for the wizard."""
    from tests.carom.web.test_camera import first_seconds

    clip = first_seconds(tmp_path / "clip.mp4", end_s=1.0)
    missing = tmp_path / "web-calibration" / "camera-clip.mp4.json"
    with client(tmp_path, camera=str(clip), calibration=missing) as c:
        fields = _refused(c, "/api/matches", {"players": ["Ann", "Bob"]}, "no_calibration_yet")
        assert fields == {"path": str(missing)}


def test_a_match_written_by_another_process_is_keyed(tmp_path: Path) -> None:
    """A second program (carom live) resumed the match the server holds and wrote to it:
    the server's next write is refused, keyed (it said "journal entry 16 does not follow
    version 16 ...; stop it", with no key for the pages)."""
    with client(tmp_path) as c:
        match_id = new_match(c)["match"]["id"]
        with MatchStore(tmp_path / "web.db") as store:
            other = LiveSession.load(store, match_id)
            other.call(Correction(CorrectionKind.POINTS, player="Ann", points=1),
                       who="other", now_iso="2026-12-06T00:00:00Z")  # fmt: skip
        body = {"kind": "correction", "player": "Bob", "points": 1}
        assert _refused(c, "/api/calls", body, "another_writer") == {"id": str(match_id)}


_HOLDER = """
import sys
from pathlib import Path
from carom.live import LiveSession, LiveSetup, MatchStore
from carom.live._codec import config_from_doc
store = MatchStore(Path(sys.argv[1]))
row = store.match(int(sys.argv[2]))
LiveSession.open(store, LiveSetup(config_from_doc(row.config), row.source), now_iso="x")
print("holding", flush=True)
sys.stdin.readline()
"""


def test_a_match_another_process_referees_is_keyed_and_closing_lets_it_go(tmp_path: Path) -> None:
    """The console's match, closed (taken off the table, so let go), is resumed by another
    process (a carom live); the console's same set-up is refused, keyed with the pid."""
    with client(tmp_path) as c:
        match_id = new_match(c)["match"]["id"]
        assert c.post("/api/matches/close", headers=AUTH).status_code == 200
        env = dict(os.environ, PYTHONPATH=str(Path(__file__).parents[3]))
        holder = subprocess.Popen(
            [sys.executable, "-c", _HOLDER, str(tmp_path / "web.db"), str(match_id)], env=env,
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        try:
            assert holder.stdout is not None and holder.stdout.readline() == "holding\n"
            fields = _refused(c, "/api/matches", {"players": ["Ann", "Bob"]}, "match_held")
            assert fields == {"id": str(match_id), "pid": str(holder.pid)}
        finally:
            holder.kill()
            holder.wait()
            for pipe in (holder.stdin, holder.stdout):
                if pipe is not None:
                    pipe.close()
        assert new_match(c)["match"]["id"] == match_id  # its holder gone: resumed here


def test_a_decision_beyond_one_stroke_s_points_is_keyed(tmp_path: Path) -> None:
    """Through the API in three-cushion; the 7-pin count and five-pins frozen-balls refusals
    as the referee writes them (the same decision path)."""
    with client(tmp_path) as c:
        new_match(c, target=999)
        feed_until_review(table(c))
        body = {"kind": "decision", "decision": "points", "points": 2}
        fields = _refused(c, "/api/calls", body, "decide_too_many")
        assert fields == {"most": "1", "game": "three-cushion", "points": "2"}
    seven = Match(many("AB", Discipline.PIN_CAROM_7, target=10, start_count=10))
    touch = Shot(
        index=0, cue_ball=Ball.RED, events=(BallContact(t_s=0.5, balls=(Ball.RED, Ball.WHITE1)),)
    )
    five = Match(config(Discipline.FIVE_PINS, target=60))
    five.correct(Correction(CorrectionKind.BREAK_POSITION, "A"))
    for match, shot, key in ((seven, replace(touch, decided_points=11), "decide_count"),
                             (five, replace(five_pins_stroke(five, Ball.WHITE), decided_points=2),
                              "decide_frozen")):  # fmt: skip
        try:
            match.play(shot)
        except IllegalMoveError as exc:
            parts = refusal_parts(str(exc))
        assert parts is not None and parts["key"] == key

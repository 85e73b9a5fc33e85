"""A match put on a camera's table must be of the size the camera's calibration was made for.

Positions are mapped onto the calibration's table and judged on the match's (``carom
analyze`` put a yellow ball 2400 mm along a 2100 mm table before it checked this).
``POST /api/matches`` refuses such a match (409, one line with both sizes and the way
out) before a match is opened: the database is left as it was.
"""

from __future__ import annotations

from pathlib import Path

from tests.carom.live._helpers import SAMPLE, write_truth_calibration
from tests.carom.web._web import AUTH, PLAYERS, client, db_dump


def _refused(
    tmp_path: Path, calibration: Path, body: dict[str, object], parts: list[object] | None = None
) -> str:
    with client(tmp_path, camera=str(SAMPLE), calibration=calibration) as c:
        before = db_dump(tmp_path / "web.db")
        r = c.post("/api/matches", json={"players": PLAYERS} | body, headers=AUTH)
        assert r.status_code == 409, r.text
        assert c.get("/api/state").json()["match"] is None
        assert db_dump(tmp_path / "web.db") == before
        detail: str = r.json()["detail"]
        assert "\n" not in detail and "Traceback" not in detail
        if parts is not None:
            parts.append(r.json()["detail_parts"])
        return detail


def test_a_match_on_another_table_size_than_the_calibration_is_refused(tmp_path: Path) -> None:
    calibration = write_truth_calibration(tmp_path / "cal.json")  # the match table
    parts: list[object] = []
    detail = _refused(tmp_path, calibration, {"table": "2100x1050"}, parts)
    assert parts == [{"key": "calibration_other_table",  # in the page's language
                      "fields": {"path": str(calibration), "made": "2840x1420",
                                 "match": "2100x1050"}}]  # fmt: skip
    assert detail == (
        f"the camera's calibration {calibration}: made for a 2840x1420 mm table, but the "
        "match is set up for 2100x1050 (the match's table); give the match "
        '"table": "2840x1420", or calibrate again in the wizard'
    )


def test_a_camera_without_its_calibration_yet_opens_no_match(tmp_path: Path) -> None:
    detail = _refused(tmp_path, tmp_path / "not-saved-yet.json", {})
    assert detail.startswith("the camera has no calibration yet: mark the table's corners")


def test_an_unreadable_calibration_is_named(tmp_path: Path) -> None:
    bad = tmp_path / "cal.json"
    bad.write_text("{not json", encoding="utf-8")
    detail = _refused(tmp_path, bad, {})
    assert str(bad) in detail

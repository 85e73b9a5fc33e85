"""The fallback when the automatic fit fails: the wizard saves per camera, live finds it.

Real processes and real pixels: a video of a table in grey (its cloth not found by the
automatic fit), ``carom serve`` on it, the wizard's refit and save through the HTTP API,
then ``carom live`` on the same camera without ``--calibration``; marks on a wooden
floor (no table) are refused, as ``carom calibrate`` refuses them.
"""

from __future__ import annotations

import os
import re
from pathlib import Path

import httpx2
import pytest

from calibration import load_calibration
from carom.cli import main
from carom.i18n import catalogue
from carom.pipeline import camera_calibration_path
from tests.carom.cli._no_table import GREY_TABLE_CORNERS, floor, grey_table, write_clip
from tests.carom.live._helpers import carom_cmd, run_live
from tests.carom.web._web import AUTH, client
from tests.carom.web.test_camera import first_seconds
from tests.carom.web.test_serve_cli import _start, _stop

TOKEN = "fallback-token-0123456789abcdef"
CORNERS = [[120.0, 80.0], [840.0, 80.0], [850.0, 460.0], [110.0, 460.0]]


def test_explicit_auto_on_a_video_without_a_table_stops_with_status_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    clip = write_clip(tmp_path / "floor.mp4", floor())
    args = ["serve", "--camera", str(clip), "--calibration", "auto", "--port", "0",
            "--db", str(tmp_path / "web.db")]  # fmt: skip
    assert main(args) == 4
    err = capsys.readouterr().err.strip().splitlines()
    assert "calibration failed: " in err[-1] and "--corners" in err[-1]


def test_marks_on_a_floor_fit_nothing_the_wizard_would_save(tmp_path: Path) -> None:
    """The wizard saved any refit of a picture without a table (confidence 0.01), which
    ``carom calibrate --corners`` refuses."""
    clip = write_clip(tmp_path / "floor.mp4", floor())
    saved = tmp_path / "camera.json"
    with client(tmp_path, camera=str(clip), calibration=saved) as c:
        fit = c.post("/api/calibration/fit", json={"corners_px": CORNERS}, headers=AUTH)
        assert fit.status_code == 200 and fit.json()["verdict"] == "failed", fit.text
        refused = c.post("/api/calibration/save", headers=AUTH)
        assert refused.status_code == 409 and refused.json()["detail_parts"]["key"] == "fit_failed"
    assert not saved.exists()


def test_a_failed_fit_leaves_the_wizard_whose_save_live_finds(tmp_path: Path) -> None:
    clip = write_clip(tmp_path / "grey.mp4", grey_table())
    db = tmp_path / "web.db"
    saved = camera_calibration_path(db, str(clip))
    env = os.environ | {"CAROM_TOKEN": TOKEN}
    auth = {"Authorization": f"Bearer {TOKEN}"}
    proc, url = _start("serve", "--camera", str(clip), "--db", str(db), "--port", "0", env=env)
    try:
        shown = httpx2.get(url + "/api/calibration", timeout=60).json()
        assert "drag the four corners" in shown["note"] and len(shown["corners_px"]) == 4
        # keyed for the page's language (it was English in every one; found by a review)
        parts = shown["note_parts"]
        assert parts["key"] == "auto_failed" and parts["fields"]["why"] in shown["note"]
        web = catalogue("web")
        assert web.text("en", "wiz.auto_failed", **parts["fields"]) == shown["note"]
        korean = web.text("ko", "wiz.auto_failed", **parts["fields"])
        assert "drag" not in korean.replace(parts["fields"]["why"], "") and "모서리" in korean
        assert httpx2.get(url + "/api/calibration/frame.jpg").status_code == 200
        r = httpx2.post(url + "/api/matches", json={"players": ["A", "B"]}, headers=auth)
        assert r.status_code == 409 and "wizard" in r.json()["detail"]
        r = httpx2.post(url + "/api/calibration/fit", json={"corners_px": GREY_TABLE_CORNERS},
                        headers=auth, timeout=60)  # fmt: skip
        assert r.status_code == 200 and r.json()["verdict"] == "doubtful", r.text
        r = httpx2.post(url + "/api/calibration/save", headers=auth)
        overlay = saved.with_name(saved.stem + "_overlay.png")
        assert r.json() == {"saved": True, "path": str(saved), "overlay": str(overlay),
                            "table_size": None}  # fmt: skip
        assert overlay.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"  # this fit's picture
        r = httpx2.post(url + "/api/matches", json={"players": ["A", "B"]}, headers=auth,
                        timeout=60)  # fmt: skip
        assert r.status_code in (200, 201), r.text  # the camera's pipeline runs it
    finally:
        code, err = _stop(proc)
    assert code == 0, err
    # The pipeline's own lines (its summary at the end) are the server's, not "carom live:"
    assert re.search(r"^carom serve: [\d.]+ fps, \d+ dropped", err, re.M), err
    assert "carom live:" not in err
    assert f"{clip}: calibration failed: " in err, err
    assert f"{url}/wizard" in err and str(saved) in err  # the real address, the file
    overlay = saved.with_name(saved.stem + "_overlay.png")
    assert (f"calibration saved by the wizard: {saved} (doubtful: corners only: 4 marked "
            "points fit any lens; look at the diamonds, confidence 0.50; check that the "
            f"lines in {overlay} lie on the table's edges)") in err, err  # fmt: skip
    assert load_calibration(saved).method == "manual"
    # carom live on the same camera, beside the same database, takes the wizard's file.
    cmd = [*carom_cmd(), "live", "--camera", str(clip), "--db", str(db), "--pace", "0",
           "--players", "A", "B", "--first", "A"]  # fmt: skip
    done = run_live(cmd)
    assert f"using the calibration saved for {clip}: {saved}" in done.stderr, done.stderr


def test_live_without_a_calibration_fits_the_camera_once_then_reuses_it(tmp_path: Path) -> None:
    clip = first_seconds(tmp_path / "clip.mp4", end_s=1.4)  # before the first stroke
    db = tmp_path / "live.db"
    cmd = [*carom_cmd(), "live", "--camera", str(clip), "--db", str(db), "--pace", "0",
           "--players", "A", "B", "--first", "A"]  # fmt: skip
    first = run_live(cmd)
    assert first.returncode == 0, first.stderr
    saved = camera_calibration_path(db, str(clip))
    assert f"calibrated: {saved}" in first.stderr and saved.is_file()
    assert saved.with_name(saved.stem + "_overlay.png").is_file()
    again = run_live(cmd)
    assert again.returncode == 0, again.stderr
    assert f"using the calibration saved for {clip}: {saved}" in again.stderr


def test_live_on_a_video_without_a_table_stops_with_status_4(tmp_path: Path) -> None:
    clip = write_clip(tmp_path / "floor.mp4", floor())
    db = tmp_path / "live.db"
    done = run_live([*carom_cmd(), "live", "--camera", str(clip), "--db", str(db)])
    assert done.returncode == 4 and "Traceback" not in done.stderr
    last = done.stderr.strip().splitlines()[-1]
    assert last.startswith("carom: ") and f"{clip}: calibration failed: " in last
    assert f"carom calibrate {clip} --frame 30 --corners" in last and "/wizard" in last
    assert not camera_calibration_path(db, str(clip)).exists()
    assert not db.exists()  # no match was opened

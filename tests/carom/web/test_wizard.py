"""The calibration wizard's API on the sample's real frame and its true camera."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np

from tests.carom.live._helpers import write_truth_calibration
from tests.carom.web._web import AUTH, client
from tests.carom.web.test_camera import first_seconds


def test_the_wizard_shows_refits_and_saves_only_to_the_servers_file(tmp_path: Path) -> None:
    clip = first_seconds(tmp_path / "clip.mp4", end_s=1.5)
    calibration = write_truth_calibration(tmp_path / "calibration.json")
    before = calibration.read_bytes()
    with client(tmp_path, camera=str(clip), calibration=calibration) as c:
        shown = c.get("/api/calibration").json()
        assert (shown["width"], shown["height"]) == (1280, 720)
        corners = np.asarray(shown["corners_px"])
        assert corners.shape == (4, 2) and len(shown["diamonds_px"]) == 24
        tl, tr, br, bl = corners
        assert tl[0] < tr[0] and bl[0] < br[0] and tl[1] < bl[1] and tr[1] < br[1]
        jpeg = c.get(shown["image_url"])
        assert jpeg.headers["content-type"] == "image/jpeg" and jpeg.content[:2] == b"\xff\xd8"
        assert c.post("/api/calibration/save", headers=AUTH).status_code == 409  # no refit yet
        body = {"corners_px": shown["corners_px"], "diamonds_px": shown["diamonds_px"][:8]}
        assert c.post("/api/calibration/fit", json=body).status_code == 401
        fit = c.post("/api/calibration/fit", json=body, headers=AUTH)
        assert fit.status_code == 200, fit.text
        refit = fit.json()
        # the 8 marked and the 16 others where the shown calibration puts them
        assert len(refit["residuals_px"]) == 24 and refit["rms_px"] < 2.0
        assert np.abs(np.asarray(refit["corners_px"]) - corners).max() < 3.0
        assert calibration.read_bytes() == before  # a refit writes nothing
        # one diamond dragged 8 px: a refit (not "no camera"), that diamond off by ~8 px
        dragged = [None] * 24
        dragged[4] = [shown["diamonds_px"][4][0] + 8.0, shown["diamonds_px"][4][1] + 5.0]
        one = c.post("/api/calibration/fit", json={**body, "diamonds_px": dragged}, headers=AUTH)
        assert one.status_code == 200, one.text
        res = one.json()["residuals_px"]
        assert 6.0 < res[4] < 10.5 and max(res[:4] + res[5:]) < 3.0
        bad = {"corners_px": [[0, 0], [1, 0], [1, 1]]}
        assert c.post("/api/calibration/fit", json=bad, headers=AUTH).status_code == 422
        answer = c.post("/api/calibration/save", headers=AUTH).json()
        assert answer == {"saved": True, "path": str(calibration)}  # the page shows where
        saved = json.loads(calibration.read_text())
        assert saved != json.loads(before) and "camera" in json.dumps(saved)


def test_without_a_camera_the_wizard_says_how_to_get_one(tmp_path: Path) -> None:
    with client(tmp_path) as c:
        r = c.get("/api/calibration")
        assert r.status_code == 409 and "--camera" in r.json()["detail"]
        assert c.post("/api/calibration/save", headers=AUTH).status_code == 409

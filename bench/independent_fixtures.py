"""Render the test clips of the hard situations from the independent (pooltool) set.

One shot per situation tag, the first of the tuning part by id (none is picked for how
it comes out): near_miss pt0001, along_cushion pt0002, kiss_by_cushion pt0034, cluster
pt0053, thin_kiss pt0056, cushions_close pt0112, order_close pt1307; and pt0011, a cue
ball that touches a cushion before the first frame shows it moving, pt0230, a ball at
rest 22 mm from a cushion struck into it (a tuning shot whose cushion was missed; picked
for that), pt0262, a ball kissed 15 ms before it touches both cushions of a corner (a
tuning shot whose corner was missed; picked for that), pt0044, a cue ball at 5-6 m/s
filmed with the shutter open the whole frame (a faint streak 2-3 balls long that the
tracker lost for 15 frames, and two cushions with it), and pt0070, a white crawling 9 mm
back off a cushion at the end. All with one plain look (960x540 at 60 fps, 2.8 m up, a
mild barrel lens, blue cloth, the player's arm and cue at the stroke; pt0044 exposed
0.95 of a frame instead of 0.5) at 0.5 Mbit/s, so that the clips stay small enough to
keep in the repository
(``tests/vision/fixtures/independent/``, about 0.5 MB each);
``tests/vision/test_independent_clips.py`` analyses them::

    PYTHONPATH=. .venv/bin/python bench/independent_fixtures.py [ID ...]

(only the shots given, by id; all without).
"""

from __future__ import annotations

import sys
from pathlib import Path

from _independent_look import render_shot  # bench/ is on the path when a bench runs

from synth import IndependentReplay, load_independent_shots

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT / "bench" / "data" / "pooltool_shots.json.gz"
OUT = ROOT / "tests" / "vision" / "fixtures" / "independent"
SHOTS = (1, 2, 11, 34, 44, 53, 56, 70, 112, 230, 262, 1307)
#: Looks that differ from LOOK, by shot.
LOOK_CHANGES: dict[int, dict[str, float]] = {44: {"exposure_frames": 0.95}}
BITRATE_BPS = 500_000
LOOK = {
    "width_px": 960, "height_px": 540, "fps": 60.0, "height_m": 2.8, "tilt_deg": 0.0,
    "roll_deg": 0.0, "yaw_deg": 0.0, "k1": -0.08, "k2": 0.0, "p1": 0.0, "p2": 0.0,
    "cloth": "blue", "light": 1.0, "noise": 1.0, "exposure_frames": 0.5,
    "optics_blur_px": 0.8, "sharpen": 0.4, "players": True, "score_graphic": False,
}  # fmt: skip


def main(ids: list[int]) -> int:
    """Render the fixture shots ``ids`` (all if empty; a few seconds of CPU each)."""
    data = load_independent_shots(DATA)
    for shot_id in ids or SHOTS:
        shot = data.shot(shot_id)
        if shot.split != "tuning":
            raise SystemExit(f"{shot.name} is held out: fixtures come from the tuning part")
        video = OUT / f"{shot.name}.mp4"
        look = {**LOOK, **LOOK_CHANGES.get(shot_id, {})}
        render_shot(IndependentReplay(shot, data.table), look, video, seed=shot_id,
                    bitrate_bps=BITRATE_BPS)  # fmt: skip
        print(f"{video.relative_to(ROOT)}: {video.stat().st_size / 1e6:.2f} MB", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main([int(x) for x in sys.argv[1:]]))

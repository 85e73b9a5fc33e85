"""Draw the contact events found on real tracked shots, for checking by eye.

Runs ``vision.extract_events`` on shots 1-10 of ``../shared/realdata/
three_cushion_match_dev.json`` (real trajectories, no rendering) and writes one
diagram per shot to ``out/real_events/`` and a contact sheet of all ten to
``docs/img/real_events.jpg``; each caption
names the referee's verdict for the shot (three-cushion, the first ball to move is
the shooter's). The findings of the check by eye are in docs/vision.md.

    PYTHONPATH=. .venv/bin/python bench/real_events_diagrams.py
"""

from __future__ import annotations

import json
from pathlib import Path

import cv2
import numpy as np

from calibration import TableGeometry
from carom.report import diagram_png
from referee import Ball, Discipline, Shot, ShotContext, Table, judge
from vision import BallTrack, extract_events

ROOT = Path(__file__).resolve().parents[1]
DATA = ROOT.parent / "shared" / "realdata" / "three_cushion_match_dev.json"
OUT = ROOT / "out" / "real_events"
SHEET = ROOT / "docs" / "img" / "real_events.jpg"
GEO = TableGeometry(Table())


def main() -> None:
    """Write the ten diagrams and the contact sheet."""
    doc = json.loads(DATA.read_text())
    OUT.mkdir(parents=True, exist_ok=True)
    tiles = []
    for shot in doc["shots"][:10]:
        tracks = {Ball(n): BallTrack.from_samples(b["t_s"], np.c_[b["x_mm"], b["y_mm"]])
                  for n, b in shot["balls"].items()}  # fmt: skip
        cue = Ball(shot["ball_order_in_source"][0])
        scored = extract_events(tracks, GEO)
        other = Ball.YELLOW if cue is Ball.WHITE else Ball.WHITE
        ctx = ShotContext(discipline=Discipline.THREE_CUSHION, cue_ball=cue, opponent_ball=other)
        verdict = judge(Shot(index=0, cue_ball=cue, events=tuple(s.event for s in scored)), ctx)
        caption = f"real shot {shot['shot_id']} ({cue}): {verdict.reason}"
        image = diagram_png(GEO, tracks, scored, caption=caption, width_px=900)
        cv2.imwrite(str(OUT / f"shot_{shot['shot_id']:02d}.png"), image)
        tiles.append(image)
        print(caption)
    h = max(t.shape[0] for t in tiles)
    tiles = [np.pad(t, ((0, h - t.shape[0]), (0, 0), (0, 0)), constant_values=255) for t in tiles]
    rows = [np.hstack(tiles[i : i + 2]) for i in range(0, len(tiles), 2)]
    sheet = np.vstack(rows)
    small = cv2.resize(
        sheet, (sheet.shape[1] // 2, sheet.shape[0] // 2), interpolation=cv2.INTER_AREA
    )
    cv2.imwrite(str(SHEET), small, [cv2.IMWRITE_JPEG_QUALITY, 85])


if __name__ == "__main__":
    main()

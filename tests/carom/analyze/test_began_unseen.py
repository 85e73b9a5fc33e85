"""A video that begins while the balls are rolling: that shot is not judged.

Its stroke was played before the first frame: who played it and what it hit first were
never seen. ``carom analyze`` judged the motion as a stroke all the same (a clip of the
bundled match cut 3 s in: "A missed the second ball", an inning A never played, then a
review at the next stroke), where ``carom live`` says "began unseen: not scored". The
clip here is the bundled match's packets from its key frame at 3.17 s, while A's point
is rolling, to 14.6 s, after it stopped: real pixels, no re-encoding.
"""

from __future__ import annotations

import contextlib
import io
import json
from pathlib import Path
from typing import Any

import av
import pytest

from carom.analyze._run_notes import RUN_NOTE_ENGLISH
from carom.cli import main

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


def _cut(src: Path, dst: Path, from_s: float, to_s: float) -> int:
    """``src``'s packets from its first key frame at ``from_s`` or later to ``to_s``."""
    n, started = 0, False
    with av.open(str(src)) as source, av.open(str(dst), "w") as out:
        stream = source.streams.video[0]
        copy = out.add_stream_from_template(stream)
        for packet in source.demux(stream):
            if packet.pts is None or packet.dts is None:
                continue
            t_s = float(packet.pts * packet.time_base)
            started = started or (packet.is_keyframe and t_s >= from_s)
            if not started:
                continue
            if t_s >= to_s:
                break
            packet.stream = copy
            out.mux(packet)
            n += 1
    return n


@pytest.fixture(scope="module")
def analysed(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    folder = tmp_path_factory.mktemp("rolling")
    clip = folder / "rolling.mp4"
    assert _cut(SAMPLE, clip, 3.0, 14.6) > 300
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        assert main(["analyze", str(clip), "--out", str(folder / "out"), "--json"]) == 0
    doc: dict[str, Any] = json.loads((folder / "out" / "shots.json").read_text())
    doc["summary"] = json.loads(printed.getvalue())
    doc["report"] = (folder / "out" / "report.html").read_text()
    return doc


def test_a_shot_rolling_at_the_first_frame_is_not_judged_and_says_so(
    analysed: dict[str, Any],
) -> None:
    assert analysed["shots"] == []  # it was "A: missed the second ball", an inning for A
    said = RUN_NOTE_ENGLISH["began_unseen"].format(t_s="0.0")
    assert said in analysed["summary"]["notes"]
    assert said.replace("'", "&#x27;") in analysed["report"]
    assert analysed["summary"]["shots"] == [] and analysed["summary"]["score"] == {"A": 0, "B": 0}

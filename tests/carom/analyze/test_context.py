"""``carom analyze`` judges only what the video established: mid-match starts, breaks, lags.

Clips are rendered here at 640x360 and 25 fps, a broadcast rate (real pixels through
the whole pipeline): a single stroke from the middle of a game (``3c-kiss``: the first
object ball comes back onto the cue ball; the truth is a point after 4 cushions, which
the old "first stroke is a break" rule called a break foul), the break (``3c-break``),
and a sequence that starts with a lag, then the break and two strokes
(``three-cushion-lag-match``). Each is analysed by the CLI's ``main`` (in the test's
process: ``tests/carom/cli`` starts the real command) as a user would run it, and the
written shot log is scored again by ``carom score`` to the same calls.
"""

from __future__ import annotations

import json
import re
from pathlib import Path
from typing import Any

import pytest

from synth import CameraSettings, LookSettings, make_clip, motion_for
from tests.carom.cli._in_process import carom_in_process

NAMES = ("3c-kiss", "3c-break", "three-cushion-lag-match")


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Path]:
    out = tmp_path_factory.mktemp("context")
    camera = CameraSettings(width_px=640, height_px=360, fps=25)
    made = {n: make_clip(n, motion_for(n), out, camera, LookSettings(), seed=3) for n in NAMES}
    return {n: m.clip.video_path for n, m in made.items()}


def _carom(*args: str) -> dict[str, Any]:
    done = carom_in_process(*args)
    assert done.returncode == 0, done.stderr
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def _analyze(video: Path, *flags: str) -> dict[str, Any]:
    out = video.with_name(video.stem + "-".join(("", *flags)).replace(" ", "") + ".out")
    return _carom("analyze", str(video), "--out", str(out), "--json", *flags)


def _calls(shots: list[dict[str, Any]]) -> list[tuple[int, list[str], bool]]:
    return [(s["points"], s["fouls"], s["break"]) for s in shots]


def _truth(video: Path) -> dict[str, Any]:
    truth: dict[str, Any] = json.loads(video.with_suffix(".json").read_text())
    return truth


def _rescored(summary: dict[str, Any]) -> dict[str, Any]:
    return _carom("score", summary["files"]["shots"], "--json")


def test_a_clip_from_the_middle_of_a_game_is_judged_as_play(clips: dict[str, Path]) -> None:
    summary = _analyze(clips["3c-kiss"])
    truth = _truth(clips["3c-kiss"])["verdicts"][0]
    (shot,) = summary["shots"]
    assert (shot["points"], shot["fouls"], shot["reason"]) == (1, [], truth["reason"])
    assert shot["break"] is False and shot["review"] is None
    assert shot["break_rule"].startswith("play: the balls are not in the break layout")
    assert summary["lag"] is None
    assert any("no lag seen: the match is joined in progress" in n for n in summary["notes"])
    again = _rescored(summary)
    assert _calls(again["shots"]) == _calls(summary["shots"])
    assert again["shots"][0]["break_rule"] == shot["break_rule"]


def test_a_first_player_the_video_contradicts_is_said_once_not_fouled(
    clips: dict[str, Path],
) -> None:
    summary = _analyze(clips["3c-kiss"], "--first", "B")
    (shot,) = summary["shots"]
    assert shot["player"] == "A" and shot["fouls"] == [] and shot["review"] is None
    said = [n for n in summary["notes"] if "contradicts the video" in n]
    assert len(said) == 1 and said[0].endswith("use --first A")


def test_the_break_layout_is_recognised(clips: dict[str, Path]) -> None:
    summary = _analyze(clips["3c-break"])
    (shot,) = summary["shots"]
    assert shot["break"] is True and shot["points"] == 1
    assert shot["break_rule"].startswith("a break: the balls stand in the break layout")
    assert not any(a.startswith("wrong break position") for a in shot["announcements"])


def test_a_lag_decides_the_breaker_and_the_break_follows(clips: dict[str, Path]) -> None:
    video = clips["three-cushion-lag-match"]
    truth = _truth(video)
    summary = _analyze(video)
    assert summary["lag"]["winner"] == truth["lag"]["winner"]
    shots = summary["shots"]
    want = [(v["points"], v["fouls"]) for v in truth["verdicts"]]
    assert [(s["points"], s["fouls"]) for s in shots] == want
    assert shots[0]["player"] == truth["lag"]["breaker"] and shots[0]["break"] is True
    assert [s["break"] for s in shots[1:]] == [False] * (len(shots) - 1)
    assert not any("no lag seen" in n for n in summary["notes"])
    again = _rescored(summary)
    assert again["lag"]["winner"] == truth["lag"]["winner"]
    assert _calls(again["shots"]) == _calls(shots)
    # The report numbers the shots as the scoresheet and the log do: the lag is its
    # header, not a card "Shot 0 — lag" that put every later card one ahead.
    report = Path(summary["files"]["report"]).read_text()
    cards = re.findall(r"Shot (\d+) — (\w+)", report)
    assert [(int(n), p) for n, p in cards] == [(s["index"], s["player"]) for s in shots]

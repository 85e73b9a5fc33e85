"""What ``carom analyze`` checks at start and at the end of the video, end to end.

A calibration file that does not fit the video stops at start with one line (exit 2);
a truncated MKV (no frame count in its header, only a duration) ends with one line
saying how much was read (exit 5), the complete shots written.
"""

from __future__ import annotations

import json
import re
import shutil
import subprocess
import sys
from dataclasses import replace
from pathlib import Path

import av

from calibration import Calibration, Distortion, save_calibration
from tests.sample_truth import SAMPLES, sample_truth

NAME = "three_cushion_match"


def _carom(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "carom"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=900)


def _lines(text: str) -> list[str]:
    """The lines that tell of a problem (not where the detector runs)."""
    return [line for line in text.splitlines() if "ball detector:" not in line]


def test_a_calibration_with_a_wrong_lens_stops_at_start_in_one_line(tmp_path: Path) -> None:
    _, calib = sample_truth(NAME)
    wrong = Calibration(calib.geometry, replace(calib.camera, distortion=Distortion(k1=0.5)),
                        calib.created)  # fmt: skip
    save_calibration(tmp_path / "wrong.json", wrong)
    out = tmp_path / "out"
    done = _carom("analyze", str(SAMPLES / f"{NAME}.mp4"), "--calibration",
                  str(tmp_path / "wrong.json"), "--out", str(out), "--json")  # fmt: skip
    assert done.returncode == 2, done.stderr
    (line,) = _lines(done.stderr)
    assert "does not fit this video" in line
    assert "px from where the calibration puts it (at most 5.9 px" in line
    video = SAMPLES / f"{NAME}.mp4"  # the way out names the video analysed
    assert f"recalibrate (carom calibrate {video} --out {tmp_path / 'wrong.json'})" in line
    assert "Traceback" not in done.stderr


def test_a_calibration_fitted_with_low_confidence_is_used_with_one_note(tmp_path: Path) -> None:
    """The right camera, but its file says it was a doubtful fit (four corners alone are
    at best 0.5): the analysis goes on, and says so instead of nothing."""
    _, calib = sample_truth(NAME)
    doubtful = Calibration(calib.geometry, calib.camera, calib.created, calib.method,
                           {"confidence": 0.5})  # fmt: skip
    save_calibration(tmp_path / "doubt.json", doubtful)
    clip = SAMPLES.parent / "examples" / "one_shot.mp4"  # the sample's first 15 s
    done = _carom("analyze", str(clip), "--calibration", str(tmp_path / "doubt.json"),
                  "--out", str(tmp_path / "out"), "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = (f"--calibration {tmp_path / 'doubt.json'}: fitted with confidence 0.50, below a "
            "good fit's 0.80 (its overlay shows where it is off)")  # fmt: skip
    assert [line for line in _lines(done.stderr) if said in line] != []
    assert any(said in note for note in json.loads(done.stdout)["notes"])


def test_a_ball_resting_inside_a_cushion_is_said_to_show_a_calibration_off_there(
    tmp_path: Path,
) -> None:
    """Corners marked a few pixels off (a new user's, by hand): the fit passes the check
    against the video, but the red comes to rest 11 mm from a cushion, closer than its
    radius; the analysis said nothing of it."""
    cal = tmp_path / "man.json"
    done = _carom("calibrate", str(SAMPLES / f"{NAME}.mp4"), "--frame", "30", "--corners",
                  "157,119;1122,119;1122,600;157,601", "--out", str(cal))  # fmt: skip
    assert done.returncode == 3, done.stderr  # four corners alone: doubtful
    clip = SAMPLES.parent / "examples" / "one_shot.mp4"
    done = _carom("analyze", str(clip), "--calibration", str(cal), "--out", str(tmp_path / "o"),
                  "--json")  # fmt: skip
    assert done.returncode == 0, done.stderr
    (note,) = [n for n in json.loads(done.stdout)["notes"] if "came to rest" in n]
    assert re.fullmatch(r"the red ball came to rest \d+ mm from a cushion at [\d.]+ s, closer "
                        r"than its radius \(30.75 mm\): the calibration is off there; check "
                        r"its overlay, or calibrate again", note), note  # fmt: skip


def _truncated_mkv(dst: Path, keep: float) -> Path:
    """The sample remuxed into Matroska (duration in the header, no frame count), cut."""
    full = dst.with_name("full.mkv")
    with av.open(str(SAMPLES / f"{NAME}.mp4")) as src, av.open(str(full), "w", "matroska") as out:
        stream = src.streams.video[0]
        copy = out.add_stream_from_template(stream)
        for packet in src.demux(stream):
            if packet.dts is not None:
                packet.stream = copy
                out.mux(packet)
    data = full.read_bytes()
    dst.write_bytes(data[: int(len(data) * keep)])
    return dst


def test_a_truncated_mkv_says_how_much_was_read_in_one_line(tmp_path: Path) -> None:
    clip = _truncated_mkv(tmp_path / "cut.mkv", 0.45)
    out = tmp_path / "out"
    done = _carom("analyze", str(clip), "--calibration", str(_truth_file(tmp_path)),
                  "--out", str(out), "--no-trajectories", "--json")  # fmt: skip
    assert done.returncode == 5, done.stderr
    (line,) = _lines(done.stderr)
    assert "seems truncated: it ends at" in line
    assert "of the 56.5 s its header gives" in line
    shots = json.loads((out / "shots.json").read_text())
    assert len(shots["shots"]) >= 1  # the first shot ended before the cut
    n = len(shots["shots"])
    said = "the 1 complete shot is in" if n == 1 else f"the {n} complete shots are in"
    assert line.endswith(f"; {said} {out / 'shots.json'}"), line


def _truth_file(tmp_path: Path) -> Path:
    path = tmp_path / "truth.json"
    save_calibration(path, sample_truth(NAME)[1])
    return path

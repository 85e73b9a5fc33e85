"""``carom live`` checks a given calibration against the camera's picture before play."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path

import pytest

from calibration import (
    Calibration,
    Distortion,
    calibrate_frame,
    load_calibration,
    save_calibration,
)
from carom.pipeline import camera_calibration_path
from referee import Table
from tests.carom.live._helpers import (
    SAMPLE,
    carom_cmd,
    live_cmd,
    run_live,
    write_truth_calibration,
)
from tests.readme_run import cut_clip
from vision import read_frame


def test_a_calibration_with_a_wrong_lens_stops_live_before_any_shot(tmp_path: Path) -> None:
    truth = load_calibration(write_truth_calibration(tmp_path / "truth.json"))
    wrong = Calibration(truth.geometry, replace(truth.camera, distortion=Distortion(k1=0.5)),
                        truth.created)  # fmt: skip
    save_calibration(tmp_path / "wrong.json", wrong)
    db = tmp_path / "live.db"
    done = run_live(live_cmd(tmp_path / "wrong.json", db, None, "--pace", "0"))
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("carom: ")]
    assert f"--calibration {tmp_path / 'wrong.json'}: does not fit this video" in line
    assert f"recalibrate (carom calibrate {SAMPLE} --out" in line
    assert "Traceback" not in done.stderr
    assert not db.exists()  # checked before the database: no empty match left behind


def test_the_camera_s_own_calibration_that_does_not_fit_says_to_fit_it_again(
    tmp_path: Path,
) -> None:
    """No --calibration: the camera's saved one (the wizard's, an earlier fit) is used;
    when it does not fit, the way out is to fit it again, not a flag never given."""
    truth = load_calibration(write_truth_calibration(tmp_path / "truth.json"))
    wrong = Calibration(truth.geometry, replace(truth.camera, distortion=Distortion(k1=0.5)),
                        truth.created)  # fmt: skip
    db = tmp_path / "live.db"
    saved = camera_calibration_path(db, str(SAMPLE))
    saved.parent.mkdir()
    save_calibration(saved, wrong)
    cmd = live_cmd(saved, db, None, "--pace", "0")
    at = cmd.index("--calibration")
    done = run_live(cmd[:at] + cmd[at + 2 :])
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("carom: ")]
    assert line.startswith(f"carom: the camera's calibration {saved}: does not fit this video")
    assert line.endswith(
        "; fit it again: in the browser wizard (127.0.0.1:8765/wizard of carom serve "
        f"--camera {SAMPLE} --db {db}), or delete {saved} and the next start fits one"
    ), line  # the wizard of that database saves where this command finds it
    assert "--calibration" not in line


@pytest.mark.parametrize("length_mm", [2840.0, 2100.0])
def test_a_calibration_for_another_table_size_is_said_once_and_live_goes_on(
    tmp_path: Path, length_mm: float
) -> None:
    """The sample's match table fitted as itself and as a 2100 x 1050 table: the outline
    fits either, the balls only the first."""
    clip = tmp_path / "first2s.mp4"
    cut_clip(SAMPLE, clip, 2.0)
    table = Table(length_mm=length_mm, width_mm=length_mm / 2.0)
    save_calibration(
        tmp_path / "cal.json", calibrate_frame(read_frame(str(clip), 30), table).calibration
    )
    size = f"{length_mm:g}x{length_mm / 2.0:g}"  # the match is set up for the same table
    done = run_live([*carom_cmd(), "live", "--camera", str(clip), "--calibration",
                     str(tmp_path / "cal.json"), "--players", "A", "B", "--first", "A",
                     "--table", size, "--db", str(tmp_path / "live.db"),
                     "--pace", "0"])  # fmt: skip
    assert done.returncode == 0, done.stderr
    said = [x for x in done.stderr.splitlines() if "table size doubtful" in x]
    if length_mm == 2840.0:
        assert said == []
    else:
        (line,) = said
        assert "the balls look 0.7" in line and "a 2100x1050 mm table" in line, line
        assert "(match: 2840x1420" in line and "check its size (--table)" in line


def test_a_calibration_of_another_table_than_the_match_s_stops_live_at_start(
    tmp_path: Path,
) -> None:
    """Positions would be mapped onto one table and judged on another: refused at once."""
    calibration = write_truth_calibration(tmp_path / "truth.json")  # the 2840 x 1420 table
    db = tmp_path / "live.db"
    done = run_live(live_cmd(calibration, db, None, "--pace", "0", "--table", "2100x1050"))
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("carom: ")]
    assert line == (
        f"carom: --calibration {calibration}: made for a 2840x1420 mm table, but the match is "
        "set up for 2100x1050 (--table, the match file or the default); give --table "
        "2840x1420 if that is the table, or calibrate again with its true size (carom "
        "calibrate --table LENGTHxWIDTH)"
    )
    assert not db.exists()


@pytest.mark.parametrize(
    ("extra", "says"),
    [
        (("--status-every", "-1"), "--status-every -1.0: use 0.5 to 3600 seconds"),
        (("--drift-every", "-5"), "--drift-every -5.0: use 0 (off) to 86400 seconds"),
        (("--metrics", "/proc/m.json"), "--metrics /proc/m.json: not writable ("),
    ],
)
def test_bad_periods_and_an_unwritable_metrics_file_stop_live_at_start(
    tmp_path: Path, extra: tuple[str, ...], says: str
) -> None:
    """Not after the match: a metrics path failed only when the match was over."""
    calibration = write_truth_calibration(tmp_path / "truth.json")
    db = tmp_path / "live.db"
    done = run_live(live_cmd(calibration, db, None, "--pace", "0", *extra))
    assert done.returncode == 2, done.stderr
    (line,) = [x for x in done.stderr.splitlines() if x.startswith("carom: ")]
    assert says in line and "Traceback" not in done.stderr
    assert not db.exists()  # no match was begun


def test_a_database_that_is_no_match_database_stops_live_before_the_calibration_fit(
    tmp_path: Path,
) -> None:
    """It fitted a calibration from the video first (seconds, and a folder of it written
    beside the file), then refused the file (found by a review)."""
    db = tmp_path / "notes.txt"
    db.write_text("not a database\n")
    done = run_live([*carom_cmd(), "live", "--camera", str(SAMPLE), "--db", str(db),
                     "--pace", "0"])  # fmt: skip
    assert done.returncode == 2, done.stderr
    assert (
        done.stderr == f"carom: {db}: not a carom database (file is not a database); pass "
        "another path\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == ["notes.txt"]  # no calibration made

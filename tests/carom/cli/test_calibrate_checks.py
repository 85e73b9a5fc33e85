"""``carom calibrate`` refuses bad numbers and unwritable outputs before any fitting."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


def _carom(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "carom"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize(
    ("args", "said"),
    [
        (["--frame", "-5"], "argument --frame: expected a frame number 0 or more, got -5"),
        (["--frame", "x"], "argument --frame: expected a frame number 0, 1, 2 ..., got 'x'"),
        (["--square-mm", "nan"], "argument --square-mm: expected a square side of 1 to 500 mm"),
        (["--square-mm", "-25"], "argument --square-mm: expected a square side of 1 to 500 mm"),
        (["--corners", "nan,1;2,3;4,5;6,7"], "--corners: pixel coordinates must be finite"),
        # A value starting with "-" was taken for an option: "expected one argument".
        (["--corners", "-50,-50;5000,0;5000,5000;0,5000"], "--corners: pixel coordinates must"),
        (["--corners", "1,1;2,3;4,5;6,7", "--diamonds", "0:-5,3"], "--diamonds: pixel coord"),
        (
            ["--corners", "1,1;2,3;4,5;6,7", "--diamonds", "99:1,2"],
            "--diamonds: '99:1,2': index 99 is not a diamond; use 0..23",
        ),  # was a failed fit, 4
        (
            ["--corners", "1,1;2,3;4,5;6,7", "--diamonds", "0:172,196;0:172,196"],
            "--diamonds: '0:172,196': diamond 0 is marked twice; mark each once",
        ),  # was a failed fit, 4, that said to check the corners
    ],
)
def test_bad_numbers_are_refused_in_one_line(tmp_path: Path, args: list[str], said: str) -> None:
    done = _carom("calibrate", str(SAMPLE), "--out", str(tmp_path / "c.json"), *args)
    assert done.returncode == 2
    assert said in done.stderr.splitlines()[-1]
    assert not (tmp_path / "c.json").exists()


def test_outputs_that_cannot_be_written_are_refused_before_the_fit(tmp_path: Path) -> None:
    blocker = tmp_path / "a-file"
    blocker.write_text("")
    done = _carom("calibrate", str(SAMPLE), "--out", str(blocker / "c.json"))
    assert done.returncode == 2
    assert done.stderr.strip() == (
        f"carom: --out {blocker / 'c.json'}: cannot make its folder (a file is in the way); "
        "give a path you may write to"
    )
    assert "verdict" not in done.stdout  # refused before fitting
    done = _carom("calibrate", str(SAMPLE), "--out", str(tmp_path / "c.json"),
                  "--overlay", str(tmp_path))  # fmt: skip
    assert done.returncode == 2
    assert f"--overlay {tmp_path}: is a folder; give a file name" in done.stderr
    assert not (tmp_path / "c.json").exists()
    # A folder where no file can be made (os.access says yes to root in /proc): the
    # calibration file of an earlier fit stays as it was.
    (tmp_path / "c.json").write_text("an earlier fit\n")
    done = _carom("calibrate", str(SAMPLE), "--out", str(tmp_path / "c.json"),
                  "--overlay", "/proc/overlay.png")  # fmt: skip
    assert done.returncode == 2
    assert done.stderr.startswith("carom: --overlay /proc/overlay.png: not writable (")
    assert (tmp_path / "c.json").read_text() == "an earlier fit\n"
    assert "verdict" not in done.stdout  # refused before fitting


def test_a_missing_output_folder_is_made(tmp_path: Path) -> None:
    out = tmp_path / "new" / "deeper" / "c.json"
    done = _carom("calibrate", str(SAMPLE), "--frame", "30", "--out", str(out))
    assert done.returncode == 0, done.stderr
    assert out.exists() and (out.parent / "c_overlay.png").exists()


@pytest.mark.parametrize(
    ("name", "content", "said"),
    [
        ("missing.png", None, "missing.png: no such file; give a video, an image or a camera"),
        ("missing.mp4", None, "missing.mp4: no such file; give the path of a video"),
        ("broken.png", b"not a picture", "broken.png: cannot be read as an image; give a PNG"),
        ("text.mp4", b"not a video", "text.mp4: not a readable video"),
    ],
)
def test_a_picture_or_video_that_cannot_be_read_is_unreadable_media(
    tmp_path: Path, name: str, content: bytes | None, said: str
) -> None:
    """Exit status 5 (docs/exit-status.md) for a picture as for a video, one line."""
    if content is not None:
        (tmp_path / name).write_bytes(content)
    done = _carom("calibrate", str(tmp_path / name), "--out", str(tmp_path / "c.json"))
    assert done.returncode == 5, done.stderr
    assert said in done.stderr and len(done.stderr.strip().splitlines()) == 1
    assert "Traceback" not in done.stderr and not (tmp_path / "c.json").exists()


@pytest.mark.parametrize("command", ["analyze", "calibrate", "stats"])
def test_an_empty_out_is_refused_not_taken_for_the_current_folder(
    tmp_path: Path, command: str
) -> None:
    done = subprocess.run([sys.executable, "-m", "carom", command, str(SAMPLE), "--out", ""],
                          capture_output=True, text=True, cwd=tmp_path, timeout=120)  # fmt: skip
    assert done.returncode == 2
    assert "argument --out: an empty path; give a file or folder name" in done.stderr
    assert not any(tmp_path.iterdir())


def test_an_output_that_is_the_source_or_not_a_picture_is_refused_before_the_fit(
    tmp_path: Path,
) -> None:
    """A tab-completed ``--out clip.mp4`` wrote the calibration's JSON over the video."""
    clip = tmp_path / "clip.mp4"
    shutil.copyfile(SAMPLE, clip)
    before = clip.read_bytes()
    cal = tmp_path / "c.json"
    for args, said in [
        (["--out", str(clip)], f"carom: --out {clip}: is the source being calibrated; give "
                               "another file name"),
        (["--out", str(cal), "--overlay", str(clip)], f"carom: --overlay {clip}: is the source "
                                                      "being calibrated; give another file name"),
        (["--out", str(cal), "--overlay", str(cal)], f"carom: --overlay {cal}: is the "
                                                     "calibration file (--out); give another "
                                                     "file name"),
        (["--out", str(cal), "--overlay", str(tmp_path / "ov")], f"carom: --overlay "
         f"{tmp_path / 'ov'}: not a picture's name; give one ending in .png (or .jpg)"),
    ]:  # fmt: skip
        done = _carom("calibrate", str(clip), *args)
        assert (done.returncode, done.stderr.strip()) == (2, said)
        assert "verdict" not in done.stdout  # refused before fitting
    assert clip.read_bytes() == before and not cal.exists()


@pytest.mark.parametrize(
    ("source", "args", "said"),
    [
        ("", [], "carom: SOURCE is empty; give a video, a picture, a folder of pictures or a "
                 "camera index"),
        ("99999999999999999999", [], "carom: camera 99999999999999999999: not a camera index "
                                     "(0 to 2147483647); give the camera's index, such as 0"),
        ("TABLE", ["--corners", "2230,98;10480,189;9970,599;1840,506"],
         "carom: --corners: corner 1 (2230,98) lies outside the 1280x720 picture; give pixels "
         "within it"),
        ("TABLE", ["--corners", ""], "carom: --corners: expected 'u,v;u,v;u,v;u,v' in pixels, "
                                     "got ''"),
    ],
)  # fmt: skip
def test_bad_sources_and_corners_are_one_line(
    tmp_path: Path, source: str, args: list[str], said: str
) -> None:
    table = SAMPLE.parents[1] / "examples" / "table.jpg"
    out = tmp_path / "c.json"
    done = _carom("calibrate", str(table) if source == "TABLE" else source, "--out", str(out),
                  *args)  # fmt: skip
    assert (done.returncode, done.stderr.strip()) == (2 if source != "99999999999999999999" else
                                                      5, said)  # fmt: skip
    assert not out.exists()


def test_an_overlay_inside_the_picture_folder_is_refused_and_frame_of_a_picture_noted(
    tmp_path: Path,
) -> None:
    """The overlay written among the pictures would be read as one of them next time."""
    table = SAMPLE.parents[1] / "examples" / "table.jpg"
    pics = tmp_path / "pics"
    pics.mkdir()
    shutil.copyfile(table, pics / "a.jpg")
    done = _carom("calibrate", str(pics), "--out", str(pics / "cal.json"))
    assert (done.returncode, done.stderr.strip()) == (
        2,
        (
            f"carom: --overlay {pics / 'cal_overlay.png'}: inside the picture folder {pics}, where "
            "it would be read as one of its pictures; give another folder (--out, --overlay)"
        ),
    )
    assert sorted(p.name for p in pics.iterdir()) == ["a.jpg"]
    done = _carom("calibrate", str(table), "--frame", "5", "--out", str(tmp_path / "c.json"))
    assert done.returncode == 0, done.stderr
    assert f"carom: note: --frame 5 left out: {table} is one picture" in done.stderr


def test_no_output_overwrites_a_picture_of_the_folder_or_glob_or_the_source(
    tmp_path: Path,
) -> None:
    """``carom calibrate pics --out pics/b.jpg`` wrote JSON over b.jpg (exit 0); a failed
    fit's overlay (``OUT_failed_overlay.png``) could be the source picture itself."""
    table = SAMPLE.parents[1] / "examples" / "table.jpg"
    pics = tmp_path / "pics"
    pics.mkdir()
    for name in ("a.jpg", "b.jpg"):
        shutil.copyfile(table, pics / name)
    overlay = str(tmp_path / "y.png")
    for source, out in ((pics, pics / "b.jpg"), (f"{pics}/*.jpg", pics / "a.jpg")):
        done = _carom("calibrate", str(source), "--out", str(out), "--overlay", overlay)
        assert (done.returncode, done.stderr.strip()) == (
            2,
            f"carom: --out {out}: is a picture being calibrated; give another file name",
        )
    assert all((pics / n).read_bytes() == table.read_bytes() for n in ("a.jpg", "b.jpg"))
    source = tmp_path / "z_failed_overlay.png"
    shutil.copyfile(table, source)
    done = _carom("calibrate", str(source), "--out", str(tmp_path / "z.json"))
    assert (done.returncode, done.stderr.strip()) == (
        2,
        (
            f"carom: a failed fit's overlay {source}: is the source being calibrated; give "
            "another --out"
        ),
    )
    assert source.read_bytes() == table.read_bytes()

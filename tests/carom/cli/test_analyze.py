"""``carom analyze`` as a new user runs it: a sample video in, scoresheet and files out."""

from __future__ import annotations

import html.parser
import json
import os
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from fractions import Fraction
from pathlib import Path

import av
import numpy as np
import pytest

from carom.cli._analyze import interrupted_line
from referee import parse_shot_log
from synth import truth_events
from tests.carom.cli._in_process import carom_in_process
from tests.carom.cli._no_table import floor, half_table, write_clip
from tests.carom.cli.test_calibrate import failed_line
from tests.carom.cli.test_score import _one_line_error

SAMPLES = Path(__file__).parents[3] / "sample_videos"
SAMPLE = SAMPLES / "three_cushion_match.mp4"


def _carom(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "carom"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=900, cwd=cwd)


def _cut(src: Path, dst: Path, seconds: float) -> Path:
    """The first ``seconds`` of ``src`` re-encoded (H.264) to ``dst`` (.mp4 or .ts).

    x264's ``veryfast`` preset, the one the renderer and the annotated video use (B-frames,
    so presentation and decoding order differ, as in a camera's stream): half the time of
    the default preset.
    """
    with av.open(str(src)) as inp, av.open(str(dst), "w") as out:
        s_in = inp.streams.video[0]
        fps = round(float(s_in.average_rate or 30))
        s_out = out.add_stream("h264", rate=fps)
        s_out.width, s_out.height, s_out.pix_fmt = s_in.width, s_in.height, "yuv420p"
        s_out.options = {"preset": "veryfast"}
        for i, frame in enumerate(inp.decode(video=0)):
            if i >= seconds * fps:
                break
            frame.pts, frame.time_base = i, Fraction(1, fps)
            out.mux(s_out.encode(frame))
        out.mux(s_out.encode(None))
    return dst


def _copied(src: Path, dst: Path, seconds: float) -> Path:
    """The packets of ``src``'s first ``seconds`` copied into ``dst`` (.ts), not re-encoded."""
    with av.open(str(src)) as inp, av.open(str(dst), "w") as out:
        video = inp.streams.video[0]
        s_out = out.add_stream_from_template(video)
        for packet in inp.demux(video):
            if packet.dts is None:
                continue
            if packet.pts is not None and packet.pts * video.time_base > seconds:
                break
            packet.stream = s_out
            out.mux(packet)
    return dst


@pytest.fixture(scope="module")
def analysed(
    tmp_path_factory: pytest.TempPathFactory,
) -> tuple[subprocess.CompletedProcess[str], Path]:
    work = tmp_path_factory.mktemp("analyze")
    return _carom("analyze", str(SAMPLE), cwd=work), work / "carom-analysis" / SAMPLE.stem


def test_sample_with_no_other_argument_prints_the_scoresheet(
    analysed: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, out = analysed
    assert done.returncode == 0, done.stderr
    assert "three-cushion: A vs B" in done.stdout
    assert "result:" in done.stdout and "x real time" in done.stdout
    for name in ("shots.json", "report.html", "calibration.json", "calibration_overlay.png"):
        assert (out / name).is_file(), name
    (wrote,) = [line for line in done.stdout.splitlines() if line.startswith("wrote ")]
    named = wrote.removeprefix("wrote ").split(", ")
    assert {Path(n).name for n in named} == {p.name for p in out.iterdir()}  # each, and no other
    assert all((out.parents[1] / n).is_file() for n in named)


def test_shot_log_carries_the_truths_verdicts(
    analysed: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    _, out = analysed
    doc = json.loads((out / "shots.json").read_text())
    log = parse_shot_log(doc)  # the analyzed log is a valid carom-shots/1 document
    truth = json.loads(SAMPLE.with_suffix(".json").read_text())
    assert len(log.shots) == len(truth["verdicts"])
    mine = [(s["verdict"]["player"], s["verdict"]["points"]) for s in doc["shots"]]
    assert mine == [(v["player"], v["points"]) for v in truth["verdicts"]]
    events = [e for s in doc["shots"] for e in s["events"]]
    assert all(0.0 <= e["confidence"] <= 1.0 for e in events)
    assert len(events) >= 0.9 * len(truth_events(truth))


def test_scoring_the_written_log_again_gives_the_same_sheet(
    analysed: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    done, out = analysed
    again = _carom("score", str(out / "shots.json"))
    assert again.returncode == 0, again.stderr
    result = [line for line in again.stdout.splitlines() if line.startswith("result:")]
    assert result and result[0] in done.stdout


def test_a_match_file_gives_the_same_calls_as_the_flags(
    analysed: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path
) -> None:
    """The file states the sample's set-up (its players renamed by --players, as the flags
    do); the calls, the players and the scoresheet are those of the run with flags only."""
    match = tmp_path / "match.toml"
    match.write_text(
        'format = "carom-match/1"\ndiscipline = "three-cushion"\ntable = "match"\n'
        'players = ["Ana", "Ben"]\ncue_balls = {Ana = "white", Ben = "yellow"}\ntarget = 40\n'
        "[rules]\nfollow_cue_ball = true\n[clock]\nlength_s = 30.0\n"
    )
    done = _carom("analyze", str(SAMPLE), "--match", str(match), "--players", "A,B",
                  "--out", str(tmp_path / "out"))  # fmt: skip
    assert done.returncode == 0, done.stderr
    flags_done, flags_out = analysed
    mine = json.loads((tmp_path / "out" / "shots.json").read_text())
    theirs = json.loads((flags_out / "shots.json").read_text())
    assert [s["verdict"] for s in mine["shots"]] == [s["verdict"] for s in theirs["shots"]]
    assert mine["match"] == theirs["match"]

    def sheet(out: str) -> list[str]:  # less the speed and the folder written to
        return [s for s in out.splitlines() if "real time" not in s and not s.startswith("wrote")]

    assert sheet(done.stdout) == sheet(flags_done.stdout)


class _Sections(html.parser.HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.tags: list[str] = []

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.tags.append(tag)


def test_report_has_a_diagram_per_shot(
    analysed: tuple[subprocess.CompletedProcess[str], Path],
) -> None:
    _, out = analysed
    parser = _Sections()
    parser.feed((out / "report.html").read_text())
    n_shots = len(json.loads((out / "shots.json").read_text())["shots"])
    assert parser.tags.count("svg") == n_shots + 2  # a diagram a shot, two statistics plots
    assert parser.tags.count("section") == n_shots


@pytest.fixture(scope="module")
def short_clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _cut(SAMPLE, tmp_path_factory.mktemp("clip") / "first8s.mp4", 8.0)


def test_json_summary_is_quiet_and_machine_readable_and_annotate_writes_a_playable_video(
    short_clip: Path, tmp_path: Path
) -> None:
    """One run for both (each is a whole analysis of the clip): ``--json --annotate``.

    ``--out`` relative: the files are named by absolute paths, as the README says (they
    were relative to the folder the command ran in).
    """
    done = _carom("analyze", str(short_clip), "--out", "out", "--json", "--annotate",
                  cwd=tmp_path)  # fmt: skip
    assert done.returncode == 0, done.stderr
    summary = json.loads(done.stdout)
    assert summary["format"] == "carom-analyze/1"
    assert summary["frames"] == 240
    assert summary["files"]["shots"] == str(tmp_path / "out" / "shots.json")
    assert all(Path(f).is_absolute() and Path(f).is_file() for f in summary["files"].values())
    tmp_path = tmp_path / "out"
    # The clip stops mid-shot: that shot is kept, with a doubt that makes it a review.
    shots = json.loads((tmp_path / "shots.json").read_text())["shots"]
    assert len(shots) == 1 and "video ended" in shots[0]["doubt"]
    assert shots[0]["verdict"]["review"]
    with av.open(str(tmp_path / "annotated.mp4")) as video:
        frames = sum(1 for _ in video.decode(video=0))
    assert frames == 240


def test_three_players_are_named_in_order_in_every_file(short_clip: Path, tmp_path: Path) -> None:
    done = _carom("analyze", str(short_clip), "--out", str(tmp_path), "--players", "Ana,Ben,Cleo",
                  "--first", "Cleo")  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert "three-cushion: Ana vs Ben vs Cleo" in done.stdout
    log = json.loads((tmp_path / "shots.json").read_text())
    assert log["match"]["players"] == ["Ana", "Ben", "Cleo"] and "cue_balls" not in log["match"]
    verdict = log["shots"][0]["verdict"]
    assert verdict["player"] == "Cleo" and set(verdict["score_after"]) == {"Ana", "Ben", "Cleo"}
    report = (tmp_path / "report.html").read_text()
    assert "Ana vs Ben vs Cleo" in report and "Shot 0 — Cleo" in report
    again = _carom("score", str(tmp_path / "shots.json"))
    assert again.returncode == 0, again.stderr
    first = next(line for line in again.stdout.splitlines() if line.startswith("   0  "))
    assert "Cleo" in first


def test_calibration_from_carom_calibrate_is_accepted(short_clip: Path, tmp_path: Path) -> None:
    cal = tmp_path / "table.json"
    assert _carom("calibrate", str(short_clip), "--out", str(cal)).returncode == 0
    done = _carom(
        "analyze", str(short_clip), "--calibration", str(cal), "--out", str(tmp_path / "a")
    )
    assert done.returncode == 0, done.stderr
    assert not (tmp_path / "a" / "calibration.json").exists()  # used, not refitted


def test_truncated_video_keeps_the_complete_shots(tmp_path: Path) -> None:
    # A stream format (MPEG-TS) decodes up to the cut, as a recording that broke off does.
    whole = _copied(SAMPLE, tmp_path / "first20s.ts", 20.0)
    broken = tmp_path / "broken.ts"
    data = whole.read_bytes()
    broken.write_bytes(data[: int(len(data) * 0.8)])
    done = _carom("analyze", str(broken), "--out", str(tmp_path / "out"))
    assert "Traceback" not in done.stderr
    shots = json.loads((tmp_path / "out" / "shots.json").read_text())["shots"]
    assert len(shots) >= 1  # shot 0 (1.5-13.9 s) was complete before the cut
    assert shots[0]["verdict"]["points"] == 1
    assert done.returncode in (0, 2)


def test_a_cut_mp4_without_its_index_is_one_clear_line(tmp_path: Path) -> None:
    broken = tmp_path / "broken.mp4"
    data = SAMPLE.read_bytes()
    broken.write_bytes(data[: len(data) // 2])  # the index (moov) is at the end: lost
    out = _carom("analyze", str(broken), "--out", str(tmp_path / "out"))
    line = _one_line_error(out, status=5)  # unreadable media
    assert f"video {broken}: cut off before its end (the index of its frames, the MP4's " in line
    assert line.endswith("; record it again, or repair it with a tool such as untrunc")


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["missing.mp4"], "missing.mp4"),
        (
            ["NOTVIDEO", "--out", "o"],
            "not a readable video (Invalid data found when processing "
            "input); give a video file (MP4, MKV, AVI ...)",
        ),
        (
            [str(SAMPLES.parent / "examples" / "table.jpg"), "--out", "o"],
            "a still picture, not a video; give a video file",
        ),
        (
            [str(SAMPLES.parent / "examples")],  # a folder holding a video: carom batch's
            "a folder with 1 video file(s) (one_shot.mp4); carom analyze takes one video",
        ),
        (  # its videos a level down (a folder per table): it said "no image files found"
            ["SEASON"],
            "a folder with 2 video file(s) (t1/a.mp4, t2/b.mp4); carom analyze takes one "
            "video (or a folder of pictures, read as one); to referee every video in it: "
            "carom batch SEASON --out DIR",
        ),
        ([str(SAMPLE), "--table", "huge"], "--table"),
        ([str(SAMPLE), "--discipline", "snooker"], "--discipline"),
        ([str(SAMPLE), "--players", "A"], "--players"),
        ([str(SAMPLE), "--calibration", "WRONGSIZE"], "1280x720"),
        ([str(SAMPLE), "--out", "NOTVIDEO"], "is a file, not a folder"),
        # A folder no file can be made in (os.access says yes to root there): before any work.
        ([str(SAMPLE), "--out", "/proc"], "--out /proc: cannot write the results there ("),
    ],
)
def test_bad_input_is_one_clear_line(args: list[str], needle: str, tmp_path: Path) -> None:
    not_video = tmp_path / "notes.mp4"
    not_video.write_text("this is not a video\n")
    wrong = tmp_path / "wrong.json"
    cal = json.loads((SAMPLES / "three_cushion_match.json").read_text())
    _write_wrong_size_calibration(wrong, cal)
    for table in ("t1/a.mp4", "t2/b.mp4"):
        (tmp_path / "SEASON" / table).parent.mkdir(parents=True)
        (tmp_path / "SEASON" / table).write_bytes(b"")
    args = [
        str(not_video) if a == "NOTVIDEO" else str(wrong) if a == "WRONGSIZE" else a for a in args
    ]
    media = args[0] in ("missing.mp4", str(not_video)) or args[0].endswith(".jpg")  # exit 5
    done = carom_in_process("analyze", *args, cwd=tmp_path)
    line = _one_line_error(done, status=5 if media else 2)
    assert needle in line
    assert not (tmp_path / "o").exists() and not (tmp_path / "carom-analysis").exists()


def test_a_calibration_of_another_table_than_the_match_s_is_refused(tmp_path: Path) -> None:
    """Positions mapped onto the calibration's table, judged on the match's: refused."""
    from calibration import Calibration, Camera, TableGeometry, save_calibration
    from referee import Table

    truth = json.loads((SAMPLES / "three_cushion_match.json").read_text())
    cal = tmp_path / "match-table.json"
    camera = Camera.from_dict(truth["camera"])
    save_calibration(cal, Calibration(TableGeometry(Table()), camera, "2026-12-06"))
    done = carom_in_process("analyze", str(SAMPLE), "--calibration", str(cal), "--table",
                            "2100x1050", "--out", "o", cwd=tmp_path)  # fmt: skip
    line = _one_line_error(done, status=2)
    assert line.endswith(
        "made for a 2840x1420 mm table, but the match is set up for 2100x1050 (--table, the "
        "match file or the default); give --table 2840x1420 if that is the table, or calibrate "
        "again with its true size (carom calibrate --table LENGTHxWIDTH)"
    )
    assert not (tmp_path / "o").exists()


def _write_wrong_size_calibration(path: Path, truth: dict[str, object]) -> None:
    from calibration import Calibration, Camera, TableGeometry, save_calibration
    from referee import Table

    camera = dict(truth["camera"])  # type: ignore[call-overload]
    camera["image_size_px"] = [640, 360]  # a calibration made for a half-size video
    camera["intrinsics"] = {k: v / 2 for k, v in camera["intrinsics"].items()}
    cam = Camera.from_dict(camera)
    save_calibration(path, Calibration(TableGeometry(Table()), cam, "2026-11-29"))


@pytest.mark.parametrize(
    ("picture", "needle"),
    [(floor, "calibration failed: "), (half_table, "calibration failed")],
    ids=["floor", "half out of the picture"],
)
def test_a_video_without_a_whole_table_stops_with_the_way_out(
    tmp_path: Path, picture: Callable[[], np.ndarray], needle: str
) -> None:
    clip = write_clip(tmp_path / "clip.mp4", picture())
    out = tmp_path / "out"
    line = failed_line(_carom("analyze", str(clip), "--out", str(out)))
    assert needle in line
    assert (
        f"carom calibrate {clip} --frame 30 --corners 'u,v;u,v;u,v;u,v' --out calibration.json"
        in line
    )
    assert "--interactive" in line and "--calibration calibration.json" in line
    assert f"carom serve --camera {clip}, then http://127.0.0.1:8765/wizard" in line
    assert not out.exists()  # nothing was refereed: no empty shot log, no folder made for it


def test_a_failed_start_leaves_an_earlier_run_s_folder_as_it_was(tmp_path: Path) -> None:
    """The folder of an earlier run keeps its files; nothing is written beside them."""
    clip = write_clip(tmp_path / "clip.mp4", floor(), seconds=1.0)
    out = tmp_path / "out"
    out.mkdir()
    earlier = {"shots.json": b'{"earlier": 1}', "trajectories.json": b"{}", "report.html": b"x"}
    for name, data in earlier.items():
        (out / name).write_bytes(data)
    assert "calibration failed" in failed_line(_carom("analyze", str(clip), "--out", str(out)))
    assert {p.name: p.read_bytes() for p in out.iterdir()} == earlier


def test_ctrl_c_leaves_this_run_s_shots_and_no_earlier_run_s_report(
    analysed: tuple[subprocess.CompletedProcess[str], Path], tmp_path: Path
) -> None:
    """An earlier complete run's folder, analysed again and interrupted mid-way.

    The earlier report and shot CSV (4 shots) stayed beside an emptied shot log: the
    folder now says one thing, this run's shots so far.
    """
    out = tmp_path / "run"
    shutil.copytree(analysed[1], out)
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "carom"]
    proc = subprocess.Popen([*cmd, "analyze", str(SAMPLE), "--out", str(out)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)  # fmt: skip
    deadline = time.monotonic() + 120.0
    while (out / "trajectories.json").exists() and time.monotonic() < deadline:
        time.sleep(0.005)  # removed once the calibration is settled
    proc.send_signal(signal.SIGINT)
    _, err = proc.communicate(timeout=120)
    assert proc.returncode == 130, err
    assert not any((out / n).exists() for n in ("report.html", "shots.csv", "annotated.mp4"))
    doc = json.loads((out / "shots.json").read_text())
    assert len(doc["shots"]) < 4  # this run's, complete so far; the earlier run had 4
    shots = (
        "1 complete shot is"
        if len(doc["shots"]) == 1
        else f"{len(doc['shots'])} complete shots are"
    )
    assert err.strip().splitlines()[-1] == (
        f"carom analyze: interrupted; the {shots} in {out / 'shots.json'} "
        "(the same command analyses the video again from the start)"
    ), err
    assert "Traceback" not in err


def test_the_interrupted_line_says_whether_this_run_wrote_a_shot_log(tmp_path: Path) -> None:
    """An earlier run's log (older than the start) is not this run's; a fresh one's shots
    are counted."""
    log = tmp_path / "shots.json"
    log.write_text(json.dumps({"shots": [{}, {}, {}]}))
    os.utime(log, ns=(1_000_000_000, 1_000_000_000))
    started_ns = time.time_ns()
    assert interrupted_line(log, started_ns) == (
        f"carom analyze: interrupted before the first shot log was written; nothing in "
        f"{tmp_path} is from this run"
    )
    assert interrupted_line(tmp_path / "none.json", started_ns).startswith(
        "carom analyze: interrupted before the first shot log"
    )
    log.write_text(json.dumps({"shots": [{}]}))
    assert "the 1 complete shot is in" in interrupted_line(log, started_ns)
    log.write_text(json.dumps({"shots": [{}, {}]}))
    assert "the 2 complete shots are in" in interrupted_line(log, started_ns)

"""``carom batch`` as a club runs it: rendered clips (a duplicate and a truncated one
among them) through the local pool and a local Ray, killed and resumed, compared with
single ``carom analyze`` runs and with each match's own figures.

The batches stopped mid-way (Ctrl-C, ``kill -9``) are stopped while a video is surely
under way: a URL the test's server holds back, not a race against the clock.
"""

from __future__ import annotations

import csv
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import av
import pytest

from carom.files import work_prefix
from carom.match import run_json, score_file
from tests.carom.batch.video_server import VideoServer, serve_videos
from tests.readme_run import ctrl_c_default

CLIPS = ("3c-point", "3c-kiss", "3c-miss-two-cushions")
#: Each clip's players (a manifest row each): three players over three matches.
PLAYERS = {"3c-point": "Ana,Ben", "3c-kiss": "Ana,Cem", "3c-miss-two-cushions": "Ben,Cem",
           "point-copy": "Ana,Ben", "cut": "Ben,Cem"}  # fmt: skip
COMPARED = ("shots.json", "shots.csv", "trajectories.json", "trajectories.csv")


def _exe() -> list[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    return [exe] if exe else [sys.executable, "-m", "carom"]


def _carom(
    *args: str, cwd: Path | None = None, env: dict[str, str] | None = None
) -> subprocess.CompletedProcess[str]:
    return subprocess.run([*_exe(), *args], capture_output=True, text=True, timeout=600,
                          cwd=cwd, env=env)  # fmt: skip


def _truncated_mkv(src: Path, dst: Path) -> None:
    """``src``'s packets in a Matroska file cut at three quarters of its bytes."""
    whole = dst.with_suffix(".whole.mkv")
    with av.open(str(src)) as inp, av.open(str(whole), "w") as out:
        video = inp.streams.video[0]
        s_out = out.add_stream_from_template(video)
        for packet in inp.demux(video):
            if packet.dts is not None:
                packet.stream = s_out
                out.mux(packet)
    data = whole.read_bytes()
    dst.write_bytes(data[: len(data) * 3 // 4])
    whole.unlink()


@pytest.fixture(scope="module")
def clips(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Three rendered clips, a copy of one in a subfolder, a truncated MKV, a manifest."""
    folder, render = tmp_path_factory.mktemp("clips"), tmp_path_factory.mktemp("render")
    for name in CLIPS:
        done = _carom("synth", name, "--width", "640", "--height", "360", "--out", str(render))
        assert done.returncode == 0, done.stderr
        shutil.copy(render / f"{name}.mp4", folder / f"{name}.mp4")
    (folder / "again").mkdir()
    shutil.copy(folder / "3c-point.mp4", folder / "again" / "point-copy.mp4")
    _truncated_mkv(folder / "3c-miss-two-cushions.mp4", folder / "cut.mkv")
    rows = [(f"{n}.mp4", PLAYERS[n]) for n in CLIPS]
    rows += [("again/point-copy.mp4", PLAYERS["point-copy"]), ("cut.mkv", PLAYERS["cut"])]
    with (folder / "season.csv").open("w", newline="") as f:
        csv.writer(f).writerows([("path", "players"), *rows])
    return folder


def _video(clips: Path, name: str) -> Path:
    return clips / ("cut.mkv" if name == "cut" else f"{name}.mp4")


@pytest.fixture(scope="module")
def singles(clips: Path, tmp_path_factory: pytest.TempPathFactory) -> Path:
    """``carom analyze`` of each video, one at a time (the reference)."""
    out = tmp_path_factory.mktemp("single")
    for name in (*CLIPS, "cut"):
        done = _carom("analyze", str(_video(clips, name)), "--players", PLAYERS[name],
                      "--out", str(out / name))  # fmt: skip
        assert done.returncode == (5 if name == "cut" else 0), done.stderr
    return out


def _batch(clips: Path, out: Path, *more: str) -> subprocess.CompletedProcess[str]:
    return _carom("batch", str(clips / "season.csv"), "--out", str(out), *more)


@pytest.fixture(scope="module")
def local(clips: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    out = tmp_path_factory.mktemp("batch") / "season"
    done = _batch(clips, out, "--workers", "2", "--json")
    return done, out


def _index(out: Path) -> dict[str, Any]:
    doc: dict[str, Any] = json.loads((out / "batch.json").read_text())
    return doc


def _statuses(out: Path) -> dict[str, tuple[str | None, str]]:
    return {Path(v["source"]).name: (v["status"], v["name"]) for v in _index(out)["videos"]}


def _normal(path: Path, gpu: bool = False) -> bytes:
    """A file with what differs from run to run (times, the folder shown) taken out; with
    ``gpu``, also the notes of a task given a GPU (the CUDA asked for and not offered)."""
    data = path.read_bytes()
    if path.name == "report.html":
        data = re.sub(rb"<dt>(video|calibration|written)</dt><dd>[^<]*</dd>", b"", data)
        if gpu:
            data = re.sub(rb"<dd>warning: CAROM_ONNX_DEVICE=cuda[^<]*</dd>", b"", data)
            data = re.sub(rb"<dt>note \d+</dt>", b"", data)
            data = re.sub(rb"CAROM_ONNX_DEVICE=\w+", b"", data)
    if path.name == "calibration.json":
        data = re.sub(rb'"created": "[^"]*"', b"", data)
    return data


def _same_as_single(folder: Path, single: Path, gpu: bool = False) -> None:
    for name in (*COMPARED, "calibration.json", "report.html"):
        assert _normal(folder / name, gpu) == _normal(single / name, gpu), (
            f"{folder.name}/{name} differs"
        )


def test_each_video_is_done_failed_or_a_duplicate_and_the_status_says_a_video_failed(
    local: tuple[Any, Path],
) -> None:
    done, out = local
    assert done.returncode == 5, done.stderr  # one video failed (truncated)
    assert done.stderr == ""
    assert _statuses(out) == {
        "3c-point.mp4": ("done", "3c-point"),
        "3c-kiss.mp4": ("done", "3c-kiss"),
        "3c-miss-two-cushions.mp4": ("done", "3c-miss-two-cushions"),
        "point-copy.mp4": ("duplicate", "3c-point"),
        "cut.mkv": ("failed", "cut"),
    }
    cut = next(v for v in _index(out)["videos"] if v["name"] == "cut")
    assert "truncated" in cut["error"]
    assert not (out / "point-copy").exists()  # a duplicate has no folder of its own
    assert not (out / ".partial").exists()
    assert json.loads(done.stdout)["run"]["failed"] == 1


def test_each_folder_holds_what_carom_analyze_writes_for_that_video(
    local: tuple[Any, Path], singles: Path
) -> None:
    _, out = local
    for name in (*CLIPS, "cut"):
        _same_as_single(out / name, singles / name)


def test_the_season_figures_are_the_sums_of_each_match_s_own(local: tuple[Any, Path]) -> None:
    done, out = local
    season = json.loads(done.stdout)["statistics"]
    totals: dict[str, dict[str, int]] = {}
    for name in (*CLIPS, "cut"):  # the duplicate is counted once
        stats = run_json(score_file(out / name / "shots.json"), with_shots=False)["statistics"]
        for player, s in stats.items():
            t = totals.setdefault(player, {"points": 0, "innings": 0, "high_run": 0})
            t["points"] += s["points"]
            t["innings"] += s["innings"]
            t["high_run"] = max(t["high_run"], s["high_run"])
    got = {p["player"]: p for p in season["players"]}
    assert set(got) == {"Ana", "Ben", "Cem"} == set(totals)
    for player, t in totals.items():
        assert {k: got[player][k] for k in t} == t, player
        assert got[player]["matches"] == sum(player in PLAYERS[n] for n in (*CLIPS, "cut"))
    with (out / "stats-players.csv").open(newline="") as f:
        rows = {r["player"]: r for r in csv.DictReader(f)}
    assert {p: int(rows[p]["points"]) for p in rows} == {p: t["points"] for p, t in totals.items()}


def test_a_rerun_skips_the_finished_videos_and_tries_the_failed_one_again(
    local: tuple[Any, Path], tmp_path: Path, clips: Path
) -> None:
    out = tmp_path / "season"
    shutil.copytree(local[1], out)
    before = {n: (out / n / "shots.json").stat().st_mtime_ns for n in CLIPS}
    done = _batch(clips, out)
    assert done.returncode == 5, done.stderr
    assert {k: s for k, (s, _) in _statuses(out).items()} == {
        "3c-point.mp4": "skipped", "3c-kiss.mp4": "skipped",
        "3c-miss-two-cushions.mp4": "skipped", "point-copy.mp4": "duplicate",
        "cut.mkv": "failed",
    }  # fmt: skip
    assert {n: (out / n / "shots.json").stat().st_mtime_ns for n in CLIPS} == before
    assert "3 skipped (finished before), 1 duplicate;" in done.stdout


def test_other_options_are_another_key_and_the_videos_are_analysed_again(
    local: tuple[Any, Path], tmp_path: Path, clips: Path
) -> None:
    out = tmp_path / "season"
    shutil.copytree(local[1], out)
    done = _batch(clips, out, "--detector", "color", "--no-trajectories", "--no-stats")
    assert done.returncode == 5, done.stderr
    statuses = {k: s for k, (s, _) in _statuses(out).items()}
    assert [statuses[f"{n}.mp4"] for n in CLIPS] == ["done"] * 3
    assert not (out / "3c-kiss" / "trajectories.json").exists()  # the folder was replaced whole


@pytest.fixture(scope="module")
def on_ray(clips: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Any, Path]:
    """The season on a local Ray told it has a GPU (there is none here): one Ray start
    (10 s of CPU) serves both the comparison with the pool and the GPU's notes."""
    out = tmp_path_factory.mktemp("ray") / "season"
    return _batch(clips, out, "--ray", "--workers", "2", "--ray-gpus", "1"), out


def test_a_local_ray_gives_the_same_results_as_the_process_pool(
    local: tuple[Any, Path], on_ray: tuple[Any, Path]
) -> None:
    done, out = on_ray
    assert done.returncode == 5, done.stderr
    assert "on a local Ray: 1 node(s), 2 CPUs, 1 GPUs (0.25 a video)" in done.stdout
    assert done.stderr == ""  # Ray's own log lines stay out of the user's terminal
    assert _statuses(out) == _statuses(local[1])
    for name in (*CLIPS, "cut"):
        _same_as_single(out / name, local[1] / name, gpu=True)
    assert (out / "stats-players.csv").read_bytes() == (local[1] / "stats-players.csv").read_bytes()


def test_a_task_given_a_gpu_runs_the_network_on_cuda_and_says_where_it_ran(
    local: tuple[Any, Path], on_ray: tuple[Any, Path]
) -> None:
    """Each task on the Ray told it has a GPU asks for a share of it, is given it and
    asks onnxruntime for CUDA, which this CPU build does not offer: the note says so and
    the network runs on the CPU (nothing breaks for want of a GPU; the results are the
    pool's, above). The pool's workers, given no GPU, leave the choice to onnxruntime."""
    for name in CLIPS:
        on_gpu = " ".join(_notes(on_ray[1], f"{name}.mp4"))
        assert "CAROM_ONNX_DEVICE=cuda" in on_gpu and "offers no CUDA" in on_gpu, name
        pool = " ".join(_notes(local[1], f"{name}.mp4"))
        assert "CAROM_ONNX_DEVICE=auto" in pool and "offers no CUDA" not in pool, name


def _notes(out: Path, source: str) -> list[str]:
    """The notes ``batch.json`` keeps for the video ``source`` (its file name)."""
    videos = [v for v in _index(out)["videos"] if Path(v["source"]).name == source]
    assert len(videos) == 1, videos
    notes: list[str] = videos[0]["notes"]
    return notes


def _children(pid: int) -> set[int]:
    """The processes whose parent is ``pid`` (from /proc)."""
    kids = set()
    for stat in Path("/proc").glob("[0-9]*/stat"):
        try:
            fields = stat.read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        if int(fields[1]) == pid:
            kids.add(int(stat.parent.name))
    return kids


def _descendants(pid: int) -> set[int]:
    """Every process below ``pid`` (children, their children ...)."""
    found: set[int] = set()
    todo = [pid]
    while todo:
        kids = _children(todo.pop()) - found
        found |= kids
        todo.extend(kids)
    return found


def _held_manifest(clips: Path, videos: VideoServer, folder: Path) -> Path:
    """A manifest of two videos: a clip's file, then a clip's URL the server holds back."""
    manifest = folder / "held.csv"
    rows = [(str(clips / "3c-point.mp4"), PLAYERS["3c-point"]),
            (videos.url("3c-kiss.mp4", held=True), PLAYERS["3c-kiss"])]  # fmt: skip
    with manifest.open("w", newline="") as f:
        csv.writer(f).writerows([("path", "players"), *rows])
    return manifest


def _start_and_wait_for_one_done(
    manifest: Path, out: Path, *more: str, env: dict[str, str] | None = None
) -> subprocess.Popen[str]:
    """``carom batch`` of ``manifest`` on two workers, once its first video is done.

    The second video is held back by the server: it is surely under way then, and stays
    so until the test releases it, however busy the machine.
    """
    proc = subprocess.Popen([*_exe(), "batch", str(manifest), "--out", str(out),
                             "--workers", "2", *more], text=True, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, preexec_fn=ctrl_c_default,
                            env=env)  # fmt: skip
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and proc.poll() is None:
        if (out / "batch.json").exists() and "done" in [s for s, _ in _statuses(out).values()]:
            return proc
        time.sleep(0.05)
    proc.kill()
    pytest.fail(f"no video was done in 120 s: {proc.communicate()[1]}")


def _ended_pid() -> int:
    """The process id of a process that ran and has ended (and was reaped)."""
    proc = subprocess.Popen(["true"])
    proc.wait()
    return proc.pid


def _running(pid: int) -> bool:
    """``pid`` is a process that has not ended (a zombie has)."""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except (OSError, IndexError):
        return False
    return state != "Z"


def _alive(pids: set[int], within_s: float) -> set[int]:
    deadline = time.monotonic() + within_s
    while time.monotonic() < deadline:
        left = {p for p in pids if _running(p)}
        if not left:
            return set()
        time.sleep(0.1)
    return left


def _complete_or_absent(out: Path) -> None:
    """Every video folder has its marker (else it is not there); nothing half-written."""
    assert not any((out / ".partial").glob("*"))
    for folder in (p for p in out.iterdir() if p.is_dir() and not p.name.startswith(".")):
        assert (folder / "batch-video.json").exists(), folder


@pytest.fixture(scope="module")
def videos(clips: Path) -> Iterator[VideoServer]:
    """The clips over HTTP (the URL sources), some held back on demand."""
    with serve_videos(clips) as server:
        yield server


@pytest.fixture
def held(videos: VideoServer) -> Iterator[VideoServer]:
    """The server holding back its ``/held/`` videos until the test releases them."""
    videos.hold()
    try:
        yield videos
    finally:
        videos.release()


def _own_tmp(tmp_path: Path) -> tuple[Path, dict[str, str]]:
    """A temporary folder of the test's own and the environment that gives it to carom."""
    tmp = tmp_path / "tmp"
    tmp.mkdir()
    return tmp, {**os.environ, "TMPDIR": str(tmp)}


def _private_folders(tmp: Path) -> list[str]:
    """The workers' private folders in ``tmp`` (``carom-batch-HOST-PID-RANDOM``)."""
    return sorted(p.name for p in tmp.glob("carom-batch-*"))


def test_killed_mid_batch_a_rerun_goes_on_and_ends_as_an_uninterrupted_one(
    local: tuple[Any, Path], tmp_path: Path, clips: Path, held: VideoServer
) -> None:
    out, manifest = tmp_path / "killed", _held_manifest(clips, held, tmp_path)
    tmp, env = _own_tmp(tmp_path)
    proc = _start_and_wait_for_one_done(manifest, out, env=env)
    workers = _children(proc.pid)
    assert len(_private_folders(tmp)) == 1  # the held video's, under way
    proc.send_signal(signal.SIGKILL)
    proc.communicate(timeout=30)
    assert _alive(workers, 30) == set()  # the workers do not outlive their driver
    assert _private_folders(tmp) == []  # nor their folders (a URL half read ...)
    _complete_or_absent(out)
    assert {n: s for n, (s, _) in _statuses(out).items()} == {
        "3c-point.mp4": "done", "3c-kiss.mp4": None}  # fmt: skip
    held.release()
    # What a worker killed outright (a Ray node's, the OOM killer's) leaves, and another
    # machine's on a shared drive: the rerun's workers remove the first only.
    ended = _ended_pid()
    left = tmp / f"{work_prefix('carom-batch', ended)}x1"
    other = tmp / f"carom-batch-zzzzzz-{ended}-x2"
    for folder in (left, other):
        (folder / "video").mkdir(parents=True)
    done = _carom("batch", str(manifest), "--out", str(out), env=env)
    assert done.returncode == 0, done.stderr
    assert _private_folders(tmp) == [other.name]
    assert {n: s for n, (s, _) in _statuses(out).items()} == {
        "3c-point.mp4": "skipped", "3c-kiss.mp4": "done"}  # fmt: skip
    for name in ("3c-point", "3c-kiss"):
        _same_as_single(out / name, local[1] / name)


@pytest.mark.parametrize(
    ("engine", "sig"),
    [((), signal.SIGINT), ((), signal.SIGTERM), (("--ray",), signal.SIGINT)],
    ids=["pool", "pool-sigterm", "ray"],
)
def test_ctrl_c_stops_at_once_and_leaves_only_complete_folders(
    tmp_path: Path, clips: Path, held: VideoServer, engine: tuple[str, ...], sig: signal.Signals
) -> None:
    """Ctrl-C, and SIGTERM (a service manager's stop; before, Python's warning of leaked
    semaphores, status 143 and an index that did not say it was interrupted)."""
    out = tmp_path / "stopped"
    # The pool's workers get a temporary folder of the test's own to look in; Ray's keep
    # /tmp (its sockets' paths must be short), shared with other tests: not looked in.
    tmp, env = _own_tmp(tmp_path) if not engine else (None, None)
    manifest = _held_manifest(clips, held, tmp_path)
    proc = _start_and_wait_for_one_done(manifest, out, *engine, env=env)
    workers = _descendants(proc.pid)
    proc.send_signal(sig)
    _, err = proc.communicate(timeout=30)
    assert proc.returncode == 130, err
    assert "Warning" not in err
    assert "interrupted with" in err and "rerun the same command to go on" in err
    assert "Traceback" not in err
    assert _alive(workers, 30) == set()
    if tmp is not None:
        assert _private_folders(tmp) == []  # the killed workers' folders went with them
    _complete_or_absent(out)
    assert {n: s for n, (s, _) in _statuses(out).items()} == {
        "3c-point.mp4": "done", "3c-kiss.mp4": None}  # fmt: skip
    assert _index(out)["run"]["interrupted"] is True


def test_videos_given_as_urls_are_read_by_the_workers_and_skipped_when_unchanged(
    clips: Path, tmp_path: Path, local: tuple[Any, Path], videos: VideoServer
) -> None:
    url, out = videos.url("3c-kiss.mp4"), tmp_path / "urls"
    first = _carom("batch", url, "--players", PLAYERS["3c-kiss"], "--out", str(out))
    again = _carom("batch", url, "--players", PLAYERS["3c-kiss"], "--out", str(out))
    missing = _carom("batch", url + ".gone", "--out", str(tmp_path / "gone"))
    assert first.returncode == 0, first.stderr
    _same_as_single(out / "3c-kiss", local[1] / "3c-kiss")
    assert again.returncode == 0 and "skipped" in again.stdout
    assert missing.returncode == 5
    assert "cannot read the video (HTTP 404 File not found)" in missing.stdout
    assert [(v["status"], v["name"]) for v in _index(tmp_path / "gone")["videos"]] == [
        ("failed", "3c-kiss.mp4")
    ]

"""``carom synth``'s files: whole or not at all, an output checked first, options that clash.

A render writes its video, truth and shot log to temporary names and moves them into
place when it completed: Ctrl-C or SIGTERM half way leaves an earlier render's files as
they were (docs/synthetic.md, "Running it").
"""

from __future__ import annotations

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

import pytest

from carom.files import cannot_write_in
from tests.carom.cli._in_process import carom_in_process
from tests.carom.cli.test_score import _carom, _one_line_error
from tests.readme_run import ctrl_c_default

SMALL = ("--width", "320", "--height", "240")


def _snapshot(folder: Path) -> dict[str, bytes]:
    """Every file of ``folder`` (hidden ones too) by name, with its bytes."""
    return {p.name: p.read_bytes() for p in sorted(folder.iterdir())}


def _wait_for_part(folder: Path, proc: subprocess.Popen[str], timeout_s: float) -> None:
    """Until a render's temporary video is in ``folder``: the rendering has begun."""
    deadline = time.monotonic() + timeout_s
    while not any(folder.glob(".*.part-*.mp4")):
        assert proc.poll() is None, proc.communicate()
        assert time.monotonic() < deadline, "the render never began"
        time.sleep(0.01)
    time.sleep(0.3)  # some frames into the video


@pytest.fixture
def started() -> Iterator[list[subprocess.Popen[str]]]:
    """The processes a test starts; one still running at its end is killed."""
    procs: list[subprocess.Popen[str]] = []
    yield procs
    for proc in procs:
        if proc.poll() is None:
            proc.kill()
            proc.communicate()


def _start(procs: list[subprocess.Popen[str]], *args: str) -> subprocess.Popen[str]:
    """``carom ARGS`` as a terminal's foreground job (Ctrl-C not ignored)."""
    proc = subprocess.Popen([sys.executable, "-m", "carom", *args], text=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            preexec_fn=ctrl_c_default)  # fmt: skip
    procs.append(proc)
    return proc


@pytest.fixture(scope="module")
def earlier(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """A folder holding one complete render (each test works on a copy)."""
    out = tmp_path_factory.mktemp("earlier")
    done = _carom("synth", "3c-point", "--out", str(out), *SMALL)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.iterdir()) == [
        "3c-point.json", "3c-point.mp4", "3c-point.shots.json"]  # fmt: skip
    return out


@pytest.mark.parametrize("sig", [signal.SIGINT, signal.SIGTERM], ids=["ctrl-c", "sigterm"])
def test_an_interrupted_render_leaves_the_earlier_render_as_it_was(
    earlier: Path, tmp_path: Path, started: list[subprocess.Popen[str]], sig: signal.Signals
) -> None:
    """Ctrl-C, or a service manager's SIGTERM (a --samples run stops so too)."""
    out = tmp_path / "out"
    shutil.copytree(earlier, out)
    before = _snapshot(out)
    proc = _start(started, "synth", "3c-point", "--out", str(out), *SMALL,
                  "--fps", "60", "--seed", "7")  # fmt: skip
    _wait_for_part(out, proc, timeout_s=60)
    proc.send_signal(sig)
    _out, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip() == "carom: interrupted"
    assert _snapshot(out) == before  # no fragment, no temporary, the truth agrees


def test_a_render_killed_outright_leaves_files_the_next_render_removes(
    earlier: Path, tmp_path: Path, started: list[subprocess.Popen[str]]
) -> None:
    """SIGKILL (or a power cut) cannot be caught: the next render of the clip cleans up.

    Only its own machine's files of a process now gone: a render still running keeps
    its files, and so does one written on another machine (a shared drive).
    """
    out = tmp_path / "out"
    shutil.copytree(earlier, out)
    proc = _start(started, "synth", "3c-point", "--out", str(out), *SMALL, "--fps", "60")
    _wait_for_part(out, proc, timeout_s=60)
    proc.kill()
    proc.communicate(timeout=60)
    stale = sorted(p.name for p in out.glob(".3c-point.part-*"))
    assert stale, "the killed render left no temporary file"
    named = re.fullmatch(r"\.3c-point\.part-(\w+)-(\d+)-\w+\.mp4", stale[0])
    assert named, f"{stale[0]}: no machine and process in the name"
    host, pid = named.groups()
    assert int(pid) == proc.pid
    other = ("1" if host[0] == "0" else "0") + host[1:]  # another machine's name
    kept = [f".3c-point.part-{host}-{os.getpid()}-0123abcd.mp4",  # a render still running
            f".3c-point.part-{other}-{pid}-0123abcd.mp4",  # another machine's
            ".3c-point.part-0123abcd.mp4"]  # an older name  # fmt: skip
    for name in kept:
        (out / name).write_text("x")
    done = _carom("synth", "3c-point", "--out", str(out), *SMALL)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in out.glob(".*")) == sorted(kept)
    assert sorted(p.name for p in out.iterdir() if not p.name.startswith(".")) == [
        "3c-point.json", "3c-point.mp4", "3c-point.shots.json"]  # fmt: skip


@pytest.fixture
def read_only(tmp_path: Path) -> Path:
    """A folder no file can be made in (for root, who may write anywhere: /sys)."""
    folder = tmp_path / "read-only"
    folder.mkdir()
    folder.chmod(0o555)
    if cannot_write_in(folder) is None:  # root: a mode does not stop it, sysfs does
        folder = Path("/sys")
    assert cannot_write_in(folder) is not None, folder
    return folder


@pytest.mark.parametrize("option", ["--out", "--samples"])
@pytest.mark.parametrize("kind", ["missing parent", "a file", "read-only"])
def test_an_output_that_cannot_be_written_is_refused_before_rendering(
    tmp_path: Path, read_only: Path, option: str, kind: str
) -> None:
    (tmp_path / "a-file").write_text("kept\n")
    folder = {"missing parent": "/proc/x", "a file": str(tmp_path / "a-file"),
              "read-only": str(read_only)}[kind]  # fmt: skip
    clip = ["3c-point", *SMALL] if option == "--out" else []  # the samples have their own size
    line = _one_line_error(carom_in_process("synth", *clip, option, folder))
    why = {"missing parent": "cannot make the folder (No such file or directory)",
           "a file": "is a file, not a folder",
           "read-only": "cannot write there ("}[kind]  # fmt: skip
    assert line.startswith(f"carom: {option} {folder}: {why}"), line
    assert "give a folder" in line
    assert (tmp_path / "a-file").read_text() == "kept\n"


def test_the_process_refuses_an_unwritable_out_with_status_2() -> None:
    line = _one_line_error(_carom("synth", "3c-point", "--out", "/proc/x", *SMALL))
    assert line.startswith("carom: --out /proc/x: cannot make the folder")


@pytest.mark.parametrize(("option", "value"), [("--seed", "-1"), ("--seed", "x"),
                                               ("--shot", "-2")])  # fmt: skip
def test_a_seed_or_shot_below_zero_is_refused_by_the_parser(option: str, value: str) -> None:
    done = carom_in_process("synth", "3c-point", option, value, *SMALL)
    assert done.returncode == 2
    assert f"argument {option}: a whole number 0 or more, got {value!r}" in done.stderr
    assert "Traceback" not in done.stderr and "internal error" not in done.stderr


_SHOT = {"shot_id": 1, "ball_order_in_source": ["white", "red", "yellow"],
         "balls": {"white": {"t_s": [0.0, 1.0], "x_mm": [500, 900],
                             "y_mm": [400, 400]}}}  # fmt: skip


@pytest.mark.parametrize(
    ("doc", "extra", "says"),
    [
        ({"shots": [{}]}, [], "shot 0 has no 'balls'; a recording holds 'shots', each with"),
        ({"shots": []}, [], "the file holds no shots; a recording holds"),
        ([1, 2], [], "no 'shots' list; a recording holds"),
        ({"shots": [_SHOT, {**_SHOT, "ball_order_in_source": []}]}, [],
         "shot 1 has no cue ball first in 'ball_order_in_source'"),
        ({"shots": [{**_SHOT, "balls": {"blue": {}}}]}, [], "shot 0 has an unknown ball 'blue'"),
        ({"shots": [{**_SHOT, "balls": {"red": {"t_s": [0]}}}]}, [],
         "shot 0 has no 't_s', 'x_mm' and 'y_mm' for the red ball"),
        ({"shots": [_SHOT]}, ["--shot", "3"], "--shot 3: the file holds 1 shot; give --shot 0..0"),
    ],
)  # fmt: skip
def test_a_recording_that_cannot_be_replayed_says_what_is_wrong(
    tmp_path: Path, doc: object, extra: list[str], says: str
) -> None:
    path = tmp_path / "rec.json"
    path.write_text(json.dumps(doc))
    out = tmp_path / "out"
    line = _one_line_error(carom_in_process("synth", "--recorded", str(path), *extra,
                                            "--out", str(out), *SMALL))  # fmt: skip
    assert line.startswith(f"carom: {path}: {says}") or line == f"carom: {says}", line
    assert not out.exists()  # refused before the folder is made


def test_a_good_recording_is_rendered(tmp_path: Path) -> None:
    path = tmp_path / "rec.json"
    path.write_text(json.dumps({"shots": [_SHOT]}))
    done = carom_in_process("synth", "--recorded", str(path), "--out", str(tmp_path), *SMALL)
    assert done.returncode == 0, done.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == [
        "rec.json",
        "recorded_0.json",
        "recorded_0.mp4",
    ]


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (["3c-point", "--samples", "S", "--out", "O"], "NAME and --samples: give one of them"),
        (["3c-point", "--samples", "S"], "NAME and --samples: give one of them"),
        (["--samples", "S", "--out", "O"], "--out: not with --samples DIR"),
        (["3c-point", "--recorded", "R.json"], "NAME and --recorded: give one of them"),
        (["--recorded", "R.json", "--table-scene", "match"], "--recorded and --table-scene"),
        ([], "give a NAME (see --list), --recorded JSON, --samples DIR or --table-scene KIND"),
        (["3c-point", "--shot", "0"], "--shot: only with --recorded JSON"),  # was ignored
        # options the source would ignore (they were dropped silently)
        (["--samples", "S", "--fps", "60", "--cloth", "green"],
         "--fps, --cloth: not with --samples (each sample has its own camera, look and "
         "seed, as its manifest says); leave them out"),
        (["--samples", "S", "--no-player"], "--no-player: not with --samples"),
        (["--samples", "S", "--seed", "3"], "--seed: not with --samples"),
        (["--table-scene", "match", "--tilt", "20"],
         "--tilt: not with --table-scene (a table scene's camera and look come from its "
         "KIND and --seed; only --width and --height are taken); leave it out"),
        (["--table-scene", "match", "--max-mb", "5"], "--max-mb: not with --table-scene"),
    ],
)  # fmt: skip
def test_sources_that_clash_are_refused(tmp_path: Path, args: list[str], says: str) -> None:
    line = _one_line_error(carom_in_process("synth", *args, cwd=tmp_path))
    assert line.startswith(f"carom: {says}"), line
    assert list(tmp_path.iterdir()) == []  # nothing rendered, no folder made

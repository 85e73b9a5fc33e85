"""The command line's conventions: version, exit status by kind, logging, broken pipes."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from carom.cli import _main
from carom.cli._main import (
    EXIT_BAD_INPUT,
    EXIT_DEVICE,
    EXIT_FAILED,
    EXIT_INTERNAL,
    EXIT_MEDIA,
    status_of,
    version,
)
from carom.console import is_quiet
from tests.carom.cli._in_process import carom_in_process

ROOT = Path(__file__).parents[3]
EXAMPLE = ROOT / "examples" / "three_cushion_match.json"
CAROM = [sys.executable, "-m", "carom"]


def test_version_is_the_installed_one() -> None:
    done = subprocess.run([*CAROM, "--version"], capture_output=True, text=True, check=False)
    assert done.returncode == 0 and done.stdout.strip() == f"carom {version()}"
    assert version()[0].isdigit()


def test_each_kind_of_failure_has_its_exit_status() -> None:
    import calibration
    import hardware
    import vision
    from referee import CaromError, ShotLogError

    assert status_of(ShotLogError("shots[3]: bad")) == EXIT_BAD_INPUT
    assert status_of(CaromError("bad flag")) == EXIT_BAD_INPUT
    assert status_of(calibration.CalibrationFailed("no table")) == EXIT_FAILED
    assert status_of(calibration.CalibrationError("bad file")) == EXIT_BAD_INPUT
    assert status_of(vision.VideoError("cannot decode")) == EXIT_MEDIA
    assert status_of(hardware.CameraError("cannot open")) == EXIT_MEDIA
    assert status_of(hardware.ScoreboardError("board never confirmed")) == EXIT_DEVICE
    assert status_of(hardware.ProtocolError("bad frame")) == EXIT_DEVICE


def test_an_internal_error_is_one_line_and_its_traceback_goes_to_the_log_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(args: object) -> int:
        raise ZeroDivisionError("division by zero")

    monkeypatch.setattr("carom.cli._score.run", boom)
    done = carom_in_process("score", str(EXAMPLE))
    assert done.returncode == EXIT_INTERNAL
    assert done.stderr == (
        "carom: internal error: ZeroDivisionError: division by zero; rerun with "
        "--log-file FILE to keep the traceback; please report it\n"
    )
    log = tmp_path / "carom.log"
    done = carom_in_process("--log-file", str(log), "score", str(EXAMPLE))
    assert done.returncode == EXIT_INTERNAL and "(the traceback is in the log file)" in done.stderr
    text = log.read_text(encoding="utf-8")
    assert "Traceback" in text and "in boom" in text and "ZeroDivisionError" in text


def test_the_log_file_keeps_what_was_run_and_an_unwritable_one_is_refused(tmp_path: Path) -> None:
    log = tmp_path / "carom.log"
    done = carom_in_process("--log-file", str(log), "score", str(EXAMPLE))
    assert done.returncode == 0, done.stderr
    assert f"DEBUG carom: carom {version()}: --log-file {log} score {EXAMPLE}" in log.read_text()
    bad = tmp_path / "no" / "such" / "carom.log"
    done = carom_in_process("--log-file", str(bad), "score", str(EXAMPLE))
    assert done.returncode == EXIT_BAD_INPUT and done.stdout == ""
    assert done.stderr.startswith(f"carom: {bad}: cannot open the log file")


def test_the_log_file_keeps_what_analyze_said_and_its_scoresheet(tmp_path: Path) -> None:
    """What the user read (the remarks, the scoresheet, the footer) is in the log too."""
    log = tmp_path / "carom.log"
    clip = ROOT / "examples" / "one_shot.mp4"
    done = carom_in_process("--log-file", str(log), "analyze", str(clip), "--out", str(tmp_path))
    assert done.returncode == 0, done.stderr
    text = log.read_text()
    assert "INFO carom.analyze: ball detector: " in text
    assert "carom: ball detector: " in done.stderr
    for line in done.stdout.splitlines():  # the scoresheet, "analysed ...", "wrote ..."
        assert line in text, line
    assert "INFO carom.analyze: wrote " in text


def test_quiet_keeps_the_remarks_off_stderr_and_in_the_log(tmp_path: Path) -> None:
    """``-q``: stderr gets errors only; where the network runs is still in the log file."""
    log = tmp_path / "carom.log"
    clip = ROOT / "examples" / "one_shot.mp4"
    done = carom_in_process("-q", "--log-file", str(log), "analyze", str(clip), "--out",
                            str(tmp_path), "--json")  # fmt: skip
    assert done.returncode == 0 and done.stderr == ""
    assert "INFO carom.analyze: ball detector: " in log.read_text()
    assert not is_quiet()  # the command's setting ends with it


def test_quiet_and_verbose_cannot_be_given_together() -> None:
    done = carom_in_process("-q", "-v", "score", str(EXAMPLE))
    assert done.returncode == 2 and "not allowed with argument" in done.stderr


def test_a_reader_that_goes_away_ends_the_command_quietly() -> None:
    proc = subprocess.Popen([*CAROM, "score", str(EXAMPLE)], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE)  # fmt: skip
    assert proc.stdout is not None and proc.stderr is not None
    proc.stdout.close()  # `carom score ... | head -0`: nobody reads
    with proc.stderr:
        err = proc.stderr.read().decode()
    assert proc.wait(timeout=60) == 0 and err == ""


def test_the_exit_status_table_is_documented_where_the_help_points() -> None:
    doc = (ROOT / "docs" / "exit-status.md").read_text(encoding="utf-8")
    for name in ("EXIT_INTERNAL", "EXIT_BAD_INPUT", "EXIT_DOUBTFUL", "EXIT_FAILED",
                 "EXIT_MEDIA", "EXIT_DEVICE", "EXIT_INTERRUPTED"):  # fmt: skip
        assert f"| {getattr(_main, name)} |" in doc, name


@pytest.mark.parametrize("command", ["analyze", "live", "batch"])
def test_the_colour_detector_is_taken_in_either_spelling(command: str) -> None:
    """The help says "colour rules"; ``--detector colour`` is ``color``, a typo is refused."""
    parse = _main._parser().parse_args
    needed = {"analyze": ["x.mp4"], "live": ["--camera", "0"], "batch": ["x.mp4", "--out", "o"]}
    where = needed[command]
    for spelling in ("colour", "color"):
        assert parse([command, *where, "--detector", spelling]).detector == "color"
    with pytest.raises(SystemExit):
        parse([command, *where, "--detector", "colr"])


@pytest.mark.parametrize(
    "args",
    [
        ["calibrate", b"lat\xe9.jpg", "--out", "table.json"],  # OpenCV crashed (SIGSEGV)
        ["calibrate", "table.jpg", "--out", b"t\xe9.json"],
        ["analyze", b"v\xe9.mp4", "--out", "out"],  # an internal error after the analysis
    ],
    ids=["picture", "out", "video"],
)
def test_a_name_that_is_not_utf8_is_one_line_and_status_2(
    tmp_path: Path, args: list[str | bytes]
) -> None:
    picture = (ROOT / "examples" / "table.jpg").read_bytes()
    for name in ("lat\udce9.jpg", "table.jpg"):  # the file system's bytes lat\xe9.jpg
        (tmp_path / name).write_bytes(picture)
    (tmp_path / "v\udce9.mp4").write_bytes((ROOT / "examples" / "one_shot.mp4").read_bytes())
    argv = [a if isinstance(a, bytes) else a.encode() for a in args]
    done = subprocess.run([*(c.encode() for c in CAROM), *argv], cwd=tmp_path,
                          capture_output=True, check=False)  # fmt: skip
    err = done.stderr.decode("utf-8")
    bad = next(a for a in argv if not _utf8(a)).replace(b"\xe9", b"\\xe9").decode()
    assert done.returncode == EXIT_BAD_INPUT, err
    assert err == (
        f"carom: '{bad}' is not UTF-8 text (a name written in another encoding); "
        "rename the file or folder with UTF-8 letters, or give another name\n"
    )
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        ["lat\udce9.jpg", "table.jpg", "v\udce9.mp4"]
    )  # nothing written


def _utf8(arg: bytes) -> bool:
    try:
        arg.decode("utf-8")
    except UnicodeDecodeError:
        return False
    return True

"""``carom calibrate`` from many frames: a progress line on a terminal, not a line a second."""

from __future__ import annotations

import contextlib
import io
from pathlib import Path

from carom.cli import main
from carom.cli._calibrate import progress_say
from carom.progress import Progress

SAMPLE = Path(__file__).parents[3] / "sample_videos" / "three_cushion_match.mp4"


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.t = 0.0

    def __call__(self) -> float:
        return self.t


def _drawn(text: str) -> list[str]:
    return [p.replace("\x1b[K", "") for p in text.split("\r") if p.replace("\x1b[K", "")]


def test_the_wait_for_a_clear_view_is_one_redrawn_line_with_its_eta() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    say = progress_say(bar)
    for clear in range(5):  # what the camera fit says as the view stays clear
        clock.t += 1.0
        say(f"waiting for a clear view of the table: {clear} of 8 s")
    with contextlib.redirect_stderr(out):
        say("calibration doubtful: the cloth edge is faint (confidence 0.40); going on")
    assert "\n" not in out.getvalue().split("carom calibrate:")[0]  # no line per second
    drawn = _drawn(out.getvalue())
    assert drawn[0] == "waiting for a clear view of the table  0/8 s (0%)"
    assert drawn[-2] == "waiting for a clear view of the table  4/8 s (50%)  ETA 4 s"
    assert drawn[-1] == (
        "carom calibrate: calibration doubtful: the cloth edge is faint (confidence 0.40); "
        "going on\n"
    )


def test_off_a_terminal_the_wait_stays_plain_lines() -> None:
    pipe = io.StringIO()
    with contextlib.redirect_stderr(pipe):
        progress_say(Progress.for_terminal(stream=pipe))(
            "waiting for a clear view of the table: 3 of 8 s"
        )
    assert pipe.getvalue() == "carom calibrate: waiting for a clear view of the table: 3 of 8 s\n"


def test_a_video_fit_names_its_stage_and_wipes_it(tmp_path: Path) -> None:
    err, out = _Tty(), io.StringIO()
    argv = ["calibrate", str(SAMPLE), "--out", str(tmp_path / "cal.json")]
    with contextlib.redirect_stderr(err), contextlib.redirect_stdout(out):
        assert main(argv) == 0, err.getvalue()
    assert _drawn(err.getvalue())[0].startswith(f"calibrating from {SAMPLE} ...  ")
    assert err.getvalue().endswith("\r\x1b[K")  # wiped before the report
    assert "wrote" in out.getvalue()

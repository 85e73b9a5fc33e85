"""The progress line of long commands: stage, counts, rate, ETA, redraws, quiet."""

from __future__ import annotations

import io

from carom.progress import Progress, duration_text


class _Tty(io.StringIO):
    """A terminal that keeps what was written."""

    def isatty(self) -> bool:
        return True


class _Clock:
    def __init__(self) -> None:
        self.t = 100.0

    def __call__(self) -> float:
        return self.t


def _drawn(out: io.StringIO) -> list[str]:
    """The texts drawn, in order (each redraw starts with a carriage return)."""
    return [part.removesuffix("\x1b[K") for part in out.getvalue().split("\r") if part]


def test_line_names_the_stage_counts_rate_and_real_time() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    bar.stage("analysing", 600, fps=30.0)
    clock.t += 2.0
    bar.update(120)
    assert _drawn(out)[-1] == "analysing  120/600 frames (20%)  60 fps, 2.0x real time"


def test_no_eta_in_the_first_seconds_then_from_the_rate() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    bar.stage("analysing", 1000, fps=25.0)
    clock.t += 1.0
    bar.update(100)
    assert "ETA" not in _drawn(out)[-1]
    clock.t += 3.0  # 400 frames in 4 s: 100 fps, 600 left
    bar.update(400)
    assert _drawn(out)[-1].endswith("ETA 6 s")


def test_redrawn_at_most_four_times_a_second() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    bar.stage("rendering", 10_000)
    for done in range(1, 101):  # 100 updates over one second
        clock.t += 0.01
        bar.update(done)
    assert 4 <= len(_drawn(out)) <= 5


def test_a_new_stage_clears_the_line_and_counts_its_own_rate() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    bar.stage("analysing", 300, fps=30.0)
    clock.t += 10.0
    bar.update(300)
    bar.stage("writing the annotated video", 300, fps=30.0)
    assert "\x1b[K\r\x1b[K\rwriting the annotated video  0/300" in out.getvalue()  # wiped
    clock.t += 1.0
    bar.update(150)
    assert _drawn(out)[-1] == (
        "writing the annotated video  150/300 frames (50%)  150 fps, 5.0x real time"
    )


def test_unknown_total_shows_the_stage_and_its_time() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    bar.stage("calibrating")
    clock.t += 7.0
    bar.update(0)
    assert _drawn(out)[-1] == "calibrating ...  7 s"


def test_a_said_line_lands_on_a_clean_row_and_the_end_clears() -> None:
    out, clock = _Tty(), _Clock()
    bar = Progress(out, clock=clock)
    bar.stage("analysing", 10)
    bar.update(3)
    bar.say("carom: calibration doubtful", out)
    assert out.getvalue().endswith("\r\x1b[Kcarom: calibration doubtful\n")
    bar.update(4)  # drawn again at once, not after the redraw interval
    assert _drawn(out)[-1].startswith("analysing  4/10")
    bar.clear()
    assert out.getvalue().endswith("\r\x1b[K")


def test_quiet_when_not_a_terminal_or_asked() -> None:
    pipe, tty = io.StringIO(), _Tty()
    for bar in (Progress.for_terminal(stream=pipe), Progress.for_terminal(True, tty)):
        assert not bar.active
        bar.stage("analysing", 10)
        bar.update(5)
        bar.clear()
    assert pipe.getvalue() == tty.getvalue() == ""
    assert Progress.for_terminal(stream=tty).active


def test_duration_text() -> None:
    assert [duration_text(s) for s in (4.4, 185, 7620)] == ["4 s", "3 min 05 s", "2 h 07 min"]

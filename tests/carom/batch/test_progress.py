"""The batch's progress: a line a finished video, the bar's counts, throughput and ETA."""

from __future__ import annotations

import io

import pytest

from carom.batch import BatchProgress, IndexEntry, JobStatus, duration_text, plural


class Clock:
    """A clock the test moves (seconds)."""

    def __init__(self) -> None:
        self.t = 1000.0

    def __call__(self) -> float:
        return self.t


def progress(
    total: int, expected_s: float | None = None
) -> tuple[BatchProgress, Clock, io.StringIO, io.StringIO]:
    clock, lines, bar = Clock(), io.StringIO(), io.StringIO()
    return BatchProgress(total, expected_s, lines=lines, bar=bar, clock=clock), clock, lines, bar


def entry(name: str, status: JobStatus, **more: object) -> IndexEntry:
    e = IndexEntry(name=name, source=f"/v/{name}.mp4", **more)  # type: ignore[arg-type]
    e.status = status
    return e


def bar_frames(bar: io.StringIO) -> list[str]:
    """Each bar drawn (the text between a carriage return and the clear-to-end)."""
    return [f.split("\x1b[K")[0] for f in bar.getvalue().split("\r") if f.startswith("[")]


def test_a_line_for_each_finished_video_says_what_became_of_it() -> None:
    p, _, lines, _ = progress(4)
    p.finished(entry("a", JobStatus.DONE, shots=7, video_s=61.25, work_s=9.04))
    p.finished(entry("b", JobStatus.FAILED, error="b.mp4: not a readable video"))
    p.finished(entry("c", JobStatus.SKIPPED))
    dup = entry("a", JobStatus.DUPLICATE, duplicate_of="a")
    dup.source = "/v/copy/a.mp4"
    p.finished(dup)
    assert lines.getvalue().splitlines() == [
        "[1/4] done      a: 7 shots, 61.2 s of video in 9.0 s",
        "[2/4] failed    b: b.mp4: not a readable video",
        "[3/4] skipped   c: finished by an earlier run (same video and options)",
        "[4/4] duplicate a: /v/copy/a.mp4 is the same video, with the same options, as a",
    ]


def test_the_bar_counts_each_status_and_duplicates_apart_as_the_summary() -> None:
    p, clock, _, bar = progress(5)
    clock.t += 10
    p.finished(entry("a", JobStatus.DONE, video_s=20.0))
    p.finished(entry("b", JobStatus.FAILED, video_s=5.0))
    p.finished(entry("c", JobStatus.SKIPPED, video_s=99.0))  # not analysed by this run
    p.finished(entry("d", JobStatus.DUPLICATE))
    assert p.counts == {JobStatus.DONE: 1, JobStatus.FAILED: 1, JobStatus.SKIPPED: 1,
                        JobStatus.DUPLICATE: 1}  # fmt: skip
    text = p.status_text()
    assert text.startswith(
        "[################....] 4/5 videos: 1 done, 1 failed, 1 skipped, 1 duplicate | "
    )  # it said "2 skipped" where the summary said "1 skipped ..., 1 duplicates"
    assert "| 25 s of video, 2.5 s/s |" in text
    assert bar_frames(bar)[-1] == text  # each finished video redraws the bar


def test_throughput_counts_the_videos_under_way() -> None:
    p, clock, _, _ = progress(3)
    clock.t += 4
    p.advanced("a", 6.0)
    p.advanced("b", 2.0)
    p.advanced("a", 5.0)  # an older report never lowers what is done
    assert p.analysed_s() == 8.0
    assert "8 s of video, 2.0 s/s" in p.status_text()
    p.finished(entry("a", JobStatus.DONE, video_s=7.0))  # its own figure, not the last report
    assert p.analysed_s() == 9.0


def test_the_eta_from_the_videos_lengths() -> None:
    p, clock, _, _ = progress(3, expected_s=300.0)
    assert p.status_text().endswith("| ETA --")  # nothing analysed yet: no rate
    clock.t += 20
    p.advanced("a", 60.0)  # 3 s of video a second, 240 s left: 80 s
    assert p.status_text().endswith("| ETA 1 min 20 s")
    p.advanced("a", 400.0)  # more than expected: not a negative ETA
    assert p.status_text().endswith("| ETA 0 s")


def test_the_eta_from_the_videos_left_when_lengths_are_unknown() -> None:
    p, clock, _, _ = progress(5)
    p.finished(entry("s", JobStatus.SKIPPED))  # takes no time: not a measure
    assert p.status_text().endswith("| ETA --")
    clock.t += 30
    p.finished(entry("a", JobStatus.DONE))
    p.finished(entry("b", JobStatus.FAILED))
    # 2 analysed in 30 s, 2 videos left: 30 s
    assert p.status_text().endswith("| ETA 30 s")


def test_a_finished_batch_says_how_long_it_took() -> None:
    p, clock, _, bar = progress(2, expected_s=10.0)
    clock.t += 125
    p.finished(entry("a", JobStatus.DONE, video_s=5.0))
    p.finished(entry("b", JobStatus.DONE, video_s=5.0))
    assert p.status_text().endswith("| took 2 min 05 s")
    p.close()
    assert bar.getvalue().endswith("took 2 min 05 s\x1b[K\n")


def test_the_bar_is_redrawn_at_most_four_times_a_second() -> None:
    p, clock, _, bar = progress(10)
    drawn = []
    for step in range(16):  # a report every 1/8 s for two seconds
        clock.t += 0.125
        p.advanced("a", step + 1.0)
        drawn.append(len(bar_frames(bar)))
    assert drawn == [0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8]
    assert bar_frames(bar)[-1].startswith("[....................] 0/10 videos")
    p.draw(force=True)
    assert len(bar_frames(bar)) == 9


def test_a_line_clears_the_bar_before_it_is_written() -> None:
    p, _, lines, bar = progress(2)
    p.finished(entry("a", JobStatus.DONE))
    assert bar.getvalue().startswith("\r\x1b[K")
    assert lines.getvalue().count("\n") == 1


def test_without_a_terminal_only_lines_and_quiet_says_nothing() -> None:
    lines = io.StringIO()
    p = BatchProgress(1, None, lines=lines, bar=None, clock=Clock())
    p.advanced("a", 3.0)
    p.finished(entry("a", JobStatus.DONE))
    p.close()
    assert lines.getvalue().startswith("[1/1] done")
    silent = BatchProgress(1, None, lines=None, bar=None, clock=Clock())
    silent.finished(entry("a", JobStatus.FAILED, error="x"))
    silent.close()
    assert silent.counts[JobStatus.FAILED] == 1


@pytest.mark.parametrize(
    ("seconds", "text"),
    [(0, "0 s"), (-3, "0 s"), (42.4, "42 s"), (59.6, "1 min 00 s"), (185, "3 min 05 s"),
     (3599, "59 min 59 s"), (3600, "1 h 00 min"), (7620, "2 h 07 min"),
     (100 * 3600 + 59, "100 h 00 min")],
)  # fmt: skip
def test_duration_text(seconds: float, text: str) -> None:
    assert duration_text(seconds) == text


def test_plural() -> None:
    assert [plural(n, "video") for n in (0, 1, 2)] == ["0 videos", "1 video", "2 videos"]

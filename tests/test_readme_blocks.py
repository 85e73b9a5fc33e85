"""Every command block of the README, run in order as a new user would (issue 22).

The commands and what each must do are in ``tests/readme_steps.py``; a command added to
the README without a step fails the test below, so none is left out silently. The
recorded video's sections run here, the other sections not paced by the clock in
``tests/test_readme_archives.py`` (the suite's other worker), and the paced ones (a
board, live mode, the server, a camera stream) with the wall-clock tests.
"""

from __future__ import annotations

from pathlib import Path

import av
import pytest

from tests.readme_run import cut_clip, readme_commands, readme_sections, readme_steps
from tests.readme_steps import PARTS, PYTHON, README, ROOT, STEPS, part_of, run_part, steps_of


def test_every_readme_command_has_a_step_and_every_step_a_command() -> None:
    commands = readme_commands(README.read_text())
    for command in set(commands):
        n = commands.count(command)
        assert len(steps_of(command)) == n, f"{command}: {n} times in the README"
    assert set(commands) == set(STEPS), (
        f"commands without a step: {sorted(set(commands) - set(STEPS))}; "
        f"steps of no command: {sorted(set(STEPS) - set(commands))}"
    )
    firsts = [code.splitlines()[0] for code in readme_steps(README.read_text()) if "\n" in code]
    assert sorted(firsts) == sorted(PYTHON), "PYTHON: one entry a Python example"
    for command, step in ((c, s) for c in STEPS for s in steps_of(c)):
        assert (step.run_as is None) == (not step.why), f"{command}: a run_as needs a why"
        assert step.until is None or step.until in STEPS, command


def test_every_section_runs_in_one_part_and_the_paced_ones_with_the_clock() -> None:
    parts = {part_of(h, None if "\n" in c else steps_of(c)[0]) for h, c in
             readme_sections(README.read_text())}  # fmt: skip
    assert parts == set(PARTS)
    assert (
        part_of("Live mode: a camera over the table", steps_of("carom matches carom-live.db")[0])
        == "paced"
    )
    assert part_of("Scoring a shot log", None) == "recorded"


@pytest.mark.parametrize("part", ["recorded", pytest.param("paced", marks=pytest.mark.realtime)])
def test_every_readme_command_runs_in_order(tmp_path: Path, part: str) -> None:
    run_part(tmp_path, part)


def test_readme_commands_joins_continuations_and_drops_comments() -> None:
    text = (
        "```sh\ncarom a x \\\n    --b 1   # note\n# only a comment\n\ncarom c 'p#q'\n```\n"
        "```text\ncarom not-a-command\n```\n```sh\ncarom a x --b 1\n```\n"
    )
    assert readme_commands(text) == ["carom a x --b 1", "carom c 'p#q'", "carom a x --b 1"]


def _packets(path: Path) -> list[tuple[int | None, int | None, bytes]]:
    """The video's packets: their times and bytes (not the container's own header)."""
    with av.open(str(path)) as video:
        stream = video.streams.video[0]
        return [(p.pts, p.dts, bytes(p)) for p in video.demux(stream) if p.dts is not None]


def test_the_one_shot_example_is_the_first_seconds_of_the_bundled_clip(tmp_path: Path) -> None:
    """Regenerated samples leave no stale example: it is cut from the bundled clip again.

    The same packets at the same times: the MP4's bytes also name the muxer's version
    (``Lavf62.12.102``), which another PyAV release changes.
    """
    made = tmp_path / "one_shot.mp4"
    assert cut_clip(ROOT / "sample_videos" / "three_cushion_match.mp4", made, 15) == 448
    assert _packets(made) == _packets(ROOT / "examples" / "one_shot.mp4")

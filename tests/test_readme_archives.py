"""The README's sections after the recorded video's that are not paced by the clock
(whole archives, synthetic video, calibrating a table), run in order as a new user would
(issue 22). A file of their own, so that the suite's two workers run them beside the
recorded video's part (``tests/test_readme_blocks.py``); the steps are in
``tests/readme_steps.py``."""

from __future__ import annotations

from pathlib import Path

from tests.readme_steps import run_part


def test_every_readme_command_of_the_archives_and_tools_runs_in_order(tmp_path: Path) -> None:
    run_part(tmp_path, "archives")

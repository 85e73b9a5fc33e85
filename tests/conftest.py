"""Test-wide settings: hypothesis explores freely on a developer's machine, but CI
(``CI`` set in the environment) replays a fixed sequence of examples, so a CI run is
reproducible and a rare new counterexample shows up locally first."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")


#: Tests that pace themselves by the wall clock (real-time replay, link timeouts,
#: real servers and browsers): scripts/check runs them two at a time among themselves
#: (they mostly wait), beside the rest run at the lowest priority, so that a CPU-bound
#: neighbour cannot make them late. A test elsewhere may be marked ``realtime`` itself
#: (the README's paced sections, tests/test_readme_blocks.py; a noisy serial line,
#: tests/carom/cli/test_score.py).
_REALTIME = (
    "carom/live/",
    "carom/web/",
    "hardware/test_link.py",
    "hardware/test_emulator.py",
    "hardware/test_codecs.py",
    "hardware/test_camera.py",
    "hardware/test_confirm.py",
    "carom/board/test_confirm.py",
)

#: Files elsewhere that mark some of their own tests ``realtime``.
_MARKED_IN_FILE = ("test_readme_blocks.py", "carom/cli/test_score.py")

#: Wall-clock tests that make their own load (a request flood beside a live match):
#: marked ``alone`` too, and scripts/check runs them by themselves after the others.
_ALONE = ("carom/web/test_auth_flood.py",)

#: The files that take longest (a whole analysis, renders or a stroke search in a module
#: fixture; 30 to 340 s each in a whole run on the 2-core machine), longest first.
#: ``--dist loadfile`` hands them out first, so the workers end together on the many
#: short files instead of one waiting while another runs a late long one.
_LONGEST_FIRST = (
    "carom/batch/test_batch_runs.py",
    "test_readme_blocks.py",
    "test_readme_archives.py",
    "carom/cli/test_analyze.py",
    "vision/test_accuracy.py",
    "carom/analyze/test_context.py",
    "synth/test_samples.py",
    "calibration/test_detect_scenes.py",
    "calibration/test_diamonds.py",
    "vision/test_lag_video.py",
    "synth/test_calibration_scene.py",
    "carom/cli/test_calibrate.py",
    "carom/analyze/test_seven_pins.py",
    # the wall-clock tests' longest (a real-time replay, a paced network camera)
    "carom/live/test_live_e2e.py",
    "carom/live/test_live_network_camera.py",
)


def pytest_configure(config: pytest.Config) -> None:
    """Let xdist hand out the files in the order below, not by their number of tests.

    xdist's ``loadfile`` orders files by how many tests they have (``--loadscope-reorder``,
    its default), which puts the long files with few tests last.
    """
    if hasattr(config.option, "loadscopereorder"):
        config.option.loadscopereorder = False


def pytest_ignore_collect(collection_path: Path, config: pytest.Config) -> bool | None:
    """A run that selects by the wall-clock marks does not import the files it would deselect.

    scripts/check runs ``-m "not realtime"`` (three workers) beside ``-m "realtime and not
    alone"`` (two) and then ``-m alone``: each process imported and collected all ~4000
    tests, about 4 CPU-s each at the run's busiest start, to deselect those of the others.
    """
    here = Path(__file__).parent
    markexpr = config.option.markexpr
    if collection_path.suffix != ".py" or not collection_path.is_relative_to(here):
        return None
    where = collection_path.relative_to(here).as_posix()
    if where.endswith("conftest.py") or not Path(where).name.startswith("test_"):
        return None
    if markexpr == "not realtime":  # every test of these files is marked realtime
        return where.startswith(_REALTIME)
    keep = {"realtime and not alone": (*_REALTIME, *_MARKED_IN_FILE), "alone": _ALONE}
    return None if markexpr not in keep else not where.startswith(keep[markexpr])


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the wall-clock tests ``realtime`` (and ``alone``: ``_ALONE``); longest files first."""
    here = Path(__file__).parent
    rank: dict[Path, int] = {}
    for item in items:
        where = item.path.relative_to(here).as_posix() if item.path.is_relative_to(here) else ""
        if where.startswith(_REALTIME):
            item.add_marker(pytest.mark.realtime)
        if where in _ALONE:
            item.add_marker(pytest.mark.alone)
        rank[item.path] = (
            _LONGEST_FIRST.index(where) if where in _LONGEST_FIRST else len(_LONGEST_FIRST)
        )
    items.sort(key=lambda item: rank[item.path])  # stable: each file's tests keep their order

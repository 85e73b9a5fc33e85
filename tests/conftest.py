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
#: real servers and browsers): scripts/check runs them alone, after the rest has run
#: on every core, so that a busy neighbour cannot make them late.
_REALTIME = (
    "carom/live/",
    "carom/web/",
    "hardware/test_link.py",
    "hardware/test_emulator.py",
    "hardware/test_codecs.py",
)


def pytest_collection_modifyitems(items: list[pytest.Item]) -> None:
    """Mark the wall-clock tests ``realtime`` (see ``_REALTIME``)."""
    here = Path(__file__).parent
    for item in items:
        where = item.path.relative_to(here).as_posix() if item.path.is_relative_to(here) else ""
        if where.startswith(_REALTIME):
            item.add_marker(pytest.mark.realtime)

"""Test-wide settings: hypothesis explores freely on a developer's machine, but CI
(``CI`` set in the environment) replays a fixed sequence of examples, so a CI run is
reproducible and a rare new counterexample shows up locally first."""

from __future__ import annotations

import os

from hypothesis import settings

settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI"):
    settings.load_profile("ci")

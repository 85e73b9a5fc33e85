"""Every package a user imports ships its ``py.typed`` marker (PEP 561).

Without it mypy in a user's project skips the package ("installed, but missing library
stubs or py.typed marker") and every value from it is ``Any``: calibration, vision and
hardware had none.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

ROOT = Path(__file__).parents[1]


def test_every_package_has_py_typed_and_ships_it() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())
    packages = project["tool"]["mypy"]["packages"]
    shipped = project["tool"]["setuptools"]["package-data"]
    assert sorted(packages) == ["calibration", "carom", "hardware", "referee", "synth", "vision"]
    for name in packages:
        assert (ROOT / name / "py.typed").is_file(), name
        assert "py.typed" in shipped.get(name, []), name

"""The app turns numpy's huge-page advice off for its process (carom/__init__.py)."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
THP = Path("/sys/kernel/mm/transparent_hugepage/enabled")

#: Touch 256 MB of fresh numpy memory; print the process's huge-page-backed MB.
PROBE = """
import {first}
import numpy as np
a = np.ones(256 << 20, np.uint8)
for line in open("/proc/self/smaps_rollup"):
    if line.startswith("AnonHugePages:"):
        print(int(line.split()[1]) // 1024)
"""


def _huge_mb(first: str, env_value: str | None) -> int:
    env = {k: v for k, v in os.environ.items() if k != "NUMPY_MADVISE_HUGEPAGE"}
    if env_value is not None:
        env["NUMPY_MADVISE_HUGEPAGE"] = env_value
    out = subprocess.run(
        [sys.executable, "-c", PROBE.format(first=first)],
        capture_output=True, text=True, check=True, cwd=ROOT, env=env, timeout=60,
    )  # fmt: skip
    return int(out.stdout.strip())


@pytest.mark.skipif(
    not THP.is_file() or "[madvise]" not in THP.read_text(),
    reason="huge pages here do not follow numpy's advice (not in madvise mode)",
)
def test_the_app_process_maps_frames_without_huge_pages_unless_asked() -> None:
    # The probe sees huge pages where numpy asks for them (numpy alone, or told to).
    assert _huge_mb("numpy", None) >= 128
    assert _huge_mb("carom", "1") >= 128
    # Imported first, the app turns the advice off.
    assert _huge_mb("carom", None) < 16

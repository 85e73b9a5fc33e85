"""How many examples the fuzz tests try: their CI number, times ``CAROM_FUZZ_SCALE``.

CI runs each fuzz test with the examples its author chose (scale 1), within the test
budget. ``bench/fault_suite.py`` runs the same tests at a larger scale (20 by default)
and commits what it found, so a longer search never weighs on CI.
"""

from __future__ import annotations

import os

__all__ = ["examples"]


def examples(n: int) -> int:
    """``n`` times ``CAROM_FUZZ_SCALE`` (1 when unset)."""
    return n * max(1, int(os.environ.get("CAROM_FUZZ_SCALE", "1")))

"""The machine a benchmark ran on, for its results file (one place for every bench)."""

from __future__ import annotations

import os
import platform
import time
from pathlib import Path
from typing import Any

__all__ = ["machine"]


def machine() -> dict[str, Any]:
    """CPU model, core count, Python, OS, load averages (1/5/15 min) and UTC time."""
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    return {"cpu": cpu, "cores": os.cpu_count(), "python": platform.python_version(),
            "system": platform.platform(),
            "load_1_5_15": [round(v, 2) for v in os.getloadavg()],
            "date": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime())}  # fmt: skip

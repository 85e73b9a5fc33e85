"""The app layer: the ``carom`` command line, the live pipeline and the server.

It composes the packages (referee, vision, calibration, hardware); nothing is
built at import time.

One process setting is made here, before numpy is imported by anything of the app:
numpy's advice to the kernel to back its large arrays with transparent huge pages is
off unless ``NUMPY_MADVISE_HUGEPAGE`` is set (``NUMPY_MADVISE_HUGEPAGE=1`` turns it
back on). A video analysis allocates fresh memory all the time (a 1080p frame in colour
is 6 MB), and in virtual machines that back the guest's memory lazily, a huge page's
first touch is slow: on this project's 2-core Firecracker machine, converting 35 kept
1080p frames took 8-13 ms a frame with the advice and 1.5-1.7 ms without, and
``carom analyze`` of the low-bitrate bench clip used 1.0 s of system time instead of
1.6-2.2 s (docs/vision.md, "Speed").
"""

import os

os.environ.setdefault("NUMPY_MADVISE_HUGEPAGE", "0")

__all__: list[str] = []

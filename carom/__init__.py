"""The app layer: the ``carom`` command line, and later the live pipeline and server.

It composes the packages (referee, vision, calibration, hardware); nothing is
built at import time.
"""

__all__: list[str] = []

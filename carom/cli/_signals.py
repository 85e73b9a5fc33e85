"""SIGTERM (a service manager's stop, ``kill``) handled as Ctrl-C by the commands that ask."""

from __future__ import annotations

import contextlib
import signal
import threading
from collections.abc import Iterator
from typing import Any

__all__ = ["sigterm_interrupts"]


@contextlib.contextmanager
def sigterm_interrupts() -> Iterator[None]:
    """Within the block SIGTERM raises :class:`KeyboardInterrupt`, as Ctrl-C does.

    So the command stops as it does on Ctrl-C (``carom synth``: its files removed, status
    130; ``carom serve``: the server shut down cleanly, status 0). Only the main thread
    may set a handler; elsewhere nothing changes.
    """
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(_signum: int, _frame: Any) -> None:
        raise KeyboardInterrupt

    before = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:
        signal.signal(signal.SIGTERM, before)

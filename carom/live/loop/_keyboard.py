"""Calls from other threads for the live loop: stdin lines and posted calls.

The loop owns the match; other threads only queue: :func:`read_keyboard` puts each
stdin line on a queue, :class:`PostedCall` carries a call from another thread (the
web console's) with an event to wait on and the refusal, if any.
"""

from __future__ import annotations

import queue
import threading
from dataclasses import dataclass, field
from typing import TextIO

from carom.live import PersonCall, ReviewDecision
from referee import CaromError

__all__ = ["PostedCall", "read_keyboard"]


def read_keyboard(stream: TextIO, lines: queue.Queue[str | None]) -> threading.Thread:
    """Start a thread putting every line of ``stream`` on ``lines`` (None at the end)."""

    def run() -> None:
        for line in stream:
            lines.put(line)
        lines.put(None)

    thread = threading.Thread(target=run, name="keyboard", daemon=True)
    thread.start()
    return thread


@dataclass(slots=True)
class PostedCall:
    """A person's call from another thread, waiting for the loop; ``error``: its refusal."""

    call: PersonCall | ReviewDecision
    who: str
    done: threading.Event = field(default_factory=threading.Event)
    error: CaromError | None = None

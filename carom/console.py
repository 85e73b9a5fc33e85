"""What a command says to the user: one line on stderr, and the same line in the log.

``carom`` commands talk to the person at the table with plain lines on stderr
(``carom live: camera lost (...); reconnecting``). An unattended club PC also wants them
in a file: :func:`say` prints the line and hands it to the ``carom.<command>`` logger
marked as already said, so ``--log-file`` keeps it with its time while the stderr
handler (``carom.cli``) does not print it twice.
"""

from __future__ import annotations

import logging
import sys
from typing import TextIO

__all__ = ["SAID", "say"]

#: The attribute of a log record that :func:`say` has already printed.
SAID = "carom_said"


def say(command: str, text: str, *, out: TextIO | None = None, level: int = logging.INFO) -> None:
    """Print ``carom COMMAND: TEXT`` on ``out`` (stderr) and log it (module docstring)."""
    print(f"carom {command}: {text}", file=out or sys.stderr, flush=True)
    logging.getLogger(f"carom.{command}").log(level, "%s", text, extra={SAID: True})

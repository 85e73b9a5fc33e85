"""What a command says to the user: one line on stderr, and the same line in the log.

``carom`` commands talk to the person at the table with plain lines on stderr
(``carom live: camera lost (...); reconnecting``). An unattended club PC also wants them
in a file: :func:`say` prints the line and hands it to the ``carom.<command>`` logger
marked as already said, so ``--log-file`` keeps it with its time while the stderr
handler (``carom.cli``) does not print it twice. What a command gives as its result on
stdout (``live``'s verdicts, ``analyze``'s scoresheet) goes through :func:`show`, which
logs it the same way.

Warnings of the libraries underneath (numpy, PyAV, onnxruntime ... through Python's
:mod:`warnings`) are not the user's business at the table: :func:`capture_warnings`
sends them to the ``carom.warnings`` log at warning level, so ``--log-file`` keeps
them, and onto stderr only with ``-v``. (OpenCV's and FFmpeg's own lines, written by C
code, are silenced by ``carom.cli`` unless ``-vv``.)

A remark that is neither a fault nor a result (where the ball detector's network runs)
goes through :func:`remark`: printed as :func:`say` prints, except under ``-q`` (stderr
gets errors only, :func:`set_quiet`), where only the log keeps it; ``analyze`` keeps its
remarks (a calibration only doubtful too) off stderr the same way (:func:`is_quiet`).
"""

from __future__ import annotations

import logging
import sys
import warnings
from pathlib import Path
from typing import TextIO

__all__ = ["SAID", "capture_warnings", "is_quiet", "remark", "say", "set_quiet", "show"]

#: The attribute of a log record that :func:`say` has already printed.
SAID = "carom_said"


#: ``-q`` was given: remarks are logged, not printed (:func:`set_quiet`).
_quiet = False


def set_quiet(quiet: bool) -> None:
    """``-q``: :func:`remark` logs its lines without printing them (the command line sets it)."""
    global _quiet
    _quiet = quiet


def is_quiet() -> bool:
    """Whether remarks are kept off stderr (``-q``)."""
    return _quiet


def remark(command: str, text: str, *, out: TextIO | None = None) -> None:
    """:func:`say` a remark that ``-q`` keeps off stderr (still logged)."""
    if _quiet:
        logging.getLogger(f"carom.{command}").info("%s", text, extra={SAID: True})
    else:
        say(command, text, out=out)


def say(command: str, text: str, *, out: TextIO | None = None, level: int = logging.INFO) -> None:
    """Print ``carom COMMAND: TEXT`` on ``out`` (stderr) and log it (module docstring)."""
    print(f"carom {command}: {text}", file=out or sys.stderr, flush=True)
    logging.getLogger(f"carom.{command}").log(level, "%s", text, extra={SAID: True})


def show(command: str, text: str, *, out: TextIO | None = None) -> None:
    """Print ``text`` as it is on ``out`` (stdout: a verdict, a scoresheet) and log it.

    The command's result for the user, not a remark about it: no ``carom COMMAND:``
    prefix, and ``--log-file`` keeps it with its time as it keeps what :func:`say` says.
    """
    print(text, file=out or sys.stdout, flush=True)
    logging.getLogger(f"carom.{command}").info("%s", text, extra={SAID: True})


def capture_warnings(shown: bool, *, out: TextIO | None = None) -> None:
    """Python warnings into the ``carom.warnings`` log; on ``out`` (stderr) only if ``shown``.

    ``shown``: the command line asked for ``-v`` or more. Each warning is one line,
    ``RuntimeWarning: TEXT (file.py:LINE)``, marked as said so the stderr handler does
    not print it (again).
    """

    def show(
        message: Warning | str, category: type[Warning], filename: str, lineno: int,
        file: TextIO | None = None, line: str | None = None,
    ) -> None:  # fmt: skip
        text = f"{category.__name__}: {message} ({Path(filename).name}:{lineno})"
        if shown:
            print(f"carom: warning: {text}", file=out or sys.stderr, flush=True)
        logging.getLogger("carom.warnings").warning("%s", text, extra={SAID: True})

    warnings.showwarning = show

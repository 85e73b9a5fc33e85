"""The ``carom`` command line: one module per command, each ``add_parser`` + ``run``.

:func:`main` parses the arguments, runs the command and turns a
:class:`referee.CaromError` into one line on stderr and exit status 2.
"""

from carom.cli._main import main

__all__ = ["main"]

"""``carom ARGS`` run by :func:`carom.cli.main` in the test's own process.

For the bad-input tables: each row is the same ``main`` a user's ``carom`` runs, with
what it prints and the status it returns, without starting Python and importing
OpenCV, PyAV and numpy again (about 0.7 s of CPU a row). Every command keeps tests that
start the real ``carom`` process, errors among them, so the way from ``main``'s status
and line to the process's exit status and stderr stays covered.
"""

from __future__ import annotations

import contextlib
import io
import re
import subprocess
from pathlib import Path

from carom.cli import main

__all__ = ["carom_in_process", "usage_error"]


def carom_in_process(*args: str, cwd: Path | None = None) -> subprocess.CompletedProcess[str]:
    """``carom ARGS`` (in ``cwd``) as :func:`subprocess.run` reports it: status, stdout, stderr."""
    out, err = io.StringIO(), io.StringIO()
    with contextlib.ExitStack() as stack:
        stack.enter_context(contextlib.redirect_stdout(out))
        stack.enter_context(contextlib.redirect_stderr(err))
        if cwd is not None:
            stack.enter_context(contextlib.chdir(cwd))
        try:
            code = main(list(args))
        except SystemExit as exc:  # argparse's usage errors exit as the process would
            code = 0 if exc.code is None else exc.code if isinstance(exc.code, int) else 1
    return subprocess.CompletedProcess(["carom", *args], code, out.getvalue(), err.getvalue())


def usage_error(out: subprocess.CompletedProcess[str], option: str) -> str:
    """The one line of an argparse refusal of ``option`` (status 2), its --help pointer cut.

    Nothing on stdout: refused before any work.
    """
    assert out.returncode == 2, out.stderr
    assert "Traceback" not in out.stderr and "internal error" not in out.stderr
    lines = out.stderr.splitlines()
    assert len(lines) == 1 and f": error: argument {option}: " in lines[0], out.stderr
    assert out.stdout == ""
    return re.sub(r"; `[^`]+ --help` lists the options$", "", lines[0])

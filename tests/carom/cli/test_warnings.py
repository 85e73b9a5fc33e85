"""A library's Python warning during a command: in ``--log-file``, on stderr only with -v."""

from __future__ import annotations

import contextlib
import io
import warnings
from collections.abc import Iterator
from pathlib import Path

import pytest

import synth
from carom.cli import main


def _warning_describer(name: str) -> str:
    warnings.warn("invalid value encountered in divide", RuntimeWarning, stacklevel=1)
    return f"described {name}"


@pytest.fixture
def warns_while_listing(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """``carom synth --list`` meets a library warning (as numpy's would be) on its way."""
    monkeypatch.setattr(synth, "source_description", _warning_describer)
    with warnings.catch_warnings():
        warnings.simplefilter("default")  # as outside pytest (its filterwarnings = error)
        yield


def _run(*args: str) -> tuple[int, str, str]:
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue(), err.getvalue()


@pytest.mark.usefixtures("warns_while_listing")
def test_a_warning_goes_to_the_log_file_not_the_terminal(tmp_path: Path) -> None:
    log = tmp_path / "carom.log"
    code, out, err = _run("--log-file", str(log), "synth", "--list")
    assert code == 0
    assert "described 3c-point" in out  # the command did its work
    assert err == ""
    logged = [line for line in log.read_text().splitlines() if "carom.warnings" in line]
    assert len(logged) == 1  # shown once per place, as Python's default does
    assert logged[0].endswith(
        "WARNING carom.warnings: RuntimeWarning: invalid value encountered in divide "
        "(test_warnings.py:18)"
    )


@pytest.mark.usefixtures("warns_while_listing")
def test_verbose_shows_the_warning_in_one_line(tmp_path: Path) -> None:
    code, _out, err = _run("-v", "synth", "--list")
    assert code == 0
    assert err.splitlines() == [
        "carom: warning: RuntimeWarning: invalid value encountered in divide (test_warnings.py:18)"
    ]

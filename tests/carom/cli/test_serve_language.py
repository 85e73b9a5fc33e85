"""``carom serve --language``: the pages' language when the console has set none."""

from __future__ import annotations

import argparse

import pytest

from carom.cli import _serve


def _args(*argv: str) -> argparse.Namespace:
    parser = argparse.ArgumentParser()
    sub = parser.add_subparsers(dest="command")
    _serve.add_parser(sub)
    return parser.parse_args(["serve", *argv])


def test_the_language_flag_is_the_servers_default_language() -> None:
    settings = _serve.settings_of(
        _args("--language", "tr"), camera=None, calibration=None, pace=1.0
    )
    assert settings.language == "tr"
    plain = _serve.settings_of(_args(), camera=None, calibration=None, pace=1.0)
    assert plain.language is None  # each browser's own


def test_a_language_we_do_not_have_is_refused_by_the_parser(
    capsys: pytest.CaptureFixture[str],
) -> None:
    with pytest.raises(SystemExit) as exit_:
        _args("--language", "de")
    assert exit_.value.code == 2
    assert "unknown language 'de' (one of: en, ko, tr, nl, fr, es)" in capsys.readouterr().err

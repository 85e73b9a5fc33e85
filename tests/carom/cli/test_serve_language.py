"""``carom serve --language``: the pages' language when the console has set none; the
language option's two spellings and the forms of a language every command takes."""

from __future__ import annotations

import argparse

import pytest

from carom.cli import _serve
from carom.cli._main import _parser
from carom.i18n import language_code


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


@pytest.mark.parametrize(
    ("argv", "dest"),
    [(["analyze", "v.mp4", "--language", "ko"], "lang"),
     (["batch", "v.mp4", "--out", "o", "--language", "ko"], "lang"),
     (["stats", "x", "--language", "ko"], "lang"), (["serve", "--lang", "ko"], "language"),
     (["live", "--camera", "0", "--lang", "ko"], "language")],
)  # fmt: skip
def test_every_command_takes_both_spellings_of_the_language_option(
    argv: list[str], dest: str
) -> None:
    """analyze, batch and stats took ``--lang``, serve and live ``--language`` (found by a
    review as a non-English club): each takes both."""
    assert getattr(_parser().parse_args(argv), dest) == "ko"


@pytest.mark.parametrize("given", ["es", "ES", "es-ES", "es_ES", "es_ES.UTF-8", " es "])
def test_a_region_or_a_locale_s_spelling_is_the_language(given: str) -> None:
    """``--lang es-ES`` was "unknown language" though ``LANG=es_ES.UTF-8`` was Spanish."""
    assert _parser().parse_args(["stats", "x", "--lang", given]).lang == "es"
    assert language_code(given) == "es"
    assert language_code("de-DE") is None and language_code("") is None

"""A match's set-up and its replay: the match file, the flags over it, the shot clock.

* :class:`MatchFile` (``carom-match/1``, docs/match-file.md): read with
  :func:`load_match_file` / :func:`parse_match_file`, written with
  :func:`match_file_toml` / :func:`match_file_doc`;
* the command-line flags over it (:func:`add_match_options`, :func:`match_from_args`);
* the shot clock (:class:`ShotClock`, its :class:`ClockSettings`), pure time keeping;
* a shot log replayed through the referee (:func:`score_file` -> :class:`ScoreRun`),
  as ``carom score`` and the reports show it.
"""

from carom.match._file import (
    ROTATION_BALLS,
    TABLE_PRESETS,
    MatchFile,
    MatchFileError,
    default_table,
    parse_table,
)
from carom.match._file_read import load_match_file, parse_match_file, parse_match_file_text
from carom.match._file_write import defaults_doc, from_config, match_file_doc, match_file_toml
from carom.match._flags import (
    add_match_options,
    match_from_args,
    parse_discipline,
    parse_players,
    parse_scores,
    table_of,
)
from carom.match._json_out import write_score_json
from carom.match._replay import (
    ScoreRun,
    load_json,
    run_json,
    score_document,
    score_file,
    standings_json,
    stopped_reason,
)
from carom.match._shot_clock import ClockExpiry, ClockReading, ClockSettings, ShotClock

__all__ = [
    "ROTATION_BALLS",
    "TABLE_PRESETS",
    "ClockExpiry",
    "ClockReading",
    "ClockSettings",
    "MatchFile",
    "MatchFileError",
    "ScoreRun",
    "ShotClock",
    "add_match_options",
    "default_table",
    "defaults_doc",
    "from_config",
    "load_json",
    "load_match_file",
    "match_file_doc",
    "match_file_toml",
    "match_from_args",
    "parse_discipline",
    "parse_match_file",
    "parse_match_file_text",
    "parse_players",
    "parse_scores",
    "parse_table",
    "run_json",
    "score_document",
    "score_file",
    "standings_json",
    "stopped_reason",
    "table_of",
    "write_score_json",
]

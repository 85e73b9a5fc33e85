"""Why the server refused a call, as a keyed phrase the pages say in their language.

A call that does not fit the match (undo with nothing to undo, a foul called after a
time-out, a correction that would take a player below zero, a new match while one is
played) is refused with status 409 and an English sentence in ``detail``, written by
the journal machine, the referee, the shot clock or the web table; a missing or wrong
admin token with 401, and its back-off with 429 (the guard).
:func:`refusal_parts` reads each sentence a person at the console or the wizard can
meet into its ``refusal.<key>`` message and fields; the error body carries it as
``detail_parts`` beside ``detail``, and the pages say it with ``Carom.fmt.refusal``.
Any other sentence is None (shown as it is). Tests hold the templates to their
writers by making each refusal happen.
"""

from __future__ import annotations

from typing import Any

from carom.i18n import TemplateReader

__all__ = ["REFUSAL_ENGLISH", "refusal_parts"]

#: The refusals a person meets, by key (``refusal.<key>`` in the web catalogues).
REFUSAL_ENGLISH: dict[str, str] = {
    "nothing_to_undo": "nothing to undo",
    "no_review": "{decision}: no shot waits for review; nothing to decide",
    "review_waits": (
        "shot {n} waits for review ({reason}); decide first: accept, reject or points N"
    ),
    "foul_not_after_shot": "foul: the last input is not a shot; call a foul right after it",
    "timeout_not_playing": "timeout: the match is not being played (phase {phase})",
    "timeouts_used": "timeout: {player} has used all {limit} time-out(s) of this game",
    "no_extension_left": "timeout: {player} has no extension left this game",
    "timeout_too_late": (
        "timeout: {player}'s time is up; the next stroke is a shot-clock foul "
        "(a time-out must be called before the clock runs out)"
    ),
    "no_match": "no match on the table; create one with POST /api/matches",
    "match_playing": (
        "match {id} is being played; finish it or close it first (POST /api/matches/close)"
    ),
    "live_referees_match": "carom live referees this match; stop carom live instead",
    "live_referees_table": (
        "carom live referees this table; start a new match with a new carom live command"
    ),
    "pipeline_scores": "the camera pipeline scores this table's shots",
    "pipeline_not_started": "the camera pipeline has not started; create a match first",
    "pipeline_slow": "the camera pipeline did not take the call in time; try again",
    "correct_not_playing": "corrections are taken while playing, not in phase {phase}",
    "correct_only_shooter": "correction: only {player} (at the table) may ask",
    "correct_too_few": "correction: {player} has only {points} points",
    "correct_too_few_one": "correction: {player} has only 1 point",
    "correct_at_table": "correction: {player} is already at the table",
    "decide_too_many": "decided points: one stroke scores {most} at most in {game}, not {points}",
    "decide_count": "decided points: the count is {remaining}, the most one stroke can score; "
    "not {points}",
    "decide_frozen": (
        "decided points: the stroke from the break position set for frozen balls may not "
        "score (five-pins §10.4); decide 0 or call its foul"
    ),
    "match_over": "the match is over: no more shots (undo to reopen it)",
    "another_writer": (
        "match {id}: another process has written this match since it was loaded here; "
        "nothing was written: stop the other process, then restart this one to go on from "
        "the database"
    ),
    "match_held": (
        "match {id} is being refereed by another process (pid {pid}): a carom live or carom "
        "serve on this database; stop it first, then try again"
    ),
    "no_camera": "no camera: start carom serve with --camera SRC to calibrate",
    "wizard_live": (
        "carom live referees this table with its own calibration; to calibrate {camera}, "
        "stop carom live and run carom serve --camera {camera}"
    ),
    "calibration_other_table": (
        "the camera's calibration {path}: made for a {made} mm table, but the match is set "
        'up for {match} (the match\'s table); give the match "table": "{made}", or calibrate '
        "again in the wizard"
    ),
    "no_calibration_yet": (
        "the camera has no calibration yet: mark the table's corners in the wizard "
        "(/wizard) and save ({path})"
    ),
    "nothing_to_save": "nothing to save: refit first (POST /api/calibration/fit)",
    "fit_off_edges": (
        "this fit lies {px} px from the table's edges in the picture (at most {most} px): "
        "a match would refuse it; drag the corners onto the cloth's corners and refit"
    ),
    "fit_failed": (
        "this fit failed (confidence {confidence}): no calibration is written for it; drag "
        "the corners onto the cloth's corners (and some diamonds onto the diamonds) and refit"
    ),
    # The admin token (401) and its back-off (429): carom/web/_guard.py.
    "token_missing": (
        "this needs the admin token: send Authorization: Bearer <token> "
        "(printed by carom serve at its first start)"
    ),
    "token_wrong": (
        "wrong admin token; use the one carom serve printed (or restart it with --new-token)"
    ),
    "token_blocked": "too many wrong admin tokens from this address; try again in {wait_s} s",
    "token_checking": "a token check from this address is still running; try again in 1 s",
    "token_busy": "the server is busy checking tokens; try again",
}
#: Fields that hold words, not numbers.
_TEXT = ("decision", "reason", "phase", "player", "path", "camera", "made", "match", "game")
# (``wait_s`` is a number; the token messages' ``<token>`` and ``1 s`` are literal.)
_READER = TemplateReader(REFUSAL_ENGLISH, _TEXT)


def refusal_parts(detail: str) -> dict[str, Any] | None:
    """``{"key", "fields"}`` for a refusal a person meets; None for any other sentence."""
    code = _READER.read(detail)
    return None if code is None else {"key": code[0], "fields": code[1]}

"""The notes ``carom analyze`` writes about how it read the match, keyed for the report.

A run's notes (``AnalyzeRun.notes``) are English lines: the terminal, ``--json``'s
``notes`` and the batch index show them as they are. The ones this layer writes about
the match (no lag seen, a lag to play again followed by a stroke, none to see in the
7-pin game, a first stroke whose ball cannot name its player, a lag not judged, balls
already moving when the video begins, a stroke after the match's end, ``--first``
contradicted by the video, a start score without its innings, letters the annotated
video has no font for) are also kept as
keyed phrases (:class:`RunNote`), so that the report says them in its language
(``run_note_<key>`` of the report catalogue, whose English is
:data:`RUN_NOTE_ENGLISH`; ball names from ``ball_<name>``). Notes from elsewhere (the
ball detector, a shot that could not be judged, an incomplete annotated video) stay
English.
"""

from __future__ import annotations

import string
from collections.abc import Mapping
from dataclasses import dataclass

from referee import MatchConfig, RulesError

__all__ = ["RUN_NOTE_BALL_FIELDS", "RUN_NOTE_ENGLISH", "RunNote", "start_innings_notes"]

#: Each keyed note's English, its fields in braces.
RUN_NOTE_ENGLISH: Mapping[str, str] = {
    "no_lag": (
        "no lag seen: the match is joined in progress (the first stroke's cue ball names "
        "the player at the table; the balls' layout says whether it is a break)"
    ),
    "lag_again": (
        "the lag was to be played again, but a stroke came first: the match is joined in "
        "progress (the first stroke's cue ball names the player at the table; the balls' "
        "layout says whether it is a break)"
    ),
    "no_lag_entered": (
        "no lag to see in this game (the lag's winner is entered: --first names who breaks): "
        "the match is joined in progress (both play the red, so the first stroke cannot name "
        "the player at the table: one is assumed and the stroke marked for review)"
    ),
    "no_lag_unnamed": (
        "no lag seen: the match is joined in progress (the first stroke's ball cannot name the "
        "player at the table: one is assumed and the stroke marked for review; --first names "
        "who breaks)"
    ),
    "lag_not_judged": "a lag was seen, but {player} was set to break: lag not judged",
    "lag_not_judged_start": (
        "a lag was seen, but the match was set to begin from a start: lag not judged"
    ),
    "after_end": "shot {shot}: played after the match ended; not judged",
    "began_unseen": (
        "motion at {t_s} s began before the video: not judged (its stroke was not seen)"
    ),
    "font_missing": (
        "annotated video: no font here has the letters {letters}, so they cannot be drawn; "
        "install one (e.g. fonts-noto-cjk) or set CAROM_FONT=/path/to/font.ttf"
    ),
    "start_innings_unknown": (
        "the start score gives {player} {points} points but no innings before the record: "
        "they count as 0, so {player}'s averages are too high; give the start innings too "
        "(--start-innings, or the match file's or the manifest's)"
    ),
    "first_contradicted": (
        "--first contradicts the video (the video shows {player}'s {ball} played first, not "
        "{expected}'s {other}): following the video; use --first {player}"
    ),
}
#: Fields that hold a ball's name.
RUN_NOTE_BALL_FIELDS = frozenset({"ball", "other"})


@dataclass(frozen=True, slots=True)
class RunNote:
    """One keyed note: ``key`` of :data:`RUN_NOTE_ENGLISH` and its fields.

    Raises :class:`referee.RulesError` for an unknown key or other fields than its
    English names.
    """

    key: str
    fields: tuple[tuple[str, str | int], ...] = ()

    def __post_init__(self) -> None:
        if self.key not in RUN_NOTE_ENGLISH:
            raise RulesError(f"run note {self.key!r} unknown")
        want = {f for _, f, _, _ in string.Formatter().parse(RUN_NOTE_ENGLISH[self.key]) if f}
        if {name for name, _ in self.fields} != want:
            raise RulesError(f"run note {self.key}: fields {self.fields}, expected {sorted(want)}")

    @classmethod
    def of(cls, key: str, **fields: str | int) -> RunNote:
        """``RunNote(key, fields)`` from keyword fields (in sorted order)."""
        plain = {k: v if isinstance(v, int) else str(v) for k, v in fields.items()}
        return cls(key, tuple(sorted(plain.items())))

    def english(self) -> str:
        """The note as the terminal and the summary say it."""
        return RUN_NOTE_ENGLISH[self.key].format_map(dict(self.fields))


def start_innings_notes(config: MatchConfig) -> list[RunNote]:
    """A note for each player the start score gives points made but no innings.

    The innings behind those points are unknown and count as 0 (averages too high):
    said, not assumed silently.
    """
    start = config.start
    if start is None:
        return []
    notes = []
    for player, board in start.board.items():
        made = board if config.countdown_from is None else config.countdown_from - board
        if made > 0 and player not in start.innings:
            notes.append(RunNote.of("start_innings_unknown", player=player, points=made))
    return notes

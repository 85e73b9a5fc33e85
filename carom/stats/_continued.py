"""A match recorded in several files counts once in a season.

A camera restarted mid-match, or a recording cut in two, gives two shot logs: the
first stops with the match under way, the second joined it in progress (``carom
analyze --start-score ...``, a match file's ``start``). Counted as two matches, the
players' points, innings and matches were counted twice (the second record carries the
first one's score). A log is taken as the continuation of an earlier one, in the order
the logs were found, when both are of the same discipline and players, the earlier one
stopped with the match under way (its replay complete) and the later one's start agrees
with where it stopped (:func:`referee.continues`: every player's board, and the
innings, sets, the player at the table and the run where it gives them). The two are
then one match: the points and innings of the first with what the second added to its
start, the better high run, the shot categories of both, and the result, phase and
sets of the second; its name is the parts' names joined with `` + ``, its path the
last part's. A later part may be continued again (a match in three files).
"""

from __future__ import annotations

from collections.abc import Sequence

from carom.stats._model import MatchFigures, PlayerMatch
from referee import MatchResult, average_text, continues

__all__ = ["join_continued"]


def join_continued(matches: Sequence[MatchFigures]) -> list[MatchFigures]:
    """``matches`` with each continuation merged into the match it takes up, in order."""
    out: list[MatchFigures] = []
    for later in matches:
        i = _taken_up(out, later)
        if i is None:
            out.append(later)
        else:
            out[i] = _merged(out[i], later)
    return out


def _taken_up(earlier: list[MatchFigures], later: MatchFigures) -> int | None:
    """The index of the latest match in ``earlier`` that ``later`` continues, if any."""
    if later.start is None:
        return None
    for i in range(len(earlier) - 1, -1, -1):
        m = earlier[i]
        same = m.discipline == later.discipline and m.players == later.players
        if same and m.end is not None and continues(later.start, m.end, later.players):
            return i
    return None


def _merged(first: MatchFigures, then: MatchFigures) -> MatchFigures:
    """One match: ``first``, then ``then`` (which joined it where ``first`` stopped)."""
    figures = tuple(_both(first.of(p), then.of(p)) for p in then.players)
    result = None
    if then.result is not None:
        result = MatchResult(
            players=then.players,
            points={f.player: f.points for f in figures},
            innings={f.player: f.innings for f in figures},
            high_run={f.player: f.high_run for f in figures},
            winner=then.result.winner,
            tied=then.result.tied,
        )
    return MatchFigures(
        path=then.path, name=f"{first.name} + {then.name}", discipline=then.discipline,
        players=then.players, phase=then.phase, winner=then.winner, draw=then.draw,
        tied=then.tied, figures=figures, result=result, error=then.error,
        unjudged=first.unjudged + then.unjudged, start=first.start, end=then.end,
        parts=(*(first.parts or (first.path,)), then.path),
    )  # fmt: skip


def _both(first: PlayerMatch, then: PlayerMatch) -> PlayerMatch:
    """A player's figures over both records: ``then``'s own added to ``first``'s."""
    points = first.points + then.points - then.carried_points
    innings = first.innings + then.innings - then.carried_innings
    return PlayerMatch(
        first.player, points, innings, average_text(points, innings),
        max(first.high_run, then.high_run), then.sets_won, then.match_points,
        first.categories + then.categories, first.carried_points, first.carried_innings,
    )  # fmt: skip

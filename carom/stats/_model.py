"""The figures of a season: shot categories, one match, one player over every match.

Plain frozen values; :mod:`carom.stats._collect` builds them from shot logs and the
renderers (text, CSV, HTML, JSON) only read them. Definitions: docs/stats.md.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from fractions import Fraction
from pathlib import Path

from referee import MatchConfig, MatchResult, Phase, Standing, StartState

__all__ = ["MatchFigures", "PlayerMatch", "PlayerSeason", "SeasonStats", "ShotCategories"]


@dataclass(frozen=True, slots=True)
class ShotCategories:
    """What one player's shots were, counted (definitions: docs/stats.md).

    ``shots``: every shot the referee judged for the player. A shot the log gives no
    event for counts only in ``shots`` and ``without_events``. Of the others:
    ``scoring`` (points > 0), ``misses`` (no points and no foul), ``fouls`` (foul name
    -> how many times it was called: a shot may call two), ``review`` (the verdict asks
    for a person's look), ``breaks`` (judged as a break). The cue ball's opening, carom
    disciplines only (three-cushion, one-cushion, straight-rail, balkline): the cushions
    it touched before its first ball contact, 0 (``ball_first``), 1, 2, 3 or more; a
    cue ball that touched no ball is ``no_ball_contact``.
    """

    shots: int = 0
    without_events: int = 0
    scoring: int = 0
    misses: int = 0
    fouls: Mapping[str, int] = field(default_factory=dict)
    review: int = 0
    breaks: int = 0
    ball_first: int = 0
    cushion_first_1: int = 0
    cushion_first_2: int = 0
    cushion_first_3plus: int = 0
    no_ball_contact: int = 0

    @property
    def foul_total(self) -> int:
        """Fouls called, every name."""
        return sum(self.fouls.values())

    def counts(self) -> dict[str, int]:
        """Every count but the fouls by name, in field order (names as in the CSV)."""
        return {f.name: getattr(self, f.name) for f in fields(self) if f.name != "fouls"}

    def __add__(self, other: ShotCategories) -> ShotCategories:
        mine, theirs = self.counts(), other.counts()
        fouls = dict(self.fouls)
        for name, n in other.fouls.items():
            fouls[name] = fouls.get(name, 0) + n
        summed = {k: mine[k] + theirs[k] for k in mine}
        return ShotCategories(fouls=dict(sorted(fouls.items())), **summed)


@dataclass(frozen=True, slots=True)
class PlayerMatch:
    """One player's figures in one match: the core's ``match_stats`` and the categories.

    ``average``: points / innings truncated to three decimals (``referee.average_text``);
    ``match_points``: 2 a win, 1 a share of a draw, 0 a loss; ``None`` until it is over.
    """

    player: str
    points: int
    innings: int
    average: str
    high_run: int
    sets_won: int
    match_points: int | None
    categories: ShotCategories


@dataclass(frozen=True, slots=True)
class MatchFigures:
    """One shot log replayed through the referee (``carom score`` gives the same numbers).

    ``name``: the log's folder name (``DIR/<video>/shots.json``) or its file name without
    ``.shots.json`` / ``.json``. ``phase``: ``over``, ``playing`` or ``lag``. ``error``:
    why the replay stopped before the log's end (the shots judged before it count);
    ``unjudged``: the log's shots after that stop. ``result``: the finished match as the
    standings read it (``None`` while in progress). ``start``: where the record joined
    the match (``None``: at its start); ``end``: where it stopped, the match still under
    way (``None``: over, or stopped by a refusal). ``parts``: the logs of a match
    recorded in several files, in play order (:mod:`carom.stats._continued`); empty for
    one file, ``path``. ``config``: the set-up the log was judged under.
    """

    path: Path
    name: str
    discipline: str
    players: tuple[str, ...]
    phase: str
    winner: str | None
    draw: bool
    tied: tuple[str, ...]
    figures: tuple[PlayerMatch, ...]
    result: MatchResult | None = None
    error: str | None = None
    unjudged: int = 0
    start: StartState | None = None
    end: StartState | None = None
    parts: tuple[Path, ...] = ()
    config: MatchConfig | None = None

    @property
    def finished(self) -> bool:
        """The match is over (won or drawn)."""
        return self.phase == Phase.OVER.value

    def of(self, player: str) -> PlayerMatch:
        """``player``'s figures in this match (KeyError when they did not play it)."""
        for f in self.figures:
            if f.player == player:
                return f
        raise KeyError(player)


@dataclass(frozen=True, slots=True)
class PlayerSeason:
    """One player in one discipline over the season's matches of it (docs/stats.md).

    ``discipline``: the matches' discipline (a player of two disciplines has two: the
    averages of three-cushion and straight rail do not mix). ``rank``: 1 the best of
    that discipline. ``totals``: the core's :class:`referee.Standing` over the analysed
    matches of the discipline: ``matches`` (logs with the player in), ``points``,
    ``innings``, ``high_run``; ``match_points`` and ``best_average`` from the finished
    ones (the best single-match average in a finished match won or drawn, rules §5, from
    ``referee.standings``; 0 without one). ``finished``, ``won``/``drawn``/``lost``: the
    finished matches. The categories: every analysed match, finished or not.
    """

    discipline: str
    rank: int
    totals: Standing
    finished: int
    won: int
    drawn: int
    lost: int
    points_by_discipline: Mapping[str, int]
    categories: ShotCategories

    @property
    def player(self) -> str:
        """The player's name."""
        return self.totals.player

    @property
    def matches(self) -> int:
        """Matches analysed with the player in."""
        return self.totals.matches

    @property
    def match_points(self) -> int:
        """2 a win, 1 a draw, over the finished matches."""
        return self.totals.match_points

    @property
    def points(self) -> int:
        """Points over every analysed match."""
        return self.totals.points

    @property
    def innings(self) -> int:
        """Innings over every analysed match."""
        return self.totals.innings

    @property
    def high_run(self) -> int:
        """The high run over every analysed match."""
        return self.totals.high_run

    @property
    def best_average(self) -> Fraction:
        """BA as a fraction (0 without a finished match won or drawn)."""
        return self.totals.best_average

    @property
    def general_average(self) -> str:
        """GA: points / innings over every analysed match, truncated to three decimals."""
        return self.totals.general_average

    @property
    def best_average_text(self) -> str:
        """BA, truncated to three decimals."""
        return self.totals.best_average_text

    def rank_key(self) -> tuple[int, Fraction, Fraction, int]:
        """As ``referee.Standing.sort_key``: match points, then GA, BA, HR (descending)."""
        return self.totals.sort_key()

    def figures(self) -> tuple[int | str, ...]:
        """The season's figures in the tables' order (the text table, the CSV, the page).

        Matches, finished, won, drawn, lost, match points, points, innings, GA, BA, HR.
        """
        return (self.matches, self.finished, self.won, self.drawn, self.lost,
                self.match_points, self.points, self.innings, self.general_average,
                self.best_average_text, self.high_run)  # fmt: skip


@dataclass(frozen=True, slots=True)
class SeasonStats:
    """Every match read, the players ranked, and the logs skipped (unread, or read already).

    ``matches`` in the order the logs were found; ``players`` best first;
    ``skipped``: (path, one-line reason).
    """

    matches: tuple[MatchFigures, ...]
    players: tuple[PlayerSeason, ...]
    skipped: tuple[tuple[Path, str], ...] = ()

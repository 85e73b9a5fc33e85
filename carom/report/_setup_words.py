"""A match's set-up in words: the terms its shots were judged under.

A referee or a club official checks a result against them: what each player played to
(a handicap gives each their own target; the 7-pin game counts down from its start
count), the sets, the innings limit, the equalizing inning where the game has one, the
table, the rule options changed from their defaults (named as in a match file), and
where a record joined a match already under way. A club official found a 7-pin game
played down from 500, or a handicap, nowhere on the sheet or in the report.

The words are the report's catalogue (``setup_*``): the scoresheet says them in English,
the report in its language, with its numbers. Rule options keep the names and values a
match file gives them (``corner_zone_limit 1``), to be looked up in docs/rules-options.md;
``follow_cue_ball``, which ``carom analyze``, ``live`` and ``serve`` turn on themselves, is
said in words (it read "rules changed: follow_cue_ball true" on every camera's match,
which told a club its rules were wrong).
"""

from __future__ import annotations

import json
from collections.abc import Callable

from carom.i18n import catalogue, format_number
from carom.match import TABLE_PRESETS
from referee import MatchConfig, RuleOptions, StartState, Table, rules_of

__all__ = ["setup_line", "setup_terms", "setup_terms_in"]

#: A catalogue message filled in: ``text(key, **fields)``.
Text = Callable[..., str]
#: A number as the language writes it: ``num(value, decimals)``.
Num = Callable[[float, int], str]


def setup_line(cfg: MatchConfig) -> str:
    """The scoresheet's line: ``set-up: to 40 points; equalizing inning ...; match table ...``."""

    def english(key: str, **fields: object) -> str:
        return catalogue("report").text("en", key, **fields)

    def plain(value: float, decimals: int) -> str:
        return f"{value:.{decimals}f}"

    return "set-up: " + "; ".join(setup_terms(cfg, english, plain))


def setup_terms_in(cfg: MatchConfig, lang: str) -> list[str]:
    """:func:`setup_terms` in language ``lang`` (the report's words and numbers, unescaped).

    The web history's match panel shows them (``GET /api/matches/{id}``'s ``setup``).
    """

    def words(key: str, **fields: object) -> str:
        return catalogue("report").text(lang, key, **fields)

    def number(value: float, decimals: int) -> str:
        return format_number(lang, value, decimals)

    return setup_terms(cfg, words, number)


def setup_terms(cfg: MatchConfig, text: Text, num: Num) -> list[str]:
    """Each term of ``cfg``'s set-up in the words of ``text`` (a catalogue's), ``num``'s numbers."""
    terms = [_goal(cfg, text, num)]
    if cfg.sets > 1:
        terms.append(text("setup_sets", n=num(cfg.sets, 0)))
    if cfg.innings_limit is not None:
        terms.append(text("setup_innings_limit", n=num(cfg.innings_limit, 0)))
    if rules_of(cfg.discipline).equalizing_inning:
        terms.append(_equalizing(cfg, text))
    terms.append(_table(cfg.table, text, num))
    default = RuleOptions().as_dict()
    options = cfg.options.as_dict()
    if options.pop("follow_cue_ball"):  # what a camera's set-up turns on: said in words
        terms.append(text("setup_follow_cue_ball"))
    changed = [f"{k} {json.dumps(v)}" for k, v in options.items() if v != default[k]]
    if changed:
        terms.append(text("setup_rules", rules=", ".join(changed)))
    if cfg.start is not None:
        terms.append(_joined(cfg, cfg.start, text, num))
    return terms


def _goal(cfg: MatchConfig, text: Text, num: Num) -> str:
    if cfg.countdown_from is not None:
        return text("setup_countdown", count=num(cfg.countdown_from, 0))
    targets = [cfg.target[p] for p in cfg.players]
    handicap = len(set(targets)) > 1
    each = ", ".join(f"{p} {num(t, 0)}" for p, t in zip(cfg.players, targets, strict=True))
    if not handicap and targets[0] == 1:  # "to 1 points"
        goal = text("setup_target_one")
    else:
        goal = text("setup_target", target=each if handicap else num(targets[0], 0))
    if cfg.sets > 1:
        goal = text("setup_per_set", goal=goal)
    return text("setup_handicap", goal=goal) if handicap else goal


def _equalizing(cfg: MatchConfig, text: Text) -> str:
    if not cfg.equalizes:
        return text("setup_no_equalizing")
    return text("setup_equalizing_break" if cfg.equalizing_from_break else "setup_equalizing")


def _table(table: Table, text: Text, num: Num) -> str:
    """``match table 2840x1420 mm`` (a named size), else the size and the balls'."""
    size = (
        f"{num(table.length_mm, _places(table.length_mm))}x"
        f"{num(table.width_mm, _places(table.width_mm))} mm"
    )
    dims = (table.length_mm, table.width_mm, table.ball_diameter_mm)
    name = next((n for n, s in TABLE_PRESETS.items() if s == dims), None)
    if name is None:
        ball = num(table.ball_diameter_mm, _places(table.ball_diameter_mm))
        return text("setup_table_other", size=size, ball=ball)
    return text(f"setup_table_{name}", size=size)


def _places(mm: float) -> int:
    """Decimals that show a size as given: 2840, 61.5, 2764.25."""
    return next((d for d in range(3) if round(mm, d) == mm), 3)


def _joined(cfg: MatchConfig, start: StartState, text: Text, num: Num) -> str:
    """Where the record began: the board, innings, sets, the breaker, who was at the table.

    Nothing known (a match joined because no lag was seen): the board before is not known,
    and the line says so rather than "at 0 : 0" (the count down from, in the 7-pin game).
    """
    if start == StartState():
        if cfg.countdown_from is not None:  # the 7-pin game: each board from its count
            return text("setup_joined_unknown_countdown", count=num(cfg.countdown_from, 0))
        return text("setup_joined_unknown")
    players = cfg.players
    board = " : ".join(num(start.board.get(p, 0), 0) for p in players)
    innings = " : ".join(num(start.innings.get(p, 0), 0) for p in players)
    words = [text("setup_joined", board=board, innings=innings)]
    if start.set_index:
        words.append(text("setup_joined_set", n=num(start.set_index + 1, 0)))
    if cfg.sets > 1 and (start.set_index or start.sets_won):
        won = " : ".join(num(start.sets_won.get(p, 0), 0) for p in players)
        words.append(text("setup_joined_sets_won", sets=won))
    if start.breaker is not None:
        words.append(text("setup_breaker", player=start.breaker))
    if start.shooter is not None and start.run:
        words.append(text("setup_at_table_run", player=start.shooter, run=num(start.run, 0)))
    elif start.shooter is not None:
        words.append(text("setup_at_table", player=start.shooter))
    if start.next_break:
        words.append(text("setup_next_break"))
    return ", ".join(words)

"""The match options of ``carom analyze``, ``live`` and ``serve``: ``--match`` and flags.

One syntax in every command: ``--players A,B`` (two words, ``--players A B``, mean the
same), ``--first NAME``, ``--target N`` or ``--target A=40,B=30`` (handicap),
``--discipline``, ``--table``, and for a match joined in progress ``--start-score
A=12,B=7``, ``--start-innings A=10,B=9``, ``--start-shooter NAME``, ``--start-run N``,
``--start-breaker NAME``, ``--start-set N`` (counted from 1), ``--start-sets-won A=1,B=0``
and ``--start-break yes|no``. A flag overrides the file; ``--players`` renames the
file's players in order. Each error is one line naming the flag and the fix.
"""

from __future__ import annotations

import argparse
import unicodedata
from dataclasses import replace
from pathlib import Path
from typing import Any

from carom.match._file import (
    MatchFile,
    MatchFileError,
    default_table,
    parse_table,
)
from carom.match._file_read import MAX_COUNT, load_match_file
from referee import MAX_PLAYERS, Discipline, StartState, Table, rules_of

__all__ = [
    "add_match_options",
    "match_from_args",
    "parse_discipline",
    "parse_players",
    "parse_scores",
    "table_of",
]

#: A number in a flag: no more digits than a match file or a shot log may hold
#: (docs/match-file.md), so that what analyze writes, carom score reads.
_MAX_DIGITS = 30
_START_FLAGS = ("start_score", "start_innings", "start_shooter", "start_run",
                "start_breaker", "start_set", "start_sets_won", "start_break")  # fmt: skip


def add_match_options(p: argparse.ArgumentParser) -> None:
    """``--match`` and the flags that override it (analyze, live and serve)."""
    p.add_argument("--match", type=Path, metavar="FILE",
                   help="match file (TOML, or JSON; docs/match-file.md); the flags below "
                   "override it")  # fmt: skip
    p.add_argument("--discipline", help="the game: " + ", ".join(Discipline)
                   + " (default three-cushion)")  # fmt: skip
    p.add_argument("--table", help="table preset (match, small, large, pyramid) or "
                   "LENGTHxWIDTH in mm (default: match = 2840x1420; pyramid for "
                   "pin-carom-7)")  # fmt: skip
    p.add_argument("--players", nargs="+", metavar="A,B",
                   help="the players in order of play, 2 to 8, comma-separated (A B works "
                   "too); with two, player 1 plays white, player 2 yellow; with more, the "
                   "whites rotate (default A,B)")  # fmt: skip
    p.add_argument("--first", metavar="NAME",
                   help="the player who breaks (default: the lag; none seen: joined in "
                   "progress)")  # fmt: skip
    p.add_argument(
        "--target",
        metavar="N|A=N,B=M",
        help="points to win: one number, or one per player (default by discipline); in "
        "pin-carom-7 one number, the count each player plays down from (its start_count)",
    )
    g = p.add_argument_group("joining a match in progress (the file's [start])")
    g.add_argument("--start-score", metavar="A=N,B=M", help="what the scoreboard shows")
    g.add_argument("--start-innings", metavar="A=N,B=M", help="innings each player has begun")
    g.add_argument("--start-shooter", metavar="NAME", help="who is at the table")
    g.add_argument("--start-run", metavar="N", help="points of the inning under way")
    g.add_argument("--start-breaker", metavar="NAME", help="who broke this game")
    g.add_argument("--start-set", metavar="N", help="the set under way, counted from 1")
    g.add_argument("--start-sets-won", metavar="A=N,B=M", help="sets won so far")
    g.add_argument("--start-break", choices=("yes", "no"),
                   help="the first stroke is a break (yes) or not (no); default: the balls "
                   "tell")  # fmt: skip


def match_from_args(args: argparse.Namespace) -> MatchFile:
    """The match file of ``--match`` (or the defaults) with the flags over it.

    Raises:
        MatchFileError: the file or a flag is wrong (one line naming it).
    """
    match = load_match_file(args.match) if args.match is not None else MatchFile()
    if args.discipline is not None:
        match = replace(match, discipline=parse_discipline(args.discipline))
    if args.players is not None:
        match = match.renamed(parse_players(args.players))
    if args.table is not None:
        match = replace(match, table=parse_table(args.table, match.discipline))
    if args.first is not None:
        match = replace(match, first_player=_player(args.first, "--first", match))
    if args.target is not None:
        match = _with_target(match, _target(args.target, match.players))
    if any(getattr(args, k) is not None for k in _START_FLAGS):
        match = replace(match, start=_start(args, match))
    try:
        return match.checked()
    except MatchFileError as exc:
        where = f"--match {args.match} with the flags" if args.match else "the flags"
        raise MatchFileError(f"{exc} (from {where})") from None


def table_of(match: MatchFile) -> Table:
    """The match's table (the discipline's when the file and flags name none)."""
    return match.table or default_table(match.discipline)


def parse_discipline(text: str) -> Discipline:
    """``--discipline`` as a :class:`referee.Discipline`; a one-line error if unknown."""
    try:
        return Discipline(text)
    except ValueError:
        names = ", ".join(d.value for d in Discipline)
        raise MatchFileError(f"--discipline: unknown {text!r} (one of: {names})") from None


def parse_players(words: list[str]) -> tuple[str, ...]:
    """``--players A,B`` (or ``A B``; ``A,B,C`` for three): 2 to 8 different names in order."""
    names = [n.strip() for w in words for n in w.split(",")] if len(words) == 1 else words
    names = [n.strip() for n in names]
    bad = not 2 <= len(names) <= MAX_PLAYERS or not all(names) or len(set(names)) != len(names)
    if bad or any("," in n for n in names):
        given = " ".join(words)
        raise MatchFileError(
            f"--players: expected 2 to {MAX_PLAYERS} different names in the order of play "
            f"like A,B or A,B,C (or A B C), got {given!r}"
        )
    if len(words) > 2 and _is_file(words[-1]):  # ``--players A B VIDEO``: the video a name
        raise MatchFileError(f"--players: {words[-1]!r} is a file here, not a player's name; "
                             f"give the names with commas (--players {','.join(words[:-1])}) "
                             "or put the videos before --players")  # fmt: skip
    for name in names:
        if any(unicodedata.category(c) in ("Cc", "Zl", "Zp") for c in name):
            # A line break or a tab breaks every table printed (a joiner in a name is kept).
            raise MatchFileError(f"--players: {name!r} holds a control character (a line "
                                 "break, a tab); give the name on one line")  # fmt: skip
    return tuple(names)


def _is_file(name: str) -> bool:
    """``name`` is a file here (a player named like a folder, a team's, is not refused)."""
    try:
        return Path(name).is_file()
    except (OSError, ValueError):  # a name too long for a path, a NUL
        return False


def parse_scores(text: str, flag: str, players: tuple[str, ...]) -> dict[str, int]:
    """``A=12,B=7``: a whole number >= 0 for some or all players."""
    out: dict[str, int] = {}
    for part in text.split(","):
        name, eq, value = part.partition("=")
        name = name.strip()
        if eq and _digits(value) and len(value.strip()) > _MAX_DIGITS:
            raise MatchFileError(f"{flag}: {name}'s number has more than {_MAX_DIGITS} digits")
        if not eq or not _digits(value):
            raise MatchFileError(f"{flag}: expected NAME=N,NAME=N like "
                                 f"{players[0]}=12,{players[1]}=7, got {text!r}")  # fmt: skip
        if name not in players or name in out:
            raise MatchFileError(f"{flag}: {name!r} is not one of the players "
                                 f"{', '.join(players)} (or is given twice)")  # fmt: skip
        out[name] = int(value)
    return out


def _digits(text: str) -> bool:
    return text.strip().isascii() and text.strip().isdigit()


def _number(text: str, flag: str, lo: int) -> int:
    if _digits(text) and len(text.strip()) > _MAX_DIGITS:
        raise MatchFileError(f"{flag}: more than {_MAX_DIGITS} digits; give a whole number >= {lo}")
    if not _digits(text) or int(text) < lo:
        raise MatchFileError(f"{flag}: expected a whole number >= {lo}, got {text!r}")
    return int(text)


def _player(name: str, flag: str, match: MatchFile) -> str:
    if name not in match.players:
        names = ", ".join(match.players)
        raise MatchFileError(f"{flag}: {name!r} is not one of the players {names} "
                             "(names as in --players or the match file)")  # fmt: skip
    return name


def _with_target(match: MatchFile, target: dict[str, int]) -> MatchFile:
    """``--target`` over ``match``: in the 7-pin game, one number is the starting count.

    The 7-pin board counts down from ``start_count`` (a target there is not used, and
    ``--target 500`` was taken and ignored: the game counted down from 300).
    """
    if not rules_of(match.discipline).countdown:
        return replace(match, target=target)
    counts = set(target.values())
    if len(counts) > 1:
        raise MatchFileError(f"--target: {match.discipline} counts every player down from "
                             "one start count; give one number")  # fmt: skip
    return replace(match, start_count=counts.pop())


def _target(text: str, players: tuple[str, ...]) -> dict[str, int]:
    if "=" not in text:
        target = dict.fromkeys(players, _number(text, "--target", 1))
    else:
        target = parse_scores(text, "--target", players)
    if set(target) != set(players) or 0 in target.values():
        raise MatchFileError(f"--target: give every player at least 1 point, like "
                             f"{players[0]}=40,{players[1]}=30; got {text!r}")  # fmt: skip
    if max(target.values()) > MAX_COUNT:
        raise MatchFileError(f"--target: at most {MAX_COUNT} points, got {text!r}")
    return target


def _start(args: argparse.Namespace, match: MatchFile) -> StartState:
    """The file's ``start`` (or none) with each ``--start-*`` flag given over it."""
    start = match.start or StartState()
    players = match.players
    changes: dict[str, Any] = {}
    for flag, key in (("score", "board"), ("innings", "innings"), ("sets_won", "sets_won")):
        if (text := getattr(args, f"start_{flag}")) is not None:
            given = parse_scores(text, "--start-" + flag.replace("_", "-"), players)
            changes[key] = {**getattr(start, key), **given}
    for flag in ("shooter", "breaker"):
        if (name := getattr(args, f"start_{flag}")) is not None:
            changes[flag] = _player(name, f"--start-{flag}", match)
    if args.start_run is not None:
        changes["run"] = _number(args.start_run, "--start-run", 0)
    if args.start_set is not None:
        changes["set_index"] = _number(args.start_set, "--start-set", 1) - 1
    if args.start_break is not None:
        if args.start_break not in ("yes", "no"):  # a manifest's field is no argparse choice
            raise MatchFileError(f"--start-break: expected yes or no, got {args.start_break!r}")
        changes["next_break"] = args.start_break == "yes"
    return replace(start, **changes)

"""A match recorded in several files counts once in a season.

A camera restarted mid-match, or a recording cut in two, gives two shot logs: the
first stops with the match under way, the second joined it in progress (``carom
analyze --start-score ... --start-innings ...``, a match file's ``start``). Counted as
two matches, the players' points, innings and matches were counted twice (the second
record carries the first one's score).

A log is taken as the continuation of an earlier one, in the order the logs were
found, when both have the same set-up (discipline, players in order, targets, sets,
innings limit, rules, table; the start and the first player aside), the earlier one
stopped with the match under way (its replay complete), and the later one's start
agrees with where it stopped (:func:`referee.continues`: every player's score and
innings, and the set, the sets won, the player at the table with his run, the breaker
and the break position where it gives them). The parts are then replayed as one log,
the earlier one's set-up and lag followed by every part's shots, so the whole match is
judged as it was played (the breaker, an inning or a run across the cut, the
equalizing inning, a zone's count): one match, its name the parts' names joined with
`` + ``, its path the last part's. Where that replay refuses a shot, the parts stay
apart as before. A later part may be continued again (a match in three files).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from carom.match import load_json, score_document
from carom.stats._figures import match_figures, shots_by_index
from carom.stats._model import MatchFigures
from referee import CaromError, MatchConfig, continues

__all__ = ["join_continued"]


def join_continued(matches: Sequence[MatchFigures]) -> list[MatchFigures]:
    """``matches`` with each continuation merged into the match it takes up, in order."""
    out: list[MatchFigures] = []
    for later in matches:
        i = _taken_up(out, later)
        whole = None if i is None else _replayed_whole(out[i], later)
        if i is None or whole is None:
            out.append(later)
        else:
            out[i] = whole
    return out


def _taken_up(earlier: list[MatchFigures], later: MatchFigures) -> int | None:
    """The index of the latest match in ``earlier`` that ``later`` continues, if any."""
    if later.start is None or later.config is None:
        return None
    for i in range(len(earlier) - 1, -1, -1):
        m = earlier[i]
        if m.end is None or m.config is None or _setup(m.config) != _setup(later.config):
            continue
        if continues(later.start, m.end, later.players):
            return i
    return None


def _setup(config: MatchConfig) -> MatchConfig:
    """What two parts of one match share: the set-up without its start and first player."""
    return replace(config, start=None, first_player=None)


def _replayed_whole(first: MatchFigures, then: MatchFigures) -> MatchFigures | None:
    """The parts of ``first`` and ``then`` replayed as one log; None if it refuses a shot."""
    parts = (*(first.parts or (first.path,)), then.path)
    try:
        docs = [load_json(p) for p in parts]
        doc: dict[str, Any] = dict(docs[0])
        items = [item for d in docs for item in d["shots"]]
        doc["shots"] = [{**item, "index": k} for k, item in enumerate(items)]
        run = score_document(doc)
        shots = shots_by_index(doc["shots"])
    except (CaromError, OSError, KeyError, TypeError):
        return None  # a part too large to read whole, or unreadable now
    if run.error is not None or len(run.match.records) != len(items):
        return None
    name = f"{first.name} + {then.name}"
    return match_figures(run, shots, len(items), then.path, name, parts)

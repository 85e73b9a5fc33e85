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
`` + ``, its path the last part's. Each video's clock starts at 0: a later part whose
times begin before the earlier's last is moved to follow it (1 s after), every time in
it alike, so the replay's "shots in time order" holds (the two parts of a match cut in
two videos were never joined). Where that replay refuses a shot, the parts stay apart
as before. A later part may be continued again (a match in three files).
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
        items = _one_clock([list(d["shots"]) for d in docs])
        doc["shots"] = [{**item, "index": k} for k, item in enumerate(items)]
        run = score_document(doc)
        shots = shots_by_index(doc["shots"])
    except (CaromError, OSError, KeyError, TypeError):
        return None  # a part too large to read whole, or unreadable now
    if run.error is not None or len(run.match.records) != len(items):
        return None
    name = f"{first.name} + {then.name}"
    return match_figures(run, shots, len(items), then.path, name, parts)


#: The gap (s) put between the parts of a match whose clocks both start at 0.
PART_GAP_S = 1.0


def _one_clock(parts: list[list[Any]]) -> list[Any]:
    """The parts' shots in one list, each part moved to begin after the one before ended."""
    out: list[Any] = []
    for shots in parts:
        before, first = _times(out), _times(shots)
        if before and first and min(first) < max(before):
            shots = [_shifted(s, max(before) + PART_GAP_S - min(first)) for s in shots]
        out += shots
    return out


def _times(shots: list[Any]) -> list[float]:
    """Every time (s) the shots give: their start and end, their events'."""
    out: list[float] = []
    for s in shots:
        if isinstance(s, dict):
            found = [s.get("start_s"), s.get("end_s")]
            found += [e.get("t_s") for e in s.get("events") or () if isinstance(e, dict)]
            out += [
                float(t) for t in found if isinstance(t, int | float) and not isinstance(t, bool)
            ]
    return out


def _shifted(item: Any, by_s: float) -> Any:
    """``item`` (a shot, or anything in it) with every time in it ``by_s`` later.

    Times: ``start_s``, ``end_s`` and ``t_s`` wherever they are (events, a review
    decision's events), and the first of each path sample ``[t_s, x_mm, y_mm]``.
    """
    if isinstance(item, list):
        return [_shifted(x, by_s) for x in item]
    if not isinstance(item, dict):
        return item
    out = {}
    for key, value in item.items():
        if key in ("start_s", "end_s", "t_s") and _number(value):
            out[key] = value + by_s
        elif key == "paths_mm" and isinstance(value, dict):
            out[key] = {b: [_later_sample(p, by_s) for p in samples or ()]
                        for b, samples in value.items()}  # fmt: skip
        else:
            out[key] = _shifted(value, by_s)
    return out


def _later_sample(sample: Any, by_s: float) -> Any:
    """A path sample ``[t_s, x_mm, y_mm]`` ``by_s`` later (anything else as it is)."""
    if isinstance(sample, list) and sample and _number(sample[0]):
        return [sample[0] + by_s, *sample[1:]]
    return sample


def _number(value: Any) -> bool:
    return isinstance(value, int | float) and not isinstance(value, bool)

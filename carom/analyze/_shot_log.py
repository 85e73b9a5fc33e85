"""The analysed shots judged one by one, and the ``carom-shots/1`` log written from them."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from carom.analyze._options import AnalyzeRun
from carom.analyze._run_notes import RunNote
from carom.trajectories import Trajectories, trajectories_of
from referee import (
    FORMAT,
    Ball,
    LagRule,
    Phase,
    ReasonKey,
    RuleOptions,
    ShotRecord,
    StartState,
    event_json,
    record_json,
    rules_of,
    shot_json,
    start_json,
)
from vision import AnalyzedShot, lag_of

__all__ = ["judge_shot", "shot_trajectories", "shots_document"]


def judge_shot(run: AnalyzeRun, analyzed: AnalyzedShot) -> ShotRecord | None:
    """Feed one analysed shot to the match.

    A lag seen before the first stroke decides who breaks. Without one the match is
    joined in progress (the first stroke's cue ball names the player at the table,
    its layout says whether it is a break): nothing is assumed.
    """
    state = run.match.state
    lag = lag_of(analyzed)
    if lag is not None and not run.match.records:
        if state.phase is Phase.LAG:
            run.lag = run.match.lag(lag)
            return None
        by_start = state.shooter is None  # a start that leaves the shooter to the stroke
        key = "lag_not_judged_start" if by_start else "lag_not_judged"
        run.note(RunNote.of(key, **({} if by_start else {"player": str(state.shooter)})))
        return None
    joins = state.phase is Phase.LAG
    if joins:
        run.match.join(StartState())
        run.joined = True
    if run.match.state.phase is Phase.OVER:
        run.note(RunNote.of("after_end", shot=str(analyzed.shot.index)))  # a name, not a count
        return None
    record: ShotRecord | None = None
    try:
        record = run.match.play(_renumbered(analyzed, len(run.match.records)))
    finally:
        if joins:  # said whether the stroke was judged or refused
            run.note(RunNote.of(_join_note(run, record)))
    video_first = [p for p in record.note_parts if p.key is ReasonKey.NOTE_VIDEO_FIRST]
    if record.index == 0 and video_first:
        fields = video_first[0].field_map()
        run.note(RunNote.of("first_contradicted", **fields))
    return record


def _join_note(run: AnalyzeRun, first: ShotRecord | None) -> str:
    """The note's key when the first stroke (``first``, None: refused) joins the match.

    Why no lag decided who breaks, and whether the stroke's ball named its player.
    """
    if run.lag is not None:
        return "lag_again"  # a lag judged "lag again", not played again
    if rules_of(run.match.state.config.discipline).lag is LagRule.ENTERED:
        return "no_lag_entered"  # the 7-pin game: no lag on the table to see
    review = () if first is None else first.verdict.review_parts
    if any(p.key in _NOBODY_KNOWN for p in review):
        return "no_lag_unnamed"  # shared or rotating balls: a player assumed, reviewed
    return "no_lag"


#: The reviews of a first stroke whose ball could not name the player at the table.
_NOBODY_KNOWN = frozenset({
    ReasonKey.REVIEW_NOBODY_SHARED, ReasonKey.REVIEW_NOBODY_SHARED_ALL,
    ReasonKey.REVIEW_NOBODY_ROTATE, ReasonKey.REVIEW_NOBODY_MANY, ReasonKey.REVIEW_NOBODY_NONE,
})  # fmt: skip


def _renumbered(analyzed: AnalyzedShot, index: int) -> Any:

    return replace(analyzed.shot, index=index)


def shots_document(run: AnalyzeRun) -> dict[str, Any]:
    """The ``carom-shots/1`` log of what was analysed, verdicts attached."""
    cfg = run.match.state.config
    shots = []
    for analyzed, record in run.shots:
        if record is None:
            continue
        doc = shot_json(_renumbered(analyzed, record.index))
        confidence = {id(s.event): s for s in analyzed.scored}
        for event_doc, event in zip(doc["events"], analyzed.shot.events, strict=True):
            if (s := confidence.get(id(event))) is not None:
                event_doc["confidence"] = round(s.confidence, 3)
                if s.evidence:
                    event_doc["evidence"] = s.evidence
        doc["verdict"] = record_json(record)
        shots.append(doc)
    out: dict[str, Any] = {
        "format": FORMAT,
        "table": {"length_mm": cfg.table.length_mm, "width_mm": cfg.table.width_mm,
                  "ball_diameter_mm": cfg.table.ball_diameter_mm},
        "discipline": str(cfg.discipline),
        "match": _match_doc(run),
        "shots": shots,
    }  # fmt: skip
    if (lag := _lag_doc(run)) is not None:
        out["lag"] = lag
    return out


def shot_trajectories(run: AnalyzeRun) -> Trajectories:
    """The trajectories of the shots :func:`shots_document` writes, with their indexes."""
    judged = [(record.index, analyzed) for analyzed, record in run.shots if record is not None]
    return trajectories_of(run.match.state.config.table, judged)


def _match_doc(run: AnalyzeRun) -> dict[str, Any]:
    """The log's ``match``: set-up, the rule options that differ, how the record began.

    ``carom score`` on the log then replays the very same match: the lag (its
    events), or the join of a match in progress (``start``).
    """
    cfg = run.match.state.config
    doc: dict[str, Any] = {"players": list(cfg.players), "first_player": cfg.first_player}
    if cfg.cue_balls:
        doc["cue_balls"] = {p: str(b) for p, b in cfg.cue_balls.items()}
    elif cfg.rotates and cfg.rotation_balls != (Ball.WHITE, Ball.YELLOW):
        doc["cue_balls"] = [str(b) for b in cfg.rotation_balls]  # the whites that rotate
    if len(set(cfg.target.values())) == 1:
        doc["target"] = next(iter(cfg.target.values()))
    else:
        doc["target"] = dict(cfg.target)
    # The rest of the set-up where it is not the default: a replay is the same match
    # (a 7-pin count from 500, best of 3, an innings limit were lost on replay).
    set_up = {"innings_limit": (cfg.innings_limit, None), "sets": (cfg.sets, 1),
              "equalizing": (cfg.equalizing, True), "start_count": (cfg.start_count, None),
              "equalizing_from_break": (cfg.equalizing_from_break, True)}  # fmt: skip
    doc |= {k: value for k, (value, default) in set_up.items() if value != default}
    defaults = RuleOptions().as_dict()
    rules = {k: v for k, v in cfg.options.as_dict().items() if defaults[k] != v}
    if rules:
        doc["rules"] = rules
    start = run.judged_setup().start
    if start is not None:
        doc["start"] = start_json(start)
    return doc


def _lag_doc(run: AnalyzeRun) -> dict[str, Any] | None:
    lags = [a.shot for a, r in run.shots if a.lag and r is None]
    if run.lag is None or run.joined or not lags:
        return None  # no lag, or none decided ("lag again" before the match was joined)
    lag = lags[-1]  # the one that decided (an undecided lag is played again)
    return {
        "events": [event_json(e) for e in lag.events],
        "start_positions_mm": {str(b): list(xy) for b, xy in lag.start_positions_mm.items()},
        "end_positions_mm": {str(b): list(xy) for b, xy in lag.end_positions_mm.items()},
    }

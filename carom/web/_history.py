"""Match history from the database: lists, scoresheets, player statistics, diagrams.

Every match is its journal replayed (:meth:`carom.live.LiveSession.load`); replays are
cached by (match id, journal version), so a list of finished matches costs one replay
each per server run, and the match on the table is replayed again only when it moved.
"""

from __future__ import annotations

import threading
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np
from fastapi import HTTPException

from calibration import TableGeometry
from carom.live import LiveSession, MatchStore, PlayStep, corrections_in_effect, judged_setup
from carom.report import diagram_svg, diagram_texts, legend_lines, setup_terms_in
from carom.web._state import record_doc, score_doc, stats_doc
from referee import (
    MatchResult,
    MatchState,
    Phase,
    Shot,
    ShotRecord,
    Verdict,
    average_text,
    match_stats,
    rules_of,
    standings,
)
from vision import BallTrack, ScoredEvent

__all__ = ["History", "shot_svg"]

_UNSERVED = "the history is not served from it"


class History:
    """Read-only views of the matches of a store (thread-safe, cached replays)."""

    def __init__(self, store: MatchStore) -> None:
        """The history of ``store``; HTTP 503 when the checks on open found it damaged."""
        if not store.health.sound:  # every history endpoint: one clear line, not a 500
            raise HTTPException(503, store.health.message(store.path, _UNSERVED))
        self.store = store
        self._cache: dict[int, tuple[int, LiveSession]] = {}
        self._lock = threading.Lock()

    def session(self, match_id: int) -> LiveSession:
        """Match ``match_id`` replayed (LiveError: no such match)."""
        row = self.store.match(match_id)
        with self._lock:
            hit = self._cache.get(match_id)
            if hit is not None and hit[0] == row.version:
                return hit[1]
        session = LiveSession.load(self.store, match_id, upto=row.version)
        with self._lock:
            self._cache[match_id] = (row.version, session)
        return session

    def summaries(self) -> list[dict[str, Any]]:
        """Every match, newest first: players, result, score."""
        return [self.summary(row.id) for row in reversed(self.store.matches())]

    def summary(self, match_id: int) -> dict[str, Any]:
        """One match's line of the history."""
        s = self.session(match_id)
        state = s.state
        return {
            "id": s.match_id, "created_at": s.created_at,
            "discipline": str(state.config.discipline), "players": list(state.config.players),
            "finished": state.phase is Phase.OVER, "winner": state.winner,
            "score": score_doc(state), "shots": len(s.records),
        }  # fmt: skip

    def detail(self, match_id: int, lang: str = "en") -> dict[str, Any]:
        """One match with its set-up (its terms in ``lang``), scoresheet and statistics.

        The scoresheet holds every shot in effect.
        """
        s = self.session(match_id)
        return self.summary(match_id) | {
            "setup": setup_terms_in(judged_setup(s), lang),
            "scoresheet": [
                record_doc(s.match_id, r) | _decided(p)
                for p, r in zip(_plays(s), s.records, strict=True)
            ],
            "stats": stats_doc(s.state),
            # carom-shots/1 has no place for them: export.json re-scores without them
            "corrections_not_in_export": len(corrections_in_effect(s)),
        }

    def player_stats(self) -> dict[str, dict[str, Any]]:
        """Per player over all matches, and per discipline (``disciplines``).

        Each: matches, points, innings, GA, BA, high run. The best average is of a
        finished match the player won or drew (rules.md §5, docs/stats.md), as ``carom
        stats`` gives it: it was the best of every match, lost and unfinished ones too.
        A general average over three-cushion and straight rail together says little:
        compare ``disciplines`` (``carom stats`` ranks each discipline apart).
        """
        states = [self.session(row.id).state for row in self.store.matches()]
        kinds = sorted({str(s.config.discipline) for s in states})
        whole = _figures(states)
        each = {k: _figures([s for s in states if s.config.discipline == k]) for k in kinds}
        return {p: {**f, "disciplines": {k: each[k][p] for k in kinds if p in each[k]}}
                for p, f in whole.items()}  # fmt: skip

    def shot(self, match_id: int, n: int) -> tuple[LiveSession, PlayStep, ShotRecord] | None:
        """Shot ``n`` (its number in the match) and its record, if it is in effect."""
        s = self.session(match_id)
        for play, record in zip(_plays(s), s.records, strict=True):
            if record.index == n:
                return s, play, record
        return None


def _figures(states: list[MatchState]) -> dict[str, dict[str, Any]]:
    """Each player's figures over ``states``: matches, points, innings, GA, BA, high run."""
    table: dict[str, dict[str, Any]] = {}
    results = [MatchResult.from_state(s) for s in states if s.phase is Phase.OVER]
    for state in states:
        for p, st in match_stats(state).items():
            t = table.setdefault(p, {"matches": 0, "points": 0, "innings": 0, "high_run": 0})
            t["matches"] += 1
            t["points"] += st.points
            t["innings"] += st.innings
            t["high_run"] = max(t["high_run"], st.high_run)
    best = {s.player: s.best_average_text for s in standings(results)}
    return {p: {"matches": t["matches"], "points": t["points"], "innings": t["innings"],
                "general_average": average_text(t["points"], t["innings"]),
                "best_average": best.get(p, average_text(0, 0)),
                "high_run": t["high_run"]}
            for p, t in sorted(table.items())}  # fmt: skip


def _plays(session: LiveSession) -> list[PlayStep]:
    """The shots in effect, in the order of ``session.records``."""
    return [op for op in session.ops if isinstance(op, PlayStep)]


def _decided(play: PlayStep) -> dict[str, Any]:
    """A scoresheet line's ``decided``: how a person settled the shot held for review."""
    d = play.decided
    if d is None:
        return {}
    return {"decided": {"decision": d.decision, "points": d.points, "by": d.who,
                        "at": d.at, "held_for": d.held_for}}  # fmt: skip


def _tracks(shot: Shot) -> dict[Any, BallTrack]:
    out = {}
    for ball, samples in shot.paths_mm.items():
        if len(samples) >= 2:
            xy_mm = np.asarray([[s[1], s[2]] for s in samples], dtype=np.float64)
            out[ball] = BallTrack.from_samples([s[0] for s in samples], xy_mm)
    return out


def _scored(shot: Shot, info: Mapping[int, tuple[float, str]]) -> Sequence[ScoredEvent]:
    out = []
    for i, e in enumerate(shot.events):
        conf, evidence = info.get(i, (0.5 if e.doubt else 1.0, ""))
        out.append(ScoredEvent(e, conf, evidence))
    return out


def shot_svg(session: LiveSession, shot: Shot, info: Mapping[int, tuple[float, str]],
             player: str, verdict: Verdict | None, lang: str = "en") -> str:  # fmt: skip
    """The shot's diagram: paths, numbered contacts and the verdict line in ``lang``."""
    cfg = session.state.config
    geometry = TableGeometry(cfg.table, pockets=rules_of(cfg.discipline).pockets)
    caption, words = diagram_texts(lang, player, verdict)
    return diagram_svg(geometry, _tracks(shot), _scored(shot, info), caption=caption,
                       words=words, line_of=legend_lines(lang), discipline=cfg.discipline,
                       options=cfg.options)  # fmt: skip

"""Run the vision pipeline on a rendered lag and judge what it saw against the truth.

One function for the lag tests and ``bench/lag_accuracy.py``: the clip goes through
``carom analyze``'s vision (automatic calibration, detection, tracking, events); the
first motion vision calls a lag becomes a :class:`referee.Lag`
(:func:`vision.lag_of`) judged by :func:`referee.judge_lag` in the truth's match (A
plays white, B yellow), and is compared with the truth's ``lag`` entry: the winner
and every player's faults must agree. The lag's events are scored too.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from carom._analyze import AnalyzeOptions
from carom._analyze_run import analyze_video
from referee import Discipline, LagResult, Table, judge_lag, parse_event
from synth._evaluate import EventScore, compare_events
from synth._lag import lag_config
from vision import lag_of

__all__ = ["LagCheck", "check_lag"]


@dataclass(frozen=True, slots=True)
class LagCheck:
    """What vision made of one rendered lag.

    ``seen`` is the referee's result of the lag vision found (None: no motion was
    taken for a lag); ``truth`` the truth file's ``lag`` entry.
    """

    name: str
    truth: dict[str, Any]
    seen: LagResult | None
    events: EventScore
    n_motions: int

    @property
    def faults_seen(self) -> dict[str, list[str]]:
        """Each player's faults as judged from vision ({} when no lag was seen)."""
        return {} if self.seen is None else {p: list(f) for p, f in self.seen.faults.items()}

    @property
    def right(self) -> bool:
        """The winner and each player's faults agree with the truth."""
        if self.seen is None:
            return False
        same_faults: bool = self.faults_seen == self.truth["faults"]
        return self.seen.winner == self.truth["winner"] and same_faults


def _table(truth: dict[str, Any]) -> Table:
    t = truth["table"]
    return Table(length_mm=t["length_mm"], width_mm=t["width_mm"],
                 ball_diameter_mm=2 * t["ball_radius_mm"])  # fmt: skip


def check_lag(video: Path, out: Path, detector: str = "auto") -> LagCheck:
    """Analyse the rendered lag ``video`` (truth beside it, same name ``.json``)."""
    truth = json.loads(video.with_suffix(".json").read_text())
    if "lag" not in truth:
        raise ValueError(f"{video}: its truth has no lag")
    discipline = Discipline(truth["extra"]["discipline"])
    opts = AnalyzeOptions(video=video, out=out, table=_table(truth), discipline=discipline,
                          first_player="A", detector=detector)  # fmt: skip
    run = analyze_video(opts)
    lags = [lag for shot, _ in run.shots if (lag := lag_of(shot)) is not None]
    seen = judge_lag(lags[0], lag_config(discipline, opts.table)) if lags else None
    true_events = [parse_event(e, f"lag.events[{i}]") for i, e in enumerate(truth["lag"]["events"])]
    found = list(lags[0].events) if lags else []
    return LagCheck(video.stem, truth["lag"], seen, compare_events(true_events, found),
                    len(run.shots))  # fmt: skip

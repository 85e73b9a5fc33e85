"""What ``carom analyze`` is asked to do (:class:`AnalyzeOptions`) and what it found so far."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from calibration import Calibration
from carom.analyze._run_notes import RunNote
from carom.match import MatchFile, ScoreRun
from carom.pipeline import Pipeline
from referee import (
    CaromError,
    Discipline,
    LagResult,
    Match,
    MatchConfig,
    ShotRecord,
    StartState,
    Table,
)
from vision import AnalyzedShot

__all__ = ["AnalyzeOptions", "AnalyzeRun", "Progress", "calibration_for", "match_config"]


@dataclass(frozen=True, slots=True, kw_only=True)
class AnalyzeOptions:
    """What ``carom analyze`` was asked to do."""

    video: Path
    out: Path
    table: Table
    discipline: Discipline = Discipline.THREE_CUSHION
    calibration: Path | None = None
    players: tuple[str, ...] = ("A", "B")
    first_player: str | None = None
    target: int | None = None
    annotate: bool = False
    #: Write ``trajectories.json`` and ``trajectories.csv`` beside the shot log.
    trajectories: bool = True
    fast_decode: bool = False
    #: ``color`` (colour rules), ``onnx`` (the learned model alone) or ``auto`` (the
    #: model only where the colour detector is unsure); see docs/detector.md.
    detector: str = "auto"
    #: The report's language (``carom.i18n.LANGUAGES``).
    lang: str = "en"
    #: The rest of the set-up (cue balls, handicaps, sets, rule options, the start of a
    #: match joined in progress ...): the match file and the flags over it. The fields
    #: above win where they differ (``match_config``).
    match: MatchFile = field(default_factory=MatchFile)

    def __post_init__(self) -> None:
        """The set-up is checked here, not after a calibration was fitted for it.

        Raises:
            RulesError: a rule of the set-up (one player, a first player not playing).
            VisionError: an unknown detector.
        """
        self.pipeline().config()

    def pipeline(self) -> Pipeline:
        """The pipeline description: the match file with these options over it."""
        match = self.match
        if match.players != self.players:
            match = match.renamed(self.players)
        first = self.first_player if self.first_player is not None else match.first_player
        target = (
            dict.fromkeys(self.players, self.target) if self.target is not None else match.target
        )
        match = replace(match, discipline=self.discipline, table=self.table,
                        first_player=first, target=target)  # fmt: skip
        return Pipeline(source=str(self.video), match=match, calibration=self.calibration,
                        detector=self.detector)  # fmt: skip


@dataclass(slots=True)
class AnalyzeRun:
    """Everything analysed so far; survives an error half-way.

    ``notes`` are English lines (the terminal, the summary); those this layer writes
    about the match are keyed too (:meth:`note`, ``carom.analyze._run_notes``).
    """

    options: AnalyzeOptions
    match: Match
    calibration: Calibration | None = None
    lag: LagResult | None = None
    #: No lag decided who breaks: the match was joined at the first stroke.
    joined: bool = False
    shots: list[tuple[AnalyzedShot, ShotRecord | None]] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)
    #: The notes (by their English) that are keyed phrases, for the report's language.
    keyed_notes: dict[str, RunNote] = field(default_factory=dict)
    error: CaromError | None = None
    frames: int = 0
    seconds: float = 0.0

    def note(self, note: RunNote) -> None:
        """Add a keyed note: its English to ``notes``, its phrase to ``keyed_notes``."""
        english = note.english()
        self.notes.append(english)
        self.keyed_notes[english] = note

    def judged_setup(self) -> MatchConfig:
        """The set-up as judged: the match's, with the start of a join where it has none.

        No lag decided who breaks (``joined``): the match was joined at its first stroke,
        knowing nothing of the score before.
        """
        cfg = self.match.state.config
        return replace(cfg, start=StartState()) if self.joined and cfg.start is None else cfg

    def score_run(self) -> ScoreRun:
        """The scoring view (the scoresheet, the report), with the judged set-up."""
        return ScoreRun(self.match, self.lag, self.error, setup=self.judged_setup())


def match_config(opts: AnalyzeOptions) -> MatchConfig:
    """The referee's set-up: ``opts.match`` under ``opts``' other fields.

    The discipline, table, players, first player and target of ``opts`` win. A
    camera names the shooter: ``follow_cue_ball`` is on unless the match file sets it
    (docs/rules-options.md).
    """
    return opts.pipeline().config()


def calibration_for(
    opts: AnalyzeOptions,
    size_px: tuple[int, int],
    frame_30: Any | None = None,
    say: Callable[[str], None] | None = None,
) -> Calibration:
    """Load ``--calibration`` (checked against the video size) or fit one into ``opts.out``.

    The pipeline's calibration step (:meth:`carom.pipeline.Pipeline.calibrate`);
    ``say`` hears a doubtful fit. Raises :class:`calibration.CalibrationFailed` when
    the fit failed.
    """
    return opts.pipeline().calibrate(size_px, opts.out, frame_30, say=say)


Progress = Callable[[int, int | None, float], None]

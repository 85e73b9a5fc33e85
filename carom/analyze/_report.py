"""What ``carom analyze`` prints and writes besides the shot log: report and summary."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from carom.analyze._options import AnalyzeRun
from carom.analyze._run_notes import RUN_NOTE_BALL_FIELDS, RunNote
from carom.analyze._shot_log import shots_document
from carom.i18n import catalogue, format_number
from carom.report import ReportShot, match_summary, write_report, write_shot_csv
from carom.timestamps import local_time_in
from referee import record_json

__all__ = ["SHOT_CSV_NAME", "note_in", "summary_json", "write_html", "write_shots_csv"]

#: The per-shot CSV beside ``shots.json`` (docs/shot-csv.md).
SHOT_CSV_NAME = "shots.csv"


def _report_shots(run: AnalyzeRun) -> list[ReportShot]:
    """The judged shots, numbered as the scoresheet and the shot log number them.

    A lag (its result is the report's header) and motion not judged (the notes say
    why) are not shots: counted among them, they put the report's numbers one ahead of
    the scoresheet's (a review found "shot 2" of the report to be shot 1 everywhere else).
    """
    out: list[ReportShot] = []
    for analyzed, record in run.shots:
        if record is None:
            continue
        shot, verdict = analyzed.shot, record.verdict
        out.append(
            ReportShot(
                index=record.index, player=record.player,
                cue_ball=shot.cue_ball, tracks=analyzed.tracks, events=analyzed.scored,
                verdict=verdict, score_after=dict(record.score_after),
                start_s=shot.start_s or 0.0, end_s=shot.end_s or 0.0,
                review=verdict.review, break_rule=record.break_why, record=record,
            )
        )  # fmt: skip
    return out


def note_in(lang: str, note: RunNote) -> str:
    """A keyed run note in ``lang`` (``run_note_<key>``; balls and numbers too)."""
    if lang == "en":
        return note.english()
    cat = catalogue("report")
    fields: dict[str, object] = {}
    for name, value in note.fields:
        if name in RUN_NOTE_BALL_FIELDS:
            fields[name] = cat.text(lang, f"ball_{value}")
        else:
            fields[name] = _number_in(lang, name, value)
    return cat.text(lang, f"run_note_{note.key}", **fields)


def _number_in(lang: str, name: str, value: str | int) -> str:
    """A note's field in ``lang``: a count as it writes numbers, a time (``*_s``) too."""
    if isinstance(value, int):
        return format_number(lang, value)
    return format_number(lang, float(value), 1) if name.endswith("_s") else value


def write_shots_csv(run: AnalyzeRun, path: Path) -> None:
    """The per-shot CSV of the shots ``shots.json`` holds (``match``: the video's name)."""
    write_shot_csv(path, shots_document(run), run.options.video.name)


def write_html(run: AnalyzeRun, path: Path, lang: str = "en") -> None:
    """The report: meta, match panel, statistics, scoresheet, a card for every shot.

    ``lang``: the report's language (``carom.i18n.LANGUAGES``; another code: English).
    The per-shot CSV (:func:`write_shots_csv`) is written beside it as ``shots.csv``.
    """
    write_shots_csv(run, path.with_name(SHOT_CSV_NAME))
    opts = run.options

    def t(key: str, **fields: object) -> str:
        return catalogue("report").text(lang, key, **fields)

    seconds = format_number(lang, run.seconds, 1)
    meta = {
        t("meta_video"): str(opts.video),
        t("meta_discipline"): t(f"discipline_{opts.discipline}"),
        t("meta_calibration"): str(opts.calibration or opts.out / "calibration.json"),
        t("meta_frames"): t("meta_frames_value", frames=format_number(lang, run.frames),
                             seconds=seconds),
        t("meta_written"): local_time_in(lang),
    }  # fmt: skip
    if run.error is not None:
        meta[t("meta_stopped")] = str(run.error)
    for i, note in enumerate(run.notes):
        keyed = run.keyed_notes.get(note)
        meta[t("meta_note", n=i + 1)] = note if keyed is None else note_in(lang, keyed)
    geometry = None if run.calibration is None else run.calibration.geometry
    cfg = run.match.state.config
    write_report(
        path, _report_shots(run), title=t("title", video=opts.video.name), meta=meta,
        summary=match_summary(run.score_run()), geometry=geometry, lang=lang,
        discipline=cfg.discipline, options=cfg.options,
    )  # fmt: skip


def _files(run: AnalyzeRun) -> dict[str, str]:
    """Each file written, by kind, by absolute path (the README's promise).

    They were relative to the folder the command ran in.
    """
    out = run.options.out.absolute()
    files = {"shots": str(out / "shots.json"), "shots_csv": str(out / SHOT_CSV_NAME),
             "report": str(out / "report.html")}  # fmt: skip
    if run.options.trajectories:
        files |= {"trajectories": str(out / "trajectories.json"),
                  "trajectories_csv": str(out / "trajectories.csv")}  # fmt: skip
    if run.options.calibration is None:  # fitted here: the file and its overlay
        files |= {"calibration": str(out / "calibration.json"),
                  "calibration_overlay": str(out / "calibration_overlay.png")}  # fmt: skip
    if run.options.annotate:
        files["annotated"] = str(out / "annotated.mp4")
    return files


def summary_json(run: AnalyzeRun, elapsed_s: float) -> dict[str, Any]:
    """The ``--json`` summary: where the files are and every verdict."""
    state = run.match.state
    return {
        "format": "carom-analyze/1",
        "video": str(run.options.video),
        "frames": run.frames,
        "video_s": round(run.seconds, 3),
        "elapsed_s": round(elapsed_s, 3),
        "files": _files(run),
        "lag": None if run.lag is None else {"winner": run.lag.winner, "reason": run.lag.reason},
        "shots": [record_json(r) for _, r in run.shots if r is not None],
        "score": {p: state.board(p) for p in state.config.players},
        "winner": state.winner,
        "notes": list(run.notes),
        "error": None if run.error is None else str(run.error),
    }

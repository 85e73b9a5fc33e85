"""What a match looks like to people: scoresheet, shot diagrams, HTML report, annotated video.

* :func:`render_sheet` / :func:`render_standings`: the terminal scoresheet;
* :func:`diagram_svg` / :func:`diagram_png`: one shot drawn on the table (the paths,
  numbered contacts, doubtful ones dashed), from one drawing list
  (:class:`Diagram`) rendered to SVG or pixels;
* :func:`write_report`: the self-contained HTML report in the user's language (match
  panel from :func:`match_summary`, statistics plots, scoresheet table, a card per shot);
* :func:`setup_line` / :func:`setup_terms_in`: the set-up a match was judged under, in
  words (the scoresheet's line; the terms in a language, for the web history);
* :func:`write_shot_csv`: the per-shot CSV of a shot log (docs/shot-csv.md);
* :class:`AnnotatedWriter`: the annotated video's frames, its words in the report's
  language (:class:`VideoWords`) drawn in any script (:func:`pick_glyphs`).
"""

from carom.report._annotate import AnnotatedWriter, BallPx
from carom.report._annotate_glyphs import FontGlyphs, Glyphs, HersheyGlyphs, pick_glyphs
from carom.report._annotate_words import VideoWords
from carom.report._diagram import (
    BALL_COLOURS,
    build_diagram,
    clip_tracks,
    diagram_png,
    diagram_svg,
    event_label,
    is_doubtful,
    table_origin,
    verdict_caption,
)
from carom.report._drawing import Diagram, render_bgr, render_svg
from carom.report._html import (
    ReportError,
    ReportShot,
    legend_lines,
    render_report,
    write_report,
)
from carom.report._page import diagram_texts
from carom.report._report_stats import MatchSummary, PlayerLine, inning_points, match_summary
from carom.report._setup_words import setup_line, setup_terms_in
from carom.report._sheet import render_sheet, render_standings
from carom.report._shot_csv import (
    SHOT_CSV_COLUMNS,
    ShotCsvError,
    cue_ball_contacts,
    shot_csv_columns,
    shot_csv_rows,
    shot_csv_text,
    write_shot_csv,
)

__all__ = [
    "BALL_COLOURS",
    "SHOT_CSV_COLUMNS",
    "AnnotatedWriter",
    "BallPx",
    "Diagram",
    "FontGlyphs",
    "Glyphs",
    "HersheyGlyphs",
    "MatchSummary",
    "PlayerLine",
    "ReportError",
    "ReportShot",
    "ShotCsvError",
    "VideoWords",
    "build_diagram",
    "clip_tracks",
    "cue_ball_contacts",
    "diagram_png",
    "diagram_svg",
    "diagram_texts",
    "event_label",
    "inning_points",
    "is_doubtful",
    "legend_lines",
    "match_summary",
    "pick_glyphs",
    "render_bgr",
    "render_report",
    "render_sheet",
    "render_standings",
    "render_svg",
    "setup_line",
    "setup_terms_in",
    "shot_csv_columns",
    "shot_csv_rows",
    "shot_csv_text",
    "table_origin",
    "verdict_caption",
    "write_report",
    "write_shot_csv",
]

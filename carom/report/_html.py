"""The HTML report of ``carom analyze``: one self-contained file, readable on a phone.

Inline CSS and inline SVG diagrams, no script and no external resource, so the file can
be mailed or opened offline. Every piece of text from outside (player names, reasons,
evidence, meta values) is escaped.
"""

from __future__ import annotations

import html
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from calibration import TableGeometry
from carom.report._diagram import diagram_svg, event_label, is_doubtful, verdict_caption
from referee import Ball, BallContact, CaromError, CushionContact, Verdict
from vision import BallTrack, ScoredEvent

__all__ = ["ReportError", "ReportShot", "write_report"]


class ReportError(CaromError):
    """The report cannot be written (the message names the file)."""


@dataclass(frozen=True, slots=True, kw_only=True)
class ReportShot:
    """One shot as the report shows it.

    Args:
        index: Shot number (0-based as in the scoresheet; shown as is).
        player: Who shot.
        cue_ball: The ball struck by the cue.
        tracks: Each ball's path during the shot, table mm (see :class:`BallTrack`).
        events: What vision found, any order (shown in time order).
        verdict: The referee's verdict; ``None`` when the shot could not be judged.
        score_after: The score after the shot: text or player -> points.
        start_s: Cue strike time in seconds of the video.
        end_s: Time every ball stopped, seconds of the video.
        review: Why a person should look again beyond the verdict's own review, if any.
        break_rule: Whether the shot was judged as a break and which rule said so.
    """

    index: int
    player: str
    cue_ball: Ball
    tracks: Mapping[Ball, BallTrack] = field(default_factory=dict)
    events: Sequence[ScoredEvent] = ()
    verdict: Verdict | None = None
    score_after: str | Mapping[str, int] = ""
    start_s: float = 0.0
    end_s: float = 0.0
    review: str | None = None
    break_rule: str = ""


_CSS = """
body{font:16px/1.4 system-ui,sans-serif;margin:0;padding:12px;background:#f4f5f7;color:#1b1e23}
main{max-width:960px;margin:auto}
h1{font-size:1.4em;margin:.2em 0}
dl.meta{display:grid;grid-template-columns:max-content 1fr;gap:2px 12px;margin:0 0 12px}
dl.meta dt{font-weight:bold}dl.meta dd{margin:0;overflow-wrap:anywhere}
pre.sheet{background:#fff;border:1px solid #ccd;padding:8px;overflow-x:auto;font-size:13px}
section.shot{background:#fff;border:1px solid #ccd;border-radius:8px;padding:10px;margin:14px 0}
section.shot h2{font-size:1.15em;margin:0 0 6px}
.verdict{padding:6px 8px;border-radius:6px;margin:0 0 8px;background:#e8eef5}
.verdict.point{background:#dff3e4}.verdict.foul{background:#fde2e1}
.verdict.review{background:#fff0c9;border:2px solid #e69500}
.diagram{margin:6px 0}
table.events{border-collapse:collapse;width:100%;font-size:14px}
table.events th,table.events td{border-bottom:1px solid #dde;padding:3px 6px;text-align:left}
tr.doubt td{background:#fff4dc}
.scroll{overflow-x:auto}
"""


def _e(text: object) -> str:
    return html.escape(str(text), quote=True)


def _score_text(score: str | Mapping[str, int]) -> str:
    if isinstance(score, str):
        return score
    return " : ".join(f"{p} {v}" for p, v in score.items())


def _verdict_block(s: ReportShot) -> str:
    v = s.verdict
    classes = ["verdict"]
    if v is not None and v.points:
        classes.append("point")
    if v is not None and v.fouls:
        classes.append("foul")
    reviews = [r for r in (v.review if v else None, s.review) if r]
    if reviews or v is None:
        classes.append("review")
    lines = [f"<strong>{_e(verdict_caption(s.player, v))}</strong>"]
    if v is not None and v.fouls:
        lines.append(f"fouls: {_e(', '.join(v.fouls))}")
    lines += [f"<strong>REVIEW:</strong> {_e(r)}" for r in reviews if not v or r != v.review]
    if v is not None:
        lines += [_e(a) for a in v.announcements]
    if s.break_rule:
        lines.append(f"judged as {_e(s.break_rule)}")
    score = _score_text(s.score_after)
    if score:
        lines.append(f"score after: {_e(score)}")
    return f'<div class="{" ".join(classes)}">' + "<br>".join(lines) + "</div>"


def _what(e: ScoredEvent) -> tuple[str, str]:
    """(kind, balls/cushion) columns of one event row."""
    ev = e.event
    if isinstance(ev, BallContact):
        return "ball", f"{ev.balls[0]}-{ev.balls[1]}"
    if isinstance(ev, CushionContact):
        return "cushion", f"{ev.ball} / {ev.cushion}"
    label = event_label(e)
    return type(ev).__name__.lower(), label


def _events_table(events: Sequence[ScoredEvent], doubtful_below: float) -> str:
    head = "<tr><th>#</th><th>t (s)</th><th>kind</th><th>balls / cushion</th>"
    head += "<th>confidence</th><th>evidence</th></tr>"
    rows = []
    for n, e in enumerate(sorted(events, key=lambda e: e.event.t_s), start=1):
        kind, what = _what(e)
        evidence = e.evidence + (f" (doubt: {e.event.doubt})" if e.event.doubt else "")
        cls = ' class="doubt"' if is_doubtful(e, doubtful_below) else ""
        rows.append(
            f"<tr{cls}><td>{n}</td><td>{e.event.t_s:.3f}</td><td>{_e(kind)}</td>"
            f"<td>{_e(what)}</td><td>{e.confidence:.2f}</td><td>{_e(evidence)}</td></tr>"
        )
    body = "\n".join(rows) or '<tr><td colspan="6">no event</td></tr>'
    table = f"<thead>{head}</thead>\n<tbody>\n{body}\n</tbody>"
    return f'<div class="scroll"><table class="events">\n{table}</table></div>'


def _section(shot: ReportShot, geometry: TableGeometry, doubtful_below: float) -> str:
    caption = verdict_caption(shot.player, shot.verdict)
    svg = diagram_svg(geometry, shot.tracks, shot.events, caption=caption,
                      doubtful_below=doubtful_below)  # fmt: skip
    title = (f"Shot {shot.index} — {_e(shot.player)} ({_e(shot.cue_ball)}), "
             f"{shot.start_s:.3f}–{shot.end_s:.3f} s")  # fmt: skip
    return (
        f'<section class="shot" id="shot-{shot.index}">\n<h2>{title}</h2>\n'
        f'{_verdict_block(shot)}\n<div class="diagram">{svg}</div>\n'
        f"{_events_table(shot.events, doubtful_below)}\n</section>"
    )


def render_report(
    shots: Sequence[ReportShot],
    *,
    title: str,
    sheet_text: str,
    meta: Mapping[str, str],
    geometry: TableGeometry | None = None,
    doubtful_below: float = 0.5,
) -> str:
    """The whole HTML document as text (see :func:`write_report`)."""
    g = geometry or TableGeometry()
    meta_rows = "".join(f"<dt>{_e(k)}</dt><dd>{_e(v)}</dd>" for k, v in meta.items())
    sections = "\n".join(_section(s, g, doubtful_below) for s in shots)
    return (
        '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{_e(title)}</title>\n<style>{_CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<header>\n<h1>{_e(title)}</h1>\n<dl class="meta">{meta_rows}</dl>\n</header>\n'
        f'<h2>Scoresheet</h2>\n<pre class="sheet">{_e(sheet_text)}</pre>\n'
        f"<h2>Shots ({len(shots)})</h2>\n{sections}\n</main>\n</body>\n</html>\n"
    )


def write_report(
    path: Path,
    shots: Sequence[ReportShot],
    *,
    title: str,
    sheet_text: str,
    meta: Mapping[str, str],
    geometry: TableGeometry | None = None,
    doubtful_below: float = 0.5,
) -> None:
    """Write the report as one self-contained HTML file.

    Args:
        path: The ``.html`` file to write (overwritten).
        shots: The shots in play order, one section each.
        title: Page title and heading.
        sheet_text: The scoresheet text (``carom.report._sheet.render_sheet``), shown as is.
        meta: Header facts in order: video, calibration, discipline, date ...
        geometry: The table of the diagrams (default: the match table).
        doubtful_below: Events under this confidence are highlighted as doubtful.

    Raises:
        ReportError: the file cannot be written.
    """
    text = render_report(shots, title=title, sheet_text=sheet_text, meta=meta,
                         geometry=geometry, doubtful_below=doubtful_below)  # fmt: skip
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        raise ReportError(f"report {path}: cannot write ({why}); check the folder") from None

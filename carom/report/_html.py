"""The HTML report of ``carom analyze``: one self-contained page, readable on a phone.

The match panel (result, per-player figures), the statistics (points per inning, run
lengths: :mod:`carom.report._report_stats`), the scoresheet as a table (a row per shot,
linked to its card), then a card per shot: the verdict, the review reason, the diagram
and the events with their times and confidence. Inline CSS and SVG, no script and no
external resource, so the file can be mailed, opened offline or printed (a card never
breaks across pages). Every piece of text from outside (player names, reasons,
evidence, meta values) is escaped.

Every fixed text comes from the ``report`` catalogue in the report's language
(``lang``), numbers as that language writes them, and the referee's keyed reasons in
that language too (:mod:`carom.report._page`; the others stay English).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from calibration import TableGeometry
from carom.i18n import LANGUAGES
from carom.report._annotate_words import VideoWords
from carom.report._diagram import diagram_svg, is_doubtful
from carom.report._match_lines import audit_words, lag_words
from carom.report._page import (
    Page,
    average_text,
    diagram_caption,
    escape,
    key_words,
    points_text,
    score_text,
)
from carom.report._report_css import REPORT_CSS
from carom.report._report_stats import (
    MatchSummary,
    inning_points,
    points_plot,
    runs_plot,
)
from carom.report._setup_words import setup_terms
from referee import (
    MATCH_TABLE,
    Ball,
    BallContact,
    CaromError,
    CushionContact,
    Discipline,
    RuleOptions,
    ShotRecord,
    Verdict,
)
from vision import BallTrack, ScoredEvent

__all__ = ["ReportError", "ReportShot", "legend_lines", "render_report", "write_report"]


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
        record: The match's record of the shot (set, inning, run, for the scoresheet
            and the statistics); ``None``: not judged (a lag, a shot after the end).
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
    record: ShotRecord | None = None


def _classes(s: ReportShot) -> list[str]:
    """``point`` / ``foul`` / ``review`` as they apply (a shot without verdict: review)."""
    v, out = s.verdict, []
    if v is not None and v.points:
        out.append("point")
    if v is not None and v.fouls:
        out.append("foul")
    if v is None or v.review or s.review:
        out.append("review")
    return out


def _verdict_block(page: Page, s: ReportShot) -> str:
    v = s.verdict
    if v is None:
        lines = [f"<strong>{escape(s.player)}: {page.t('no_verdict')}</strong>"]
    else:
        said = f"{s.player} {points_text(page, v)} — {page.reason(v)}"
        lines = [f"<strong>{escape(said)}</strong>"]
    if v is not None and v.fouls:
        lines.append(page.t("fouls", fouls=page.fouls(v.fouls)))
    said = page.review(v) if v is not None else ""
    extra = s.review if s.review and s.review != (v.review if v else None) else ""
    reviews = [r for r in (said, extra) if r]
    lines += [f"<strong>{page.t('review', reason=r)}</strong>" for r in reviews]
    if v is not None:
        lines += [escape(a) for a in page.announcements(v)]
    rule = _break_rule(page, s)
    if rule:
        lines.append(page.t("judged_as", rule=rule))
    if s.record is not None and s.record.note:
        lines.append(escape(page.note(s.record)))
    if score := score_text(page, s.score_after):
        lines.append(page.t("score_after", score=score))
    return f'<div class="{" ".join(["verdict", *_classes(s)])}">' + "<br>".join(lines) + "</div>"


def _break_rule(page: Page, s: ReportShot) -> str:
    """Why the shot was judged a break or play, on a break and the record's first shot.

    As the scoresheet says it: every card repeated "play: the balls are not in the
    break layout ..." (found by a review as a new user).
    """
    if s.record is None:
        return s.break_rule
    return page.break_rule(s.record) if s.record.is_break or s.record.index == 0 else ""


def _what(page: Page, e: ScoredEvent) -> tuple[str, str]:
    """(kind, balls/cushion) columns of one event row (unescaped)."""
    ev = e.event
    if isinstance(ev, BallContact):
        return page.raw("kind_ball"), "–".join(page.word("ball", b) for b in ev.balls)
    if isinstance(ev, CushionContact):
        return page.raw("kind_cushion"), (
            f"{page.word('ball', ev.ball)} / {page.word('cushion', ev.cushion)}"
        )
    return page.word("kind", type(ev).__name__.lower()), VideoWords(page.lang).event(e)


def _events_table(page: Page, events: Sequence[ScoredEvent]) -> str:
    heads = ("#", page.t("ev_time"), page.t("ev_kind"), page.t("ev_what"),
             page.t("ev_confidence"), page.t("ev_evidence"))  # fmt: skip
    num = (True, True, False, False, True, False)
    head = "".join(
        f"<th{' class=num' if n else ''}>{h}</th>" for h, n in zip(heads, num, strict=True)
    )
    rows = []
    for n, e in enumerate(sorted(events, key=lambda e: e.event.t_s), start=1):
        kind, what = _what(page, e)
        doubt = page.raw("ev_doubt", doubt=page.doubt(e.event.doubt)) if e.event.doubt else ""
        evidence = " ".join(x for x in (page.evidence(e.evidence), doubt and f"({doubt})") if x)
        cls = ' class="doubt"' if is_doubtful(e, page.doubtful_below) else ""
        rows.append(
            f'<tr{cls}><td class="num">{n}</td><td class="num">{page.num(e.event.t_s, 3)}</td>'
            f"<td>{escape(kind)}</td><td>{escape(what)}</td>"
            f'<td class="num">{page.num(e.confidence, 2)}</td><td>{escape(evidence)}</td></tr>'
        )
    body = "\n".join(rows) or f'<tr><td colspan="6">{page.t("no_event")}</td></tr>'
    table = f"<thead><tr>{head}</tr></thead>\n<tbody>\n{body}\n</tbody>"
    return f'<div class="scroll"><table class="events">\n{table}</table></div>'


def _legend_line(page: Page, e: ScoredEvent) -> str:
    """An event under the diagram: ``1,877 s  blanche–rouge`` (``? 0,30`` when doubtful).

    The doubt's words are in the events table below, in the page's language; here
    they were the English ones, cut to a few letters by the key's width.
    """
    _, what = _what(page, e)
    text = f"{page.raw('seconds', t=page.num(e.event.t_s, 3))}  {what}"
    if is_doubtful(e, page.doubtful_below):
        text += f"  ? {page.num(e.confidence, 2)}"
    return text


def legend_lines(lang: str) -> Callable[[ScoredEvent], str]:
    """Each event's line under a diagram in ``lang`` (the web history's diagrams)."""
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    return lambda e: _legend_line(page, e)


def _card(page: Page, shot: ReportShot) -> str:
    caption = diagram_caption(page, shot.player, shot.verdict)
    svg = diagram_svg(page.geometry, shot.tracks, shot.events, caption=caption,
                      doubtful_below=page.doubtful_below, words=key_words(page),
                      line_of=lambda e: _legend_line(page, e), discipline=page.discipline,
                      options=page.options)  # fmt: skip
    title = page.t("shot_title", n=shot.index, player=shot.player)
    when = page.t("shot_times", start=page.num(shot.start_s, 3), end=page.num(shot.end_s, 3))
    cue = page.t("cue_ball", ball=page.word("ball", shot.cue_ball))
    return (
        f'<section class="shot" id="shot-{shot.index}">\n<h2>{title}</h2>\n'
        f'<p class="when">{cue} · {when}</p>\n{_verdict_block(page, shot)}\n'
        f'<div class="diagram" aria-label="{page.t("diagram")}">{svg}</div>\n'
        f"<h3>{page.t('events')}</h3>\n"
        f"{_events_table(page, shot.events)}\n</section>"
    )


def _players(shots: Sequence[ReportShot], summary: MatchSummary | None) -> list[str]:
    if summary is not None:
        return list(summary.players)
    names = (p for s in shots if not isinstance(s.score_after, str) for p in s.score_after)
    return list(dict.fromkeys(names))


def _sheet_row(page: Page, s: ReportShot, players: Sequence[str]) -> str:
    r, v = s.record, s.verdict
    cells = [f'<a href="#shot-{s.index}">{s.index}</a>', escape(s.player),
             "" if r is None else page.num(r.set_index + 1),
             "" if r is None else page.num(r.inning),
             "" if v is None else escape(points_text(page, v)),
             "" if r is None else page.num(r.run)]  # fmt: skip
    score = {} if isinstance(s.score_after, str) else s.score_after
    cells += [page.num(score[p]) if p in score else "" for p in players]
    why = page.t("no_verdict") if v is None else escape(page.reason(v))
    if v is not None and v.inning_ends:
        why += f" <em>({page.t('turn_passes')})</em>"
    if v is not None and v.review:
        why += f"<br><strong>{page.t('review', reason=page.review(v))}</strong>"
    numeric = [f'<td class="num">{c}</td>' for c in cells]
    numeric[1] = f"<td>{cells[1]}</td>"
    cls = " ".join(_classes(s))
    row = f'<tr class="{cls}">' if cls else "<tr>"
    return row + "".join(numeric) + f'<td class="why">{why}</td></tr>'


def _sheet(page: Page, shots: Sequence[ReportShot], players: Sequence[str]) -> str:
    if not shots:
        return f'<p class="note">{page.t("no_shots")}</p>'
    keys = ("col_shot", "col_player", "col_set", "col_inning", "col_points", "col_run")
    heads = [f'<th class="num">{page.t(k)}</th>' for k in keys]
    heads[1] = f"<th>{page.t('col_player')}</th>"
    heads += [f'<th class="num">{escape(p)}</th>' for p in players]
    heads.append(f"<th>{page.t('col_verdict')}</th>")
    rows = "\n".join(_sheet_row(page, s, players) for s in shots)
    return (f'<div class="scroll panel"><table class="sheet">\n<thead><tr>{"".join(heads)}'
            f"</tr></thead>\n<tbody>\n{rows}\n</tbody></table></div>")  # fmt: skip


def _result(page: Page, m: MatchSummary) -> str:
    if m.winner:
        return page.raw("result_wins", player=m.winner)
    if m.draw:
        shared = m.tied and len(m.tied) < len(m.players)
        if shared:
            return page.raw("result_draw_between", players=", ".join(m.tied))
        return page.raw("result_draw")
    return page.raw("result_in_progress")


def _match_panel(page: Page, m: MatchSummary) -> str:
    vs = page.raw("versus").join(m.players)
    game = page.word("discipline", m.discipline)
    lines = [f"<p><strong>{escape(game)}: {escape(vs)}</strong></p>",
             f"<p>{page.t('result', result=_result(page, m))}</p>"]  # fmt: skip
    if m.lag:
        said = m.lag if m.lag_result is None else lag_words(page, m.lag_result)
        lines.append(f"<p>{page.t('lag', reason=said)}</p>")
    if m.config is not None:
        terms = "; ".join(setup_terms(m.config, page.raw, page.num))
        lines.append(f'<p class="setup">{page.t("setup", terms=terms)}</p>')
    keys = ("col_score", "col_innings", "col_average", "col_high_run", "col_sets")
    head = f"<th>{page.t('col_player')}</th>" + "".join(
        f'<th class="num">{page.t(k)}</th>' for k in keys
    )
    rows = [
        f'<tr><td><span class="swatch p{i % 8}"></span>{escape(p.player)}</td>'
        + "".join(f'<td class="num">{c}</td>' for c in (page.num(p.board), page.num(p.innings),
                  average_text(page, p.average), page.num(p.high_run), page.num(p.sets_won)))
        + "</tr>"
        for i, p in enumerate(m.lines)
    ]  # fmt: skip
    lines.append(f'<div class="scroll"><table class="players"><thead><tr>{head}</tr></thead>'
                 f"<tbody>{''.join(rows)}</tbody></table></div>")  # fmt: skip
    for version, shots, action, detail in m.audit:
        action, detail = audit_words(page, action, detail)
        said = page.t("audit", version=version, shots=shots, action=action, detail=detail)
        lines.append(f'<p class="note">{said}</p>')
    return (
        f'<div class="panel match">\n<h2>{page.t("match_heading")}</h2>\n'
        + "\n".join(lines)
        + "\n</div>"
    )


def _first_inning(records: Sequence[ShotRecord]) -> int:
    """The record's first inning number (more than 1: the match was joined in progress)."""
    if not records:
        return 1
    return min(r.inning for r in records if r.set_index == records[0].set_index)


def _stats(page: Page, shots: Sequence[ReportShot], players: Sequence[str]) -> str:
    records = [s.record for s in shots if s.record is not None]
    per_inning = inning_points(records, players)
    if not any(per_inning.values()):
        body = f'<p class="note">{page.t("no_innings")}</p>'
    else:
        legend = "".join(f'<li><span class="swatch p{i % 8}"></span>{escape(p)}</li>'
                         for i, p in enumerate(per_inning))  # fmt: skip
        figures = (
            f"<figure><figcaption>{page.t('plot_points_title')}</figcaption>"
            f"{points_plot(per_inning, page.raw, _first_inning(records))}</figure>"
            f"<figure><figcaption>{page.t('plot_runs_title')}</figcaption>"
            f"{runs_plot(per_inning, page.raw)}</figure>"
        )
        body = f'<ul class="legend">{legend}</ul>\n<div class="plots">{figures}</div>'
    return f'<div class="panel stats">\n<h2>{page.t("stats_heading")}</h2>\n{body}\n</div>'


def render_report(
    shots: Sequence[ReportShot],
    *,
    title: str,
    meta: Mapping[str, str],
    summary: MatchSummary | None = None,
    geometry: TableGeometry | None = None,
    doubtful_below: float = 0.5,
    lang: str = "en",
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
) -> str:
    """The whole HTML document as text (see :func:`write_report`)."""
    page = Page(lang if lang in LANGUAGES else "en", geometry or TableGeometry(), doubtful_below,
                discipline, options)  # fmt: skip
    meta_rows = "".join(f"<dt>{escape(k)}</dt><dd>{escape(v)}</dd>" for k, v in meta.items())
    players = _players(shots, summary)
    parts = [] if summary is None else [_match_panel(page, summary)]
    parts += [_stats(page, shots, players),
              f'<h2>{page.t("sheet_heading")}</h2>\n{_sheet(page, shots, players)}',
              f'<h2>{page.t("shots_heading", n=len(shots))}</h2>',
              *(_card(page, s) for s in shots)]  # fmt: skip
    if page.lang != "en":
        parts.append(f'<p class="note">{page.t("reasons_english")}</p>')
    return (
        f'<!DOCTYPE html>\n<html lang="{page.lang}">\n<head>\n<meta charset="utf-8">\n'
        '<meta name="viewport" content="width=device-width, initial-scale=1">\n'
        f"<title>{escape(title)}</title>\n<style>{REPORT_CSS}</style>\n</head>\n<body>\n<main>\n"
        f'<header>\n<h1>{escape(title)}</h1>\n<dl class="meta">{meta_rows}</dl>\n</header>\n'
        + "\n".join(parts)
        + "\n</main>\n</body>\n</html>\n"
    )


def write_report(
    path: Path,
    shots: Sequence[ReportShot],
    *,
    title: str,
    meta: Mapping[str, str],
    summary: MatchSummary | None = None,
    geometry: TableGeometry | None = None,
    doubtful_below: float = 0.5,
    lang: str = "en",
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
) -> None:
    """Write the report as one self-contained HTML file.

    Args:
        path: The ``.html`` file to write (overwritten).
        shots: The shots in play order: a scoresheet row and a card each.
        title: Page title and heading.
        meta: Header facts in order: video, calibration, discipline, date ...
        summary: The match's result and figures (:func:`match_summary`); ``None``: no
            match panel (the statistics are drawn from the shots' records alone).
        geometry: The table of the diagrams (default: the match table).
        doubtful_below: Events under this confidence are highlighted as doubtful.
        lang: The language of every fixed text and number (``carom.i18n.LANGUAGES``;
            another code gives English).
        discipline: The diagrams draw its marks (balklines and anchor squares, the
            straight-rail corners, pins); None: a plain table.
        options: The match's rule options (where the zones lie; None: the defaults).

    Raises:
        ReportError: the file cannot be written.
    """
    text = render_report(shots, title=title, meta=meta, summary=summary, geometry=geometry,
                         doubtful_below=doubtful_below, lang=lang, discipline=discipline,
                         options=options)  # fmt: skip
    try:
        path.write_text(text, encoding="utf-8")
    except OSError as exc:
        why = exc.strerror or exc.__class__.__name__
        raise ReportError(f"report {path}: cannot write ({why}); check the folder") from None

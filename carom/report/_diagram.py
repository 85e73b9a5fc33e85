"""Shot diagrams: the table to scale, ball paths, numbered contacts and a caption.

The diagram is built once as a short list of drawing primitives in canvas units
(table millimetres, y down, table origin at :func:`table_origin`) and then rendered
either to SVG text (the HTML report) or to a BGR image with OpenCV (PNG files), so the
two renderings cannot disagree. The table is seen from above, head cushion on the left,
left cushion (y = 0) at the top: the layout of an overhead camera image.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping, Sequence

import numpy as np
from numpy.typing import NDArray

from calibration import TableGeometry
from carom.report._diagram_table import PAD, table_origin, table_primitives
from carom.report._drawing import (
    BG,
    TEXT,
    Diagram,
    Label,
    Primitive,
    Shape,
    Style,
    dashes,
    render_bgr,
    render_svg,
)
from carom.report._text_width import cells, cut_to, wrapped
from referee import (
    Ball,
    BallContact,
    Call,
    Cushion,
    CushionContact,
    Discipline,
    OffTable,
    PinDown,
    RuleOptions,
    Verdict,
)
from vision import BallTrack, ScoredEvent

__all__ = [
    "BALL_COLOURS",
    "KEY_WORDS",
    "Diagram",
    "build_diagram",
    "clip_tracks",
    "dashes",
    "diagram_png",
    "diagram_svg",
    "event_label",
    "is_doubtful",
    "render_bgr",
    "render_svg",
    "table_origin",
    "verdict_caption",
]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
XY = tuple[float, float]

MUTED, DOUBT, INK = "#aab0b8", "#ff9f1a", "#15171a"
#: Fill colour of each ball on the diagram (and of its path).
BALL_COLOURS: Mapping[Ball, str] = {
    Ball.WHITE: "#f6f4ea", Ball.YELLOW: "#f5c518", Ball.RED: "#e0283c",
    Ball.DOTTED: "#f6f4ea", Ball.WHITE1: "#f6f4ea", Ball.WHITE2: "#f6f4ea",
}  # fmt: skip
_DOT = {Ball.DOTTED: "#c8141e", Ball.WHITE2: "#2f6fe0"}
CAPTION, LEGEND, BADGE_R = 104.0, 80.0, 58.0
#: The key's words under every diagram (a report in another language passes its own).
KEY_WORDS: Mapping[str, str] = {
    "start": "start", "end": "end", "unseen": "not seen (predicted)", "doubtful": "doubtful event",
}  # fmt: skip


# --- the content: table, paths, events, caption ---


def clip_tracks(
    tracks: Mapping[Ball, BallTrack], start_s: float, end_s: float
) -> dict[Ball, BallTrack]:
    """The samples of each track with ``start_s <= t_s <= end_s`` (empty tracks dropped)."""
    out = {}
    for ball, tr in tracks.items():
        keep = (tr.t_s >= start_s) & (tr.t_s <= end_s)
        if keep.any():
            out[ball] = BallTrack(tr.t_s[keep], tr.xy_mm[keep], tr.seen[keep], tr.frame_idx[keep])
    return out


def _thin(xy: F64, min_mm: float = 3.0) -> F64:
    """Drop points closer than ``min_mm`` to the previous kept one (stationary balls)."""
    keep = [0]
    for i in range(1, len(xy)):
        if math.dist(xy[i], xy[keep[-1]]) >= min_mm or i == len(xy) - 1:
            keep.append(i)
    return xy[keep]


def _runs(tr: BallTrack) -> list[tuple[bool, F64]]:
    """Stretches (seen, xy (m, 2)) of finite samples; each joins the next one."""
    ok = np.isfinite(tr.xy_mm[:, 0]) & np.isfinite(tr.xy_mm[:, 1])
    out, start, n = [], 0, len(tr)
    for i in range(1, n + 1):
        if i < n and ok[i] == ok[start] and tr.seen[i] == tr.seen[start]:
            continue
        if ok[start]:
            end = i + 1 if i < n and ok[i] else i
            out.append((bool(tr.seen[start]), _thin(tr.xy_mm[start:end])))
        start = i
    return out


def _ball(ball: Ball, xy: XY, r: float, *, end: bool) -> list[Primitive]:
    colour = BALL_COLOURS.get(ball, TEXT)
    if end:
        ring = [Style(stroke=INK, width=14.0), Style(stroke=colour, width=8.0)]
        return [Shape("circle", (*xy, r), s, f"end {ball}") for s in ring]
    out: list[Primitive] = [
        Shape("circle", (*xy, r), Style(fill=colour, stroke=INK, width=4.0), f"start {ball}")
    ]
    if ball in _DOT:
        out.append(Shape("circle", (*xy, r * 0.3), Style(fill=_DOT[ball]), "dot"))
    return out


def _paths(tracks: Mapping[Ball, BallTrack], o: XY, r: float) -> list[Primitive]:
    lines: list[Primitive] = []
    marks: list[Primitive] = []
    for ball, tr in tracks.items():
        colour = BALL_COLOURS.get(ball, TEXT)
        for seen, xy in _runs(tr):
            style = Style(stroke=colour, width=9.0, opacity=0.9)
            if not seen:
                style = Style(stroke=colour, width=9.0, dash=(34.0, 26.0), opacity=0.5)
            if len(xy) > 1:
                coords = tuple((xy + o).ravel().tolist())
                lines.append(Shape("line", coords, style, f"path {ball}"))
        ok = np.isfinite(tr.xy_mm).all(axis=1)
        if ok.any():
            first, last = tr.xy_mm[ok][0] + o, tr.xy_mm[ok][-1] + o
            marks += _ball(ball, (first[0], first[1]), r, end=False)
            marks += _ball(ball, (last[0], last[1]), r, end=True)
    return lines + marks


def _at(tracks: Mapping[Ball, BallTrack], ball: Ball, t_s: float) -> F64 | None:
    """Where ``ball`` was at ``t_s`` (linear between samples, clamped at the ends)."""
    tr = tracks.get(ball)
    if tr is None:
        return None
    ok = np.isfinite(tr.xy_mm).all(axis=1)
    if not ok.any():
        return None
    t, xy = tr.t_s[ok], tr.xy_mm[ok]
    return np.array([np.interp(t_s, t, xy[:, 0]), np.interp(t_s, t, xy[:, 1])])


_NORMAL = {Cushion.HEAD: (-1.0, 0.0), Cushion.FOOT: (1.0, 0.0),
           Cushion.LEFT: (0.0, -1.0), Cushion.RIGHT: (0.0, 1.0)}  # fmt: skip


def _anchor(e: ScoredEvent, tracks: Mapping[Ball, BallTrack], g: TableGeometry) -> F64 | None:
    """Table mm where the event happened; None when it has no place (a call)."""
    ev = e.event
    if isinstance(ev, BallContact):
        pts = [p for b in ev.balls if (p := _at(tracks, b, ev.t_s)) is not None]
        return np.mean(pts, axis=0) if pts else None
    if isinstance(ev, Call) or (isinstance(ev, PinDown) and ev.ball is None):
        return None
    ball = ev.ball
    assert ball is not None
    p = _at(tracks, ball, ev.t_s)
    if p is not None and isinstance(ev, CushionContact):  # snap onto the cushion nose
        ix = 0 if ev.cushion in (Cushion.HEAD, Cushion.FOOT) else 1
        p[ix] = {Cushion.HEAD: 0.0, Cushion.LEFT: 0.0}.get(
            ev.cushion, (g.length_mm, g.width_mm)[ix]
        )
    return p


def is_doubtful(e: ScoredEvent, doubtful_below: float = 0.5) -> bool:
    """True when vision doubts the event (a ``doubt`` or low confidence)."""
    return e.event.doubt is not None or e.confidence < doubtful_below


def event_label(e: ScoredEvent) -> str:
    """Short words for an event: ``white-red``, ``white cushion foot``, ``red off table``."""
    ev = e.event
    if isinstance(ev, BallContact):
        return f"{ev.balls[0]}-{ev.balls[1]}"
    if isinstance(ev, CushionContact):
        return f"{ev.ball} cushion {ev.cushion}"
    if isinstance(ev, Call):
        return f"call {ev.foul}"
    if isinstance(ev, PinDown):
        return f"{ev.pin} pin down"
    if isinstance(ev, OffTable):
        return f"{ev.ball} off table"
    return f"{ev.ball} pocket {ev.pocket}"


def _badge(n: int, xy: XY, r: float, doubt: bool, cls: str) -> list[Primitive]:
    fill, ink = (DOUBT, INK) if doubt else (INK, TEXT)
    style = Style(fill=fill, stroke=TEXT, width=r / 9, dash=(r / 3, r / 5) if doubt else None)
    size = 1.35 if n < 10 else 1.0  # two digits must fit in the disc
    y = xy[1] + r * size * 0.37
    return [Shape("circle", (*xy, r), style, cls),
            Label(xy[0], y, str(n), r * size, ink, "middle", True, cls)]  # fmt: skip


#: Where a badge goes around a ball contact, in order of preference (diagonals first).
_DIRS = [(math.cos(math.radians(a)), math.sin(math.radians(a)))
         for a in (-45, -135, 45, 135, -90, 90, 0, 180)]  # fmt: skip


def _place(anchor: F64, normal: XY | None, taken: list[F64], g: TableGeometry) -> F64:
    """Badge centre near ``anchor`` not overlapping any badge in ``taken``."""
    step = 2.0 * BADGE_R + 12.0
    if normal is not None:  # on the rail, sliding along it when crowded
        base = anchor + np.array(normal) * (g.cushion_width_mm + g.rail_width_mm / 2)
        along = np.array([abs(normal[1]), abs(normal[0])])
        cands = [base + along * step * k for k in (0, 1, -1, 2, -2, 3, -3, 4, -4)]
    else:
        cands = [anchor + np.array(d) * step * k for k in (1.0, 1.8, 2.6) for d in _DIRS]
    for c in cands:
        if all(math.dist(c, t) >= step for t in taken):
            return c
    return cands[0]


def _events(events: Sequence[ScoredEvent], tracks: Mapping[Ball, BallTrack], g: TableGeometry,
            o: XY, doubtful_below: float) -> list[Primitive]:  # fmt: skip
    out: list[Primitive] = []
    taken: list[F64] = []
    for n, e in enumerate(sorted(events, key=lambda e: e.event.t_s), start=1):
        p = _anchor(e, tracks, g)
        if p is None:
            continue
        ev = e.event
        normal = _NORMAL[ev.cushion] if isinstance(ev, CushionContact) else None
        c = _place(p, normal, taken, g)
        taken.append(c)
        doubt = is_doubtful(e, doubtful_below)
        kind = "cushion" if normal else "contact"
        mark = Style(stroke=DOUBT if doubt else INK, width=8.0)
        out.append(Shape("line", (*(p + o), *(c + o)), Style(stroke=INK, width=6.0), "leader"))
        out.append(
            Shape(
                "circle", (*(p + o), 22.0 if normal else g.radius_mm * 1.25), mark, f"mark-{kind}"
            )
        )
        out += _badge(n, (c[0] + o[0], c[1] + o[1]), BADGE_R, doubt, f"event {kind}")
    return out


def _legend_text(e: ScoredEvent, doubtful_below: float) -> str:
    """One legend line: ``1.877 s  white-red`` (doubtful: ``? 0.40``, its why in the table)."""
    text = f"{e.event.t_s:.3f} s  {event_label(e)}"
    if is_doubtful(e, doubtful_below):
        text += f"  ? {e.confidence:.2f}"
    return text


LineOf = Callable[[ScoredEvent], str]


def _legend(events: Sequence[ScoredEvent], y: float, width: float, doubtful_below: float,
            line_of: LineOf | None) -> tuple[list[Primitive], float]:  # fmt: skip
    """Numbered event list in two columns from ``y``; returns primitives and the new y."""
    out: list[Primitive] = []
    ordered = sorted(events, key=lambda e: e.event.t_s)
    rows = math.ceil(len(ordered) / 2)
    line = LEGEND * 1.45
    for i, e in enumerate(ordered):
        x, yy = PAD + (i // rows) * width / 2 + BADGE_R * 0.7, y + (i % rows) * line
        doubt = is_doubtful(e, doubtful_below)
        out += _badge(i + 1, (x, yy - LEGEND * 0.35), BADGE_R * 0.7, doubt, "legend")
        text = line_of(e) if line_of is not None else _legend_text(e, doubtful_below)
        text = cut_to(text, int((width / 2 - BADGE_R * 2) / (LEGEND * 0.5)))  # 0.5 em a cell
        out.append(Label(x + BADGE_R * 1.1, yy, text, LEGEND, DOUBT if doubt else TEXT))
    return out, y + rows * line


def _advance(word: str, before: float, least: float) -> float:
    """How far the next key symbol goes: past ``word`` (a wide CJK glyph counts twice)."""
    return max(least, before + cells(word) * LEGEND * 0.55 + 100.0)


def _key(y: float, words: Mapping[str, str]) -> list[Primitive]:
    """One line explaining the symbols (``words``: :data:`KEY_WORDS`' keys)."""
    r, x = 30.75, PAD + 30.0
    s = Style(fill=BALL_COLOURS[Ball.WHITE], stroke=INK, width=4.0)
    out: list[Primitive] = [Shape("circle", (x, y - 28, r), s, "key"),
                            Label(x + 60, y, words["start"], LEGEND, MUTED)]  # fmt: skip
    x += _advance(words["start"], 60, 380)
    out += [Shape("circle", (x, y - 28, r), Style(stroke=TEXT, width=8.0), "key"),
            Label(x + 60, y, words["end"], LEGEND, MUTED)]  # fmt: skip
    x += _advance(words["end"], 60, 320)
    dash = Style(stroke=TEXT, width=9.0, dash=(34.0, 26.0), opacity=0.6)
    out += [Shape("line", (x - 30, y - 28, x + 160, y - 28), dash, "key"),
            Label(x + 200, y, words["unseen"], LEGEND, MUTED)]  # fmt: skip
    x += _advance(words["unseen"], 200, 1200)
    out += _badge(0, (x, y - 28), BADGE_R * 0.7, True, "key")[:1]
    return [*out, Label(x + 80, y, words["doubtful"], LEGEND, MUTED)]


def build_diagram(
    geometry: TableGeometry,
    tracks: Mapping[Ball, BallTrack],
    events: Sequence[ScoredEvent],
    *,
    caption: str = "",
    doubtful_below: float = 0.5,
    words: Mapping[str, str] = KEY_WORDS,
    line_of: Callable[[ScoredEvent], str] | None = None,
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
) -> Diagram:
    """The primitives of one shot's diagram (see the module docstring for the frame).

    Args:
        geometry: The table, drawn to scale.
        tracks: Each ball's centre path in table mm; unseen samples drawn dashed.
        events: The shot's events, numbered 1..n in time order where they happened.
        caption: The verdict line(s) under the table, wrapped to the width.
        doubtful_below: Events under this confidence (or with a doubt) drawn orange.
        words: The key's words (:data:`KEY_WORDS`' keys), in the reader's language.
        line_of: An event's legend line after its number (default: ``1.877 s  white-red``).
        discipline: Its marks drawn on the table (chalk lines, pins); None: a plain
            carom table (a pocket table's pockets are drawn either way).
        options: The match's rule options (where the zones lie; None: the defaults).
    """
    o = table_origin(geometry)
    width = geometry.length_mm + 2 * o[0]
    prims = table_primitives(geometry, o, discipline, options)
    prims += _paths(tracks, o, geometry.radius_mm)
    prims += _events(events, tracks, geometry, o, doubtful_below)
    y = geometry.width_mm + 2 * o[1] + CAPTION
    chars = int((width - 2 * PAD) / (CAPTION * 0.6))  # 0.6 em a cell: a wide sans, bold
    for line in wrapped(caption, chars):
        prims.append(Label(PAD, y, line, CAPTION, TEXT, bold=True, cls="caption"))
        y += CAPTION * 1.3
    legend, y = _legend(events, y + LEGEND * 0.6, width - 2 * PAD, doubtful_below, line_of)
    height = y + LEGEND * 1.2
    back = Shape("rect", (0.0, 0.0, width, height), Style(fill=BG), "background")
    return Diagram(width, height, (back, *prims, *legend, *_key(y + LEGEND * 0.4, words)),
                   caption or "shot diagram")  # fmt: skip


def diagram_svg(
    geometry: TableGeometry,
    tracks: Mapping[Ball, BallTrack],
    events: Sequence[ScoredEvent],
    *,
    caption: str = "",
    doubtful_below: float = 0.5,
    words: Mapping[str, str] = KEY_WORDS,
    line_of: Callable[[ScoredEvent], str] | None = None,
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
) -> str:
    """A self-contained ``<svg>`` of the shot (arguments as :func:`build_diagram`)."""
    return render_svg(build_diagram(geometry, tracks, events, caption=caption,
                                    doubtful_below=doubtful_below, words=words,
                                    line_of=line_of, discipline=discipline,
                                    options=options))  # fmt: skip


def diagram_png(
    geometry: TableGeometry,
    tracks: Mapping[Ball, BallTrack],
    events: Sequence[ScoredEvent],
    *,
    caption: str = "",
    doubtful_below: float = 0.5,
    width_px: int = 1280,
    discipline: Discipline | None = None,
    options: RuleOptions | None = None,
) -> U8:
    """The same diagram as a BGR image (h, w, 3) uint8 ``width_px`` wide (for PNG files)."""
    d = build_diagram(geometry, tracks, events, caption=caption, doubtful_below=doubtful_below,
                      discipline=discipline, options=options)  # fmt: skip
    return render_bgr(d, width_px)


def verdict_caption(player: str, verdict: Verdict | None) -> str:
    """``"A +1 — point: red then yellow after 3 cushions"``; review and fouls said first."""
    if verdict is None:
        return f"{player}: no verdict"
    pts = f"+{verdict.points}" if verdict.points else "0"
    if verdict.opponent_points:
        pts += f" (opponent +{verdict.opponent_points})"
    if verdict.penalty:
        pts += f" (penalty {verdict.penalty})"
    text = f"{player} {pts} — {verdict.reason}"
    if verdict.fouls:
        text = f"foul {', '.join(verdict.fouls)}: {text}"
    return f"review: {verdict.review} — {text}" if verdict.review else text

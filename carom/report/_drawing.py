"""Drawing primitives of the shot diagram and their two renderers (SVG text, BGR image).

Canvas units are table millimetres, y down. :mod:`carom.report._diagram` builds the list of
primitives once; :func:`render_svg` and :func:`render_bgr` draw the same list, so the
report's SVG and a PNG cannot disagree.
"""

from __future__ import annotations

import html
from dataclasses import dataclass

import cv2
import numpy as np
from numpy.typing import NDArray

__all__ = [
    "BG",
    "Diagram",
    "Label",
    "Primitive",
    "Shape",
    "Style",
    "dashes",
    "render_bgr",
    "render_svg",
]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
BG, TEXT = "#1b1e23", "#f2f2f2"  # background, text


@dataclass(frozen=True, slots=True)
class Style:
    """Paint of a shape: colours ``#rrggbb``, widths and dashes in canvas units."""

    fill: str | None = None
    stroke: str | None = None
    width: float = 0.0
    dash: tuple[float, float] | None = None
    opacity: float = 1.0


@dataclass(frozen=True, slots=True)
class Shape:
    """``rect`` (x, y, w, h), ``circle`` (cx, cy, r) or ``line`` (x0, y0, x1, y1, ...)."""

    kind: str
    coords: tuple[float, ...]
    style: Style
    cls: str = ""


@dataclass(frozen=True, slots=True)
class Label:
    """Text with its baseline at (x, y); ``anchor`` ``start`` or ``middle``."""

    x: float
    y: float
    text: str
    size: float
    colour: str = TEXT
    anchor: str = "start"
    bold: bool = False
    cls: str = ""


Primitive = Shape | Label


@dataclass(frozen=True, slots=True)
class Diagram:
    """A drawing of ``width`` x ``height`` canvas units (mm) and what it is of."""

    width: float
    height: float
    primitives: tuple[Primitive, ...]
    title: str = ""


def _f(v: float) -> str:
    return f"{v:.1f}".rstrip("0").rstrip(".")


def _svg_paint(s: Style) -> str:
    out = f'fill="{s.fill or "none"}"'
    if s.stroke:
        cap = "butt" if s.dash else "round"
        out += f' stroke="{s.stroke}" stroke-width="{_f(s.width)}"'
        out += f' stroke-linecap="{cap}" stroke-linejoin="round"'
    if s.dash:
        out += f' stroke-dasharray="{_f(s.dash[0])} {_f(s.dash[1])}"'
    return out + (f' opacity="{s.opacity:.2f}"' if s.opacity < 1.0 else "")


def _svg_one(p: Primitive) -> str:
    cls = f' class="{html.escape(p.cls)}"' if p.cls else ""
    if isinstance(p, Label):
        anchor = ' text-anchor="middle"' if p.anchor == "middle" else ""
        bold = ' font-weight="bold"' if p.bold else ""
        return (f'<text{cls} x="{_f(p.x)}" y="{_f(p.y)}" font-size="{_f(p.size)}" '
                f'fill="{p.colour}"{anchor}{bold}>{html.escape(p.text)}</text>')  # fmt: skip
    c, paint = p.coords, _svg_paint(p.style)
    if p.kind == "rect":
        box = f'x="{_f(c[0])}" y="{_f(c[1])}" width="{_f(c[2])}" height="{_f(c[3])}"'
        return f"<rect{cls} {box} {paint}/>"
    if p.kind == "circle":
        return f'<circle{cls} cx="{_f(c[0])}" cy="{_f(c[1])}" r="{_f(c[2])}" {paint}/>'
    pts = " ".join(f"{_f(c[i])},{_f(c[i + 1])}" for i in range(0, len(c), 2))
    return f'<polyline{cls} points="{pts}" {paint}/>'


def render_svg(d: Diagram) -> str:
    """The diagram as one self-contained ``<svg>`` element that scales to its box."""
    head = (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {_f(d.width)} {_f(d.height)}"'
            ' width="100%" role="img" font-family="sans-serif" xml:space="preserve"'
            ' style="max-width:100%;height:auto">')  # fmt: skip
    body = "\n".join(_svg_one(p) for p in d.primitives)
    return f"{head}\n<title>{html.escape(d.title)}</title>\n{body}\n</svg>\n"


def _bgr(colour: str) -> tuple[int, int, int]:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


def dashes(pts: F64, on: float, off: float) -> list[F64]:
    """Split a polyline (n, 2) into dashes ``on`` long with ``off`` gaps."""
    cum = np.r_[0.0, np.cumsum(np.hypot(*np.diff(pts, axis=0).T))]
    out, s = [], 0.0
    while s < cum[-1]:
        e = min(s + on, cum[-1])
        ts = np.r_[s, cum[(cum > s) & (cum < e)], e]
        out.append(np.c_[np.interp(ts, cum, pts[:, 0]), np.interp(ts, cum, pts[:, 1])])
        s += on + off
    return out


_ASCII = str.maketrans({"—": "-", "–": "-", "…": "...", "→": "->", "×": "x", "°": " deg"})


def _cv_one(img: U8, p: Primitive, k: float) -> None:
    """Draw one primitive on ``img`` at ``k`` pixels per canvas unit (sub-pixel, AA)."""
    aa, sh = cv2.LINE_AA, 4
    if isinstance(p, Label):
        text = p.text.translate(_ASCII).encode("ascii", "replace").decode()
        scale, thick = p.size * k * 0.72 / 22.0, max(1, round(p.size * k / (14 if p.bold else 22)))
        (w, _), _ = cv2.getTextSize(text, cv2.FONT_HERSHEY_SIMPLEX, scale, thick)
        x = p.x * k - (w / 2 if p.anchor == "middle" else 0)
        cv2.putText(img, text, (round(x), round(p.y * k)), cv2.FONT_HERSHEY_SIMPLEX, scale,
                    _bgr(p.colour), thick, aa)  # fmt: skip
        return
    s, c = p.style, np.asarray(p.coords) * k
    thick = max(1, round(s.width * k))
    if p.kind == "rect":
        a = (round(c[0] * 16), round(c[1] * 16))
        b = (round((c[0] + c[2]) * 16), round((c[1] + c[3]) * 16))
        if s.fill:
            cv2.rectangle(img, a, b, _bgr(s.fill), -1, aa, sh)
        if s.stroke:
            cv2.rectangle(img, a, b, _bgr(s.stroke), thick, aa, sh)
        return
    if p.kind == "circle":
        ang = np.linspace(0, 2 * np.pi, 65)
        pts = np.c_[c[0] + c[2] * np.cos(ang), c[1] + c[2] * np.sin(ang)]
        if s.fill:
            cv2.fillPoly(img, [np.round(pts * 16).astype(np.int32)], _bgr(s.fill), aa, sh)
    else:
        pts = c.reshape(-1, 2)
    if s.stroke:
        parts = dashes(pts, s.dash[0] * k, s.dash[1] * k) if s.dash else [pts]
        ints = [np.round(q * 16).astype(np.int32) for q in parts if len(q) > 1]
        cv2.polylines(img, ints, False, _bgr(s.stroke), thick, aa, sh)


def render_bgr(d: Diagram, width_px: int = 1280) -> U8:
    """The diagram as a BGR image (h, w, 3) uint8, ``width_px`` wide."""
    k = width_px / d.width
    img = np.empty((round(d.height * k), width_px, 3), np.uint8)
    img[:] = _bgr(BG)
    for p in d.primitives:
        opacity = 1.0 if isinstance(p, Label) else p.style.opacity
        if opacity >= 1.0:
            _cv_one(img, p, k)
            continue
        layer = img.copy()
        _cv_one(layer, p, k)
        cv2.addWeighted(layer, opacity, img, 1.0 - opacity, 0.0, dst=img)
    return img

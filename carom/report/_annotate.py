"""The annotated video of ``carom analyze``: balls ringed and named, trails, events, score.

Streaming: one frame in, one frame out; only the last ``trail_s`` of each ball's image
positions and the events still flashing are kept, so memory does not grow with the
video. Each event flashes where it happened as a ring that grows from the ball and
fades over ``flash_s``. Labels (the score in a free corner, each event, each ball's
name) are light text on dark plates, placed where they cover no ball and no other
label (:mod:`carom.report._annotate_labels`). Encoding reuses the synthetic renderer's
writer (H.264 through PyAV, or mp4v).
"""

from __future__ import annotations

import itertools
import math
from collections import deque
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from types import TracebackType

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration import Calibration
from carom.report._annotate_geometry import radius_grid
from carom.report._annotate_glyphs import Glyphs, HersheyGlyphs
from carom.report._annotate_labels import Box, draw_label, label_size, overlaps, place_label
from carom.report._annotate_words import VideoWords
from carom.report._diagram import BALL_COLOURS, DOUBT, dashes, is_doubtful
from referee import Ball, BallContact, Call, Cushion, CushionContact
from vision import Frame, ScoredEvent, VideoError, default_bitrate, open_video

__all__ = ["LABEL_SCALE", "SCORE_SCALE", "AnnotatedWriter", "BallPx"]

F64 = NDArray[np.float64]
U8 = NDArray[np.uint8]
UV = tuple[float, float]
BGR = tuple[int, int, int]
#: One ball in one frame: its centre ``uv_px`` in the input frame and whether it was seen.
BallPx = tuple[UV, bool]

_AA = cv2.LINE_AA
_NEUTRAL: BGR = (200, 200, 200)  # the score plate's bar
#: Font scales at 720 px high (OpenCV Hershey; the output's height scales them): the
#: score's capitals about 22 px, a label's 16 px: on a phone held across they
#: read like its own small text.
SCORE_SCALE, LABEL_SCALE = 1.0, 0.72


def _bgr(colour: str) -> tuple[int, int, int]:
    r, g, b = (int(colour[i : i + 2], 16) for i in (1, 3, 5))
    return (b, g, r)


@dataclass(frozen=True, slots=True)
class _Flash:
    t_s: float
    uv_px: UV | None  # output pixels; None: no place (a call), shown in the corner
    label: str
    colour: tuple[int, int, int]
    radius_px: float


def _poly(img: U8, pts: F64, colour: BGR, thick: int, off: UV = (0.0, 0.0)) -> None:
    """A sub-pixel anti-aliased polyline (n, 2) in pixels, shifted by ``-off``."""
    ints = np.round((pts - off) * 16).astype(np.int32)
    cv2.polylines(img, [ints], False, colour, thick, _AA, 4)


def _blend_box(
    img: U8, box: tuple[float, ...], alpha: float, draw: Callable[[U8, UV], None]
) -> None:
    """Draw with ``draw(layer, offset)`` inside ``box`` (x0, y0, x1, y1) at ``alpha``.

    Only the box is copied and blended: full-frame copies cost 4 ms each at 720p.
    """
    h, w = img.shape[:2]
    x0, y0 = max(0, math.floor(box[0])), max(0, math.floor(box[1]))
    x1, y1 = min(w, math.ceil(box[2]) + 1), min(h, math.ceil(box[3]) + 1)
    if x1 <= x0 or y1 <= y0:
        return
    roi = img[y0:y1, x0:x1]
    layer = roi.copy()
    draw(layer, (float(x0), float(y0)))
    roi[:] = cv2.addWeighted(layer, alpha, roi, 1.0 - alpha, 0.0)


def _accent(flashes: Sequence[_Flash]) -> BGR:
    return flashes[0].colour if flashes else _NEUTRAL


class AnnotatedWriter:
    """Write an annotated copy of a video, frame by frame.

    Args:
        path: The ``.mp4`` to write.
        size_px: Output (width, height) in pixels; input frames of another size are
            scaled to it (positions with them).
        fps: Frame rate of the output.
        calibration: The camera: gives each ball's apparent radius and where a cushion
            contact happened on the cushion nose.
        codec: ``h264`` (PyAV) or ``mp4v`` (OpenCV), see :func:`vision.open_video`.
        bitrate_bps: H.264 mean bit rate; default twice the camera-like rate. ``carom
            analyze`` passes 1.2 times the source's, so the copy stays near its size.
        trail_s: How long a ball's trail is, seconds.
        flash_s: How long an event stays on screen, seconds.
        doubtful_below: Events under this confidence (or with a doubt) flash orange, ``?``.
        ball_names: The label beside each ball (default its colour's name in ``words``).
        words: Ball names and event labels (default English); ``glyphs``: how text is
            drawn (default OpenCV's font, ASCII only; other scripts: ``pick_glyphs``).
    """

    def __init__(
        self,
        path: Path,
        size_px: tuple[int, int],
        fps: float,
        calibration: Calibration,
        *,
        codec: str = "h264",
        bitrate_bps: int | None = None,
        trail_s: float = 1.5,
        flash_s: float = 0.5,
        doubtful_below: float = 0.5,
        ball_names: Mapping[Ball, str] | None = None,
        words: VideoWords | None = None,
        glyphs: Glyphs | None = None,
    ) -> None:
        rate = bitrate_bps if bitrate_bps is not None else 2 * default_bitrate(size_px, fps)
        self._sink = open_video(path, fps, size_px, codec=codec, bitrate_bps=rate)
        self._size, self._calib = size_px, calibration
        self._trail_s, self._flash_s, self._doubtful = trail_s, flash_s, doubtful_below
        cap = math.ceil(trail_s * fps * 1.5) + 2  # a hard bound even for odd timestamps
        self._trails: dict[Ball, deque[tuple[float, float, float, bool]]] = {}
        self._cap, self._flashes, self._closed = cap, list[_Flash](), False
        self._grid = radius_grid(calibration)
        self._names = dict(ball_names or {})
        self._words = words or VideoWords()
        self._glyphs: Glyphs = glyphs or HersheyGlyphs()
        self._placed: dict[object, int] = {}  # label -> candidate used last frame
        self._thick = max(2, round(size_px[1] / 240))  # 3 px at 720p
        self.frames_written = 0

    # --- geometry (input pixels in, output pixels out where said) ---

    def _scale(self, frame: Frame) -> tuple[float, float]:
        h, w = frame.image_bgr.shape[:2]
        return self._size[0] / w, self._size[1] / h

    def _radius_px(self, uv: UV, frame: Frame) -> float:
        """Apparent ball radius at ``uv`` in input pixels (nearest node of the grid)."""
        (cw, ch), (h, w) = self._calib.image_size_px, frame.image_bgr.shape[:2]
        gv, gu = self._grid.shape[0] - 1, self._grid.shape[1] - 1
        i = min(gv, max(0, round(uv[1] * ch / h / (ch - 1) * gv)))
        j = min(gu, max(0, round(uv[0] * cw / w / (cw - 1) * gu)))
        return float(self._grid[i, j] * w / cw)

    def _on_cushion(self, uv: UV, cushion: Cushion, frame: Frame) -> UV:
        """Where a ball at ``uv`` touches ``cushion``: its point on the nose, input px."""
        g, (cw, ch) = self._calib.geometry, self._calib.image_size_px
        h, w = frame.image_bgr.shape[:2]
        k = np.array([cw / w, ch / h])
        xy = self._calib.px_to_mm(np.asarray([uv], float) * k, g.radius_mm)
        if not np.isfinite(xy).all():
            return uv
        ix = 0 if cushion in (Cushion.HEAD, Cushion.FOOT) else 1
        far = (g.length_mm, g.width_mm)[ix]
        xy[0, ix] = 0.0 if cushion in (Cushion.HEAD, Cushion.LEFT) else far
        out = self._calib.mm_to_px(xy, g.cushion_height_mm)[0] / k
        return (float(out[0]), float(out[1]))

    def _place(self, e: ScoredEvent, balls: Mapping[Ball, BallPx], frame: Frame) -> UV | None:
        """Where the event happened, input pixels; None when it has no place."""
        ev = e.event
        if isinstance(ev, BallContact):
            pts = [balls[b][0] for b in ev.balls if b in balls and math.isfinite(balls[b][0][0])]
            if not pts:
                return None
            mid = np.mean(np.array(pts), axis=0)
            return (float(mid[0]), float(mid[1]))
        ball = None if isinstance(ev, Call) else ev.ball
        if ball is None or ball not in balls or not math.isfinite(balls[ball][0][0]):
            return None
        uv = balls[ball][0]
        return self._on_cushion(uv, ev.cushion, frame) if isinstance(ev, CushionContact) else uv

    def _add_flashes(
        self, events: Sequence[ScoredEvent], balls: Mapping[Ball, BallPx], frame: Frame
    ) -> None:
        sx, sy = self._scale(frame)
        for e in events:
            ev = e.event
            label = self._words.event(e)
            ball = ev.balls[0] if isinstance(ev, BallContact) else getattr(ev, "ball", None)
            colour = _bgr(BALL_COLOURS.get(ball, "#ffffff")) if ball else (255, 255, 255)
            if is_doubtful(e, self._doubtful):
                label, colour = label + " ?", _bgr(DOUBT)
            uv = self._place(e, balls, frame)
            r = self._radius_px(uv, frame) * sx if uv else 0.0
            out = (uv[0] * sx, uv[1] * sy) if uv else None
            self._flashes.append(_Flash(ev.t_s, out, label, colour, r))

    # --- drawing (output pixels) ---

    def _draw_trails(self, img: U8, now: float) -> None:
        """Each ball's last ``trail_s``: newest third opaque, older thirds fainter."""
        t = self._thick
        levels: list[list[tuple[F64, BGR]]] = [[], [], []]
        for ball, trail in self._trails.items():
            colour = _bgr(BALL_COLOURS.get(ball, "#ffffff"))
            for (level, seen), pts in self._trail_runs(trail, now):
                parts = [pts] if seen else dashes(pts, 3.0 * t, 3.0 * t)  # predicted: dashed
                levels[level] += [(p, colour) for p in parts if len(p) > 1]
        for alpha, segs in zip((0.25, 0.5, 0.85), levels, strict=True):
            if not segs:
                continue
            pts = np.concatenate([p for p, _ in segs])
            box = (*(pts.min(axis=0) - 2 * t), *(pts.max(axis=0) + 2 * t))

            def draw(layer: U8, off: UV, segs: list[tuple[F64, BGR]] = segs) -> None:
                for p, colour in segs:
                    _poly(layer, p, colour, t, off)

            _blend_box(img, box, alpha, draw)

    def _trail_runs(
        self, trail: deque[tuple[float, float, float, bool]], now: float
    ) -> list[tuple[tuple[int, bool], F64]]:
        """Runs of the trail (m, 2) with one fade level (0 oldest .. 2) and one ``seen``.

        Dashing a whole run rather than each frame's short step keeps the dashes even.
        """
        runs: list[tuple[tuple[int, bool], list[tuple[float, float]]]] = []
        for (_, u0, v0, _), (t1, u1, v1, seen) in itertools.pairwise(trail):
            if not math.isfinite(u0 + v0 + u1 + v1):
                continue
            key = (min(2, max(0, int((1.0 - (now - t1) / self._trail_s) * 3))), seen)
            if runs and runs[-1][0] == key and runs[-1][1][-1] == (u0, v0):
                runs[-1][1].append((u1, v1))
            else:
                runs.append((key, [(u0, v0), (u1, v1)]))
        return [(key, np.array(pts)) for key, pts in runs]

    def _draw_balls(self, img: U8, balls: Mapping[Ball, BallPx], frame: Frame) -> None:
        """A ring in the ball's colour just outside it; dashed and thinner when predicted."""
        (sx, sy), t = self._scale(frame), self._thick
        for ball, ((u, v), seen) in balls.items():
            if not math.isfinite(u + v):
                continue
            r = self._radius_px((u, v), frame) * sx + t + 1
            colour = _bgr(BALL_COLOURS.get(ball, "#ffffff"))
            if seen:
                c = (round(u * sx * 16), round(v * sy * 16))
                cv2.circle(img, c, round((r + t) * 16), (20, 20, 20), 1, _AA, 4)
                cv2.circle(img, c, round(r * 16), colour, t, _AA, 4)
                continue
            ang = np.linspace(0.0, 2 * np.pi, 49)
            ring = np.c_[u * sx + r * np.cos(ang), v * sy + r * np.sin(ang)]
            for p in dashes(ring, 2.5 * t, 2.5 * t):
                _poly(img, p, colour, max(1, t - 1))

    def _draw_flashes(self, img: U8, now: float) -> None:
        """Events of the last ``flash_s``: a ring that grows from the ball and fades."""
        self._flashes = [f for f in self._flashes if now - f.t_s < self._flash_s]
        t = self._thick
        for f in self._flashes:
            if f.uv_px is None:
                continue
            age = min(1.0, max(0.0, now - f.t_s) / self._flash_s)
            (u, v), r = f.uv_px, f.radius_px * (1.4 + 1.4 * age)

            def ring(layer: U8, off: UV, f: _Flash = f, r: float = r) -> None:
                uv = f.uv_px or (0.0, 0.0)
                c = (round((uv[0] - off[0]) * 16), round((uv[1] - off[1]) * 16))
                cv2.circle(layer, c, round(r * 16), (20, 20, 20), t + 3, _AA, 4)
                cv2.circle(layer, c, round(r * 16), f.colour, t + 1, _AA, 4)

            box = (u - r - 2 * t, v - r - 2 * t, u + r + 2 * t, v + r + 2 * t)
            _blend_box(img, box, 0.25 + 0.75 * (1.0 - age), ring)

    def _ball_boxes(self, balls: Mapping[Ball, BallPx], frame: Frame) -> dict[Ball, Box]:
        """Each ball's box with its ring, output pixels: no label may cover it."""
        (sx, sy), t, out = self._scale(frame), self._thick, {}
        for ball, ((u, v), _) in balls.items():
            if math.isfinite(u + v):
                r = self._radius_px((u, v), frame) * sx + 2 * t + 2
                out[ball] = (u * sx - r, v * sy - r, u * sx + r, v * sy + r)
        return out

    def _corner(self, size: tuple[float, float], balls: Sequence[Box]) -> UV:
        """Where a corner box of ``size`` (w, h) goes: its top-left, output pixels.

        The first corner (top-left, top-right, bottom-left, bottom-right) where it
        covers no ball; top-left when none is free.
        """
        (w, h), (fw, fh), m = size, self._size, 10.0
        for x, y in ((m, m), (fw - m - w, m), (m, fh - m - h), (fw - m - w, fh - m - h)):
            if not any(overlaps((x, y, x + w, y + h), b) for b in balls):
                return (x, y)
        return (m, m)

    def _draw_labels(self, img: U8, boxes: Mapping[Ball, Box], score: Sequence[str]) -> None:
        """The score and calls in the top-left corner, then event labels, then ball names.

        Each is placed where it covers no ball and no label placed before it
        (:func:`place_label`); one with no free place this frame is left out.
        """
        taken: list[Box] = list(boxes.values())
        big, small = self._size[1] / 720 * SCORE_SCALE, self._size[1] / 720 * LABEL_SCALE
        corner = [f for f in self._flashes if f.uv_px is None]
        fixed = [(score, big, _NEUTRAL), ([f.label for f in corner], small, _accent(corner))]
        g = self._glyphs
        sizes = [label_size(ln, sc, g) if ln else (0.0, -6.0) for ln, sc, _ in fixed]
        w, h = max(s[0] for s in sizes), sum(s[1] + 6.0 for s in sizes)
        x, y = self._corner((w, h), taken)
        for (lines, scale, accent), (lw, lh) in zip(fixed, sizes, strict=True):
            if lines:
                box = (x, y, x + lw, y + lh)
                draw_label(img, box, lines, accent, scale, g)
                taken.append(box)
            y += lh + 6.0
        todo: list[tuple[object, Sequence[str], Box, BGR]] = []
        for f in self._flashes:
            if f.uv_px is not None:
                (u, v), r = f.uv_px, f.radius_px * 1.4
                todo.append(((f.t_s, f.label), [f.label], (u - r, v - r, u + r, v + r), f.colour))
        for ball, bb in boxes.items():
            name = self._names.get(ball) or self._words.ball(ball)
            todo.append((ball, [name], bb, _bgr(BALL_COLOURS.get(ball, "#ffffff"))))
        placed: dict[object, int] = {}
        for key, lines, anchor, accent in todo:
            size = label_size(lines, small, g)
            spot = place_label(size, anchor, taken, self._size, gap=self._thick + 2.0,
                               prefer=self._placed.get(key))  # fmt: skip
            if spot is not None:
                draw_label(img, spot[0], lines, accent, small, g)
                taken.append(spot[0])
                placed[key] = spot[1]
        self._placed = placed

    # --- public ---

    def write(
        self,
        frame: Frame,
        balls: Mapping[Ball, BallPx],
        events_now: Sequence[ScoredEvent] = (),
        score_text: str = "",
    ) -> None:
        """Annotate one frame and append it.

        Args:
            frame: The video frame (left untouched; an annotated copy is written).
            balls: Each tracked ball: ``((u_px, v_px), seen)`` in the frame's pixels;
                ``seen`` False draws a dashed hollow ring (a predicted position).
            events_now: Events that happened since the previous frame; each flashes for
                ``flash_s`` where it happened, with a label.
            score_text: The running score, drawn in the top-left corner (lines split on
                newlines).
        """
        if self._closed:
            raise VideoError("annotated video: write after close; open a new AnnotatedWriter")
        src = frame.image_bgr
        img: U8 = np.array(src, dtype=np.uint8, order="C")  # a copy: the frame stays clean
        if img.shape[1::-1] != self._size:
            img = np.asarray(cv2.resize(img, self._size, interpolation=cv2.INTER_AREA), np.uint8)
        sx, sy = self._scale(frame)
        now = frame.t_s
        for ball, ((u, v), seen) in balls.items():
            trail = self._trails.setdefault(ball, deque(maxlen=self._cap))
            trail.append((now, u * sx, v * sy, seen))
        for trail in self._trails.values():
            while trail and now - trail[0][0] > self._trail_s:
                trail.popleft()
        self._add_flashes(events_now, balls, frame)
        self._draw_trails(img, now)
        self._draw_balls(img, balls, frame)
        self._draw_flashes(img, now)
        self._draw_labels(img, self._ball_boxes(balls, frame), score_text.splitlines())
        self._sink.write(img)
        self.frames_written += 1

    def close(self) -> None:
        """Flush and close the file (idempotent)."""
        if not self._closed:
            self._closed = True
            self._sink.close()

    def __enter__(self) -> AnnotatedWriter:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

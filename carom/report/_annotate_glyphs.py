"""Text on the annotated video in any script: OpenCV's font for ASCII, a system font else.

OpenCV's built-in (Hershey) fonts have ASCII only: a player called 김민수 came out as
``??? 3 : 1 Ben``, and ball and event names in Korean or Turkish could not be drawn at
all. :func:`pick_glyphs` takes every text a video will show: all ASCII, it keeps the
Hershey font (the video as before, to the pixel); else it looks for a TrueType font
that has every character (``CAROM_FONT``, then fontconfig's ``fc-list``), or the fewest
fonts that have them together (the usual Windows and macOS fonts among them), and draws
with Pillow, each character in the first font that has it. Characters no font has are
returned, and ``carom analyze`` names them in a note with the way out.

Both draw white text from a baseline; sizes follow OpenCV's ``scale`` (capitals about
22 px at scale 1), so the labels' layout (:mod:`._annotate_labels`) is the same.
"""

from __future__ import annotations

import math
import os
import shutil
import subprocess
from collections.abc import Iterable, Sequence
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Protocol

import cv2
import numpy as np
from numpy.typing import NDArray

if TYPE_CHECKING:
    from PIL.ImageFont import FreeTypeFont

__all__ = ["FontGlyphs", "Glyphs", "HersheyGlyphs", "fonts_for", "pick_glyphs"]

U8 = NDArray[np.uint8]
BGR = tuple[int, int, int]

_FONT = cv2.FONT_HERSHEY_SIMPLEX
#: A TrueType font's pixel size per unit of OpenCV's scale (its capitals ~22 px).
_PX_PER_SCALE = 30.0
#: Fonts tried when fontconfig is not there (Windows, macOS), in order.
_KNOWN_FONTS = (
    "C:/Windows/Fonts/malgun.ttf",
    "C:/Windows/Fonts/segoeui.ttf",
    "C:/Windows/Fonts/arial.ttf",
    "/System/Library/Fonts/AppleSDGothicNeo.ttc",
    "/System/Library/Fonts/Supplemental/Arial Unicode.ttf",
    "/Library/Fonts/Arial Unicode.ttf",
)
#: fontconfig families preferred when several fonts have every character.
_PREFERRED = ("NotoSansCJK", "NanumGothic", "NanumBarunGothic", "DejaVuSans.", "NotoSans-")


class Glyphs(Protocol):
    """Measures and draws one line of text at OpenCV's ``scale``."""

    def size(self, text: str, scale: float) -> tuple[int, int]:
        """(width, height above the baseline) in pixels."""
        ...

    def draw(self, img: U8, at: tuple[int, int], text: str, scale: float, bgr: BGR) -> None:
        """Draw ``text`` on ``img`` (h, w, 3) with its baseline's left end at ``at``."""
        ...


class HersheyGlyphs:
    """OpenCV's built-in font: ASCII only (other characters come out as ``?``)."""

    def size(self, text: str, scale: float) -> tuple[int, int]:
        (w, h), _ = cv2.getTextSize(text, _FONT, scale, _thickness(scale))
        return int(w), int(h)

    def draw(self, img: U8, at: tuple[int, int], text: str, scale: float, bgr: BGR) -> None:
        cv2.putText(img, text, at, _FONT, scale, bgr, _thickness(scale), cv2.LINE_AA)


class FontGlyphs:
    """TrueType fonts drawn with Pillow: each character from the first that has it.

    One font rarely has every script (a Hangul font may lack Turkish ``ğış``), so a
    text is drawn in runs, each in its font, on one baseline. Each text's coverage is
    rendered once and kept.
    """

    def __init__(self, paths: Sequence[Path]) -> None:
        if not paths:
            raise ValueError("FontGlyphs: no font given")
        self.paths = tuple(paths)
        self._masks: dict[tuple[str, int], tuple[U8, int, int]] = {}
        self._which: dict[str, int] = {}

    @property
    def path(self) -> Path:
        """The first font (the one most characters come from)."""
        return self.paths[0]

    def _runs(self, text: str) -> list[tuple[str, int]]:
        """``text`` cut where the font changes: (run, font index) pairs."""
        runs: list[tuple[str, int]] = []
        for ch in text:
            if ch.isspace():
                i = runs[-1][1] if runs else 0
            else:
                if ch not in self._which:
                    found = (k for k, p in enumerate(self.paths) if _covers(p, ch))
                    self._which[ch] = next(found, 0)
                i = self._which[ch]
            if runs and runs[-1][1] == i:
                runs[-1] = (runs[-1][0] + ch, i)
            else:
                runs.append((ch, i))
        return runs

    def _mask(self, text: str, scale: float) -> tuple[U8, int, int]:
        """The text's coverage (h, w) 0-255 and its offset from the baseline's left end."""
        px = max(6, round(scale * _PX_PER_SCALE))
        key = (text, px)
        if key not in self._masks:
            from PIL import Image, ImageDraw

            pieces, x = [], 0.0
            for run, i in self._runs(text):
                font = _truetype(str(self.paths[i]), px)
                pieces.append((run, font, x, font.getbbox(run, anchor="ls")))
                x += font.getlength(run)
            x0 = math.floor(min(at + box[0] for _, _, at, box in pieces))
            y0 = math.floor(min(box[1] for *_, box in pieces))
            x1 = math.ceil(max(at + box[2] for _, _, at, box in pieces))
            y1 = math.ceil(max(box[3] for *_, box in pieces))
            image = Image.new("L", (max(1, x1 - x0), max(1, y1 - y0)), 0)
            draw = ImageDraw.Draw(image)
            for run, font, at, _ in pieces:
                draw.text((at - x0, -y0), run, fill=255, font=font, anchor="ls")
            if len(self._masks) > 512:
                self._masks.clear()
            self._masks[key] = (np.asarray(image, np.uint8), x0, y0)
        return self._masks[key]

    def size(self, text: str, scale: float) -> tuple[int, int]:
        mask, dx, dy = self._mask(text, scale)
        cap = self._mask("H", scale)[2]
        return dx + mask.shape[1], max(-cap, -dy)

    def draw(self, img: U8, at: tuple[int, int], text: str, scale: float, bgr: BGR) -> None:
        mask, dx, dy = self._mask(text, scale)
        x, y = at[0] + dx, at[1] + dy
        h, w = img.shape[:2]
        x0, y0, x1, y1 = max(x, 0), max(y, 0), min(x + mask.shape[1], w), min(y + mask.shape[0], h)
        if x1 <= x0 or y1 <= y0:
            return
        alpha = mask[y0 - y : y1 - y, x0 - x : x1 - x, None].astype(np.float32) / 255.0
        roi = img[y0:y1, x0:x1].astype(np.float32)
        img[y0:y1, x0:x1] = np.round(roi + (np.array(bgr, np.float32) - roi) * alpha)


def _thickness(scale: float) -> int:
    return max(1, round(scale * 2))


@lru_cache(maxsize=32)
def _truetype(path: str, px: int) -> FreeTypeFont:
    from PIL import ImageFont

    return ImageFont.truetype(path, px)


@lru_cache(maxsize=256)
def _no_glyph(path: Path) -> bytes | None:
    """What the font at ``path`` draws for a character it lacks (None: not a font)."""
    try:
        font = _truetype(str(path), 24)
    except OSError:
        return None
    return bytes(font.getmask("\ufffe"))  # a non-character: always the font's "no glyph"


@lru_cache(maxsize=65536)
def _covers(path: Path, ch: str) -> bool:
    """Whether the font at ``path`` has a glyph for the character ``ch``."""
    missing = _no_glyph(path)
    if missing is None:
        return False
    return bytes(_truetype(str(path), 24).getmask(ch)) != missing


def _fontconfig(chars: str) -> list[Path]:
    """Fonts fontconfig has with every character of ``chars`` (all, for none), preferred first."""
    fc = shutil.which("fc-list")
    if fc is None:
        return []
    charset = " ".join(f"{ord(c):x}" for c in sorted(set(chars)) if not c.isspace())
    pattern = f":charset={charset}" if charset else ":"
    try:
        out = subprocess.run([fc, pattern, "file"], capture_output=True, text=True,
                             timeout=10, check=False).stdout  # fmt: skip
    except (OSError, subprocess.SubprocessError):
        return []
    files = {line.strip().rstrip(":") for line in out.splitlines() if line.strip()}
    fonts = [f for f in files if f.lower().endswith((".ttf", ".otf", ".ttc"))]

    def rank(f: str) -> tuple[int, str]:
        name = Path(f).name
        return next((i for i, p in enumerate(_PREFERRED) if p in name), len(_PREFERRED)), f

    return [Path(f) for f in sorted(fonts, key=rank)]


def fonts_for(chars: str) -> tuple[list[Path], str]:
    """Fonts that together have every character of ``chars``, and the characters none has.

    ``CAROM_FONT`` first, then one font with them all (fontconfig), else the fewest
    fonts that cover most (each the one with the most of the rest), Windows' and
    macOS's usual fonts among them.
    """
    given = os.environ.get("CAROM_FONT")
    first = [Path(given)] if given else []
    todo = {c for c in chars if not c.isspace()}
    for path in (*first, *_fontconfig(chars)[:1]):
        if path.is_file() and all(_covers(path, c) for c in todo):
            return [path], ""
    candidates = [p for p in dict.fromkeys([*first, *_fontconfig(""),
                                            *map(Path, _KNOWN_FONTS)]) if p.is_file()]  # fmt: skip
    chosen: list[Path] = []
    while todo and candidates:
        best = max(candidates, key=lambda p: sum(_covers(p, c) for c in todo))
        covered = {c for c in todo if _covers(best, c)}
        if not covered:
            break
        chosen.append(best)
        todo -= covered
        candidates.remove(best)
    return chosen, "".join(sorted(todo))


def pick_glyphs(texts: Iterable[str]) -> tuple[Glyphs, str]:
    """The glyphs for ``texts``, and the letters none of them can draw ("" for none).

    All ASCII: :class:`HersheyGlyphs`. Else :class:`FontGlyphs` with fonts that have
    every character; letters no font has are returned (they show as the font's empty
    box; the caller tells the user, ``carom analyze`` in a note); with no font at all,
    Hershey (``?`` for each such letter).
    """
    chars = "".join(sorted({c for t in texts for c in t if not c.isspace()}))
    if chars.isascii():
        return HersheyGlyphs(), ""
    fonts, missing = fonts_for(chars)
    if not fonts:
        return HersheyGlyphs(), "".join(c for c in chars if not c.isascii())
    return FontGlyphs(fonts), missing

"""How wide a text is drawn: a wide (CJK) glyph takes two character cells.

The diagrams wrap their caption and cut their event lines to the width they have.
Counting characters let Korean captions and event lines run off the picture (each
Hangul syllable is about twice as wide as a Latin letter): they are measured in cells.
"""

from __future__ import annotations

import unicodedata

__all__ = ["cells", "cut_to", "wrapped"]


def cells(text: str) -> int:
    """The character cells ``text`` takes: 2 for a wide or full-width glyph, else 1."""
    return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)


def wrapped(text: str, width: int) -> list[str]:
    """``text`` in lines of at most ``width`` cells, broken at spaces (a longer word alone)."""
    lines: list[str] = []
    line = ""
    for word in text.split():
        if line and cells(line) + 1 + cells(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}" if line else word
    return [*lines, line] if line else lines


def cut_to(text: str, width: int) -> str:
    """``text`` if it fits ``width`` cells, else cut to fit with an ellipsis (one cell)."""
    if cells(text) <= width:
        return text
    out, used = "", 0
    for c in text:
        used += cells(c)
        if used > width - 1:
            break
        out += c
    return out + "…"

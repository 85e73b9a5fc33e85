"""How wide a text shows in a terminal, so names in any script keep a table in line.

Hangul, kanji and full-width letters take two columns, combining marks none.
"""

from __future__ import annotations

import unicodedata

__all__ = ["display_width", "pad_to"]


def display_width(text: str) -> int:
    """The columns ``text`` takes in a terminal."""
    width = 0
    for c in text:
        if unicodedata.combining(c) or unicodedata.category(c) in ("Mn", "Me", "Cf"):
            continue
        width += 2 if unicodedata.east_asian_width(c) in "WF" else 1
    return width


def pad_to(text: str, width: int, right: bool = False) -> str:
    """``text`` padded with spaces to ``width`` columns (``right``: aligned right)."""
    fill = " " * max(0, width - display_width(text))
    return fill + text if right else text + fill

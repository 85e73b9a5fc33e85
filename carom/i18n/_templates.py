"""English sentences with ``{fields}`` read back into their fields (keyed for the pages)."""

from __future__ import annotations

import re
import string
from collections.abc import Collection

__all__ = ["NUMBER", "template_regex"]

#: A number as the server writes it in English (``+1.5``, ``12``).
NUMBER = r"[+-]?[0-9]+(?:\.[0-9]+)?"


def template_regex(template: str, text_fields: Collection[str] = ()) -> re.Pattern[str]:
    """A regex matching ``template`` filled in.

    Each field is a number, or any text for those in ``text_fields`` (the shortest
    that lets the rest match).
    """
    out = []
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name:
            out.append(f"(?P<{name}>{'.+?' if name in text_fields else NUMBER})")
    return re.compile("".join(out))

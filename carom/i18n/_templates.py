"""English sentences with ``{fields}`` read back into their fields (keyed for the pages)."""

from __future__ import annotations

import re
import string
from collections.abc import Collection, Mapping

__all__ = ["NUMBER", "TemplateReader", "template_fields", "template_regex"]

#: A number as the server writes it in English (``+1.5``, ``12``).
NUMBER = r"[+-]?[0-9]+(?:\.[0-9]+)?"


def template_regex(template: str, text_fields: Collection[str] = ()) -> re.Pattern[str]:
    """A regex matching ``template`` filled in.

    Each field is a number, or any text for those in ``text_fields`` (the shortest
    that lets the rest match); a field used again must repeat its first value.
    """
    out, seen = [], set()
    for literal, name, _, _ in string.Formatter().parse(template):
        out.append(re.escape(literal))
        if name in seen:
            out.append(f"(?P={name})")
        elif name:
            seen.add(name)
            out.append(f"(?P<{name}>{'.+?' if name in text_fields else NUMBER})")
    return re.compile("".join(out))


def template_fields(template: str) -> set[str]:
    """The ``{fields}`` of a template."""
    return {name for _, name, _, _ in string.Formatter().parse(template) if name}


class TemplateReader:
    """Reads sentences made from ``templates`` (by key) back into their key and fields.

    ``text_fields`` hold words (names, sentences); the others numbers.
    """

    def __init__(self, templates: Mapping[str, str], text_fields: Collection[str] = ()) -> None:
        self._regexes = {key: template_regex(t, text_fields) for key, t in templates.items()}

    def read(self, text: str) -> tuple[str, dict[str, str]] | None:
        """``(key, fields)`` of the first template ``text`` is made from, else None."""
        for key, regex in self._regexes.items():
            found = regex.fullmatch(text)
            if found is not None:
                return key, found.groupdict()
        return None

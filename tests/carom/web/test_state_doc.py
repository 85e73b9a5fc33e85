"""docs/web.md's STATE names every field the server sends, and no other.

The doc writes the STATE as JSON with only the keys (``{"version", "match": {"id",
...} | null, "players": [{...}]}``); the test reads that outline and compares each
object's keys with a real STATE: a match on the table with its shot clock, and the
scoreboard object of a board behind the match (the app has none without a camera).
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

from carom.web._state import scoreboard_doc
from tests.carom.board.test_confirm import _status
from tests.carom.web._web import client, new_match

WEB_MD = Path(__file__).parents[3] / "docs" / "web.md"

#: An outline: the keys of an object, each with the outline of its value (None: a leaf).
Outline = dict[str, Any]


def _state_outline() -> Outline:
    text = WEB_MD.read_text(encoding="utf-8")
    found = re.search(r"^STATE: `(\{.*?\})`", text, re.M | re.S)
    assert found, "docs/web.md has no 'STATE: `{...}`' paragraph"
    tokens = re.findall(r'"[^"]*"|\.\.\.|[{}\[\]:,|]|null', found.group(1))
    outline, rest = _object(tokens)
    assert not rest, rest
    return outline


def _object(tokens: list[str]) -> tuple[Outline, list[str]]:
    """The outline of the object ``tokens`` begins with, and the tokens after it."""
    assert tokens[0] == "{", tokens[:3]
    out: Outline = {}
    rest = tokens[1:]
    while rest[0] != "}":
        if rest[0] == "...":  # an object the doc does not spell out
            return {}, rest[2:]
        key, rest = rest[0].strip('"'), rest[1:]
        out[key] = None
        if rest[0] == ":":
            out[key], rest = _value(rest[1:])
        if rest[0] == ",":
            rest = rest[1:]
    return out, rest[1:]


def _value(tokens: list[str]) -> tuple[Any, list[str]]:
    """A value's outline (an object's, or a list's one element's) and what follows it."""
    if tokens[0] == "[":
        value, rest = _object(tokens[1:])
        assert rest[0] == "]", rest[:3]
        rest = rest[1:]
    else:
        value, rest = _object(tokens)
    while rest and rest[0] == "|":  # "| null"
        rest = rest[2:]
    return value, rest


def _compare(outline: Outline, doc: dict[str, Any], where: str) -> list[str]:
    """Keys the doc's outline and the real object ``doc`` do not share."""
    out = [f"{where}.{k}: sent, not in docs/web.md" for k in sorted(set(doc) - set(outline))]
    out += [f"{where}.{k}: in docs/web.md, not sent" for k in sorted(set(outline) - set(doc))]
    for key, inner in outline.items():
        value = doc.get(key)
        if isinstance(value, list) and value and isinstance(value[0], dict) and inner:
            out += _compare(inner, value[0], f"{where}.{key}[0]")
        elif isinstance(value, dict) and inner:
            out += _compare(inner, value, f"{where}.{key}")
    return out


def test_the_outline_is_read_as_written() -> None:
    outline = _state_outline()
    assert outline["version"] is None and outline["last_shot"] == {}
    assert "name" in outline["match"]["players"] and "remaining_s" in outline["match"]["shot_clock"]


def test_every_state_field_is_in_the_doc_and_every_documented_field_is_sent(
    tmp_path: Path,
) -> None:
    outline = _state_outline()
    with client(tmp_path) as c:
        state = new_match(c, clock={"enabled": True})
    assert state["match"]["shot_clock"] is not None
    state["scoreboard"] = scoreboard_doc(_status())
    assert _compare(outline, state, "STATE") == []

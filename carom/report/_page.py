"""What every part of the report says in its language: words, numbers, reasons, captions.

:class:`Page` holds the language and the diagram settings; :func:`diagram_caption` and
:func:`key_words` give a diagram's caption and key in that language, for the report's
cards and the web history's diagrams alike (:func:`diagram_texts`).
"""

from __future__ import annotations

import html
import json
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from calibration import TableGeometry
from carom.i18n import catalogue, format_number
from carom.report._evidence import evidence_code
from referee import (
    BALL_FIELDS,
    BALL_KINDS,
    ITEM_FIELDS,
    MATCH_TABLE,
    PIN_FIELDS,
    ZONE_FIELDS,
    BallRegions,
    Discipline,
    LayoutItem,
    PinItem,
    Reason,
    RuleOptions,
    ShotRecord,
    Verdict,
    ball_regions,
    doubt_code,
    layout_items,
    pin_items,
    reasons_from_json,
    region_words,
    review_code,
)

_NUMBER = re.compile(r"-?[0-9]+(?:\.[0-9]+)?")

__all__ = [
    "Page",
    "average_text",
    "diagram_caption",
    "diagram_texts",
    "escape",
    "key_words",
    "points_text",
    "score_text",
]


@dataclass(frozen=True, slots=True)
class Page:
    """What every part of the page needs: the language and the diagram settings."""

    lang: str
    geometry: TableGeometry
    doubtful_below: float
    #: The diagrams draw its marks (chalk lines, pins); None: a plain table.
    discipline: Discipline | None = None
    options: RuleOptions | None = None

    def t(self, key: str, **fields: object) -> str:
        """The message ``key``, filled in, escaped for HTML."""
        return escape(self.raw(key, **fields))

    def raw(self, key: str, **fields: object) -> str:
        """The message ``key`` filled in (not escaped: for :mod:`_report_stats`)."""
        return catalogue("report").text(self.lang, key, **fields)

    def num(self, value: float, decimals: int = 0) -> str:
        return format_number(self.lang, value, decimals)

    def word(self, prefix: str, name: object) -> str:
        """A ball's or cushion's name in the language (the name itself if unknown)."""
        key = f"{prefix}_{name}"
        return self.raw(key) if key in catalogue("report").messages["en"] else str(name)

    def reason(self, verdict: Verdict) -> str:
        """The verdict's reason in the language (not escaped).

        Each keyed part (``referee.Reason``) from the ``reason_<key>`` message, its ball
        and foul names in the language too; the referee's English sentence where the
        verdict has no parts or the catalogue lacks one of their keys.
        """
        return self.phrases(verdict.reason_parts, verdict.reason)

    def phrases(self, parts: Sequence[Reason], english: str) -> str:
        """Keyed phrases in the language, joined with ``; `` (not escaped).

        ``english`` (the referee's sentence) where there are no parts or the catalogue
        lacks one of their keys.
        """
        if self.lang == "en" or not parts or not all(self._known(p) for p in parts):
            return english
        return "; ".join(self.raw(f"reason_{p.key}", **self._fields(p)) for p in parts)

    def review(self, verdict: Verdict) -> str:
        """Why the verdict asks for review, in the language (not escaped; "" for none)."""
        return self.phrases(verdict.review_parts, verdict.review or "")

    def doubt(self, text: str) -> str:
        """An event's doubt (vision's English sentence) in the language (not escaped)."""
        if self.lang == "en":
            return text
        name, fields = review_code("doubt", doubt_code(text))
        said = self._coded(fields)
        if name == "low_confidence":  # its text is a contact's evidence
            said["text"] = self.evidence(fields["text"])
        return self.raw(f"doubt_{name}", **said)

    def evidence(self, text: str) -> str:
        """A contact's evidence (vision's English line) in the language (not escaped).

        Keyed where it is a line the finders write (:mod:`._evidence`), or a doubt; else
        as it is.
        """
        if self.lang == "en" or not text:
            return text
        code = evidence_code(text)
        if code is None:
            name, fields = review_code("doubt", doubt_code(text))
            return text if name == "text" else self.raw(f"doubt_{name}", **self._coded(fields))
        key, fields = code
        said = self._coded({k: v for k, v in fields.items() if k != "evidence"})
        if "evidence" in fields:
            said["evidence"] = self.evidence(fields["evidence"])
        return self.raw(f"evidence_{key}", **said)

    def _known(self, part: Reason) -> bool:
        """The catalogue has words for ``part``, and for the review codes and parts in it."""
        known = catalogue("report").messages["en"]
        fields = part.field_map()
        if f"reason_{part.key}" not in known:
            return False
        for field, prefix in (("doubt", "doubt"), ("event", "review_event")):
            if (
                field in fields
                and f"{prefix}_{review_code(field, str(fields[field]))[0]}" not in known
            ):
                return False
        return "instead" not in fields or all(map(self._known, _instead(fields["instead"])))

    def break_rule(self, record: ShotRecord) -> str:
        """The rule that judged the shot a break or play, in the language (not escaped)."""
        return self.phrases(record.break_parts, record.break_why)

    def note(self, record: ShotRecord) -> str:
        """The shot's notes (who is at the table, a game's end) in the language."""
        return self.phrases(record.note_parts, record.note)

    def announcements(self, verdict: Verdict) -> tuple[str, ...]:
        """The verdict's announcements in the language (not escaped).

        Each from its keyed phrase; the referee's English where they are not all keyed or
        the catalogue lacks a key.
        """
        parts = verdict.announcement_parts
        english = catalogue("report").messages["en"]
        if (self.lang == "en" or len(parts) != len(verdict.announcements)
                or any(f"reason_{p.key}" not in english for p in parts)):  # fmt: skip
            return verdict.announcements
        return tuple(self.raw(f"reason_{p.key}", **self._fields(p)) for p in parts)

    def _fields(self, part: Reason) -> dict[str, object]:
        out: dict[str, object] = {}
        for name, value in part.fields:
            if name in ("doubt", "event"):
                code, fields = review_code(name, str(value))
                prefix = "doubt" if name == "doubt" else "review_event"
                out[name] = self.raw(f"{prefix}_{code}", **self._coded(fields))
            elif name == "instead":
                out[name] = "; ".join(
                    self.raw(f"reason_{p.key}", **self._fields(p)) for p in _instead(value)
                )
            elif name in ZONE_FIELDS:
                out[name] = self._zone_field(name, value)
            elif name in BALL_FIELDS:
                out[name] = self.word("ball", value)
            elif name == "fouls":
                out[name] = self.fouls(str(value).split(","))
            elif name in PIN_FIELDS:
                out[name] = self.word("pin", value)
            elif name == "cushion":  # a cushion as the announcements name it
                out[name] = self.word("side", value)
            elif name == "place":
                out[name] = self.word("place", value)
            elif name == "pins":
                out[name] = ", ".join(self.word("pin", p) for p in str(value).split(","))
            elif name in ITEM_FIELDS:
                out[name] = ITEM_FIELDS[name].join(self._item(i) for i in pin_items(str(value)))
            elif name == "layout":
                out[name] = ", ".join(self._placed(i) for i in layout_items(str(value)))
            else:  # a count or a distance as the language writes it; a name as it is
                out[name] = self.num(value) if isinstance(value, int) else value
        return out

    def _coded(self, fields: Mapping[str, str]) -> dict[str, object]:
        """A review code's fields in the language: names as words, numbers as written."""
        words = {"ball": "ball", "other": "ball", "first": "ball", "second": "ball",
                 "cushion": "side", "second_cushion": "side", "pin": "pin",
                 "pocket": "pocket", "foul": "foul"}  # fmt: skip
        out: dict[str, object] = {}
        for name, value in fields.items():
            if name in words:
                out[name] = self.word(words[name], value)
            elif name == "gaps":
                out[name] = ", ".join("-".join(self._gap_word(n) for n in g.split("-"))
                                      for g in value.split(", "))  # fmt: skip
            elif name != "text" and _NUMBER.fullmatch(value):
                out[name] = self.num(float(value), len(value.partition(".")[2]))
            else:
                out[name] = value
        return out

    def _gap_word(self, name: str) -> str:
        """A ball's or a cushion's name in a gap (``white-left``)."""
        is_ball = f"ball_{name}" in catalogue("report").messages["en"]
        return self.word("ball" if is_ball else "side", name)

    def _item(self, item: PinItem) -> str:
        """A pin game stroke's item: its pins or balls named in the language."""
        prefix = "ball" if item.kind in BALL_KINDS else "pin"
        fields = item.fields(lambda name: self.word(prefix, name))
        return self.raw(f"pins_item_{item.kind}", **fields)

    def _placed(self, item: LayoutItem) -> str:
        """A ball of the break layout and where it stood, in the language."""
        ball = self.raw(f"layout_ball_{item.role}", ball=self.word("ball", item.ball))
        return self.raw(f"layout_{item.form}", ball=ball, place=self.word("place", item.place),
                        distance_mm=self.num(item.distance_mm or 0))  # fmt: skip

    def _zone_field(self, name: str, value: str | int) -> str:
        """A zone note's field (``referee.ZONE_FIELDS``) in the language."""
        text = str(value)
        if name == "nth":
            return self.raw(f"ordinal_{'first' if value == 1 else 'other'}", n=self.num(int(value)))
        if name == "group":
            return self.word("zone_group", text)
        if name == "balls":
            return ", ".join(self.word("ball", b) for b in text.split(","))
        if name in ("regions", "refused"):
            return self._regions(text.split("+"), "and" if name == "regions" else "or")
        if name == "left":
            return "; ".join(
                self.raw("zone_item_left", ball=self.word("ball", i.ball),
                         regions=self._regions(i.regions, "and"))
                for i in ball_regions(text)
            )  # fmt: skip
        return ", ".join(self._placed_in_zones(i) for i in ball_regions(text))

    def _regions(self, names: Sequence[str], join: str) -> str:
        """Region labels in the language, joined by its "and" or "or"."""
        return self._joined([self._region(name) for name in names], join)

    def _region(self, name: str) -> str:
        kind, words = region_words(name)
        said = "-".join(self.word("zone_word", w) for w in words)
        return self.raw(f"zone_region_{kind}", name=said)

    def _joined(self, labels: Sequence[str], join: str) -> str:
        joined = labels[0]
        for label in labels[1:]:
            joined = self.raw(f"zone_join_{join}", a=joined, b=label)
        return joined

    def _placed_in_zones(self, item: BallRegions) -> str:
        ball = self.word("ball", item.ball)
        if not item.regions:
            return self.raw("zone_item_none", ball=ball)
        labels = [
            self.raw("zone_item_free", region=self._region(r)) if free else self._region(r)
            for r, free in zip(item.regions, item.free, strict=True)
        ]
        return self.raw("zone_item_placed", ball=ball, regions=self._joined(labels, "and"))

    def fouls(self, fouls: Sequence[object]) -> str:
        """Foul names in the language, comma-separated (not escaped)."""
        return ", ".join(self.word("foul", f) for f in fouls)


def _instead(value: str | int) -> tuple[Reason, ...]:
    """The call without a review's deciding event: its parts (``referee.REVIEW_FIELDS``)."""
    return reasons_from_json(json.loads(str(value)))


def escape(text: object) -> str:
    """``text`` escaped for HTML (quotes too)."""
    return html.escape(str(text), quote=True)


def average_text(page: Page, text: str) -> str:
    """The referee's truncated average (``1.666``) as the language writes it."""
    try:
        return page.num(float(text), len(text.partition(".")[2]))
    except ValueError:
        return text


def points_text(page: Page, v: Verdict) -> str:
    """``+1``, ``0``, with the opponent's points and the penalty as they apply."""
    pts = f"+{page.num(v.points)}" if v.points else "0"
    if v.opponent_points:
        pts += f" ({page.raw('opponent_plus', n=page.num(v.opponent_points))})"
    if v.penalty:
        pts += f" ({page.raw('penalty', n=page.num(v.penalty))})"
    return pts


def score_text(page: Page, score: str | Mapping[str, int]) -> str:
    """``A 3 : B 2`` in the language's numbers (a text as it is)."""
    if isinstance(score, str):
        return score
    return " : ".join(f"{p} {page.num(v)}" for p, v in score.items())


def diagram_caption(page: Page, player: str, verdict: Verdict | None) -> str:
    """The diagram's caption: review and fouls first, then ``player +1 — reason``."""
    if verdict is None:
        return f"{player}: {page.raw('no_verdict')}"
    parts = [page.raw("review", reason=page.review(verdict))] if verdict.review else []
    if verdict.fouls:
        parts.append(page.raw("fouls", fouls=page.fouls(verdict.fouls)))
    return " — ".join([*parts, f"{player} {points_text(page, verdict)} — {page.reason(verdict)}"])


def key_words(page: Page) -> dict[str, str]:
    """The diagram key's words (``start``, ``end``, ``unseen``, ``doubtful``)."""
    return {k: page.raw(f"key_{k}") for k in ("start", "end", "unseen", "doubtful")}


def diagram_texts(lang: str, player: str, verdict: Verdict | None) -> tuple[str, dict[str, str]]:
    """A shot diagram's caption and key words in ``lang`` (the web history's diagrams)."""
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    return diagram_caption(page, player, verdict), key_words(page)

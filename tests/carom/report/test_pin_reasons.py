"""Five-pins reasons in the report's languages: every golden five-pins verdict's keyed
parts said with the report catalogue's words (pins, balls, fouls and scoring items named
in the language), and in English the referee's own sentence."""

from __future__ import annotations

import re

import pytest

from calibration import TableGeometry
from carom.i18n import LANGUAGES, catalogue
from carom.report._page import Page
from referee import BALL_FIELDS, MATCH_TABLE, Reason, Verdict, pin_items
from tests.referee.golden import SHOTS_DIR, run_golden

VERDICTS = [run_golden(p)[0] for p in sorted((SHOTS_DIR / "five-pins").glob("*.json"))]
#: Words of the referee's English five-pins reasons that a translation must not keep.
ENGLISH_WORDS = re.compile(r"side pin|centre pin|points to|no pin fell|not standing|stroke \d")


def _said(lang: str, part: Reason) -> str:
    """The oracle: one part in ``lang``, from the catalogue's templates."""
    cat = catalogue("report")
    fields = part.field_map()
    for name in BALL_FIELDS & set(fields):
        fields[name] = cat.text(lang, f"ball_{fields[name]}")
    if "fouls" in fields:
        fields["fouls"] = ", ".join(
            cat.text(lang, f"foul_{f}") for f in str(fields["fouls"]).split(",")
        )
    if "pins" in fields:
        fields["pins"] = ", ".join(
            cat.text(lang, f"pin_{p}") for p in str(fields["pins"]).split(",")
        )
    if "items" in fields:
        items = []
        for item in pin_items(str(fields["items"])):
            prefix = "ball" if item.kind in ("carom", "ricochet") else "pin"
            names = [cat.text(lang, f"{prefix}_{n}") for n in item.names]
            items.append(cat.text(lang, f"pins_item_{item.kind}", value=item.value,
                                  pin=names[0] if names else "", count=len(names),
                                  pins=", ".join(names), path="->".join(names)))  # fmt: skip
        fields["items"] = ", ".join(items)
    return cat.text(lang, f"reason_{part.key}", **fields)


def test_every_five_pins_verdict_has_keyed_parts_and_they_cover_every_item_kind() -> None:
    assert len(VERDICTS) >= 15 and all(v.reason_parts for v in VERDICTS)
    keys = {p.key for v in VERDICTS for p in v.reason_parts}
    kinds = {i.kind for v in VERDICTS for p in v.reason_parts
             for i in pin_items(str(p.field_map().get("items", "")))}  # fmt: skip
    assert {"pins_scored", "pins_foul", "pins_foul_stroke", "pins_ignored"} <= keys
    assert {"centre_with_sides", "side_pin", "side_pins", "carom", "ricochet"} <= kinds


@pytest.mark.parametrize("lang", LANGUAGES)
def test_five_pins_reasons_are_said_in_the_report_s_language(lang: str) -> None:
    page = Page(lang, TableGeometry(MATCH_TABLE), 0.5)
    for v in VERDICTS:
        said = page.reason(v)
        if lang == "en":
            assert said == v.reason
            continue
        assert said == "; ".join(_said(lang, p) for p in v.reason_parts)
        assert not ENGLISH_WORDS.search(said), (lang, said)


def test_a_verdict_without_parts_keeps_the_referee_s_sentence() -> None:
    page = Page("fr", TableGeometry(MATCH_TABLE), 0.5)
    assert page.reason(Verdict(inning_ends=True, reason="overshoot: no score")) == (
        "overshoot: no score"
    )

"""A zone note's keyed fields (``referee._zone_notes``): region names parsed word by word,
``ball:region+region`` items that read back as written, English as the notes always
said it, and malformed fields refused when the phrase is made."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from referee import (
    REGION_WORDS,
    BallRegions,
    Discipline,
    Reason,
    ReasonKey,
    RuleOptions,
    RulesError,
    Table,
    ball_regions,
    english_ordinal,
    region_words,
    regions_for,
)

#: Every region any discipline has, on the tables the rules name.
NAMES = sorted(
    {
        r.name
        for d in Discipline
        if d.is_balkline or d is Discipline.STRAIGHT_RAIL
        for table in (Table(), Table(length_mm=2100.0, width_mm=1050.0))
        for r in regions_for(d, table, RuleOptions(corner_zone_limit=2))
    }
)


def test_every_region_of_every_table_has_its_kind_and_words() -> None:
    assert len(NAMES) == 9 + 10 + 4  # 3 x 3 zones, anchor squares, corners
    for name in NAMES:
        kind, words = region_words(name)
        assert set(words) <= set(REGION_WORDS)
        assert name == "-".join(words if kind == "zone" else (kind, *words))


@pytest.mark.parametrize(
    "name", ["", "zone-head-left", "head", "head-left-right", "corner-middle-left",
             "anchor-head-middle", "left-head", "corner-head-centre"],
)  # fmt: skip
def test_a_name_no_region_has_is_refused(name: str) -> None:
    with pytest.raises(RulesError, match="region"):
        region_words(name)


_items = st.lists(
    st.builds(
        lambda ball, picked: BallRegions(
            ball, tuple(n for n, _ in picked), tuple(f for _, f in picked)
        ),
        st.sampled_from(["white", "yellow", "red"]),
        st.lists(st.tuples(st.sampled_from(NAMES), st.booleans()), max_size=3),
    ),
    min_size=1,
    max_size=3,
)


@given(_items)
def test_items_read_back_as_written(items: list[BallRegions]) -> None:
    code = ",".join(i.code() for i in items)
    assert ball_regions(code) == tuple(items)
    placed = Reason.of(ReasonKey.ZONE_FREE, placed=code).english()
    assert placed.count(" in ") == len(items)
    assert placed.count("no zone (off the table?)") == sum(not i.regions for i in items)
    assert placed.count("(free)") == sum(sum(i.free) for i in items)


def test_english_as_the_notes_said_it() -> None:
    assert [english_ordinal(n) for n in (1, 2, 3, 4, 11, 12, 13, 21, 22, 101, 111)] == [
        "1st", "2nd", "3rd", "4th", "11th", "12th", "13th", "21st", "22nd", "101st", "111th",
    ]  # fmt: skip
    left = Reason.of(
        ReasonKey.ZONE_LEFT, group="objects", regions="head-left+anchor-left-head", nth=2,
        left="red:head-left+anchor-left-head,yellow:anchor-left-head",
    ).english()  # fmt: skip
    assert left == (
        "both object balls in zone head-left and anchor-left-head (2nd carom there): red left "
        "zone head-left and anchor-left-head; yellow left anchor-left-head, the carom counts"
    )
    refused = Reason.of(
        ReasonKey.ZONE_REFUSED, group="all", regions="corner-foot-right", nth=3,
        refused="corner-foot-right+head-left",
    ).english()  # fmt: skip
    assert refused.startswith("zone limit: all three balls in corner-foot-right (3rd carom")
    assert "none left corner-foot-right or zone head-left:" in refused


@pytest.mark.parametrize(
    "fields",
    [
        {"group": "some", "regions": "head-left", "nth": 1},
        {"group": "all", "regions": "head-lef", "nth": 1},
        {"group": "all", "regions": "head-left+", "nth": 1},
        {"group": "all", "regions": "head-left", "nth": 0},
        {"group": "all", "regions": "head-left", "nth": "1"},
    ],
)
def test_a_malformed_field_is_refused_when_the_phrase_is_made(fields: dict[str, object]) -> None:
    with pytest.raises(RulesError, match="zone note"):
        Reason.of(ReasonKey.ZONE_LAST, **fields)  # type: ignore[arg-type]
    for bad in ("white", ":head-left", "white:head-left,red:nowhere"):
        with pytest.raises(RulesError, match="zone note"):
            Reason.of(ReasonKey.ZONE_FREE, placed=bad)
    where = {"group": "all", "regions": "head-left", "nth": 1}
    with pytest.raises(RulesError, match="left no region"):
        Reason.of(ReasonKey.ZONE_LEFT, **where, left="red:")  # type: ignore[arg-type]

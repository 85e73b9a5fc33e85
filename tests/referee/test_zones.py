"""Zone geometry and the carry through an inning (rules.md §5 straight rail, balkline)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from referee import (
    MATCH_TABLE,
    Ball,
    BallContact,
    Carry,
    Discipline,
    Foul,
    RuleOptions,
    RulesError,
    Shot,
    ShotContext,
    Table,
    judge,
)
from referee._table import XY
from referee._zones import Rect, balkline_mm, regions_for, zone_rule_for

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
SMALL = Table(length_mm=2100.0, width_mm=1050.0)  # the tournament table of 35/x and 52/x
NINE_FOOT = Table(length_mm=2540.0, width_mm=1270.0)
BALKLINES = [d for d in Discipline if d.is_balkline]
CAROM = (BallContact(t_s=0.4, balls=(W, R)), BallContact(t_s=0.9, balls=(W, Y)))


def zones(discipline: Discipline, table: Table = MATCH_TABLE, **opts: Any) -> list[Rect]:
    regions = regions_for(discipline, table, RuleOptions(**opts))
    return [r for r in regions if isinstance(r, Rect) and not r.name.startswith("anchor-")]


def anchors(discipline: Discipline, table: Table = MATCH_TABLE) -> list[Rect]:
    regions = regions_for(discipline, table, RuleOptions())
    return [r for r in regions if isinstance(r, Rect) and r.name.startswith("anchor-")]


@pytest.mark.parametrize(
    ("discipline", "table", "count"),
    [
        (Discipline.BALKLINE_47_2, Table(), 9),
        (Discipline.BALKLINE_47_1, Table(), 9),
        (Discipline.BALKLINE_71_2, Table(), 6),
        (Discipline.BALKLINE_35_2, SMALL, 9),
        (Discipline.BALKLINE_52_1, SMALL, 6),
        # 71 cm on the 4.5 x 9 ft table: the lines would cross, they become one.
        (Discipline.BALKLINE_71_2, Table(length_mm=2764.0, width_mm=1382.0), 6),
    ],
)
def test_zone_count(discipline: Discipline, table: Table, count: int) -> None:
    assert len(zones(discipline, table)) == count


def _lines_of(rects: list[Rect], axis: int, extent_mm: float) -> list[float]:
    """The inner zone borders along one axis (0: x, across the length; 1: y)."""
    edges = {edge for r in rects for edge in (r.x_mm, r.y_mm)[axis]}
    return sorted(e for e in edges if 0.0 < e < extent_mm)


# docs/shot-log.md "table": 47 and 71 cm on the 2840 mm table, 35 and 52.5 cm on the
# 2100 mm one, scaled by the length; lines of one axis that would cross become one.
@pytest.mark.parametrize(
    ("discipline", "table", "x_lines", "y_lines"),
    [
        (Discipline.BALKLINE_47_2, MATCH_TABLE, [470.0, 2370.0], [470.0, 950.0]),
        (Discipline.BALKLINE_47_2, SMALL, [347.535, 1752.465], [347.535, 702.465]),
        (Discipline.BALKLINE_47_1, NINE_FOOT, [420.352, 2119.648], [420.352, 849.648]),
        (Discipline.BALKLINE_71_2, MATCH_TABLE, [710.0, 2130.0], [710.0]),
        (Discipline.BALKLINE_71_2, SMALL, [525.0, 1575.0], [525.0]),
        (Discipline.BALKLINE_71_2, NINE_FOOT, [635.0, 1905.0], [635.0]),
        (Discipline.BALKLINE_35_2, SMALL, [350.0, 1750.0], [350.0, 700.0]),
        (Discipline.BALKLINE_35_1, NINE_FOOT, [423.333, 2116.667], [423.333, 846.667]),
        (Discipline.BALKLINE_35_1, MATCH_TABLE, [473.333, 2366.667], [473.333, 946.667]),
        (Discipline.BALKLINE_52_2, SMALL, [525.0, 1575.0], [525.0]),
        (Discipline.BALKLINE_52_1, NINE_FOOT, [635.0, 1905.0], [635.0]),
        (Discipline.BALKLINE_52_1, MATCH_TABLE, [710.0, 2130.0], [710.0]),
    ],
)
def test_balklines_are_named_for_one_table_and_scaled_to_the_others(
    discipline: Discipline, table: Table, x_lines: list[float], y_lines: list[float]
) -> None:
    rects = zones(discipline, table)
    assert _lines_of(rects, 0, table.length_mm) == pytest.approx(x_lines, abs=1e-3)
    assert _lines_of(rects, 1, table.width_mm) == pytest.approx(y_lines, abs=1e-3)
    assert balkline_mm(discipline, table) == pytest.approx(x_lines[0], abs=1e-3)


@pytest.mark.parametrize("table", [SMALL, NINE_FOOT])
def test_anchor_squares_stand_on_the_cushions_centred_on_the_scaled_lines(table: Table) -> None:
    side = 178.0 * table.length_mm / 2840.0  # 131.6 mm on 2100, 159.2 mm on 2540
    line = 470.0 * table.length_mm / 2840.0
    length, width = table.length_mm, table.width_mm
    got = {a.name: (a.x_mm, a.y_mm) for a in anchors(Discipline.BALKLINE_47_2, table)}
    want = {
        "anchor-left-head": ((line - side / 2, line + side / 2), (0.0, side)),
        "anchor-right-foot": ((length - line - side / 2, length - line + side / 2),
                              (width - side, width)),
        "anchor-head-right": ((0.0, side), (width - line - side / 2, width - line + side / 2)),
        "anchor-foot-left": ((length - side, length), (line - side / 2, line + side / 2)),
    }  # fmt: skip
    assert len(got) == 8
    for name, (xs, ys) in want.items():
        assert got[name][0] == pytest.approx(xs) and got[name][1] == pytest.approx(ys), name
    # 71/2 on the 2540 table: the lines along it merged in the middle, one square each end.
    merged = {a.name: a for a in anchors(Discipline.BALKLINE_71_2, NINE_FOOT)}
    assert merged["anchor-head-centre"].y_mm == pytest.approx((555.4, 714.6), abs=0.01)


def test_balkline_distance_is_only_for_balkline() -> None:
    with pytest.raises(RulesError, match="straight-rail has no balklines"):
        balkline_mm(Discipline.STRAIGHT_RAIL, MATCH_TABLE)


_LENGTHS = st.floats(min_value=1000.0, max_value=4000.0)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BALKLINES), _LENGTHS, st.floats(min_value=0.35, max_value=1.0))
def test_zones_tile_the_table_symmetrically_whatever_its_size(
    discipline: Discipline, length_mm: float, aspect: float
) -> None:
    table = Table(length_mm=length_mm, width_mm=max(250.0, length_mm * aspect))
    rects = zones(discipline, table)
    area = sum((r.x_mm[1] - r.x_mm[0]) * (r.y_mm[1] - r.y_mm[0]) for r in rects)
    assert area == pytest.approx(table.length_mm * table.width_mm)
    assert all(r.x_mm[0] < r.x_mm[1] and r.y_mm[0] < r.y_mm[1] for r in rects)
    counts = []
    for axis, extent in ((0, table.length_mm), (1, table.width_mm)):
        lines = _lines_of(rects, axis, extent)
        assert lines == pytest.approx([extent - x for x in reversed(lines)])  # mirror image
        assert len(lines) in (1, 2)
        counts.append(len(lines) + 1)
    assert len(rects) == counts[0] * counts[1]


@settings(max_examples=200, deadline=None)
@given(st.sampled_from(BALKLINES), _LENGTHS)
def test_on_a_two_by_one_table_lines_and_anchors_keep_their_share_of_the_length(
    discipline: Discipline, length_mm: float
) -> None:
    table = Table(length_mm=length_mm, width_mm=length_mm / 2.0)
    named = 2840.0 if discipline.value[9:11] in ("47", "71") else 2100.0
    share = balkline_mm(discipline, MATCH_TABLE) / 2840.0
    assert balkline_mm(discipline, table) / length_mm == pytest.approx(share)
    assert balkline_mm(discipline, Table(named, named / 2.0)) == pytest.approx(
        {"47": 470.0, "71": 710.0, "35": 350.0, "52": 525.0}[discipline.value[9:11]]
    )
    for square in anchors(discipline, table):
        sides = (square.x_mm[1] - square.x_mm[0], square.y_mm[1] - square.y_mm[0])
        assert sides == pytest.approx((178.0 * length_mm / 2840.0,) * 2)


def test_nine_zones_have_a_free_centre_unless_the_option_says_no() -> None:
    free = [z.name for z in zones(Discipline.BALKLINE_47_2) if z.free]
    assert free == ["middle-centre"]
    assert not any(z.free for z in zones(Discipline.BALKLINE_47_2, centre_zone_free=False))
    assert not any(z.free for z in zones(Discipline.BALKLINE_71_2))


def test_six_zones_split_the_width_in_the_middle() -> None:
    names = {z.name: z for z in zones(Discipline.BALKLINE_71_2, Table(2764.0, 1382.0))}
    assert sorted(names) == sorted(
        f"{row}-{col}" for row in ("head", "middle", "foot") for col in ("left", "right")
    )
    assert names["head-left"].y_mm == (0.0, 691.0)


def test_52_is_52_5_cm_and_anchor_squares_scale_with_the_table() -> None:
    head_left = zones(Discipline.BALKLINE_52_2, SMALL)[0]
    assert head_left.x_mm == (0.0, 525.0)
    square = {a.name: a for a in anchors(Discipline.BALKLINE_52_2, SMALL)}["anchor-left-head"]
    side = 178.0 * 2100.0 / 2840.0
    assert square.y_mm[0] == 0.0
    assert square.y_mm[1] == pytest.approx(side)
    assert square.x_mm == pytest.approx((525.0 - side / 2, 525.0 + side / 2))


def test_anchor_names() -> None:
    assert len(anchors(Discipline.BALKLINE_47_2)) == 8
    assert {a.name for a in anchors(Discipline.BALKLINE_71_2)} == {
        "anchor-left-head",
        "anchor-right-head",
        "anchor-left-foot",
        "anchor-right-foot",
        "anchor-head-centre",
        "anchor-foot-centre",
    }
    no_anchors = regions_for(Discipline.BALKLINE_47_2, Table(), RuleOptions(anchor_squares=False))
    assert all(not r.name.startswith("anchor-") for r in no_anchors)


def test_straight_rail_corners_only_with_a_limit() -> None:
    assert regions_for(Discipline.STRAIGHT_RAIL, Table(), RuleOptions()) == ()
    corners = regions_for(Discipline.STRAIGHT_RAIL, SMALL, RuleOptions(corner_zone_limit=2))
    assert [c.name for c in corners] == [
        "corner-head-left",
        "corner-head-right",
        "corner-foot-left",
        "corner-foot-right",
    ]
    leg = 355.0 * 2100.0 / 2840.0
    assert corners[0].contains((leg / 2, leg / 2 - 1.0), 0.0)
    assert not corners[0].contains((leg / 2, leg / 2 + 1.0), 0.0)


def test_disciplines_without_zones_have_no_zone_rule() -> None:
    with pytest.raises(RulesError, match="three-cushion has no zone rule"):
        zone_rule_for(Discipline.THREE_CUSHION)


def _stroke(index: int, start: dict[Ball, XY], end: dict[Ball, XY]) -> Shot:
    return Shot(
        index=index, cue_ball=W, events=CAROM, start_positions_mm=start, end_positions_mm=end
    )


def test_carry_runs_through_an_inning_in_47_2() -> None:
    ctx = ShotContext(discipline=Discipline.BALKLINE_47_2, cue_ball=W, opponent_ball=Y)
    inside = {W: (100.0, 400.0), Y: (200.0, 150.0), R: (350.0, 300.0)}
    first = judge(_stroke(0, inside, inside), ctx)
    assert (first.points, first.carry) == (1, Carry("head-left", 1))
    second = judge(_stroke(1, inside, inside), dataclasses.replace(ctx, carry=first.carry))
    assert second.fouls == (Foul.ZONE_LIMIT,)
    assert second.inning_ends
    out = {**inside, R: (600.0, 300.0)}
    driven = judge(_stroke(1, inside, out), dataclasses.replace(ctx, carry=first.carry))
    assert (driven.points, driven.carry) == (1, Carry())
    # Red comes back with a carom from outside: no restriction, the count starts anew.
    back = judge(_stroke(2, out, inside), dataclasses.replace(ctx, carry=driven.carry))
    assert (back.points, back.carry) == (1, Carry())
    fresh = judge(_stroke(3, inside, inside), dataclasses.replace(ctx, carry=back.carry))
    assert (fresh.points, fresh.carry) == (1, Carry("head-left", 1))


def test_straight_rail_limit_of_three_counts_on() -> None:
    ctx = ShotContext(
        discipline=Discipline.STRAIGHT_RAIL,
        cue_ball=W,
        opponent_ball=Y,
        options=RuleOptions(corner_zone_limit=3),
    )
    corner = {W: (60.0, 200.0), Y: (150.0, 90.0), R: (220.0, 60.0)}
    first = judge(_stroke(0, corner, corner), ctx)
    assert first.carry == Carry("corner-head-left", 1)
    assert "1 more carom there" in first.reason
    second = judge(_stroke(1, corner, corner), dataclasses.replace(ctx, carry=first.carry))
    assert second.carry == Carry("corner-head-left", 2)
    third = judge(_stroke(2, corner, corner), dataclasses.replace(ctx, carry=second.carry))
    assert third.fouls == (Foul.ZONE_LIMIT,)
    assert "3rd carom there" in third.reason


def test_a_run_joined_under_way_does_not_know_its_zone_count_and_says_so() -> None:
    """A balkline match joined on a run of 3: the first carom with both object balls in a
    zone was "1st carom there" though it may be the 2nd, past /2's limit. It is allowed
    and held for review; the next one in the same zone is at least the 2nd and refused;
    a new inning knows its count again (found by a review as a referee)."""
    from referee import Ball, BallContact, Match, MatchConfig, Shot, StartState

    w, y, r = Ball.WHITE, Ball.YELLOW, Ball.RED
    at = {w: (200.0, 270.0), y: (200.0, 400.0), r: (150.0, 150.0)}
    config = MatchConfig(
        discipline=Discipline.BALKLINE_47_2, players=("Ana", "Ben"),
        cue_balls={"Ana": w, "Ben": y}, target={"Ana": 200, "Ben": 200},
        start=StartState(board={"Ana": 10, "Ben": 5}, innings={"Ana": 3, "Ben": 3},
                         shooter="Ana", run=3),
    )  # fmt: skip

    def carom(i: int, cue: Ball, objects: tuple[Ball, Ball]) -> Shot:
        events = (BallContact(t_s=i + 0.3, balls=(cue, objects[0])),
                  BallContact(t_s=i + 0.8, balls=(cue, objects[1])))  # fmt: skip
        return Shot(index=i, cue_ball=cue, events=events, start_s=float(i), end_s=i + 0.9,
                    start_positions_mm=at, end_positions_mm=at)  # fmt: skip

    match = Match(config)
    first = match.play(carom(0, w, (r, y))).verdict
    assert first.points == 1 and first.review is not None
    assert "how many caroms were made there is not known" in first.reason
    second = match.play(carom(1, w, (r, y))).verdict
    assert second.points == 0 and "2nd carom there" in second.reason and second.review is None
    ben = match.play(carom(2, y, (r, w))).verdict  # Ben's own inning: counted from 1
    assert ben.points == 1 and ben.review is None and "1st carom there" in ben.reason
    unknown = Match(dataclasses.replace(config, start=StartState(shooter="Ana")))
    assert unknown.play(carom(0, w, (r, y))).verdict.review is None  # no run under way

"""Zone geometry and the carry through an inning (rules.md §5 straight rail, balkline)."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

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
from referee._zones import Rect, regions_for, zone_rule_for

W, Y, R = Ball.WHITE, Ball.YELLOW, Ball.RED
SMALL = Table(length_mm=2100.0, width_mm=1050.0)
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

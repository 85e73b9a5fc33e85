"""Table geometry: agrees with the referee's spots and zones and with the renderer."""

from __future__ import annotations

import numpy as np
import pytest

from calibration import CUSHIONS, PYRAMID_TABLE, CalibrationError, TableGeometry
from referee import MATCH_TABLE, Discipline, Pin, RuleOptions, Spot, Table
from referee._zones import regions_for
from synth import TableLook, five_pins_layout, pyramid_pockets, seven_pins_layout


def test_sizes_come_from_the_referee_table() -> None:
    geo = TableGeometry(Table(3072.0, 1536.0, 61.0))
    assert (geo.length_mm, geo.width_mm, geo.ball_diameter_mm) == (3072.0, 1536.0, 61.0)
    assert geo.radius_mm == 30.5
    assert geo.cushion_height_mm == 37.0


def test_corners_in_polygon_order_and_at_nose_height() -> None:
    geo = TableGeometry()
    assert geo.corners_mm().tolist() == [[0, 0], [2840, 0], [2840, 1420], [0, 1420]]
    assert geo.corners_xyz_mm().shape == (4, 3)
    assert np.all(geo.corners_xyz_mm()[:, 2] == 37.0)
    assert np.all(geo.corners_xyz_mm(0.0)[:, 2] == 0.0)


def test_cushion_points_run_along_each_nose() -> None:
    geo = TableGeometry()
    head = geo.cushion_points_xyz_mm(CUSHIONS[0], 5)
    assert head.shape == (5, 3)
    assert np.all(head[:, 0] == 0.0) and head[0, 1] == 0.0 and head[-1, 1] == 1420.0
    right = geo.cushion_points_xyz_mm(CUSHIONS[3], 3, z_mm=10.0)
    assert right.tolist() == [[0, 1420, 10], [1420, 1420, 10], [2840, 1420, 10]]
    with pytest.raises(CalibrationError, match="n must be"):
        geo.cushion_points_xyz_mm(CUSHIONS[0], 1)


@pytest.mark.parametrize("table", [MATCH_TABLE, Table(2100.0, 1050.0, 61.5), PYRAMID_TABLE])
def test_renderer_and_geometry_agree(table: Table) -> None:
    geo = TableGeometry(table)
    for discipline in (None, Discipline.FIVE_PINS, Discipline.BALKLINE_47_2):
        look = TableLook(table=table, discipline=discipline)
        assert np.array_equal(geo.diamonds_mm(), look.diamonds_mm())
        assert np.array_equal(geo.spots_mm(discipline), look.spots_mm())
        assert np.array_equal(geo.chalk_lines_mm(discipline), look.chalk_lines_mm())


def test_diamonds_sit_on_the_rail_top() -> None:
    geo = TableGeometry()
    xyz = geo.diamonds_xyz_mm()
    assert xyz.shape == (24, 3)
    assert np.all(xyz[:, 2] == geo.rail_height_mm)
    assert np.sum(xyz[:, 1] < 0) == 9 and np.sum(xyz[:, 0] < 0) == 3


def test_spots_are_the_referee_spots() -> None:
    geo = TableGeometry()
    for spot in Spot:
        assert geo.spot_mm(spot) == MATCH_TABLE.spot(spot)
    assert geo.spots_mm().tolist() == [[710, 710], [1420, 710], [2130, 710]]
    five = geo.spots_mm(Discipline.FIVE_PINS)
    assert [2840 - 100, 710] in five.tolist() and len(five) == 8  # centre pin = centre spot


def test_pins_and_pockets_match_the_simulator_layouts() -> None:
    assert TableGeometry().five_pins_mm() == five_pins_layout()
    pyramid = TableGeometry.pyramid()
    assert pyramid.seven_pins_mm() == seven_pins_layout()
    assert pyramid.pockets_mm() == pyramid_pockets()
    assert TableGeometry().pockets_mm() == {}
    assert pyramid.pins_mm(Discipline.PIN_CAROM_7)[Pin.SPOT3] == PYRAMID_TABLE.spot(Spot.SPOT3)
    assert TableGeometry().pins_mm(Discipline.THREE_CUSHION) == {}


def test_balklines_are_the_referee_zones() -> None:
    geo = TableGeometry()
    opts = RuleOptions()
    assert geo.regions(Discipline.BALKLINE_71_2, opts) == regions_for(
        Discipline.BALKLINE_71_2, MATCH_TABLE, opts
    )
    lines = geo.chalk_lines_mm(Discipline.BALKLINE_47_2)
    xs = {x0 for x0, _, x1, _ in lines.tolist() if x0 == x1}
    assert {470.0, 2370.0} <= xs
    assert geo.chalk_lines_mm(Discipline.THREE_CUSHION).shape == (0, 4)
    assert geo.chalk_lines_mm(None).shape == (0, 4)


def test_grid_every_10_cm_inside_the_surface() -> None:
    grid = TableGeometry().grid_mm(100.0)
    assert grid.shape == (28 + 14, 4)
    assert grid[:, [0, 2]].max() <= 2840.0 and grid[:, [1, 3]].max() <= 1420.0


def test_dict_round_trip_and_errors_name_the_field() -> None:
    geo = TableGeometry.pyramid(cushion_height_mm=40.0)
    assert TableGeometry.from_dict(geo.to_dict()) == geo
    bad = geo.to_dict() | {"length_mm": "long"}
    with pytest.raises(CalibrationError, match=r"^table\.length_mm: expected a number"):
        TableGeometry.from_dict(bad)
    missing = {k: v for k, v in geo.to_dict().items() if k != "width_mm"}
    with pytest.raises(CalibrationError, match=r"^table\.width_mm: missing$"):
        TableGeometry.from_dict(missing)
    with pytest.raises(CalibrationError, match=r"^table: table length_mm must be"):
        TableGeometry.from_dict(geo.to_dict() | {"length_mm": 50.0})
    with pytest.raises(CalibrationError, match="rail_height_mm must be"):
        TableGeometry(rail_height_mm=20.0)

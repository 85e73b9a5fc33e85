"""``carom scoreboard-emulator --fault``: several faults per option, nonsense refused."""

from __future__ import annotations

import argparse
import math

import pytest
from hypothesis import given
from hypothesis import strategies as st

from carom.cli._emulator import add_parser, fault_values, parse_faults
from hardware import Faults
from referee import CaromError
from tests.carom.cli._in_process import carom_in_process

_PROBABILITY = st.floats(0.0, 1.0)
_SECONDS = st.floats(min_value=1e-3, max_value=1e6)


def _parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser()
    add_parser(parser.add_subparsers(dest="command"))
    return parser


def test_several_faults_in_one_option_and_in_repeated_options() -> None:
    args = _parser().parse_args(
        ["scoreboard-emulator", "--fault", "drop=0.2,corrupt=0.1", "--fault", "vanish=30"]
    )
    faults, reboot_s, vanish_s = parse_faults(args.fault)
    assert faults == Faults(drop=0.2, corrupt=0.1)
    assert reboot_s == math.inf and vanish_s == 30.0


@pytest.mark.parametrize(
    ("value", "says"),
    [
        ("drop=2", "drop takes a per-byte probability from 0 to 1"),
        ("drop=-1", "drop takes a per-byte probability"),
        ("drop=nan", "drop takes a per-byte probability"),
        ("drop=inf", "drop takes a per-byte probability"),
        ("corrupt=1.5", "corrupt takes a per-byte probability"),
        ("delay-ack=-0.1", "delay-ack takes seconds >= 0"),
        ("delay-ack=nan", "delay-ack takes seconds >= 0"),
        ("reboot=0", "reboot takes seconds > 0"),
        ("vanish=inf", "vanish takes seconds > 0"),
        ("melt=1", "unknown name 'melt'; use drop, corrupt, delay-ack, reboot, vanish"),
        ("drop", "drop takes a per-byte probability"),
        ("drop=", "drop takes a per-byte probability"),
        ("drop=0.1,", "unknown name ''"),
        ("drop=0.1,drop=0.2", "drop is given twice"),
    ],
)
def test_nonsense_is_refused_in_one_line_with_status_2(value: str, says: str) -> None:
    out = carom_in_process("scoreboard-emulator", "--fault", value, "--seconds", "0")
    assert out.returncode == 2
    errors = [line for line in out.stderr.splitlines() if "error:" in line]
    assert len(errors) == 1 and "argument --fault" in errors[0] and says in errors[0], out.stderr
    assert out.stdout == ""


def test_a_fault_in_two_options_is_refused_by_the_command() -> None:
    out = carom_in_process("scoreboard-emulator", "--fault", "drop=0.1", "--fault", "drop=0.2")
    assert out.returncode == 2
    assert out.stderr == "carom: fault drop is given twice; give it once\n"


@given(st.text(max_size=40))
def test_any_text_gives_checked_values_or_the_one_error(text: str) -> None:
    try:
        values, error = fault_values(text), ""
    except CaromError as exc:
        values, error = {}, str(exc)
    if error:
        assert "\n" not in error and error.startswith("fault ")  # one line, names it
        return
    assert values and all(not math.isnan(v) for v in values.values())
    faults, _, _ = parse_faults([text])  # what passed builds the emulator's faults
    assert 0.0 <= faults.drop <= 1.0 and 0.0 <= faults.corrupt <= 1.0


@given(
    st.fixed_dictionaries(
        {},
        optional={
            "drop": _PROBABILITY,
            "corrupt": _PROBABILITY,
            "delay-ack": st.one_of(st.floats(0.0, 1e6), st.just(math.inf)),
            "reboot": _SECONDS,
            "vanish": _SECONDS,
        },
    ).filter(bool),
    st.integers(1, 3),
)
def test_good_values_round_trip_in_any_grouping(values: dict[str, float], groups: int) -> None:
    items = [f"{name}={value!r}" for name, value in values.items()]
    specs = [",".join(items[i::groups]) for i in range(groups) if items[i::groups]]
    faults, reboot_s, vanish_s = parse_faults(specs)
    assert faults.drop == values.get("drop", 0.0)
    assert faults.corrupt == values.get("corrupt", 0.0)
    assert faults.ack_delay_s == values.get("delay-ack", 0.0)
    assert reboot_s == values.get("reboot", math.inf)
    assert vanish_s == values.get("vanish", math.inf)

"""The scoreboard CRC (``binascii.crc_hqx``) against known vectors and the bitwise loop."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from hardware.scoreboard._crc import crc16_ccitt


def _bitwise(data: bytes, crc: int = 0xFFFF) -> int:
    """The loop of docs/scoreboard-protocol.md, bit by bit (the code before issue 19)."""
    for byte in data:
        crc ^= byte << 8
        for _ in range(8):
            crc = ((crc << 1) ^ 0x1021) if crc & 0x8000 else (crc << 1)
            crc &= 0xFFFF
    return crc


@pytest.mark.parametrize(
    ("data", "crc"),
    [
        (b"123456789", 0x29B1),  # the CRC-16/CCITT-FALSE check value
        (b"", 0xFFFF),
        (b"A", 0xB915),
        (b"012AH", 0x1B4B),  # the protocol document's worked example
    ],
)
def test_known_vectors(data: bytes, crc: int) -> None:
    assert crc16_ccitt(data) == crc
    assert _bitwise(data) == crc


def test_the_worked_example_byte_by_byte() -> None:
    crc = 0xFFFF
    for byte, after in zip(b"012AH", (0xD7A3, 0x3EE8, 0x298C, 0x61AE, 0x1B4B), strict=True):
        crc = crc16_ccitt(bytes([byte]), crc)
        assert crc == after


@given(data=st.binary(max_size=300), start=st.integers(0, 0xFFFF))
def test_equals_the_bitwise_loop(data: bytes, start: int) -> None:
    assert crc16_ccitt(data, start) == _bitwise(data, start)

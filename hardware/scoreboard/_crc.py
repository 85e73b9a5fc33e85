"""CRC-16/CCITT-FALSE, the checksum of every scoreboard frame.

Polynomial 0x1021, initial value 0xFFFF, no reflection, no final XOR; the check
value over ``b"123456789"`` is ``0x29B1``. Table-driven so a 200-byte frame costs
200 lookups; a firmware writer can use the bitwise loop in docs/scoreboard-protocol.md.
"""

from __future__ import annotations

__all__ = ["crc16_ccitt"]

_POLY = 0x1021
_INIT = 0xFFFF


def _table_entry(byte: int) -> int:
    crc = byte << 8
    for _ in range(8):
        crc = ((crc << 1) ^ _POLY) if crc & 0x8000 else (crc << 1)
    return crc & 0xFFFF


_TABLE: tuple[int, ...] = tuple(_table_entry(b) for b in range(256))


def crc16_ccitt(data: bytes, crc: int = _INIT) -> int:
    """CRC-16/CCITT-FALSE of ``data``.

    Args:
        data: the bytes to check (for a frame: the ASCII between STX and ``*``).
        crc: a running value to continue from; the default starts a new CRC.

    Returns:
        The 16-bit CRC, 0..0xFFFF.
    """
    for byte in data:
        crc = ((crc << 8) & 0xFFFF) ^ _TABLE[((crc >> 8) ^ byte) & 0xFF]
    return crc

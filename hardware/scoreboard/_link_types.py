"""The link's values: its state, its clocks, the status the app reads, what the board took.

:class:`Confirmations` works out which snapshot the board acknowledged last: the board
acks every snapshot frame by its seq (docs/scoreboard-protocol.md, "Acks, naks and
retries"), so the link remembers which snapshot each seq carried.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum

from hardware._errors import ScoreboardError
from hardware.scoreboard._protocol import Identity
from hardware.scoreboard._snapshot import Snapshot

__all__ = ["Confirmations", "LinkState", "LinkStatus", "LinkTiming", "check_link_settings"]


class LinkState(StrEnum):
    """Whether the port is open: ``idle`` before start, ``stopped`` after stop."""

    IDLE = "idle"
    UP = "up"
    DOWN = "down"
    STOPPED = "stopped"


@dataclass(frozen=True, slots=True)
class LinkTiming:
    """The link's clocks, in seconds; the defaults suit 19200 and 9600 baud.

    ``backoff_max_s`` is 0.5 s so a board that comes back is found and updated
    within the issue's one second; ``repeat_s`` must stay <= 1.0. A snapshot the
    board has not acknowledged is sent again every ``ack_timeout_s`` instead of
    every ``repeat_s`` (and at once on a nak).
    """

    repeat_s: float = 0.5
    heartbeat_s: float = 1.0
    ack_timeout_s: float = 0.25
    retries: int = 3
    write_timeout_s: float = 0.5
    backoff_min_s: float = 0.05
    backoff_max_s: float = 0.5
    silence_s: float = 3.0
    poll_s: float = 0.005
    queue_max: int = 32


@dataclass(frozen=True, slots=True)
class LinkStatus:
    """A copy of the link's state and counters for the app (never blocks the link).

    ``current``: the newest snapshot published (None: none yet); ``shown``: the newest
    snapshot the board acknowledged, on any port since start (None: never);
    ``confirmed``: the board acknowledged ``current`` on the port open now (a one-way
    codec, whose board never answers: ``current`` was written on it);
    ``unconfirmed_s``: how long ``current`` has waited for that (0 when confirmed).
    """

    state: LinkState
    url: str
    frames_sent: int
    bytes_sent: int
    snapshots_sent: int
    events_acked: int
    events_dropped: int
    events_pending: int
    retries: int
    acks: int
    naks: int
    crc_errors: int
    reconnects: int
    last_error: str
    device: Identity | None
    current: Snapshot | None = None
    shown: Snapshot | None = None
    confirmed: bool = False
    unconfirmed_s: float = 0.0


@dataclass(slots=True)
class Counters:
    """The link's running counts (guarded by the link's lock)."""

    frames_sent: int = 0
    bytes_sent: int = 0
    snapshots_sent: int = 0
    events_acked: int = 0
    events_dropped: int = 0
    retries: int = 0
    acks: int = 0
    naks: int = 0
    crc_errors: int = 0
    reconnects: int = 0
    last_error: str = ""


class Confirmations:
    """The snapshot each recent seq carried, and the newest one the board acknowledged.

    Acks are taken in the order their snapshots were sent: a late ack of an older
    snapshot never undoes a newer one. A seq reused by another message forgets its
    snapshot (seqs wrap at 256).
    """

    def __init__(self) -> None:
        self._sent: dict[int, tuple[int, Snapshot]] = {}
        self._order = 0
        self._acked_order = 0
        #: The newest snapshot acknowledged on the port open now (None: none yet).
        self.acked: Snapshot | None = None
        #: The newest snapshot acknowledged on any port (what the board showed last).
        self.shown: Snapshot | None = None

    def forget(self) -> None:
        """The port closed or opened anew (maybe on a rebooted or another board).

        Nothing is acknowledged on it yet; ``shown`` stays, as what the board took last.
        """
        self._sent.clear()
        self.acked = None

    def sent(self, seq: int, snapshot: Snapshot | None) -> None:
        """Message ``seq`` went out: a snapshot, or (None) anything else."""
        if snapshot is None:
            self._sent.pop(seq, None)
            return
        self._order += 1
        self._sent[seq] = (self._order, snapshot)

    def ack(self, seq: int) -> None:
        """The board acknowledged ``seq``."""
        entry = self._sent.pop(seq, None)
        if entry is not None and entry[0] > self._acked_order:
            self._acked_order, self.acked = entry
            self.shown = self.acked

    def written(self, snapshot: Snapshot) -> None:
        """A board that never answers: what was written is all that can be known."""
        self.acked = self.shown = snapshot


def check_link_settings(url: object, baud: object, addr: object) -> None:
    """The link's settings as its docstring gives them, refused at once.

    An address of 300 was taken and only failed as a ``last_error`` at the first
    publish, while the link said ``up``.

    Raises:
        ScoreboardError: one line naming the setting and what it takes.
    """
    if not isinstance(url, str) or not url:
        raise ScoreboardError(f"url: expected a device path or pyserial URL, got {url!r}")
    if baud not in (19200, 9600) or isinstance(baud, bool):
        raise ScoreboardError(f"baud: the boards run at 19200 or 9600, got {baud!r}")
    if not isinstance(addr, int) or isinstance(addr, bool) or not 0 <= addr <= 0xFE:
        raise ScoreboardError(f"addr: a board's bus address is 0..254 (0xFF broadcasts, "
                              f"never a board's), got {addr!r}")  # fmt: skip

"""A scoreboard emulator: the device side of the protocol on a pty or a TCP port.

It reads frames, answers them the way a board's firmware would (ACK every snapshot,
event and heartbeat addressed to it, NAK a damaged frame whose sequence it could
read, the identity on IDENTIFY), keeps the board state and renders it as a few text
lines. Faults can be injected while it runs: received bytes dropped or corrupted,
acks delayed (or never sent), a reboot (the state is forgotten), a vanish (the
port closes, as when a cable is pulled or the board loses power).
"""

from __future__ import annotations

import contextlib
import os
import random
import select
import socket
import threading
import time
import tty
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Protocol

from hardware._errors import ProtocolError, ScoreboardError
from hardware.scoreboard._protocol import (
    BROADCAST,
    Frame,
    FrameDecoder,
    FrameKind,
    Identity,
    encode_frame,
    seq_payload,
)
from hardware.scoreboard._snapshot import EventMessage, Snapshot

__all__ = ["Faults", "ScoreboardEmulator", "render_board"]

_EVENTS_KEPT = 8


@dataclass(frozen=True, slots=True)
class Faults:
    """Faults the emulator injects on what it receives and sends.

    ``drop`` and ``corrupt`` are per-byte probabilities (0..1) on received bytes;
    ``ack_delay_s`` delays every ACK (``math.inf``: acks never come); ``seed``
    makes the random faults repeatable.
    """

    drop: float = 0.0
    corrupt: float = 0.0
    ack_delay_s: float = 0.0
    seed: int = 0

    def __post_init__(self) -> None:
        """Refuse a probability outside 0..1 or a negative delay (NaN is neither).

        Raises:
            ScoreboardError: the field, its value and its limit.
        """
        for name in ("drop", "corrupt"):
            value = getattr(self, name)
            if not 0.0 <= value <= 1.0:
                raise ScoreboardError(f"Faults.{name} = {value}: use a probability from 0 to 1")
        if not self.ack_delay_s >= 0.0:
            raise ScoreboardError(f"Faults.ack_delay_s = {self.ack_delay_s}: use seconds >= 0")


class _Transport(Protocol):
    url: str

    def read(self, timeout_s: float) -> bytes: ...
    def write(self, data: bytes) -> None: ...
    def close(self) -> None: ...


class _PtyTransport:
    """The master side of a fresh pty; the host opens the slave path (or ``link``)."""

    def __init__(self, link: Path | None) -> None:
        if link is not None and link.exists() and not link.is_symlink():  # the user's: kept
            raise ScoreboardError(f"{link}: not a symlink; give a path where nothing is")
        self._master, self._slave = os.openpty()
        tty.setraw(self._slave)  # no echo or CR/LF mangling before the host configures it
        os.set_blocking(self._master, False)
        self.path = os.ttyname(self._slave)
        self._link = link
        if link is not None:
            tmp = link.with_name(f".{link.name}.{os.getpid()}.{self._master}")
            tmp.unlink(missing_ok=True)
            tmp.symlink_to(self.path)
            tmp.replace(link)  # atomic re-point: the host never sees a missing link
        self.url = str(link) if link is not None else self.path

    def read(self, timeout_s: float) -> bytes:
        ready, _, _ = select.select([self._master], [], [], timeout_s)
        if not ready:
            return b""
        try:
            return os.read(self._master, 4096)
        except BlockingIOError:
            return b""

    def write(self, data: bytes) -> None:
        with contextlib.suppress(BlockingIOError):  # host not reading: a board drops it too
            os.write(self._master, data)

    def close(self) -> None:
        """Close the pty; ``link`` goes first if it still names it.

        As an unplugged USB adapter's device node, the link is gone while the board is
        off: a host retrying it cannot reach another board that the system gives the
        freed pty number to meanwhile.
        """
        if self._link is not None:
            with contextlib.suppress(OSError):
                if os.readlink(self._link) == self.path:
                    self._link.unlink()
        for fd in (self._master, self._slave):
            with contextlib.suppress(OSError):
                os.close(fd)


class _TcpTransport:
    """A listening socket that serves one host connection at a time."""

    def __init__(self, port: int, host: str) -> None:
        self._server = socket.create_server((host, port), reuse_port=False)
        self.port = self._server.getsockname()[1]
        self.url = f"socket://{host}:{self.port}"
        self._client: socket.socket | None = None

    def read(self, timeout_s: float) -> bytes:
        sock = self._client or self._server
        ready, _, _ = select.select([sock], [], [], timeout_s)
        if not ready:
            return b""
        if self._client is None:
            self._client, _ = self._server.accept()
            return b""
        try:
            data = self._client.recv(4096)
        except OSError:
            data = b""
        if not data:  # the host hung up; wait for the next one
            self._client.close()
            self._client = None
        return data

    def write(self, data: bytes) -> None:
        if self._client is not None:
            try:
                self._client.sendall(data)
            except OSError:
                self._client.close()
                self._client = None

    def close(self) -> None:
        if self._client is not None:
            self._client.close()
        self._server.close()


class ScoreboardEmulator:
    """An emulated board with its own thread; use :meth:`open_pty` or :meth:`listen_tcp`.

    Attributes read by tests: :attr:`snapshot` (``None`` after a reboot until the host
    sends one), :attr:`events` (the last few, oldest first), :attr:`url` (what the
    host opens), and the counters ``frames``, ``acks_sent``, ``naks_sent``.
    """

    def __init__(
        self,
        transport: _Transport,
        *,
        addr: int = 0,
        faults: Faults | None = None,
        identity: Identity | None = None,
    ) -> None:
        self._transport = transport
        self.url = transport.url
        self.addr = addr
        self.faults = faults or Faults()
        self.identity = identity or Identity("CAROM-EMU", "1.0", 3)
        self.snapshot: Snapshot | None = None
        self.events: tuple[EventMessage, ...] = ()
        self.frames = self.acks_sent = self.naks_sent = self.reboots = 0
        self._rng = random.Random(self.faults.seed)
        self._decoder = FrameDecoder()
        self._acks: list[tuple[float, bytes]] = []
        self._last_event: tuple[int, str] | None = None
        self._lock = threading.RLock()  # render() may run inside wait_for's predicate
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"emulator {self.url}")
        self._thread.daemon = True
        self.changed = threading.Condition(self._lock)

    @classmethod
    def open_pty(
        cls, *, link: Path | None = None, addr: int = 0, faults: Faults | None = None
    ) -> ScoreboardEmulator:
        """A started board on a new pty; ``link`` is a symlink re-pointed at its slave.

        Raises:
            ScoreboardError: something other than a symlink is at ``link`` (never replaced).
        """
        return cls(_PtyTransport(link), addr=addr, faults=faults).start()

    @classmethod
    def listen_tcp(
        cls, port: int = 0, *, host: str = "127.0.0.1", addr: int = 0, faults: Faults | None = None
    ) -> ScoreboardEmulator:
        """A started board on a TCP port (0 picks a free one; see :attr:`url`).

        Raises:
            ScoreboardError: the port is taken or not allowed.
        """
        try:
            transport = _TcpTransport(port, host)
        except OSError as exc:
            raise ScoreboardError(
                f"{host}:{port}: cannot listen ({exc.strerror}); pick another port"
            ) from None
        return cls(transport, addr=addr, faults=faults).start()

    def start(self) -> ScoreboardEmulator:
        """Start reading the port; returns self."""
        self._thread.start()
        return self

    def vanish(self) -> None:
        """Close the port at once, as a pulled cable or a dead board (also: stop)."""
        self._stop.set()
        self._thread.join(2.0)

    stop = vanish

    def reboot(self) -> None:
        """Forget everything shown, as a board that lost power for a moment."""
        with self._lock:
            self.snapshot, self.events, self._last_event = None, (), None
            self._decoder = FrameDecoder()
            self.reboots += 1
            self.changed.notify_all()

    def set_faults(self, faults: Faults) -> None:
        """Change the injected faults while running."""
        with self._lock:
            self.faults, self._rng = faults, random.Random(faults.seed)

    def wait_for(self, predicate: Callable[[ScoreboardEmulator], bool], timeout_s: float) -> bool:
        """Block until ``predicate(self)`` holds (checked on every change) or time runs out."""
        end = time.monotonic() + timeout_s
        with self.changed:
            while not predicate(self):
                left = end - time.monotonic()
                if left <= 0:
                    return False
                self.changed.wait(left)
            return True

    def render(self) -> list[str]:
        """The board as a physical one would look, a few text lines."""
        with self._lock:
            return render_board(self.snapshot, self.events[-1] if self.events else None)

    @property
    def crc_errors(self) -> int:
        """Frames received with a bad CRC."""
        return self._decoder.crc_errors

    # --- the emulator thread ----------------------------------------------------

    def _run(self) -> None:
        try:
            while not self._stop.is_set():
                data = self._transport.read(0.01)
                self._receive(self._inject(data))
                self._flush_acks(time.monotonic())
        except OSError:
            pass  # the port died under us: the board is gone, as a real one would be
        finally:
            self._transport.close()

    def _inject(self, data: bytes) -> bytes:
        f = self.faults
        if not data or (f.drop <= 0 and f.corrupt <= 0):
            return data
        out = bytearray()
        for byte in data:
            if self._rng.random() < f.drop:
                continue
            out.append(byte ^ 0x10 if self._rng.random() < f.corrupt else byte)
        return bytes(out)

    def _receive(self, data: bytes) -> None:
        with self._lock:
            frames = self._decoder.feed(data)
            rejects = self._decoder.drain_rejects()
            for frame in frames:
                self._handle(frame)
            if frames:
                self.changed.notify_all()
        for reject in rejects:
            if reject.addr == self.addr:
                self._reply(FrameKind.NAK, reject.seq, seq_payload(reject.seq))
                self.naks_sent += 1

    def _handle(self, frame: Frame) -> None:
        if frame.addr not in (self.addr, BROADCAST):
            return
        self.frames += 1
        try:
            if frame.kind is FrameKind.SNAPSHOT:
                self.snapshot = Snapshot.from_payload(frame.payload)
            elif frame.kind is FrameKind.EVENT:
                msg = EventMessage.from_payload(frame.payload)
                key = (frame.seq, frame.payload)
                if key != self._last_event:  # a retry after a lost ack: show it once
                    self.events = (*self.events, msg)[-_EVENTS_KEPT:]
                    self._last_event = key
            elif frame.kind is FrameKind.IDENTIFY:
                self._reply(FrameKind.IDENTIFY, frame.seq, self.identity.to_payload(), now=True)
                return
            elif frame.kind is not FrameKind.HEARTBEAT:
                return  # ACK/NAK from another board
        except ProtocolError:
            self._reply(FrameKind.NAK, frame.seq, seq_payload(frame.seq), now=True)
            self.naks_sent += 1
            return
        if frame.addr != BROADCAST:  # a broadcast is never answered: the bus would collide
            self._reply(FrameKind.ACK, frame.seq, seq_payload(frame.seq))
            self.acks_sent += 1

    def _reply(self, kind: FrameKind, seq: int, payload: str, *, now: bool = False) -> None:
        data = encode_frame(Frame(self.addr, seq, kind, payload))
        delay = 0.0 if now or kind is not FrameKind.ACK else self.faults.ack_delay_s
        if delay <= 0:
            self._transport.write(data)
        elif delay != float("inf"):
            self._acks.append((time.monotonic() + delay, data))

    def _flush_acks(self, now: float) -> None:
        due = [data for t, data in self._acks if t <= now]
        self._acks = [(t, data) for t, data in self._acks if t > now]
        for data in due:
            self._transport.write(data)


def render_board(snapshot: Snapshot | None, last_event: EventMessage | None = None) -> list[str]:
    """A board as text: a frame around players, scores, innings, run and flags."""
    width = 40
    if snapshot is None:
        body = ["", "-- waiting for the referee --".center(width - 4), ""]
    else:
        s = snapshot
        marks = [">" if s.active == i else " " for i in (0, 1)]
        clock = "--" if s.shot_clock_s is None else f"{s.shot_clock_s:>2}"
        flags = " ".join(
            name for name, on in (("EQUAL", s.equalizing), ("REVIEW", s.review), ("OVER", s.over))
            if on
        )  # fmt: skip
        body = [
            f"{s.discipline.upper():<20}{'clock ' + clock:>16}",
            *(
                f"{marks[i]} {s.players[i][:14]:<14}{s.scores[i]:>5}   HR {s.high_runs[i]:>3}"
                f"  TO {s.timeouts[i]}"
                for i in (0, 1)
            ),
            f"innings {s.innings[0]:>3} / {s.innings[1]:<3}  run {s.run:>3}  {flags}",
        ]
    if last_event is not None:
        body.append(f"{last_event.kind.upper()}: {last_event.text}"[: width - 4])
    rule = "+" + "-" * (width - 2) + "+"
    return [rule, *(f"| {line[: width - 4]:<{width - 4}} |" for line in body), rule]

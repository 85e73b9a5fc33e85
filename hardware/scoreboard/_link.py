"""The host side of a scoreboard link: one thread that keeps a board up to date.

The link owns the port and the clocks; what the bytes look like is its codec's
(:class:`~hardware.BoardCodec`: the framed protocol, the text line, ...).

Theory of operation. The app calls :meth:`ScoreboardLink.publish` with the newest
:class:`Snapshot` and :meth:`ScoreboardLink.send_event` with event messages; both
only touch a lock-guarded slot or a bounded queue and return at once, so a sick link
never stalls the referee. The link thread owns the port (any pyserial URL):

- a new snapshot goes out at once, and the current one is repeated every
  ``repeat_s`` (the board shows the truth within that time whatever was lost);
- with a two-way codec (the board answers), one event is in flight at a time: sent,
  retried after ``ack_timeout_s`` up to ``retries`` times, then given up on (counted)
  — the snapshot never waits for it;
- with a two-way codec, a heartbeat goes out when nothing else did for ``heartbeat_s``;
- a read/write error (a pty whose master closed reads EIO, a socket reads EOF, a
  write times out) or, with a two-way codec, ``silence_s`` without a byte from the
  device (USB adapters that stay "open" after being pulled) closes the port; it is
  reopened with exponential backoff capped at ``backoff_max_s``, then identify (two-way
  codecs) and the snapshot are sent right away — whenever the board comes back, also
  after the match ended, as long as the link runs.

Confirmation. A two-way board acks every snapshot frame; the link remembers which
snapshot each seq carried (:class:`Confirmations`), so :meth:`ScoreboardLink.status`
says what the board acknowledged last (``shown``) and whether that is the newest
snapshot (``confirmed``). A snapshot not yet acknowledged is sent again every
``ack_timeout_s`` (at once on a nak) instead of every ``repeat_s``.
:meth:`ScoreboardLink.confirm` waits, for the caller who asks (the end of a match),
until the board acknowledged the newest snapshot.
"""

from __future__ import annotations

import collections
import contextlib
import threading
import time
from dataclasses import dataclass

import serial  # type: ignore[import-untyped]  # pyserial ships no stubs

from hardware._errors import ScoreboardError
from hardware.scoreboard._codec import Ack, BoardCodec, Nak, Reply, Unreadable
from hardware.scoreboard._codecs import codec_for
from hardware.scoreboard._link_types import (
    Confirmations,
    Counters,
    LinkState,
    LinkStatus,
    LinkTiming,
    check_link_settings,
)
from hardware.scoreboard._protocol import Identity
from hardware.scoreboard._snapshot import EventMessage, Snapshot

__all__ = ["LinkState", "LinkStatus", "LinkTiming", "ScoreboardLink"]


@dataclass(slots=True)
class _InFlight:
    msg: EventMessage
    seq: int = 0
    sends: int = 0
    deadline: float = 0.0


class ScoreboardLink:
    """Keeps one scoreboard (``addr``) on a pyserial URL showing the newest snapshot.

    Args:
        url: ``/dev/ttyUSB0``, ``/dev/serial/by-id/...``, ``socket://host:port``,
            ``loop://``, ``spy://...``: anything ``serial.serial_for_url`` opens.
        baud: 19200 (default) or 9600; 8N1.
        addr: the board's bus address 0..254 (255 broadcasts, never acked).
        dialect: the protocol: a registered dialect name (``"frames"``, the
            protocol of docs/scoreboard-protocol.md; ``"text"``, one text line per
            snapshot for the simplest boards: no events, acks or heartbeat; see
            :func:`~hardware.dialects`) or a codec.
        timing: the link's clocks.

    Raises:
        ScoreboardError: ``dialect`` names no registered protocol.
    """

    def __init__(
        self,
        url: str,
        *,
        baud: int = 19200,
        addr: int = 0,
        dialect: str | BoardCodec = "frames",
        timing: LinkTiming | None = None,
    ) -> None:
        check_link_settings(url, baud, addr)
        self.codec = codec_for(dialect) if isinstance(dialect, str) else dialect
        self.url, self.baud, self.addr, self.dialect = url, baud, addr, self.codec.name
        self.timing = timing or LinkTiming()
        self._lock = threading.Lock()
        self._wake = threading.Event()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._pending: Snapshot | None = None
        self._events: collections.deque[EventMessage] = collections.deque()
        self._n = Counters()
        self._state = LinkState.IDLE
        self._device: Identity | None = None
        self._port: serial.SerialBase | None = None
        self._decoder = self.codec.decoder(addr)
        self._current: Snapshot | None = None
        self._dirty = False
        self._inflight: _InFlight | None = None
        self._seq = 0
        self._last_tx = self._last_rx = self._last_snap = 0.0
        self._ever_up = False
        self._identify = False
        self._confirm = Confirmations()
        self._unconfirmed_since: float | None = None

    # --- the app's side: never blocks ---------------------------------------------

    def start(self) -> ScoreboardLink:
        """Start the link thread (the port opens in the background); returns self."""
        if self._thread is None:
            self._state = LinkState.DOWN  # until the port opens
            self._thread = threading.Thread(target=self._run, name=f"scoreboard {self.url}")
            self._thread.daemon = True
            self._thread.start()
        return self

    def stop(self, timeout_s: float = 2.0) -> None:
        """Stop the thread and close the port."""
        self._stop.set()
        self._wake.set()
        if self._thread is not None:
            self._thread.join(timeout_s)
        self._state = LinkState.STOPPED

    def __enter__(self) -> ScoreboardLink:
        return self.start()

    def __exit__(self, *exc: object) -> None:
        self.stop()

    def publish(self, snapshot: Snapshot) -> None:
        """Show ``snapshot`` next; an older one not yet sent is replaced."""
        with self._lock:
            self._pending = snapshot
            if snapshot == self._confirm.acked:  # the board shows it already
                self._unconfirmed_since = None
            elif self._unconfirmed_since is None:  # behind from now (unless already)
                self._unconfirmed_since = time.monotonic()
        self._wake.set()

    def send_event(self, msg: EventMessage) -> None:
        """Queue an event message; when ``queue_max`` are waiting the oldest is dropped."""
        with self._lock:
            if len(self._events) >= self.timing.queue_max:
                self._events.popleft()
                self._n.events_dropped += 1
            self._events.append(msg)
        self._wake.set()

    def status(self) -> LinkStatus:
        """The link state and counters now."""
        with self._lock:
            n = self._n
            return LinkStatus(
                state=self._state, url=self.url, frames_sent=n.frames_sent,
                bytes_sent=n.bytes_sent, snapshots_sent=n.snapshots_sent,
                events_acked=n.events_acked, events_dropped=n.events_dropped,
                events_pending=len(self._events) + (self._inflight is not None),
                retries=n.retries, acks=n.acks, naks=n.naks,
                crc_errors=n.crc_errors + self._decoder.crc_errors,
                reconnects=n.reconnects, last_error=n.last_error, device=self._device,
                current=self._pending or self._current, shown=self._confirm.shown,
                confirmed=self._confirmed(), unconfirmed_s=self._unconfirmed_for(),
            )  # fmt: skip

    def _confirmed(self) -> bool:
        """The board acknowledged the newest snapshot (call with the lock held)."""
        current = self._pending or self._current
        return current is not None and self._pending is None and self._confirm.acked == current

    def _unconfirmed_for(self) -> float:
        since = self._unconfirmed_since
        return 0.0 if since is None or self._confirmed() else time.monotonic() - since

    def confirm(self, timeout_s: float = 10.0, events_s: float = 1.0) -> bool:
        """Wait until the board acknowledged the newest snapshot; whether it did in time.

        Meanwhile the snapshot is sent again every ``ack_timeout_s`` (at once on a nak)
        and a board that comes back is given it at once. Events still queued get at
        most ``events_s`` more once it is confirmed (within ``timeout_s``), but only
        the snapshot decides. The only other call that blocks, and only for the caller
        who asks (the end).
        """
        end = time.monotonic() + timeout_s
        confirmed_at = None
        while True:
            now = time.monotonic()
            with self._lock:
                confirmed = self._confirmed()
                settled = not self._events and self._inflight is None
            confirmed_at = (confirmed_at or now) if confirmed else None
            if confirmed_at is not None and (settled or now - confirmed_at >= events_s):
                return True
            if now >= end:
                return confirmed
            time.sleep(self.timing.poll_s)

    def flush(self, timeout_s: float = 2.0) -> bool:
        """Wait until the newest snapshot went out and every event was acked or dropped.

        The only call that blocks, and only for the caller who asks (end of a replay).
        """
        end = time.monotonic() + timeout_s
        while time.monotonic() < end:
            with self._lock:
                idle = self._pending is None and not self._dirty and not self._events
                if idle and self._inflight is None and self._state is LinkState.UP:
                    return True
            time.sleep(self.timing.poll_s)
        return False

    # --- the link thread ------------------------------------------------------------

    def _run(self) -> None:
        backoff = self.timing.backoff_min_s
        while not self._stop.is_set():
            if self._port is None:
                if not self._open():
                    self._stop.wait(backoff)
                    backoff = min(backoff * 2, self.timing.backoff_max_s)
                    continue
                backoff = self.timing.backoff_min_s
            try:
                self._step(time.monotonic())
            except (serial.SerialException, OSError, ScoreboardError) as exc:
                self._close(exc)
                continue
            self._wake.wait(self.timing.poll_s)
            self._wake.clear()
        self._close(None)

    def _open(self) -> bool:
        t = self.timing
        try:
            # Exclusive (a lock on the device): a second host on the same port (two
            # carom score runs) made the board flip between two matches.
            port = serial.serial_for_url(
                self.url, baudrate=self.baud, timeout=0, write_timeout=t.write_timeout_s,
                exclusive=True,
            )  # fmt: skip
        except (serial.SerialException, OSError, ValueError) as exc:
            with self._lock:
                self._n.last_error = _describe(exc)
            return False
        now = time.monotonic()
        with self._lock:
            self._n.crc_errors += self._decoder.crc_errors
            self._decoder = self.codec.decoder(self.addr)
            self._port, self._state = port, LinkState.UP
            self._n.reconnects += self._ever_up
            self._ever_up, self._dirty = True, self._current is not None or self._dirty
            self._last_rx = self._last_tx = now
            self._forget(now)
            if self._inflight is not None:
                self._inflight.deadline = now  # resend at once on the new port
        self._identify = self.codec.two_way  # sent by _step, where errors are caught
        return True

    def _close(self, exc: BaseException | None) -> None:
        port, self._port = self._port, None
        if port is not None:
            with contextlib.suppress(serial.SerialException, OSError):
                port.close()  # the port is gone already; closing is best effort
        with self._lock:
            self._state = LinkState.STOPPED if self._stop.is_set() else LinkState.DOWN
            if exc is not None:
                self._n.last_error = _describe(exc)
            self._forget(time.monotonic())

    def _forget(self, now: float) -> None:
        """A port closed or opened: the board must acknowledge the state again."""
        self._confirm.forget()
        if self._current is not None and self._unconfirmed_since is None:
            self._unconfirmed_since = now

    def _step(self, now: float) -> None:
        assert self._port is not None
        if self._identify:
            self._identify = False
            seq = self._next_seq()
            self._write(self.codec.identify(self.addr, seq), seq)
        data = self._port.read(4096)
        if data:
            self._last_rx = now
            for reply in self._decoder.feed(data):
                self._receive(reply, now)
        with self._lock:
            if self._pending is not None:
                self._current, self._pending, self._dirty = self._pending, None, True
        current = self._current
        with self._lock:
            every = self.timing.repeat_s if self._confirmed() else self.timing.ack_timeout_s
        if current is not None and (self._dirty or now - self._last_snap >= every):
            self._send_snapshot(current, now)
        if not self.codec.two_way:
            return
        self._pump_events(now)
        if now - self._last_tx >= self.timing.heartbeat_s:
            seq = self._next_seq()
            self._write(self.codec.heartbeat(self.addr, seq), seq)
        if now - self._last_rx > self.timing.silence_s:
            raise ScoreboardError(
                f"{self.url}: no answer for {self.timing.silence_s:g} s; reopening the port"
            )

    def _send_snapshot(self, snapshot: Snapshot, now: float) -> None:
        self._dirty, self._last_snap = False, now
        seq = self._next_seq()
        self._write(self.codec.snapshot(self.addr, seq, snapshot), seq, snapshot)
        with self._lock:
            self._n.snapshots_sent += 1
            if not self.codec.two_way:
                self._confirm.written(snapshot)
                self._unconfirmed_since = None

    def _pump_events(self, now: float) -> None:
        t, fly = self.timing, self._inflight
        if fly is not None and now >= fly.deadline:
            if fly.sends > t.retries:
                with self._lock:
                    self._n.events_dropped += 1
                    self._inflight = fly = None
            else:
                self._send_event(fly, now)
        if fly is None:
            with self._lock:
                if not self._events:
                    return
                fly = self._inflight = _InFlight(self._events.popleft())
            self._send_event(fly, now)

    def _send_event(self, fly: _InFlight, now: float) -> None:
        if fly.sends:
            with self._lock:
                self._n.retries += 1
        fly.sends += 1
        fly.deadline = now + self.timing.ack_timeout_s
        # a retry keeps its seq, so the device shows the event once and a late ack counts
        seq = fly.seq if fly.sends > 1 else self._next_seq()
        self._write(self.codec.event(self.addr, seq, fly.msg), seq)
        fly.seq = seq

    def _next_seq(self) -> int:
        seq, self._seq = self._seq, (self._seq + 1) % 256
        return seq

    def _write(self, data: bytes, seq: int, snapshot: Snapshot | None = None) -> None:
        """Write message ``seq``; ``snapshot``: the one it carries (None: another kind)."""
        assert self._port is not None
        with self._lock:  # before the bytes leave: the ack may come back at once
            self._confirm.sent(seq, snapshot)
        self._port.write(data)  # SerialTimeoutException when the device stops draining
        self._last_tx = time.monotonic()
        with self._lock:
            self._n.frames_sent += 1
            self._n.bytes_sent += len(data)

    def _receive(self, reply: Reply, now: float) -> None:
        match reply:
            case Ack(seq):
                self._acked(seq)
            case Nak(seq):
                self._nakked(seq, now)
            case Identity():
                with self._lock:
                    self._device = reply
            case Unreadable(error):
                with self._lock:
                    self._n.last_error = error

    def _acked(self, seq: int) -> None:
        with self._lock:
            self._n.acks += 1
            self._confirm.ack(seq)
            if self._confirmed():
                self._unconfirmed_since = None
            if self._inflight is not None and self._inflight.seq == seq:
                self._n.events_acked += 1
                self._inflight = None

    def _nakked(self, seq: int, now: float) -> None:
        with self._lock:
            self._n.naks += 1
            if self._inflight is not None and self._inflight.seq == seq:
                self._inflight.deadline = now  # resend now (still one retry of the budget)
            else:
                self._dirty = self._current is not None


def _describe(exc: BaseException) -> str:
    if "exclusively lock" in str(exc):  # pyserial's words for a port another host holds
        return "the port is in use by another program (another carom score or live on it?)"
    return f"{exc.__class__.__name__}: {exc}".splitlines()[0][:200]

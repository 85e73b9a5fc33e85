"""Server-sent events: every state change fanned out to every overlay, never blocking.

Theory of operation. The table's publisher thread hands each new STATE message to
:meth:`Broadcaster.publish`, which only schedules one call on the event loop
(``call_soon_threadsafe``): the match session's commit path never waits for a client.
On the loop, :meth:`Broadcaster._fanout` puts the message in every client's bounded
queue; a client whose queue is full has fallen behind, so its queue is emptied and
only the newest message (a full state, like every message) is kept: it skips to the
present instead of slowing anyone down. Each client's stream sends its queue, a
keep-alive comment when nothing happened for ``keepalive_s``, and ends at shutdown.
"""

from __future__ import annotations

import asyncio
import contextlib
import threading
from collections.abc import AsyncIterator
from dataclasses import dataclass

__all__ = ["Broadcaster", "Message", "sse_bytes"]

_QUEUE = 8
KEEPALIVE = b": keep-alive\n\n"


@dataclass(frozen=True, slots=True)
class Message:
    """One STATE as an SSE message: its version and the encoded ``id/event/data`` lines."""

    version: int
    data: bytes


def sse_bytes(version: int, json_text: str) -> bytes:
    """The SSE frame of a STATE (``json_text`` is one line)."""
    return f"id: {version}\nevent: state\ndata: {json_text}\n\n".encode()


class Broadcaster:
    """Fans STATE messages out to the SSE clients of one event loop."""

    def __init__(self, keepalive_s: float = 15.0, max_clients: int = 2000) -> None:
        self.keepalive_s, self.max_clients = keepalive_s, max_clients
        self._loop: asyncio.AbstractEventLoop | None = None
        self._clients: set[asyncio.Queue[Message | None]] = set()
        self._latest: Message | None = None
        self._lock = threading.Lock()
        self.dropped = 0  # times a slow client was skipped to the newest state

    def attach(self, loop: asyncio.AbstractEventLoop) -> None:
        """Serve the clients of ``loop`` (the app's loop, at start-up)."""
        self._loop = loop

    @property
    def full(self) -> bool:
        """True when no more streams are taken (each holds a socket and a queue)."""
        return len(self._clients) >= self.max_clients

    @property
    def clients(self) -> int:
        """How many streams are open."""
        return len(self._clients)

    def publish(self, message: Message) -> None:
        """Send ``message`` to every client (any thread; returns at once)."""
        with self._lock:
            self._latest = message
            loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed: nobody listens
                loop.call_soon_threadsafe(self._fanout, message)

    def _fanout(self, message: Message | None) -> None:
        for q in self._clients:
            if q.full():
                self.dropped += 1
                while not q.empty():
                    q.get_nowait()
            q.put_nowait(message)

    def close(self) -> None:
        """End every stream (shutdown)."""
        loop = self._loop
        if loop is not None and not loop.is_closed():
            with contextlib.suppress(RuntimeError):  # the loop closed meanwhile
                loop.call_soon_threadsafe(self._fanout, None)

    async def stream(self, last_event_id: str | None) -> AsyncIterator[bytes]:
        """One client's SSE body: the current state (unless it has it), then each change."""
        q: asyncio.Queue[Message | None] = asyncio.Queue(_QUEUE)
        self._clients.add(q)
        try:
            with self._lock:
                latest = self._latest
            sent = -1
            if latest is not None:
                if last_event_id is None or last_event_id.strip() != str(latest.version):
                    yield latest.data
                sent = latest.version
            while True:
                try:
                    message = await asyncio.wait_for(q.get(), self.keepalive_s)
                except TimeoutError:
                    yield KEEPALIVE
                    continue
                if message is None:
                    return
                if message.version != sent:
                    sent = message.version
                    yield message.data
        finally:
            self._clients.discard(q)

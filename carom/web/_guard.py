"""The admin token's gate: per-client back-off and one low-priority key derivation.

Theory of operation. A wrong token used to cost the server a 200,000-iteration PBKDF2
on a request thread, with no limit: a few clients sending wrong tokens starved the
camera pipeline that shares the process (frames dropped, shots held for review). The
:class:`Guard` answers every state-changing request in three steps, cheapest first:

1. **Back-off, per client.** A client is its remote address (an IPv6 client its /64
   network). After ``free_failures`` wrong tokens in a row it is *blocked*: every
   request it sends is answered ``429`` with ``Retry-After`` at once, without looking
   at the token. Each wrong token after a block doubles the next one
   (``first_backoff_s``, 2x, 4x..., at most ``max_backoff_s``); a right token clears
   the record; a record quiet for ``forget_after_s`` is forgotten, and beyond
   ``max_clients`` the quietest are (memory stays bounded; the single worker below
   still bounds the cost of a flood from more addresses than that). A client has at
   most one check running: another request from it meanwhile is answered ``429``
   (``Retry-After: 1``) at once.
2. **The cheap test.** Once the right token's SHA-256 is known (made or preset at
   start, or presented once), any token is told right or wrong by one hash and
   :func:`hmac.compare_digest` (:meth:`TokenStore.quick`): microseconds, on the loop.
3. **The key derivation**, only while the right token is unknown (a restarted server
   nobody has logged in to): on *one* worker thread, never on the event loop, run at
   the lowest CPU priority (Linux: nice 19 on that thread) so that the camera
   pipeline's threads always come first; at most ``max_waiting`` checks queue for it,
   more are answered ``429`` (busy) at once.

A missing token costs nothing and never counts as a failure (a web page of another
origin cannot send an ``Authorization`` header, so it cannot block the console).
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import ipaddress
import math
import os
import sys
import threading
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass

from carom.web._auth import TokenStore
from referee import CaromError

__all__ = ["Guard", "GuardPolicy", "Refusal", "client_key"]

Clock = Callable[[], float]


@dataclass(frozen=True, slots=True)
class GuardPolicy:
    """How hard the gate is (seconds; counts per client; see the module docstring)."""

    free_failures: int = 3
    first_backoff_s: float = 1.0
    max_backoff_s: float = 300.0
    forget_after_s: float = 900.0
    max_clients: int = 4096
    max_waiting: int = 16

    def __post_init__(self) -> None:
        if self.free_failures < 1:
            raise CaromError(f"free_failures {self.free_failures}: use at least 1")
        if not 0.0 < self.first_backoff_s <= self.max_backoff_s:
            raise CaromError(f"first_backoff_s {self.first_backoff_s}: use 0 < it <= "
                             f"max_backoff_s ({self.max_backoff_s})")  # fmt: skip
        if self.max_clients < 1 or self.max_waiting < 1:
            raise CaromError("max_clients and max_waiting: use at least 1")

    def backoff_s(self, failures: int) -> float:
        """The block after the ``failures``-th wrong token in a row (0 before the free ones end).

        The ``free_failures``-th starts the first block; each one after doubles it.
        """
        over = failures - self.free_failures
        if over < 0:
            return 0.0
        return min(self.max_backoff_s, self.first_backoff_s * 2.0 ** min(over, 60))


@dataclass(frozen=True, slots=True)
class Refusal:
    """Why a request is refused: ``status`` 401 or 429, ``retry_after_s`` with 429."""

    status: int
    detail: str
    retry_after_s: int | None = None

    def headers(self) -> dict[str, str]:
        """``WWW-Authenticate`` (401) or ``Retry-After`` (429)."""
        if self.retry_after_s is not None:
            return {"Retry-After": str(self.retry_after_s)}
        return {"WWW-Authenticate": "Bearer"}


MISSING = Refusal(401, "this needs the admin token: send Authorization: Bearer <token> "
                  "(printed by carom serve at its first start)")  # fmt: skip
WRONG = Refusal(401, "wrong admin token; use the one carom serve printed "
                "(or restart it with --new-token)")  # fmt: skip


def client_key(host: str | None) -> str:
    """The back-off's key of a remote address: itself, or an IPv6 address's /64."""
    if not host:
        return "unknown"
    try:
        address = ipaddress.ip_address(host)
    except ValueError:
        return host
    if isinstance(address, ipaddress.IPv6Address):
        if address.ipv4_mapped is not None:
            return str(address.ipv4_mapped)
        return str(ipaddress.IPv6Network((address, 64), strict=False))
    return str(address)


class _Record:
    """One client's wrong tokens (mutable state, touched on the event loop only)."""

    __slots__ = ("blocked_until_s", "failures", "in_flight", "last_s")

    def __init__(self, now_s: float) -> None:
        self.failures, self.in_flight = 0, 0
        self.blocked_until_s, self.last_s = 0.0, now_s


def _lowest_priority() -> None:
    """Run this thread at nice 19 (Linux: a thread's own nice value); elsewhere as is."""
    if sys.platform.startswith("linux"):
        # not allowed here: the back-off and the single worker still bound it
        with contextlib.suppress(OSError):
            os.setpriority(os.PRIO_PROCESS, threading.get_native_id(), 19)


class Guard:
    """Admits a state-changing request or says why not; see the module docstring."""

    def __init__(self, tokens: TokenStore, policy: GuardPolicy | None = None, *,
                 clock: Clock = time.monotonic) -> None:  # fmt: skip
        self.tokens, self.policy, self._clock = tokens, policy or GuardPolicy(), clock
        self._clients: collections.OrderedDict[str, _Record] = collections.OrderedDict()
        self._waiting = 0
        self._pool: ThreadPoolExecutor | None = None

    async def admit(self, host: str | None, authorization: str | None) -> Refusal | None:
        """None when ``authorization`` (the header) carries the admin token."""
        record = self._record(client_key(host))
        blocked = self._blocked(record)
        if blocked is not None:
            return blocked
        scheme, _, presented = (authorization or "").partition(" ")
        presented = presented.strip()
        if scheme.lower() != "bearer" or not presented:
            return MISSING
        ok = self.tokens.quick(presented)
        if ok is None:
            if self._waiting >= self.policy.max_waiting:
                return Refusal(429, "the server is busy checking tokens; try again", 1)
            ok = await self._slow(record, presented)
        return self._settle(record, ok)

    def _record(self, key: str) -> _Record:
        now_s = self._clock()
        record = self._clients.get(key)
        if record is not None and record.in_flight == 0 \
                and now_s - record.last_s > self.policy.forget_after_s:  # fmt: skip
            record = None
        if record is None:
            record = self._clients[key] = _Record(now_s)
            self._trim()
        self._clients.move_to_end(key)
        record.last_s = now_s
        return record

    def _trim(self) -> None:
        """Forget the quietest clients beyond ``max_clients`` (memory stays bounded)."""
        while len(self._clients) > self.policy.max_clients:
            self._clients.popitem(last=False)

    def _blocked(self, record: _Record) -> Refusal | None:
        left_s = record.blocked_until_s - self._clock()
        if left_s > 0:
            wait_s = math.ceil(left_s)
            return Refusal(429, f"too many wrong admin tokens from this address; try again in "
                           f"{wait_s} s", wait_s)  # fmt: skip
        if record.in_flight > 0:
            return Refusal(429, "a token check from this address is still running; try again "
                           "in 1 s", 1)  # fmt: skip
        return None  # after a block: one more try (a wrong one doubles the block)

    async def _slow(self, record: _Record, presented: str) -> bool:
        if self._pool is None:
            self._pool = ThreadPoolExecutor(1, "carom token check", initializer=_lowest_priority)
        record.in_flight += 1
        self._waiting += 1
        try:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, self.tokens.slow, presented)
        finally:
            record.in_flight -= 1
            self._waiting -= 1

    def _settle(self, record: _Record, ok: bool) -> Refusal | None:
        if ok:
            record.failures, record.blocked_until_s = 0, 0.0
            return None
        record.failures += 1
        backoff_s = self.policy.backoff_s(record.failures)
        if backoff_s > 0:
            record.blocked_until_s = self._clock() + backoff_s
        return WRONG

    def close(self) -> None:
        """Stop the worker thread (a check running finishes first)."""
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None

"""A request rate per client: what one address may ask of the server, token gate aside.

Theory of operation. The camera pipeline shares the process (and the interpreter's
lock) with the web server, so every request the server handles takes time from it:
four clients reading ``/api/state`` and the schema back to back (~150 requests/s) made
the pipeline fall behind a real-time video and drop frames. Each client (its remote
address, an IPv6 client its /64: :func:`carom.web._guard.client_key`) gets a token
bucket: ``burst`` requests at once, refilled at ``per_s``; beyond it a request is
answered ``429`` with ``Retry-After`` before routing, for a few microseconds of work,
after a hold of ``hold_s`` (a sleep on the event loop, no CPU). Answered at once, a
client that ignores ``Retry-After`` came straight back: four of them made ~300 refused
requests a second, and the work of accepting them (not of refusing them) still cost
the pipeline frames; held, each such client asks about twice a second.
An open ``/api/events`` stream is one request however long it lasts. People's pages
stay well inside the defaults (a page load is under 10 requests; the history page's
diagrams load as they scroll into view); a club that puts many screens behind one
address (a NAT) can raise them (``WebSettings.rate``). Clients on the machine itself
are not limited (``exempt``: the loopback networks; a client without an IP address, a
Unix socket or the test client, is local too): the OBS overlay and the console beside
the camera, and a local process could take the CPU without asking the server anyway.
"""

from __future__ import annotations

import asyncio
import collections
import functools
import ipaddress
import math
import time
from dataclasses import dataclass

from starlette.types import ASGIApp, Receive, Scope, Send

from carom.web._guard import Clock, client_key
from referee import CaromError

__all__ = ["RateLimit", "RatePolicy"]


@dataclass(frozen=True, slots=True)
class RatePolicy:
    """``burst`` requests at once per client, refilled at ``per_s`` requests a second.

    A request over it is answered ``429`` after ``hold_s`` (0: at once).
    """

    per_s: float = 20.0
    burst: float = 120.0
    max_clients: int = 4096
    exempt: tuple[str, ...] = ("127.0.0.0/8", "::1/128")
    hold_s: float = 0.5

    def limits(self, host: str | None) -> bool:
        """True when ``host`` is counted (an IP address outside ``exempt``)."""
        try:
            address = ipaddress.ip_address(host or "")
        except ValueError:
            return False
        if isinstance(address, ipaddress.IPv6Address) and address.ipv4_mapped is not None:
            address = address.ipv4_mapped
        return not any(address in net for net in _networks(self.exempt))

    def __post_init__(self) -> None:
        if not (math.isfinite(self.per_s) and self.per_s > 0 and self.burst >= 1):
            raise CaromError(f"rate {self.per_s}/s, burst {self.burst}: use per_s > 0, burst >= 1")
        if not (math.isfinite(self.hold_s) and 0.0 <= self.hold_s <= 10.0):
            raise CaromError(f"hold_s {self.hold_s}: use 0 (answer at once) to 10 s")
        if self.max_clients < 1:
            raise CaromError(f"max_clients {self.max_clients}: use at least 1")
        try:
            _networks(self.exempt)
        except ValueError as exc:
            raise CaromError(f"exempt {self.exempt}: {exc} (e.g. 127.0.0.0/8)") from None


@functools.lru_cache(maxsize=8)
def _networks(exempt: tuple[str, ...]) -> tuple[ipaddress.IPv4Network | ipaddress.IPv6Network, ...]:
    return tuple(ipaddress.ip_network(net) for net in exempt)


class RateLimit:
    """ASGI middleware: 429 with ``Retry-After`` for a client over its :class:`RatePolicy`."""

    def __init__(self, app: ASGIApp, policy: RatePolicy, clock: Clock = time.monotonic) -> None:
        self.app, self.policy, self._clock = app, policy, clock
        # client -> (tokens left, when counted); the quietest first
        self._buckets: collections.OrderedDict[str, tuple[float, float]] = collections.OrderedDict()

    def take(self, host: str | None) -> float:
        """Take one request for ``host``: 0 when allowed, else seconds until one is."""
        if not self.policy.limits(host):
            return 0.0
        key, now_s = client_key(host), self._clock()
        tokens, then_s = self._buckets.pop(key, (self.policy.burst, now_s))
        tokens = min(self.policy.burst, tokens + (now_s - then_s) * self.policy.per_s)
        wait_s = 0.0 if tokens >= 1.0 else (1.0 - tokens) / self.policy.per_s
        self._buckets[key] = (tokens - 1.0 if wait_s == 0.0 else tokens, now_s)
        while len(self._buckets) > self.policy.max_clients:
            self._buckets.popitem(last=False)
        return wait_s

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        wait_s = self.take(client[0] if client else None)
        if wait_s == 0.0:
            await self.app(scope, receive, send)
            return
        if self.policy.hold_s > 0.0:
            await asyncio.sleep(self.policy.hold_s)  # a client that does not wait is made to
        retry_s = max(1, math.ceil(wait_s - self.policy.hold_s))
        body = b'{"detail":"too many requests from this address; try again in %d s"}' % retry_s
        await send({"type": "http.response.start", "status": 429,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode()),
                                (b"retry-after", str(retry_s).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})

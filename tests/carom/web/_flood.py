"""A flood from another process: ``python -m tests.carom.web._flood URL N``.

``N`` threads, each from its own address (127.0.0.10, .11, ...: N clients as the back-off
sees them). The even ones POST a call with a wrong token (every other body not even
JSON), 20 ms apart, ignoring ``Retry-After``; the odd ones GET the open read-only
endpoints (state, calibration and its camera frame, the schema, statistics, a script)
back to back. On SIGTERM (or after 120 s) it prints ``METHOD STATUS COUNT`` lines.
"""

from __future__ import annotations

import collections
import http.client
import signal
import sys
import threading
import time

__all__ = ["READS", "flood"]

READS = ("/api/state", "/api/calibration", "/api/calibration/frame.jpg", "/openapi.json",
         "/api/players/stats", "/static/app.js")  # fmt: skip
Seen = collections.Counter[tuple[str, int]]


def _request(conn: http.client.HTTPConnection, n: int, reads: bool) -> tuple[str, int]:
    if reads:
        conn.request("GET", READS[n % len(READS)])
        return "GET", conn.getresponse().status
    conn.request("POST", "/api/calls", body=b"{not json" if n % 2 else b"{}",
                 headers={"Authorization": f"Bearer wrong-token-{n:020d}",
                          "Content-Type": "application/json"})  # fmt: skip
    return "POST", conn.getresponse().status


def _attacker(where: tuple[str, int, str], reads: bool, stop: threading.Event, seen: Seen) -> None:
    host, port, source = where
    n = 0
    while not stop.is_set():
        conn = http.client.HTTPConnection(host, port, timeout=30, source_address=(source, 0))
        try:
            seen[_request(conn, n, reads)] += 1
        except OSError:
            seen["GET" if reads else "POST", 0] += 1
        finally:
            conn.close()
        n += 1
        if not reads:
            time.sleep(0.02)


def flood(url: str, clients: int, stop: threading.Event) -> Seen:
    """``clients`` threads on ``url`` until ``stop``; the (method, status) pairs seen."""
    host, port = url.removeprefix("http://").split(":")
    counts: list[Seen] = [collections.Counter() for _ in range(clients)]
    threads = [threading.Thread(target=_attacker, daemon=True,
                                args=((host, int(port), f"127.0.0.{10 + i}"), i % 2 == 1, stop, c))
               for i, c in enumerate(counts)]  # fmt: skip
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    return sum(counts, collections.Counter())


def main() -> None:
    """Flood until SIGTERM (or 120 s); print what came back."""
    stop = threading.Event()
    signal.signal(signal.SIGTERM, lambda *_: stop.set())
    timer = threading.Timer(120.0, stop.set)
    timer.daemon = True
    timer.start()
    seen = flood(sys.argv[1], int(sys.argv[2]), stop)
    for (method, status), count in sorted(seen.items()):
        print(method, status, count, flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()

"""A wrong-token flood from another process: ``python -m tests.carom.web._flood URL N``.

``N`` threads, each from its own address (127.0.0.10, .11, ...: N clients as the back-off
sees them), POST a call with a wrong token (every other body not even JSON) as fast as
the server answers, with a 20 ms pause, ignoring ``Retry-After``; prints ``STATUS COUNT``
lines at the end (on SIGTERM or after 120 s).
"""

from __future__ import annotations

import collections
import http.client
import signal
import sys
import threading
import time

__all__ = ["flood"]


def _attacker(
    where: tuple[str, int, str], stop: threading.Event, seen: collections.Counter[int]
) -> None:
    host, port, source = where
    n = 0
    while not stop.is_set():
        conn = http.client.HTTPConnection(host, port, timeout=30, source_address=(source, 0))
        try:
            conn.request("POST", "/api/calls", body=b"{not json" if n % 2 else b"{}",
                         headers={"Authorization": f"Bearer wrong-token-{n:020d}",
                                  "Content-Type": "application/json"})  # fmt: skip
            status = conn.getresponse().status
        except OSError:
            status = 0
        finally:
            conn.close()
        seen[status] += 1
        n += 1
        time.sleep(0.02)


def flood(url: str, clients: int, stop: threading.Event) -> collections.Counter[int]:
    """``clients`` threads sending wrong tokens to ``url`` until ``stop``; statuses seen."""
    host, port = url.removeprefix("http://").split(":")
    counts: list[collections.Counter[int]] = [collections.Counter() for _ in range(clients)]
    threads = [threading.Thread(target=_attacker, daemon=True,
                                args=((host, int(port), f"127.0.0.{10 + i}"), stop, c))
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
    for status, count in sorted(seen.items()):
        print(status, count, flush=True)
    sys.exit(0)


if __name__ == "__main__":
    main()

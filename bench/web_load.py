"""Web server load: 200 overlay clients on the SSE stream while shots are scored.

The real server (``carom.web``, uvicorn) runs on loopback in this process with a match
on its table; another process holds ``--clients`` SSE connections (asyncio, raw HTTP)
and notes when each client reads each state's ``id:`` line. This process then scores
``--updates`` changes, one every ``--every`` seconds: analysed golden three-cushion
shots handed to the table exactly as the camera pipeline does
(:meth:`carom.web.Table.submit_shot`: referee, SQLite commit, STATE, fan-out) and, every
fifth change, a person's call through ``POST /api/calls``. Latency of one update for
one client: from the moment the change was handed to the server to the moment that
client read it (both ``time.monotonic``, one clock for both processes). Written to
``bench/results/web_load.json`` and ``.md``.

    PYTHONPATH=. nice .venv/bin/python bench/web_load.py [--clients 200] [--updates 120]
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

import httpx2
import numpy as np
from _machine import machine  # bench/ is on the path when a bench runs

from carom.web import WebSettings, create_app, serve_in_thread
from tests.carom.live.shotpool import analyzed, golden_shots

ROOT = Path(__file__).resolve().parents[1]
RESULTS = ROOT / "bench" / "results"
TOKEN = "bench-token-0123456789abcdef"
BUDGET_MS = 200.0


# --- the clients' process ---


async def _client(host: str, port: int, seen: list[tuple[int, float]], ready: asyncio.Event,
                  stop: asyncio.Event) -> None:  # fmt: skip
    reader, writer = await asyncio.open_connection(host, port)
    writer.write(f"GET /api/events HTTP/1.1\r\nHost: {host}\r\nAccept: text/event-stream\r\n"
                 "\r\n".encode())  # fmt: skip
    await writer.drain()
    while not stop.is_set():
        try:
            line = await asyncio.wait_for(reader.readline(), 0.5)
        except TimeoutError:
            continue
        if not line:
            break
        if line.startswith(b"id: "):
            seen.append((int(line[4:]), time.monotonic()))
            ready.set()
    writer.close()


async def _clients(url: str, n: int) -> dict[str, Any]:
    host, port = url.removeprefix("http://").split(":")
    seen: list[list[tuple[int, float]]] = [[] for _ in range(n)]
    ready = [asyncio.Event() for _ in range(n)]
    stop = asyncio.Event()
    tasks = [asyncio.create_task(_client(host, int(port), s, r, stop))
             for s, r in zip(seen, ready, strict=True)]  # fmt: skip
    await asyncio.wait_for(asyncio.gather(*(r.wait() for r in ready)), 60)
    print("ready", flush=True)
    last = int(await asyncio.to_thread(sys.stdin.readline))
    deadline = time.monotonic() + 15
    while time.monotonic() < deadline and any(not s or s[-1][0] < last for s in seen):
        await asyncio.sleep(0.05)
    stop.set()
    await asyncio.gather(*tasks, return_exceptions=True)
    return {"seen": seen}


def clients_main(url: str, n: int, out: Path) -> None:
    """The clients' process: connect ``n`` streams, record, write ``out``."""
    out.write_text(json.dumps(asyncio.run(_clients(url, n))))


# --- the server's process ---


def _score(srv: Any, updates: int, every_s: float) -> dict[int, float]:
    """Make ``updates`` changes; returns when each version was handed to the server."""
    table = srv.app.state.table
    pool = golden_shots(review=False)
    sent: dict[int, float] = {}
    auth = {"Authorization": f"Bearer {TOKEN}"}
    with httpx2.Client(base_url=srv.url, headers=auth, timeout=10) as http:
        for i in range(updates):
            next_at = time.monotonic() + every_s
            t0 = time.monotonic()
            if i % 5 == 4:
                who = table.session.state.shooter
                doc = http.post("/api/calls", json={"kind": "correction", "player": who,
                                                    "points": 1}).json()  # fmt: skip
            else:
                white, yellow = pool[i % len(pool)]
                players = table.session.state.config.players
                shot = white if table.session.state.shooter == players[0] else yellow
                doc = table.submit_shot(analyzed(shot))
            sent[int(doc["version"])] = t0
            time.sleep(max(0.0, next_at - time.monotonic()))
    return sent


def run(clients: int, updates: int, every_s: float) -> dict[str, Any]:
    """The whole bench; returns the figures."""
    tmp = Path(tempfile.mkdtemp(prefix="web-load-"))
    app = create_app(WebSettings(db=tmp / "web.db", token=TOKEN), say=lambda _: None)
    srv = serve_in_thread(app)
    try:
        with httpx2.Client(base_url=srv.url, timeout=10) as http:
            r = http.post(
                "/api/matches",
                headers={"Authorization": f"Bearer {TOKEN}"},
                json={"players": ["Ana", "Ben"], "targets": {"Ana": 9999, "Ben": 9999}},
            )
            r.raise_for_status()
        out = tmp / "clients.json"
        proc = subprocess.Popen(
            [sys.executable, __file__, "--as-clients", srv.url, "--clients", str(clients),
             "--out", str(out)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True,
        )  # fmt: skip
        assert proc.stdout is not None
        assert proc.stdin is not None
        assert proc.stdout.readline().strip() == "ready"
        connected = app.state.table.broadcaster.clients
        t0 = time.monotonic()
        sent = _score(srv, updates, every_s)
        scoring_s = time.monotonic() - t0
        proc.stdin.write(f"{max(sent)}\n")
        proc.stdin.flush()
        proc.wait(60)
        seen = json.loads(out.read_text())["seen"]
        dropped = app.state.table.broadcaster.dropped
    finally:
        srv.stop()
    return _figures(sent, seen, connected, scoring_s, every_s, dropped)


def _figures(sent: dict[int, float], seen: list[list[list[float]]], connected: int,
             scoring_s: float, every_s: float, dropped: int) -> dict[str, Any]:  # fmt: skip
    lat_ms, missing, per_client_p95 = [], 0, []
    for s in seen:
        got = {int(v): t for v, t in s}
        mine = [(got[v] - t0) * 1000 for v, t0 in sent.items() if v in got]
        missing += sum(1 for v in sent if v not in got)
        lat_ms += mine
        per_client_p95.append(float(np.percentile(mine, 95)) if mine else float("inf"))
    a = np.asarray(lat_ms)
    return {
        "clients": len(seen), "connected": connected, "updates": len(sent),
        "every_s": every_s, "scoring_s": round(scoring_s, 2),
        "deliveries": int(a.size), "missing": missing, "skipped_behind": dropped,
        "latency_ms": {"p50": round(float(np.percentile(a, 50)), 1),
                       "p95": round(float(np.percentile(a, 95)), 1),
                       "p99": round(float(np.percentile(a, 99)), 1),
                       "max": round(float(a.max()), 1)},
        "worst_client_p95_ms": round(max(per_client_p95), 1),
        "budget_ms": BUDGET_MS,
        "within_budget": bool(np.percentile(a, 95) <= BUDGET_MS and missing == 0),
    }  # fmt: skip


def _markdown(doc: dict[str, Any]) -> str:
    m, f = doc["machine"], doc["figures"]
    lat = f["latency_ms"]
    return "\n".join([
        f"# Web server: SSE fan-out under load ({m['date']})", "",
        f"Machine: {m['cpu']}, {m['cores']} cores, Python {m['python']}; load (1/5/15 min) at "
        f"the start {m['load_1_5_15']}. Run with `nice` on a machine shared with other jobs.", "",
        f"{f['clients']} SSE clients (one asyncio process, loopback) connected ({f['connected']} "
        f"streams seen by the server) while {f['updates']} changes were scored, one every "
        f"{f['every_s']} s (analysed shots through the table, every fifth a POST /api/calls).", "",
        "| deliveries | missing | skipped (client behind) | p50 ms | p95 ms | p99 ms | max ms "
        "| worst client's p95 ms |",
        "|---|---|---|---|---|---|---|---|",
        f"| {f['deliveries']} | {f['missing']} | {f['skipped_behind']} | {lat['p50']} | "
        f"{lat['p95']} | {lat['p99']} | {lat['max']} | {f['worst_client_p95_ms']} |", "",
        f"Budget: every client gets every update within {f['budget_ms']:.0f} ms at p95: "
        f"**{'met' if f['within_budget'] else 'NOT met'}**.", "",
        "Latency: from the change handed to the server (before the referee judged it and "
        "SQLite committed it) to the client reading the message's `id:` line.",
        "", "    PYTHONPATH=. nice .venv/bin/python bench/web_load.py", "",
    ])  # fmt: skip


def main() -> int:
    """Run the bench (or, with ``--as-clients``, be its clients' process)."""
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--clients", type=int, default=200)
    p.add_argument("--updates", type=int, default=120)
    p.add_argument("--every", type=float, default=0.25, help="seconds between changes")
    p.add_argument("--as-clients", metavar="URL", help=argparse.SUPPRESS)
    p.add_argument("--out", type=Path, help=argparse.SUPPRESS)
    args = p.parse_args()
    if args.as_clients:
        clients_main(args.as_clients, args.clients, args.out)
        return 0
    doc = {"machine": machine(), "figures": run(args.clients, args.updates, args.every)}
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "web_load.json").write_text(json.dumps(doc, indent=2) + "\n")
    (RESULTS / "web_load.md").write_text(_markdown(doc))
    print(_markdown(doc))
    return 0


if __name__ == "__main__":
    sys.exit(main())

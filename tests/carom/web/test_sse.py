"""Server-sent events with the real server on loopback: order, Last-Event-ID, slow clients."""

from __future__ import annotations

import asyncio
import concurrent.futures
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

from carom.web import RunningServer, serve_in_thread
from carom.web._sse import Broadcaster, Message, sse_bytes
from tests.carom.live.shotpool import example_inputs
from tests.carom.web._web import AUTH, SseClient, make_app


@pytest.fixture
def server(tmp_path: Path) -> Iterator[RunningServer]:
    srv = serve_in_thread(make_app(tmp_path, keepalive_s=0.2))
    try:
        yield srv
    finally:
        srv.stop()


def _post(srv: RunningServer, path: str, body: dict[str, object]) -> dict[str, object]:
    import httpx2

    r = httpx2.post(srv.url + path, json=body, headers=AUTH, timeout=10)
    assert r.status_code < 300, r.text
    doc: dict[str, object] = r.json()
    return doc


def test_full_state_on_connect_then_every_change_in_order(server: RunningServer) -> None:
    sse = SseClient(server.url)
    try:
        first_id, first = sse.next()
        assert first["match"] is None and first["version"] == first_id
        created = _post(server, "/api/matches", {"players": ["Ann", "Bob"]})
        table = server.app.state.table
        fed = [table.submit_shot(s)["version"] for s in example_inputs()[1:4]]
        seen = [sse.next() for _ in range(1 + len(fed))]
        assert [i for i, _ in seen] == [created["version"], *fed]
        assert all(doc["version"] == i for i, doc in seen)
        assert seen[-1][1]["match"]["players"] == table.state()["match"]["players"]
        assert sse.comments >= 0
    finally:
        sse.close()


def test_last_event_id_resends_only_what_the_client_lacks(server: RunningServer) -> None:
    current = server.app.state.table.version
    up_to_date = SseClient(server.url, last_event_id=str(current))
    stale = SseClient(server.url, last_event_id="1")
    try:
        stale_id, _ = stale.next()
        assert stale_id == current  # an old id: the current full state at once
        state = _post(server, "/api/matches", {"players": ["Ann", "Bob"]})
        next_id, doc = up_to_date.next()  # the current one was not resent
        assert next_id == state["version"] and doc["match"] is not None
    finally:
        up_to_date.close()
        stale.close()


def test_keep_alive_comments_flow_while_nothing_happens(server: RunningServer) -> None:
    sse = SseClient(server.url)
    try:
        sse.next()
        line = sse.resp.readline()  # nothing happens: the next line is a keep-alive comment
        assert line == b": keep-alive\n"
        _post(server, "/api/matches", {"players": ["Ann", "Bob"]})
        while (doc := sse.next()[1])["match"] is None:  # (more keep-alives may come first)
            pass
        assert doc["match"]["players"][0]["name"] == "Ann"
    finally:
        sse.close()


def test_twenty_overlays_each_get_every_update(server: RunningServer) -> None:
    clients = [SseClient(server.url) for _ in range(20)]
    got: list[list[int]] = [[] for _ in clients]
    table = server.app.state.table
    try:
        for c, seen in zip(clients, got, strict=True):
            seen.append(c.next()[0])
        _post(server, "/api/matches", {"players": ["Ann", "Bob"]})
        versions = [table.submit_shot(s)["version"] for s in example_inputs()[1:6]]
        want = len(versions) + 1

        def read(c: SseClient, seen: list[int]) -> None:
            seen.extend(c.next()[0] for _ in range(want))

        threads = [threading.Thread(target=read, args=cs) for cs in zip(clients, got, strict=True)]
        for t in threads:
            t.start()
        for t in threads:
            t.join(20)
        for seen in got:
            assert seen[-len(versions) :] == versions and seen == sorted(seen)
    finally:
        for c in clients:
            c.close()


def _id(frame: bytes) -> int:
    return int(frame.split(b"\n")[0].removeprefix(b"id: "))


def test_a_client_that_never_reads_does_not_hold_up_publishing() -> None:
    async def scenario() -> tuple[int, list[int]]:
        b = Broadcaster(keepalive_s=60)
        b.attach(asyncio.get_running_loop())
        stream = b.stream(None)
        reader = asyncio.ensure_future(stream.__anext__())  # registered, then not read
        await asyncio.sleep(0)
        for v in range(1, 101):
            b.publish(Message(v, sse_bytes(v, "{}")))  # returns at once: nothing waits
        await asyncio.sleep(0.05)
        ids = [_id(await reader)]
        while ids[-1] != 100:
            ids.append(_id(await asyncio.wait_for(stream.__anext__(), 1.0)))
        await stream.aclose()
        return b.dropped, ids

    # A loop of its own on a thread: Playwright's sync API (the browser tests) may have
    # left one running on this thread.
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        dropped, ids = pool.submit(asyncio.run, scenario()).result()
    assert dropped > 0  # it fell behind: its queue was emptied, the newest state kept
    assert ids == sorted(ids) and ids[-1] == 100 and len(ids) <= 10


def test_streams_beyond_the_limit_get_503(tmp_path: Path) -> None:
    srv = serve_in_thread(make_app(tmp_path, max_sse_clients=2))
    clients = [SseClient(srv.url), SseClient(srv.url)]
    try:
        for c in clients:
            c.next()
        import httpx2

        r = httpx2.get(srv.url + "/api/events", timeout=10)
        assert r.status_code == 503 and "live clients" in r.json()["detail"]
        clients.pop().close()
        deadline = 50
        while srv.app.state.table.broadcaster.clients > 1 and deadline:  # the server sees it go
            threading.Event().wait(0.1)
            deadline -= 1
        again = SseClient(srv.url)
        clients.append(again)
        assert again.next()[0] >= 1
    finally:
        for c in clients:
            c.close()
        srv.stop()

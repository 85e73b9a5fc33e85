"""The admin token's gate and the request rate on their own, on a fake clock.

The gate over real HTTP (and a flood during a live match) is in test_security.py and
test_auth_flood.py.
"""

from __future__ import annotations

import asyncio
import os
import sys
import threading
from collections.abc import Coroutine
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, TypeVar

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from carom.web._auth import TokenStore
from carom.web._guard import Guard, GuardPolicy, Refusal, client_key
from carom.web._rate import RateLimit, RatePolicy
from referee import CaromError
from tests.fuzz_scale import examples

TOKEN = "guard-test-token-0123456789"
RIGHT, WRONG = f"Bearer {TOKEN}", "Bearer wrong-token-0123456789"


class FakeClock:
    """Seconds that move only when told."""

    def __init__(self) -> None:
        self.now_s = 1000.0

    def __call__(self) -> float:
        return self.now_s


T = TypeVar("T")


def _run(coro: Coroutine[Any, Any, T]) -> T:
    """``asyncio.run(coro)`` on a thread of its own.

    The browser tests' Playwright (sync API) leaves an event loop running on the main
    thread of the process that runs the wall-clock tests, where ``asyncio.run`` refuses.
    """
    with ThreadPoolExecutor(1) as pool:
        return pool.submit(asyncio.run, coro).result()


def store(tmp_path: Path, *, cached: bool = True) -> TokenStore:
    """A token store over ``tmp_path``; ``cached=False``: as after a restart (hash only)."""
    tokens = TokenStore(tmp_path / "tokens.db")
    tokens.open(preset=TOKEN, renew=False, now_iso="2026-01-01T00:00:00Z")
    if cached:
        return tokens
    again = TokenStore(tmp_path / "tokens.db")
    again.open(preset=None, renew=False, now_iso="2026-01-01T00:00:01Z")
    return again


def admit(guard: Guard, host: str, auth: str | None) -> Refusal | None:
    return _run(guard.admit(host, auth))


def test_after_the_free_wrong_tokens_the_client_waits_and_the_wait_doubles(
    tmp_path: Path,
) -> None:
    clock = FakeClock()
    guard = Guard(store(tmp_path), GuardPolicy(free_failures=3, first_backoff_s=2.0), clock=clock)
    for _ in range(3):
        assert admit(guard, "10.0.0.1", WRONG) == Refusal(401, admit_detail(guard, WRONG))
    blocked = admit(guard, "10.0.0.1", RIGHT)  # even the right token waits
    assert blocked is not None and (blocked.status, blocked.retry_after_s) == (429, 2)
    assert blocked.headers() == {"Retry-After": "2"}
    assert admit(guard, "10.0.0.2", RIGHT) is None  # another client is not affected
    clock.now_s += 2.0
    assert admit(guard, "10.0.0.1", WRONG) is not None  # one more try, wrong: 4 s now
    refusal = admit(guard, "10.0.0.1", RIGHT)
    assert refusal is not None and refusal.retry_after_s == 4
    clock.now_s += 4.0
    assert admit(guard, "10.0.0.1", RIGHT) is None  # the right token clears the record
    for _ in range(3):
        assert admit(guard, "10.0.0.1", WRONG) is not None
    refusal = admit(guard, "10.0.0.1", RIGHT)
    assert refusal is not None and refusal.retry_after_s == 2


def admit_detail(guard: Guard, auth: str) -> str:
    """The detail a fresh client gets for ``auth`` (the 401's text)."""
    refusal = admit(guard, "192.0.2.99", auth)
    assert refusal is not None
    return refusal.detail


def test_a_missing_token_is_401_and_never_counts(tmp_path: Path) -> None:
    guard = Guard(store(tmp_path), GuardPolicy(free_failures=1), clock=FakeClock())
    for auth in (None, "", "Bearer", "Basic abc", "Bearer  "):
        refusal = admit(guard, "10.0.0.1", auth)
        assert refusal is not None and refusal.status == 401
        assert refusal.headers() == {"WWW-Authenticate": "Bearer"}
    assert admit(guard, "10.0.0.1", RIGHT) is None


def test_before_anyone_logs_in_the_key_derivation_runs_on_one_other_thread(
    tmp_path: Path,
) -> None:
    tokens = store(tmp_path, cached=False)
    assert tokens.quick(TOKEN) is None and tokens.quick("anything") is None
    threads: list[str] = []
    slow = tokens.slow

    nice: list[int] = []

    def watched(presented: str) -> bool:
        threads.append(threading.current_thread().name)
        nice.append(os.getpriority(os.PRIO_PROCESS, threading.get_native_id()))
        return slow(presented)

    tokens.slow = watched  # type: ignore[method-assign]
    guard = Guard(tokens, clock=FakeClock())
    assert admit(guard, "10.0.0.1", WRONG) is not None
    assert admit(guard, "10.0.0.1", RIGHT) is None
    assert tokens.quick(TOKEN) is True and tokens.quick("x" * 20) is False  # cached now
    assert admit(guard, "10.0.0.1", WRONG) is not None  # told without deriving
    guard.close()
    assert len(threads) == 2 and all(t.startswith("carom token check") for t in threads)
    assert threading.current_thread().name not in threads
    if sys.platform.startswith("linux"):  # the lowest priority, this thread only
        assert nice == [19, 19]
        assert os.getpriority(os.PRIO_PROCESS, threading.get_native_id()) < 19


def test_a_client_with_a_check_running_waits_and_the_queue_is_bounded(tmp_path: Path) -> None:
    tokens = store(tmp_path, cached=False)
    release = threading.Event()
    tokens.slow = lambda presented: release.wait(10) and False  # type: ignore[method-assign]
    guard = Guard(tokens, GuardPolicy(max_waiting=2), clock=FakeClock())

    async def scene() -> list[Refusal | None]:
        first = asyncio.create_task(guard.admit("10.0.0.1", WRONG))
        second = asyncio.create_task(guard.admit("10.0.0.2", WRONG))
        await asyncio.sleep(0.05)
        now = [await guard.admit("10.0.0.1", WRONG), await guard.admit("10.0.0.3", WRONG)]
        release.set()
        return [*now, await first, await second]

    same, busy, first, second = _run(scene())
    guard.close()
    assert same is not None and (same.status, same.retry_after_s) == (429, 1)
    assert busy is not None and busy.status == 429 and "busy" in busy.detail
    assert first is not None and second is not None and first.status == second.status == 401


def test_clients_are_addresses_an_ipv6_client_its_64() -> None:
    assert client_key("192.0.2.7") == "192.0.2.7"
    assert client_key("2001:db8:1:2:3:4:5:6") == client_key("2001:db8:1:2:ffff::1")
    assert client_key("2001:db8:1:2::1") != client_key("2001:db8:1:3::1")
    assert client_key("::ffff:192.0.2.7") == "192.0.2.7"
    assert client_key(None) == "unknown" and client_key("testclient") == "testclient"


def test_the_policy_refuses_nonsense() -> None:
    with pytest.raises(CaromError, match="free_failures"):
        GuardPolicy(free_failures=0)
    with pytest.raises(CaromError, match="first_backoff_s"):
        GuardPolicy(first_backoff_s=10.0, max_backoff_s=5.0)
    policy = GuardPolicy(free_failures=2, first_backoff_s=1.0, max_backoff_s=8.0)
    assert [policy.backoff_s(n) for n in range(1, 8)] == [0, 1, 2, 4, 8, 8, 8]


STEPS = st.lists(
    st.tuples(
        st.sampled_from(["10.0.0.1", "10.0.0.2", "::1"]),
        st.sampled_from([RIGHT, WRONG, None, "Bearer x"]),
        st.floats(0.0, 5.0),
    ),
    max_size=40,
)


@settings(max_examples=examples(60), deadline=None)
@given(steps=STEPS)
def test_no_wrong_token_is_checked_while_its_client_is_told_to_wait(
    tmp_path_factory: pytest.TempPathFactory,
    steps: list[tuple[str, str | None, float]],
) -> None:
    clock = FakeClock()
    tokens = store(tmp_path_factory.mktemp("guard"))
    guard = Guard(tokens, GuardPolicy(free_failures=2, first_backoff_s=1.0), clock=clock)
    until: dict[str, float] = {}
    for host, auth, dt_s in steps:
        clock.now_s += dt_s
        refusal = admit(guard, host, auth)
        if clock.now_s < until.get(host, 0.0):  # inside a Retry-After it gave: 429
            assert refusal is not None and refusal.status == 429
        elif refusal is not None and refusal.status == 429:
            assert refusal.retry_after_s is not None and refusal.retry_after_s >= 1
            until[host] = clock.now_s + refusal.retry_after_s - 1.0  # it was rounded up
        else:  # not blocked: the right token and only it is admitted
            assert (refusal is None) == (auth == RIGHT), (host, auth, refusal)


def test_a_client_over_its_request_rate_waits_and_local_clients_are_not_counted() -> None:
    clock = FakeClock()
    limit = RateLimit(lambda *a: None, RatePolicy(per_s=2.0, burst=3.0), clock=clock)  # type: ignore[arg-type]
    assert [limit.take("192.0.2.1") for _ in range(3)] == [0.0, 0.0, 0.0]
    assert limit.take("192.0.2.1") == pytest.approx(0.5)  # one more in half a second
    assert limit.take("192.0.2.2") == 0.0  # another client has its own bucket
    clock.now_s += 0.5
    assert limit.take("192.0.2.1") == 0.0
    for host in ("127.0.0.1", "127.9.9.9", "::1", "::ffff:127.0.0.1", "testclient", None):
        assert all(limit.take(host) == 0.0 for _ in range(10)), host
    with pytest.raises(CaromError, match="exempt"):
        RatePolicy(exempt=("not a network",))
    with pytest.raises(CaromError, match="per_s"):
        RatePolicy(per_s=0.0)
    with pytest.raises(CaromError, match="hold_s"):
        RatePolicy(hold_s=-1.0)

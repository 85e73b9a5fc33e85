"""Issue 19 over a real HTTP server: headers, 401 before 422, back-off, request rate, CSV.

Clients come from two loopback addresses (127.0.0.1 and 127.0.0.2: two clients as the
server's back-off sees them). The wrong-token flood during a live match is in
test_auth_flood.py; the gate's rules on a fake clock in test_guard.py.
"""

from __future__ import annotations

import csv
import io
import re
import time
from collections.abc import Iterator
from pathlib import Path

import httpx2
import pytest

from carom.web import RunningServer, WebSettings, create_app, serve_in_thread
from carom.web._guard import GuardPolicy
from carom.web._rate import RatePolicy
from carom.web._routes_pages import PAGES
from carom.web._security import PAGE_POLICY, SVG_POLICY
from carom.web._settings import STATIC_DIR
from tests.carom.web._web import AUTH, TOKEN, client, feed_until_review, new_match

WRONG = {"Authorization": "Bearer wrong-token-0123456789"}
CALL = {"kind": "timeout", "player": "Ann"}


def from_address(address: str) -> httpx2.Client:
    """A client whose requests come from ``address`` (a loopback one)."""
    return httpx2.Client(transport=httpx2.HTTPTransport(local_address=address), timeout=30)


@pytest.fixture
def server(tmp_path: Path) -> Iterator[tuple[RunningServer, list[str]]]:
    """A server restarted over a token's hash (nobody logged in: wrong tokens need the
    key derivation); the second item records every derivation run."""
    with client(tmp_path):
        pass  # the first start: the database and the hash
    policy = GuardPolicy(free_failures=3, first_backoff_s=1.0)
    app = create_app(WebSettings(db=tmp_path / "web.db", guard=policy), say=lambda text: None)
    derived: list[str] = []
    slow = app.state.tokens.slow

    def counted(presented: str) -> bool:
        derived.append(presented)
        ok: bool = slow(presented)
        return ok

    app.state.tokens.slow = counted
    srv = serve_in_thread(app)
    try:
        yield srv, derived
    finally:
        srv.stop()


def test_wrong_tokens_get_429_with_a_growing_retry_after_and_the_right_one_still_works(
    server: tuple[RunningServer, list[str]],
) -> None:
    srv, derived = server
    url = srv.url + "/api/matches"
    with from_address("127.0.0.1") as bad, from_address("127.0.0.2") as good:
        for _ in range(3):
            assert bad.post(url, json={"players": ["A", "B"]}, headers=WRONG).status_code == 401
        assert len(derived) == 3
        t0 = time.monotonic()
        for headers in (WRONG, AUTH, WRONG):  # blocked: even the right token waits
            r = bad.post(url, json={"players": ["A", "B"]}, headers=headers)
            assert r.status_code == 429 and r.headers["Retry-After"] == "1", r.text
            assert "try again in 1 s" in r.json()["detail"]
        assert time.monotonic() - t0 < 0.5 and len(derived) == 3  # answered without hashing
        assert good.post(url, json={"players": ["A", "B"]}, headers=AUTH).status_code == 201
        assert good.post(srv.url + "/api/matches/close", headers=AUTH).status_code == 200
        time.sleep(1.05)
        r = bad.post(url, json={"players": ["A", "B"]}, headers=WRONG)  # one more try
        assert r.status_code == 401
        r = bad.post(url, json={"players": ["A", "B"]}, headers=AUTH)
        assert r.status_code == 429 and r.headers["Retry-After"] == "2"  # doubled
        time.sleep(2.05)
        assert bad.post(url, json={"players": ["A", "B"]}, headers=AUTH).status_code == 201
        for _ in range(3):  # the right token cleared the record: three free tries again
            assert bad.post(srv.url + "/api/calls", json=CALL, headers=WRONG).status_code == 401
    assert len(derived) == 4  # 3 wrong, the right one once; since then: one SHA-256 each


@pytest.mark.parametrize(
    "body", [b"{not json", b"", b"[]", b'{"kind": 7}', b'{"kind": "timeout", "x": 1}']
)
@pytest.mark.parametrize("auth", [{}, WRONG, {"Authorization": "Basic YTpi"}])
def test_a_request_without_the_token_is_401_whatever_its_body(
    tmp_path: Path, body: bytes, auth: dict[str, str]
) -> None:
    with client(tmp_path, guard=GuardPolicy(free_failures=100)) as c:
        new_match(c)
        for path in ("/api/calls", "/api/matches", "/api/match-file/parse", "/api/nope"):
            r = c.post(path, content=body, headers=auth | {"Content-Type": "application/json"})
            assert r.status_code == 401, (path, r.text)
            assert r.headers["WWW-Authenticate"] == "Bearer"
        r = c.post("/api/calls", content=body, headers=AUTH | {"Content-Type": "application/json"})
        assert r.status_code == 422  # with the token the body is looked at


def _assert_secured(r: httpx2.Response) -> None:
    svg = r.headers.get("content-type", "").startswith("image/svg+xml")
    assert r.headers["Content-Security-Policy"] == (SVG_POLICY if svg else PAGE_POLICY)
    assert r.headers["X-Frame-Options"] == "DENY"
    assert r.headers["X-Content-Type-Options"] == "nosniff"
    assert r.headers["Referrer-Policy"] == "no-referrer"


def test_every_page_asset_and_answer_has_the_security_headers(tmp_path: Path) -> None:
    srv = serve_in_thread(create_app(WebSettings(db=tmp_path / "web.db", token=TOKEN),
                                     say=lambda text: None))  # fmt: skip
    try:
        r = httpx2.post(srv.url + "/api/matches", json={"players": ["Ann", "Bob"]}, headers=AUTH)
        assert r.status_code == 201
        _assert_secured(r)
        feed_until_review(srv.app.state.table)
        paths = [*PAGES, "/openapi.json", "/api/state", "/api/health", "/api/review",
                 "/api/review/diagram.svg", "/api/matches", "/api/matches/1/export.csv",
                 "/api/matches/1/shots/1/diagram.svg", "/nope", "/static/nope.js"]  # fmt: skip
        paths += [f"/static/{f.name}" for f in sorted(STATIC_DIR.iterdir())]
        for path in paths:
            r = httpx2.get(srv.url + path, timeout=30)
            assert r.status_code in (200, 404), (path, r.status_code)
            _assert_secured(r)
        svg = httpx2.get(srv.url + "/api/review/diagram.svg")
        assert svg.status_code == 200 and svg.headers["content-type"].startswith("image/svg")
        big = b"x" * 70_000
        for r in (httpx2.post(srv.url + "/api/calls", json=CALL),
                  httpx2.post(srv.url + "/api/calls", content=big, headers=AUTH)):  # fmt: skip
            assert r.status_code in (401, 413)
            _assert_secured(r)
    finally:
        srv.stop()


INLINE = [
    (re.compile(r"<script(?![^>]*\bsrc=)[^>]*>", re.I), "an inline script"),
    (re.compile(r"\sstyle\s*=", re.I), "a style attribute"),
    (re.compile(r"<style", re.I), "a style element"),
    (re.compile(r"\son[a-z]+\s*=", re.I), "an event-handler attribute"),
    (re.compile(r"(?:src|href)\s*=\s*\"(?:https?:)?//", re.I), "another origin"),
]


@pytest.mark.parametrize("name", sorted(set(PAGES.values())))
def test_the_pages_load_nothing_the_policy_refuses(name: str) -> None:
    html = (STATIC_DIR / name).read_text(encoding="utf-8")
    for pattern, what in INLINE:
        assert not pattern.search(html), f"{name} has {what}: the CSP would refuse it"
    for asset in re.findall(r"(?:src|href)=\"(/static/[^\"]+)\"", html):
        assert (STATIC_DIR / asset.removeprefix("/static/")).is_file(), asset
    scripts = "".join(p.read_text(encoding="utf-8") for p in STATIC_DIR.glob("*.js"))
    assert not re.search(r"style:\s*`|setAttribute\(\s*[\"']style|eval\(|new Function", scripts)


def test_the_csv_export_writes_a_formula_name_as_text(tmp_path: Path) -> None:
    evil = '=HYPERLINK("http://ev.il/","Click")'
    with client(tmp_path) as c:
        r = c.post("/api/matches", json={"players": [evil, "-Bob"]}, headers=AUTH)
        assert r.status_code == 201, r.text
        match_id = r.json()["match"]["id"]
        text = c.get(f"/api/matches/{match_id}/export.csv").text
    rows = list(csv.DictReader(io.StringIO(text, newline="")))
    assert (rows[0]["player_a"], rows[0]["player_b"]) == ("'" + evil, "'-Bob")
    assert rows[0]["points_a"] == "0"


def test_a_client_over_its_request_rate_gets_a_held_429_and_others_are_served(
    tmp_path: Path,
) -> None:
    rate = RatePolicy(per_s=0.5, burst=10.0, exempt=("127.0.0.1/32",), hold_s=0.5)
    srv = serve_in_thread(create_app(WebSettings(db=tmp_path / "web.db", token=TOKEN, rate=rate),
                                     say=lambda text: None))  # fmt: skip
    try:
        with from_address("127.0.0.2") as busy, from_address("127.0.0.3") as other:
            codes = [busy.get(srv.url + "/api/state").status_code for _ in range(10)]
            assert codes == [200] * 10
            start_s = time.monotonic()
            r = busy.get(srv.url + "/api/state")
            assert time.monotonic() - start_s >= 0.5  # held: a client that does not wait is made to
            assert r.status_code == 429 and "too many requests" in r.json()["detail"]
            assert r.headers["Retry-After"] == "2"  # a request's worth at 0.5/s, less the hold
            _assert_secured(r)
            assert busy.get(srv.url + "/api/state").status_code == 429  # the hold is not a refill
            assert other.get(srv.url + "/api/state").status_code == 200
            assert all(httpx2.get(srv.url + "/api/health").status_code == 200 for _ in range(20))
            time.sleep(2.05)  # a request's worth at 0.5/s
            assert busy.get(srv.url + "/api/state").status_code == 200
    finally:
        srv.stop()

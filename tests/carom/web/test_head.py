"""HEAD over a real HTTP server: answered wherever GET is, with GET's headers, no body."""

from __future__ import annotations

import time
from pathlib import Path

import httpx2

from carom.web import WebSettings, create_app, serve_in_thread
from carom.web._head import allow_with_head
from tests.carom.web._web import TOKEN


def test_head_answers_as_get_without_a_body_even_on_the_live_stream(tmp_path: Path) -> None:
    app = create_app(WebSettings(db=tmp_path / "web.db", token=TOKEN), say=lambda text: None)
    srv = serve_in_thread(app)
    try:
        with httpx2.Client(base_url=srv.url, timeout=10) as c:
            for path in ("/scoreboard", "/api/state", "/static/favicon.svg", "/api/matches"):
                got, head = c.get(path), c.head(path)
                assert head.status_code == got.status_code == 200, (path, head.text)
                assert head.content == b"" and got.content, path
                assert head.headers["content-type"] == got.headers["content-type"], path
                assert head.headers["content-length"] == str(len(got.content)), path
                assert head.headers["X-Frame-Options"] == "DENY", path
            t0 = time.monotonic()
            stream = c.head("/api/events")  # the SSE stream: headers, then it ends
            assert stream.status_code == 200 and stream.content == b""
            assert stream.headers["content-type"].startswith("text/event-stream")
            assert time.monotonic() - t0 < 5.0  # not the 15 s of a keep-alive
            assert c.get("/api/state").status_code == 200  # the server still serves
            assert c.head("/no/such/page").status_code == 404
            put = c.put("/scoreboard")
            assert put.status_code == 405 and put.headers["allow"] == "GET, HEAD"
            assert "this address takes GET, HEAD" in put.json()["detail"]
            calls = c.head("/api/calls")  # takes only POST (with the token)
            assert calls.status_code == 405 and calls.headers["allow"] == "POST"
    finally:
        srv.stop()


def test_allow_names_head_after_get_once() -> None:
    assert allow_with_head("GET") == "GET, HEAD"
    assert allow_with_head("POST") == "POST"
    assert allow_with_head("GET, POST") == "GET, HEAD, POST"
    assert allow_with_head("GET, HEAD") == "GET, HEAD"

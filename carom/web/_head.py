"""HEAD answered wherever GET is: the same status and headers, no body.

FastAPI's routes take only the methods they name, so a monitor's ``HEAD /scoreboard``
(uptime checks, link checkers, ``curl -I``) was 405. :class:`HeadAsGet` runs a HEAD
request as its GET and sends only the response's start (status, headers with the GET's
``Content-Length``) and an empty body; what the GET would stream after (an SSE stream,
a replay) is dropped, and the stream ends because its client is then gone. A 405's
``Allow`` names HEAD beside GET (:func:`allow_with_head`).
"""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["HeadAsGet", "allow_with_head"]


class HeadAsGet:
    """ASGI middleware: HEAD runs as GET and its response's body is left out."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] != "HEAD":
            await self.app(scope, receive, send)
            return
        ended = False

        async def headers_only(message: Message) -> None:
            nonlocal ended
            if ended:
                return
            if message["type"] == "http.response.body":
                ended = True
                message = {"type": "http.response.body", "body": b"", "more_body": False}
            await send(message)

        async def gone_once_answered() -> Message:
            if ended:
                return {"type": "http.disconnect"}
            return await receive()

        await self.app(dict(scope, method="GET"), gone_once_answered, headers_only)


def allow_with_head(allow: str) -> str:
    """``Allow`` of a 405 with HEAD after GET (``"GET"`` -> ``"GET, HEAD"``)."""
    methods = [m.strip() for m in allow.split(",") if m.strip()]
    if "GET" in methods and "HEAD" not in methods:
        methods.insert(methods.index("GET") + 1, "HEAD")
    return ", ".join(methods)

"""Two ASGI middlewares: the admin token before anything else, security headers on all.

:class:`AdminGate` checks the token of every state-changing API request (any method
but GET, HEAD and OPTIONS on a path under ``/api/``; the pages take only GET) through
:class:`carom.web._guard.Guard` *before* the request reaches FastAPI: a request
without the right token is answered 401 (or 429 while its client is blocked) whatever
its body, so an anonymous client never learns how a body is validated (no 422 before
401) and never makes the server parse one.

:class:`SecurityHeaders` adds to every response (pages, assets, API, errors):

* ``Content-Security-Policy`` :data:`PAGE_POLICY`: the pages load only their own
  scripts, styles and images from this server (``/static``, the API's JPEGs and SVG
  diagrams) and talk only to it (``fetch``, ``EventSource``); no inline script or style
  runs, no plug-in, no ``<base>``; forms post only here; no page may be framed. An SVG
  diagram opened on its own gets :data:`SVG_POLICY` (its one inline style attribute,
  nothing else).
* ``X-Frame-Options: DENY`` (older browsers' ``frame-ancestors 'none'``). The overlay
  for OBS is a browser source (a page of its own), not a frame, so it is not affected.
* ``X-Content-Type-Options: nosniff`` and ``Referrer-Policy: no-referrer``.
"""

from __future__ import annotations

import json

from starlette.datastructures import MutableHeaders
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carom.web._guard import Guard
from carom.web._refusals import refusal_parts

__all__ = ["ADMIN_KEY", "PAGE_POLICY", "SVG_POLICY", "AdminGate", "SecurityHeaders"]

#: Set to True in the request's ``state`` once :class:`AdminGate` admitted it.
ADMIN_KEY = "carom_admin"
SAFE_METHODS = frozenset({"GET", "HEAD", "OPTIONS"})

PAGE_POLICY = (
    "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self'; "
    "connect-src 'self'; base-uri 'none'; form-action 'self'; frame-ancestors 'none'"
)
SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; frame-ancestors 'none'"
_HEADERS = {
    "X-Frame-Options": "DENY",
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
}


class AdminGate:
    """Refuse state-changing requests without the admin token before FastAPI sees them."""

    def __init__(self, app: ASGIApp, guard: Guard) -> None:
        self.app, self.guard = app, guard

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] in SAFE_METHODS \
                or not scope["path"].startswith("/api/"):  # fmt: skip
            await self.app(scope, receive, send)
            return
        client = scope.get("client")
        authorization = _header(scope, b"authorization")
        refusal = await self.guard.admit(client[0] if client else None, authorization)
        if refusal is None:
            scope.setdefault("state", {})[ADMIN_KEY] = True
            await self.app(scope, receive, send)
            return
        doc = {"detail": refusal.detail, "detail_parts": refusal_parts(refusal.detail)}
        body = json.dumps(doc).encode()
        headers = [(k.lower().encode(), v.encode()) for k, v in refusal.headers().items()]
        headers += [(b"content-type", b"application/json"),
                    (b"content-length", str(len(body)).encode())]  # fmt: skip
        await send({"type": "http.response.start", "status": refusal.status, "headers": headers})
        await send({"type": "http.response.body", "body": body})


def _header(scope: Scope, name: bytes) -> str | None:
    for key, value in scope["headers"]:
        if key.lower() == name:
            return bytes(value).decode("latin-1")
    return None


class SecurityHeaders:
    """Add the security headers (module docstring) to every HTTP response."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return

        async def with_headers(message: Message) -> None:
            if message["type"] == "http.response.start":
                headers = MutableHeaders(scope=message)
                svg = headers.get("content-type", "").startswith("image/svg+xml")
                headers.setdefault("Content-Security-Policy", SVG_POLICY if svg else PAGE_POLICY)
                for key, value in _HEADERS.items():
                    headers.setdefault(key, value)
            await send(message)

        await self.app(scope, receive, with_headers)

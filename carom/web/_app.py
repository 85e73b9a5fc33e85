"""The FastAPI application: one table, its API, its pages; see ``docs/web.md``.

Composition root of the web side: the match database, the admin token, the camera
rig (with ``--camera``), the :class:`~carom.web._table.Table` and the SSE
broadcaster, wired into a FastAPI app with the admin token's gate (back-off per client,
checked before any body is read: :mod:`carom.web._guard`), the security headers
(:mod:`carom.web._security`), the request-size limit, CORS (off unless origins are
given) and error handlers that answer every refusal with a one-line ``{"detail": ...}``.
"""

from __future__ import annotations

import asyncio
import sys
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from typing import Any

from fastapi import FastAPI, HTTPException, Request
from fastapi.exceptions import RequestValidationError
from fastapi.middleware.cors import CORSMiddleware
from fastapi.middleware.trustedhost import TrustedHostMiddleware
from fastapi.responses import JSONResponse
from starlette.exceptions import HTTPException as StarletteHTTPException
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from carom.live import LiveSession, MatchStore, source_identity
from carom.timestamps import now_iso
from carom.web._auth import TokenStore, write_token_file
from carom.web._guard import Guard
from carom.web._head import HeadAsGet, allow_with_head
from carom.web._rate import RateLimit
from carom.web._refusals import refusal_parts
from carom.web._security import AdminGate, SecurityHeaders
from carom.web._settings import WebSettings
from carom.web._sse import Broadcaster
from carom.web._table import MANUAL_SOURCE, ConflictError, Table
from referee import CaromError

__all__ = ["create_app"]

Say = Callable[[str], None]


def _stderr(text: str) -> None:
    print(f"carom serve: {text}", file=sys.stderr, flush=True)


def create_app(settings: WebSettings, *, say: Say = _stderr) -> FastAPI:
    """The app over ``settings.db`` (opened now; the token is made now if there is none).

    Raises:
        CaromError: the database, the token file or the camera set-up is unusable.
    """
    from carom.web._routes_api import router as api_router
    from carom.web._routes_calib import router as calib_router
    from carom.web._routes_history import router as history_router
    from carom.web._routes_match import router as match_router
    from carom.web._routes_pages import mount_pages
    from carom.web._wizard import Wizard

    fresh = not settings.db.exists()
    store = MatchStore(settings.db)
    if fresh:  # a mistyped --db must not look like the club's matches gone
        say(f"{settings.db}: a new match database (there was none); give --db the club's "
            "database to see its matches")  # fmt: skip
    try:
        tokens = _tokens(settings, say, write=store.health.sound)
        rig = _rig(settings)
    except BaseException:
        store.close()
        raise
    table = Table(store, Broadcaster(settings.keepalive_s, settings.max_sse_clients), rig)
    table.default_match = settings.match
    if settings.match is None or not settings.start_match:
        _say_unfinished(store, None if rig is None else rig.source, settings, say)
    guard = Guard(tokens, settings.guard)

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        table.broadcaster.attach(asyncio.get_running_loop())
        table.start()
        if settings.match is not None and settings.start_match:  # carom serve --match
            from carom.web._routes_match import setup_for

            await asyncio.to_thread(table.create_match, setup_for(table, settings.match))
        try:
            yield
        finally:
            await asyncio.to_thread(table.close)
            guard.close()
            store.close()

    about = "The referee's table: matches, calls, live state, history."
    app = FastAPI(title="carom-referee", version="1", lifespan=lifespan, description=about,
                  docs_url=None, redoc_url=None)  # fmt: skip
    app.state.table, app.state.tokens, app.state.settings = table, tokens, settings
    app.state.guard = guard
    app.state.say = say
    app.include_router(api_router)
    app.include_router(match_router)
    app.include_router(history_router)
    app.include_router(calib_router)
    app.state.wizard = Wizard(settings.camera, settings.calibration, settings.table)
    mount_pages(app, settings)
    _handlers(app)
    _middleware(app, settings, guard)
    return app


def _middleware(app: FastAPI, settings: WebSettings, guard: Guard) -> None:
    """Outermost last: headers(host(rate(CORS(token(size(head(app))))))).

    CORS answers preflights; HEAD is answered wherever GET is (:mod:`carom.web._head`).
    The token is checked before the body's size: a request without it is 401 whatever
    it sends (docs/security.md), an oversized one with it 413.
    """
    app.add_middleware(HeadAsGet)
    app.add_middleware(BodyLimit, max_bytes=settings.max_body_bytes)
    app.add_middleware(AdminGate, guard=guard)
    if settings.cors_origins:
        headers = ["Authorization", "Content-Type", "Last-Event-ID"]
        app.add_middleware(CORSMiddleware, allow_origins=list(settings.cors_origins),
                           allow_methods=["GET", "POST"], allow_headers=headers)  # fmt: skip
    app.add_middleware(RateLimit, policy=settings.rate)
    if settings.allowed_hosts:
        app.add_middleware(TrustedHostMiddleware, allowed_hosts=list(settings.allowed_hosts))
    app.add_middleware(SecurityHeaders)


def _say_unfinished(store: MatchStore, camera: str | None, settings: WebSettings, say: Say) -> None:
    """Name the newest match of this table left unfinished (a restart, a crash).

    The table starts empty; only the same set-up entered again resumes it. ``camera``:
    the ``--camera`` as given (its matches are keyed by its absolute path, older ones
    by the path as given), None without a camera.
    """
    if not store.health.sound:
        return  # a damaged database: its own lines say what to do
    given = MANUAL_SOURCE if camera is None else camera
    sources = frozenset({given, given if camera is None else source_identity(camera)})
    m = LiveSession.left_unfinished(store, sources)
    if m is not None:
        say(f"match {m.id} ({' - '.join(m.players)}, begun {m.created_at[:16]}) was left "
            "unfinished: a new match with the same set-up (players, first player, targets, "
            f"rules) resumes it; carom matches {settings.db} lists every match")  # fmt: skip


def _tokens(settings: WebSettings, say: Say, *, write: bool) -> TokenStore:
    """The admin token; over a damaged database (``write`` False) nothing is written to it."""
    tokens = TokenStore(settings.db)
    issue = tokens.open(preset=settings.token, renew=settings.new_token, now_iso=now_iso(),
                        write=write)  # fmt: skip
    if issue.token is not None:
        where = f"; also written to {settings.token_file}" if settings.token_file else ""
        kept = "stored hashed" if issue.kept else (
            "for this run only: the database is damaged and nothing is written to it")  # fmt: skip
        say(f"admin token: {issue.token} (shown once, {kept}{where}; "
            "a new one: carom serve --new-token)")  # fmt: skip
        if settings.token_file is not None:
            write_token_file(settings.token_file, issue.token)
    elif settings.token_file is not None:  # a restarted service: nothing written, say why
        say(f"--token-file {settings.token_file}: not written: the database keeps an admin "
            "token made before (only its hash: it cannot be shown again); the file written "
            "then still holds it, or make a new one with --new-token")  # fmt: skip
    else:  # a restart: the token was shown at the first start (it said nothing of it)
        say("admin token: the one shown at the first start (only its hash is kept, so it "
            "cannot be shown again; lost it? carom serve --new-token makes a new one)")  # fmt: skip
    return tokens


def _rig(settings: WebSettings) -> Any:
    if settings.camera is None:
        return None
    from carom.web._live import CameraRig

    if settings.calibration is None:
        raise CaromError("--camera needs a calibration; pass --calibration FILE (or auto)")
    return CameraRig(settings.camera, settings.calibration, pace=settings.pace,
                     status_every_s=settings.status_every_s,
                     drift_every_s=settings.drift_every_s)  # fmt: skip


def one_line(text: str) -> str:
    """``text`` on one line (error details)."""
    return " ".join(str(text).split())


def _validation_text(exc: RequestValidationError) -> str:
    parts = []
    for err in exc.errors()[:3]:
        loc = tuple(err.get("loc", ()))
        if err.get("type") == "json_invalid":  # loc: ("body", character index)
            why = (err.get("ctx") or {}).get("error", "")
            at = f" at character {loc[-1]}" if len(loc) > 1 else ""
            parts.append(f"the body is not valid JSON{at} ({why}); send a JSON object")
            continue
        if loc == ("body",) and err.get("type") == "missing":
            parts.append("no body; send a JSON object")
            continue
        if loc == ("body",) and isinstance(err.get("input"), str | bytes):
            parts.append("the body was not read as JSON; send it with the header "
                         "content-type: application/json")  # fmt: skip
            continue
        where = ".".join(str(p) for p in loc if p != "body") or "body"
        msg = str(err.get("msg", "invalid")).removeprefix("Value error, ")
        parts.append(f"{where}: {msg}")
    more = len(exc.errors()) - 3
    tail = f" (and {more} more)" if more > 0 else ""
    return one_line("; ".join(parts) + tail + "; see /docs for the request's fields")


def _handlers(app: FastAPI) -> None:
    async def validation(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, RequestValidationError)
        return JSONResponse({"detail": _validation_text(exc)}, status_code=422)

    async def http(request: Request, exc: Exception) -> JSONResponse:
        assert isinstance(exc, StarletteHTTPException)
        detail = one_line(str(exc.detail))
        headers = {k.lower(): v for k, v in (getattr(exc, "headers", None) or {}).items()}
        allow = headers.get("allow")
        if exc.status_code == 405 and allow:
            allow = headers["allow"] = allow_with_head(allow)
            detail = (f"{request.method} {request.url.path}: not taken here; this address "
                      f"takes {allow} (see /docs)")  # fmt: skip
        if exc.status_code == 404 and detail == "Not Found":
            from carom.web._routes_pages import PAGES

            pages = ", ".join(p for p in PAGES if p != "/docs")
            detail = (f"{request.url.path}: no such address here; the pages are {pages}, "
                      "the API's addresses are listed at /docs")  # fmt: skip
        if exc.status_code == 400 and detail == "There was an error parsing the body":
            detail = await _unreadable_body(request)
        return JSONResponse({"detail": detail}, status_code=exc.status_code,
                            headers=headers or None)  # fmt: skip

    async def carom(request: Request, exc: Exception) -> JSONResponse:
        detail = one_line(str(exc))
        return JSONResponse({"detail": detail, "detail_parts": refusal_parts(detail)},
                            status_code=409)  # fmt: skip

    async def crash(request: Request, exc: Exception) -> JSONResponse:
        detail = f"internal error ({type(exc).__name__}); see the server's messages"
        return JSONResponse({"detail": detail}, status_code=500)

    app.add_exception_handler(Exception, crash)  # logged by uvicorn; never a page of trace
    app.add_exception_handler(RequestValidationError, validation)
    app.add_exception_handler(StarletteHTTPException, http)
    app.add_exception_handler(ConflictError, carom)
    app.add_exception_handler(CaromError, carom)


class _TooLarge(HTTPException):
    """A streamed body went over the limit (answered 413 by the HTTP error handler)."""

    def __init__(self, max_bytes: int) -> None:
        super().__init__(413, f"request body too large (limit {max_bytes} bytes); send less")


class BodyLimit:
    """Refuse request bodies over ``max_bytes`` with 413 (declared or streamed)."""

    def __init__(self, app: ASGIApp, max_bytes: int) -> None:
        self.app, self.max_bytes = app, max_bytes

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        declared = dict(scope["headers"]).get(b"content-length")
        if declared is not None and (not declared.isdigit() or int(declared) > self.max_bytes):
            await self._refuse(send)
            return
        seen, started = 0, False

        async def limited() -> Message:
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_bytes:
                    raise _TooLarge(self.max_bytes)
            return message

        async def watched(message: Message) -> None:
            nonlocal started
            started = started or message["type"] == "http.response.start"
            await send(message)

        try:
            await self.app(scope, limited, watched)
        except _TooLarge:
            if not started:
                await self._refuse(send)

    async def _refuse(self, send: Send) -> None:
        body = (b'{"detail":"request body too large (limit %d bytes); send less"}'
                % self.max_bytes)  # fmt: skip
        await send({"type": "http.response.start", "status": 413,
                    "headers": [(b"content-type", b"application/json"),
                                (b"content-length", str(len(body)).encode())]})  # fmt: skip
        await send({"type": "http.response.body", "body": body})


async def _unreadable_body(request: Request) -> str:
    """Why a JSON body could not be read (the framework says only that it could not)."""
    try:
        (await request.body()).decode("utf-8")
    except UnicodeDecodeError as exc:
        return (f"the body is not UTF-8 text (byte {exc.start + 1}, counted from 1); send "
                "a plain JSON object in UTF-8, see /docs")  # fmt: skip
    return ("the body could not be read as JSON (nested too deeply, or a number too long); "
            "send a plain JSON object, see /docs")  # fmt: skip

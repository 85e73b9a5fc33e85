"""The live table's API: state, events, health, matches, calls, review."""

from __future__ import annotations

import threading
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Query, Request, Response
from fastapi.responses import StreamingResponse
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer

from carom.i18n import LANGUAGES, catalogue, pick_language
from carom.live import LiveError
from carom.web._guard import Guard
from carom.web._match_models import MatchFileIn
from carom.web._models import CallIn, LanguageIn, call_value
from carom.web._security import ADMIN_KEY
from carom.web._settings import TableLanguage, WebSettings
from carom.web._table import Table

__all__ = ["require_token", "router", "table_of"]

router = APIRouter()
_bearer = HTTPBearer(auto_error=False, description="the admin token from carom serve")


def table_of(request: Request) -> Table:
    """The app's table."""
    table: Table = request.app.state.table
    return table


async def require_token(
    request: Request,
    creds: Annotated[HTTPAuthorizationCredentials | None, Depends(_bearer)],
) -> None:
    """Refuse (401, or 429 while the client is blocked) a request without the admin token.

    The app's :class:`~carom.web._security.AdminGate` has already admitted every
    state-changing request; this is for a route reached some other way.
    """
    if request.scope.get("state", {}).get(ADMIN_KEY):
        return
    guard: Guard = request.app.state.guard
    client = request.client
    presented = f"{creds.scheme} {creds.credentials}" if creds is not None else None
    refusal = await guard.admit(client.host if client else None, presented)
    if refusal is not None:
        raise HTTPException(refusal.status, refusal.detail, headers=refusal.headers())


Admin = Depends(require_token)
TableDep = Annotated[Table, Depends(table_of)]


@router.get("/api/health", tags=["live"])
def health(table: TableDep) -> dict[str, Any]:
    """Is the server up; the camera's state; the current STATE version."""
    return {"status": "ok", "camera": table.camera(), "version": table.version}


@router.get("/api/state", tags=["live"])
def state(table: TableDep) -> dict[str, Any]:
    """The full STATE of the table (see docs/web.md)."""
    return table.state()


@router.get("/api/events", tags=["live"],
            response_class=StreamingResponse, include_in_schema=False)  # fmt: skip
async def events(request: Request, table: TableDep) -> StreamingResponse:
    """Server-sent events: ``event: state`` with the full STATE on every change.

    The current state is sent at once unless the ``Last-Event-ID`` header names its
    version; a keep-alive comment follows every quiet 15 s.
    """
    last = request.headers.get("last-event-id")
    if table.broadcaster.full:
        raise HTTPException(503, f"{table.broadcaster.max_clients} live clients already; "
                            "close some overlays or use GET /api/state")  # fmt: skip
    return StreamingResponse(
        table.broadcaster.stream(last), media_type="text/event-stream",
        headers={"Cache-Control": "no-store", "X-Accel-Buffering": "no"},
    )  # fmt: skip


@router.post("/api/matches", tags=["matches"], status_code=201, dependencies=[Admin])
def create_match(body: MatchFileIn, table: TableDep) -> dict[str, Any]:
    """Start the match a match file describes (docs/match-file.md); the new STATE.

    409 while one is being played; an unfinished match with the same set-up resumes
    instead of starting afresh. Without a camera and ``first_player``, player 1
    breaks; with a camera ``follow_cue_ball`` is on unless the file's ``rules`` say.
    """
    from carom.web._routes_match import checked, setup_for

    return table.create_match(setup_for(table, checked(body)))


@router.post("/api/matches/close", tags=["matches"], dependencies=[Admin])
def close_match(table: TableDep) -> dict[str, Any]:
    """Take the match off the table (kept in the database; resumable); the new STATE."""
    return table.close_match()


@router.post("/api/calls", tags=["live"], dependencies=[Admin])
def post_call(body: CallIn, table: TableDep) -> dict[str, Any]:
    """A person's call on the match on the table; the new STATE (409 if it does not fit)."""
    session = table.need_session()
    try:
        # Kept by hand: no camera, and no shot fed by a script (Table.submit_shot) either.
        by_hand = table.camera() == "none" and session.state.shots_played == 0
        value = call_value(body, session.state.config.players, by_hand=by_hand)
    except ValueError as exc:
        raise HTTPException(422, str(exc)) from None
    return table.call(value)


@router.get("/api/review", tags=["live"])
def review(table: TableDep) -> dict[str, Any]:
    """The shot held for review, if any."""
    return {"pending": table.state().get("pending_review")}


@router.get("/api/review/replay", tags=["live"])
def replay(table: TableDep) -> dict[str, Any]:
    """The pending shot's frames (URLs of small JPEGs; empty without a camera)."""
    fps, frames = table.replay()
    return {"fps": fps, "frames": [f"/api/review/frames/{i}.jpg" for i in range(len(frames))]}


@router.get("/api/review/frames/{i}.jpg", tags=["live"], response_class=Response,
            responses={200: {"content": {"image/jpeg": {}}}})  # fmt: skip
def replay_frame(i: int, table: TableDep) -> Response:
    """Frame ``i`` of the pending shot's replay."""
    _, frames = table.replay()
    if not 0 <= i < len(frames):
        raise HTTPException(
            404, f"no replay frame {i} ({len(frames)} kept); see /api/review/replay"
        )
    return Response(frames[i], media_type="image/jpeg")


_language_lock = threading.Lock()


def table_language(request: Request) -> TableLanguage:
    """The table's language setting (made on first use, kept in the match database)."""
    state = request.app.state
    with _language_lock:
        if not hasattr(state, "language"):
            settings: WebSettings = state.settings
            sound = state.table.store.health.sound  # a damaged database is never written
            state.language = TableLanguage(settings.db, keep=sound)
    language: TableLanguage = state.language
    return language


def _language_doc(request: Request, lang: str | None) -> dict[str, Any]:
    settings: WebSettings = request.app.state.settings
    table = table_language(request).get()
    # The first usable of the page's choice, the table's, the server's: an unknown
    # ``?lang=`` gives way to the table's language (docs/web.md, Language).
    chosen = pick_language(lang, request.headers.get("accept-language"), table,
                           settings.language)  # fmt: skip
    return {"lang": chosen, "table_language": table, "languages": LANGUAGES}


@router.get("/api/i18n/web", tags=["pages"])
def page_messages(
    request: Request,
    lang: Annotated[str | None, Query(max_length=35, description="a language code")] = None,
) -> dict[str, Any]:
    """The pages' messages in one language (the ``web`` catalogue).

    The language: ``lang``, else the table's setting, else the server's default, else
    the browser's ``Accept-Language``, else English. The answer's ``lang`` is the one
    used; ``table_language`` the table's setting or null; ``languages`` code -> name.
    """
    doc = _language_doc(request, lang)
    return doc | {"messages": catalogue("web").for_language(doc["lang"])}


@router.get("/api/settings/language", tags=["pages"])
def get_language(request: Request) -> dict[str, Any]:
    """The table's page language (null: each browser's own) and the one this browser gets."""
    return _language_doc(request, None)


@router.post("/api/settings/language", tags=["pages"], dependencies=[Admin])
def set_language(body: LanguageIn, request: Request) -> dict[str, Any]:
    """Set the table's page language (null: each browser's own); pages take it on load."""
    try:
        table_language(request).set(body.language)
    except LiveError as exc:
        raise HTTPException(503, str(exc)) from None
    return _language_doc(request, None)

"""History, statistics, exports and shot diagrams (read-only)."""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Depends, HTTPException, Path, Query, Request, Response

from carom.i18n import pick_language
from carom.live import (
    LiveError,
    corrections_in_effect,
    csv_text,
    result_row,
    shot_log,
    trajectories,
)
from carom.report import shot_csv_text
from carom.trajectories import trajectories_csv, trajectories_text
from carom.web._history import History, shot_svg
from carom.web._routes_api import table_of
from carom.web._table import Table

__all__ = ["router"]

router = APIRouter(tags=["history"])

MatchId = Annotated[int, Path(ge=1, le=2**62, description="the match's id")]
ShotN = Annotated[int, Path(ge=0, le=100000, description="the shot's number in the match")]
LangQuery = Annotated[str | None, Query(max_length=35, description="a language code")]
_SVG: dict[int | str, dict[str, Any]] = {200: {"content": {"image/svg+xml": {}}}}


def history_of(request: Request) -> History:
    """The app's history reader (made on first use)."""
    history: History | None = getattr(request.app.state, "history", None)
    if history is None:
        history = request.app.state.history = History(request.app.state.table.store)
    return history


HistoryDep = Annotated[History, Depends(history_of)]


def _known(history: History, match_id: int) -> None:
    try:
        history.store.match(match_id)
    except LiveError:
        raise HTTPException(404, f"no match {match_id}; see GET /api/matches") from None


@router.get("/api/matches")
def matches(history: HistoryDep) -> list[dict[str, Any]]:
    """Every match of the database, newest first."""
    return history.summaries()


@router.get("/api/matches/{match_id}")
def match(match_id: MatchId, history: HistoryDep, request: Request,
          lang: LangQuery = None) -> dict[str, Any]:  # fmt: skip
    """One match: result, set-up (its terms in ``lang``), scoresheet, per-player statistics."""
    _known(history, match_id)
    return history.detail(match_id, _lang(request, lang))


@router.get("/api/matches/{match_id}/export.json")
def export_json(match_id: MatchId, history: HistoryDep) -> Response:
    """The match as a carom-shots/1 shot log (carom score re-judges it)."""
    _known(history, match_id)
    session = history.session(match_id)
    headers = {"Content-Disposition": f'attachment; filename="match-{match_id}.json"'}
    if corrections := corrections_in_effect(session):
        headers["X-Carom-Note"] = (f"{len(corrections)} referee correction(s) left out: "
                                   "carom-shots/1 cannot hold them, so carom score on this "
                                   "export may give another score")  # fmt: skip
    doc = shot_log(session)
    return Response(json.dumps(doc, indent=1), media_type="application/json", headers=headers)


@router.get("/api/matches/{match_id}/export.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})  # fmt: skip
def export_csv(match_id: MatchId, history: HistoryDep) -> Response:
    """The match's result line as CSV (the columns of carom export)."""
    _known(history, match_id)
    text = csv_text([result_row(history.session(match_id))])
    return Response(text, media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="match-{match_id}.csv"'})  # fmt: skip


@router.get("/api/matches/{match_id}/shots.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})  # fmt: skip
def export_shots_csv(match_id: MatchId, history: HistoryDep) -> Response:
    """One row per shot of export.json: player, inning, points, cushions, fouls, times."""
    _known(history, match_id)
    text = shot_csv_text(shot_log(history.session(match_id)), str(match_id))
    name = f"match-{match_id}-shots.csv"
    return Response(text, media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip


@router.get("/api/matches/{match_id}/trajectories.json")
def export_trajectories(match_id: MatchId, history: HistoryDep) -> Response:
    """Every ball's trajectory, every frame of the shots of export.json (docs/trajectories.md)."""
    _known(history, match_id)
    text = trajectories_text(trajectories(history.session(match_id)))  # as carom export's
    name = f"match-{match_id}-trajectories.json"
    return Response(text, media_type="application/json",
                    headers={"Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip


@router.get("/api/matches/{match_id}/trajectories.csv", response_class=Response,
            responses={200: {"content": {"text/csv": {}}}})  # fmt: skip
def export_trajectories_csv(match_id: MatchId, history: HistoryDep) -> Response:
    """The same trajectories as CSV, one row per ball and frame."""
    _known(history, match_id)
    text = trajectories_csv(trajectories(history.session(match_id)))
    name = f"match-{match_id}-trajectories.csv"
    return Response(text, media_type="text/csv", headers={
        "Content-Disposition": f'attachment; filename="{name}"'})  # fmt: skip


@router.get("/api/matches/{match_id}/shots/{n}/diagram.svg", response_class=Response,
            responses=_SVG)  # fmt: skip
def diagram(match_id: MatchId, n: ShotN, history: HistoryDep, request: Request,
            lang: LangQuery = None) -> Response:  # fmt: skip
    """Shot ``n``'s diagram: ball paths, numbered contacts, the verdict (in ``lang``)."""
    _known(history, match_id)
    found = history.shot(match_id, n)
    if found is None:
        raise HTTPException(404, f"match {match_id} has no shot {n} in effect; see its scoresheet")
    session, play, record = found
    svg = shot_svg(session, play.shot, play.info, record.player, record.verdict,
                   _lang(request, lang))  # fmt: skip
    return Response(svg, media_type="image/svg+xml")


@router.get("/api/review/diagram.svg", tags=["live"], response_class=Response, responses=_SVG)
def review_diagram(table: Annotated[Table, Depends(table_of)], request: Request,
                   lang: LangQuery = None) -> Response:  # fmt: skip
    """The diagram of the shot held for review (404: none is), in ``lang``."""
    session = table.session
    pending = session.pending if session is not None else None
    if session is None or pending is None:
        raise HTTPException(404, "no shot waits for review; see GET /api/review")
    svg = shot_svg(session, pending.shot, pending.info, pending.record.player,
                   pending.record.verdict, _lang(request, lang))  # fmt: skip
    return Response(svg, media_type="image/svg+xml")


def _lang(request: Request, lang: str | None) -> str:
    """A diagram's or set-up's language: ``?lang=``, else the browser's, else English."""
    return pick_language(lang, request.headers.get("accept-language"))


@router.get("/api/players/stats")
def player_stats(history: HistoryDep) -> dict[str, dict[str, Any]]:
    """Per player over every match: matches, points, innings, GA, BA, high run."""
    return history.player_stats()

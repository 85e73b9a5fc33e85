"""The match file on the web: the console's form reads and writes the match-file structure.

``GET /api/match-file`` gives the set-up of the match on the table (else the server's
``--match``, else the defaults) and every default the form shows; ``POST
/api/match-file/parse`` reads a file's text (TOML or JSON) into the structure;
``POST /api/match-file/toml`` writes the structure as TOML to save. None of them
changes anything; the two POSTs take the token all the same, as every POST of the API
does. ``POST /api/matches`` starts the match the structure describes.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from fastapi import APIRouter, HTTPException

from carom.match import (
    MatchFile,
    MatchFileError,
    defaults_doc,
    from_config,
    match_file_doc,
    match_file_toml,
    parse_match_file_text,
)
from carom.web._match_models import MatchFileIn, MatchFileText, match_of
from carom.web._routes_api import Admin, TableDep
from carom.web._table import MatchSetup, Table

__all__ = ["checked", "router", "setup_for"]

router = APIRouter()


def checked(body: MatchFileIn) -> MatchFile:
    """The match file that was sent; 422 naming the key when it is wrong."""
    try:
        return match_of(body)
    except MatchFileError as exc:
        raise HTTPException(422, f"{exc}; fix the match set-up") from None


def setup_for(table: Table, match: MatchFile) -> MatchSetup:
    """What the table starts for ``match``.

    Without a camera, and without ``first_player``, player 1 breaks (no lag to
    watch), or, in a match joined in progress, is at the table when its start names
    nobody; with one, ``follow_cue_ball`` is on unless the file's ``rules`` set it
    (the camera names the shooter).
    """
    named = match.start is not None and match.start.shooter is not None
    if table.rig is None and match.first_player is None and not named:
        match = replace(match, first_player=match.players[0])
    return MatchSetup(match.config(camera=table.rig is not None), match.clock)


@router.get("/api/match-file", tags=["matches"])
def current(table: TableDep) -> dict[str, Any]:
    """The match on the table as a match file, and every rule and clock default.

    Without a match on the table: the server's ``--match``, else the defaults.
    """
    match = table.default_match or MatchFile()
    if table.session is not None and table.setup is not None:
        match = from_config(table.session.state.config, table.setup.clock_settings)
    return {"match": match_file_doc(match), "defaults": defaults_doc()}


@router.post("/api/match-file/parse", tags=["matches"], dependencies=[Admin])
def parse(body: MatchFileText) -> dict[str, Any]:
    """A match file's text (TOML, or JSON) as the structure; 422 naming the key."""
    try:  # bounded as a file: size, nesting, digits (docs/match-file.md, "Limits")
        return {"match": match_file_doc(parse_match_file_text(body.text))}
    except MatchFileError as exc:
        raise HTTPException(422, str(exc)) from None


@router.post("/api/match-file/toml", tags=["matches"], dependencies=[Admin])
def to_toml(body: MatchFileIn) -> dict[str, Any]:
    """The structure as a TOML match file to save (and the structure as read back)."""
    match = checked(body)
    return {"toml": match_file_toml(match), "match": match_file_doc(match)}

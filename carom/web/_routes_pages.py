"""The pages: plain HTML/CSS/JS files from ``carom/web/static`` (no build step).

A page is served from a fixed name table (never from a request's path); the assets
under ``/static`` are served by Starlette's ``StaticFiles``, which refuses paths
that leave the folder.
"""

from __future__ import annotations

from collections.abc import Callable

from fastapi import FastAPI, HTTPException
from fastapi.responses import FileResponse
from fastapi.staticfiles import StaticFiles

from carom.web._settings import WebSettings

__all__ = ["PAGES", "mount_pages"]

#: URL path -> file of the static folder.
PAGES = {
    "/": "index.html",
    "/scoreboard": "scoreboard.html",
    "/overlay": "overlay.html",
    "/console": "console.html",
    "/wizard": "wizard.html",
    "/history": "history.html",
    # The API reference, drawn from /openapi.json by a local script (FastAPI's own
    # /docs loads Swagger UI from a CDN, which a club's network may not reach).
    "/docs": "api.html",
}

# The security headers (CSP, X-Frame-Options...) are added to every response by
# carom.web._security.SecurityHeaders.
_PAGE_HEADERS = {"Cache-Control": "no-cache"}


def mount_pages(app: FastAPI, settings: WebSettings) -> None:
    """Serve the pages at their paths and the assets at ``/static``."""
    folder = settings.static_dir
    for path, name in PAGES.items():
        app.add_api_route(path, _page(settings, name), methods=["GET"],
                          include_in_schema=False, response_class=FileResponse)  # fmt: skip
    app.add_api_route("/favicon.ico", _icon(settings), methods=["GET"], include_in_schema=False,
                      response_class=FileResponse)  # fmt: skip
    app.mount("/static", StaticFiles(directory=folder, check_dir=False), name="static")


def _icon(settings: WebSettings) -> Callable[[], FileResponse]:
    """``/favicon.ico``: the pages' icon, not a 404 in the browser's console.

    Browsers ask for it where a page names no icon (``/openapi.json``, an error page).
    """
    file = settings.static_dir / "favicon.svg"

    def icon() -> FileResponse:
        if not file.is_file():
            raise HTTPException(404, "favicon.svg is not installed; reinstall carom-referee")
        return FileResponse(file, media_type="image/svg+xml")

    return icon


def _page(settings: WebSettings, name: str) -> Callable[[], FileResponse]:
    file = settings.static_dir / name

    def page() -> FileResponse:
        if not file.is_file():
            raise HTTPException(404, f"page {name} is not installed; reinstall carom-referee")
        return FileResponse(file, media_type="text/html", headers=_PAGE_HEADERS)

    return page

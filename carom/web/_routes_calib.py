"""The calibration wizard's API: the frame, the calibration shown, refits, save."""

from __future__ import annotations

from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request, Response

from calibration import Outcome
from carom.web._models import FitIn
from carom.web._routes_api import Admin
from carom.web._table import ConflictError
from carom.web._wizard import Wizard, overlay_path, size_doc
from referee import CaromError

__all__ = ["router"]

router = APIRouter(tags=["calibration"])


def wizard_of(request: Request) -> Wizard:
    """The app's calibration wizard."""
    wizard: Wizard = request.app.state.wizard
    return wizard


WizardDep = Annotated[Wizard, Depends(wizard_of)]


@router.get("/api/calibration")
def calibration(wizard: WizardDep) -> dict[str, Any]:
    """The calibration shown: its table corners and diamonds in the frame's pixels."""
    return wizard.current()


@router.get("/api/calibration/frame.jpg", response_class=Response,
            responses={200: {"content": {"image/jpeg": {}}}})  # fmt: skip
def frame(wizard: WizardDep) -> Response:
    """The camera frame the wizard works on."""
    return Response(wizard.jpeg(), media_type="image/jpeg")


@router.post("/api/calibration/fit", dependencies=[Admin])
def fit(body: FitIn, wizard: WizardDep) -> dict[str, Any]:
    """Refit to the marked corners and diamonds (nothing is saved)."""
    try:
        return wizard.fit(body.corners_px, body.diamonds_px)
    except ConflictError:
        raise  # no camera, or carom live's: 409, keyed like the other calibration routes
    except CaromError as exc:
        from fastapi import HTTPException

        raise HTTPException(422, f"{exc}; move the marks and refit") from None


@router.post("/api/calibration/save", dependencies=[Admin])
def save(wizard: WizardDep, request: Request) -> dict[str, Any]:
    """Write the last refit to the server's calibration file; answers the file's path.

    The path is the server's ``--calibration`` file, else the one kept for its camera
    (``DB-calibration/camera-SRC.json``), where ``carom live --camera SRC`` finds it.
    ``table_size``: the balls' doubt about the table's size (null when none), also said
    in the server's log.
    """
    path, doubt, report = wizard.save()
    said = f"calibration saved by the wizard: {path}"
    if report.verdict is Outcome.DOUBTFUL:  # as carom calibrate says of the same marks
        said += (f" (doubtful: {report.advice}, confidence {report.confidence:.2f}; check "
                 f"that the lines in {overlay_path(path)} lie on the table's edges)")  # fmt: skip
    request.app.state.say(said)
    if doubt is not None:
        request.app.state.say(doubt.line("start carom serve with the right --table, or the "
                                         "match file's table, and calibrate again"))  # fmt: skip
    overlay = str(overlay_path(path))
    return {"saved": True, "path": str(path), "overlay": overlay, "table_size": size_doc(doubt)}

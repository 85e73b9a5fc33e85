"""Fit a camera (focal length, radial distortion, pose) to the table's edges.

Theory of operation. The cloth edge seen from above is where the cloth meets the
cushion: the bottom of the vertical cushion face (z = 0) on a side the camera is inside
of, the nose (z = ``nose_height_mm``) on a side the camera is beyond (the nose then
hides the face). Each side is a straight line in the table frame, so after removing the
lens distortion its edge points must lie on the pinhole image of that line. The
unknowns are one focal length (square pixels, principal point at the image centre),
k1 (and k2 if asked) and the pose (Rodrigues vector and translation, OpenCV frame of
:func:`calibration.to_cv_points`). They start from ``cv2.solvePnP`` on the four corners
for each of the four ways the image corners can match the table's (the table is
symmetric under a half turn: the one with the smaller yaw wins), two focal lengths and
two k1 (0 and -0.25: a wide lens's strong barrel with roll leads a k1 = 0 start astray);
then Levenberg-Marquardt (numpy, numeric Jacobian) minimises the distances in
pixels of all edge points to their side's projected line.

Height. Seen face-on, a flat rectangle cannot tell the focal length from the camera
height, and the height sets the parallax of ball centres. :func:`fit_camera` therefore
first adds the diamonds (:mod:`calibration._diamonds`): the cloth-edge camera predicts
where each of the 28 possible sights lies (nine on each long rail, five on each short
rail, ``rail_height_mm`` above the cloth), a bright compact blob is searched near each,
and the fit takes the found ones as points (reprojection error, weight 2) alongside the
edge lines, with two more unknowns: the diamonds' offset out from the nose line, and an
inset of the seen cloth edge inside the nose line (on a real table the edge of the
light cloth is not the nose). Three rounds of search (windows of 2%, 1%, 1% of the
image width), each dropping diamonds off by more than 2 px or three times the median.
With at least :data:`MIN_DIAMONDS` kept and a plausible result, that is the fit; if
the cloth-edge camera leads nowhere, the corners' solvePnP starts are tried.
Otherwise it falls back to the nose line: with the cloth-only camera it predicts
where the dark cushion face ends (the nose, ``nose_height_mm`` above the cloth edge) on
sides the camera is inside of, finds that edge (:func:`calibration._detect.nose_points`)
and refits with both lines; the face's width in pixels fixes the height. A refit that
leaves the plausible range (focal 0.15..5 image widths, ``|k1| <= 0.8``, height
0.5..10 m) is dropped for the cloth-only one.

A wide lens can bend the cloth edges more than k1 alone follows: when the k1 fit
leaves them over 0.5 px RMS, k2 joins the cloth fit and stays if it explains them
clearly better. Seen nearly face-on from far, the cloth edges alone may drift to an
absurd focal length and height: that start still goes to the diamonds, which settle
it (an error only if they do not). With the diamonds, a strongly bent lens (|k1|
over 0.1) is refitted with k2 and the tangential p1, p2, kept only if that explains
the diamonds clearly better. Edges that
no camera explains within 2 px RMS (a smeared key frame: edges on the rail) raise
:class:`CalibrationError` rather than give a wrong camera.

A fixed lens (``lens=``, from :mod:`calibration._checkerboard`) leaves only the pose
(and the diamonds' two unknowns) to fit. The parameter vector and the residuals live
in :mod:`calibration._fitmodel`; this module runs the search.
"""

from __future__ import annotations

import itertools
from dataclasses import replace

import cv2
import numpy as np
from numpy.typing import NDArray

from calibration._camera import CalibrationError
from calibration._detect import TableEdges, colour_distance, detect_table, nose_points
from calibration._diamonds import diamond_points, grey_image
from calibration._errors import check_range
from calibration._fitmodel import (
    AUTO_DIAMOND_WEIGHT,
    MIN_DIAMONDS,
    NOSE_HEIGHT_MM,
    RAIL_HEIGHT_MM,
    Fit,
    Lens,
    _camera,
    _diamond_candidates,
    _diamond_errors,
    _diamond_xyz,
    _image_right_deg,
    _levenberg_marquardt,
    _plausible,
    _Problem,
    _problems,
    _residuals,
    _start,
    _start_hfovs,
    _summary,
    _to_camera,
)
from calibration._geometry import TableGeometry

__all__ = ["MIN_DIAMONDS", "Fit", "fit_camera", "fit_edges"]

F64 = NDArray[np.float64]
#: Start k1 values: none, and the strong barrel of a wide lens.
_START_K1 = (0.0, -0.25)
#: Above this |k1| the diamond fit tries k2, p1 and p2 as well.
_K2_FROM_K1 = 0.1
#: The k2 refit must bring the diamonds' RMS under this share of the k1-only fit's.
_K2_GAIN = 0.75
#: Above this cloth-edge RMS with k1 alone, the cloth fit tries k2 as well.
_K2_FROM_EDGE_RMS_PX = 0.5
#: Above this edge RMS no fit is returned (good fits: 0.1..0.9 px).
_MAX_EDGE_RMS_PX = 2.0


def _starts(
    probs: list[_Problem], corners_px: F64, start_k1: tuple[float, ...] = _START_K1
) -> list[tuple[F64, int]]:
    """Promising starts (parameters, assignment index) from the corners alone.

    Assignments whose corners reproject badly (length and width swapped) are dropped;
    of two assignments a half turn apart, the one with head->foot nearer image-right
    stays.
    """
    scored = []
    k1s = start_k1 if probs[0].lens is None else (0.0,)
    for shift, prob in enumerate(probs):
        obj = np.c_[np.array([s[0] for s in prob.sides_mm]), np.zeros(4)]
        for hfov, k1 in itertools.product(_start_hfovs(prob), k1s):
            start = _start(prob, corners_px, hfov, k1)
            if start is None:
                continue
            k, rvec, tvec, dist = _camera(start, prob)
            uv, _ = cv2.projectPoints(obj, rvec, tvec, k, dist.coeffs())
            err = float(np.abs(uv.reshape(4, 2) - corners_px).max())
            scored.append((err, _image_right_deg(start, prob), (shift % 2, hfov, k1), start, shift))
    if not scored:
        return []
    # The lowest corner error per start lens: a wide lens with strong barrel distortion
    # fits four corners worse than a narrow one without, yet is the right start.
    lowest: dict[tuple[float, float], float] = {}
    for err, _, slot, _, _ in scored:
        lowest[slot[1:]] = min(err, lowest.get(slot[1:], np.inf))
    kept: dict[tuple[int, float, float], tuple[float, F64, int]] = {}
    for err, right, slot, start, shift in scored:  # slot: (pair a half turn apart, lens)
        if err > 2.0 * lowest[slot[1:]] + 3.0:
            continue
        if slot not in kept or right < kept[slot][0]:
            kept[slot] = (right, start, shift)
    return [(start, shift) for _, start, shift in kept.values()]


def _fit_cloth(
    edges: TableEdges,
    length_mm: float,
    width_mm: float,
    nose_mm: float,
    n_dist: int,
    lens: Lens | None = None,
    *,
    plausible_only: bool = True,
    start_k1: tuple[float, ...] = _START_K1,
) -> tuple[F64, _Problem]:
    """Best parameters over corner assignments and start focals, cloth edges only.

    With ``plausible_only=False`` an implausible best is returned rather than raise:
    seen nearly face-on from far, the cloth edges cannot tell the focal length from
    the height and may drift to an absurd pair, which the diamonds then settle.
    """
    thin = _problems(edges.thinned(40), length_mm, width_mm, nose_mm, n_dist, lens)
    best: tuple[float, float, F64, int] | None = None
    drifted: tuple[float, float, F64, int] | None = None
    for params, shift in _starts(thin, edges.corners_px, start_k1):
        prob = thin[shift]
        params = _levenberg_marquardt(params, prob, iterations=15)
        res = _residuals(params, prob)
        key = (round(float(np.sqrt(np.mean(res * res))), 1), _image_right_deg(params, prob))
        if not _plausible(params, prob):
            if drifted is None or key < (drifted[0], drifted[1]):
                drifted = (key[0], key[1], params, shift)
            continue
        if best is None or key < (best[0], best[1]):
            best = (key[0], key[1], params, shift)
    best = best or (None if plausible_only else drifted)
    if best is None:
        raise CalibrationError("no camera fits the table's edges; mark the corners by hand")
    if best[0] > 1.5 * _MAX_EDGE_RMS_PX:  # the full refit would not rescue it: save its time
        raise _no_fit(best[0])
    full = _problems(edges.thinned(120), length_mm, width_mm, nose_mm, n_dist, lens)[best[3]]
    refined = _levenberg_marquardt(best[2], full)
    if _plausible(best[2], full) and not _plausible(refined, full):
        # More points, more iterations: down the valley where the focal length, the
        # height and the lens trade off to a clipped lens. The diamonds settle it.
        return best[2], full
    return refined, full


def fit_edges(
    edges: TableEdges,
    *,
    length_mm: float = 2840.0,
    width_mm: float = 1420.0,
    nose_height_mm: float = NOSE_HEIGHT_MM,
    fit_k2: bool = False,
    lens: Lens | None = None,
) -> Fit:
    """Fit a camera to detected cloth edges alone (no nose line: see :func:`fit_camera`).

    Args:
        edges: Edge points and corner estimates in pixels (:func:`detect_table`).
        length_mm: Playing-surface length (head to foot cushion nose), mm.
        width_mm: Playing-surface width, mm.
        nose_height_mm: Cushion nose height above the cloth, mm.
        fit_k2: Fit k2 as well as k1.
        lens: Fixed intrinsics and distortion (:func:`fit_lens_from_checkerboards`):
            only the pose is fitted (``fit_k2`` is then ignored).

    Returns:
        The best camera over the four corner assignments and several start focals.

    Raises:
        CalibrationError: No start converged to a plausible camera.
    """
    n_dist = 2 if fit_k2 else 1
    return _summary(*_fit_cloth(edges, length_mm, width_mm, nose_height_mm, n_dist, lens))


def _diamond_fit(
    params: F64, prob: _Problem, grey: NDArray[np.float32], rail_mm: float, offset_mm: float
) -> tuple[F64, _Problem] | None:
    """Refit with the diamonds found near their predicted pixels; None if too few.

    Three rounds of predict, search (a window of 2% of the image width, then 1%),
    fit, drop the diamonds off by more than 2 px or three times the median, refit.
    The parameters gain two: the diamonds' offset out from the nose line (from
    ``offset_mm``) and the inset of the seen cloth edge inside the nose line (from 0).
    """
    w = prob.size_px[0]
    corners = np.array([s[0] for s in prob.sides_mm])
    base, out = _diamond_candidates(float(np.ptp(corners[:, 0])), float(np.ptp(corners[:, 1])),
                                    rail_mm)  # fmt: skip
    params = np.append(params, [offset_mm, 0.0])
    prob = replace(prob, diamond_weight=AUTO_DIAMOND_WEIGHT)
    for window in (0.02 * w, 0.01 * w, 0.01 * w):
        try:
            pred = _to_camera(params, prob).project(
                base + np.c_[out * params[-2], np.zeros(len(out))]
            )
        except CalibrationError:
            return None
        idx, uv = diamond_points(grey, pred, window, 0.01 * w)
        if len(idx) < MIN_DIAMONDS:
            return None
        trial = replace(prob, diamonds_mm=base[idx], diamonds_out=out[idx], diamonds_px=uv)
        fitted = _levenberg_marquardt(params, trial, iterations=30)
        k, rvec, tvec, dist = _camera(fitted, trial)
        rot = np.asarray(cv2.Rodrigues(rvec)[0], dtype=np.float64)
        xyz = _diamond_xyz(trial, float(fitted[-2]))
        err = np.hypot(*_diamond_errors(xyz, uv, k, rot, tvec, dist).T)
        keep = np.nan_to_num(err, nan=1e3) < max(2.0, 3.0 * float(np.nanmedian(err)))
        if keep.sum() < MIN_DIAMONDS:
            return None
        kept = idx[keep]
        trial = replace(trial, diamonds_mm=base[kept], diamonds_out=out[kept], diamonds_px=uv[keep])
        params, prob = _levenberg_marquardt(fitted, trial), trial
    return params, prob


def _with_k2(params: F64, prob: _Problem) -> tuple[F64, _Problem]:
    """Add k2, p1 and p2 to a k1-only fit with the diamonds if the lens needs them.

    A wide lens's barrel is seldom a pure k1 and its centre seldom exact: with |k1|
    over :data:`_K2_FROM_K1`, k2 and the tangential p1, p2 join (from 0) once the
    diamonds ring the picture and hold them. The refit stays only if it explains the
    diamonds clearly better (RMS under :data:`_K2_GAIN` of before: 0.27..0.55 on the
    hard sample clip, 0.86..0.93 on rendered pure-k1 lenses, where the freedom only
    costs accuracy) and stays plausible.
    """
    if prob.lens is not None or prob.n_dist != 1 or abs(float(params[1])) < _K2_FROM_K1:
        return params, prob
    wide = replace(prob, n_dist=4)
    refit = _levenberg_marquardt(np.insert(params, 2, [0.0, 0.0, 0.0]), wide)
    n = 2 * len(prob.diamonds_px)
    before, after = (float(np.sqrt(np.mean(_residuals(p, q)[-n:] ** 2)))
                     for p, q in ((params, prob), (refit, wide)))  # fmt: skip
    if after > _K2_GAIN * before or not _plausible(refit, wide) or abs(float(refit[2])) > 0.5:
        return params, prob
    return refit, wide


def _cloth_camera(
    edges: TableEdges,
    length_mm: float,
    width_mm: float,
    nose_mm: float,
    n_dist: int,
    lens: Lens | None,
) -> tuple[F64, _Problem, float]:
    """The cloth-edge fit (parameters, problem, edge RMS px), with k2 if the edges ask.

    A wide lens bends the sides by more than k1 alone can follow (a mount 2 m over the
    table, k1 -0.43 and k2 0.09: 1.6 px RMS with k1, 0.12 px with k2): when the k1 fit
    leaves more than :data:`_K2_FROM_EDGE_RMS_PX`, k2 joins, kept if that explains the
    edges clearly better (RMS under :data:`_K2_GAIN` of before).
    """
    may_add_k2 = lens is None and n_dist == 1
    try:
        params, prob = _fit_cloth(edges, length_mm, width_mm, nose_mm, n_dist, lens,
                                  plausible_only=False)  # fmt: skip
    except CalibrationError:
        if not may_add_k2:
            raise
        params, prob = _fit_cloth(edges, length_mm, width_mm, nose_mm, 2, lens,
                                  plausible_only=False, start_k1=_START_K1[1:])  # fmt: skip
        return params, prob, float(np.sqrt(np.mean(_residuals(params, prob) ** 2)))
    rms = float(np.sqrt(np.mean(_residuals(params, prob) ** 2)))
    if not may_add_k2 or rms <= _K2_FROM_EDGE_RMS_PX:
        return params, prob, rms
    # k2 from the k1 fit (0.1..0.2 px on wide lenses that k1 leaves at 1..3 px), else
    # from the corners' starts with a strong barrel.
    wide_prob = replace(prob, n_dist=2)
    wide = (_levenberg_marquardt(np.insert(params, 2, 0.0), wide_prob), wide_prob)
    wide_rms = float(np.sqrt(np.mean(_residuals(*wide) ** 2)))
    if not (wide_rms < _K2_GAIN * rms and _plausible(*wide)):
        try:
            wide = _fit_cloth(edges, length_mm, width_mm, nose_mm, 2, lens,
                              plausible_only=False, start_k1=_START_K1[1:])  # fmt: skip
        except CalibrationError:
            return params, prob, rms
        wide_rms = float(np.sqrt(np.mean(_residuals(*wide) ** 2)))
    if wide_rms < _K2_GAIN * rms and _plausible(*wide):
        return wide[0], wide[1], wide_rms
    return params, prob, rms


def fit_camera(
    image_bgr: NDArray[np.uint8],
    *,
    length_mm: float = 2840.0,
    width_mm: float = 1420.0,
    nose_height_mm: float = NOSE_HEIGHT_MM,
    rail_height_mm: float = RAIL_HEIGHT_MM,
    fit_k2: bool = False,
    edges: TableEdges | None = None,
    lens: Lens | None = None,
) -> Fit:
    """Detect the table in a BGR frame (h, w, 3) and fit the camera to it.

    ``edges`` skips the detection when the caller already ran :func:`detect_table`.
    ``lens`` (intrinsics, distortion), e.g. from :func:`fit_lens_from_checkerboards`,
    fixes the lens: only the pose (and the diamonds' offset and edge inset) is fitted.

    First the cloth edges (:func:`detect_table`, :func:`fit_edges`); then the diamonds
    on the rails (``rail_height_mm`` above the cloth), found where that camera predicts
    them, join the fit and fix the camera height that the flat cloth edges alone cannot
    tell. With fewer than :data:`MIN_DIAMONDS` found, the nose lines do instead: the
    nose is ``nose_height_mm`` above the cloth edge (true of rendered tables, not of
    real ones, whose dark cushion band is mostly shadow).

    Raises:
        CalibrationError: No table in the picture, or no plausible camera.
    """
    check_range("length_mm", length_mm, 500.0, 5000.0)  # as referee.Table
    check_range("width_mm", width_mm, 250.0, length_mm)
    edges = edges or detect_table(image_bgr)
    n_dist = 2 if fit_k2 else 1
    params, prob, cloth_rms = _cloth_camera(edges, length_mm, width_mm, nose_height_mm,
                                            n_dist, lens)  # fmt: skip
    if cloth_rms > _MAX_EDGE_RMS_PX:  # edges no camera explains: stop here
        raise _no_fit(cloth_rms)
    offset = TableGeometry().diamond_offset_mm  # a start: the fit finds the table's
    grey = grey_image(image_bgr)
    # From the cloth fit; if that leads nowhere plausible (a lens the edges alone
    # bent too far), from the corners' solvePnP starts without distortion.
    starts = [params] + [_start(prob, edges.corners_px, hfov, 0.0) for hfov in _start_hfovs(prob)]
    for start in starts:
        if start is None:
            continue
        with_diamonds = _diamond_fit(start, prob, grey, rail_height_mm, offset)
        if with_diamonds is not None and _plausible(*with_diamonds):
            return _checked(_summary(*_with_k2(*with_diamonds)), True)
    if not _plausible(params, prob):  # the edges alone drifted and no diamonds settled it
        raise _no_fit(cloth_rms)
    dist = colour_distance(image_bgr, edges.cloth_bgr, sigma_px=0.7)
    cloth_only = (params, prob)
    for _ in range(3):
        cam = _to_camera(params, prob)
        nose = nose_points(dist, cam, prob.sides_mm, prob.points_px, prob.centre_mm, prob.nose_mm)
        if sum(len(n) for n in nose) < 20:
            break
        prob = replace(prob, nose_px=nose)
        params = _levenberg_marquardt(params, prob)
    if not _plausible(params, prob):  # the nose points misled the fit: drop them
        params, prob = cloth_only
    return _checked(_summary(params, prob), _plausible(params, prob))


def _checked(fit: Fit, plausible: bool) -> Fit:
    """The fit, or a clear error when the edges do not agree with any camera.

    A smeared key frame can give edges on the cushion's outer side or the rail, which a
    camera explains only at several pixels RMS (good fits: under 1 px) or not at all.
    """
    if not plausible or fit.rms_px > _MAX_EDGE_RMS_PX:
        raise _no_fit(fit.rms_px)
    return fit


def _no_fit(rms_px: float) -> CalibrationError:
    return CalibrationError(
        f"no camera fits the table's edges (edge RMS {rms_px:.1f} px); try another frame "
        "or mark the corners by hand"
    )

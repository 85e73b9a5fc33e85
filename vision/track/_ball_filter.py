"""The motion model of one ball (a Kalman filter with a rest mode), and collisions.

The pixel -> table map the tracker feeds it from is calibration's
(:class:`calibration.PxToMm`). Everything here works on plain floats: with three
balls numpy's per-call overhead would cost more than the arithmetic.

:func:`collision` gives the outcome of two equal balls meeting within a frame.

:class:`BallFilter` is a constant-velocity Kalman filter in table mm with rolling
deceleration and cushion bounces in the prediction, and a rest mode: a ball whose recent
measurements stay within a few mm, close to their fitted line (a window turning at a
cushion is not still), is at rest, its position is then the running mean of the
measurements since it stopped (from the newer half of that window; sub-mm; restarted
where the line through the latest measurements ends when a last slow creep shows, and
released into motion when that line is faster than a creep), and it never moves
without a measurement. It leaves rest on two measurements in a row off the rest mean,
or as soon as three walk steadily away from it (a gentle start stays inside the exit
gate for several frames); the rest test then starts afresh, and
:attr:`BallFilter.released` tells the tracker which measurements were motion.
"""

from __future__ import annotations

import itertools
import math
from collections import deque

__all__ = ["STREAK_SIGMA", "XY", "BallFilter", "Cov2", "collision"]

ROLL_DECEL_MM_S2 = 0.05 * 9806.65  # rolling resistance on cloth, ~0.05 g
SIGMA_ACCEL_MOVING = 4000.0  # mm/s^2: spin, swerve and model error of a rolling ball
SIGMA_ACCEL_REST = 300.0  # mm/s^2: lets a slow start show up in the gate
REST_SPEED_MM_S = 5.0  # a still window: fitted speed below this ...
REST_SPREAD_MM = 3.0  # ... and every measurement within this of their mean
REST_EXIT_MM = 4.0  # a measurement this far (plus noise) from the rest mean starts motion
REST_SHIFT_MM = 0.7  # the latest still window this far from the rest mean: re-anchor
REST_SCATTER_MM = 0.2  # least scatter assumed of measurements about a creep's line
REST_BEND_MM = 1.5  # a still window's measurements within this RMS of their line
CREEP_MAX_MM_S = 20.0  # a ball "at rest" found going faster than this rolls: release it
DRIFT_SAMPLES = 3  # this many measurements walking steadily away from rest: it moves ...
DRIFT_MM = 3.0  # ... once the last is this far (plus noise) from the rest mean
STREAK_SIGMA = 0.3  # centre uncertainty along a blur streak, fraction of its half-length


XY = tuple[float, float]
Cov2 = tuple[float, float, float]  # symmetric 2x2: (xx, xy, yy)


class BallFilter:
    """Position and velocity of one ball in table mm (see the module docstring).

    Args:
        xy_mm: First measured centre.
        t_s: Its time.
        bounds_mm: (x_min, y_min, x_max, y_max) where a ball centre can be: the cushion
            noses moved in by one radius.
        window: Measurements in the still window of the rest test (about 0.2 s).
        v_mm_s: Initial velocity (zero: none).
    """

    def __init__(
        self,
        xy_mm: XY,
        t_s: float,
        bounds_mm: tuple[float, float, float, float],
        window: int,
        v_mm_s: XY = (0.0, 0.0),
    ) -> None:
        self.state = [float(xy_mm[0]), float(xy_mm[1]), float(v_mm_s[0]), float(v_mm_s[1])]
        self.cov = _diag(4.0, 300.0**2)
        self.t_s = t_s
        self.bounds = bounds_mm
        self.recent: deque[tuple[float, float, float]] = deque(maxlen=window)
        self.rest_sum = [0.0, 0.0]
        self.rest_n = 0
        self.exit_count = 0
        self.released = 0  # measurements just found to be motion, not rest (newest last)

    @property
    def at_rest(self) -> bool:
        """True while the ball is at rest (its position is the rest mean)."""
        return self.rest_n > 0

    @property
    def xy_mm(self) -> XY:
        """Best centre: the rest mean at rest, else the filter's position."""
        if self.rest_n:
            return self.rest_sum[0] / self.rest_n, self.rest_sum[1] / self.rest_n
        return self.state[0], self.state[1]

    @property
    def speed_mm_s(self) -> float:
        """Speed in mm/s (0 at rest)."""
        return 0.0 if self.rest_n else math.hypot(self.state[2], self.state[3])

    def predict(self, t_s: float) -> None:
        """Move the state to ``t_s``: roll, slow down, bounce off the cushions."""
        dt = t_s - self.t_s
        self.t_s = t_s
        if dt <= 0.0:
            return
        s, p = self.state, self.cov
        if self.rest_n:  # at rest nothing moves the ball, whatever the filter believes
            s[0], s[1] = self.xy_mm
            s[2] = s[3] = 0.0
        speed = math.hypot(s[2], s[3])
        slow = min(1.0, ROLL_DECEL_MM_S2 * dt / speed) if speed > 0 else 0.0
        # Distance under constant deceleration; the speed after it.
        s[0] += s[2] * dt * (1.0 - slow / 2)
        s[1] += s[3] * dt * (1.0 - slow / 2)
        s[2] *= 1.0 - slow
        s[3] *= 1.0 - slow
        for r in (0, 1):  # F P F^T with F = [[I, dt I], [0, I]]
            p[r] = [p[r][c] + dt * p[r + 2][c] for c in range(4)]
        for row in p:
            row[0] += dt * row[2]
            row[1] += dt * row[3]
        q = (SIGMA_ACCEL_REST if self.rest_n else SIGMA_ACCEL_MOVING) ** 2
        a, b = q * dt**3 / 3, q * dt**2 / 2
        for i in (0, 1):
            p[i][i] += a
            p[i][i + 2] += b
            p[i + 2][i] += b
            p[i + 2][i + 2] += q * dt
        self._bounce()

    def _bounce(self) -> None:
        # Reflect position and velocity at the line a ball centre cannot cross.
        s, (x0, y0, x1, y1) = self.state, self.bounds
        for axis, lo, hi in ((0, x0, x1), (1, y0, y1)):
            if s[axis] < lo:
                s[axis], s[axis + 2] = 2 * lo - s[axis], abs(s[axis + 2])
            elif s[axis] > hi:
                s[axis], s[axis + 2] = 2 * hi - s[axis], -abs(s[axis + 2])

    def gate(self, xy_mm: XY, noise_mm2: Cov2) -> float:
        """Squared Mahalanobis distance of a measurement with noise ``(xx, xy, yy)`` mm^2."""
        if self.rest_n:  # the rest mean is known better than the filter's position
            extra = 1.0 / self.rest_n + 1.0
            a, b, d = noise_mm2[0] + extra, noise_mm2[1], noise_mm2[2] + extra
        else:
            p = self.cov
            a, b, d = p[0][0] + noise_mm2[0], p[0][1] + noise_mm2[1], p[1][1] + noise_mm2[2]
        mx, my = self.xy_mm
        y0, y1 = xy_mm[0] - mx, xy_mm[1] - my
        return (d * y0 * y0 - 2 * b * y0 * y1 + a * y1 * y1) / (a * d - b * b)

    def update(self, xy_mm: XY, noise_mm2: Cov2, t_s: float, blur_mm: float = 0.0) -> bool:
        """Fold in a measurement with noise ``(xx, xy, yy)`` mm^2 taken at ``t_s``.

        ``blur_mm`` is the half-length of its blur streak (its part of the noise is
        ``(STREAK_SIGMA * blur_mm)^2``). Returns False when a ball at rest holds it for an
        outlier (a first step away from the rest mean: the next measurement decides
        whether the ball moved).
        """
        p, s = self.cov, self.state
        a, b, d = p[0][0] + noise_mm2[0], p[0][1] + noise_mm2[1], p[1][1] + noise_mm2[2]
        det = a * d - b * b
        i00, i01, i11 = d / det, -b / det, a / det
        gain = [(r[0] * i00 + r[1] * i01, r[0] * i01 + r[1] * i11) for r in p]
        y0, y1 = xy_mm[0] - s[0], xy_mm[1] - s[1]
        p0, p1 = p[0][:], p[1][:]
        for r, (k0, k1) in enumerate(gain):
            s[r] += k0 * y0 + k1 * y1
            p[r] = [p[r][c] - k0 * p0[c] - k1 * p1[c] for c in range(4)]
        for r, c in ((0, 1), (0, 2), (0, 3), (1, 2), (1, 3), (2, 3)):  # rounding: stay symmetric
            p[r][c] = p[c][r] = (p[r][c] + p[c][r]) / 2
        self.recent.append((t_s, float(xy_mm[0]), float(xy_mm[1])))
        self.released = 0
        # The rest tests use the noise of a sharp detection: a streak widens the noise
        # along it, but a ball at rest is never blurred, and a ball struck from rest
        # (blurred at once) must not have its first steps averaged into the rest.
        sharp = noise_mm2[0] + noise_mm2[2] - (STREAK_SIGMA * blur_mm) ** 2
        return self._rest_logic(float(xy_mm[0]), float(xy_mm[1]), math.sqrt(max(sharp, 1e-6)))

    def _rest_logic(self, x: float, y: float, sigma_mm: float) -> bool:
        if self.rest_n:
            mx, my = self.xy_mm
            if self._drifting(sigma_mm):
                self._release(DRIFT_SAMPLES)
                return True
            if math.hypot(x - mx, y - my) <= REST_EXIT_MM + 3.0 * sigma_mm:
                self.exit_count = 0
                self.rest_sum[0] += x
                self.rest_sum[1] += y
                self.rest_n += 1
                self._reanchor(sigma_mm)
                return True
            self.exit_count += 1  # two in a row: the ball moves (one alone is an outlier)
            if self.exit_count < 2:
                return False
            self._release(2)
            return True
        if len(self.recent) == self.recent.maxlen and _still(self.recent, sigma_mm / math.sqrt(2)):
            # The mean of the window's newer half: its older half may hold the last
            # millimetres of a ball coming to rest.
            newer = list(self.recent)[len(self.recent) // 2 :]
            sx, sy = sum(r[1] for r in newer), sum(r[2] for r in newer)
            self.rest_sum, self.rest_n = [sx, sy], len(newer)
        return True

    def _drifting(self, sigma_mm: float) -> bool:
        """The latest measurements walk steadily away from the rest mean: a slow start.

        A gentle hit moves a ball a few mm a frame, inside the exit gate for several
        frames; holding the mean that long would hide the motion (and the contact).
        Each of the last ``DRIFT_SAMPLES`` is farther out than the one before, along
        one direction, and the last is clearly off the mean.
        """
        k = DRIFT_SAMPLES
        if len(self.recent) < k or self.rest_n < k:
            return False
        mx, my = self.xy_mm
        pts = list(self.recent)[-k:]
        d = [math.hypot(x - mx, y - my) for _, x, y in pts]
        if d[-1] < DRIFT_MM + 2.0 * sigma_mm or any(b <= a for a, b in itertools.pairwise(d)):
            return False
        (_, x0, y0), (_, x1, y1) = pts[0], pts[-1]
        ux, uy = (x1 - mx) / d[-1], (y1 - my) / d[-1]  # outward direction
        steps = [(b[1] - a[1]) * ux + (b[2] - a[2]) * uy for a, b in itertools.pairwise(pts)]
        return min(steps) > 0.0 and math.hypot(x1 - x0, y1 - y0) > DRIFT_MM

    def _release(self, k: int) -> None:
        """Leave rest: the last ``k`` measurements were motion; start from their line."""
        pts = list(self.recent)[-k:]
        (t0, x0, y0), (t1, x1, y1) = pts[0], pts[-1]
        v = ((x1 - x0) / (t1 - t0), (y1 - y0) / (t1 - t0)) if t1 > t0 else self.state[2:]
        self.start_moving((x1, y1))
        self.recent.extend(pts)
        self.state[2], self.state[3] = v
        self.released = k

    def _reanchor(self, sigma_mm: float) -> None:
        # A stopping ball creeps its last millimetres slower than the rest test can see:
        # when the line through the latest window ends off the rest mean, restart from
        # where it ends (the window's mean would lag a creep by half a window), and look
        # again half a window later. The end of a least-squares line has a noise of
        # 2 s / sqrt(n), with s the points' own scatter about it (the gate's ``sigma_mm``
        # is a bound for any detection, several times a sharp ball's scatter).
        n = len(self.recent)
        if self.rest_n < n + n // 2 or self.rest_n % (n // 2 or 1):
            return
        (ex, ey), (vx, vy), scatter = _line_fit(self.recent)
        noise = min(sigma_mm, max(scatter, REST_SCATTER_MM))
        mx, my = self.xy_mm
        if math.hypot(ex - mx, ey - my) <= REST_SHIFT_MM + 6.0 * noise / math.sqrt(n):
            return
        if math.hypot(vx, vy) > CREEP_MAX_MM_S:  # no creep: the ball rolls
            self._release(n)
            return
        self.rest_sum, self.rest_n = [ex * n, ey * n], n

    def start_moving(self, xy_mm: XY | None = None) -> None:
        """Leave rest mode (at ``xy_mm`` if given); the filter re-learns the velocity."""
        s = self.state
        if xy_mm is not None:
            s[0], s[1] = xy_mm
        elif self.rest_n and self.recent:
            s[0], s[1] = self.recent[-1][1:]
        self._leave_rest()
        self.cov = _diag(max(self.cov[0][0], 4.0), 1000.0**2)

    def _leave_rest(self) -> None:
        # The rest test starts afresh: a window still full of the rest would call the
        # ball at rest again at once, and hold it there while it moves off.
        self.rest_n, self.exit_count = 0, 0
        self.rest_sum = [0.0, 0.0]
        self.recent.clear()

    def set_motion(self, xy_mm: XY, v_mm_s: XY, sigma_mm: float, sigma_mm_s: float) -> None:
        """Replace the state (a collision's outcome): moving, with the given spreads.

        Bounced off the cushions as a prediction is (tuning pt0029: the yellow struck
        35 mm from a cushion at 30 fps was predicted 36 mm beyond it, and the sight of
        it back off the cushion left out).
        """
        self._leave_rest()
        self.state = [xy_mm[0], xy_mm[1], v_mm_s[0], v_mm_s[1]]
        self.cov = _diag(sigma_mm**2, sigma_mm_s**2)
        self._bounce()


def _diag(pos: float, vel: float) -> list[list[float]]:
    return [[pos, 0, 0, 0], [0, pos, 0, 0], [0, 0, vel, 0], [0, 0, 0, vel]]


def _line_fit(pts: deque[tuple[float, float, float]]) -> tuple[XY, XY, float]:
    """A least-squares line through ``(t_s, x_mm, y_mm)`` points.

    Returns where it is at the last time (x_mm, y_mm), its velocity (mm/s) and the RMS
    distance (mm) of the points from it.
    """
    n = len(pts)
    tm = sum(p[0] for p in pts) / n
    xm, ym = sum(p[1] for p in pts) / n, sum(p[2] for p in pts) / n
    stt = sum((p[0] - tm) ** 2 for p in pts)
    vx = sum((p[0] - tm) * (p[1] - xm) for p in pts) / stt if stt > 0.0 else 0.0
    vy = sum((p[0] - tm) * (p[2] - ym) for p in pts) / stt if stt > 0.0 else 0.0
    sq = sum((p[1] - xm - vx * (p[0] - tm)) ** 2 + (p[2] - ym - vy * (p[0] - tm)) ** 2 for p in pts)
    dt = pts[-1][0] - tm
    return (xm + vx * dt, ym + vy * dt), (vx, vy), math.sqrt(sq / n)


def _still(recent: deque[tuple[float, float, float]], sigma_mm: float) -> bool:
    """A window of (t, x, y) is still: small spread and a small fitted speed.

    Both limits grow with the detector noise ``sigma_mm`` (per axis). Not with the
    scatter seen in the window: a ball coming back off a cushion scatters widely about
    a small mean speed. Such a window bends (in to the cushion and out again, a few mm
    each way, at a crawl): its measurements lie far from their fitted line, while a
    ball coming to rest leaves them within a fraction of a mm of it.
    """
    n = len(recent)
    mt = sum(r[0] for r in recent) / n
    mx = sum(r[1] for r in recent) / n
    my = sum(r[2] for r in recent) / n
    if (
        max((x - mx) ** 2 + (y - my) ** 2 for _, x, y in recent)
        > (REST_SPREAD_MM + 3.0 * sigma_mm) ** 2
    ):
        return False
    stt = sum((t - mt) ** 2 for t, _, _ in recent)
    vx = sum((t - mt) * (x - mx) for t, x, _ in recent) / stt
    vy = sum((t - mt) * (y - my) for t, _, y in recent) / stt
    if math.hypot(vx, vy) >= REST_SPEED_MM_S + 2.0 * sigma_mm / math.sqrt(stt):
        return False
    bend = sum((x - mx - vx * (t - mt)) ** 2 + (y - my - vy * (t - mt)) ** 2 for t, x, y in recent)
    return bend <= n * REST_BEND_MM**2


def collision(
    a: XY, va: XY, b: XY, vb: XY, two_r: float, dt: float
) -> tuple[tuple[XY, XY], tuple[XY, XY], float] | None:
    """First touch of two balls moving straight within ``dt``, or None.

    Returns both balls' (position, velocity) just after an elastic collision of equal
    balls at the touch, and the time left in the frame after it.
    """
    rx, ry = a[0] - b[0], a[1] - b[1]
    wx, wy = va[0] - vb[0], va[1] - vb[1]
    ww, rw = wx * wx + wy * wy, rx * wx + ry * wy
    disc = rw * rw - ww * (rx * rx + ry * ry - two_r * two_r)
    if ww <= 0.0 or rw >= 0.0 or disc < 0.0:
        return None  # not closing in, or passing wide
    tc = max(0.0, (-rw - math.sqrt(disc)) / ww)
    if tc > dt:
        return None
    pa = (a[0] + va[0] * tc, a[1] + va[1] * tc)
    pb = (b[0] + vb[0] * tc, b[1] + vb[1] * tc)
    d = math.dist(pa, pb) or 1.0
    nx, ny = (pb[0] - pa[0]) / d, (pb[1] - pa[1]) / d
    push = wx * nx + wy * ny  # closing speed along the line of centres
    va2 = (va[0] - push * nx, va[1] - push * ny)
    vb2 = (vb[0] + push * nx, vb[1] + push * ny)
    return (pa, va2), (pb, vb2), dt - tc

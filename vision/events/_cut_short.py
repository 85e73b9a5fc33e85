"""Ball contacts whose sampled gap shows no valley: an approach cut short within a frame.

The pair-wise finder (:mod:`vision.events._ball_contacts`) looks for valleys of the
sampled gap between two balls. A full hit on a ball that, in the same frame, strikes a
third ball close by (or a cue ball that stops dead on a ball resting a few mm from
another) gives none: the striker stops short a few mm from where it struck, the struck
ball goes a few mm and stalls, and the gap goes on shrinking slowly towards a second,
later touch. The contact lies at a kink, not at a valley: the balls' paths of the
samples before, carried on to the next sample, would have run into each other, and
that sample shows them still apart (tuning pt0167: the white at 3 m/s into the
resting yellow, which meets the red 5 ms later; the gap sampled 18, 15, 13, 12, 8,
5, 1 mm as the white follows on into a second touch).

Those samples are candidates here; the finder tests each as it tests a valley (an
impulse along the line of centres, the fitted paths meeting).
"""

from __future__ import annotations

import numpy as np
from numpy.typing import NDArray

__all__ = ["cut_short"]

F64 = NDArray[np.float64]

#: The paths carried on must overlap by at least this share of the radius at the sample.
_OVERLAP_SHARE = 0.5


def cut_short(
    xy_a: F64, xy_b: F64, t_s: F64, radius_mm: float, touch_mm: float, valleys: list[list[int]]
) -> list[int]:
    """Sample indices where two balls' approach was cut short (module docstring).

    ``xy_a``, ``xy_b`` (n, 2) mm: the balls' centres at times ``t_s`` (n,); ``valleys``:
    the sampled gap's valleys (their minima's indices), whose samples are left out, and
    so is the sample after a valley. A sample ``i`` is a candidate when the gap at
    ``i - 1`` and ``i`` is above ``touch_mm``, and both balls carried on from ``i - 2``
    and ``i - 1`` at their speed then would have overlapped at ``i`` by half a radius.
    """
    n = len(t_s)
    if n < 3:
        return []
    taken = np.zeros(n, dtype=bool)
    for group in valleys:
        taken[max(group[0] - 1, 0) : group[-1] + 2] = True
    gap = np.linalg.norm(xy_a - xy_b, axis=1) - 2.0 * radius_mm
    step = (t_s[2:] - t_s[1:-1]) / np.maximum(t_s[1:-1] - t_s[:-2], 1e-9)
    ahead_a = xy_a[1:-1] + (xy_a[1:-1] - xy_a[:-2]) * step[:, None]
    ahead_b = xy_b[1:-1] + (xy_b[1:-1] - xy_b[:-2]) * step[:, None]
    ahead = np.linalg.norm(ahead_a - ahead_b, axis=1) - 2.0 * radius_mm  # (n - 2,) at 2..n-1
    hit = (ahead < -_OVERLAP_SHARE * radius_mm) & (gap[1:-1] > touch_mm) & (gap[2:] > touch_mm)
    return [int(i) + 2 for i in np.nonzero(hit)[0] if not taken[int(i) + 2]]

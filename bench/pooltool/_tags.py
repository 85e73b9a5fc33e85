"""The hard situations a shot contains, found on its exact motion (our frame, mm).

Each situation is ``{"tag", "t_s", ...details}``; a shot's tags are the distinct
names. The rules (:data:`RULES`, written into the data file):

* ``cushions_close``: two different balls touch cushions within 5 ms of each other.
* ``along_cushion``: a ball moving faster than 30 mm/s keeps its surface within
  10 mm of one cushion's nose over at least 150 mm of path (a run along it, or a
  grazing arrival under about 8 degrees).
* ``near_miss``: two balls pass with their surfaces 0-20 mm apart at closest approach
  (a local minimum of the distance, one of them faster than 20 mm/s), no contact.
* ``thin_kiss``: a ball-ball contact whose relative velocity is nearly tangent: the
  normal share ``|v_rel . n| / |v_rel|`` under 0.25 (cut over 75 degrees; the faster
  ball turns by less than about 15 degrees).
* ``cluster``: three or more contacts (ball or cushion) within 50 ms.
* ``kiss_by_cushion``: after a ball-ball contact, both balls come within 30 mm of a
  cushion (surface to nose) within 100 ms.
* ``order_close``: the cue ball's third cushion and its first contact with the second
  object ball lie within 20 ms of each other (the three-cushion call hangs on it).

Imports only numpy and the standard library.
"""

from __future__ import annotations

from typing import Any

import numpy as np

RULES = {
    "cushions_close": "two different balls touch cushions within 5 ms",
    "along_cushion": "a ball faster than 30 mm/s within 10 mm of a cushion over >= 150 mm",
    "near_miss": "two balls pass 0-20 mm apart (surfaces), no contact, one faster than 20 mm/s",
    "thin_kiss": "ball-ball contact with normal share of relative velocity under 0.25",
    "cluster": ">= 3 contacts (ball or cushion) within 50 ms",
    "kiss_by_cushion": "after a ball-ball contact both balls within 30 mm of a cushion in 100 ms",
    "order_close": "cue ball's third cushion and second object ball within 20 ms",
}
HARD = tuple(RULES)
_DT = 0.0005  # sampling step (s) for the sampled rules


class Motion:
    """Sampled positions of every ball every 0.5 ms, from contiguous segments."""

    def __init__(self, segments: dict[str, list[list[float]]]) -> None:
        end = max(s[-1][1] for s in segments.values())
        self.t = np.arange(0.0, end + _DT, _DT)
        self.xy = {name: self._sample(np.asarray(s)) for name, s in segments.items()}
        self.v = {n: np.gradient(xy, self.t, axis=0) for n, xy in self.xy.items()}

    def _sample(self, s: np.ndarray) -> np.ndarray:
        t = np.clip(self.t, s[0, 0], s[-1, 1])
        i = np.clip(np.searchsorted(s[:, 0], t, side="right") - 1, 0, len(s) - 1)
        tau = (t - s[i, 0])[:, None]
        return s[i, 2:4] + s[i, 4:6] * tau + 0.5 * s[i, 6:8] * tau * tau

    def speed(self, name: str) -> np.ndarray:
        """Speed (mm/s) per sample."""
        return np.hypot(*self.v[name].T)


def _gaps(xy: np.ndarray, size: tuple[float, float, float]) -> np.ndarray:
    """Surface-to-nose gap (n, 4) to the head, foot, left and right cushions."""
    length, width, r = size
    x, y = xy[:, 0], xy[:, 1]
    return np.column_stack((x - r, length - r - x, y - r, width - r - y))


def cushions_close(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Pairs of cushion contacts of different balls within 5 ms."""
    hits = [e for e in events if e["kind"] == "cushion"]
    out = []
    for i, a in enumerate(hits):
        for b in hits[i + 1 :]:
            if a["ball"] != b["ball"] and abs(a["t_s"] - b["t_s"]) <= 0.005:
                out.append({"tag": "cushions_close", "t_s": a["t_s"],
                            "balls": [a["ball"], b["ball"]],
                            "dt_ms": round(1000 * abs(a["t_s"] - b["t_s"]), 3)})  # fmt: skip
    return out


def along_cushion(m: Motion, size: tuple[float, float, float]) -> list[dict[str, Any]]:
    """Runs of a moving ball within 10 mm of one cushion over >= 150 mm of path."""
    out = []
    names = ("head", "foot", "left", "right")
    for ball, xy in m.xy.items():
        step = np.hypot(*np.diff(xy, axis=0).T)
        close = (_gaps(xy, size)[:-1] <= 10.0) & (m.speed(ball)[:-1] > 30.0)[:, None]
        for c in range(4):
            for i0, i1 in _runs(close[:, c]):
                path = float(step[i0:i1].sum())
                if path >= 150.0:
                    out.append({"tag": "along_cushion", "t_s": round(float(m.t[i0]), 4),
                                "end_s": round(float(m.t[i1]), 4), "ball": ball,
                                "cushion": names[c], "path_mm": round(path, 1)})  # fmt: skip
    return out


def _runs(mask: np.ndarray) -> list[tuple[int, int]]:
    """Index ranges [i0, i1) where ``mask`` is true."""
    edges = np.diff(np.concatenate(([0], mask.astype(np.int8), [0])))
    return list(zip(np.flatnonzero(edges == 1), np.flatnonzero(edges == -1), strict=True))


def near_misses(m: Motion, events: list[dict[str, Any]], radius: float) -> list[dict[str, Any]]:
    """Closest approaches 0-20 mm (surfaces) of moving balls away from their contacts."""
    out = []
    names = list(m.xy)
    for i, a in enumerate(names):
        for b in names[i + 1 :]:
            touches = [
                e["t_s"] for e in events if e["kind"] == "ball" and {a, b} == set(e["balls"])
            ]
            gap = np.hypot(*(m.xy[a] - m.xy[b]).T) - 2 * radius
            fast = np.maximum(m.speed(a), m.speed(b)) > 20.0
            k = np.flatnonzero((gap[1:-1] < gap[:-2]) & (gap[1:-1] <= gap[2:])) + 1
            for j in k:
                t = float(m.t[j])
                if 0.0 < gap[j] <= 20.0 and fast[j] and all(abs(t - tc) > 0.003 for tc in touches):
                    out.append({"tag": "near_miss", "t_s": round(t, 4), "balls": [a, b],
                                "gap_mm": round(float(gap[j]), 2)})  # fmt: skip
    return out


def thin_kisses(segments: dict[str, list[list[float]]], events: list[dict[str, Any]]) -> list:
    """Ball-ball contacts whose relative velocity has a normal share under 0.25."""
    out = []
    for e in events:
        if e["kind"] != "ball":
            continue
        a, b = e["balls"]
        (xa, ya, vxa, vya), (xb, yb, vxb, vyb) = (_before(segments[n], e["t_s"]) for n in (a, b))
        n = np.array([xb - xa, yb - ya])
        v = np.array([vxa - vxb, vya - vyb])
        share = abs(float(v @ n)) / (float(np.hypot(*n)) * float(np.hypot(*v)) or 1.0)
        if share < 0.25:
            out.append({"tag": "thin_kiss", "t_s": e["t_s"], "balls": [a, b],
                        "normal_share": round(share, 4)})  # fmt: skip
    return out


def _before(segs: list[list[float]], t: float) -> tuple[float, float, float, float]:
    """Position and velocity just before ``t`` (on the segment that ends at or after it)."""
    seg = next((s for s in segs if s[0] < t <= s[1]), segs[0])
    tau = t - seg[0]
    return (seg[2] + seg[4] * tau + 0.5 * seg[6] * tau * tau,
            seg[3] + seg[5] * tau + 0.5 * seg[7] * tau * tau,
            seg[4] + seg[6] * tau, seg[5] + seg[7] * tau)  # fmt: skip


def clusters(events: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Windows of 50 ms holding three or more contacts (one per first contact)."""
    times = sorted(e["t_s"] for e in events)
    out, last_end = [], -1.0
    for i, t in enumerate(times):
        n = sum(1 for u in times[i:] if u - t <= 0.050)
        if n >= 3 and t > last_end:
            out.append({"tag": "cluster", "t_s": t, "events": n})
            last_end = t + 0.050
    return out


def kisses_by_cushion(
    m: Motion, events: list[dict[str, Any]], size: tuple[float, float, float]
) -> list[dict[str, Any]]:
    """Ball-ball contacts after which both balls come within 30 mm of a cushion in 100 ms."""
    out = []
    for e in events:
        if e["kind"] != "ball":
            continue
        sel = (m.t >= e["t_s"]) & (m.t <= e["t_s"] + 0.100)
        near = [float(_gaps(m.xy[n][sel], size).min()) for n in e["balls"]]
        if max(near) <= 30.0:
            out.append({"tag": "kiss_by_cushion", "t_s": e["t_s"], "balls": e["balls"],
                        "gaps_mm": [round(g, 2) for g in near]})  # fmt: skip
    return out


def three_cushion(
    events: list[dict[str, Any]], cue: str
) -> tuple[bool, float | None, float | None]:
    """(point, time of the cue ball's third cushion, time it reaches the second object ball)."""
    cushions: list[float] = []
    met: set[str] = set()
    third = None
    for e in sorted(events, key=lambda e: e["t_s"]):
        if e["kind"] == "cushion" and e["ball"] == cue:
            cushions.append(e["t_s"])
            third = cushions[2] if len(cushions) >= 3 else None
        elif e["kind"] == "ball" and cue in e["balls"]:
            other = next(b for b in e["balls"] if b != cue)
            if other not in met and len(met | {other}) == 2:
                return third is not None and third < e["t_s"], third, e["t_s"]
            met.add(other)
    return False, third, None


def situations(
    segments: dict[str, list[list[float]]],
    events: list[dict[str, Any]],
    cue: str,
    size: tuple[float, float, float],
) -> tuple[bool, list[dict[str, Any]]]:
    """The shot's three-cushion point and every hard situation in it, by time."""
    m = Motion(segments)
    found = [*cushions_close(events), *along_cushion(m, size),
             *near_misses(m, events, size[2]), *thin_kisses(segments, events),
             *clusters(events), *kisses_by_cushion(m, events, size)]  # fmt: skip
    point, third, second = three_cushion(events, cue)
    if third is not None and second is not None and abs(third - second) <= 0.020:
        found.append({"tag": "order_close", "t_s": min(third, second),
                      "dt_ms": round(1000 * (second - third), 3)})  # fmt: skip
    return point, sorted(found, key=lambda s: s["t_s"])

"""Measure how our rendered frames compare with real broadcast frames.

Over 400 lines because it is one job from end to end: render, measure our frames and
the real ones the same way, write the page. About 70 lines are the page's fixed text
(``HEADER``, ``DIFFERENCES``), kept beside the numbers it explains.

Run from the repository root (about a minute)::

    .venv/bin/python bench/realism.py [--real ../shared/realdata/broadcast_frames]

It renders a 1920x1080 H.264 clip with a camera set up to see the table at the
broadcast's scale, decodes it, and measures the same things on our frames and on the
real ones: ball size, colour of the cloth and of each ball (HSV and Lab medians and
spreads), blur width (10-90% edge rise of a ball), sensor noise (residual of flat cloth
patches after a plane fit) and 8x8 blockiness. It writes ``docs/realism.md``,
``docs/img/rendered_frame.png`` (the README picture), ``docs/img/render_crops.png``
(crops of our render: clean, then as the camera records it) and, outside the repo's
tracked files, ``out/realism/side_by_side.png`` with crops of real frames to look at
locally: real footage is never committed.
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import cv2
import numpy as np
from numpy.typing import NDArray

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from calibration import Camera, Distortion  # noqa: E402
from referee import Ball  # noqa: E402
from synth import PlayerStroke, Renderer, RenderSettings, ScoreGraphic, render_clip  # noqa: E402

U8 = NDArray[np.uint8]
F64 = NDArray[np.float64]
BALL_NAMES = ("white", "yellow", "red")


@dataclass
class Stats:
    """Measurements of one set of frames; lists gather one value per frame or ball."""

    diameter_px: dict[str, list[float]] = field(default_factory=dict)
    colour: dict[str, list[NDArray[np.float64]]] = field(default_factory=dict)
    edge_px: list[float] = field(default_factory=list)
    noise_dn: list[float] = field(default_factory=list)
    blockiness: list[float] = field(default_factory=list)


class Motion:
    """Three balls for the bench: the white rolls, the others wait."""

    def positions_mm(self, t_s: F64) -> dict[Ball, F64]:
        """Centres (n, 2) mm at the times (n,) s."""
        t = np.asarray(t_s, dtype=float)[:, None]
        white = np.array([600.0, 380.0]) + np.array([900.0, 260.0]) * np.clip(t - 0.9, 0, None)
        return {
            Ball.WHITE: white,
            Ball.YELLOW: np.tile([2250.0, 1050.0], (len(t), 1)),
            Ball.RED: np.tile([1700.0, 420.0], (len(t), 1)),
        }


def u8(image: object) -> U8:
    """An OpenCV result as a typed uint8 array (fails loudly on a missing image)."""
    if image is None:
        raise SystemExit("realism: an image could not be read")
    return np.asarray(image, dtype=np.uint8)


def broadcast_camera() -> Camera:
    """A camera that sees the table at the broadcast's scale (0.45 px per mm)."""
    return Camera.overhead(
        width_px=1920, height_px=1080, hfov_deg=67.9, height_mm=3200.0,
        tilt_deg=2.0, distortion=Distortion(-0.03, 0.01),
    )  # fmt: skip


def cloth_mask(hsv: U8) -> NDArray[np.bool_]:
    """The cloth: pixels with the hue, saturation and value of the image centre."""
    h, w = hsv.shape[:2]
    ref = np.median(hsv[h // 2 - 40 : h // 2 + 40, w // 2 - 40 : w // 2 + 40].reshape(-1, 3), 0)
    hue = np.abs(hsv[..., 0].astype(int) - int(ref[0]))
    near = (np.minimum(hue, 180 - hue) < 8) & (hsv[..., 1] > 0.6 * ref[1])
    near &= (hsv[..., 2] > 0.6 * ref[2]) & (hsv[..., 2] < 1.3 * ref[2] + 10)
    _, labels, stats, _ = cv2.connectedComponentsWithStats(near.astype(np.uint8))
    biggest = 1 + int(np.argmax(stats[1:, cv2.CC_STAT_AREA]))
    out: NDArray[np.bool_] = labels == biggest
    return out


def table_interior(cloth: NDArray[np.bool_]) -> NDArray[np.bool_]:
    """The cloth with its holes (balls, hands) filled, shrunk away from the cushions."""
    contours, _ = cv2.findContours(cloth.astype(np.uint8), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_NONE)
    filled = np.zeros(cloth.shape, np.uint8)
    cv2.drawContours(filled, contours, -1, 1, -1)
    out: NDArray[np.bool_] = cv2.erode(filled, np.ones((25, 25), np.uint8)) > 0
    return out


def find_balls(image: U8) -> list[tuple[str, F64, float, NDArray[np.bool_]]]:
    """Balls on the cloth: (colour name, centre (2,) px, diameter px, blob mask)."""
    hsv = u8(cv2.cvtColor(image, cv2.COLOR_BGR2HSV))
    cloth = cloth_mask(hsv)
    holes = (table_interior(cloth) & ~cloth).astype(np.uint8)
    count, labels, stats, centroids = cv2.connectedComponentsWithStats(holes)
    out = []
    for k in range(1, count):
        area = stats[k, cv2.CC_STAT_AREA]
        bw, bh = stats[k, cv2.CC_STAT_WIDTH], stats[k, cv2.CC_STAT_HEIGHT]
        if not 150 <= area <= 3000 or max(bw, bh) > 1.3 * min(bw, bh):
            continue
        if area < 0.65 * np.pi * (max(bw, bh) / 2) ** 2:
            continue  # not round: a hand, the cue tip
        blob = labels == k
        inner = cv2.erode(blob.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
        name = classify(np.median(hsv[inner], axis=0))
        if name is not None:
            out.append((name, centroids[k], 2.0 * float(np.sqrt(area / np.pi)), blob))
    return out


def classify(hsv: F64) -> str | None:
    """A ball's colour name from its median HSV (OpenCV ranges), or None."""
    hue, sat, val = hsv
    if sat < 70 and val > 150:
        return "white"
    if 12 <= hue <= 40 and sat > 100:
        return "yellow"
    if (hue <= 10 or hue >= 165) and sat > 100:
        return "red"
    return None


def edge_width(image: U8, centre: F64, radius: float) -> float:
    """10-90% rise (px) of the lightness step at the ball's edge, radially averaged.

    The profile runs from the centre outwards; the edge is its steepest descent, and
    the levels are taken 4 px inside and outside it (a ball's dark rim and shadow lie
    just outside, so "far outside" is no clean level). A Gaussian blur of sigma s
    gives 2.56 s; a perfectly sharp disc sampled by square pixels about 0.8.
    """
    light = cv2.cvtColor(image, cv2.COLOR_BGR2LAB)[..., 0].astype(np.float32)
    r = np.arange(0.2 * radius, 1.6 * radius, 0.1)
    ang = np.linspace(0.0, 2.0 * np.pi, 48, endpoint=False)
    xs = (centre[0] + np.outer(np.cos(ang), r)).astype(np.float32)
    ys = (centre[1] + np.outer(np.sin(ang), r)).astype(np.float32)
    profile = cv2.remap(light, xs, ys, cv2.INTER_LINEAR).mean(axis=0)
    k = int(np.argmin(np.gradient(profile)))
    hi, lo = profile[max(k - 40, 0) : k + 1].max(), profile[k : k + 41].min()
    norm = (profile - lo) / (hi - lo)
    inner = k - int(np.argmax(norm[k::-1] > 0.9))
    outer = k + int(np.argmax(norm[k:] < 0.1))
    return float(r[outer] - r[inner])


def noise_level(gray: F64, cloth: NDArray[np.bool_], size: int = 24) -> float:
    """Median std (DN) of flat cloth patches after removing a fitted plane."""
    yy, xx = np.mgrid[:size, :size]
    design = np.c_[xx.ravel(), yy.ravel(), np.ones(size * size)]
    out = []
    for y in range(0, gray.shape[0] - size, size):
        for x in range(0, gray.shape[1] - size, size):
            if cloth[y : y + size, x : x + size].all():
                patch = gray[y : y + size, x : x + size].ravel()
                coef, *_ = np.linalg.lstsq(design, patch, rcond=None)
                out.append(float(np.std(patch - design @ coef)))
    return float(np.median(out))


def blockiness(gray: F64, cloth: NDArray[np.bool_]) -> float:
    """Mean step across 8x8 block boundaries over the mean step elsewhere (1: none)."""
    ratios = []
    for img, mask in ((gray, cloth), (gray.T, cloth.T)):
        step = np.abs(np.diff(img, axis=1))
        ok = mask[:, 1:] & mask[:, :-1]
        cols = np.arange(step.shape[1])
        edge = (cols % 8) == 7
        ratios.append(step[:, edge][ok[:, edge]].mean() / step[:, ~edge][ok[:, ~edge]].mean())
    return float(np.mean(ratios))


def measure(images: list[U8], stats: Stats) -> None:
    """Add the measurements of ``images`` (BGR) to ``stats``."""
    for image in images:
        hsv = u8(cv2.cvtColor(image, cv2.COLOR_BGR2HSV))
        lab = u8(cv2.cvtColor(image, cv2.COLOR_BGR2LAB))
        cloth = cloth_mask(hsv) & table_interior(cloth_mask(hsv))
        stats.colour.setdefault("cloth", []).append(_colour(hsv, lab, cloth))
        gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(float)
        stats.noise_dn.append(noise_level(gray, cloth))
        stats.blockiness.append(blockiness(gray, cloth))
        for name, centre, diameter, blob in find_balls(image):
            stats.diameter_px.setdefault(name, []).append(diameter)
            inner = cv2.erode(blob.astype(np.uint8), np.ones((5, 5), np.uint8)) > 0
            stats.colour.setdefault(name, []).append(_colour(hsv, lab, inner))
            if name in ("white", "yellow"):
                stats.edge_px.append(edge_width(image, centre, diameter / 2.0))


def _colour(hsv: U8, lab: U8, mask: NDArray[np.bool_]) -> F64:
    """Median H, S, V, L, a, b and the interquartile range of V and L, shape (8,)."""
    h, v = hsv[mask].astype(float), lab[mask].astype(float)
    iqr = [
        np.subtract(*np.percentile(h[:, 2], [75, 25])),
        np.subtract(*np.percentile(v[:, 0], [75, 25])),
    ]
    out: F64 = np.r_[np.median(h, axis=0), np.median(v, axis=0), iqr]
    return out


def render_ours(workdir: Path) -> tuple[list[U8], list[U8], Path]:
    """Render the bench clip; returns decoded frames, clean frames and the video path."""
    camera = broadcast_camera()
    settings = RenderSettings(
        fps=30.0, seed=11, score=ScoreGraphic(("CHO", "JASPERS"), ((0, 12, 7),))
    )
    strokes = [PlayerStroke(0.9, Ball.WHITE)]
    clip = render_clip(Motion(), camera, workdir / "bench.mp4", duration_s=2.0,
                       settings=settings, strokes=strokes)  # fmt: skip
    cap = cv2.VideoCapture(str(clip.video_path))
    frames = []
    while True:
        ok, image = cap.read()
        if not ok:
            break
        frames.append(u8(image))
    clean = Renderer(camera, settings=RenderSettings.clean(seed=11))
    return frames, [f.image for f in clean.frames(Motion(), 40)], clip.video_path


def crops(image: U8, balls: list[tuple[str, F64, float, NDArray[np.bool_]]], size: int = 48) -> U8:
    """One crop per ball colour (white, yellow, red), ``size`` px, side by side, x4."""
    found = {name: centre for name, centre, _, _ in balls}
    tiles = []
    for name in BALL_NAMES:
        tile = np.zeros((size, size, 3), np.uint8)
        if name in found:
            u, v = (round(float(c)) - size // 2 for c in found[name])
            part = image[max(v, 0) : v + size, max(u, 0) : u + size]
            tile[: part.shape[0], : part.shape[1]] = part
        tiles.append(tile)
    strip = np.hstack(tiles)
    return u8(cv2.resize(strip, None, fx=4, fy=4, interpolation=cv2.INTER_NEAREST))


ROWS = (
    ("ball diameter (px, blob incl. dark rim)", "diameter"),
    ("cloth H / S / V (median)", "cloth_hsv"),
    ("cloth L / a / b (median)", "cloth_lab"),
    ("cloth spread: IQR of V / of L", "cloth_iqr"),
    ("white H / S / V", "white_hsv"),
    ("white L / a / b", "white_lab"),
    ("yellow H / S / V", "yellow_hsv"),
    ("yellow L / a / b", "yellow_lab"),
    ("red H / S / V", "red_hsv"),
    ("red L / a / b", "red_lab"),
    ("ball colour spread: IQR of V, white / yellow / red", "ball_iqr"),
    ("edge 10-90% width (px, white and yellow balls)", "edge"),
    ("noise: std of flat cloth after a plane fit (DN)", "noise"),
    ("8x8 blockiness (boundary step / other steps)", "block"),
)


def summary(stats: Stats) -> dict[str, str]:
    """The table cells of one column."""
    col = {k: np.median(np.array(v), axis=0) for k, v in stats.colour.items()}

    def trio(name: str, part: slice) -> str:
        return " / ".join(f"{x:.0f}" for x in col[name][part]) if name in col else "-"

    sizes = [np.median(stats.diameter_px[n]) for n in BALL_NAMES if n in stats.diameter_px]
    iqr = " / ".join(f"{col[n][6]:.0f}" if n in col else "-" for n in BALL_NAMES)
    out = {
        "diameter": f"{np.median(sizes):.1f}",
        "cloth_iqr": f"{col['cloth'][6]:.0f} / {col['cloth'][7]:.0f}",
        "ball_iqr": iqr,
        "edge": f"{np.median(stats.edge_px):.2f}",
        "noise": f"{np.median(stats.noise_dn):.2f}",
        "block": f"{np.median(stats.blockiness):.2f}",
    }
    for name in ("cloth", *BALL_NAMES):
        out[f"{name}_hsv"], out[f"{name}_lab"] = trio(name, slice(0, 3)), trio(name, slice(3, 6))
    return out


def write_report(real: Stats, ours: Stats, clean: Stats, n_real: int, video: Path) -> str:
    """The markdown table (real, ours after H.264, ours before compression)."""
    cols = [summary(real), summary(ours), summary(clean)]
    lines = [
        f"| measure | real broadcast ({n_real} frames) | ours, H.264 | ours, clean |",
        "| --- | --- | --- | --- |",
    ]
    lines += [f"| {label} | " + " | ".join(c[key] for c in cols) + " |" for label, key in ROWS]
    size_kb = video.stat().st_size / 1024
    lines.append(f"\nOur clip: 1920x1080, 30 fps, 2 s, H.264 (libx264) at the default bit rate, "
                 f"{size_kb:.0f} KiB.")  # fmt: skip
    return "\n".join(lines)


HEADER = """# Realism: our rendered frames against real broadcast frames

Measured by `bench/realism.py` (run it from the repository root; about a minute). The
real frames are the 37 broadcast frames of `../shared/realdata/broadcast_frames/`
(1920x1080 JPEG, blue cloth); they stay out of this repository, so they are described
here by numbers only. Ours: a 2 s clip rendered at 1920x1080 and 30 fps by a camera
3.2 m above the cloth whose lens puts the table at the broadcast's scale (0.45 px/mm:
the playing surface spans the same 1280 px), with the default settings (motion blur,
optics blur 0.7 px, sharpening, vignetting, lamp flicker, sensor noise, a player and
the score graphic), written as H.264 and decoded again; "clean" is the same scene with
`RenderSettings.clean()` (no blur, noise, flicker, vignetting, player or compression).

Methods, the same on both sides: the cloth is the largest region with the hue,
saturation and value of the image centre; balls are the round holes in it, named by
their median HSV (OpenCV ranges: H 0..180, S and V 0..255; Lab 0..255 with a and b
offset by 128). Ball diameter is that of a disc with the blob's area. Edge width is
the 10-90% rise of the radially averaged lightness at the steepest part of the ball's
edge. Noise is the median standard deviation of 24x24 cloth patches after removing a
fitted plane (gray levels). Blockiness is the mean step across 8-pixel block
boundaries over the mean step elsewhere, on the cloth (1.0: no blocks).

"""

DIFFERENCES = """
## What still differs

- **Colours** agree within a few levels for the cloth (our default blue cloth is the
  median of these frames and the lighting is normalized so that the cloth shows its
  own colour on average). The balls are within about 10 levels: our yellow is a bit
  lighter (L 177 against 166), our red less saturated (S 222 against 245) and our white
  less cream (S about 25 against 42). Broadcast colour grading differs from match to match;
  the ball colours are settings (`Scene.balls`).
- **Inside a ball** real pixels vary more (IQR of V 24-40 against 15-16): real balls
  carry printed marks (a red's logo, stripes), mirror-like reflections of the lamp box
  and a crisp dark outline; ours are plain with six small lamp highlights.
- **Cloth gradient**: our cloth varies more across the table (IQR of V 17-18 against 12):
  six lamps 1.3 m above the cloth and 20% lens vignetting give a stronger falloff
  towards the cushions than the broadcast's flood lighting. Lamp height and
  `vignetting` change it.
- **Ball size** is the same table scale, yet the real blobs measure 3.5 px wider: real
  balls sit in a wider, darker halo (contact shadow plus the broadcast camera's strong
  edge enhancement; the lightness dips to about 123 two pixels outside a white ball
  and stays low for some 8 px, ours to about 129 over fewer pixels).
- **Edge width** is close (3.4 against 3.8 px).
- **Noise**: the broadcast is denoised and compressed until little more than
  quantization is left (0.27 gray levels). Our default models a club camera and keeps
  about 1 level after H.264; `read_noise_dn=0.3, shot_noise_dn=0.005` give broadcast-
  like footage.
- **Blocks**: the real frames were compressed twice (broadcast H.264, then JPEG when the
  frames were extracted), ours once at 4.4 Mbit/s, hence 1.60 against 1.34.
- **Not modelled**: the broadcast's long lens (almost no perspective or distortion) and
  its surroundings (advertising boards, people, logos in the graphic); a realistic
  player (ours is flat-shaded capsules, without folds, texture or a shadow on the
  cloth); rolling shutter, auto exposure and white-balance drift, interlacing; pins
  and balls casting shadows on each other.

## Pictures

![our render: clean (top) and as the camera records it (bottom)](img/render_crops.png)

Crops of our render, 4x: the white, yellow and red ball without any camera effect
(top) and after motion blur, optics, sharpening, noise and H.264 (bottom). The whole
frame is `img/rendered_frame.png`. `bench/realism.py` also writes
`out/realism/side_by_side.png` (not tracked) with the same crops of a real frame, to
look at locally.
"""


def main(argv: list[str] | None = None) -> int:
    """Measure, write the report and the pictures."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--real", type=Path, default=ROOT.parent / "shared/realdata/broadcast_frames"
    )
    parser.add_argument("--docs", type=Path, default=ROOT / "docs")
    parser.add_argument("--out", type=Path, default=ROOT / "out/realism")
    args = parser.parse_args(argv)
    paths = sorted(args.real.glob("*.jpg"))
    if not paths:
        print(f"realism: no real frames in {args.real}", file=sys.stderr)
        return 2
    real_frames = [u8(cv2.imread(str(p))) for p in paths]
    real, ours, clean = Stats(), Stats(), Stats()
    measure(real_frames, real)
    with tempfile.TemporaryDirectory() as tmp:
        frames, clean_frames, video = render_ours(Path(tmp))
        measure(frames[::3], ours)
        measure(clean_frames[::6], clean)
        table = write_report(real, ours, clean, len(paths), video)
    (args.docs / "img").mkdir(parents=True, exist_ok=True)
    args.out.mkdir(parents=True, exist_ok=True)
    shown = frames[len(frames) // 2 - 10]
    small = cv2.resize(shown, (960, 540), interpolation=cv2.INTER_AREA)
    cv2.imwrite(str(args.docs / "img/rendered_frame.png"), small, [cv2.IMWRITE_PNG_COMPRESSION, 9])
    ours_crops = np.vstack([crops(clean_frames[20], find_balls(clean_frames[20])),
                            crops(frames[20], find_balls(frames[20]))])  # fmt: skip
    cv2.imwrite(str(args.docs / "img/render_crops.png"), ours_crops)
    local = np.vstack([crops(real_frames[16], find_balls(real_frames[16])), ours_crops[192:]])
    cv2.imwrite(str(args.out / "side_by_side.png"), local)
    (args.out / "table.md").write_text(table + "\n")
    (args.docs / "realism.md").write_text(HEADER + table + "\n" + DIFFERENCES)
    print(table)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())

"""``carom synth``: render a scenario, a sample sequence or a recorded shot to video + truth."""

from __future__ import annotations

import argparse
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING

from carom.cli._signals import sigterm_interrupts
from carom.files import make_folder, remove_empty
from carom.progress import Progress
from referee import CaromError

if TYPE_CHECKING:
    from synth import Replay, Sequence

__all__ = ["add_parser", "run"]

_OUT = Path("out/synth")


#: The options of a clip's render (their ``dest``): camera, look, and the clip's own.
_CAMERA = ("width", "height", "fps", "camera_height", "fov", "tilt", "roll", "yaw",
           "k1", "k2", "k3", "p1", "p2")  # fmt: skip
_LOOK = ("cloth", "light", "noise", "no_player", "score_graphic")
_CLIP = ("seed", "max_mb")
#: What each source ignores: the samples have their own cameras, looks and seeds; a
#: table scene draws its camera and look from its kind and seed, at the size given.
_IGNORED = {"--samples": (*_CAMERA, *_LOOK, *_CLIP),
            "--table-scene": (*_CAMERA[2:], *_LOOK, "max_mb")}  # fmt: skip


def _whole(text: str) -> int:
    """A whole number 0 or more (a seed, an index), else argparse's usage error."""
    if not (text.isascii() and text.isdigit()):
        raise argparse.ArgumentTypeError(f"a whole number 0 or more, got {text!r}")
    return int(text)


def add_parser(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    """Register ``carom synth`` and its options."""
    p = sub.add_parser(
        "synth",
        help="render synthetic overhead video with exact ground truth",
        description="Render NAME (a sample sequence or a scenario; --list shows them), a "
        "recorded shot (--recorded), or every bundled sample (--samples DIR) to an H.264 "
        "MP4, a truth file (.json) and a shot log (.shots.json). The files of a clip appear "
        "when its render completed; Ctrl-C leaves earlier ones as they were.",
    )
    p.add_argument("name", nargs="?", help="sequence or scenario name")
    p.add_argument("--list", action="store_true", help="list the names and exit")
    p.add_argument("--out", type=Path, help=f"output folder ({_OUT}; not with --samples)")
    p.add_argument("--samples", type=Path, metavar="DIR",
                   help="regenerate every sample into DIR (no NAME, --out)")  # fmt: skip
    p.add_argument("--recorded", type=Path, metavar="JSON", help="replay a recorded shot file")
    p.add_argument("--shot", type=_whole, help="index of the recorded shot (0; with --recorded)")
    p.add_argument(
        "--table-scene", metavar="KIND",
        help="render one still frame of a table of KIND (match, pocket, small, oblique, wide, "
        "far, people, cloth, light; --seed picks the frame) with its true camera and corners, "
        "to test calibration: writes OUT/table-KIND-SEED.png and .json",
    )  # fmt: skip
    cam = p.add_argument_group("camera")
    cam.add_argument("--width", type=int, default=1280, help="image width, px (1280)")
    cam.add_argument("--height", type=int, default=720, help="image height, px (720)")
    cam.add_argument("--fps", type=float, default=30.0, help="24, 25, 30, 50, 60, 100 or 120 (30)")
    cam.add_argument("--camera-height", type=float, default=2.8, help="above the cloth, m (2.8)")
    cam.add_argument("--fov", type=float, default=0.0, help="horizontal FOV, deg (0: fit table)")
    cam.add_argument("--tilt", type=float, default=0.0, help="tilt from vertical, deg")
    cam.add_argument("--roll", type=float, default=0.0, help="roll about the axis, deg")
    cam.add_argument("--yaw", type=float, default=0.0, help="table turn in the picture, deg")
    for k in ("k1", "k2", "k3", "p1", "p2"):
        cam.add_argument(f"--{k}", type=float, default=0.0, help=f"lens distortion {k}")
    look = p.add_argument_group("look")
    look.add_argument("--cloth", default="blue", help="blue, green, teal, grey or red (blue)")
    look.add_argument("--light", type=float, default=1.0, help="lamp level (1 normal, 0.4 dim)")
    look.add_argument("--noise", type=float, default=1.0, help="sensor noise scale (1 normal)")
    look.add_argument("--no-player", action="store_true", help="no arm and cue")
    look.add_argument("--score-graphic", action="store_true", help="broadcast score box")
    p.add_argument("--seed", type=_whole, default=0, help="noise and player seed, 0 or more")
    p.add_argument("--max-mb", type=float, default=0.0, help="cap the video size (bitrate)")
    # What a render of --samples or --table-scene would ignore, and their defaults.
    p.set_defaults(render_defaults={d: p.get_default(d) for d in (*_CAMERA, *_LOOK, *_CLIP)})


def run(args: argparse.Namespace) -> int:
    """Carry out ``carom synth``; raises CaromError on bad input."""
    if args.list:
        _list()
        return 0
    _check_sources(args)
    with sigterm_interrupts():
        if args.samples is not None:
            return _samples(args.samples)
        if args.table_scene is not None:
            return _table_scene(args, args.out or _OUT)
        return _clip(args, args.out or _OUT)


def _check_sources(args: argparse.Namespace) -> None:
    """One source: NAME, --recorded, --samples or --table-scene; --out not with --samples."""
    sources = (("NAME", args.name), ("--recorded", args.recorded),
               ("--samples", args.samples), ("--table-scene", args.table_scene))  # fmt: skip
    given = [flag for flag, value in sources if value]
    if not given:
        raise CaromError("give a NAME (see --list), --recorded JSON, --samples DIR or "
                         "--table-scene KIND")  # fmt: skip
    if len(given) > 1:
        raise CaromError(f"{' and '.join(given)}: give one of them (NAME, --recorded, "
                         "--samples and --table-scene are each a render of their own)")  # fmt: skip
    if args.samples is not None and args.out is not None:
        raise CaromError("--out: not with --samples DIR (the samples go to DIR, each with "
                         "its own camera); leave out one of them")  # fmt: skip
    if args.shot is not None and args.recorded is None:
        raise CaromError("--shot: only with --recorded JSON (the shot of a recording to "
                         "render); leave it out")  # fmt: skip
    _check_ignored(args)


def _check_ignored(args: argparse.Namespace) -> None:
    """A render option the source would ignore is refused, not dropped silently."""
    source = "--samples" if args.samples is not None else "--table-scene"
    if source == "--table-scene" and args.table_scene is None:
        return
    defaults = args.render_defaults
    given = [f"--{d.replace('_', '-')}" for d in _IGNORED[source]
             if getattr(args, d) != defaults[d]]  # fmt: skip
    if given:
        what = ("each sample has its own camera, look and seed, as its manifest says"
                if source == "--samples" else
                "a table scene's camera and look come from its KIND and --seed; only "
                "--width and --height are taken")  # fmt: skip
        raise CaromError(f"{', '.join(given)}: not with {source} ({what}); leave "
                         f"{'it' if len(given) == 1 else 'them'} out")  # fmt: skip


def _samples(folder: Path) -> int:
    """Regenerate every bundled sample into ``folder``."""
    from synth import make_samples

    make_folder(folder, "--samples")
    bar = Progress.for_terminal()
    samples = make_samples(folder, progress=lambda name, fps: _rendering(bar, name, fps),
                           say=lambda line: bar.say(f"carom synth: {line}"))  # fmt: skip
    bar.clear()
    print(f"wrote {len(samples)} samples, their README.md and manifest.json to {folder}")
    return 0


def _clip(args: argparse.Namespace, out: Path) -> int:
    """Render NAME or a recorded shot to ``out``."""
    # Imported here: the renderer is loaded only when ``carom synth`` runs.
    from synth import CameraSettings, LookSettings, make_clip, motion_for, replay, source_names

    camera = CameraSettings(
        width_px=args.width, height_px=args.height, fps=args.fps, height_m=args.camera_height,
        hfov_deg=args.fov, tilt_deg=args.tilt, roll_deg=args.roll, yaw_deg=args.yaw,
        k1=args.k1, k2=args.k2, k3=args.k3, p1=args.p1, p2=args.p2,
    )  # fmt: skip
    look = LookSettings(cloth=args.cloth, light=args.light, noise=args.noise,
                        players=not args.no_player, score_graphic=args.score_graphic)  # fmt: skip
    motion: Sequence | Replay
    bar = Progress.for_terminal()
    if args.recorded is None and args.name not in source_names():
        motion_for(args.name)  # an unknown name: its line names the known ones
    shot = args.shot or 0
    recorded = replay(args.recorded, shot) if args.recorded is not None else None
    folders = make_folder(out, "--out")  # before the stroke search and the render
    max_bytes = int(args.max_mb * 1e6) if args.max_mb else None
    try:
        if recorded is not None:
            motion, name = recorded, f"recorded_{shot}"
        else:
            motion, name = motion_for(args.name, bar.say), args.name
        made = make_clip(
            name, motion, out, camera, look, seed=args.seed, max_bytes=max_bytes,
            progress=_rendering(bar, name, args.fps),
        )  # fmt: skip
    except CaromError:
        remove_empty(folders)  # a setting refused by the renderer: no empty folder left
        raise
    bar.clear()
    files = [str(made.clip.truth_path)] + ([str(made.shots_path)] if made.shots_path else [])
    clip = made.clip
    print(
        f"wrote {clip.video_path} ({clip.n_frames} frames, {made.duration_s:.1f} s), "
        + ", ".join(files)
    )
    return 0


def _list() -> None:
    """Each name ``carom synth`` renders, with its one-line description beside it."""
    from synth import source_description, source_names

    names = source_names()
    width = max(map(len, names), default=0)
    for name in names:
        print(f"{name:{width}}  {source_description(name)}".rstrip())


def _rendering(bar: Progress, name: str, fps: float) -> Callable[[int, int], None]:
    """The renderer's progress(done, total) as the stage "rendering NAME" of ``bar``."""
    begun = [False]

    def show(done: int, total: int) -> None:
        if not begun[0]:
            bar.stage(f"rendering {name}", total, fps=fps)
            begun[0] = True
        bar.update(done, total)

    return show


def _table_scene(args: argparse.Namespace, out: Path) -> int:
    """Write one rendered calibration frame and its truth (camera, corners)."""
    import cv2

    from carom.files import write_json_atomic
    from synth import CALIBRATION_CATEGORIES, RenderError, calibration_scene

    if args.table_scene not in CALIBRATION_CATEGORIES:
        kinds = ", ".join(CALIBRATION_CATEGORIES)
        raise RenderError(f"--table-scene: unknown kind {args.table_scene!r} (one of: {kinds})")
    make_folder(out, "--out")
    scene = calibration_scene(args.table_scene, args.seed, (args.width, args.height))
    stem = out / f"table-{scene.category}-{scene.seed}"
    if not cv2.imwrite(str(stem.with_suffix(".png")), scene.image_bgr):
        raise RenderError(f"{stem}.png: cannot write the picture (check the folder --out)")
    write_json_atomic(stem.with_suffix(".json"), {
        "category": scene.category, "seed": scene.seed,
        "corners_px": scene.corners_px.round(3).tolist(),
        "corners_mm": scene.corners_mm.round(3).tolist(),
        "nose_corners_px": scene.nose_corners_px.round(3).tolist(),
        "table_mm": [scene.table.length_mm, scene.table.width_mm],
        "camera": scene.camera.to_dict(),
    })  # fmt: skip
    print(f"wrote {stem}.png, {stem}.json (the true camera and corners)")
    return 0

"""Regenerate the bundled sample clips and their README table (``carom synth --samples``)."""

from __future__ import annotations

import hashlib
import json
import math
import os
import time
from collections.abc import Callable
from pathlib import Path

from synth._make import MadeClip, make_clip, shot_log
from synth._samples import MAX_BYTES, SAMPLES, Sample, sequence
from synth._sequence import Sequence

__all__ = ["make_samples", "sha256", "video_budget"]

_MARGIN_BYTES = 80_000


def video_budget(seq: Sequence, fps: float) -> int:
    """Bytes left for the video: the clip budget less its shot log and truth file.

    The truth's size is estimated from its per-frame content (about 100 bytes a ball
    and 60 a pin each frame, plus the header), with a margin.
    """
    log = len(json.dumps(shot_log(seq), indent=1)) + 1
    balls = max(len(layout) for layout in seq.layouts)
    pins = len(seq.pins_mm(0.0))
    per_frame = 50 + 100 * balls + 60 * pins
    truth = int(1.1 * math.floor(seq.duration_s * fps) * per_frame) + 20_000
    return MAX_BYTES - log - truth - _MARGIN_BYTES


def sha256(path: Path) -> str:
    """Hex SHA-256 of a file."""
    return hashlib.sha256(path.read_bytes()).hexdigest()


def make_samples(
    out_dir: Path,
    names: list[str] | None = None,
    progress: Callable[[str, float], Callable[[int, int], None]] | None = None,
    say: Callable[[str], None] | None = None,
) -> dict[str, MadeClip]:
    """Render every sample (or ``names``) into ``out_dir`` with a README and a manifest.

    Each sample's files appear whole (:func:`~synth._make.make_clip`), and the manifest
    and README are rewritten after each: stopped half way (Ctrl-C), the folder holds the
    samples done so far and the earlier files of the others, and says so.
    ``progress(name, fps)`` gives each sample's ``progress(frames done, frames)``; ``say``
    hears a line a sample (and the stroke search's remarks). Both default to nothing.
    """
    made: dict[str, MadeClip] = {}
    tell = say or (lambda _line: None)
    for name in names or list(SAMPLES):
        sample = SAMPLES[name]
        started = time.monotonic()
        seq = sequence(sample.sequence, tell)
        made[name] = make_clip(
            name, seq, out_dir, sample.camera, sample.look, seed=sample.seed,
            max_bytes=video_budget(seq, sample.camera.fps),
            progress=None if progress is None else progress(name, sample.camera.fps),
        )  # fmt: skip
        _write_index(out_dir)
        tell(f"{name}: {time.monotonic() - started:.0f} s")
    return made


def _write_index(out_dir: Path) -> None:
    """The manifest and the README of the files there now, each replaced whole."""
    _write_whole(out_dir / "manifest.json", json.dumps(_manifest(out_dir), indent=1) + "\n")
    _write_whole(out_dir / "README.md", readme(out_dir))


def _manifest(out_dir: Path) -> dict[str, dict[str, int | str]]:
    """Size and SHA-256 of every video and JSON file (not hidden: a render's temporaries)."""
    files = sorted(
        p for p in out_dir.iterdir()
        if p.suffix in (".mp4", ".json") and p.name != "manifest.json"
        and not p.name.startswith(".")
    )  # fmt: skip
    return {p.name: {"bytes": p.stat().st_size, "sha256": sha256(p)} for p in files}


def _write_whole(path: Path, text: str) -> None:
    """``text`` to ``path`` by a rename: a reader never sees half of it."""
    part = path.with_name(f".{path.name}.part")
    try:
        part.write_text(text)
        os.replace(part, path)
    finally:
        part.unlink(missing_ok=True)


def _row(name: str, sample: Sample, out_dir: Path) -> str:
    truth = json.loads((out_dir / f"{name}.json").read_text())
    video = truth["video"]
    calls = "; ".join(
        f"{v['player']}: " + (f"+{v['points']}" if v["points"] else ",".join(v["fouls"]) or "miss")
        for v in truth["verdicts"]
    )
    size = sum((out_dir / f"{name}{s}").stat().st_size for s in (".mp4", ".json", ".shots.json"))
    seconds = video["n_frames"] / video["fps"]
    return (
        f"| `{name}` | {truth['extra']['description']} | {sample.what} | "
        f"{video['width_px']}x{video['height_px']} @ {video['fps']:g} fps, {seconds:.0f} s | "
        f"{calls} | {size / 1e6:.2f} MB |"
    )


def readme(out_dir: Path) -> str:
    """The README of the sample folder, from the rendered files."""
    rows = [_row(n, s, out_dir) for n, s in SAMPLES.items() if (out_dir / f"{n}.json").exists()]
    return "\n".join(
        [
            "# Sample videos",
            "",
            "Synthetic overhead clips rendered by `carom synth` with exact ground truth. For",
            "each clip: `NAME.mp4` (H.264), `NAME.json` (truth: camera intrinsics, distortion",
            "and pose, table geometry, per-frame ball positions in mm and px, every event with",
            "its exact time, the expected verdict of every shot) and `NAME.shots.json` (the",
            "shots as a `carom-shots/1` log; `carom score NAME.shots.json` gives the verdicts).",
            "",
            "Regenerate them all from the seeds in `synth/_samples.py` (the same frames; the",
            "truth's times and positions can differ in their last digits across machines and",
            "library versions, and the MP4 bytes can differ: `docs/synthetic.md`):",
            "",
            "```sh",
            ".venv/bin/carom synth --samples sample_videos/",
            "```",
            "",
            "`manifest.json` lists the SHA-256 of every file.",
            "",
            "| clip | what happens | how it is seen | video | expected calls | size |",
            "| --- | --- | --- | --- | --- | --- |",
            *rows,
            "",
            "Each truth file's verdicts are what the referee gives today, every field (reasons,",
            "breaks, notes): `tests/synth/test_samples.py` plays each sequence again and",
            "compares, and this README with what `carom synth --samples` writes.",
            "",
        ]
    )

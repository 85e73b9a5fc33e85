"""One call from a motion and a camera to a video file and its truth file."""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration import Camera
from referee import Event
from synth._render import Renderer, RenderSettings
from synth._scene import MotionSource, PlayerStroke, RenderError, Scene
from synth._truth import frame_json, truth_json, write_truth
from vision import VideoError, VideoSink, default_bitrate, open_video

__all__ = ["Clip", "render_clip"]


@dataclass(frozen=True, slots=True)
class Clip:
    """What :func:`render_clip` wrote: the video, its truth and how long it took."""

    video_path: Path
    truth_path: Path
    n_frames: int
    render_ms_per_frame: float
    encode_ms_per_frame: float


def render_clip(
    motion: MotionSource,
    camera: Camera,
    video_path: Path,
    *,
    duration_s: float,
    scene: Scene | None = None,
    settings: RenderSettings | None = None,
    strokes: Sequence[PlayerStroke] = (),
    events: Sequence[Event] = (),
    verdicts: Sequence[Mapping[str, Any]] = (),
    codec: str = "h264",
    bitrate_bps: int | None = None,
    encoder_threads: int = 0,
    truth_path: Path | None = None,
    extra: Mapping[str, Any] | None = None,
    progress: Callable[[int, int], None] | None = None,
    lag: Mapping[str, Any] | None = None,
) -> Clip:
    """Render ``duration_s`` seconds of ``motion`` to ``video_path`` and a truth file.

    The truth goes to ``truth_path`` (default: the video path with ``.json``); see
    :mod:`synth._truth` for its format. ``events`` and ``verdicts`` are copied
    into it as given: the exact contact times and the expected verdicts; ``lag`` is
    the truth of a lag the clip opens with (winner, reason, faults, events).
    ``progress(frames_done, n_frames)`` is called after every frame.
    ``encoder_threads``: libx264's threads (:func:`vision.open_video`; 0 its own).
    """
    renderer = Renderer(camera, scene, settings)
    s = renderer.settings
    if not 0.0 < duration_s <= 3600.0:
        raise RenderError(f"duration_s must be 0..3600, got {duration_s!r}")
    n_frames = max(1, math.floor(duration_s * s.fps + 1e-9))
    bitrate = bitrate_bps if bitrate_bps is not None else default_bitrate(camera.size_px, s.fps)
    sink = _sink(video_path, s.fps, camera.size_px, (codec, bitrate, encoder_threads))
    frames, render_s, encode_s = [], 0.0, 0.0
    try:
        clock = time.perf_counter()
        for frame in renderer.frames(motion, n_frames, strokes):
            now = time.perf_counter()
            render_s += now - clock
            sink.write(frame.image)
            clock = time.perf_counter()
            encode_s += clock - now
            frames.append(frame_json(frame))
            if progress is not None:
                progress(len(frames), n_frames)
    finally:
        sink.close()
    width, height = camera.size_px
    video = {"file": video_path.name, "codec": codec, "bitrate_bps": bitrate if codec == "h264"
             else None, "fps": s.fps, "width_px": width, "height_px": height,
             "n_frames": n_frames}  # fmt: skip
    truth = truth_json(camera=camera, look=renderer.scene.look, settings=s, frames=frames,
                       video=video, events=events, verdicts=verdicts, extra=extra,
                       lag=lag)  # fmt: skip
    out = truth_path or video_path.with_suffix(".json")
    write_truth(out, truth)
    return Clip(video_path, out, n_frames, 1000 * render_s / n_frames, 1000 * encode_s / n_frames)


def _sink(path: Path, fps: float, size_px: tuple[int, int], enc: tuple[str, int, int]) -> VideoSink:
    """The video file, ``enc``: codec, bit rate and encoder threads (:func:`vision.open_video`).

    A bad codec or size is a bad render request: :class:`RenderError`.
    """
    codec, bitrate, threads = enc
    try:
        return open_video(path, fps, size_px, codec=codec, bitrate_bps=bitrate,
                          encoder_threads=threads)  # fmt: skip
    except VideoError as exc:
        raise RenderError(str(exc)) from exc

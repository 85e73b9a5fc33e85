"""One call from a motion and a camera to a video file and its truth file.

:func:`whole_clip` gives a clip's files temporary names beside their own and moves them
into place only when the render completed: a reader (or the next run) finds a clip's
video, truth and shot log all of one render, or the earlier ones untouched. The
temporary names carry the machine and the process that writes them, so a render that
was killed outright (SIGKILL, a power cut) leaves files the next render of that clip on
that machine removes, once their process is gone.
"""

from __future__ import annotations

import contextlib
import glob
import hashlib
import math
import os
import secrets
import signal
import socket
import time
from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from calibration import Camera
from referee import Event
from synth._render import Renderer, RenderSettings
from synth._scene import MotionSource, PlayerStroke, RenderError, Scene
from synth._truth import frame_json, truth_json, write_truth
from vision import VideoError, VideoSink, default_bitrate, open_video

__all__ = ["Clip", "ClipFiles", "render_clip", "whole_clip"]


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
    video_name: str | None = None,
) -> Clip:
    """Render ``duration_s`` seconds of ``motion`` to ``video_path`` and a truth file.

    The truth (:mod:`synth._truth`) goes to ``truth_path`` (default: the video path with
    ``.json``), naming the video ``video_name`` (default ``video_path``'s; a temporary's
    final name, :func:`whole_clip`), with ``events`` and ``verdicts`` as given (the exact
    contact times, the expected verdicts) and ``lag``, the truth of a lag the clip opens
    with. ``progress(frames_done, n_frames)`` is called after every frame.
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
    video = {"file": video_name or video_path.name, "codec": codec,
             "bitrate_bps": bitrate if codec == "h264" else None, "fps": s.fps,
             "width_px": width, "height_px": height, "n_frames": n_frames}  # fmt: skip
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


@dataclass(frozen=True, slots=True)
class ClipFiles:
    """A clip's files in ``folder``: ``STEM.mp4``, ``STEM.json`` (truth), ``STEM.shots.json``."""

    folder: Path
    stem: str

    @property
    def video(self) -> Path:
        """The H.264 video."""
        return self.folder / f"{self.stem}.mp4"

    @property
    def truth(self) -> Path:
        """The truth file."""
        return self.folder / f"{self.stem}.json"

    @property
    def shots(self) -> Path:
        """The shot log (a clip of known events only)."""
        return self.folder / f"{self.stem}.shots.json"

    def all(self) -> tuple[Path, Path, Path]:
        """The three paths, video first."""
        return self.video, self.truth, self.shots


@contextlib.contextmanager
def whole_clip(folder: Path, stem: str) -> Iterator[ClipFiles]:
    """Temporary names for the clip ``folder/STEM.*``, moved there when the block ends.

    The block writes the files it yields (``.STEM.part-HOST-PID-RANDOM.mp4`` ...: hidden,
    in the same folder, so the move is a rename); each one written then replaces its
    own. An error or an interruption (Ctrl-C) in the block removes them instead, and the
    files of an earlier render stay as they were. Before it, the temporary files of
    STEM that a killed render on this machine left are removed (:func:`_remove_stale`).
    """
    _remove_stale(folder, stem)
    part = ClipFiles(folder, f".{stem}.part-{_HOST}-{os.getpid()}-{secrets.token_hex(4)}")
    try:
        yield part
        with _signals_held():  # the three renames are not split by a Ctrl-C
            for src, dst in zip(part.all(), ClipFiles(folder, stem).all(), strict=True):
                if src.exists():
                    os.replace(src, dst)
                else:  # this render has none (no shot log): an earlier one's is not its
                    dst.unlink(missing_ok=True)
    finally:
        for path in part.all():
            path.unlink(missing_ok=True)


#: This machine in the temporary names: 6 hex digits of its host name (an output folder
#: on a shared drive may hold the renders of other machines, whose processes this one
#: cannot see).
_HOST = hashlib.sha256(socket.gethostname().encode()).hexdigest()[:6]


def _remove_stale(folder: Path, stem: str) -> None:
    """Remove the temporary files of STEM written on this machine by a process now gone.

    A process still running (another render of the same clip) keeps its files; a file
    of another machine, or of an older name without the process, is left alone.
    """
    prefix = f".{stem}.part-{_HOST}-"
    for path in folder.glob(f"{glob.escape(prefix)}*"):
        pid = path.name[len(prefix) :].split("-", 1)[0]
        if pid.isdigit() and not _running(int(pid)):
            path.unlink(missing_ok=True)


def _running(pid: int) -> bool:
    """Whether process ``pid`` exists on this machine (another user's included)."""
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True


@contextlib.contextmanager
def _signals_held() -> Iterator[None]:
    """SIGINT and SIGTERM wait until the block ends (where the system can hold them)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT, signal.SIGTERM})
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, before)

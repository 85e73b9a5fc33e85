"""Beside an analysis, a light stream on a small machine is decoded on one thread."""

from __future__ import annotations

import os
from pathlib import Path

import numpy as np
import pytest

from tests.vision.frames.test_sources import SAMPLES, _write_video
from vision.frames._sources import open_source
from vision.frames._video_file import ONE_THREAD_MAX_BPP, VideoFileSource

LIGHT = SAMPLES / "three_cushion_match.mp4"  # 0.3 Mbit/s at 720p60: 0.011 bits a pixel


def _cores(monkeypatch: pytest.MonkeyPatch, n: int) -> None:
    monkeypatch.setattr(os, "sched_getaffinity", lambda _pid: set(range(n)))


def _bits_per_pixel(source: VideoFileSource) -> float:
    stream = source._stream
    w, h = source.size_px
    return float(stream.bit_rate) / (w * h * source.fps)


def test_a_light_stream_beside_an_analysis_on_two_cores_takes_one_thread(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _cores(monkeypatch, 2)
    source = VideoFileSource(LIGHT, beside_work=True)
    assert _bits_per_pixel(source) <= ONE_THREAD_MAX_BPP
    assert source.decoder_threads == 1
    assert source._stream.codec_context.thread_count == 1
    source.close()


def test_decoding_alone_or_on_more_cores_keeps_ffmpeg_s_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _cores(monkeypatch, 2)
    assert VideoFileSource(LIGHT).decoder_threads == 0  # decoding alone
    _cores(monkeypatch, 8)
    assert VideoFileSource(LIGHT, beside_work=True).decoder_threads == 0


def test_without_an_affinity_call_the_machine_s_cores_count(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """macOS and Windows: ``os.cpu_count``."""
    monkeypatch.delattr(os, "sched_getaffinity")
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    assert VideoFileSource(LIGHT, beside_work=True).decoder_threads == 1
    monkeypatch.setattr(os, "cpu_count", lambda: 16)
    assert VideoFileSource(LIGHT, beside_work=True).decoder_threads == 0


def test_a_heavy_stream_keeps_ffmpeg_s_threads(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """Noise encodes at several bits a pixel: one thread could not keep up."""
    path = tmp_path / "noise.mp4"
    _write_video(path, [i * 1000 for i in range(30)])
    _cores(monkeypatch, 2)
    source = VideoFileSource(path, beside_work=True)
    assert _bits_per_pixel(source) > ONE_THREAD_MAX_BPP
    assert source.decoder_threads == 0
    source.close()


def test_one_thread_decodes_the_very_frames_and_times_of_frame_threads(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    _cores(monkeypatch, 2)
    one = open_source(LIGHT, beside_work=True)
    assert isinstance(one, VideoFileSource) and one.decoder_threads == 1
    usual = open_source(LIGHT)
    n = 0
    for a, b in zip(one, usual, strict=True):
        assert (a.frame_idx, a.t_s) == (b.frame_idx, b.t_s)
        if a.frame_idx % 97 == 0:  # every pixel of a sample of frames
            assert np.array_equal(a.image_bgr, b.image_bgr)
        n += 1
    assert n > 1000

"""Frame sources on real files: the sample videos, cut and fake files, image folders, VFR."""

from __future__ import annotations

import json
from collections.abc import Iterable
from fractions import Fraction
from pathlib import Path

import av
import cv2
import numpy as np
import pytest

from vision._types import Frame, VideoError
from vision.frames._sources import (
    FrameSource,
    ImageSource,
    VideoFileSource,
    decode_only,
    key_frame_times_s,
    open_source,
)

SAMPLES = Path(__file__).resolve().parents[3] / "sample_videos"


def _write_video(
    path: Path, pts: list[int], *, faststart: bool = False, gop: int = 0, moving: bool = False
) -> None:
    """An H.264 file with frames at ``pts`` (units of 1/30000 s), noisy 160x120 frames.

    ``gop``: a key frame every that many frames (0: the encoder's choice); ``moving``:
    one smooth picture moving 2 px a frame instead of noise (the encoder makes B-frames).
    """
    options = {"movflags": "faststart"} if faststart else {}
    container = av.open(str(path), "w", options=options)
    stream = container.add_stream("libx264", rate=30)
    stream.width, stream.height, stream.pix_fmt = 160, 120, "yuv420p"
    if gop:
        stream.codec_context.gop_size = gop
    stream.codec_context.time_base = stream.time_base = Fraction(1, 30000)
    rng = np.random.default_rng(0)
    yy, xx = np.mgrid[0:120, 0:160]
    smooth = np.dstack([(xx * 3) % 256, (yy * 2) % 256, (xx + yy) % 256]).astype(np.uint8)
    for i, p in enumerate(pts):
        if moving:
            image = np.roll(smooth, 2 * i, axis=1)
        else:
            image = rng.integers(0, 255, (120, 160, 3), dtype=np.uint8)
        frame = av.VideoFrame.from_ndarray(image, format="bgr24")
        frame.pts, frame.time_base = p, Fraction(1, 30000)
        for packet in stream.encode(frame):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()


def _indices(source: FrameSource, seen: list[int]) -> list[int]:
    """Frame indices of ``source``, appended to ``seen`` as they come (kept on error)."""
    for frame in source:
        seen.append(frame.frame_idx)
    return []


def test_sample_video_frames_and_times_match_truth() -> None:
    truth = json.loads((SAMPLES / "balkline_47_2.json").read_text())
    source = open_source(str(SAMPLES / "balkline_47_2.mp4"))
    assert isinstance(source, FrameSource)
    assert source.fps == pytest.approx(truth["video"]["fps"])
    assert source.size_px == (truth["video"]["width_px"], truth["video"]["height_px"])
    times, first = [], None
    for frame in source:
        times.append(frame.t_s)
        if first is None:
            first = frame.image_bgr
    assert len(times) == truth["video"]["n_frames"]
    want = np.array([f["t_s"] for f in truth["frames"]])
    assert np.max(np.abs(np.array(times) - want)) < 1e-3
    assert first is not None and first.shape == (720, 1280, 3) and first.dtype == np.uint8
    assert isinstance(source, VideoFileSource) and source.dropped_frames == 0


def test_truncated_video_yields_frames_then_raises(tmp_path: Path) -> None:
    whole = tmp_path / "whole.mp4"
    _write_video(whole, [i * 1000 for i in range(60)], faststart=True)
    data = whole.read_bytes()
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(data[: len(data) // 2])
    got: list[int] = []
    with pytest.raises(VideoError, match=r"cut\.mp4.*truncated"):
        got.extend(_indices(open_source(str(cut)), got))
    assert 5 < len(got) < 60
    assert got == list(range(len(got)))


def test_video_cut_before_its_index_is_refused(tmp_path: Path) -> None:
    data = (SAMPLES / "balkline_47_2.mp4").read_bytes()
    cut = tmp_path / "half.mp4"
    cut.write_bytes(data[: len(data) // 2])  # the index (moov) sits at the end
    with pytest.raises(VideoError, match=r"half\.mp4: cut off before its end \(the index"):
        list(open_source(str(cut)))


def test_a_file_spoilt_mid_way_names_ffmpeg_s_reason_not_its_error_number(
    tmp_path: Path,
) -> None:
    """Noise over a stretch of a Matroska file's frames: the frames before, then one line."""
    whole, spoilt = tmp_path / "whole.mkv", tmp_path / "spoilt.mkv"
    with av.open(str(SAMPLES / "balkline_47_2.mp4")) as inp, av.open(str(whole), "w") as out:
        stream = out.add_stream_from_template(inp.streams.video[0])
        for packet in inp.demux(inp.streams.video[0]):
            if packet.dts is not None:
                packet.stream = stream
                out.mux(packet)
    data = bytearray(whole.read_bytes())
    at = len(data) // 3
    data[at : at + 200_000] = np.random.default_rng(1).integers(0, 256, 200_000, np.uint8).tobytes()
    spoilt.write_bytes(bytes(data))
    got: list[int] = []
    with pytest.raises(VideoError) as caught:
        got.extend(_indices(open_source(str(spoilt)), got))
    assert str(caught.value) == (
        f"video {spoilt}: cannot decode (Invalid data found when processing input); "
        "check the file is a whole video"
    )
    assert len(got) > 10


def test_non_video_and_missing_files(tmp_path: Path) -> None:
    text = tmp_path / "notes.mp4"
    text.write_text("not a video at all\n" * 50)
    with pytest.raises(VideoError, match=r"notes\.mp4: not a readable video \(Invalid data "
                       r"found when processing input\); give a video file"):  # fmt: skip
        list(open_source(str(text)))
    with pytest.raises(VideoError, match="no such file"):
        open_source(str(tmp_path / "missing.mp4"))
    with pytest.raises(VideoError, match="a folder, not a video file; give the path of a video"):
        VideoFileSource(tmp_path)  # as carom live --camera FOLDER opens it: not "no such file"
    for suffix in (".png", ".jpg"):  # one picture is not a one-frame video
        picture = tmp_path / f"table{suffix}"
        assert cv2.imwrite(str(picture), np.full((30, 40, 3), 90, np.uint8))
        with pytest.raises(VideoError, match="a still picture, not a video"):
            open_source(str(picture))


def test_image_folder_and_glob(tmp_path: Path) -> None:
    for i in (2, 0, 1):
        image = np.full((30, 40, 3), 50 * i, np.uint8)
        assert cv2.imwrite(str(tmp_path / f"f{i:03d}.png"), image)
    (tmp_path / "readme.txt").write_text("ignored")
    source = open_source(str(tmp_path), fps=10.0)
    assert isinstance(source, ImageSource) and source.size_px == (40, 30)
    frames = list(source)
    assert [f.t_s for f in frames] == pytest.approx([0.0, 0.1, 0.2])
    assert [int(f.image_bgr[0, 0, 0]) for f in frames] == [0, 50, 100]
    globbed = list(open_source(str(tmp_path / "f00[12].png")))
    assert [f.t_s for f in globbed] == pytest.approx([0.0, 1 / 30])
    with pytest.raises(VideoError, match="no image files"):
        open_source(str(tmp_path / "*.jpg"))


def test_variable_frame_rate_times_and_dropped_frames(tmp_path: Path) -> None:
    pts = [0, 1000, 2000, 3000, 6000, 7000, 8500, 9000, 14000]
    path = tmp_path / "vfr.mp4"
    _write_video(path, pts)
    source = open_source(str(path))
    times = [f.t_s for f in source]
    assert times == pytest.approx([p / 30000 for p in pts], abs=1e-6)
    # 3000 -> 6000 misses two frames, 9000 -> 14000 misses four; 1.5 durations is no drop.
    assert isinstance(source, VideoFileSource) and source.dropped_frames == 6


def test_decode_only_counts_frames(tmp_path: Path) -> None:
    path = tmp_path / "short.mp4"
    _write_video(path, [i * 1000 for i in range(12)])
    n, seconds = decode_only(path)
    assert n == 12 and seconds > 0.0
    assert decode_only(path, max_frames=5)[0] == 5


def test_frames_are_bgr_as_opencv_converts_the_planes(tmp_path: Path) -> None:
    # Flat colour patches survive H.264; the BGR must be the YUV frame's colours (the
    # converter may differ from OpenCV's by rounding only), in (h, w, 3) uint8 order.
    path = tmp_path / "patches.mp4"
    container = av.open(str(path), "w")
    stream = container.add_stream("libx264", rate=30)
    stream.width, stream.height, stream.pix_fmt = 160, 120, "yuv420p"
    image = np.zeros((120, 160, 3), np.uint8)
    image[:, :80] = (200, 150, 60)  # blue cloth (B, G, R)
    image[:60, 80:] = (40, 200, 235)  # yellow
    image[60:, 80:] = (45, 30, 200)  # red
    for _ in range(3):
        for packet in stream.encode(av.VideoFrame.from_ndarray(image, format="bgr24")):
            container.mux(packet)
    for packet in stream.encode():
        container.mux(packet)
    container.close()
    with av.open(str(path)) as reader:
        av_frame = next(reader.decode(video=0))
        ref = cv2.cvtColor(av_frame.to_ndarray(format="yuv420p"), cv2.COLOR_YUV2BGR_I420)
    frame = next(iter(open_source(str(path))))
    got = frame.image_bgr
    assert got.shape == (120, 160, 3) and got.dtype == np.uint8
    assert np.abs(got.astype(int) - ref.astype(int)).max() <= 4
    for (v, u), bgr in (((60, 40), (200, 150, 60)), ((30, 120), (40, 200, 235))):
        assert np.abs(got[v, u].astype(int) - bgr).max() <= 8


def test_skipping_the_deblocking_filter_keeps_frames_and_times(tmp_path: Path) -> None:
    path = tmp_path / "short.mp4"
    _write_video(path, [i * 1000 for i in range(8)])
    plain = list(VideoFileSource(path))
    fast = list(VideoFileSource(path, deblock=False))
    assert [f.t_s for f in fast] == [f.t_s for f in plain]
    assert all(f.image_bgr.shape == (120, 160, 3) for f in fast)
    assert decode_only(path, deblock=False)[0] == 8


def _seen(frames: Iterable[Frame]) -> list[tuple[int, float, bytes]]:
    return [(f.frame_idx, f.t_s, f.image_bgr.tobytes()) for f in frames]


@pytest.mark.parametrize("exact", [True, False])
def test_a_read_started_mid_file_gives_what_a_whole_read_gives(tmp_path: Path, exact: bool) -> None:
    """Seeking (a key frame every 0.5 s, the first frame at 0.1 s, not 0) or decoding up
    to the start: the same indexes, times and pictures as a whole read from there on."""
    path = tmp_path / "gop.mp4"
    _write_video(path, [3000 + i * 1000 for i in range(90)], gop=15)
    whole = _seen(VideoFileSource(path, exact=exact, ahead=0))
    assert whole[0][:2] == (0, 0.0)
    for start_s in (0.2, 1.0, 1.7, 2.0 + 1e-3, 2.95):
        want = [f for f in whole if f[1] >= start_s - 1e-6]
        got = _seen(VideoFileSource(path, exact=exact, ahead=0, start_s=start_s))
        assert got == want, start_s


def test_a_start_past_the_end_is_refused_unless_the_length_goes_unchecked(
    tmp_path: Path,
) -> None:
    path = tmp_path / "short.mp4"
    _write_video(path, [i * 1000 for i in range(30)], gop=10)
    with pytest.raises(VideoError, match=r"no frame at or after 5 s; it ends at 1\.00 s"):
        list(VideoFileSource(path, start_s=5.0))
    assert list(VideoFileSource(path, start_s=5.0, check_length=False)) == []
    with pytest.raises(VideoError, match="start_s -1 must be a time >= 0 s"):
        VideoFileSource(path, start_s=-1)


def test_a_cut_file_read_without_the_length_check_just_ends(tmp_path: Path) -> None:
    whole = tmp_path / "whole.mp4"
    _write_video(whole, [i * 1000 for i in range(60)], faststart=True)
    cut = tmp_path / "cut.mp4"
    cut.write_bytes(whole.read_bytes()[: len(whole.read_bytes()) // 2])
    got = [f.frame_idx for f in VideoFileSource(cut, check_length=False)]
    assert 5 < len(got) < 60 and got == list(range(len(got)))


def test_an_image_sequence_starts_at_the_given_time(tmp_path: Path) -> None:
    for i in range(4):
        assert cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((30, 40, 3), 50 * i, np.uint8))
    frames = list(open_source(str(tmp_path), fps=10.0, start_s=0.2))
    assert [(f.frame_idx, int(f.image_bgr[0, 0, 0])) for f in frames] == [(2, 100), (3, 150)]


@pytest.mark.parametrize("ahead", [0, 16])
def test_a_sparse_read_gives_some_of_a_whole_reads_frames_unchanged(
    tmp_path: Path, ahead: int
) -> None:
    """After ``sparse_after_idx`` the frames no other refers to are not decoded: the
    ones that come are the whole read's, with the same indexes, times and pictures."""
    path = tmp_path / "bframes.mp4"
    _write_video(path, [i * 1000 for i in range(90)], gop=30, moving=True)
    whole = _seen(VideoFileSource(path, ahead=0))
    source = VideoFileSource(path, ahead=ahead, sparse_after_idx=20)
    sparse = _seen(source)
    assert sparse[:21] == whole[:21]
    assert set(sparse) <= set(whole)
    assert 45 <= len(sparse) < len(whole)  # the encoder's B-frames are skipped
    assert source.dropped_frames == 0
    assert [f[0] for f in sparse] == sorted({f[0] for f in sparse})


@pytest.mark.parametrize("ahead", [0, 16])
def test_a_key_frame_read_gives_the_whole_reads_key_frames_and_no_cut_file(
    tmp_path: Path, ahead: int
) -> None:
    """``sparse_keys``: after ``sparse_after_idx`` (and the few frames already in the
    decoder) only the key frames come, as the whole read gives them; the frames after
    the last key frame are no cut."""
    path = tmp_path / "keys.mp4"
    _write_video(path, [i * 1000 for i in range(99)], gop=15, moving=True)
    with av.open(str(path)) as container:
        keys = [i for i, f in enumerate(container.decode(video=0)) if f.key_frame]
    assert keys[:3] == [0, 15, 30] and keys[-1] <= 90
    whole = _seen(VideoFileSource(path, ahead=0))
    source = VideoFileSource(path, ahead=ahead, sparse_after_idx=20, sparse_keys=True)
    sparse = _seen(source)
    assert sparse[:21] == whole[:21]
    assert set(sparse) <= set(whole)
    assert [f for f in sparse if f[0] >= 30] == [whole[i] for i in keys if i >= 30]


def test_key_frame_times_come_from_the_packets(tmp_path: Path) -> None:
    path = tmp_path / "keys.mp4"
    _write_video(path, [3000 + i * 1000 for i in range(99)], gop=15, moving=True)
    with av.open(str(path)) as container:
        first = None
        keys = []
        for f in container.decode(video=0):
            first = f.time if first is None else first
            if f.key_frame:
                keys.append(f.time - first)
    assert key_frame_times_s(path, 10.0) == pytest.approx(keys)
    assert key_frame_times_s(path, 1.0) == pytest.approx([t for t in keys if t <= 1.0])
    with pytest.raises(VideoError, match="no such file"):
        key_frame_times_s(tmp_path / "none.mp4", 1.0)


def test_image_folders_ignore_a_sparse_read(tmp_path: Path) -> None:
    for i in range(5):
        cv2.imwrite(str(tmp_path / f"f{i}.png"), np.full((8, 8, 3), i, np.uint8))
    frames = list(open_source(str(tmp_path), sparse_after_idx=1))
    assert [f.frame_idx for f in frames] == [0, 1, 2, 3, 4]

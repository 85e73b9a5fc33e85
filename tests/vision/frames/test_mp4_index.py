"""An MP4 cut off before its index was written is told apart from other unreadable files."""

from __future__ import annotations

from pathlib import Path

import av
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from vision import VideoError, open_source
from vision.frames._mp4_index import index_missing

SAMPLES = Path(__file__).parents[3] / "sample_videos"
#: Written with its index (moov) after the frames (mdat), as a camera writes.
SAMPLE = SAMPLES / "three_cushion_match.mp4"


def _boxes(path: Path) -> list[bytes]:
    data, at, kinds = path.read_bytes(), 0, []
    while at + 8 <= len(data):
        kinds.append(data[at + 4 : at + 8])
        at += int.from_bytes(data[at : at + 4], "big")
    return kinds


def _remuxed(path: Path, **options: str) -> Path:
    """``SAMPLE``'s packets copied into ``path`` (a container by its suffix)."""
    with av.open(str(SAMPLE)) as inp, av.open(str(path), "w", options=options) as out:
        stream = out.add_stream_from_template(inp.streams.video[0])
        for packet in inp.demux(inp.streams.video[0]):
            if packet.dts is not None:
                packet.stream = stream
                out.mux(packet)
    return path


@pytest.fixture(scope="module")
def faststart(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The sample with its index first, as a web encoder writes it."""
    path = tmp_path_factory.mktemp("faststart") / "faststart.mp4"
    return _remuxed(path, movflags="faststart")


def test_the_two_layouts_a_camera_and_a_web_encoder_write(faststart: Path) -> None:
    assert _boxes(SAMPLE).index(b"mdat") < _boxes(SAMPLE).index(b"moov")
    assert _boxes(faststart).index(b"moov") < _boxes(faststart).index(b"mdat")


@pytest.mark.parametrize("share", [0.02, 0.5, 0.99])
def test_a_recording_cut_before_its_index_is_named_so(tmp_path: Path, share: float) -> None:
    cut = tmp_path / "cut.mp4"
    data = SAMPLE.read_bytes()
    cut.write_bytes(data[: int(len(data) * share)])
    assert index_missing(cut)
    with pytest.raises(VideoError, match=r"cut\.mp4: cut off before its end \(the index"):
        open_source(str(cut))


def test_whole_files_faststart_cuts_and_other_formats_are_not(
    tmp_path: Path, faststart: Path
) -> None:
    assert not index_missing(SAMPLE) and not index_missing(faststart)
    cut = tmp_path / "faststart_cut.mp4"
    data = faststart.read_bytes()
    cut.write_bytes(data[: len(data) // 2])  # its index came first: it is still there
    assert not index_missing(cut)
    mkv = _remuxed(tmp_path / "clip.mkv")
    data = mkv.read_bytes()
    mkv.write_bytes(data[: len(data) // 2])
    assert not index_missing(mkv)
    assert not index_missing(tmp_path / "no such file.mp4")
    (tmp_path / "text.mp4").write_text("not a video")
    assert not index_missing(tmp_path / "text.mp4")


_BOX = st.tuples(st.sampled_from([b"mdat", b"moov", b"free", b"uuid"]),
                 st.integers(0, 40), st.booleans())  # fmt: skip


def _box(kind: bytes, payload: int, wide: bool) -> bytes:
    """A box of ``payload`` zero bytes; ``wide``: its size in the 64-bit field."""
    if wide:
        return (1).to_bytes(4, "big") + kind + (16 + payload).to_bytes(8, "big") + bytes(payload)
    return (8 + payload).to_bytes(4, "big") + kind + bytes(payload)


@settings(max_examples=300, deadline=None)
@given(st.lists(_BOX, max_size=8), st.integers(0, 400))
def test_the_walk_finds_the_boxes_that_begin_before_the_cut(
    boxes: list[tuple[bytes, int, bool]], cut: int
) -> None:
    """Random top-level boxes (32- and 64-bit sizes) after an ``ftyp``, cut anywhere: the
    answer is the one the boxes whose 8-byte header lies before the cut give."""
    import tempfile

    data, starts = _box(b"ftyp", 8, False), []
    for kind, payload, wide in boxes:
        starts.append(len(data))
        data += _box(kind, payload, wide)
    data = data[: 16 + cut]
    seen = [kind for (kind, _, _), at in zip(boxes, starts, strict=True) if at + 8 <= len(data)]
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "x.mp4"
        path.write_bytes(data)
        assert index_missing(path) == (b"mdat" in seen and b"moov" not in seen)

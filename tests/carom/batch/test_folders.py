"""Each video's folder installed whole or not at all; the marker decides what is finished."""

from __future__ import annotations

import json
import os
import signal
from pathlib import Path

import pytest

from carom.batch import MARKER, JobStatus, VideoResult, finished_key
from carom.batch._folders import PARTIAL, clear_partials, install, read_marker
from referee import CaromError

SOURCE = "/videos/final.mp4"


def result(
    files: dict[str, bytes], status: JobStatus = JobStatus.DONE, key: str = "k1", **more: object
) -> VideoResult:
    return VideoResult(name="final", status=status, key=key, files=files, **more)  # type: ignore[arg-type]


def tree(folder: Path) -> dict[str, bytes]:
    """Every file under ``folder`` by its relative path."""
    return {p.relative_to(folder).as_posix(): p.read_bytes()
            for p in sorted(folder.rglob("*")) if p.is_file()}  # fmt: skip


def no_leftovers(out: Path) -> None:
    partial = out / PARTIAL
    assert not partial.exists() or list(partial.iterdir()) == []


def test_install_puts_the_files_and_the_marker_last(tmp_path: Path) -> None:
    files = {"shots.json": b"[1]", "report.html": b"<p>", "calibration/table.json": b"{}"}
    done = result(files, error=None, video_s=12.3456, frames=308, shots=5)
    folder = install(tmp_path, done, SOURCE)
    assert folder == tmp_path / "final"
    got = tree(folder)
    marker = json.loads(got.pop(MARKER))
    assert got == files
    assert marker == {"format": "carom-batch-video/1", "key": "k1", "source": SOURCE,
                      "status": "done", "error": None, "video_s": 12.346, "frames": 308,
                      "shots": 5}  # fmt: skip
    assert finished_key(folder) == "k1"
    no_leftovers(tmp_path)


def test_a_second_install_replaces_the_folder_whole(tmp_path: Path) -> None:
    install(tmp_path, result({"shots.json": b"old", "annotated.mp4": b"old video"}), SOURCE)
    install(tmp_path, result({"shots.json": b"new"}, key="k2"), SOURCE)
    got = tree(tmp_path / "final")
    assert set(got) == {"shots.json", MARKER}  # the old annotated video is gone
    assert got["shots.json"] == b"new"
    assert finished_key(tmp_path / "final") == "k2"
    no_leftovers(tmp_path)


def test_a_failure_while_staging_leaves_the_earlier_folder_as_it_was(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    install(tmp_path, result({"shots.json": b"old", "report.html": b"old"}), SOURCE)
    before = tree(tmp_path / "final")
    real = Path.write_bytes
    calls = []

    def second_fails(self: Path, data: bytes) -> int:
        calls.append(self)
        if len(calls) == 2:
            raise OSError(28, "No space left on device")
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", second_fails)
    with pytest.raises(CaromError) as err:
        install(tmp_path, result({"shots.json": b"new", "report.html": b"new"}, key="k2"), SOURCE)
    monkeypatch.undo()
    message = str(err.value)
    assert message.startswith(f"{tmp_path / 'final'}: cannot write the results")
    assert "No space left on device" in message and "\n" not in message
    assert len(calls) == 2
    assert tree(tmp_path / "final") == before
    assert finished_key(tmp_path / "final") == "k1"
    no_leftovers(tmp_path)


@pytest.mark.parametrize(
    "rel", ["../escape.json", "a/../../escape.json", "/etc/passwd", "", ".", MARKER]
)
def test_a_worker_file_outside_the_folder_or_the_marker_is_refused(
    tmp_path: Path, rel: str
) -> None:
    install(tmp_path, result({"shots.json": b"old"}), SOURCE)
    before = tree(tmp_path / "final")
    with pytest.raises(CaromError, match="which is not a results file") as err:
        install(tmp_path, result({"shots.json": b"new", rel: b"evil"}, key="k2"), SOURCE)
    assert "\n" not in str(err.value)
    assert tree(tmp_path / "final") == before
    assert not (tmp_path / "escape.json").exists()
    no_leftovers(tmp_path)


def test_a_nested_relative_path_is_kept(tmp_path: Path) -> None:
    folder = install(tmp_path, result({"a/b/c.csv": b"1", "./d.json": b"2"}), SOURCE)
    assert tree(folder)["a/b/c.csv"] == b"1"
    assert tree(folder)["d.json"] == b"2"


@pytest.mark.parametrize("status", [JobStatus.FAILED, JobStatus.SKIPPED, JobStatus.DUPLICATE])
def test_only_a_done_folder_is_finished(tmp_path: Path, status: JobStatus) -> None:
    folder = install(tmp_path, result({}, status=status, error="why"), SOURCE)
    assert read_marker(folder) is not None
    assert finished_key(folder) is None


@pytest.mark.parametrize(
    "marker",
    [None, b"", b"{not json", b"[]", b'{"format": "other/1", "status": "done", "key": "k"}',
     b'{"format": "carom-batch-video/1", "status": "done", "key": 3}'],
    ids=["none", "empty", "not-json", "list", "other-format", "key-not-text"],
)  # fmt: skip
def test_a_folder_without_a_good_marker_is_not_finished(
    tmp_path: Path, marker: bytes | None
) -> None:
    folder = tmp_path / "final"
    folder.mkdir()
    (folder / "shots.json").write_bytes(b"[]")
    if marker is not None:
        (folder / MARKER).write_bytes(marker)
    assert finished_key(folder) is None
    assert finished_key(tmp_path / "absent") is None


def test_clear_partials_removes_what_a_killed_run_left(tmp_path: Path) -> None:
    half = tmp_path / PARTIAL / "final.1234"
    half.mkdir(parents=True)
    (half / "shots.json").write_bytes(b"[")
    (tmp_path / "kept").mkdir()
    clear_partials(tmp_path)
    assert not (tmp_path / PARTIAL).exists()
    assert (tmp_path / "kept").is_dir()
    clear_partials(tmp_path)  # nothing to remove: no error


def test_ctrl_c_during_an_install_comes_after_the_folder_is_whole(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    real = Path.write_bytes

    def interrupted(self: Path, data: bytes) -> int:
        os.kill(os.getpid(), signal.SIGINT)
        return real(self, data)

    monkeypatch.setattr(Path, "write_bytes", interrupted)
    before = signal.signal(signal.SIGINT, signal.default_int_handler)  # as a plain `carom`
    try:
        with pytest.raises(KeyboardInterrupt):
            install(tmp_path, result({"shots.json": b"1", "report.html": b"2"}), SOURCE)
    finally:
        signal.signal(signal.SIGINT, before)
    monkeypatch.undo()
    assert set(tree(tmp_path / "final")) == {"shots.json", "report.html", MARKER}
    assert finished_key(tmp_path / "final") == "k1"
    no_leftovers(tmp_path)

"""Planning a batch: keys, duplicates, folder names, what an earlier run finished, hashing."""

from __future__ import annotations

import argparse
import hashlib
import json
import os
from pathlib import Path

import pytest

import carom.batch._key
from calibration import Calibration, Camera, TableGeometry, save_calibration
from carom.batch import JobStatus, PlannedVideo, VideoResult, expand_sources, plan_batch
from carom.batch._folders import install
from carom.batch._index import PreviousIndex, read_previous, write_index
from carom.cli import _batch
from referee import CaromError, Table

SAMPLES = Path(__file__).parents[3] / "sample_videos"

VERSION = "0.0-test"


def calibration_file(path: Path, created: str = "2026-12-06") -> Path:
    """A calibration of the match table (the bundled sample's camera) at ``path``."""
    truth = json.loads((SAMPLES / "three_cushion_match.json").read_text())
    camera = Camera.from_dict(truth["camera"])
    save_calibration(path, Calibration(TableGeometry(Table()), camera, created))
    return path


def test_a_calibration_file_of_another_table_or_none_at_all_is_refused_at_once(
    tmp_path: Path,
) -> None:
    """Before any work, naming the user's file (each video failed, naming a copy)."""
    a = video(tmp_path / "a.mp4", b"x")
    cal = calibration_file(tmp_path / "cal.json")
    with pytest.raises(CaromError, match=r"made for a 2840x1420 mm table, .* for 2100x1050"):
        plan(tmp_path / "out", a, options=("--calibration", str(cal), "--table", "2100x1050"))
    cal.write_text('{"a": 1}')
    with pytest.raises(CaromError, match=r"calibration file .*cal\.json: not a carom-calibration"):
        plan(tmp_path / "out", a, options=("--calibration", str(cal)))


def batch_args(*argv: str) -> argparse.Namespace:
    """``carom batch ARGV`` as its own parser reads it."""
    parser = argparse.ArgumentParser()
    _batch.add_parser(parser.add_subparsers())
    return parser.parse_args(["batch", *argv])


def plan(
    out: Path, *sources: str | Path, options: tuple[str, ...] = (), previous: bool = True
) -> list[PlannedVideo]:
    """``carom batch SOURCES --out OUT OPTIONS`` planned, with ``out``'s index if ``previous``."""
    args = batch_args(*map(str, sources), "--out", str(out), *options)
    entries = expand_sources(args.sources, out)
    earlier = read_previous(out) if previous else PreviousIndex()
    return plan_batch(entries, args, out, earlier, VERSION)


def keep_index(out: Path, plans: list[PlannedVideo]) -> None:
    """Write the plan's index, as a run would before it starts."""
    write_index(out, [p.entry for p in plans], {})


def video(path: Path, data: bytes) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_bytes(data)
    return path


def manifest(path: Path, *rows: tuple[str, str]) -> Path:
    """A CSV manifest of ``(path, players)`` rows."""
    lines = ["path,players", *(f'{p},"{players}"' for p, players in rows)]
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def finish(out: Path, p: PlannedVideo, status: JobStatus = JobStatus.DONE, key: str = "") -> None:
    """Install a result for ``p`` as a worker would have sent it."""
    assert p.job is not None
    result = VideoResult(
        name=p.entry.name, status=status, key=key or p.job.key or "",
        files={"shots.json": b"{}"}, video_s=12.5, frames=300, shots=4,
    )  # fmt: skip
    install(out, result, p.entry.source)


def test_a_job_carries_the_video_s_hash_in_its_key_and_the_options(tmp_path: Path) -> None:
    data = b"frames of a match"
    a = video(tmp_path / "a.mp4", data)
    (p,) = plan(tmp_path / "out", a, options=("--players", "Ana,Ben", "--detector", "color"))
    assert p.job is not None and p.entry.status is None
    assert p.entry.sha256 == hashlib.sha256(data).hexdigest()
    assert p.job.key is not None and p.job.key.startswith(hashlib.sha256(data).hexdigest()[:16])
    assert p.entry.key == p.job.key
    assert p.entry.size_bytes == len(data)
    assert p.job.settings.match.players == ("Ana", "Ben")
    assert p.job.settings.detector == "color"
    assert p.entry.name == "a"
    assert p.expected_s is None  # not a video: no length from the header


def test_the_same_bytes_under_two_names_is_a_duplicate_of_the_first(tmp_path: Path) -> None:
    a = video(tmp_path / "a.mp4", b"same")
    b = video(tmp_path / "sub" / "b.mp4", b"same")
    first, second = plan(tmp_path / "out", a, b)
    assert first.job is not None and first.entry.status is None
    assert second.job is None
    assert second.entry.status is JobStatus.DUPLICATE
    assert second.entry.duplicate_of == second.entry.name == first.entry.name == "a"
    assert second.entry.sha256 == first.entry.sha256


def test_the_same_bytes_with_other_players_are_two_jobs(tmp_path: Path) -> None:
    video(tmp_path / "a.mp4", b"same")
    m = manifest(tmp_path / "m.csv", ("a.mp4", "Ana,Ben"), ("a.mp4", "Cem,Dan"))
    first, second = plan(tmp_path / "out", m)
    assert first.job is not None and second.job is not None
    assert second.entry.status is None and second.entry.duplicate_of is None
    assert first.job.key != second.job.key
    assert first.entry.sha256 == second.entry.sha256
    assert first.entry.name != second.entry.name
    assert first.job.settings.match.players == ("Ana", "Ben")
    assert second.job.settings.match.players == ("Cem", "Dan")


def test_the_same_video_with_other_players_keeps_its_folders_from_run_to_run(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    video(tmp_path / "a.mp4", b"same")
    m = manifest(tmp_path / "m.csv", ("a.mp4", "Ana,Ben"), ("a.mp4", "Cem,Dan"))
    plans = plan(out, m)
    for p in plans:
        finish(out, p)
    keep_index(out, plans)
    again = plan(out, m)
    assert [p.entry.name for p in again] == [p.entry.name for p in plans]
    assert [p.entry.status for p in again] == [JobStatus.SKIPPED, JobStatus.SKIPPED]


def test_two_files_with_one_stem_get_two_folders_kept_by_the_next_run(tmp_path: Path) -> None:
    out = tmp_path / "out"
    x = video(tmp_path / "x" / "match.mp4", b"table one")
    y = video(tmp_path / "y" / "match.mp4", b"table two")
    plans = plan(out, x, y)
    names = [p.entry.name for p in plans]
    assert names[0] == "match" and names[1].startswith("match-") and len(set(names)) == 2
    keep_index(out, plans)
    assert [p.entry.name for p in plan(out, x, y)] == names
    assert [p.entry.name for p in plan(out, y, x)] == names[::-1]  # by source, not by order
    assert [p.entry.name for p in plan(out, x, y, previous=False)] == names  # stable as well


def test_a_new_file_with_the_same_stem_does_not_take_an_earlier_video_s_folder(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    x = video(tmp_path / "x" / "match.mp4", b"table one")
    (first,) = plan(out, x)
    finish(out, first)
    keep_index(out, [first])
    new = video(tmp_path / "a" / "match.mp4", b"another table")
    fresh, old = plan(out, new, x)
    assert old.entry.name == "match"
    assert old.entry.status is JobStatus.SKIPPED
    assert fresh.entry.name not in ("match", old.entry.name)
    assert fresh.job is not None


@pytest.mark.parametrize("status", [JobStatus.DONE, JobStatus.FAILED])
def test_a_batch_of_other_sources_does_not_take_a_folder_holding_another_video(
    tmp_path: Path, status: JobStatus
) -> None:
    """February's table1.mp4, then a batch of March's folder only (its own table1.mp4):
    the index of the second run no longer names February's video, but its folder's
    marker does, so March's gets a folder of its own (before, it replaced February's
    match and its shots were lost)."""
    out = tmp_path / "out"
    feb = video(tmp_path / "feb" / "table1.mp4", b"february's match")
    (first,) = plan(out, feb)
    finish(out, first, status)
    keep_index(out, [first])
    mar = video(tmp_path / "mar" / "table1.mp4", b"march's match")
    (second,) = plan(out, mar)
    assert second.entry.name.startswith("table1-") and second.job is not None
    keep_index(out, [second])
    (third,) = plan(out, mar)  # and the next run of March keeps it there
    assert third.entry.name == second.entry.name
    (again,) = plan(out, feb, previous=False)  # February's own folder stays its own
    assert again.entry.name == "table1"


def test_a_manifest_row_of_a_missing_file_or_a_folder_names_the_row_and_the_way_out(
    tmp_path: Path,
) -> None:
    """Before: ``nothere.mp4: cannot read the video (...); check its rights``."""
    missing = manifest(tmp_path / "m.csv", ("nothere.mp4", "A,B"))
    with pytest.raises(CaromError) as exc:
        plan(tmp_path / "out", missing)
    assert str(exc.value) == (f"{missing} line 2: {tmp_path / 'nothere.mp4'}: cannot read the "
                              "video (No such file or directory); check the path (a manifest's "
                              "are from its own folder)")  # fmt: skip
    folder = manifest(tmp_path / "f.csv", (".", "A,B"))
    with pytest.raises(CaromError, match=r"f.csv line 2: .*\(Is a directory\); give a video fi"):
        plan(tmp_path / "out", folder)


def test_a_finished_folder_of_the_same_key_is_skipped_with_its_figures(tmp_path: Path) -> None:
    out = tmp_path / "out"
    a = video(tmp_path / "a.mp4", b"match")
    (first,) = plan(out, a)
    finish(out, first)
    (again,) = plan(out, a, previous=False)  # the marker decides, not the index
    assert again.job is None
    assert again.entry.status is JobStatus.SKIPPED
    assert again.entry.key == first.entry.key
    assert (again.entry.video_s, again.entry.frames, again.entry.shots) == (12.5, 300, 4)


@pytest.mark.parametrize(
    ("status", "key"), [(JobStatus.FAILED, ""), (JobStatus.DONE, "0123456789abcdef-000000000000")]
)
def test_a_failed_folder_or_one_of_another_key_is_analysed_again(
    tmp_path: Path, status: JobStatus, key: str
) -> None:
    out = tmp_path / "out"
    a = video(tmp_path / "a.mp4", b"match")
    (first,) = plan(out, a)
    finish(out, first, status, key)
    (again,) = plan(out, a)
    assert again.job is not None and first.job is not None
    assert again.entry.status is None
    assert again.job.key == first.job.key


def test_other_options_are_another_key_so_a_finished_folder_is_not_skipped(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    a = video(tmp_path / "a.mp4", b"match")
    (first,) = plan(out, a)
    finish(out, first)
    (other,) = plan(out, a, options=("--no-trajectories",))
    assert other.job is not None and other.job.key != first.entry.key
    assert other.entry.name == first.entry.name  # the same folder, replaced when done


def count_hashing(monkeypatch: pytest.MonkeyPatch) -> list[Path]:
    """The paths :func:`file_sha256` is asked to read from now on."""
    read: list[Path] = []
    real = carom.batch._key.file_sha256

    def counted(path: Path) -> str:
        read.append(path)
        return real(path)

    monkeypatch.setattr("carom.batch._plan.file_sha256", counted)
    return read


def test_an_unchanged_file_is_not_read_again_and_a_touched_one_is(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    out = tmp_path / "out"
    a = video(tmp_path / "a.mp4", b"first")
    b = video(tmp_path / "b.mp4", b"second")
    read = count_hashing(monkeypatch)
    plans = plan(out, a, b)
    assert read == [a, b]
    keep_index(out, plans)
    read.clear()
    assert [p.entry.sha256 for p in plan(out, a, b)] == [p.entry.sha256 for p in plans]
    assert read == []
    st = b.stat()
    os.utime(b, ns=(st.st_atime_ns, st.st_mtime_ns + 1_000_000_000))
    a.write_bytes(b"first, longer")  # another size (its time may not move within a tick)
    os.utime(a, ns=(a.stat().st_atime_ns, plans[0].entry.mtime_ns or 0))
    again = plan(out, a, b)
    assert sorted(read) == sorted([a, b])
    assert again[0].entry.sha256 == hashlib.sha256(b"first, longer").hexdigest()


def test_a_manifest_row_with_bad_players_names_the_row(tmp_path: Path) -> None:
    video(tmp_path / "a.mp4", b"x")
    m = manifest(tmp_path / "m.csv", ("a.mp4", "Ana,Ben"), ("a.mp4", "Ana,Ana"))
    with pytest.raises(CaromError) as err:
        plan(tmp_path / "out", m)
    message = str(err.value)
    assert message.startswith(f"{m} line 3: --players")
    assert "\n" not in message


def test_a_json_manifest_s_players_are_its_names_never_split_again(tmp_path: Path) -> None:
    """A list's names were joined with commas and split again: "Smith, J." made three
    players (Smith, J. and Doe), the match judged as a three-player one."""
    video(tmp_path / "a.mp4", b"x")
    rows = [{"path": "a.mp4", "players": ["Ana Lee", "Ben"]}]
    (tmp_path / "ok.json").write_text(json.dumps(rows), encoding="utf-8")
    (planned,) = plan(tmp_path / "out", tmp_path / "ok.json")
    assert planned.job is not None
    assert planned.job.settings.match.players == ("Ana Lee", "Ben")
    rows = [{"path": "a.mp4", "players": ["Smith, J.", "Doe"]}]
    (tmp_path / "comma.json").write_text(json.dumps(rows), encoding="utf-8")
    with pytest.raises(CaromError) as err:
        plan(tmp_path / "out", tmp_path / "comma.json")
    assert str(err.value) == (
        f"{tmp_path / 'comma.json'} video 1 of the list: --players: a "
        "name may not hold a comma ('Smith, J.'); write it without one"
    )


def test_a_manifest_calibration_is_sent_as_its_bytes_and_a_missing_one_named(
    tmp_path: Path,
) -> None:
    video(tmp_path / "a.mp4", b"x")
    (tmp_path / "cal").mkdir()
    calibration_file(tmp_path / "cal" / "t1.json")
    m = tmp_path / "m.csv"
    m.write_text("path,calibration\na.mp4,cal/t1.json\n", encoding="utf-8")
    (p,) = plan(tmp_path / "out", m)
    assert p.job is not None
    assert p.job.settings.calibration == ("t1.json", (tmp_path / "cal" / "t1.json").read_bytes())
    m.write_text("path,calibration\na.mp4,cal/none.json\n", encoding="utf-8")
    with pytest.raises(CaromError, match=rf"^{m} line 2: --calibration .*none\.json: cannot read"):
        plan(tmp_path / "out", m)


def test_a_calibration_with_other_contents_is_another_key(tmp_path: Path) -> None:
    a = video(tmp_path / "a.mp4", b"x")
    cal = calibration_file(tmp_path / "cal.json", "2026-12-01")
    (first,) = plan(tmp_path / "out", a, options=("--calibration", str(cal)))
    calibration_file(cal, "2026-12-02")
    (second,) = plan(tmp_path / "out", a, options=("--calibration", str(cal)))
    assert first.entry.key != second.entry.key


def test_a_video_named_after_the_index_gets_another_folder(tmp_path: Path) -> None:
    v = video(tmp_path / "batch.json.mp4", b"x")
    stats = video(tmp_path / "stats.html.mkv", b"y")
    hidden = video(tmp_path / ".partial.mp4", b"z")
    names = [p.entry.name for p in plan(tmp_path / "out", v, stats, hidden)]
    assert names[0].startswith("batch.json-") and names[1].startswith("stats.html-")
    assert names[2] == "partial"  # never a hidden folder
    assert not {"batch.json", "stats.html", ".partial"} & set(names)


def test_a_manifest_name_is_the_folder(tmp_path: Path) -> None:
    video(tmp_path / "a.mp4", b"x")
    m = tmp_path / "m.csv"
    m.write_text("path,name\na.mp4,Final 2026/table 1\n", encoding="utf-8")
    (p,) = plan(tmp_path / "out", m)
    assert p.entry.name == "Final_2026_table_1"


def test_a_url_is_a_job_hashed_by_its_worker_and_twice_a_duplicate(tmp_path: Path) -> None:
    url = "https://example.invalid/season/final.mp4"
    first, second = plan(tmp_path / "out", url, url)
    assert first.job is not None and first.job.key is None and first.entry.sha256 is None
    assert first.entry.name == "final"
    assert second.entry.status is JobStatus.DUPLICATE and second.entry.duplicate_of == "final"


def test_a_url_whose_folder_is_finished_is_a_job_that_knows_the_folder_s_key(
    tmp_path: Path,
) -> None:
    out = tmp_path / "out"
    url = "https://example.invalid/final.mp4"
    result = VideoResult(name="final", status=JobStatus.DONE, key="k-of-the-worker",
                         video_s=3.0, frames=75, shots=1)  # fmt: skip
    install(out, result, url)
    (p,) = plan(out, url)
    assert p.job is not None and p.job.done_key == "k-of-the-worker"
    assert (p.entry.video_s, p.entry.frames, p.entry.shots) == (3.0, 75, 1)


def test_the_hashing_callback_hears_each_video(tmp_path: Path) -> None:
    a = video(tmp_path / "a.mp4", b"1")
    b = video(tmp_path / "b.mp4", b"2")
    out = tmp_path / "out"
    args = batch_args(str(a), str(b), "--out", str(out))
    heard: list[tuple[int, int]] = []
    plan_batch(expand_sources(args.sources, out), args, out, PreviousIndex(), VERSION,
               lambda done, total: heard.append((done, total)))  # fmt: skip
    assert heard == [(1, 2), (2, 2)]


@pytest.mark.parametrize("cell", ["maybe", "true", "1"])
def test_a_start_break_that_is_not_yes_or_no_is_refused_with_its_row(
    tmp_path: Path, cell: str
) -> None:
    """It was read as "no": the match began without the break it was told of."""
    video(tmp_path / "a.mp4", b"x")
    m = tmp_path / "m.csv"
    m.write_text(f'path,players,start_break\na.mp4,"Ana,Ben",{cell}\n', encoding="utf-8")
    with pytest.raises(CaromError, match=rf"^{m} line 2: --start-break: expected yes or no, got"):
        plan(tmp_path / "out", m)
    m.write_text('path,players,start_break\na.mp4,"Ana,Ben",yes\n', encoding="utf-8")
    (p,) = plan(tmp_path / "out", m)
    assert p.job is not None

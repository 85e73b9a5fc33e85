"""Real shot logs and match files, mutated at random: the loader's one-line error or a result."""

from __future__ import annotations

from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.match import MatchFileError, load_json, load_match_file
from carom.match._read_bounded import SHOT_LOG_LIMITS
from referee import ShotLogError, parse_shot_log
from tests.fuzz_scale import examples

ROOT = Path(__file__).parents[3]
SHOT_LOG = (ROOT / "sample_videos" / "three_cushion_match.shots.json").read_bytes()
MATCH_TOML = (ROOT / "examples" / "match.toml").read_bytes()
FAST = settings(
    max_examples=examples(120),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def mutations(original: bytes) -> st.SearchStrategy[bytes]:
    """``original`` with a few bytes changed, removed, inserted or the file cut short."""
    kinds = st.sampled_from(["set", "del", "ins", "cut"])
    edit = st.tuples(st.integers(0, len(original) - 1), kinds, st.binary(min_size=1, max_size=3))

    def apply(edits: list[tuple[int, str, bytes]]) -> bytes:
        data = bytearray(original)
        for at, kind, chunk in edits:
            at = min(at, len(data))
            if kind == "set":
                data[at : at + len(chunk)] = chunk
            elif kind == "del":
                del data[at : at + len(chunk)]
            elif kind == "ins":
                data[at:at] = chunk
            else:
                del data[at:]
        return bytes(data)

    return st.lists(edit, min_size=1, max_size=4).map(apply)


@FAST
@given(mutations(SHOT_LOG))
def test_a_mutated_shot_log_loads_or_gives_one_shot_log_error(tmp_path: Path, raw: bytes) -> None:
    path = tmp_path / "shots.json"
    path.write_bytes(raw)
    message = ""
    try:
        parse_shot_log(load_json(path))
    except ShotLogError as exc:
        message = str(exc)
    assert "\n" not in message


@FAST
@given(mutations(MATCH_TOML))
def test_a_mutated_match_file_loads_or_gives_one_match_file_error(
    tmp_path: Path, raw: bytes
) -> None:
    path = tmp_path / "match.toml"
    path.write_bytes(raw)
    message = ""
    try:
        load_match_file(path)
    except MatchFileError as exc:
        message = str(exc)
    assert "\n" not in message


def test_deep_and_long_shot_logs_are_one_line(tmp_path: Path) -> None:
    path = tmp_path / "shots.json"
    path.write_bytes(b"[" * 100_000 + b"]" * 100_000)
    with pytest.raises(ShotLogError, match=r"shots\.json: nested 100000 levels deep"):
        load_json(path)
    path.write_bytes(b'{"format": ' + b"7" * 5000 + b"}")
    with pytest.raises(ShotLogError, match="more than 30 digits"):
        load_json(path)


def test_a_shot_log_over_64_mb_is_refused_before_reading(tmp_path: Path) -> None:
    path = tmp_path / "shots.json"
    with path.open("wb") as f:  # sparse: the size is all that is read
        f.truncate(SHOT_LOG_LIMITS.max_bytes + 1)
    with pytest.raises(ShotLogError, match=r"64\.0 MB such a file may have"):
        load_json(path)


def test_a_deep_or_huge_match_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "m.json"
    path.write_bytes(b'{"players": ' + b"[" * 100_000 + b"]" * 100_000 + b"}")
    with pytest.raises(MatchFileError, match=r"--match .*m\.json: nested"):
        load_match_file(path)
    path = tmp_path / "m.toml"
    path.write_bytes(b"[target]\nA = " + b"4" * 40 + b"\n")
    with pytest.raises(MatchFileError, match="more than 30 digits"):
        load_match_file(path)
    with path.open("wb") as f:
        f.truncate((1 << 20) + 1)
    with pytest.raises(MatchFileError, match=r"more than the 1\.0 MB"):
        load_match_file(path)


def test_an_unreadable_file_is_one_line(tmp_path: Path) -> None:
    path = tmp_path / "shots.json"
    path.mkdir()  # unreadable as a file for every user, root included
    with pytest.raises(ShotLogError, match="cannot read it") as info:
        load_json(path)
    assert "\n" not in str(info.value)

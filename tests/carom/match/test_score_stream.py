"""``carom score`` streams a shot log: the same results and errors as reading it whole."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import carom.match._stream as stream
from carom.match import load_json, run_json, score_document, score_file
from referee import ShotLogError
from referee.jsonbound import DocumentLimits

ROOT = Path(__file__).parents[3]
LOGS = [
    ROOT / "examples" / "three_cushion_match.json",
    ROOT / "examples" / "three_players_match.json",
    ROOT / "sample_videos" / "three_cushion_match.shots.json",
]
SHOT_LOG = LOGS[2].read_bytes()
FAST = settings(
    max_examples=150,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.function_scoped_fixture],
)


def _whole(path: Path) -> Any:
    """The whole-file path's outcome: the ``--json`` document or the error's line."""
    try:
        return run_json(score_document(load_json(path)))
    except ShotLogError as exc:
        return str(exc)


def _streamed(path: Path) -> Any:
    try:
        return run_json(score_file(path))
    except ShotLogError as exc:
        return str(exc)


@pytest.fixture
def tiny_chunks(monkeypatch: pytest.MonkeyPatch) -> None:
    """Chunks of 7 characters: every value crosses a chunk boundary."""
    monkeypatch.setattr(stream, "_CHUNK_CHARS", 7)


@pytest.mark.parametrize("path", LOGS, ids=lambda p: p.name)
@pytest.mark.usefixtures("tiny_chunks")
def test_a_log_scores_the_same_streamed(path: Path) -> None:
    assert _streamed(path) == _whole(path)


@FAST
@given(raw=st.data())
@pytest.mark.usefixtures("tiny_chunks")
def test_a_mutated_log_gives_the_same_result_or_error(tmp_path: Path, raw: st.DataObject) -> None:
    text = SHOT_LOG.decode()
    at = raw.draw(st.integers(0, len(text) - 1))
    kind = raw.draw(st.sampled_from(["cut", "del", "ins"]))
    bit = raw.draw(st.sampled_from(['"', ",", "]", "}", "{", "[", "1", "x", " ", "\n", '"shots"']))
    if kind == "cut":
        text = text[:at]
    elif kind == "del":
        text = text[:at] + text[at + len(bit) :]
    else:
        text = text[:at] + bit + text[at:]
    path = tmp_path / "shots.json"
    path.write_text(text, encoding="utf-8")
    assert _streamed(path) == _whole(path)


def _log(doc: dict[str, Any], tmp_path: Path, *, indent: int | None = 1) -> Path:
    path = tmp_path / "log.json"
    path.write_text(json.dumps(doc, indent=indent), encoding="utf-8")
    return path


def _example() -> dict[str, Any]:
    doc: dict[str, Any] = json.loads(LOGS[0].read_text(encoding="utf-8"))
    return doc


@pytest.mark.usefixtures("tiny_chunks")
def test_the_shots_may_come_first(tmp_path: Path) -> None:
    doc = _example()
    shots_first = {"shots": doc["shots"], **{k: v for k, v in doc.items() if k != "shots"}}
    path = _log(shots_first, tmp_path)
    assert _streamed(path) == _whole(path)


@pytest.mark.usefixtures("tiny_chunks")
@pytest.mark.parametrize(
    ("edit", "key"),
    [
        (lambda t: t.replace('{\n "format"', '{\n "shots": [],\n "format"', 1), "shots"),
        (lambda t: t.replace('{\n "format"', '{\n "match": {},\n "format"', 1), "match"),
        (lambda t: t.replace('"index": 3', '"index": 3, "index": 3', 1), "index"),
    ],
)
@pytest.mark.parametrize("big", [False, True])
def test_a_key_given_twice_is_refused_by_both_paths(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Any, key: str, big: bool
) -> None:
    # json.loads would keep the last: a hand-edited log whose first "index" (or
    # "shots") was meant would be scored on the other without a word.
    path = _log(_example(), tmp_path)
    path.write_text(edit(path.read_text(encoding="utf-8")), encoding="utf-8")
    whole = _whole(path)
    assert whole == f'{path}: the key "{key}" is given twice in one object; {stream._FIX}'
    if big:
        _over_limit(monkeypatch)  # the stream's own words
    assert _streamed(path) == whole


@pytest.mark.parametrize("big", [False, True])
def test_a_byte_order_mark_is_read_past(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, big: bool
) -> None:
    path = _log(_example(), tmp_path)
    expected = _whole(path)
    path.write_bytes(b"\xef\xbb\xbf" + path.read_bytes())
    if big:
        _over_limit(monkeypatch)
    assert _streamed(path) == expected == _whole(path)


@pytest.mark.usefixtures("tiny_chunks")
@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["shots"][2].update(index=7),  # out of order: after every shot's fields
        lambda d: d["shots"][4]["events"][0].update(kind="nope"),
        lambda d: d.update(lag={"events": 3}),  # the lag: after the shots
        lambda d: (d["shots"][1].update(index=5), d.update(lag=3)),
        lambda d: d["match"].update(target=0),
        lambda d: d.update(format="other"),
    ],
)
def test_errors_come_in_the_whole_file_order(tmp_path: Path, edit: Any) -> None:
    doc = _example()
    edit(doc)
    path = _log(doc, tmp_path)
    whole = _whole(path)
    assert isinstance(whole, str)
    assert _streamed(path) == whole


def _over_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    """The whole-file limit 4 kB for the streaming path: every test log is a "big" one."""
    monkeypatch.setattr(stream, "SHOT_LOG_LIMITS", DocumentLimits(max_bytes=4096))


@pytest.mark.usefixtures("tiny_chunks")
def test_a_log_bigger_than_the_whole_file_limit_is_scored(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    path = _log(_example(), tmp_path)
    expected = _whole(path)
    _over_limit(monkeypatch)
    assert _streamed(path) == expected


@pytest.mark.usefixtures("tiny_chunks")
@pytest.mark.parametrize(
    "cut",
    [
        lambda t: t[: len(t) // 2],  # truncated
        lambda t: t.replace("},\n  {", "}\n  {", 1),  # a comma missing between shots
        lambda t: t + "\n]",  # something after the end
        lambda t: t.replace('"index": 3', '"index": 3,', 1),
        lambda t: t.replace('"t_s": 10.3', '"t_s": 10.3e', 1),
    ],
)
def test_a_big_broken_log_names_the_place_as_json_does(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, cut: Any
) -> None:
    path = _log(_example(), tmp_path)
    text = cut(path.read_text(encoding="utf-8"))
    path.write_text(text, encoding="utf-8")
    with pytest.raises(json.JSONDecodeError) as caught:
        json.loads(text)
    exc = caught.value
    _over_limit(monkeypatch)
    with pytest.raises(ShotLogError) as refused:
        score_file(path)
    where = f"line {exc.lineno} column {exc.colno}: {exc.msg}"
    assert str(refused.value) == f"{path}: not valid JSON ({where}); {stream._FIX}"


def test_a_big_log_too_deep_is_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    doc = _example()
    deep: Any = 1
    for _ in range(70):
        deep = [deep]
    doc["shots"][1]["events"][0]["evidence"] = deep
    path = _log(doc, tmp_path, indent=None)
    _over_limit(monkeypatch)
    with pytest.raises(ShotLogError, match=r"levels deep, more than the 64 allowed"):
        score_file(path)


def test_the_reader_holds_a_few_chunks_and_the_match_one_state(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    doc = _example()
    one = doc["shots"][0]
    doc["shots"] = [dict(one, index=i) for i in range(3000)]
    doc["match"]["target"] = 100_000
    path = _log(doc, tmp_path)
    monkeypatch.setattr(stream, "_CHUNK_CHARS", 4096)
    largest = 0
    more = stream._Scanner._more

    def watched(self: stream._Scanner) -> bool:
        nonlocal largest
        largest = max(largest, len(self._buf))
        return more(self)

    monkeypatch.setattr(stream._Scanner, "_more", watched)
    run = score_file(path)
    assert len(run.match.records) == 3000
    assert len(run.match._history) == 1
    assert path.stat().st_size > 100 * stream._CHUNK_CHARS
    assert largest <= 3 * stream._CHUNK_CHARS


@pytest.mark.parametrize(
    ("edit", "problem"),
    [
        (lambda t: t.replace('"t_s": 10.3', '"t_s": ' + "7" * 40, 1), "more than 30 digits"),
        (lambda t: t.replace('"index": 3', '"index": 3, "x": "\udcff"', 1), "not UTF-8 text"),
    ],
)
def test_a_big_log_with_a_long_number_or_bad_bytes_is_refused(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, edit: Any, problem: str
) -> None:
    path = _log(_example(), tmp_path)
    text = edit(path.read_text(encoding="utf-8"))
    path.write_bytes(text.encode("utf-8", errors="surrogateescape"))
    _over_limit(monkeypatch)
    with pytest.raises(ShotLogError, match=problem):
        score_file(path)


@FAST
@given(raw=st.data())
@pytest.mark.usefixtures("tiny_chunks")
def test_a_mutated_big_log_gives_the_same_result_or_error_by_itself(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, raw: st.DataObject
) -> None:
    text = SHOT_LOG.decode()
    at = raw.draw(st.integers(0, len(text) - 1))
    cut = raw.draw(st.integers(1, 3))
    bit = raw.draw(st.sampled_from(['"', ",", "]", "}", "{", "[", "1", "x", ":", "", "-", "e"]))
    path = tmp_path / "shots.json"
    path.write_text(text[:at] + bit + text[at + cut :], encoding="utf-8")
    whole = _whole(path)
    with monkeypatch.context() as m:
        _over_limit(m)  # no help from the whole-file path: the stream's own words
        streamed = _streamed(path)
    if isinstance(streamed, str) and "one value is longer than 4096 characters" in streamed:
        # A nesting broken early makes one member run to the end: the stream refuses it
        # for its length where the whole-file path (no such limit here) reads on to the
        # syntax error; both refuse the file.
        assert isinstance(whole, str) and "not valid JSON" in whole, whole
    else:
        assert streamed == whole


@pytest.mark.usefixtures("tiny_chunks")
def test_a_mangled_shots_key_is_refused_by_name_as_the_whole_file_path_refuses_it(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Found by the mutation test above: a big log whose ``shots`` key lost a letter
    holds its array under a key no log may have. The stream read that array as one value
    and refused it for its length; it is now checked element by element and refused by
    name, the whole-file path's error."""
    path = tmp_path / "shots.json"
    path.write_text(SHOT_LOG.decode().replace('"shots"', '",hots"', 1), encoding="utf-8")
    whole = _whole(path)
    assert whole.startswith(",hots: unknown field")
    _over_limit(monkeypatch)
    assert _streamed(path) == whole

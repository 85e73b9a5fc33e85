"""The bounded decoder: nesting, digits and size refused in one line, never a traceback."""

from __future__ import annotations

import json

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from referee import ShotLogError
from referee.jsonbound import DocumentLimits, decode_document, nesting
from tests.fuzz_scale import examples

LIMITS = DocumentLimits(max_bytes=1 << 20)
FAST = settings(
    max_examples=examples(150), deadline=None, suppress_health_check=[HealthCheck.too_slow]
)


def _decode(raw: bytes, toml: bool = False) -> object:
    return decode_document(raw, "log.json", LIMITS, ShotLogError, "fix it", toml=toml)


def _one_line(exc: pytest.ExceptionInfo[ShotLogError]) -> str:
    text = str(exc.value)
    assert "\n" not in text
    assert text.startswith("log.json: ")
    assert text.endswith("; fix it")
    return text


def test_100000_levels_deep_is_one_line_not_a_recursion_error() -> None:
    for raw in (b"[" * 100_000 + b"]" * 100_000, b'{"a":' * 100_000 + b"1" + b"}" * 100_000):
        with pytest.raises(ShotLogError) as exc:
            _decode(raw)
        assert "nested 100000 levels deep, more than the 64 allowed" in _one_line(exc)


def test_deep_toml_is_refused_too() -> None:
    with pytest.raises(ShotLogError, match="levels deep"):
        _decode(b"a = " + b"[" * 5000 + b"]" * 5000, toml=True)


def test_64_levels_pass_65_do_not() -> None:
    assert _decode(b"[" * 64 + b"]" * 64) is not None
    with pytest.raises(ShotLogError, match="nested 65 levels"):
        _decode(b"[" * 65 + b"]" * 65)


def test_brackets_in_strings_and_comments_do_not_count() -> None:
    doc = {"note": "[[[[" * 100, "x": ['"]]]'], "y": '\\"[[['}
    assert _decode(json.dumps(doc).encode()) == doc
    toml = b'# [[[[[[[[[[\nnote = \'[[[[[[[[\'\nmore = """\n[[[[\n"""\n'
    assert nesting(toml.decode()) == 0


def test_a_5000_digit_number_is_one_line_not_a_value_error() -> None:
    for raw in (b"[" + b"9" * 5000 + b"]", b'{"t": 1.' + b"5" * 5000 + b"}"):
        with pytest.raises(ShotLogError) as exc:
            _decode(raw)
        assert "a number has more than 30 digits" in _one_line(exc)
    with pytest.raises(ShotLogError, match="more than 30 digits"):
        _decode(b"n = " + b"9" * 100, toml=True)
    with pytest.raises(ShotLogError) as exc:  # tomllib's own int limit, before any hook
        _decode(b"n = " + b"9" * 5000, toml=True)
    said = _one_line(exc)  # it said "not valid TOML: Exceeds the limit ... sys.set_int..."
    assert "a number has more than 30 digits (an integer of over 4300 digits)" in said
    assert "sys." not in said


def test_30_digits_pass() -> None:
    assert _decode(b"[" + b"9" * 30 + b", -1.5e300]") == [int("9" * 30), -1.5e300]


def test_size_is_checked_before_and_after_reading() -> None:
    small = DocumentLimits(max_bytes=10)
    with pytest.raises(ShotLogError, match=r"the file is 2\.0 MB, more than the 10 bytes"):
        small.check_size(2 << 20, "log.json", ShotLogError, "fix it")
    with pytest.raises(ShotLogError, match="more than the 10 bytes"):
        decode_document(b"[1, 2, 3, 4, 5]", "log.json", small, ShotLogError, "fix it")


def test_not_utf8_and_not_json_are_one_line() -> None:
    with pytest.raises(ShotLogError, match="not UTF-8"):
        _decode(b"[\xff]")
    with pytest.raises(ShotLogError, match=r"not valid JSON \(line 1 column 2"):
        _decode(b"[}")


def test_a_bad_byte_is_named_by_its_value_and_place() -> None:
    # A Latin-1 "1/4" (0xbc) on line 2: its value, its offset and its line.
    with pytest.raises(ShotLogError, match=r"not UTF-8 text \(0xbc at byte 6, line 2\); fix it$"):
        _decode(b'[1,\n "\xbc"]')


def test_a_key_given_twice_is_refused_where_json_loads_keeps_the_last() -> None:
    with pytest.raises(ShotLogError, match=r'the key "t_s" is given twice in one object; fix it$'):
        _decode(b'[{"t_s": 1.0, "kind": "ball", "t_s": 2.0}]')
    with pytest.raises(ShotLogError, match=r'the key "a" is given twice'):
        _decode(b'{"a": 1, "b": {"c": 2}, "a": 1}')  # the same value too
    assert _decode(b'[{"a": 1}, {"a": 2}]') == [{"a": 1}, {"a": 2}]  # once per object
    with pytest.raises(ShotLogError, match="not valid TOML"):  # tomllib refuses it itself
        _decode(b"a = 1\na = 2", toml=True)


def test_a_byte_order_mark_is_read_past() -> None:
    # Some editors (Windows Notepad's "UTF-8 with BOM") start the file with one.
    assert _decode(b'\xef\xbb\xbf{"a": [1]}') == {"a": [1]}


@FAST
@given(st.binary(max_size=400))
def test_any_bytes_decode_or_give_the_loaders_error(raw: bytes) -> None:
    for toml in (False, True):
        message = ""
        try:
            _decode(raw, toml)
        except ShotLogError as exc:
            message = str(exc)
        assert "\n" not in message


@FAST
@given(st.lists(st.sampled_from(["[", "]", "{", "}", '"', "1", ",", ":", "9" * 40]), max_size=300))
def test_random_nesting_and_numbers(parts: list[str]) -> None:
    message = ""
    try:
        _decode("".join(parts).encode())
    except ShotLogError as exc:
        message = str(exc)
    assert "\n" not in message

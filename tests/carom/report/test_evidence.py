"""A contact's evidence in the report's language: every line the finders write, keyed.

The finders themselves are run on rendered clips in
``tests/vision/test_independent_clips.py`` (every evidence line they wrote there is
keyed); here each template is filled with names and numbers, read back into its key and
fields, and said in each language without the English words.
"""

from __future__ import annotations

import re
import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from calibration import TableGeometry
from carom.i18n import LANGUAGES, catalogue
from carom.report._evidence import EVIDENCE_ENGLISH, evidence_code
from carom.report._page import Page
from referee import MATCH_TABLE

SAMPLE = {"ball": "white", "other": "red", "cushion": "left", "second_cushion": "head",
          "evidence": "bounce, v_n -1650 -> "
          "1555 mm/s, gap 3.6 mm"}  # fmt: skip
ENGLISH_WORDS = re.compile(
    r"\b(bounce|impulse|noise|cushion|path|gap|white|red|left|head|corner|unseen)\b"
)


def _filled(template: str, number: str = "12.5") -> tuple[str, dict[str, str]]:
    names = {n for _, n, _, _ in string.Formatter().parse(template) if n}
    fields = {n: SAMPLE.get(n, number) for n in names}
    return template.format(**fields), fields


@pytest.mark.parametrize("key", sorted(EVIDENCE_ENGLISH))
def test_each_evidence_reads_back_and_is_said_without_english(key: str) -> None:
    text, fields = _filled(EVIDENCE_ENGLISH[key])
    assert evidence_code(text) == (key, fields)
    for lang in LANGUAGES:
        said = Page(lang, TableGeometry(MATCH_TABLE), 0.5).evidence(text)
        if lang == "en":
            assert said == text
        else:
            assert not ENGLISH_WORDS.search(said), (lang, said)
            if "12.5" in fields.values():
                assert "12" in said  # the number, as the language writes it


def test_numbers_are_written_as_the_language_writes_them() -> None:
    page = Page("tr", TableGeometry(MATCH_TABLE), 0.5)
    said = page.evidence("bounce, v_n -1650 -> 1555 mm/s, gap -0.3 mm")
    report = catalogue("report")
    assert said == report.text("tr", "evidence_bounce", v_in="-1.650", v_out="1.555", gap="-0,3")


def test_a_doubt_as_evidence_is_said_as_the_doubt_and_another_line_as_it_is() -> None:
    page = Page("ko", TableGeometry(MATCH_TABLE), 0.5)
    rival = "unseen 0.38 s from its rest; a way through 2 cushions fits too, this one among them"
    assert not ENGLISH_WORDS.search(page.evidence(rival))
    assert page.evidence("something vision never wrote") == "something vision never wrote"
    assert page.evidence("") == ""


@given(v_in=st.integers(-9000, 0), v_out=st.integers(0, 9000), gap=st.floats(-5, 50))
def test_any_bounce_reads_back(v_in: int, v_out: int, gap: float) -> None:
    text = f"bounce, v_n {v_in} -> {v_out} mm/s, gap {gap:.1f} mm"
    assert evidence_code(text) == ("bounce", {"v_in": str(v_in), "v_out": str(v_out),
                                              "gap": f"{gap:.1f}"})  # fmt: skip

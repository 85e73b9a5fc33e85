"""Text measured in character cells (``carom.report._text_width``): Korean captions and
event lines ran off the diagrams, measured in characters."""

from __future__ import annotations

import xml.etree.ElementTree as ET

from hypothesis import given
from hypothesis import strategies as st

from carom.report._text_width import cells, cut_to, wrapped

_WORDS = st.lists(st.text(st.sampled_from("ab가나다 é"), min_size=1, max_size=12), max_size=20)


def test_a_hangul_syllable_takes_two_cells_and_a_latin_letter_one() -> None:
    assert cells("캐롬") == 4 and cells("carom") == 5 and cells("캐롬 carom") == 10


@given(words=_WORDS, width=st.integers(4, 60))
def test_wrapped_lines_fit_and_keep_every_word(words: list[str], width: int) -> None:
    text = " ".join(words)
    lines = wrapped(text, width)
    assert " ".join(lines).split() == text.split()
    assert all(cells(line) <= width or " " not in line for line in lines)


@given(text=st.text(st.sampled_from("ab가나다 é"), max_size=40), width=st.integers(2, 30))
def test_a_cut_line_fits_its_cells(text: str, width: int) -> None:
    cut = cut_to(text, width)
    assert cells(cut) <= width
    assert cut == text or (cut.endswith("…") and text.startswith(cut[:-1]))


def test_a_korean_caption_wraps_inside_the_diagram() -> None:
    """The balkline card's Korean verdict ran past the right edge, its end unseen."""
    from calibration import TableGeometry
    from carom.report import diagram_svg
    from referee import MATCH_TABLE

    caption = "B 의 샷 2 — B +1 — 캐롬 (그곳에서 1 점) 리뷰: 공이 가려짐 " * 6
    svg = diagram_svg(TableGeometry(MATCH_TABLE), {}, [], caption=caption)
    root = ET.fromstring(svg)
    width = float(root.get("viewBox", "0 0 0 0").split()[2])
    lines = [t.text or "" for t in root.iter("{http://www.w3.org/2000/svg}text")
             if "caption" in t.get("class", "")]  # fmt: skip
    assert len(lines) > 2 and " ".join(lines).split() == caption.split()
    size = max(float(t.get("font-size", "0")) for t in root.iter("{http://www.w3.org/2000/svg}text")
               if "caption" in t.get("class", ""))  # fmt: skip
    assert all(cells(line) * 0.6 * size <= width for line in lines)

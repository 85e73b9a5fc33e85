"""Terminal tables stay in line with names in any script (a Korean name took three
columns of ten and pushed the rest of its line two columns a letter to the left)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from carom.i18n import display_width, pad_to
from carom.report import render_standings
from carom.stats._text import render_table


def test_wide_letters_take_two_columns_and_combining_marks_none() -> None:
    assert display_width("Ann") == 3
    assert display_width("김민수") == 6
    assert display_width("試合") == 4
    assert display_width("Cafe\u0301") == 4  # é as e and a combining accent
    assert pad_to("김민수", 8) == "김민수  " and pad_to("7", 3, right=True) == "  7"


@given(st.text(max_size=12), st.integers(0, 30), st.booleans())
def test_padding_reaches_the_width_and_keeps_the_text(text: str, width: int, right: bool) -> None:
    padded = pad_to(text, width, right)
    assert display_width(padded) == max(width, display_width(text))
    assert padded.strip(" ") == text.strip(" ")


def _columns_of(line: str, word: str) -> int:
    """The display column where ``word`` starts in ``line``."""
    return display_width(line[: line.index(word)])


def test_the_season_table_and_the_standings_keep_their_columns() -> None:
    names = ["Ann", "김민수", "Café_Ünïcödé_試合"]
    table = render_table(["player", "points"], [[n, 10 + i] for i, n in enumerate(names)])
    ends = {display_width(line) for line in table.splitlines()}
    assert len(ends) == 1, table  # the points column, right-aligned, ends in one place
    rows = [{"rank": i + 1, "player": n, "match_points": 2, "matches": 1,
             "general_average": "1.000", "best_average": "1.000", "high_run": 3}
            for i, n in enumerate(names)]  # fmt: skip
    lines = render_standings(rows).splitlines()[2:]
    assert len({_columns_of(line, "1.000") for line in lines}) == 1, lines

"""Colour model pieces that must stay equal to their plain numpy definitions."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from vision._colour import _first_min


@settings(max_examples=200, deadline=None)
@given(
    st.integers(min_value=0, max_value=40),
    st.integers(min_value=1, max_value=5),
    st.integers(min_value=0, max_value=2**32 - 1),
)
def test_first_min_is_argmin_ties_included(n: int, k: int, seed: int) -> None:
    rng = np.random.default_rng(seed)
    # Few distinct values: many rows hold their minimum twice (argmin takes the first).
    q = rng.integers(-3, 3, (n, k)).astype(np.float32)
    assert np.array_equal(_first_min(q), np.argmin(q, axis=1).astype(np.int8))

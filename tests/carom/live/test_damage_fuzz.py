"""Random byte flips in a match database: one line, or the same match, never a wrong one.

h11's fuzzer checks that any input gives a result or the one documented error; here
any flipped file gives :class:`referee.CaromError` (one line) or resumes exactly the
match that was written (a flip in free space changes nothing), never another
exception, never a match resumed at another version or state, never a new match
started beside the old one.
"""

from __future__ import annotations

import functools
import itertools
import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from carom.live import LiveSession, LiveSetup, MatchStore
from referee import CaromError, MatchState
from tests.carom.live.shotpool import NOW, SOURCE, long_config
from tests.carom.live.test_damage import recorded
from tests.fuzz_scale import examples

_COUNT = itertools.count()


@functools.cache
def _clean() -> tuple[bytes, tuple[int, ...], MatchState, int]:
    """The written file's bytes, where they are not zero, the match's state and version."""
    with tempfile.TemporaryDirectory(prefix="carom-fuzz-") as folder:  # removed after
        path = Path(folder) / "live.db"
        state, version = recorded(path)
        data = path.read_bytes()
    return data, tuple(i for i, b in enumerate(data) if b), state, version


@settings(max_examples=examples(250), deadline=None,
          suppress_health_check=[HealthCheck.function_scoped_fixture])  # fmt: skip
@given(data=st.data())
def test_random_byte_flips_never_give_a_traceback_nor_a_wrong_match(
    tmp_path: Path, data: st.DataObject
) -> None:
    clean, used, state, version = _clean()
    anywhere = st.integers(0, len(clean) - 1)
    where = st.one_of(anywhere, st.sampled_from(used))  # half of them where data is
    flips = data.draw(st.lists(st.tuples(where, st.integers(1, 255)), min_size=1, max_size=4))
    buf = bytearray(clean)
    for at, mask in flips:
        buf[at] ^= mask
    path = tmp_path / f"flipped-{next(_COUNT)}.db"
    path.write_bytes(bytes(buf))
    outcome = _resume(path)
    if isinstance(outcome, str):
        assert "\n" not in outcome
        return
    resumed, at_version, now = outcome
    assert resumed, f"a new match was started over {flips}"
    assert (at_version, now) == (version, state), f"another match resumed after {flips}"


def _resume(path: Path) -> tuple[bool, int, MatchState] | str:
    """What carom live would resume from ``path``, or its refusal."""
    try:
        with MatchStore(path, strict=True) as store:
            session = LiveSession.open(store, LiveSetup(long_config(), SOURCE), now_iso=NOW)
            return session.resumed, session.version, session.state
    except CaromError as exc:
        return str(exc)

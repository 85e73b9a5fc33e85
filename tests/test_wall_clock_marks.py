"""scripts/check's runs import only the files their marks can select (conftest's lists): a
file that marks its own tests ``realtime`` (or ``alone``) must be named there, else
those tests would silently run in no group."""

from __future__ import annotations

import re
from pathlib import Path
from types import SimpleNamespace
from typing import cast

import pytest

from tests import conftest

HERE = Path(__file__).parent
_MARK = re.compile(r"pytest\.mark\.(realtime|alone)\b")


def test_every_file_marking_its_own_wall_clock_tests_is_named_in_conftest() -> None:
    marking = {
        path.relative_to(HERE).as_posix()
        for path in HERE.rglob("test_*.py")
        if path != Path(__file__) and _MARK.search(path.read_text())
    }
    assert marking, "the search finds the files known to mark their own"
    for where in sorted(marking):
        assert where in conftest._MARKED_IN_FILE or where.startswith(conftest._REALTIME), where
    assert set(conftest._MARKED_IN_FILE) <= marking, "a name left after its marks went"


def _ignored(where: str, markexpr: str) -> bool | None:
    config = cast(pytest.Config, SimpleNamespace(option=SimpleNamespace(markexpr=markexpr)))
    return conftest.pytest_ignore_collect(HERE / where, config)


def test_each_run_skips_only_the_files_whose_tests_it_would_deselect() -> None:
    clock, alone = "realtime and not alone", "alone"
    assert _ignored("vision/test_accuracy.py", clock) is True
    assert _ignored("carom/cli/test_score.py", clock) is False
    assert _ignored("carom/web/browser/test_pages.py", clock) is False
    assert _ignored("carom/web/conftest.py", clock) is None
    assert _ignored("carom/web/test_auth_flood.py", alone) is False
    assert _ignored("carom/web/browser/test_pages.py", alone) is True
    assert _ignored("carom/web/browser/test_pages.py", "not realtime") is True
    assert _ignored("test_readme_blocks.py", "not realtime") is False
    assert _ignored("carom/cli/test_score.py", "not realtime") is False
    assert _ignored("carom/web/browser/test_pages.py", "realtime") is None

"""``carom analyze --annotate`` on a terminal: each stage named, with its own right rate."""

from __future__ import annotations

import contextlib
import io
import json
import re
from pathlib import Path

import pytest

from carom.cli import main
from tests.carom.cli.test_analyze import SAMPLE, _cut


class _Tty(io.StringIO):
    def isatty(self) -> bool:
        return True


@pytest.fixture(scope="module")
def clip(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return _cut(SAMPLE, tmp_path_factory.mktemp("clip") / "first3s.mp4", 3.0)


def _run(*args: str, err: io.StringIO) -> tuple[int, str]:
    out = io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return code, out.getvalue()


def test_annotate_shows_each_stage_with_counts_and_real_time(clip: Path, tmp_path: Path) -> None:
    err = _Tty()
    code, out = _run("analyze", str(clip), "--out", str(tmp_path), "--annotate", err=err)
    assert code == 0, err.getvalue()
    parts = [p.replace("\x1b[K", "") for p in err.getvalue().split("\r")]
    drawn = [p for p in parts if p.strip() and not p.startswith("carom:")]
    stages = [d.split("  ")[0].removesuffix(" ...") for d in drawn]
    assert list(dict.fromkeys(stages)) == [
        "calibrating", "analysing", "writing the annotated video",
    ]  # fmt: skip
    annotating = [d for d in drawn if d.startswith("writing the annotated video")]
    last = annotating[-1]
    counts = re.search(r"(\d+)/(\d+) frames", last)
    assert counts is not None and int(counts[2]) == 90  # 3 s at 30 fps, every frame written
    if int(counts[1]):  # once a frame is counted: a rate and a real-time factor above 0
        speed = re.search(r"(\d+) fps, ([\d.]+)x real time", last)
        assert speed is not None and float(speed[2]) > 0
    assert "video 0.0 s" not in err.getvalue()
    assert err.getvalue().endswith("\x1b[K")  # the line is wiped before the scoresheet
    assert "analysed 90 frames" in out


def test_json_draws_nothing_even_on_a_terminal(clip: Path, tmp_path: Path) -> None:
    err = _Tty()
    argv = ["analyze", str(clip), "--out", str(tmp_path), "--json", "--players", "Ana", "Ben"]
    code, out = _run(*argv, err=err)
    assert code == 0, err.getvalue()
    assert "\r" not in err.getvalue()
    assert list(json.loads(out)["score"]) == ["Ana", "Ben"]  # --players A B, as live takes it

"""``carom score --scoreboard``'s options: a bad value is a usage error (status 2) at once.

``--scoreboard-delay`` is 0 to 60 seconds (never a crash in ``time.sleep``), and a
``--scoreboard`` URL of a scheme the link cannot open is bad input, not a device
failure (status 6) found only after the retries.
"""

from __future__ import annotations

import pkgutil
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import serial.urlhandler

from carom.cli._score import BOARD_URL_SCHEMES
from tests.carom.cli._in_process import carom_in_process, usage_error

ROOT = Path(__file__).parents[3]
EXAMPLE = ROOT / "examples" / "three_cushion_match.json"
_FORMS = "use a device path (/dev/ttyUSB0, a pty) or socket://host:port (the link also opens"


def _carom(*args: str) -> subprocess.CompletedProcess[str]:
    exe = shutil.which("carom", path=str(Path(sys.executable).parent))
    cmd = [exe] if exe else [sys.executable, "-m", "carom"]
    return subprocess.run([*cmd, *args], capture_output=True, text=True, timeout=60)


@pytest.mark.parametrize("value", ["-1", "nan", "inf", "-inf", "1e308", "60.5", "soon"])
def test_a_delay_that_is_no_time_is_a_usage_error(value: str) -> None:
    out = carom_in_process("score", str(EXAMPLE), "--scoreboard", "socket://127.0.0.1:9",
                           f"--scoreboard-delay={value}")  # fmt: skip
    line = usage_error(out, "--scoreboard-delay")
    assert line.endswith(f"{value!r}: use seconds from 0 to 60")


def test_a_negative_delay_is_refused_by_the_real_command() -> None:
    out = _carom("score", str(EXAMPLE), "--scoreboard", "socket://127.0.0.1:9",
                 "--scoreboard-delay", "-1")  # fmt: skip
    usage_error(out, "--scoreboard-delay")


@pytest.mark.parametrize("value", ["0", "0.5", "60"])
def test_a_delay_in_range_is_taken(value: str) -> None:
    out = carom_in_process("score", str(EXAMPLE), "--scoreboard-delay", value)
    assert out.returncode == 0, out.stderr
    assert "result: Ana wins" in out.stdout


@pytest.mark.parametrize("url", ["http://x", "HTTPS://board.local/", "tcp://127.0.0.1:9", "://x"])
def test_a_url_the_link_cannot_open_is_a_usage_error(url: str) -> None:
    line = usage_error(carom_in_process("score", str(EXAMPLE), "--scoreboard", url),
                        "--scoreboard")  # fmt: skip
    assert f"{url!r}: {url.partition('://')[0]}:// is no scoreboard port; {_FORMS}" in line
    assert line.endswith("rfc2217://, loop://, spy://, hwgrep://, alt://, cp2110://)")


def test_a_bad_url_is_refused_by_the_real_command_not_as_a_device() -> None:
    out = _carom("score", str(EXAMPLE), "--scoreboard", "http://x")
    assert _FORMS in usage_error(out, "--scoreboard")


def test_the_schemes_named_are_the_ones_pyserial_opens() -> None:
    handlers = {
        m.name.removeprefix("protocol_")
        for m in pkgutil.iter_modules(serial.urlhandler.__path__)
        if m.name.startswith("protocol_")
    }
    assert set(BOARD_URL_SCHEMES) == handlers


def test_a_device_path_or_a_known_scheme_passes_to_the_link(tmp_path: Path) -> None:
    """Not refused at parse time: the link is tried (no board there: status 6)."""
    for url in (str(tmp_path / "no-board"), "socket://127.0.0.1:9"):
        out = carom_in_process("score", str(EXAMPLE), "--scoreboard", url,
                               "--scoreboard-delay", "0", "--scoreboard-confirm", "0")  # fmt: skip
        assert out.returncode == 6, out.stderr
        assert "error:" not in out.stderr and f"{url}: no scoreboard there" in out.stderr

"""The README's Python example runs and prints what it says."""

from __future__ import annotations

import contextlib
import io
import re
import shlex
from pathlib import Path

README = Path(__file__).parents[1] / "README.md"


def test_readme_python_example_runs() -> None:
    """The referee's example (stdlib only) here; every block, in the README's order after
    the commands that write the files it reads, in tests/test_readme_blocks.py."""
    blocks = re.findall(r"```python\n(from referee .*?)```", README.read_text(), flags=re.S)
    assert blocks, "README has no python example"
    for code in blocks:
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            exec(compile(code, "README.md", "exec"), {})
        for expected in re.findall(r"# (point: .*)", code):
            assert expected in out.getvalue()


def _commands() -> list[list[str]]:
    """Every ``carom ...`` line of the README's shell blocks (continuations joined)."""
    out = []
    for block in re.findall(r"```sh\n(.*?)```", README.read_text(), flags=re.S):
        text = block.replace("\\\n", " ")
        for line in text.splitlines():
            line = re.split(r"\s+#", line)[0].strip()
            if line.startswith("carom "):
                out.append(shlex.split(line)[1:])
    return out


#: Stand-ins in the README for the user's own files, and files an earlier command of
#: the README writes (tests/test_readme_blocks.py runs them all in order).
_PLACEHOLDERS = (
    "VIDEO", "table.json", "cal.json", "calibration.json", "log.json", "results.csv",
    "out/", "/tmp/", "table3", "carom-analysis/",
)  # fmt: skip


def test_every_readme_command_parses_and_names_files_that_exist() -> None:
    """Each ``carom`` line parses as written; bundled files it names exist; analyze's
    match flags (players, first, start state) are valid for the set-up they give."""
    from carom.analyze import match_config
    from carom.cli._analyze import _options
    from carom.cli._main import _parser

    commands = _commands()
    assert len(commands) >= 20
    root = README.parent
    for argv in commands:
        args = _parser().parse_args(argv)
        for word in argv:
            local_file = re.fullmatch(r"[\w-]+(/[\w.-]+)+\.\w+", word) is not None
            if local_file and not any(p in word for p in _PLACEHOLDERS):
                assert (root / word).exists(), f"README names a missing file: {word}"
        if args.command == "analyze":
            match_config(_options(args))  # raises on a flag the set-up refuses

"""Small modules and functions (issue 20): a newcomer reads one piece at a time.

No function over 60 lines anywhere in the project's code, tests and benchmarks; no
module over about 400 lines unless its docstring says why ("Over 400 lines because").
"""

from __future__ import annotations

import ast
from pathlib import Path

ROOT = Path(__file__).parents[1]
CODE = ("referee", "calibration", "vision", "hardware", "synth", "carom", "bench", "scripts")
MAX_FUNCTION_LINES = 60
MAX_MODULE_LINES = 410  # "about 400"
REASON = "Over 400 lines because"


def _sources(folders: tuple[str, ...]) -> list[Path]:
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py"))


def test_no_function_is_over_60_lines() -> None:
    long = []
    for path in _sources((*CODE, "tests")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
                lines = (node.end_lineno or node.lineno) - node.lineno + 1
                if lines > MAX_FUNCTION_LINES:
                    long.append(f"{path.relative_to(ROOT)}:{node.lineno} {node.name} {lines}")
    assert long == []


def test_a_long_module_says_why() -> None:
    silent = []
    for path in _sources(CODE):
        text = path.read_text()
        doc = ast.get_docstring(ast.parse(text)) or ""
        if len(text.splitlines()) > MAX_MODULE_LINES and REASON not in doc:
            silent.append(f"{path.relative_to(ROOT)}: {len(text.splitlines())} lines")
    assert silent == []

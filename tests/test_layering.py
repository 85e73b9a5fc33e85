"""Imports point one way: the referee core loads no CV, serial, web or ML library."""

from __future__ import annotations

import subprocess
import sys

HEAVY = ("cv2", "numpy", "serial", "fastapi", "onnxruntime", "uvicorn", "pydantic")


def _loaded_after(statement: str) -> set[str]:
    code = f"import sys; {statement}; print(' '.join(sorted(sys.modules)))"
    out = subprocess.run([sys.executable, "-c", code], check=True, capture_output=True, text=True)
    return set(out.stdout.split())


def test_import_referee_loads_no_heavy_library() -> None:
    loaded = _loaded_after("import referee")
    assert "referee" in loaded
    assert {m for m in loaded if m.split(".")[0] in HEAVY} == set()


def test_judging_every_discipline_loads_no_heavy_library() -> None:
    statement = "import referee; [referee._rules._judge_for(d) for d in referee.Discipline]"
    loaded = _loaded_after(statement)
    assert {m for m in loaded if m.split(".")[0] in HEAVY} == set()


def test_referee_source_imports_only_the_standard_library_and_itself() -> None:
    import ast
    from pathlib import Path

    root = Path(__file__).parents[1] / "referee"
    stdlib = set(sys.stdlib_module_names)
    for path in root.glob("*.py"):
        tree = ast.parse(path.read_text())
        for node in ast.walk(tree):
            names = []
            if isinstance(node, ast.Import):
                names = [a.name for a in node.names]
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names = [node.module]
            for name in names:
                top = name.split(".")[0]
                assert top in stdlib or top == "referee", f"{path.name} imports {name}"


def test_import_carom_cli_builds_nothing_heavy() -> None:
    loaded = _loaded_after("import carom.cli")
    assert {m for m in loaded if m.split(".")[0] in HEAVY} == set()

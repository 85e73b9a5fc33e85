"""Imports point one way: the referee core loads no CV, serial, web or ML library;
no package imports the app; the product never loads the synthetic renderer."""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

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


# --- the app on top, synth beside vision ------------------------------------------
#
# ``carom`` (the app) composes the packages; none of them imports it. ``synth`` (the
# renderer: events to frames) serves the tests, the benches and ``carom synth``; the
# product never loads it, and it is used through its public names only.

ROOT = Path(__file__).parents[1]
PACKAGES = ("referee", "vision", "calibration", "hardware", "synth")
APP_ONLY_SYNTH = ("carom/cli/_synth.py", "carom/synth_check.py")  # carom synth, the benches


def _imports(path: Path) -> list[str]:
    """Every module ``path`` imports, at the top or inside a function (absolute names)."""
    names: list[str] = []
    for node in ast.walk(ast.parse(path.read_text())):
        if isinstance(node, ast.Import):
            names += [a.name for a in node.names]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            names += [node.module] + [f"{node.module}.{a.name}" for a in node.names]
    return names


def _sources(*folders: str) -> list[Path]:
    return sorted(p for f in folders for p in (ROOT / f).rglob("*.py"))


def _product_modules() -> list[str]:
    """Every module of the app except the two that exist to run synth."""
    out = []
    for path in _sources("carom"):
        rel = path.relative_to(ROOT).as_posix()
        if rel in APP_ONLY_SYNTH or rel == "carom/__main__.py" or "/static/" in rel:
            continue
        out.append(rel.removesuffix(".py").removesuffix("/__init__").replace("/", "."))
    return out


def test_no_package_imports_the_app() -> None:
    for path in _sources(*PACKAGES):
        for name in _imports(path):
            assert name.split(".")[0] != "carom", f"{path.relative_to(ROOT)} imports {name}"


def test_import_synth_loads_no_app_module() -> None:
    loaded = _loaded_after("import synth")
    assert "synth" in loaded
    assert {m for m in loaded if m.split(".")[0] == "carom"} == set()


def test_the_product_source_imports_synth_only_in_carom_synth() -> None:
    for path in _sources("carom"):
        if path.relative_to(ROOT).as_posix() in APP_ONLY_SYNTH:
            continue
        for name in _imports(path):
            assert name.split(".")[0] != "synth", f"{path.relative_to(ROOT)} imports {name}"


def test_loading_the_product_and_its_commands_loads_no_synth() -> None:
    """Every app module (analyze, live, the server...) and the whole command line."""
    modules = _product_modules()
    assert {"carom.cli", "carom.analyze._run", "carom.live", "carom.web"} <= set(modules)
    statement = "; ".join(f"import {m}" for m in modules) + "; carom.cli._main._parser()"
    loaded = _loaded_after(statement)
    assert "carom.web._app" in loaded
    assert {m for m in loaded if m.split(".")[0] == "synth"} == set()


def test_synth_is_used_through_its_public_names() -> None:
    """Only synth and its tests reach into synth's private modules, and synth into nobody's."""
    mine = ("synth/", "tests/synth/")
    for path in _sources("carom", *PACKAGES, "tests", "bench", "train", "scripts"):
        rel = path.relative_to(ROOT).as_posix()
        for name in _imports(path):
            parts = name.split(".")
            private = len(parts) > 1 and parts[1].startswith("_")
            if parts[0] == "synth" and private:
                assert rel.startswith(mine), f"{rel} imports synth's private {name}"
            if rel.startswith("synth/") and private and parts[0] in ("carom", *PACKAGES):
                assert parts[0] == "synth", f"{rel} imports {name}, private to {parts[0]}"

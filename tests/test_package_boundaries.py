"""Package boundaries (docs/architecture.md): imports point one way, through public names.

* The adapters and the core (``referee``, ``calibration``, ``vision``, ``hardware``) and
  ``synth`` never import the app (``carom``).
* No package imports another top-level package's private modules (``from vision._x``
  outside ``vision``): only the names in its ``__init__``'s ``__all__``.
* Inside the app, each part (``carom.analyze``, ``carom.live``, ``carom.web`` ...) uses
  another part only through the names its ``__init__`` exports.
* ``calibration`` imports no ``vision`` and no ``hardware`` (vision builds on it).
* The product does not load ``synth`` to analyse, go live or serve.

Read from the source with ``ast`` (function-level imports included), so a lazy import
cannot hide.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).parents[1]
PACKAGES = ("referee", "calibration", "vision", "hardware", "synth", "carom")
ADAPTERS = ("referee", "calibration", "vision", "hardware", "synth")


def _imports(package: str) -> Iterator[tuple[Path, str]]:
    """(file, imported module) for every absolute import in ``package``'s source."""
    for path in sorted((ROOT / package).rglob("*.py")):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Import):
                yield from ((path, a.name) for a in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                yield path, node.module
                yield from ((path, f"{node.module}.{a.name}") for a in node.names)


def test_no_adapter_imports_the_app() -> None:
    bad = [
        f"{p.relative_to(ROOT)} imports {m}"
        for pkg in ADAPTERS
        for p, m in _imports(pkg)
        if m.split(".")[0] == "carom"
    ]
    assert bad == []


def test_no_package_imports_another_packages_private_modules() -> None:
    bad = []
    for pkg in PACKAGES:
        for path, module in _imports(pkg):
            parts = module.split(".")
            if (
                parts[0] in PACKAGES
                and parts[0] != pkg
                and any(p.startswith("_") and not p.startswith("__") for p in parts[1:])
            ):
                bad.append(f"{path.relative_to(ROOT)} imports {module}")
    assert bad == []


def _private_owner(module: str) -> str | None:
    """``carom.live`` for ``carom.live._store.X``: the part whose private module it is."""
    parts = module.split(".")
    for i, part in enumerate(parts[1:], 1):
        if part.startswith("_") and not part.startswith("__"):
            return ".".join(parts[:i])
    return None


def test_the_apps_parts_use_each_other_through_public_names() -> None:
    bad = []
    for path, module in _imports("carom"):
        rel = path.relative_to(ROOT).parts
        part = ".".join(rel[:2]) if len(rel) > 2 else "carom"  # carom/live/x.py: carom.live
        owner = _private_owner(module) if module.startswith("carom.") else None
        if owner is not None and owner != part and not owner.startswith(part + "."):
            bad.append(f"{path.relative_to(ROOT)} imports {module}")
    assert bad == []


def test_calibration_stands_below_vision_and_hardware() -> None:
    bad = [
        f"{p.relative_to(ROOT)} imports {m}"
        for p, m in _imports("calibration")
        if m.split(".")[0] in ("vision", "hardware", "synth")
    ]
    assert bad == []


def test_the_product_does_not_load_synth() -> None:
    statement = (
        "import carom.cli, carom.analyze, carom.live, carom.live.loop, carom.web, carom.web._app; "
        "import sys; print(' '.join(sorted(sys.modules)))"
    )
    out = subprocess.run([sys.executable, "-c", statement], check=True, capture_output=True,
                         text=True)  # fmt: skip
    loaded = set(out.stdout.split())
    assert {m for m in loaded if m.split(".")[0] == "synth"} == set()

"""The package's layers point down and the core imports no cycle.

import-linter's contracts (``pyproject.toml``) are the rule; these tests run them with the suite
and check the core more strictly than a contract can: no import cycle among its modules, and no
import hidden inside a function, where cycles used to be dodged.
"""

from __future__ import annotations

import ast
import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]
CORE = ROOT / "src" / "texas42" / "core"
LAYERS = ("core", "search", "players", "services", "faces")


def test_the_import_linter_contracts_are_kept() -> None:
    done = subprocess.run(
        [str(Path(sys.executable).parent / "lint-imports")],
        capture_output=True,
        text=True,
        cwd=ROOT,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "Contracts: 3 kept, 0 broken." in done.stdout


def test_the_core_imports_no_cycle() -> None:
    graph = grimp.build_graph("texas42")
    core = {m for m in graph.modules if m.startswith("texas42.core.")}
    assert len(core) >= 15
    cycles = [
        (module, imported)
        for module in sorted(core)
        for imported in sorted(graph.find_modules_directly_imported_by(module) & core)
        if graph.chain_exists(importer=imported, imported=module)
    ]
    assert cycles == []


def test_the_core_imports_at_the_top_of_each_module() -> None:
    hidden = []
    for path in sorted(CORE.glob("*.py")):
        tree = ast.parse(path.read_text())
        top = {id(node) for node in tree.body}
        for node in ast.walk(tree):
            if isinstance(node, ast.Import | ast.ImportFrom) and id(node) not in top:
                hidden.append(f"{path.name}:{node.lineno}")
    assert hidden == []


def test_every_module_sits_in_a_layer() -> None:
    package = ROOT / "src" / "texas42"
    loose = sorted(
        path.name
        for path in package.iterdir()
        if path.suffix == ".py" and path.stem not in ("__init__", "__main__", "extras")
    )
    folders = sorted(path.name for path in package.iterdir() if (path / "__init__.py").exists())
    assert loose == []
    assert folders == sorted(LAYERS)

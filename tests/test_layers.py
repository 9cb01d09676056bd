"""The package is layered and has no import cycles.

The layers themselves are import-linter's contract in pyproject.toml (run by
`make lint`); this test runs the same contract, and checks what a layers
contract cannot: that no two modules import each other, directly or through
others, anywhere in the package.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import grimp

ROOT = Path(__file__).resolve().parents[1]


def _cycles() -> list[tuple[str, ...]]:
    graph = grimp.build_graph("prin_guard", exclude_type_checking_imports=True)
    found: list[tuple[str, ...]] = []
    for importer in sorted(graph.modules):
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                found.append((importer, *back))
    return found


def test_no_module_imports_itself_back() -> None:
    assert _cycles() == []


def test_import_linter_contract_holds() -> None:
    lint = Path(sys.executable).with_name("lint-imports")
    out = subprocess.run(
        [str(lint), "--no-cache"], cwd=ROOT, capture_output=True, text=True, check=False
    )
    assert out.returncode == 0, out.stdout + out.stderr
    assert "Contracts: 1 kept, 0 broken." in out.stdout


def test_the_reader_and_the_formats_import_no_module_back_even_for_annotations() -> None:
    # issue 38, item 6: _evidence and _vocab imported each other (one for its annotations);
    # the formats read through reader._declared, which names the contract by a Protocol
    graph = grimp.build_graph("prin_guard", exclude_type_checking_imports=False, cache_dir=None)
    watched = sorted(m for m in graph.modules if m.startswith("prin_guard.reader"))
    found = []
    for importer in [*watched, "prin_guard._prompting._contract"]:
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                found.append((importer, *back))
    assert found == []

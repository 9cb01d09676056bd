"""The package is layered and has no import cycles.

The layers themselves are import-linter's contract in pyproject.toml (run by
`make lint`); this test runs the same contract, and checks what a layers
contract cannot: that no two modules import each other, directly or through
others, anywhere in the package.
"""

from __future__ import annotations

import importlib
import re
import subprocess
import sys
import tomllib
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
    # but for the public namespace's names found on first use (prin_guard.models: the
    # set-up's types, GuardOptions, Template, ...), which it names for the type checker
    # alone: no module of the package reads them from there
    for home in _typing_only_reexports():
        graph.remove_import(importer="prin_guard.models", imported=home)
    watched = sorted(m for m in graph.modules if m.startswith("prin_guard.reader"))
    found = []
    for importer in [*watched, "prin_guard._prompting._contract"]:
        for imported in sorted(graph.find_modules_directly_imported_by(importer)):
            back = graph.find_shortest_chain(importer=imported, imported=importer)
            if back is not None:
                found.append((importer, *back))
    assert found == []


def _typing_only_reexports() -> set[str]:
    from prin_guard import models

    return set(models._ELSEWHERE.values())


def test_the_public_data_types_import_the_set_up_types_for_the_type_checker_only() -> None:
    # prin_guard.models sits at the bottom; the set-up's types it makes public
    # (GuardOptions, Template, RatingItem, the verdict formats) live above it, so it
    # names them under TYPE_CHECKING and finds them on first use (PEP 562), never
    # importing them when it is imported
    runtime = grimp.build_graph("prin_guard", exclude_type_checking_imports=True, cache_dir=None)
    homes = _typing_only_reexports()
    assert homes, "prin_guard.models finds no name elsewhere: drop this test"
    assert not any(
        runtime.direct_import_exists(importer="prin_guard.models", imported=home) for home in homes
    )
    from prin_guard import models

    for name, home in models._ELSEWHERE.items():
        assert name in models.__all__
        assert getattr(models, name) is getattr(importlib.import_module(home), name)


def _contract_layers() -> list[str]:
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]
    (layers,) = (c["layers"] for c in config["contracts"] if c["type"] == "layers")
    return [" | ".join(name.strip() for name in layer.split("|")) for layer in layers]


def _table_layers() -> list[str]:
    page = (ROOT / "docs" / "development.md").read_text()
    block = re.search(r"It is layered.*?```\n(.*?)```", page, re.DOTALL)
    assert block is not None, "docs/development.md: the layer table is gone"
    # a row: the layer's modules (" | " between them), two spaces or more, what they hold
    rows = [
        re.split(r"\s{2,}", line.strip(), maxsplit=1)[0] for line in block.group(1).splitlines()
    ]
    return [" | ".join("prin_guard." + name.strip() for name in row.split("|")) for row in rows]


def test_the_layer_table_in_the_docs_is_the_contract() -> None:
    # issue 39, item 4: the table missed six modules; now it is read against the contract
    assert _table_layers() == _contract_layers()


def test_every_module_is_in_a_layer_and_every_layer_is_a_module() -> None:
    graph = grimp.build_graph("prin_guard", exclude_type_checking_imports=True, cache_dir=None)
    named = [name.strip() for layer in _contract_layers() for name in layer.split("|")]
    assert [name for name in named if name not in graph.modules] == []

    def covered(module: str) -> bool:
        parts = module.split(".")
        if any(".".join(parts[:n]) in named for n in range(1, len(parts) + 1)):
            return True
        # a package whose modules are in layers of their own (prin_guard._route) holds none
        return any(name.startswith(module + ".") for name in named)

    assert sorted(m for m in graph.modules if not covered(m)) == []

"""The Makefile and the test configuration say only what is theirs to say (issue 27).

``make demo`` printed setuptools' editable-install box of asterisks and transformers'
GGUF-conversion progress bar before its own lines, and the fast lane seven warnings of
pydantic about litellm's types. Each is quieted at its source, for that one message:
these tests run the Makefile's commands as ``make -n`` prints them, and pytest with the
project's configuration.
"""

from __future__ import annotations

import os
import shlex
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]

needs_make = pytest.mark.skipif(shutil.which("make") is None, reason="needs make")


def _commands(target: str, tmp_path: Path) -> list[str]:
    """The commands ``make <target>`` runs (``-n``: printed, not run) with a venv of
    ``tmp_path`` (none is made: nothing exists, so every step is printed)."""
    out = subprocess.run(
        ["make", "-n", "-C", str(ROOT), target, f"VENV={tmp_path / 'venv'}"],
        capture_output=True,
        text=True,
        check=True,
    )
    return out.stdout.splitlines()


def _environment(command: str) -> dict[str, str]:
    """The ``NAME=value`` assignments a shell command starts with."""
    found: dict[str, str] = {}
    for word in shlex.split(command):
        name, equals, value = word.partition("=")
        if not equals or not name.isidentifier():
            break
        found[name] = value
    return found


@needs_make
def test_editable_installs_do_not_print_setuptools_box(tmp_path: Path) -> None:
    editable = [
        line for line in _commands("install-dev", tmp_path) if " install --quiet -e" in line
    ]
    assert len(editable) == 2  # the package and the Inspect adapter
    env = _environment(editable[0])
    # the Makefile's environment, on a pip install of a copy of the package (no
    # dependencies, no build isolation: nothing is fetched), into a prefix of its own
    project = tmp_path / "project"
    project.mkdir()
    for name in ("pyproject.toml", "README.md"):
        shutil.copy(ROOT / name, project / name)
    shutil.copytree(ROOT / "prin_guard", project / "prin_guard")
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    # --ignore-installed: without it pip uninstalls the venv's own prin-guard first
    install += ["--ignore-installed", "--no-build-isolation", "--prefix", str(tmp_path / "prefix")]
    install += ["-e", str(project)]
    done = subprocess.run(
        install,
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        cwd=project,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "Editable installation" not in done.stderr
    assert "*****" not in done.stderr


@needs_make
def test_the_demo_draws_no_conversion_progress_bar(tmp_path: Path) -> None:
    (demo,) = [line for line in _commands("demo", tmp_path) if " demo --limit" in line]
    env = _environment(demo)
    # the bar transformers draws while it converts the bundled GGUF file, as it draws it
    code = (
        "from tqdm.auto import tqdm\n"
        "for _ in tqdm(range(3), desc='Converting and de-quantizing GGUF tensors...'):\n"
        "    pass\n"
    )
    drawn = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env={**os.environ, **env},
        check=True,
    )
    assert "Converting" not in drawn.stderr


def test_the_test_configuration_quiets_pydantics_warnings_about_litellms_types(
    tmp_path: Path,
) -> None:
    # litellm builds pydantic adapters of TypedDicts with ReadOnly items when its GitHub
    # Copilot module is imported, and pydantic warns once per type: seven warnings. litellm
    # silences them on its own import; pytest drops that filter when the test that imported
    # litellm ends, so a later test that loads the module (any litellm call does) shows them
    probe = tmp_path / "test_probe.py"
    probe.write_text(
        "import importlib\n"
        "def test_a_first_import():\n"
        "    importlib.import_module('litellm')\n"
        "def test_b_then_its_types():\n"
        "    importlib.import_module('litellm.llms.github_copilot.per_user_auth')\n"
    )
    config = ["-c", str(ROOT / "pyproject.toml"), "--rootdir", str(tmp_path)]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", *config, str(probe)],
        capture_output=True,
        text=True,
        env={**os.environ, "LITELLM_LOCAL_MODEL_COST_MAP": "True"},
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
    assert "ReadOnly" not in done.stdout and "warning" not in done.stdout

"""The documentation: a README a newcomer reads to the end, a site that builds strictly,
links that resolve, and the code blocks marked to run, run (issue 29, item 8)."""

from __future__ import annotations

import os
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"
_LINK = re.compile(r"\]\((?!https?://|mailto:|#)([^)#\s]+)(?:#[^)]*)?\)")
_RUN = re.compile(r"<!-- run[^>]*-->\n```python\n(.*?)\n```", re.DOTALL)


def test_the_readme_is_short() -> None:
    assert len((ROOT / "README.md").read_bytes()) < 15_000


def test_the_readme_gives_the_test_command() -> None:
    readme = (ROOT / "README.md").read_text()
    assert "make test " in readme and "make docs" in readme


@pytest.mark.parametrize("page", ["README.md", *sorted(p.name for p in DOCS.glob("*.md"))])
def test_relative_links_resolve(page: str) -> None:
    path = ROOT / page if page == "README.md" else DOCS / page
    missing = [
        target for target in _LINK.findall(path.read_text()) if not (path.parent / target).exists()
    ]
    assert missing == [], f"{page} links to missing files"


def test_every_page_is_in_the_site() -> None:
    config = (ROOT / "mkdocs.yml").read_text()
    pages = {p.name for p in DOCS.glob("*.md")}
    assert {name for name in pages if f" {name}" not in config} == set()


def test_the_site_builds_strictly(tmp_path: Path) -> None:
    env = {**os.environ, "NO_MKDOCS_2_WARNING": "1", "PYTHONPATH": str(ROOT)}
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path)],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env=env,
        timeout=600,
    )
    assert built.returncode == 0, built.stderr[-3000:]
    api = (tmp_path / "api" / "index.html").read_text()
    assert "read_reply" in api and "JudgeCaller" in api  # the reference is generated


def test_a_broken_link_fails_the_build(tmp_path: Path) -> None:
    site = tmp_path / "project"
    (site / "docs").mkdir(parents=True)
    (site / "docs" / "index.md").write_text("# x\n\nSee [the missing page](missing.md).\n")
    (site / "mkdocs.yml").write_text(
        "site_name: x\nstrict: true\nvalidation:\n  links:\n    not_found: warn\n"
    )
    built = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "s")],
        cwd=site,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
        timeout=600,
    )
    assert built.returncode != 0 and "missing.md" in built.stderr


def _marked_blocks() -> list[tuple[str, str]]:
    return [
        (f"{page.name}#{n}", block)
        for page in [ROOT / "README.md", *sorted(DOCS.glob("*.md"))]
        for n, block in enumerate(_RUN.findall(page.read_text()), 1)
    ]


def test_some_blocks_are_marked_to_run() -> None:
    assert len(_marked_blocks()) >= 1


@pytest.mark.parametrize(("where", "block"), _marked_blocks(), ids=lambda v: str(v)[:40])
def test_marked_code_blocks_run(where: str, block: str, tmp_path: Path) -> None:
    ran = subprocess.run(
        [sys.executable, "-c", block],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
        timeout=300,
    )
    assert ran.returncode == 0, f"{where}: {ran.stderr[-2000:]}"


def test_the_wheel_installs_and_imports_on_its_own(tmp_path: Path) -> None:
    # What a user installs is the built wheel, not this checkout: build it (no network, no
    # build isolation: the venv's setuptools), install it into a folder of its own and
    # import it from there, away from the source tree, with its shipped data.
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    wheel_dir, target = tmp_path / "wheel", tmp_path / "site"
    build = [sys.executable, "-m", "pip", "wheel", "--quiet", "--no-deps"]
    build += ["--no-build-isolation", "-w", str(wheel_dir), str(ROOT)]
    built = subprocess.run(build, capture_output=True, text=True, env=env, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    (wheel,) = wheel_dir.glob("prin_guard-*.whl")
    install = [sys.executable, "-m", "pip", "install", "--quiet", "--no-deps"]
    install += ["--target", str(target), str(wheel)]
    done = subprocess.run(install, capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    code = (
        "import prin_guard, prin_guard.cli;"
        "from prin_guard.datasets import sample_path;"
        "print(prin_guard.__file__); print(sample_path('mathqa').is_file())"
    )
    ran = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=tmp_path,
        env={**env, "PYTHONPATH": str(target)},
        timeout=300,
    )
    assert ran.returncode == 0, ran.stderr[-2000:]
    where, has_sample = ran.stdout.split()
    assert where.startswith(str(target)) and has_sample == "True"


def test_every_test_file_that_needs_the_shared_folder_is_named_where_tests_are_described() -> None:
    # issue 37: tests skipped without ../shared, and nothing said so
    needs = sorted(
        path.name
        for path in (ROOT / "tests").glob("test_*.py")
        if re.search(r'SHARED_DATA|shared_data|"shared" /', path.read_text())
    )
    assert needs, "no test reads ../shared any more: update docs/development.md"
    page = " ".join((DOCS / "development.md").read_text().split())
    assert "../shared" in page and "skip" in page
    assert [name for name in needs if f"tests/{name}" not in page] == []
    assert "development.md" in (DOCS / "testing.md").read_text()


_PYTHON_JUDGE_RULE = (
    "A `python:module:attr` judge's module is imported from the current directory first, "
    "then from the installed packages and `PYTHONPATH`, on every command (`check`, `grade`, "
    "`eval`, `serve`)"
)


def test_where_a_python_judge_is_imported_from_is_said_once_and_holds_for_serve(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # issue 37: service.md said "not from the current directory", templates.md the opposite
    for page in ("service.md", "templates.md"):
        assert _PYTHON_JUDGE_RULE in " ".join((DOCS / page).read_text().split()), page
    pytest.importorskip("fastapi")
    from prin_guard.server._config import load_config
    from prin_guard.server._state import build_judges

    (tmp_path / "judge_beside_the_service.py").write_text(
        "def judge(prompt: str) -> str:\n    return 'Answer: A'\n"
    )
    monkeypatch.chdir(tmp_path)
    monkeypatch.setattr(sys, "path", [p for p in sys.path if p not in ("", str(tmp_path))])
    config = load_config(environ={}, overrides={"judge": "python:judge_beside_the_service:judge"})
    ((judge,),) = build_judges(config)
    assert judge.identity()["kind"] == "function"

